#!/usr/bin/env python3
"""Regel beside RBG's interpreter on the four classic games, the way the
README's "Speed" section measures it:

    interpreter/benches/against-rbg.py --rbg RBG/build/benchmark --games RBGGAMES/games
        [--regel target/release/regel] [--rounds 5] [--core 0] [--callgrind RBG/build-v3/benchmark]

Build RBG's interpreter outside this repository as `../shared/peers.md`
says (fetch `shrumo/rbggamemanager`, `uicus/rbgParser` and
`marekesz/rbgGames`). For each game and round, RBG's `benchmark --sim K`,
then `regel simulate` listing the options, then drawing them, run one after
another pinned to one core; the user + system time of each gives playouts
per CPU-second, printed as the median and the range over the rounds.

With `--callgrind BENCHMARK`, instructions per game are counted too:
callgrind over N and 2N playouts, the difference divided by N, for that
RBG binary and for Regel. valgrind cannot run code built with AVX-512, so
give it an RBG build made with `-march=x86-64-v3` instead of `native` if
this CPU has it.

Run from the repository root. Exits with 2 on a bad argument or a missing
file, and with 1 if a run fails.
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys

# (name, RBG game, Regel ruleset, playouts timed, playouts counted)
GAMES = [
    ("tic-tac-toe", "ticTacToe", "examples/tic-tac-toe/tic-tac-toe.rules", 100000, 2000),
    ("connect four", "connect4", "examples/connect-four/connect-four.rules", 20000, 500),
    ("breakthrough", "breakthrough", "examples/breakthrough/breakthrough.rules", 2000, 200),
    ("reversi", "reversi", "examples/reversi/reversi.rules", 1500, 100),
]


def cpu_seconds(cmd, core):
    """Runs `cmd` pinned to `core`; its user + system time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(["taskset", "-c", str(core)] + cmd, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def instructions(cmd):
    """The instructions callgrind counts for `cmd`."""
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd,
                         capture_output=True, text=True, check=True).stderr
    m = re.search(r"Collected : (\d+)", out)
    if not m:
        raise RuntimeError(f"callgrind counted nothing for {cmd[0]}:\n{out[-400:]}")
    return int(m.group(1))


def regel_cmd(regel, rules, n, seed, sampling):
    return [regel, "simulate", rules, "--players", "2", "--games", str(n), "--seed", str(seed),
            "--threads", "1", "--no-invariants", "--format", "json", "--sampling", sampling]


def fmt(v):
    return f"{statistics.median(v):,.0f} ({min(v):,.0f} – {max(v):,.0f})"


def main():
    ap = argparse.ArgumentParser(
        description="Regel beside RBG's interpreter on the four classic games: playouts per "
        "CPU-second in turn, and with --callgrind instructions per game.",
        epilog=__doc__.split("\n\n", 2)[2], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rbg", required=True, help="RBG's interpreter: its `benchmark` binary")
    ap.add_argument("--games", required=True, help="rbgGames' `games` folder")
    ap.add_argument("--regel", default="target/release/regel", help="the regel binary")
    ap.add_argument("--rounds", type=int, default=5, help="rounds of each game (default 5)")
    ap.add_argument("--core", type=int, default=0, help="the core to pin every run to")
    ap.add_argument("--callgrind", metavar="BENCHMARK",
                    help="also count instructions, with this RBG build")
    a = ap.parse_args()
    for path in [a.rbg, a.regel] + ([a.callgrind] if a.callgrind else []):
        if not os.access(path, os.X_OK):
            print(f"error: {path} is not an executable file", file=sys.stderr)
            return 2
    if a.rounds < 1:
        print("error: --rounds must be at least 1", file=sys.stderr)
        return 2
    for _, rbg_game, rules, _, _ in GAMES:
        for path in (os.path.join(a.games, rbg_game + ".rbg"), rules):
            if not os.path.isfile(path):
                print(f"error: no file {path} (run from the repository root)", file=sys.stderr)
                return 2
    try:
        for name, rbg_game, rules, n, k in GAMES:
            rbg_file = os.path.join(a.games, rbg_game + ".rbg")
            times = {"rbg": [], "list": [], "draw": []}
            for r in range(1, a.rounds + 1):
                times["rbg"].append(n / cpu_seconds([a.rbg, rbg_file, "--sim", str(n), "--seed", str(r)], a.core))
                for s in ("list", "draw"):
                    times[s].append(n / cpu_seconds(regel_cmd(a.regel, rules, n, r, s), a.core))
            print(f"{name}: playouts per CPU-second: RBG interpreter {fmt(times['rbg'])}, "
                  f"Regel listed {fmt(times['list'])}, drawn {fmt(times['draw'])}", flush=True)
            if a.callgrind:
                def per_game(run):
                    return (instructions(run(2 * k)) - instructions(run(k))) // k
                rbg_i = per_game(lambda m: [a.callgrind, rbg_file, "--sim", str(m), "--seed", "1"])
                counts = {s: per_game(lambda m, s=s: regel_cmd(a.regel, rules, m, 0, s))
                          for s in ("list", "draw")}
                print(f"{name}: instructions per game: RBG interpreter {rbg_i:,}, Regel listed "
                      f"{counts['list']:,} ({counts['list'] / rbg_i:.2f}×), drawn {counts['draw']:,} "
                      f"({counts['draw'] / rbg_i:.2f}×)", flush=True)
    except (subprocess.CalledProcessError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
