#!/usr/bin/env python3
"""Playouts per CPU-second of two or more builds, run in turn:

    interpreter/benches/cpu-time.py BUILD BUILD [BUILD ...] [--rounds 7]
        [--core 0] [--sampling list|draw] [--game NAME ...]

For every example and shipped game (or those whose name contains a
`--game`), each round runs `regel simulate FILE --threads 1
--no-invariants` once with each build, one after another and pinned to one
core, and takes the user + system time. It prints, per game and build, the
median and the range over the rounds. On a shared machine the rounds of one
run can spread by a quarter or more: compare medians over many rounds, and
trust `instructions.sh` for small differences.

Run from the repository root. Exits with 2 on a bad argument and with 1 if
a run fails.
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys

# (name, ruleset, players, games a run)
GAMES = [
    ("tic-tac-toe", "examples/tic-tac-toe/tic-tac-toe.rules", 2, 40000),
    ("connect-four", "examples/connect-four/connect-four.rules", 2, 10000),
    ("breakthrough", "examples/breakthrough/breakthrough.rules", 2, 1000),
    ("reversi", "examples/reversi/reversi.rules", 2, 600),
    ("nim", "examples/nim/nim.rules", 2, 40000),
    ("yacht", "examples/yacht/yacht.rules", 2, 1500),
    ("route-builder", "examples/route-builder/route-builder.rules", 2, 10000),
    ("coin-auction", "examples/coin-auction/coin-auction.rules", 2, 10000),
    ("auf-heller-und-pfennig-4p", "rulesets/auf-heller-und-pfennig/auf-heller-und-pfennig.rules", 4, 2000),
    ("hasp-4p", "rulesets/hasp/hasp.rules", 4, 3000),
    ("hansa-4p", "rulesets/hansa/hansa.rules", 4, 600),
    ("hansa-teutonica-3p", "rulesets/hansa-teutonica/hansa-teutonica.rules", 3, 20),
]


def cpu_rate(build, core, sampling, path, players, games):
    """Playouts per CPU-second of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cmd = ["taskset", "-c", str(core), build, "simulate", path, "--players", str(players),
           "--games", str(games), "--threads", "1", "--no-invariants", "--format", "json",
           "--sampling", sampling]
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{done.stderr}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return games / cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("builds", nargs="+", help="regel executables to compare")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--core", type=int, default=0)
    ap.add_argument("--sampling", choices=["list", "draw"], default="list")
    ap.add_argument("--game", action="append", default=[],
                    help="only the games whose name contains this (repeatable)")
    a = ap.parse_args()
    for b in a.builds:
        if not os.access(b, os.X_OK):
            ap.error(f"{b} is not an executable")
    if a.rounds < 1:
        ap.error("--rounds must be at least 1")
    for name, path, players, games in GAMES:
        if a.game and not any(g in name for g in a.game):
            continue
        rates = {b: [] for b in a.builds}
        for _ in range(a.rounds):
            for b in a.builds:
                rates[b].append(cpu_rate(b, a.core, a.sampling, path, players, games))
        parts = [f"{b}: {statistics.median(r):,.0f} ({min(r):,.0f} – {max(r):,.0f})"
                 for b, r in rates.items()]
        print(f"{name}: " + "; ".join(parts), flush=True)


if __name__ == "__main__":
    main()
