"""`regel simulate` fanned out over a Dask cluster.

Each task runs one shard (`regel simulate --shard K/N`) in the Rust engine on
a worker and returns its partial result; the partials are merged where the
client runs, into exactly what one local run prints. A shard is a pure
function of its arguments, so a task lost with its worker is simply run
again elsewhere (Dask reschedules it; `retries` covers tasks that raise).

The workers must see the ruleset at the same path as the client (a shared
folder, or the same checkout on every machine): `merge` reads it again and
refuses it if its files differ from what the shards played.
"""

from . import merge, simulate as _simulate


def _shard(k, n, path, players, games, seed, kwargs):
    return _simulate(path, players, games=games, seed=seed, shard=(k, n), **kwargs)


def simulate(client, path, players, games=100, seed=0, shards=None, retries=2, format="json", **kwargs):
    """Runs `regel simulate` as `shards` shards on the Dask `client`'s
    cluster (default: two per worker) and returns the merged summary.

    Every keyword argument of `regel.simulate` but `shard` and `format` may be
    given (options, seats,
    invariants, coverage, threads, step_budget, deadline, root).
    """
    if shards is None:
        shards = max(1, 2 * len(client.scheduler_info().get("workers", {})))
    futures = [
        client.submit(
            _shard,
            k,
            shards,
            str(path),
            players,
            games,
            seed,
            kwargs,
            retries=retries,
        )
        for k in range(1, shards + 1)
    ]
    parts = client.gather(futures)
    root = kwargs.get("root")
    return merge(parts, format=format, root=root)
