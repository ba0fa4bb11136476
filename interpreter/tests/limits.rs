//! Hostile inputs too large or too strange for a file in `tests/errors/`:
//! they are generated here, and only their diagnostics are snapshotted.
//! Each test names the class of the hostile-ruleset issue it covers (issue
//! 14) and asserts what the user sees: a clear error, never a panic, a hang
//! or unbounded memory.

use regel::cli::{run, Io};
use regel::diag::{render, Sources};
use regel::limits::*;
use std::collections::BTreeMap;
use std::io::Cursor;
use std::path::{Path, PathBuf};

const HEAD: &str = "game \"Generated\"\nplayers 2..2\nvar total: int = 0\n";

/// Checks in-memory files (the first is the ruleset); renders every diagnostic.
fn check(files: &[(&str, String)]) -> String {
    let map: BTreeMap<PathBuf, String> = files
        .iter()
        .map(|(p, t)| (PathBuf::from(p), t.clone()))
        .collect();
    let read = |p: &Path| {
        map.get(p)
            .cloned()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"))
    };
    let mut sources = Sources::default();
    match regel::pipeline::compile(
        &mut sources,
        &read,
        Path::new(files[0].0),
        &regel::opt::Passes::all(),
    ) {
        Ok(_) => String::from("ok"),
        Err(d) => render(&sources, &d, false, 80)
            .lines()
            .map(str::trim_end)
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

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

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("regel-limits-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_text_larger_than_the_limit_is_refused_before_parsing() {
    let big = format!(
        "{HEAD}# {}\nplay {{\n}}\n",
        "x".repeat(MAX_FILE_BYTES as usize)
    );
    let out = check(&[("big.rules", big)]);
    assert!(out.starts_with("E0701"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn more_than_65535_functions_members_or_locals_are_an_error_not_a_wrap() {
    let fns: String = (0..70_000)
        .map(|i| format!("fn f{i}() -> int = {i}\n"))
        .collect();
    let out = check(&[("fns.rules", format!("{HEAD}{fns}play {{\n}}\n"))]);
    assert!(
        out.contains("E0705") && out.contains("70000 functions"),
        "{out}"
    );
    insta::assert_snapshot!(
        "too_many_functions",
        out.lines()
            .filter(|l| !l.contains("│ fn f"))
            .collect::<Vec<_>>()
            .join("\n")
    );

    let members: Vec<String> = (0..70_000).map(|i| format!("m{i}")).collect();
    let out = check(&[(
        "enum.rules",
        format!("{HEAD}enum big {{ {} }}\nplay {{\n}}\n", members.join(", ")),
    )]);
    assert!(
        out.contains("E0705") && out.contains("70000 members in one enumeration"),
        "{out}"
    );

    let lets: String = (0..70_000).map(|i| format!("  let x{i} = {i}\n")).collect();
    let out = check(&[("lets.rules", format!("{HEAD}play {{\n{lets}}}\n"))]);
    assert!(
        out.contains("E0705") && out.contains("70000 names bound in one body"),
        "{out}"
    );
}

#[test]
fn many_diagnostics_render_in_linear_time_and_are_capped() {
    let bad: String = (0..20_000).map(|_| "  total = 1 + true\n").collect();
    let text = format!("{HEAD}play {{\n{bad}}}\n");
    let t = std::time::Instant::now();
    let out = check(&[("many.rules", text)]);
    assert!(
        t.elapsed().as_secs() < 20,
        "rendering took {:?}",
        t.elapsed()
    );
    assert_eq!(
        out.matches("E0240").count(),
        MAX_RENDERED_DIAGNOSTICS,
        "{out}"
    );
    assert!(
        out.ends_with(&format!(
            "… and {} more problem(s) not shown",
            20_000 - MAX_RENDERED_DIAGNOSTICS
        )),
        "{}",
        &out[out.len() - 200..]
    );
}

#[test]
fn a_problem_on_a_line_wider_than_65535_columns_is_named_not_drawn() {
    let text = format!(
        "{HEAD}play {{\n  total = 1{}+ nothing\n}}\n",
        " ".repeat(70_000)
    );
    let out = check(&[("wide.rules", text)]);
    assert!(out.contains("wide.rules:5:70014: not declared"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn devices_fifos_and_folders_are_not_read() {
    let d = tmp("devices");
    let fifo = d.join("pipe.toml");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    for (board, root) in [("/dev/zero", "/"), ("pipe.toml", "."), (".", ".")] {
        if board == "pipe.toml" && !made {
            continue;
        }
        let rules = d.join("game.rules");
        std::fs::write(&rules, format!("{HEAD}board \"{board}\"\nplay {{\n}}\n")).unwrap();
        let root = if root == "/" {
            PathBuf::from("/")
        } else {
            d.clone()
        };
        let (code, _, err) = cli(&[
            "check",
            &rules.display().to_string(),
            "--root",
            &root.display().to_string(),
        ]);
        assert_eq!(code, 1, "{board}: {err}");
        assert!(
            err.contains("E0002") && err.contains("not a regular file"),
            "{board}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_file_outside_the_root_is_refused_without_echoing_it() {
    let d = tmp("outside");
    std::fs::create_dir_all(d.join("game")).unwrap();
    std::fs::write(d.join("secret.toml"), "SECRET first line\n").unwrap();
    let rules = d.join("game/game.rules");
    std::fs::write(
        &rules,
        format!("{HEAD}board \"../secret.toml\"\nplay {{\n}}\n"),
    )
    .unwrap();
    // The root is the ruleset's folder (the current folder does not hold it).
    let (code, _, err) = cli(&["check", &rules.display().to_string()]);
    assert_eq!(code, 1);
    assert!(
        err.contains("E0002") && err.contains("outside the folder"),
        "{err}"
    );
    assert!(!err.contains("SECRET"), "{err}");
    // A wider root lets it be read (and it is not a board, so it is echoed as one).
    let (code, _, err) = cli(&[
        "check",
        &rules.display().to_string(),
        "--root",
        &d.display().to_string(),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("E05"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_label_that_names_its_own_piece_prints_an_ellipsis() {
    let d = tmp("label");
    let rules = d.join("game.rules");
    // Two coins of different values: equal coins would be twins, offered
    // once, and the decision would be taken without asking.
    std::fs::write(
        &rules,
        format!("{HEAD}piece coin {{ value: int }} in purse label \"coin {{it}}\" {{\n  1 x {{ value: 1 }}\n  1 x {{ value: 2 }}\n}}\nzone purse: coin public\naction take(c in purse) label \"take {{c}}\" {{\n  total = 1\n}}\nplay {{\n  act 0 with take\n}}\n")
            .replace("act 0", "act first"),
    )
    .unwrap();
    let text = std::fs::read_to_string(&rules)
        .unwrap()
        .replace("players 2..2\n", "players 2..2\nseats first, second\n");
    std::fs::write(&rules, text).unwrap();
    let (code, out, err) = cli(&[
        "moves",
        &rules.display().to_string(),
        "--players",
        "2",
        "--root",
        &d.display().to_string(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("take coin coin coin coin …"), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn mutated_and_truncated_records_and_scenarios_give_clear_errors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    let d = tmp("records");
    let game = root.join("examples/nim/nim.rules");
    let (code, _, err) = cli(&[
        "simulate",
        &game.display().to_string(),
        "--players",
        "2",
        "--games",
        "1",
        "--threads",
        "1",
        "--records",
        &d.display().to_string(),
        "--root",
        &root.display().to_string(),
    ]);
    assert_eq!(code, 0, "{err}");
    let rec = std::fs::read_dir(&d)
        .unwrap()
        .flatten()
        .next()
        .unwrap()
        .path();
    let text = std::fs::read_to_string(&rec).unwrap();
    let huge_label = text.replacen(
        "decisions = [\n",
        &format!("decisions = [\n  \"{}\",\n", "x".repeat(70_000)),
        1,
    );
    let cases = [
        ("truncated", text[..text.len() / 2].to_string()),
        ("huge label", huge_label),
        ("garbage", "\u{0}\u{1}[[[".to_string()),
        (
            "negative players",
            text.replace("players = 2", "players = -2"),
        ),
    ];
    for (what, t) in cases {
        std::fs::write(&rec, t).unwrap();
        let (code, _, err) = cli(&[
            "replay",
            &rec.display().to_string(),
            "--root",
            &root.display().to_string(),
        ]);
        assert_ne!(code, 0, "{what}");
        assert!(
            err.contains("E090") || err.contains("error"),
            "{what}: {err}"
        );
    }
    let sc = root.join("rulesets/auf-heller-und-pfennig/scenarios/at-01-row-1.toml");
    let text = std::fs::read_to_string(&sc).unwrap();
    let copy = d.join("s.toml");
    for t in [
        text[..text.len() / 3].to_string(),
        text.replace("players = ", "players = 1000000000000 #"),
    ] {
        std::fs::write(&copy, t).unwrap();
        let (code, out, err) = cli(&["test", &copy.display().to_string(), "--root", "/"]);
        assert_ne!(code, 0, "{out}{err}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_logging_loop_stops_at_the_budget_instead_of_filling_memory() {
    // `trace` keeps the log: logged text counts against the step budget,
    // byte by byte (it used to grow until the machine ran out of memory).
    let d = tmp("log");
    let rules = d.join("game.rules");
    std::fs::write(
        &rules,
        format!(
            "{HEAD}play {{\n  while true {{\n    log \"{}\"\n  }}\n}}\n",
            "a long line ".repeat(20)
        ),
    )
    .unwrap();
    let (code, _, err) = cli(&[
        "trace",
        &rules.display().to_string(),
        "--players",
        "2",
        "--root",
        &d.display().to_string(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("step budget"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}
