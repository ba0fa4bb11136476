//! The widened targets: command lines drawn from every command and flag,
//! and the record writer and reader. See [`crate::Kind::Command`] and
//! [`crate::Kind::RoundTrip`].

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use regel::cli::record::Record;
use regel::diag::Sources;
use std::hash::{Hash, Hasher};

/// A generator seeded by the input's text, so the command line of an input
/// is the same every time the input is run.
pub(crate) fn rng_of(text: &str) -> ChaCha8Rng {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    ChaCha8Rng::seed_from_u64(h.finish())
}

fn pick<'a>(rng: &mut ChaCha8Rng, xs: &[&'a str]) -> &'a str {
    xs[rng.gen_range(0..xs.len())]
}

/// Hostile values for numeric flags: the edges of every integer type, zero,
/// negatives, words, and a few small values that actually run.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "-1",
    "18446744073709551615",
    "18446744073709551616",
    "9223372036854775807",
    "9223372036854775808",
    "4294967296",
    "1000001",
    "1e3",
    "",
    "x",
    "2.5",
    "+1",
    " 1",
];
const SMALL: &[&str] = &["1", "2"];
const SEATS: &[&str] = &[
    "random",
    "mcts:4:4",
    "mcts:8:3",
    "mcts:1:1",
    "mcts:0",
    "mcts:4294967296",
    "human",
    "mcts:x",
    "bot",
    "",
    "mcts:3:0",
];
const OPTIONS: &[&str] = &[
    "max_take=1",
    "misere=true",
    "x=1",
    "=",
    "a",
    "max_take=9223372036854775808",
    "misere=2",
    "max_take=1",
];

/// A command line over `file` (a mutated ruleset in the scratch tree) and
/// `orig` (the ruleset it was mutated from). Counts that make a run long
/// (games, MCTS iterations) are drawn from small values or from values the
/// command line must refuse before running anything.
pub(crate) fn argv(rng: &mut ChaCha8Rng, file: &str, orig: &str, records: &str) -> Vec<String> {
    let mut a: Vec<String> = vec![];
    let push = |a: &mut Vec<String>, xs: &[&str]| a.extend(xs.iter().map(|s| s.to_string()));
    let players = if rng.gen_ratio(1, 8) {
        pick(rng, NUMBERS)
    } else {
        pick(rng, &["1", "2", "3", "4", "5"])
    };
    // A count that may run: small, or one the command line refuses.
    let count = |rng: &mut ChaCha8Rng| {
        if rng.gen_ratio(1, 4) {
            pick(
                rng,
                &[
                    "0",
                    "18446744073709551615",
                    "100000000",
                    "-1",
                    "x",
                    "1000001",
                ],
            )
        } else {
            pick(rng, SMALL)
        }
    };
    match rng.gen_range(0..6) {
        0 | 1 => {
            push(&mut a, &["simulate", file, "--players", players]);
            push(&mut a, &["--games", count(rng)]);
            if rng.gen_bool(0.5) {
                push(&mut a, &["--seat", pick(rng, SEATS)]);
            }
            if rng.gen_bool(0.3) {
                push(&mut a, &["--coverage"]);
            }
            if rng.gen_bool(0.3) {
                push(&mut a, &["--records", records]);
            }
            if rng.gen_bool(0.2) {
                push(
                    &mut a,
                    &[
                        "--deadline",
                        pick(rng, &["0.5", "0", "-1", "1e300", "nan", "x", "86401"]),
                    ],
                );
            }
            if rng.gen_bool(0.3) {
                push(
                    &mut a,
                    &[
                        "--threads",
                        pick(rng, &["1", "2", "0", "257", "18446744073709551615"]),
                    ],
                );
            }
            if rng.gen_bool(0.3) {
                push(&mut a, &["--no-invariants"]);
            }
        }
        2 => {
            push(&mut a, &["compare", orig, file, "--players", players]);
            push(&mut a, &["--games", count(rng), "--batch", count(rng)]);
            if rng.gen_bool(0.3) {
                push(
                    &mut a,
                    &[
                        "--precision",
                        pick(rng, &["0", "-1", "nan", "inf", "1e308", "3"]),
                    ],
                );
            }
            if rng.gen_bool(0.3) {
                push(&mut a, &["--seat", pick(rng, SEATS)]);
            }
            push(&mut a, &["--threads", "1"]);
        }
        3 => {
            push(&mut a, &["draw", file]);
            if rng.gen_bool(0.7) {
                push(&mut a, &["--players", players]);
            }
            if rng.gen_bool(0.5) {
                push(&mut a, &["--format", pick(rng, &["svg", "dot", "png"])]);
            }
            if rng.gen_bool(0.3) {
                push(
                    &mut a,
                    &[
                        "--seat",
                        pick(rng, &["0", "1", "2", "9", "-1", "first", "x"]),
                    ],
                );
            }
        }
        4 => push(&mut a, &["trace", file, "--players", players]),
        _ => {
            push(&mut a, &["check", file]);
            if rng.gen_bool(0.5) {
                push(&mut a, &["--format", "json"]);
            }
        }
    }
    // Flags every running command shares, sometimes twice or misspelt.
    if a[0] != "check" {
        if rng.gen_bool(0.3) {
            push(&mut a, &["--seed", pick(rng, NUMBERS)]);
        }
        if rng.gen_bool(0.3) {
            push(&mut a, &["--option", pick(rng, OPTIONS)]);
            if rng.gen_bool(0.3) {
                push(&mut a, &["--option", pick(rng, OPTIONS)]);
            }
        }
        if a[0] != "draw" && a[0] != "trace" && rng.gen_bool(0.2) {
            push(
                &mut a,
                &[
                    "--step-budget",
                    pick(rng, &["0", "1", "100", "18446744073709551615", "-1"]),
                ],
            );
        }
    }
    if rng.gen_ratio(1, 10) {
        let k = rng.gen_range(1..a.len());
        let junk = pick(
            rng,
            &[
                "--",
                "-h",
                "--games",
                "--players",
                "--format",
                "--root",
                "\u{0}",
                "é",
                "--seed=1",
            ],
        );
        a.insert(k, junk.to_string());
    }
    a
}

