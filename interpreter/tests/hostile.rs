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
