#!/bin/sh
# Whether two builds play the same games: every shipped ruleset, variant and
# example through `check`, `simulate` (100 seeded games listed, 20 drawn) and
# `trace`, at 2 to 5 players (refusals of a player count included), once
# with each build; then the outputs compared.
#   interpreter/benches/same-games.sh OLD_BINARY NEW_BINARY
# Run from the repository root. Prints the differences and exits with 1 if
# there are any, 0 if every output is byte-identical, 2 on a bad argument.
# A change meant to make the engine faster and nothing else must pass this.
set -u
if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
    echo "usage: $0 OLD_BINARY NEW_BINARY (two regel executables)" >&2
    exit 2
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() { # binary folder
    mkdir -p "$2"
    for f in rulesets/*/*.rules examples/*/*.rules; do
        n=$(echo "$f" | tr '/' '_')
        "$1" check "$f" >"$2/$n.check" 2>&1
        echo "exit $?" >>"$2/$n.check"
        for p in 2 3 4 5; do
            "$1" simulate "$f" --players $p --games 100 --seed 7 --threads 1 --format json >"$2/$n.list$p" 2>&1
            echo "exit $?" >>"$2/$n.list$p"
            "$1" simulate "$f" --players $p --games 20 --seed 3 --threads 1 --sampling draw --format json >"$2/$n.draw$p" 2>&1
            echo "exit $?" >>"$2/$n.draw$p"
            "$1" trace "$f" --players $p --seed $p >"$2/$n.trace$p" 2>&1
            echo "exit $?" >>"$2/$n.trace$p"
        done
    done
}
run "$1" "$out/old"
run "$2" "$out/new"
files=$(ls "$out/old" | wc -l)
if diff -r "$out/old" "$out/new"; then
    echo "the same games: $files outputs byte-identical"
else
    echo "the builds differ (above)" >&2
    exit 1
fi
