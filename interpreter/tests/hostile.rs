//! Issue 27, "nothing leaked, nothing lost": the command line used as a
//! hostile or careless user would use it. Each test names the reproducer
//! class it covers and fails on the code before the fix.

use regel::cli::{run, Io};
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::Command;

fn cli(args: &[&str]) -> (i32, String, String) {
    let mut argv = vec!["regel".to_string()];
    argv.extend(args.iter().map(|s| s.to_string()));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut inp = Cursor::new(Vec::new());
    let code = run(
        &argv,
        &mut Io {
            out: &mut out,
            err: &mut err,
            input: &mut inp,
            color: false,
            root: None,
            term: false,
        },
    );
    (
        code,
        String::from_utf8_lossy(&out).into_owned(),
        String::from_utf8_lossy(&err).into_owned(),
    )
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("regel-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const NIM: &str = "examples/nim/nim.rules";

/// A file-policy escape: a record names the file to read as its ruleset.
/// The root comes from the record, never from what the record names, so a
/// record naming a file outside it is refused with E0001 and nothing of the
/// file is echoed, in text and in JSON.
#[test]
fn a_record_cannot_widen_the_root() {
    let d = tmp("record");
    std::fs::create_dir_all(d.join("records")).unwrap();
    std::fs::write(d.join("secret.rules"), "SECRET=hunter2\n").unwrap();
    let nim = repo().join(NIM);
    let (code, _, err) = cli(&[
        "simulate",
        &nim.display().to_string(),
        "--players",
        "2",
        "--games",
        "1",
        "--records",
        &d.join("records").display().to_string(),
    ]);
    assert_eq!(code, 0, "{err}");
    let rec = d.join("records/game-0.toml");
    let text = std::fs::read_to_string(&rec).unwrap();
    let line = text.lines().find(|l| l.starts_with("ruleset = ")).unwrap();
    for target in ["../secret.rules", "/etc/passwd"] {
        std::fs::write(&rec, text.replace(line, &format!("ruleset = \"{target}\""))).unwrap();
        for format in ["text", "json"] {
            let (code, out, err) = cli(&["replay", &rec.display().to_string(), "--format", format]);
            assert_eq!(code, 1, "{target} {format}: {out}{err}");
            assert!(
                err.contains("E0001") && err.contains("lies outside"),
                "{err}"
            );
            for secret in ["SECRET", "hunter2", "root:x:0"] {
                assert!(!out.contains(secret) && !err.contains(secret), "{out}{err}");
            }
        }
    }
    // The same record, with the ruleset it was written for and a root that
    // holds both on purpose, replays.
    std::fs::write(&rec, &text).unwrap();
    let (code, _, err) = cli(&["replay", &rec.display().to_string(), "--root", "/"]);
    assert_eq!(code, 0, "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// The root is the project's (the folder with `regel.toml`), so a shipped
/// ruleset and a shipped scenario check from their own folders, whose boards
/// and bases lie above them.
#[test]
fn shipped_files_check_and_test_from_their_own_folder() {
    let bin = env!("CARGO_BIN_EXE_regel");
    let run_in = |dir: &str, args: &[&str]| {
        let o = Command::new(bin)
            .args(args)
            .current_dir(repo().join(dir))
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr),
        )
    };
    let (code, out) = run_in("rulesets/hasp", &["check", "hasp.rules"]);
    assert_eq!(code, Some(0), "{out}");
    let scen = std::fs::read_dir(repo().join("rulesets/hasp/scenarios"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .find(|n| n.ends_with(".toml"))
        .unwrap();
    let (code, out) = run_in("rulesets/hasp/scenarios", &["test", &scen]);
    assert_eq!(code, Some(0), "{out}");
}

/// Crashes from the command line: counts that would be allocated up front,
/// thread counts that exhaust the host, seeds a record cannot hold. Each is
/// refused before anything is allocated, with exit code 2.
#[test]
fn command_line_numbers_are_bounded_before_anything_is_allocated() {
    let nim = repo().join(NIM).display().to_string();
    let base = ["simulate", nim.as_str(), "--players", "2"];
    for extra in [
        &["--games", "100000000"][..],
        &["--games", "18446744073709551615"],
        &["--games", "0"],
        &["--threads", "3000"],
        &["--threads", "0"],
        &["--seed", "9223372036854775808"],
        &["--seed", "18446744073709551615", "--games", "2"],
        &["--seed", "9223372036854775807", "--games", "2"],
    ] {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        let (code, out, err) = cli(&args);
        assert_eq!(code, 2, "{extra:?}: {out}{err}");
        assert!(err.contains("error"), "{extra:?}: {err}");
        assert!(!out.contains("seeds"), "{extra:?}: {out}");
    }
    let base = ["compare", nim.as_str(), nim.as_str(), "--players", "2"];
    for extra in [
        &["--games", "18446744073709551615"][..],
        &["--batch", "18446744073709551615"],
        &["--threads", "3000"],
        &["--seed", "18446744073709551615"],
    ] {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        let (code, _, err) = cli(&args);
        assert_eq!(code, 2, "{extra:?}: {err}");
    }
    // The largest seed itself is accepted and written to a record that replays.
    let d = tmp("seed");
    let (code, out, err) = cli(&[
        "simulate",
        &nim,
        "--players",
        "2",
        "--games",
        "1",
        "--seed",
        "9223372036854775807",
        "--records",
        &d.display().to_string(),
        "--root",
        "/",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("seeds 9223372036854775807..9223372036854775807"),
        "{out}"
    );
    let rec = d.join("game-9223372036854775807.toml");
    let (code, _, err) = cli(&["replay", &rec.display().to_string(), "--root", "/"]);
    assert_eq!(code, 0, "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// Smaller: an option given twice is refused instead of silently taking the
/// last value.
#[test]
fn an_option_given_twice_is_refused() {
    let nim = repo().join(NIM).display().to_string();
    let (code, _, err) = cli(&[
        "simulate",
        &nim,
        "--players",
        "2",
        "--games",
        "1",
        "--option",
        "max_take=1",
        "--option",
        "max_take=2",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("`max_take` is set twice"), "{err}");
}

/// Wrong numbers: a per-seat statistic's mean over the seats was summed in
/// i64 and wrapped (two seats of 5·10^18 gave -4223372036854775808.00).
#[test]
fn statistic_means_do_not_wrap() {
    let d = tmp("stat");
    let rules = d.join("big.rules");
    std::fs::write(
        &rules,
        "game \"Big\"\nplayers 2..2\nstatistic big(p) = 5000000000000000000\nplay {\n}\nscore(p) = 0\n",
    )
    .unwrap();
    let (code, out, err) = cli(&[
        "simulate",
        &rules.display().to_string(),
        "--players",
        "2",
        "--games",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("statistic big: mean 5000000000000000000.00"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// Smaller: a scenario's `ruleset` was pasted unescaped into the generated
/// `variant "…" extends "…"`; a quote in it now gets a clear failure.
#[test]
fn a_scenario_ruleset_with_a_quote_is_refused() {
    let d = tmp("scenario");
    let sc = d.join("s.toml");
    std::fs::write(
        &sc,
        "rule = \"X-1\"\nruleset = \"a.rules\\\"\\nplay { }\\n#\"\nplayers = 2\ngiven = \"\"\n",
    )
    .unwrap();
    let (code, out, err) = cli(&["test", &sc.display().to_string()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("may not contain a quote"), "{out}{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// Writes `files` (name, text) into a fresh folder and returns it.
fn folder(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let d = tmp(name);
    for (f, text) in files {
        std::fs::write(d.join(f), text).unwrap();
    }
    d
}

/// A game whose fourth decision divides by zero.
const FAILS: &str = "game \"Fail\"
players 2
seats first, second
var current: player = first
var n: int = 0
action go(k in 1..2) label \"go {k}\" {
  n += 1
}
play {
  while true {
    act current with go
    current = next(current)
    if n == 3 {
      n = 1 / (n - 3)
    }
  }
}
";

/// Data lost: a game that stopped with an error was reported "after 0
/// decisions" (when an invariant broke) and its record had an empty
/// `decisions` list, so exactly the games one wants to replay could not be.
/// Now the record holds every decision taken, the failing one last, and
/// `regel replay` reproduces the failure at its step.
#[test]
fn a_failed_game_keeps_its_decisions_and_replays_to_the_failure() {
    let d = folder("failed", &[("fail.rules", FAILS)]);
    let rules = d.join("fail.rules").display().to_string();
    let recs = d.join("records").display().to_string();
    let (code, out, err) = cli(&[
        "simulate",
        &rules,
        "--players",
        "2",
        "--games",
        "2",
        "--records",
        &recs,
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("division by zero") && out.contains("after 3 decisions"),
        "{out}"
    );
    let rec = d.join("records/game-0.toml");
    let text = std::fs::read_to_string(&rec).unwrap();
    assert_eq!(text.matches("\"go ").count(), 3, "{text}");
    let root = d.display().to_string();
    let (code, out, err) = cli(&["replay", &rec.display().to_string(), "--root", &root]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("run-time error after 3 decision(s): division by zero"),
        "{err}"
    );
    // Streamed in chunks, the summary is the same on any number of threads.
    let run = |threads: &str| {
        cli(&[
            "simulate",
            &rules,
            "--players",
            "2",
            "--games",
            "40",
            "--threads",
            threads,
        ])
    };
    assert_eq!(run("1"), run("2"));
    let _ = std::fs::remove_dir_all(&d);
}

/// A 100 x 100 board, a pool of pieces and a zone per node, for the
/// budget's prices.
const GRID: &str = "[board]\nname = \"Grid\"\n\n[grid]\nrows = 100\ncols = 100\n";

fn grid_game(body: &str, pieces: u32) -> String {
    format!(
        "game \"Work\"\nplayers 2\nseats first, second\nboard \"grid.toml\"\npiece disc {{ }} in pool {{ {pieces} x {{ }} }}\nzone pool: disc public\nzone per node slot: disc public\nzone far: disc public\nvar total: int = 0\nplay {{\n{body}\n}}\n"
    )
}

/// Runs one game of `rules` (with the grid board) under `budget`; whether
/// the budget ran out.
fn runs_out(name: &str, rules: &str, budget: &str) -> bool {
    let d = folder(name, &[("grid.toml", GRID), ("work.rules", rules)]);
    let (code, out, err) = cli(&[
        "simulate",
        &d.join("work.rules").display().to_string(),
        "--players",
        "2",
        "--games",
        "1",
        "--step-budget",
        budget,
    ]);
    let _ = std::fs::remove_dir_all(&d);
    assert!(code <= 1, "{out}{err}");
    out.contains("step budget")
}

/// A budget that is not time: a step of a costly construct was priced like
/// a plain statement, so 50 M steps could mean an hour (a board-wide test of
/// 10,000 nodes per step, a move shifting 100,000 pieces per step, a
/// parameter's domain walked once per value of the one before). Each is
/// now priced by its work: the same loops, cheap as statements, run out of a
/// budget they stayed far inside before.
#[test]
fn the_budget_prices_each_step_by_its_work() {
    // 200 tests of 10,000 nodes: 2,000,000 steps of work, 400 statements.
    let scan = grid_game(
        "  for i in 1..200 {\n    total = count(c in nodes: empty(c.slot))\n  }",
        1,
    );
    assert!(runs_out("scan", &scan, "1000000"));
    assert!(!runs_out("scan-ok", &scan, "3000000"));
    // 200 moves across 100,000 pieces and 10,000 zones.
    let moves = grid_game(
        "  for i in 1..100 {\n    move top(pool) to far\n    move top(far) to pool\n  }",
        100_000,
    );
    assert!(runs_out("moves", &moves, "100000"));
    // One decision whose second parameter's domain is walked 300 times.
    // (The requirement reads both, so the domain of `b`, listed once, is
    // walked for every `a`.)
    let tuples = "game \"Tuples\"\nplayers 2\nseats first, second\nvar current: player = first\naction pick(a in 1..300, b in 1..300) label \"{a} {b}\" {\n  require a + b > 590\n}\nplay {\n  act current with pick\n}\n";
    assert!(runs_out("tuples", tuples, "50000"));
    assert!(!runs_out("tuples-ok", tuples, "200000"));
}

/// A wall-clock deadline for hosts where a person waits: the engine reads
/// no clock, the command line's timer sets the flag it polls.
#[test]
fn a_deadline_stops_a_decision_that_runs_too_long() {
    let d = folder(
        "deadline",
        &[(
            "loop.rules",
            "game \"Loop\"\nplayers 2\nvar total: int = 0\nplay {\n  while true { total = 1 }\n}\n",
        )],
    );
    let t0 = std::time::Instant::now();
    let (code, out, err) = cli(&[
        "simulate",
        &d.join("loop.rules").display().to_string(),
        "--players",
        "2",
        "--games",
        "1",
        "--step-budget",
        "18446744073709551615",
        "--deadline",
        "0.2",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("stopped by the host"), "{out}");
    assert!(t0.elapsed().as_secs() < 60);
    for bad in ["0", "-1", "nan", "x", "86401"] {
        let (code, _, err) = cli(&["simulate", NIM, "--players", "2", "--deadline", bad]);
        assert_eq!(code, 2, "{bad}: {err}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// Data lost: `play --record PATH` found an unwritable path only after the
/// game had ended. The path is written before the first decision.
#[test]
fn play_checks_its_record_path_before_the_first_decision() {
    let nim = repo().join(NIM).display().to_string();
    let (code, out, err) = cli(&[
        "play",
        &nim,
        "--players",
        "2",
        "--seed",
        "1",
        "--record",
        "/nonexistent-folder/of/records/game.toml",
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("cannot write the record"), "{err}");
    assert!(!out.contains("heap"), "a decision was asked: {out}");
}

/// Smaller: a 3 MB label was echoed in full in the error that refused it.
/// What is echoed is cut, with a note of how much was left out.
#[test]
fn a_huge_label_is_echoed_cut() {
    let d = folder("echo", &[("fail.rules", FAILS)]);
    let recs = d.join("records");
    let (code, ..) = cli(&[
        "simulate",
        &d.join("fail.rules").display().to_string(),
        "--players",
        "2",
        "--games",
        "1",
        "--records",
        &recs.display().to_string(),
    ]);
    assert_eq!(code, 1);
    let rec = recs.join("game-0.toml");
    let text = std::fs::read_to_string(&rec).unwrap();
    let huge = "x".repeat(1_000_000);
    let at = text.find("\"go ").unwrap();
    let end = at + text[at + 1..].find('"').unwrap() + 2;
    std::fs::write(&rec, format!("{}\"{huge}\"{}", &text[..at], &text[end..])).unwrap();
    for format in ["text", "json"] {
        let (code, out, err) = cli(&[
            "replay",
            &rec.display().to_string(),
            "--format",
            format,
            "--root",
            &d.display().to_string(),
        ]);
        assert_eq!(code, 1, "{}", &err[..err.len().min(2000)]);
        assert!(
            out.len() + err.len() < 20_000,
            "{} bytes",
            out.len() + err.len()
        );
        assert!(err.contains("999800 more characters"), "{err}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// Data lost: the record writer put each decider's name in a comment, so a
/// name with a line break ended the comment and broke the record (found by
/// the fuzzer's round trips). Every record written reads back the same.
#[test]
fn a_record_with_any_text_reads_back_the_same() {
    use regel::cli::record::Record;
    let r = Record {
        ruleset: "a\"b\\c\n".into(),
        game: "'''\"\"\"".into(),
        variants: vec!["\u{0}".into()],
        players: 2,
        seed: i64::MAX as u64,
        options: vec!["x=\r".into()],
        decisions: vec!["go\n1".into(), "#".into()],
        scores: Some(vec![i64::MIN, i64::MAX]),
        deciders: vec!["first\n]\ndecisions = [".into(), "\u{1b}[31m".into()],
    };
    let text = r.to_toml();
    let back = Record::from_toml(&mut regel::diag::Sources::default(), "r.toml", &text)
        .unwrap_or_else(|d| panic!("{}\n{text}", d.message));
    let mut want = r.clone();
    want.deciders = vec![];
    assert_eq!(back, want);
}
