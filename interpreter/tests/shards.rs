//! Runs beyond one machine (issue 26): `simulate --shard K/N` and `regel
//! merge`. The merged shards print exactly what the whole run prints, text
//! and JSON, with its exit code; partials of different runs, of an edited
//! ruleset, missing, repeated or damaged are refused with a sentence that
//! says which and why (exit 2).

use regel::cli::{run, Io};
use std::io::Cursor;
use std::path::{Path, PathBuf};

struct Run {
    code: i32,
    out: String,
    err: String,
}

fn cli(args: &[String]) -> Run {
    let mut argv = vec!["regel".to_string()];
    argv.extend(args.iter().cloned());
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut inp = Cursor::new(Vec::new());
    let code = run(
        &argv,
        &mut Io {
            out: &mut out,
            err: &mut err,
            input: &mut inp,
            color: false,
            root: Some(root()),
            term: false,
        },
    );
    Run {
        code,
        out: String::from_utf8(out).unwrap(),
        err: String::from_utf8(err).unwrap(),
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn file(rel: &str) -> String {
    root().join(rel).display().to_string()
}

fn tmp(name: &str) -> PathBuf {
    // Under the target folder, inside the root the runs may read from.
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("regel-shards-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn args(s: &[&str]) -> Vec<String> {
    s.iter().map(|x| x.to_string()).collect()
}

/// Runs `simulate ARGS --shard K/N` for every K, writes each partial into
/// `dir` and returns their paths (the last shard first, so that merge must
/// order them itself).
fn shards(dir: &Path, sim: &[String], n: u64) -> Vec<String> {
    std::fs::create_dir_all(dir).unwrap();
    let mut parts = vec![];
    for k in (1..=n).rev() {
        let mut a = sim.to_vec();
        a.extend(args(&["--shard", &format!("{k}/{n}")]));
        let r = cli(&a);
        assert_eq!(r.code, 0, "shard {k}/{n}: {}", r.err);
        let p = dir.join(format!("part-{k}.json"));
        std::fs::write(&p, &r.out).unwrap();
        parts.push(p.display().to_string());
    }
    parts
}

/// The whole run and the merge of its `n` shards print the same bytes and
/// exit the same way, in both formats.
fn same_as_whole(name: &str, sim: &[String], n: u64) -> i32 {
    let dir = tmp(&format!("{name}-parts"));
    let parts = shards(&dir, sim, n);
    let mut code = None;
    for format in ["text", "json"] {
        let mut whole = sim.to_vec();
        whole.extend(args(&["--format", format]));
        let w = cli(&whole);
        let mut m = args(&["merge", "--format", format]);
        m.extend(parts.iter().cloned());
        let merged = cli(&m);
        assert_eq!(merged.err, "", "{name}: merge said {}", merged.err);
        assert_eq!(merged.out, w.out, "{name} ({format}): merged ≠ whole");
        assert_eq!(merged.code, w.code, "{name} ({format}): exit codes differ");
        code = Some(w.code);
    }
    code.unwrap()
}

fn sim(rel: &str, rest: &[&str]) -> Vec<String> {
    let mut a = args(&["simulate", &file(rel)]);
    a.extend(args(rest));
    a
}

#[test]
fn merged_shards_print_what_the_whole_run_prints() {
    let nim = sim(
        "examples/nim/nim.rules",
        &["--players", "2", "--games", "30", "--seed", "3"],
    );
    assert_eq!(same_as_whole("nim", &nim, 4), 0);
    // Options, and more shards than games: some shards play none.
    let misere = sim(
        "examples/nim/nim.rules",
        &[
            "--players",
            "2",
            "--games",
            "3",
            "--seed",
            "11",
            "--option",
            "misere=true",
            "--option",
            "max_take=2",
        ],
    );
    assert_eq!(same_as_whole("nim-options", &misere, 5), 0);
    // Statistics, four seats, one shard.
    let yacht = sim(
        "examples/yacht/yacht.rules",
        &["--players", "4", "--games", "6", "--seed", "2"],
    );
    assert_eq!(same_as_whole("yacht", &yacht, 1), 0);
    let hasp = sim(
        "rulesets/hasp/hasp.rules",
        &["--players", "3", "--games", "12", "--seed", "7"],
    );
    assert_eq!(same_as_whole("hasp", &hasp, 5), 0);
}

#[test]
fn merged_coverage_and_bots_are_the_whole_runs() {
    let cov = sim(
        "rulesets/auf-heller-und-pfennig/open-tiles.rules",
        &[
            "--players",
            "2",
            "--games",
            "8",
            "--seed",
            "1",
            "--coverage",
        ],
    );
    same_as_whole("coverage", &cov, 3);
    let bots = sim(
        "examples/tic-tac-toe/tic-tac-toe.rules",
        &[
            "--players",
            "2",
            "--games",
            "4",
            "--seat",
            "mcts:20",
            "--seed",
            "5",
        ],
    );
    assert_eq!(same_as_whole("bots", &bots, 2), 0);
}

fn compare(base: &str, variant: &str, rest: &[&str]) -> Vec<String> {
    let mut a = args(&["compare", &file(base), &file(variant)]);
    a.extend(args(rest));
    a
}

/// A comparison's shards play every pair of their slices; the merge folds
/// them in the run's batches and stops where the run stopped: at the budget,
/// or early once every interval is narrow enough (a ruleset against itself:
/// no pair differs, and after enough pairs that says enough).
#[test]
fn merged_comparisons_print_what_the_whole_comparison_prints() {
    let tiles = compare(
        "rulesets/auf-heller-und-pfennig/auf-heller-und-pfennig.rules",
        "rulesets/auf-heller-und-pfennig/open-tiles.rules",
        &["--players", "2", "--games", "30", "--batch", "7"],
    );
    assert_eq!(same_as_whole("compare-budget", &tiles, 4), 0);
    let same = compare(
        "examples/nim/nim.rules",
        "examples/nim/nim.rules",
        &[
            "--players",
            "2",
            "--games",
            "1000",
            "--batch",
            "40",
            "--seed",
            "3",
        ],
    );
    let whole = cli(&same);
    assert!(
        whole.out.contains("stopped: every interval"),
        "{}",
        whole.out
    );
    // Twelve shards of 83 or 84 pairs: the run stops inside the second.
    assert_eq!(same_as_whole("compare-precise", &same, 12), 0);
    // A comparison's shards do not merge with a simulation's.
    let dir = tmp("compare-mixed");
    let c = shards(&dir.join("c"), &same, 2);
    let s = shards(
        &dir.join("s"),
        &sim(
            "examples/nim/nim.rules",
            &["--players", "2", "--games", "1000", "--seed", "3"],
        ),
        2,
    );
    refused(
        &merge(&[c[0].clone(), s[1].clone()]),
        "are shards of different runs",
    );
}

/// A run whose games fail keeps its errors, their order and its exit code 1
/// through the merge (the shards themselves exit 0: their partials are written).
#[test]
fn failed_games_merge_with_exit_code_1() {
    let dir = tmp("failing");
    let rules = dir.join("failing.rules");
    std::fs::write(
        &rules,
        std::fs::read_to_string(root().join("examples/nim/nim.rules")).unwrap()
            + "\ninvariant \"an invariant that never holds\" false\n",
    )
    .unwrap();
    let check = cli(&args(&["check", &rules.display().to_string()]));
    assert_eq!(check.code, 0, "{}", check.err);
    let s = vec![
        "simulate".to_string(),
        rules.display().to_string(),
        "--players".into(),
        "2".into(),
        "--games".into(),
        "9".into(),
    ];
    assert_eq!(same_as_whole("failing", &s, 4), 1);
    // The shards write the same records as the whole run, failed games with
    // their decisions up to the failure.
    let with_records = |d: &Path, shard: Option<u64>| {
        let mut a = s.clone();
        a.extend(args(&["--records", &d.display().to_string()]));
        if let Some(k) = shard {
            a.extend(args(&["--shard", &format!("{k}/4")]));
        }
        cli(&a)
    };
    let (whole, parts) = (dir.join("whole"), dir.join("parts"));
    assert_eq!(with_records(&whole, None).code, 1);
    for k in 1..=4 {
        assert_eq!(with_records(&parts, Some(k)).code, 0);
    }
    let list = |d: &Path| {
        let mut v: Vec<(String, String)> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| {
                let p = e.unwrap().path();
                let name = p.file_name().unwrap().to_string_lossy().to_string();
                (name, std::fs::read_to_string(&p).unwrap())
            })
            .collect();
        v.sort();
        v
    };
    let records = list(&whole);
    assert_eq!(records.len(), 9);
    assert_eq!(records, list(&parts));
}

fn merge(parts: &[String]) -> Run {
    let mut m = args(&["merge"]);
    m.extend(parts.iter().cloned());
    cli(&m)
}

fn refused(r: &Run, says: &str) {
    assert_eq!(r.code, 2, "exit code; stderr: {}", r.err);
    assert_eq!(r.out, "");
    assert!(r.err.contains(says), "expected «{says}» in: {}", r.err);
}

#[test]
fn partials_of_other_runs_are_refused() {
    let dir = tmp("mixed");
    let base = ["--players", "2", "--games", "6"];
    let nim = |extra: &[&str]| {
        let mut a = sim("examples/nim/nim.rules", &base);
        a.extend(args(extra));
        a
    };
    let a = shards(&dir.join("a"), &nim(&["--seed", "3"]), 2);
    let seed4 = shards(&dir.join("b"), &nim(&["--seed", "4"]), 2);
    refused(
        &merge(&[a[0].clone(), seed4[1].clone()]),
        "`seed` is 3 in one and 4 in the other",
    );
    let opt = shards(
        &dir.join("c"),
        &nim(&["--seed", "3", "--option", "misere=true"]),
        2,
    );
    refused(&merge(&[a[0].clone(), opt[1].clone()]), "`options` is");
    // A deadline can end games that the same seeds finish without one.
    let timed = shards(
        &dir.join("t"),
        &nim(&["--seed", "3", "--deadline", "30"]),
        2,
    );
    refused(
        &merge(&[a[0].clone(), timed[1].clone()]),
        "`deadline` is null in one and 30.0 in the other",
    );
    let ttt = shards(
        &dir.join("d"),
        &sim(
            "examples/tic-tac-toe/tic-tac-toe.rules",
            &[&base[..], &["--seed", "3"]].concat(),
        ),
        2,
    );
    refused(
        &merge(&[a[0].clone(), ttt[1].clone()]),
        "are shards of different runs",
    );
    let three = shards(&dir.join("e"), &nim(&["--seed", "3"]), 3);
    refused(
        &merge(&[a[0].clone(), three[0].clone()]),
        "every shard must be of the same N",
    );
}

#[test]
fn missing_repeated_and_damaged_partials_are_refused() {
    let dir = tmp("damaged");
    let s = sim(
        "examples/nim/nim.rules",
        &["--players", "2", "--games", "7"],
    );
    let p = shards(&dir, &s, 3);
    refused(&merge(&p[..2]), "shard 1/3 of the run is missing");
    refused(
        &merge(&[p[0].clone(), p[0].clone(), p[1].clone()]),
        "is given twice",
    );
    // A partial is JSON lines: its head, a line per game, its end. One with
    // a game taken out, one cut short before its end, one with a game's
    // scores cut: each is damaged.
    let text = std::fs::read_to_string(&p[0]).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // p[0] is shard 3/3: seeds 4, 5 and 6 of 0..6.
    assert_eq!(lines.len(), 1 + 3 + 1, "head, three games, end");
    let damaged = |name: &str, kept: Vec<String>| {
        let f = dir.join(name);
        std::fs::write(&f, kept.join("\n") + "\n").unwrap();
        refused(
            &merge(&[f.display().to_string(), p[1].clone(), p[2].clone()]),
            "it is damaged",
        );
    };
    let keep = |skip: usize| -> Vec<String> {
        let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        l.remove(skip);
        l
    };
    damaged("cut.json", keep(2));
    damaged("short.json", keep(4));
    let mut game: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    game["game"]["scores"].as_array_mut().unwrap().pop();
    let mut l = keep(1);
    l.insert(1, game.to_string());
    damaged("scores.json", l);
    // Not a partial at all, and a partial of another format version.
    let junk = dir.join("junk.json");
    std::fs::write(&junk, "{\"scores\": []}").unwrap();
    refused(
        &merge(&[junk.display().to_string()]),
        "is not a partial result of `regel simulate --shard K/N`",
    );
    let mut head: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    head["regel_partial"] = 99.into();
    let newer = dir.join("newer.json");
    std::fs::write(&newer, head.to_string() + "\n").unwrap();
    refused(
        &merge(&[newer.display().to_string()]),
        "a partial result of format 99",
    );
    refused(
        &merge(&[dir.join("absent.json").display().to_string()]),
        "cannot read",
    );
}

/// A ruleset edited after its shards ran would be summarised with the wrong
/// names and spans, or mean something else: the merge refuses it.
#[test]
fn a_ruleset_edited_since_the_shards_ran_is_refused() {
    let dir = tmp("edited");
    let rules = dir.join("nim.rules");
    let text = std::fs::read_to_string(root().join("examples/nim/nim.rules")).unwrap();
    std::fs::write(&rules, &text).unwrap();
    let s = vec![
        "simulate".to_string(),
        rules.display().to_string(),
        "--players".into(),
        "2".into(),
        "--games".into(),
        "4".into(),
    ];
    let p = shards(&dir, &s, 2);
    std::fs::write(&rules, format!("{text}\n# edited\n")).unwrap();
    refused(&merge(&p), "is not the ruleset the shards played");
}

#[test]
fn shard_arguments_are_checked() {
    for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
        let r = cli(&sim(
            "examples/nim/nim.rules",
            &["--players", "2", "--shard", bad],
        ));
        assert_eq!(r.code, 2, "--shard {bad}");
        assert!(
            r.err.contains("write a shard as K/N"),
            "--shard {bad}: {}",
            r.err
        );
    }
    refused(&cli(&args(&["merge"])), "PARTS");
}
