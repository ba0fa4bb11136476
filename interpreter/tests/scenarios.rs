//! Every scenario file beside every ruleset passes (`regel test`), and a
//! scenario whose expectation is wrong fails, showing expected against actual.

use regel::cli::{run, Io};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn regel(args: &[&str]) -> (i32, String, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut input = std::io::Cursor::new(Vec::new());
    let mut io = Io {
        out: &mut out,
        err: &mut err,
        input: &mut input,
        color: false,
        root: Some(root()),
        term: false,
    };
    let mut argv = vec!["regel".to_string()];
    argv.extend(args.iter().map(|s| s.to_string()));
    let code = run(&argv, &mut io);
    (
        code,
        String::from_utf8_lossy(&out).into_owned(),
        String::from_utf8_lossy(&err).into_owned(),
    )
}

/// An empty folder of its own under the system's temporary folder.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn scenario_files() -> Vec<PathBuf> {
    let mut files = vec![];
    for game in std::fs::read_dir(root().join("rulesets")).unwrap() {
        let dir = game.unwrap().path().join("scenarios");
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for e in entries {
                let p = e.unwrap().path();
                if p.extension().and_then(|x| x.to_str()) == Some("toml") {
                    files.push(p);
                }
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_acceptance_scenario_passes() {
    let files = scenario_files();
    assert!(
        files.len() >= 28,
        "expected the AHUP acceptance scenarios, found {}",
        files.len()
    );
    let args: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let mut argv = vec!["test"];
    argv.extend(args.iter().map(|s| s.as_str()));
    let (code, out, err) = regel(&argv);
    assert_eq!(code, 0, "scenarios failed:\n{out}\n{err}");
    assert!(
        out.contains(&format!("{} passed, 0 failed", files.len())),
        "{out}"
    );
}

#[test]
fn every_scenario_cites_a_rule_id() {
    for f in scenario_files() {
        let text = std::fs::read_to_string(&f).unwrap();
        let rule = text
            .lines()
            .find(|l| l.starts_with("rule = "))
            .unwrap_or_else(|| panic!("{} has no rule", f.display()));
        assert!(
            rule.contains("AHUP-")
                || rule.contains("HASP-")
                || rule.contains("HANSA-")
                || rule.contains("HT-"),
            "{}: {rule}",
            f.display()
        );
    }
}

/// Runs a copy of a scenario file with `from` replaced by `to`.
fn mutated(dir: &str, file: &str, from: &str, to: &str) -> (i32, String, String) {
    let dir = root().join(dir);
    let good = std::fs::read_to_string(dir.join(file)).unwrap();
    let bad = good.replace(from, to);
    assert_ne!(good, bad, "{file} does not contain {from}");
    // Tests run in parallel: each copy gets a name of its own.
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let tmp = dir.join(format!("zz-mutated-{n}-{file}.tmp"));
    std::fs::write(&tmp, bad).unwrap();
    let out = regel(&["test", tmp.to_str().unwrap()]);
    std::fs::remove_file(&tmp).unwrap();
    out
}

/// A wrong expectation must fail and say what was expected and what was found.
#[test]
fn a_wrong_expectation_fails_with_expected_and_actual() {
    let (code, out, _) = mutated(
        "rulesets/auf-heller-und-pfennig/scenarios",
        "at-01-row-1.toml",
        "\"white.income\" = -15",
        "\"white.income\" = -14",
    );
    assert_eq!(code, 1);
    assert!(
        out.contains("`white.income`: expected -14, actual -15"),
        "{out}"
    );
    assert!(out.contains("0 passed, 1 failed"), "{out}");
}

#[test]
fn a_scenario_with_an_unknown_name_reports_a_diagnostic() {
    let (code, out, err) = mutated(
        "rulesets/auf-heller-und-pfennig/scenarios",
        "at-01-row-1.toml",
        "score_round()",
        "score_rounds()",
    );
    assert_eq!(code, 1);
    assert!(err.contains("unknown procedure `score_rounds`"), "{err}");
    assert!(err.contains("did you mean `score_round`?"), "{err}");
    assert!(out.contains("do not check"), "{out}");
}

/// The same for the Hansa Teutonica scenarios: a wrong final score and a
/// wrong list of legal options each fail, saying what was found.
#[test]
fn a_wrong_hansa_teutonica_expectation_fails() {
    let dir = "rulesets/hansa-teutonica/scenarios";
    let (code, out, _) = mutated(
        dir,
        "at-14-final-scoring.toml",
        "\"total(red)\" = 55",
        "\"total(red)\" = 54",
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("`total(red)`: expected 54, actual 55"),
        "{out}"
    );
    let (code, out, _) = mutated(
        dir,
        "at-04-relocation-options.toml",
        "\"relocate blue merchant to r6\"",
        "\"relocate blue merchant to r5\"",
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("options differ: missing [\"relocate blue merchant to r5\"], unexpected [\"relocate blue merchant to r6\"]"), "{out}");
}

/// With a board per range of player counts, expectations read the zones of
/// the board the scenario's player count gets (a per-node zone comes first,
/// so every later zone sits elsewhere on the larger board).
#[test]
fn expectations_use_the_board_for_the_player_count() {
    let dir = std::env::temp_dir().join(format!("regel-scenario-boards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let maps = root().join("maps");
    let rules = format!(
        "game \"Two boards\"\nplayers 2..3\nboard \"{}\" for 2\nboard \"{}\" for 3\n\
         piece chip {{ }} in pile {{ 3 x {{ }} }}\nzone per node cell: chip\nzone pile: chip\nzone heap: chip\n\
         play {{\n  move 1 of pile to heap\n}}\n",
        maps.join("tic-tac-toe.toml").display(),
        maps.join("connect-four.toml").display()
    );
    std::fs::write(dir.join("two.rules"), rules).unwrap();
    for n in [2, 3] {
        let scenario = format!(
            "rule = \"TEST-1\"\nruleset = \"two.rules\"\nplayers = {n}\ngiven = \"move 1 of pile to heap\"\n\
             [expect]\nvalues = {{ \"count(pile)\" = 2, \"count(heap)\" = 1, \"count(nodes)\" = {} }}\n",
            if n == 2 { 9 } else { 42 }
        );
        let f = dir.join(format!("s{n}.toml"));
        std::fs::write(&f, scenario).unwrap();
        // The rules in the temporary folder name the workspace's boards by
        // absolute paths: the run may read the whole file system.
        let (code, out, err) = regel(&["test", f.to_str().unwrap(), "--root", "/"]);
        assert_eq!(code, 0, "{n} players:\n{out}\n{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `rolls` fixes the results of the next `random(…)` calls: a number drawn
/// from numbers is the roll itself, anything else is picked by position. A
/// roll the collection cannot give stops the run with a clear error.
#[test]
fn scripted_rolls_fix_random_results() {
    let dir = fresh_dir("regel-rolls");
    std::fs::write(
        dir.join("dice.rules"),
        r#"game "Dice"
players 2
enum face { blank, star, moon }
var per player total: int = 0
var per player sign: face = blank
play {
  for p in players {
    p.total = random(1..6) + random(1..6)
    p.sign = random(face)
  }
}
score(p) = p.total
"#,
    )
    .unwrap();
    let scenario = |rolls: &str, expect: &str| {
        format!("rule = \"HT-0\"\nruleset = \"dice.rules\"\nplayers = 2\nrolls = [{rolls}]\ngiven = \"\"\"\nfor p in players {{\n  p.total = random(1..6) + random(1..6)\n  p.sign = random(face)\n}}\n\"\"\"\n[expect]\n{expect}\n")
    };
    std::fs::write(
        dir.join("good.toml"),
        scenario(
            "6, 6, 3, 1, 2",
            "values = { \"p1.total\" = 12, \"p1.sign\" = \"moon\" }\nholds = [\"p2.total == 3\"]",
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("bad.toml"),
        scenario(
            "7",
            "error = \"the scripted roll 7 is not among the values (1, 2, 3, 4, 5, 6)\"",
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("position.toml"),
        scenario(
            "1, 1, 4",
            "error = \"the scripted roll 4 is not a position in 1..3\"",
        ),
    )
    .unwrap();
    let files: Vec<String> = ["good.toml", "bad.toml", "position.toml"]
        .iter()
        .map(|f| dir.join(f).display().to_string())
        .collect();
    // The scenarios live in a temporary folder outside the workspace root.
    let (code, out, err) = regel(&["test", &files[0], &files[1], &files[2], "--root", "/"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("3 passed, 0 failed"), "{out}");
}

/// A decision after the game has ended says so; a run-time error names the
/// rules' file, line and column and the decisions taken before it.
#[test]
fn scenario_errors_point_at_the_rules_and_the_decisions() {
    let dir = fresh_dir("regel-points");
    std::fs::write(
        dir.join("pick.rules"),
        "game \"Pick\"\nplayers 2\nconst steps = [1, 2]\nvar k: int = 0\naction pick(n in 1..3) label \"pick {n}\" {\n  k = steps[n]\n}\nplay {\n  act p1 with pick\n}\nscore(p) = k\n",
    )
    .unwrap();
    let sc = |decisions: &str| {
        format!("rule = \"HT-0\"\nruleset = \"pick.rules\"\nplayers = 2\ngiven = \"act p1 with pick\"\ndecisions = [{decisions}]\n")
    };
    std::fs::write(dir.join("ended.toml"), sc("\"pick 1\", \"pick 2\"")).unwrap();
    std::fs::write(dir.join("range.toml"), sc("\"pick 3\"")).unwrap();
    let (code, out, _) = regel(&[
        "test",
        &dir.join("ended.toml").display().to_string(),
        &dir.join("range.toml").display().to_string(),
        "--root",
        "/",
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("decision 2 `pick 2`, after `pick 1`: the game has ended after 1 decision(s): `pick 2` cannot be taken"), "{out}");
    assert!(
        out.contains("decision 1 `pick 3`: index 3 is outside the list (1..2) (at "),
        "{out}"
    );
    assert!(out.contains("pick.rules:6:7)"), "{out}");
}
