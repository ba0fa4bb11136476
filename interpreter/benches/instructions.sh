#!/bin/sh
# Instructions per random playout, which machine load does not move:
#   interpreter/benches/instructions.sh            (every example and shipped game)
#   interpreter/benches/instructions.sh reversi    (the games whose name contains "reversi")
#   SAMPLING=draw interpreter/benches/instructions.sh   (options drawn, not listed: `simulate --sampling draw`)
# Run from the repository root after `cargo build --release`. For each game,
# callgrind counts the instructions of `regel simulate` with N and with 2N
# games on one thread; the difference, divided by N, is the cost of one game
# without the cost of loading and checking the rules.
set -eu
regel=${REGEL:-./target/release/regel}
sampling=${SAMPLING:-list}
filter=${1:-}

count() { # games file players
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$regel" simulate "$2" --players "$3" \
        --games "$1" --threads 1 --no-invariants --format json --sampling "$sampling" 2>&1 >/dev/null | sed -n 's/.*Collected : //p'
}

measure() { # name file players n
    case "$1" in *"$filter"*) ;; *) return 0 ;; esac
    if ! "$regel" check "$2" >/dev/null 2>&1; then
        echo "$1 ($3 players): skipped, $2 does not check"
        return 0
    fi
    a=$(count "$4" "$2" "$3")
    b=$(count $(($4 * 2)) "$2" "$3")
    echo "$1 ($3 players): $(((b - a) / $4)) instructions per game (games $4..$(($4 * 2 - 1)))"
}

measure tic-tac-toe examples/tic-tac-toe/tic-tac-toe.rules 2 2000
measure connect-four examples/connect-four/connect-four.rules 2 500
measure breakthrough examples/breakthrough/breakthrough.rules 2 200
measure reversi examples/reversi/reversi.rules 2 100
measure nim examples/nim/nim.rules 2 5000
measure nim-misere examples/nim/misere.rules 2 5000
measure yacht examples/yacht/yacht.rules 2 500
measure route-builder examples/route-builder/route-builder.rules 2 100
measure coin-auction examples/coin-auction/coin-auction.rules 2 500
measure auf-heller-und-pfennig rulesets/auf-heller-und-pfennig/auf-heller-und-pfennig.rules 4 200
measure auf-heller-und-pfennig rulesets/auf-heller-und-pfennig/auf-heller-und-pfennig.rules 2 200
measure hasp rulesets/hasp/hasp.rules 4 200
measure hansa rulesets/hansa/hansa.rules 4 50
measure hansa-teutonica rulesets/hansa-teutonica/hansa-teutonica.rules 3 10
measure hansa-teutonica rulesets/hansa-teutonica/hansa-teutonica.rules 5 10
