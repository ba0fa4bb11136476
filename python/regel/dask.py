"""`regel simulate` and `regel compare` fanned out over a Dask cluster.

Each task runs one shard (`--shard K/N`) in the Rust engine on a worker and
returns its partial result; the partials are merged where the client runs,
into exactly what one local run prints. A shard is a pure function of its
arguments, so a task lost with its worker is simply run again elsewhere
(Dask reschedules it; `retries` covers tasks that raise).

The workers must see the rulesets at the same paths as the client (a shared
folder, or the same checkout on every machine): `merge` reads them again and
refuses one whose files differ from what the shards played.
"""

from . import compare as _compare
from . import merge, simulate as _simulate


def _shard(k, n, command, args, kwargs):
    return command(*args, shard=(k, n), **kwargs)


def _fan(client, command, args, kwargs, shards, retries, format):
    """Runs `command(*args, shard=(k, shards), **kwargs)` for every k as
    Dask tasks and merges their partials in `format`."""
    if shards is None:
        shards = max(1, 2 * len(client.scheduler_info().get("workers", {})))
    futures = [
        client.submit(_shard, k, shards, command, args, kwargs, retries=retries)
        for k in range(1, shards + 1)
    ]
    parts = client.gather(futures)
    return merge(parts, format=format, root=kwargs.get("root"))


def simulate(client, path, players, games=100, seed=0, shards=None, retries=2, format="json", **kwargs):
    """Runs `regel simulate` as `shards` shards on the Dask `client`'s
    cluster (default: two per worker) and returns the merged summary.

    Every keyword argument of `regel.simulate` but `shard` and `format` may be
    given (options, seats, invariants, coverage, threads, step_budget,
    deadline, root).
    """
    kwargs.update(games=games, seed=seed)
    return _fan(client, _simulate, (str(path), players), kwargs, shards, retries, format)


def compare(client, base, variant, players, games=2000, seed=0, shards=None, retries=2, format="json", **kwargs):
    """Runs `regel compare` as `shards` shards on the Dask `client`'s
    cluster and returns the merged report: exactly the local comparison's,
    stopped where it stops (the shards play every pair of the budget, so a
    comparison that stops early costs more here than locally).

    Every keyword argument of `regel.compare` but `shard` and `format` may be
    given (batch, precision, options, seats, threads, step_budget, root).
    """
    kwargs.update(games=games, seed=seed)
    return _fan(client, _compare, (str(base), str(variant), players), kwargs, shards, retries, format)