/// Strings a label or option may hold: quotes, backslashes, newlines,
/// control characters, TOML syntax, long runs.
fn hostile_text(rng: &mut ChaCha8Rng) -> String {
    const PARTS: &[&str] = &[
        "\"",
        "\\",
        "\n",
        "\r",
        "\t",
        "\u{0}",
        "\u{1b}[31m",
        "'''",
        "\"\"\"",
        "#",
        "=",
        "[",
        "]",
        "{",
        "}",
        "é",
        "\u{202e}",
        "𝄞",
        " ",
        "a",
        "decisions = []",
        "\\u0000",
    ];
    let n = rng.gen_range(0..12);
    let mut s: String = (0..n).map(|_| pick(rng, PARTS)).collect();
    if rng.gen_ratio(1, 20) {
        s.push_str(&"x".repeat(rng.gen_range(1..5000)));
    }
    s
}

/// Writes `r`, reads it back, and asserts it is the same record.
fn same_after_writing(r: &Record) {
    let text = r.to_toml();
    let back = Record::from_toml(&mut Sources::default(), "round-trip.toml", &text)
        .unwrap_or_else(|d| panic!("a written record does not read back: {}", d.message));
    let mut want = r.clone();
    want.deciders = vec![];
    assert!(back == want, "a record changed on its way through a file");
}

/// A mutated record that reads is written and read again; then a record of
/// hostile values (the seeds, scores and players the command line accepts,
/// labels and options of any text) is.
pub(crate) fn round_trip(text: &str) {
    if let Ok(r) = Record::from_toml(&mut Sources::default(), "fuzz.toml", text) {
        same_after_writing(&r);
    }
    let mut rng = rng_of(text);
    let seed = match rng.gen_range(0..4) {
        0 => 0,
        1 => i64::MAX as u64,
        2 => rng.gen_range(0..=i64::MAX as u64),
        _ => rng.gen_range(0..1000),
    };
    let n = rng.gen_range(0..6);
    let r = Record {
        ruleset: hostile_text(&mut rng),
        game: hostile_text(&mut rng),
        variants: (0..rng.gen_range(0..3))
            .map(|_| hostile_text(&mut rng))
            .collect(),
        players: rng.gen_range(0..1000),
        seed,
        options: (0..rng.gen_range(0..3))
            .map(|_| hostile_text(&mut rng))
            .collect(),
        decisions: (0..n).map(|_| hostile_text(&mut rng)).collect(),
        scores: rng.gen_bool(0.5).then(|| {
            (0..rng.gen_range(0..5))
                .map(|_| match rng.gen_range(0..3) {
                    0 => i64::MIN,
                    1 => i64::MAX,
                    _ => rng.gen(),
                })
                .collect()
        }),
        deciders: (0..n).map(|_| hostile_text(&mut rng)).collect(),
    };
    same_after_writing(&r);
}
