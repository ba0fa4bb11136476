"""Regel for Python: game rules as data, played by the Rust engine.

The game API follows OpenSpiel's shape::

    import regel
    game = regel.load("examples/nim/nim.rules", players=2)
    state = game.new_initial_state(seed=7)
    while not state.is_terminal():
        state.apply_action(random.choice(state.legal_actions()))
    state.returns()

``simulate``, ``compare`` and ``merge`` run the ``regel`` command line
in-process, so their output is byte for byte what ``regel simulate``,
``regel compare`` and ``regel merge`` print; ``regel.dask`` fans a
simulation or a comparison out over a Dask cluster as shards.
"""

from ._regel import TERMINAL, Game, State
from ._regel import merge_texts as _merge_texts
from ._regel import run as _run

__all__ = [
    "TERMINAL",
    "Game",
    "State",
    "RegelError",
    "load",
    "run",
    "simulate",
    "compare",
    "merge",
    "play_random",
]


class RegelError(Exception):
    """A command the engine refused: its exit code and what it wrote on stderr."""

    def __init__(self, code, stderr):
        super().__init__(stderr.strip() or f"regel exited with {code}")
        self.code = code
        self.stderr = stderr


def _option_args(options):
    """`--option` values from a dict ({"name": value}) or `name=value` strings."""
    if options is None:
        return []
    if isinstance(options, dict):
        out = []
        for name, value in options.items():
            if isinstance(value, bool):
                value = "true" if value else "false"
            out.append(f"{name}={value}")
        return out
    return list(options)


def load(path, players, options=None, root=None, step_budget=None):
    """Loads and checks a ruleset (or a variant) for `players` seats.

    `options` sets the ruleset's options (a dict, or `name=value` strings);
    `root` is the folder the ruleset may read files from (`--root`). A
    ruleset with errors raises ValueError with its diagnostics.
    """
    return Game(str(path), players, _option_args(options), root, step_budget)


def run(args, root=None):
    """Runs a `regel` command line in-process: (exit code, stdout, stderr)."""
    return _run([str(a) for a in args], root)


def simulate(
    path,
    players,
    games=100,
    seed=0,
    options=None,
    seats=None,
    shard=None,
    format="json",
    invariants=True,
    coverage=False,
    threads=None,
    step_budget=None,
    deadline=None,
    root=None,
):
    """`regel simulate`'s output, as text: the summary in `format`, or with
    `shard=(k, n)` the partial result of slice k of n, for `merge`.

    Games that fail are in the summary (the command's exit code 1); a run
    the engine refuses raises RegelError.
    """
    args = ["simulate", str(path), "--players", players, "--games", games, "--seed", seed]
    args += ["--format", format]
    for o in _option_args(options):
        args += ["--option", o]
    for s in seats or []:
        args += ["--seat", s]
    if shard is not None:
        args += ["--shard", f"{shard[0]}/{shard[1]}"]
    if not invariants:
        args.append("--no-invariants")
    if coverage:
        args.append("--coverage")
    if threads is not None:
        args += ["--threads", threads]
    if step_budget is not None:
        args += ["--step-budget", step_budget]
    if deadline is not None:
        args += ["--deadline", deadline]
    code, out, err = run(args, root)
    if code not in (0, 1) or not out:
        raise RegelError(code, err)
    return out


def compare(
    base,
    variant,
    players,
    games=2000,
    seed=0,
    batch=None,
    precision=None,
    options=None,
    seats=None,
    shard=None,
    format="json",
    threads=None,
    step_budget=None,
    root=None,
):
    """`regel compare`'s output, as text: the report in `format`, or with
    `shard=(k, n)` the partial result of slice k of n (every pair of it),
    for `merge`, which stops where the whole comparison would have stopped.
    """
    args = ["compare", str(base), str(variant), "--players", players]
    args += ["--games", games, "--seed", seed, "--format", format]
    if batch is not None:
        args += ["--batch", batch]
    if precision is not None:
        args += ["--precision", precision]
    for o in _option_args(options):
        args += ["--option", o]
    for s in seats or []:
        args += ["--seat", s]
    if shard is not None:
        args += ["--shard", f"{shard[0]}/{shard[1]}"]
    if threads is not None:
        args += ["--threads", threads]
    if step_budget is not None:
        args += ["--step-budget", step_budget]
    code, out, err = run(args, root)
    if code not in (0, 1) or not out:
        raise RegelError(code, err)
    return out


def merge(parts, format="json", root=None):
    """`regel merge` of partial results given as texts (as `simulate(...,
    shard=...)` or `compare(..., shard=...)` return them): exactly the whole
    run's summary or report."""
    named = [(f"part {i + 1}", text) for i, text in enumerate(parts)]
    code, out, err = _merge_texts(named, format, root)
    if code not in (0, 1) or not out:
        raise RegelError(code, err)
    return out


def play_random(state, rng):
    """Plays `state` to its end with uniformly random actions drawn from
    `rng` (a `random.Random`); returns the final state."""
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state
