//! The house-rule workbench on the command line: `diff`, `compare`, and MCTS
//! seats in `simulate` and `play`, rule coverage (`simulate --coverage`).

use regel::cli::{run, Io};
use std::io::Cursor;
use std::path::{Path, PathBuf};

struct Run {
    code: i32,
    out: String,
    err: String,
}

fn cli(args: &[&str]) -> Run {
    let mut argv = vec!["regel".to_string()];
    argv.extend(args.iter().map(|s| s.to_string()));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut inp = Cursor::new(Vec::new());
    let code = {
        let mut io = Io {
            out: &mut out,
            err: &mut err,
            input: &mut inp,
            color: false,
            root: Some(std::path::PathBuf::from("/")),
            term: false,
        };
        run(&argv, &mut io)
    };
    Run {
        code,
        out: String::from_utf8(out).unwrap(),
        err: String::from_utf8(err).unwrap(),
    }
}

fn path(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(rel)
        .display()
        .to_string()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("regel-workbench-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const AHUP: &str = "rulesets/auf-heller-und-pfennig/auf-heller-und-pfennig.rules";
const HANSA: &str = "rulesets/hansa/hansa.rules";
const HOUSE: &str = "rulesets/hansa/house-thrifty.rules";

#[test]
fn diff_names_the_changed_constant_and_options() {
    // Exit 1 when the rulesets differ, as diff(1) does (issue 26).
    let r = cli(&["diff", &path(HANSA), &path(HOUSE)]);
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(r.out.contains("const `keep_talers`: 3 → 5"), "{}", r.out);
    // The variant's own summary says what it changes.
    assert!(r.out.contains("`summary`: summary \""), "{}", r.out);
    assert!(
        r.out
            .contains("3 difference(s): 3 in the rules, 0 on the board"),
        "{}",
        r.out
    );
    let r = cli(&[
        "diff",
        &path(AHUP),
        &path("rulesets/auf-heller-und-pfennig/open-ended-open-tiles.rules"),
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 1, "{}", r.err);
    let j: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    let changes: Vec<(String, String, String)> = j["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().into(),
                c["from"].as_str().unwrap().into(),
                c["to"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        changes,
        vec![
            ("open_ended".into(), "false".into(), "true".into()),
            ("open_tiles".into(), "false".into(), "true".into()),
            (
                "".into(),
                "summary \" Auf Heller und Pfennig: a market of 5 by 6 squares fills up with stalls and til…".into(),
                "override summary \" Auf Heller und Pfennig with both variants: open-ended (V1) and open ti…".into()
            )
        ]
    );
    assert_eq!(j["board"].as_array().unwrap().len(), 0);
}

#[test]
fn diff_quotes_the_statements_of_a_changed_body_and_ignores_layout() {
    let d = tmp("diff");
    let v = d.join("v.rules");
    std::fs::write(
        &v,
        format!(
            "variant \"v\" extends \"{}\"\n# comments and layout are no change\noverride action end_phase label \"end phase 3\" help \"end your turn's actions\" {{\n  phase_over   =   true\n}}\noverride phase phase_income {{\n  pay_bank(current, -income - 1)\n}}\nconst bonus = 2\n",
            path(HANSA)
        ),
    )
    .unwrap();
    let r = cli(&["diff", &path(HANSA), &v.display().to_string()]);
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(
        !r.out.contains("end_phase"),
        "layout is no change: {}",
        r.out
    );
    assert!(
        r.out.contains("phase `phase_income` changed\n"),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("- pay_bank(current, -income)  (base line"),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("+ pay_bank(current, -income - 1)"),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("const `bonus` added: const bonus = 2"),
        "{}",
        r.out
    );
    let r = cli(&["diff", &path(HANSA), &path(HANSA)]);
    assert_eq!(r.code, 0, "the same rules: {}", r.err);
    assert!(
        r.out.contains("no difference in the rules or on the board"),
        "{}",
        r.out
    );
    let r = cli(&["diff", &path(HANSA), &path(AHUP)]);
    assert!(
        r.out.contains("on the board") && r.out.contains("node `luebeck` removed"),
        "{}",
        r.out
    );
    let r = cli(&[
        "diff",
        &path(HANSA),
        &d.join("missing.rules").display().to_string(),
    ]);
    assert_eq!(r.code, 2, "an error, as diff(1) exits");
    assert!(r.err.contains("cannot read"), "{}", r.err);
}

/// Issue 26: a change in one branch of a phase is shown in that branch,
/// under the statements that lead to it, not as the whole `if` cut short.
#[test]
fn diff_shows_a_change_in_one_branch_where_it_is() {
    let r = cli(&["diff", &path(HASP), &path(HASP_CARRY)]);
    assert_eq!(r.code, 1, "{}", r.err);
    let carry = path(HASP_CARRY);
    let want = format!(
        "phase `score_round` changed
    + let before = carry  ({carry} line 19)
    in the `else` of `if aon != no_bet`  (base line 301, {carry} line 20):
      in the `else` of `if num_players == 3`  (base line 324, {carry} line 43):
        in `if leaders == num_players`  (base line 340, {carry} line 59):
          in `block tie`  (base line 344, {carry} line 60):
            - log \"tie on card points: {{announcer}} announced the trump, so his side loses\"  (base line 345)
            - for p in players where not same_side(it, announcer) {{ award(p) }}  (base line 346)
            + log \"tie on card points: nobody scores, {{pot}} carried over\"  ({carry} line 62)
            + carry += pot  ({carry} line 63)
    + if carry == before {{ carry = 0 }}  ({carry} line 71)
"
    );
    assert!(r.out.contains(&want), "{}", r.out);
    assert!(!r.out.contains("statement(s)"), "{}", r.out);
    assert!(r.out.contains("var `carry` added"), "{}", r.out);
    let r = cli(&["diff", &path(HASP), &path(HASP_CARRY), "--format", "json"]);
    assert_eq!(r.code, 1, "{}", r.err);
    let j: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    let phase = j["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "score_round")
        .unwrap();
    assert_eq!(phase["change"], "changed");
    // One more than the lines of the change: the named block it lies in.
    assert_eq!(phase["details"].as_array().unwrap().len(), 10, "{phase}");
}

#[test]
fn compare_pairs_games_and_reports_intervals() {
    // A ruleset against itself: every pair of games is the same game, every
    // difference exactly zero. Zero spread is not precision (issue 26): it
    // plays on until a difference of more than 3 points (or a change in more
    // than 3 % of games) would have been seen, here after five batches.
    let r = cli(&[
        "compare",
        &path(AHUP),
        &path(AHUP),
        "--players",
        "3",
        "--games",
        "200",
        "--batch",
        "30",
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    let j: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(j["stopped"], "precise");
    assert_eq!(j["pairs"], 150);
    for m in j["measures"].as_array().unwrap() {
        assert_eq!(m["difference"]["mean"], 0.0, "{m}");
        assert_eq!(
            (&m["higher"], &m["lower"], &m["pairs"]),
            (&0.into(), &0.into(), &150.into()),
            "{m}"
        );
        let unseen = m["unseen"].as_f64().unwrap();
        assert!(unseen > 0.02 && unseen <= 0.03, "{m}");
        assert!(m["difference"]["low"].as_f64().unwrap() <= 0.0, "{m}");
        assert!(m["difference"]["high"].as_f64().unwrap() >= 0.0, "{m}");
        assert_eq!(m["clear"], false);
    }
    // Open tiles against the base: the budget stops it; rates stay rates.
    let r = cli(&[
        "compare",
        &path(AHUP),
        &path("rulesets/auf-heller-und-pfennig/open-tiles.rules"),
        "--players",
        "2",
        "--games",
        "40",
        "--batch",
        "20",
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    let j: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(j["stopped"], "budget");
    assert_eq!(j["pairs"], 40);
    let names: Vec<&str> = j["measures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["measure"].as_str().unwrap())
        .collect();
    // The built-in measures, then the statistics the game declares.
    assert_eq!(
        names,
        [
            "game length",
            "winner's margin",
            "score spread",
            "ties",
            "first-player advantage",
            "white wins",
            "grey wins",
            "rounds_played",
            "stalls_left (seat mean)",
            "stalls_left (white)",
            "stalls_left (grey)"
        ]
    );
    let rounds = &j["measures"][7];
    assert_eq!(rounds["unit"], "number");
    assert_eq!(
        rounds["base"]["mean"], 3.0,
        "AHUP-8.1: three rounds, whatever the tiles: {rounds}"
    );
    assert_eq!(rounds["difference"]["mean"], 0.0, "{rounds}");
    for m in j["measures"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["unit"] == "rate")
    {
        let b = m["base"]["mean"].as_f64().unwrap();
        assert!(
            (0.0..=1.0).contains(&b) || m["measure"] == "first-player advantage",
            "{m}"
        );
    }
    let r = cli(&[
        "compare",
        &path(HANSA),
        &path(HOUSE),
        "--players",
        "2",
        "--games",
        "20",
        "--batch",
        "20",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out.contains("With the variant:")
            && r.out.contains("grey wins")
            && r.out.contains("stopped: the game budget is spent"),
        "{}",
        r.out
    );
}

const HASP: &str = "rulesets/hasp/hasp.rules";
const HASP_CARRY: &str = "interpreter/tests/compare/hasp-carry.rules";

/// Issue 26: a house rule whose branch almost never fires (on a tie in card
/// points the pot carries over, HASP-8.2; two-player sides rarely tie). The
/// old report stopped after 100 pairs calling zero spread precise, and at
/// 2,000 pairs starred `+0.0 ± 0.0`. Now nothing is starred at the default
/// budget's stop, what was not seen is said, and a clear difference is
/// written with the decimals that show it is not zero.
#[test]
fn compare_is_honest_about_a_difference_that_is_rare_or_unseen() {
    let r = cli(&["compare", &path(HASP), &path(HASP_CARRY), "--players", "2"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(!r.out.contains(" *\n"), "{}", r.out);
    assert!(!r.out.contains("± 0.0"), "{}", r.out);
    assert!(
        r.out.contains("ties: no difference seen in 500 pairs; a difference of more than 0.8 points would have been seen"),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("no clear difference: the winner's margin is 0.04 points wider (95 %: +0.01 to +0.07; base 7.0, variant 7.1; 500 pairs, only 10 of them differ)"),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("Holm's correction for the 7 measures"),
        "{}",
        r.out
    );
    let r = cli(&[
        "compare",
        &path(HASP),
        &path(HASP_CARRY),
        "--players",
        "2",
        "--games",
        "2000",
        "--batch",
        "2000",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    let starred: Vec<&str> = r.out.lines().filter(|l| l.ends_with(" *")).collect();
    assert!(!starred.is_empty(), "{}", r.out);
    for l in starred {
        // Every starred difference shows digits that are not zero.
        let diff = l.split_whitespace().rev().nth(3).unwrap();
        assert!(diff.chars().any(|c| ('1'..='9').contains(&c)), "{l}");
    }
}

#[test]
fn compare_and_simulate_refuse_bad_arguments() {
    let r = cli(&["compare", &path(HANSA), &path(HOUSE), "--players", "7"]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("takes 2..4 players"), "{}", r.err);
    let r = cli(&[
        "compare",
        &path(HANSA),
        &path(HOUSE),
        "--players",
        "2",
        "--seat",
        "human",
    ]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("`human` cannot sit"), "{}", r.err);
    let r = cli(&[
        "simulate",
        &path(HANSA),
        "--players",
        "2",
        "--seat",
        "mcts:0",
    ]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("positive number of iterations"), "{}", r.err);
    let r = cli(&[
        "simulate",
        &path(HANSA),
        "--players",
        "2",
        "--seat",
        "mcts:10:x",
    ]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("`mcts:10:x`: write the playout depth as a positive number of decisions, as `mcts:10:200`"), "{}", r.err);
    let r = cli(&["play", &path(HANSA), "--players", "2", "--bot", "wizard"]);
    assert_eq!(r.code, 2);
    assert!(
        r.err
            .contains("`wizard` is not a kind of seat: use `human`, `random`, `mcts`"),
        "{}",
        r.err
    );
}

/// `simulate --sampling draw` (`eval/sample.rs`): the same run twice is
/// the same, its games are other games than listing's (of a like length),
/// and it refuses what a drawn game cannot do.
#[test]
fn simulate_draws_options_when_asked() {
    let reversi = path("examples/reversi/reversi.rules");
    let run = |sampling: &str| {
        json_of(&[
            "simulate",
            &reversi,
            "--players",
            "2",
            "--games",
            "30",
            "--threads",
            "1",
            "--format",
            "json",
            "--sampling",
            sampling,
        ])
    };
    let (drawn, listed) = (run("draw"), run("list"));
    assert_eq!(drawn, run("draw"));
    assert_eq!(drawn["errors"], 0, "{drawn}");
    assert_eq!(drawn["games"], 30, "{drawn}");
    assert_ne!(drawn["decisions_mean"], listed["decisions_mean"]);
    // A game of reversi is some 60 moves and the passes between, either way.
    for j in [&drawn, &listed] {
        let mean = j["decisions_mean"].as_f64().unwrap();
        assert!((55.0..=70.0).contains(&mean), "{j}");
    }
    // A drawn game that fails says that `trace` cannot replay it.
    let r = cli(&[
        "simulate",
        &reversi,
        "--players",
        "2",
        "--games",
        "2",
        "--sampling",
        "draw",
        "--step-budget",
        "2000",
    ]);
    assert_eq!(r.code, 1, "{}", r.err);
    let all = format!("{}{}", r.out, r.err);
    assert!(
        all.contains("drawn with `--sampling draw`, which `regel trace` does not replay"),
        "{all}"
    );
    let d = tmp("drawn-records");
    for (extra, says) in [
        (
            vec!["--seat", "mcts"],
            "a bot other than `random` at a seat",
        ),
        (vec!["--records", d.to_str().unwrap()], "`--records`"),
        (vec!["--coverage"], "`--coverage`"),
        (vec!["--shard", "1/2"], "`--shard`"),
    ] {
        let mut args = vec!["simulate", &reversi, "--players", "2", "--sampling", "draw"];
        args.extend(extra);
        let r = cli(&args);
        assert_eq!(r.code, 2, "{}", r.err);
        assert!(
            r.err.contains(&format!(
                "error: `--sampling draw` cannot be used with {says}"
            )),
            "{}",
            r.err
        );
    }
}

#[test]
fn mcts_seats_play_in_simulate_and_play() {
    let r = cli(&[
        "simulate",
        &path(AHUP),
        "--players",
        "2",
        "--games",
        "4",
        "--seat",
        "mcts:30",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out.contains("bots: white mcts:30, grey random"),
        "{}",
        r.out
    );
    let r = cli(&[
        "play",
        &path("rulesets/hasp/hasp.rules"),
        "--players",
        "3",
        "--seat",
        "mcts:20",
        "--seat",
        "random",
        "--seat",
        "mcts:20",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out.contains("north (mcts:20 bot), east (random bot)"),
        "{}",
        r.out
    );
    assert!(r.out.contains("final standings"), "{}", r.out);
    // A depth other than the default is part of the bot's name.
    let r = cli(&[
        "simulate",
        &path(AHUP),
        "--players",
        "2",
        "--games",
        "2",
        "--seat",
        "mcts:10:5",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out.contains("bots: white mcts:10:5, grey random"),
        "{}",
        r.out
    );
}

#[test]
fn replay_against_edited_rules_shows_where_they_part() {
    let d = tmp("diverge");
    let r = cli(&[
        "simulate",
        &path(HANSA),
        "--players",
        "2",
        "--games",
        "1",
        "--seed",
        "3",
        "--records",
        &d.display().to_string(),
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    let rec = d.join("game-3.toml").display().to_string();
    // The same rules: no divergence, exit 0.
    let r = cli(&["replay", &rec, "--against", &path(HANSA)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out.contains("exactly as the record's own rules do"),
        "{}",
        r.out
    );
    // Yellow keeps 5 talers instead of 3 at the end of its first turn: the
    // positions part before grey's first move, with the same options.
    let r = cli(&["replay", &rec, "--against", &path(HOUSE)]);
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(
        r.out.contains("the rulesets part before step 8")
            && r.out.contains("they differ in position"),
        "{}",
        r.out
    );
    let money = r
        .out
        .lines()
        .find(|l| l.contains("yellow.money=3"))
        .expect("the base's money");
    assert!(
        money.contains("| ") && money.contains("yellow.money=5"),
        "side by side: {money}"
    );
    let r = cli(&[
        "replay",
        &rec,
        "--against",
        &path(HOUSE),
        "--format",
        "json",
    ]);
    let j: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(j["diverged"], true);
    assert_eq!(j["step"], 8);
    assert_eq!(j["differs"], serde_json::json!(["position"]));
    assert_eq!(j["base"]["options"], j["edited"]["options"]);
    // A variant that changes the options: open tiles offers to keep a tile first.
    let r = cli(&[
        "simulate",
        &path(AHUP),
        "--players",
        "2",
        "--games",
        "1",
        "--seed",
        "3",
        "--records",
        &d.display().to_string(),
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    let r = cli(&[
        "replay",
        &d.join("game-3.toml").display().to_string(),
        "--against",
        &path("rulesets/auf-heller-und-pfennig/open-tiles.rules"),
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 1);
    let j: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(j["differs"], serde_json::json!(["position", "options"]));
    assert!(
        j["edited"]["options"]
            .as_array()
            .unwrap()
            .iter()
            .all(|o| o.as_str().unwrap().starts_with("keep ")),
        "{}",
        j["edited"]["options"]
    );
    let r = cli(&[
        "replay",
        &d.join("nothing.toml").display().to_string(),
        "--against",
        &path(HANSA),
    ]);
    assert_eq!(r.code, 2);
}

/// `regel moves` after `decisions`, answering the last one (illegal) with the rule that forbids it.
fn why(file: &str, players: &str, seed: &str, decisions: &[&str]) -> String {
    let mut args = vec!["moves", file, "--players", players, "--seed", seed];
    for d in decisions {
        args.push("--decide");
        args.push(d);
    }
    let r = cli(&args);
    assert_eq!(r.code, 1, "the last decision is illegal: {}", r.out);
    assert!(r.err.contains("E0902"), "{}", r.err);
    r.err
}

/// `why` tells a seat no more than it may see: asked about `ask k` for every
/// `k`, it gives the same answer (the asker's own coins), whichever cards the
/// other player's hidden hand holds; a `require` that only hidden cards make
/// false is not named.
#[test]
fn why_does_not_tell_what_the_seat_cannot_see() {
    let secret = path("interpreter/tests/why/secret-ask.rules");
    // Seed 1: the second player holds card 2, unseen by the first.
    for k in 1..=4 {
        let err = why(&secret, "2", "1", &[&format!("ask {k}")]);
        assert!(
            err.contains("why: `require actor.coins >= 1` failed: `actor.coins` is 0"),
            "ask {k}: {err}"
        );
        let err = why(&secret, "2", "1", &[&format!("beg {k}")]);
        assert!(err.contains("why: `require holds(next(actor), k) and actor.coins >= 1` failed: `actor.coins` is 0"), "beg {k}: {err}");
    }
    // A domain's `where` that reads the hand is not named either.
    for k in 1..=4 {
        let err = why(&secret, "2", "1", &[&format!("claim {k}")]);
        assert!(
            err.contains("why: `require actor.coins >= 1` failed: `actor.coins` is 0"),
            "claim {k}: {err}"
        );
    }
    for k in [1, 3, 4] {
        let err = why(&secret, "2", "1", &[&format!("grab {k}")]);
        assert!(err.contains("why: a `where` or `require` of `grab` that reads what first cannot see rules this instance out"), "grab {k}: {err}");
        for action in ["peek", "plead"] {
            let err = why(&secret, "2", "1", &[&format!("{action} {k}")]);
            assert!(err.contains(&format!("why: a `require` of `{action}` that reads what first cannot see rules this instance out")), "{action} {k}: {err}");
            assert!(
                !err.contains("holds(next(actor), k)` is false"),
                "{action} {k}: {err}"
            );
        }
    }
}

// Seed 13, two players: grey has no taler left at decision 32, the ship
// lies in Lübeck and grey holds no majority there (HANSA-8.6).
const HANSA_BROKE: [&str; 32] = [
    "start in luebeck",
    "start in luebeck",
    "start in reval",
    "start in reval",
    "start in aalborg",
    "start in danzig",
    "move to tonsberg",
    "buy orange-2",
    "move to stockholm",
    "place with orange-2",
    "move to reval",
    "move to riga",
    "buy red-1",
    "skip refill",
    "move to danzig",
    "buy red-2",
    "end phase 3",
    "skip refill",
    "move to reval",
    "move to riga",
    "place with red-1",
    "end phase 3",
    "skip refill",
    "buy orange-1",
    "move to danzig",
    "buy red-1",
    "move to kalmar",
    "place with orange-1",
    "move to copenhagen",
    "buy orange-2",
    "move to luebeck",
    "buy white-2",
];

#[test]
fn an_illegal_label_is_answered_with_the_failing_require_and_its_values() {
    let err = why(&path(HANSA), "2", "13", &HANSA_BROKE);
    assert!(
        err.contains("why: `require majority(actor, ship) or actor.money >= 1` failed: `majority(actor, ship)` is false, `actor.money` is 0"),
        "{err}"
    );
    assert!(
        err.contains("275 │   require majority(actor, ship) or actor.money >= 1"),
        "points at the require: {err}"
    );
    insta::assert_snapshot!(
        "why_hansa_buy_without_money",
        err.replace(&path("rulesets"), "rulesets")
    );

    // Moving costs a taler too (HANSA-8.4): a plain comparison.
    let mut moves = HANSA_BROKE[..31].to_vec();
    moves.push("move to aalborg");
    let err = why(&path(HANSA), "2", "13", &moves);
    assert!(
        err.contains("why: `require actor.money >= 1` failed: `actor.money` is 0"),
        "{err}"
    );

    // AHUP: no private tile left (AHUP-5.2); a stall on an occupied cell.
    let err = why(
        &path(AHUP),
        "2",
        "2",
        &["private at r3c1", "stall 3 at r4c6", "private at r1c1"],
    );
    assert!(
        err.contains(
            "why: `require not empty(actor.private)` failed: `empty(actor.private)` is true"
        ),
        "{err}"
    );
    let err = why(
        &path(AHUP),
        "2",
        "2",
        &["private at r3c1", "stall 3 at r3c1"],
    );
    assert!(
        err.contains(
            "why: parameter `c` of `place_stall` cannot be r3c1: the value is not in its domain"
        ),
        "{err}"
    );

    // Connect four: a full column; a column that does not exist; no such action.
    let c4 = path("examples/connect-four/connect-four.rules");
    let err = why(&c4, "2", "0", &["drop 1"; 7]);
    assert!(
        err.contains("why: `require free(first(nodes where row == 1 and col == k))` failed"),
        "{err}"
    );
    assert!(err.contains("connect-four.rules:46:"), "{err}");
    let err = why(&c4, "2", "0", &["drop 9"]);
    assert!(
        err.contains("why: no instance of action `drop` is labelled `drop 9`"),
        "{err}"
    );
    let err = why(&c4, "2", "0", &["pass"]);
    assert!(
        err.contains("why: no action `pass` here: this decision offers `drop`"),
        "{err}"
    );
}

#[test]
fn play_and_replay_say_why_a_label_is_illegal() {
    let c4 = path("examples/connect-four/connect-four.rules");
    // Two humans: an Enter before each turn (the hot seat), then the answer.
    let input = "\ndrop 1\n".repeat(7) + "quit\n";
    let mut argv = vec!["regel".to_string()];
    argv.extend(
        [
            "play",
            &c4,
            "--players",
            "2",
            "--seed",
            "1",
            "--seat",
            "human",
            "--seat",
            "human",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut inp = Cursor::new(input.into_bytes());
    let code = {
        let mut io = Io {
            out: &mut out,
            err: &mut err,
            input: &mut inp,
            color: false,
            root: Some(PathBuf::from("/")),
            term: false,
        };
        run(&argv, &mut io)
    };
    let out = String::from_utf8(out).unwrap();
    assert_eq!(code, 3, "left with `quit`: {out}");
    assert!(
        out.contains("error: `drop 1` is not an option here"),
        "{out}"
    );
    assert!(
        out.contains("why: `require free(first(nodes where row == 1 and col == k))` failed (")
            && out.contains("connect-four.rules:46:11)"),
        "{out}"
    );

    let d = tmp("why-replay");
    let rec = d.join("full.toml");
    let decisions: Vec<String> = vec!["drop 1".to_string(); 7];
    let text = format!(
        "ruleset = {:?}\ngame = \"Connect Four\"\nplayers = 2\nseed = 0\ndecisions = {:?}\n",
        c4, decisions
    );
    std::fs::write(&rec, text).unwrap();
    let r = cli(&["replay", &rec.display().to_string()]);
    assert_eq!(r.code, 1, "{}", r.out);
    assert!(
        r.err
            .contains("step 7: `drop 1` is not a legal option for red"),
        "{}",
        r.err
    );
    assert!(
        r.err
            .contains("why: `require free(first(nodes where row == 1 and col == k))` failed"),
        "{}",
        r.err
    );
}

// Rule coverage (`simulate --coverage`): a small variant of a shipped game
// whose options make some of its rules dead.
const VARIANT: &str = "interpreter/tests/coverage/ahup-open-no-private.rules";

fn json_of(args: &[&str]) -> serde_json::Value {
    let r = cli(args);
    assert_eq!(r.code, 0, "{}", r.err);
    serde_json::from_str(&r.out).unwrap()
}

/// The warnings of a JSON report as (code, line, column, the text under the span).
fn warnings(j: &serde_json::Value) -> Vec<(String, u64, u64, String)> {
    let base = std::fs::read_to_string(path(AHUP)).unwrap();
    j["coverage"]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            assert!(
                w["file"]
                    .as_str()
                    .unwrap()
                    .ends_with("auf-heller-und-pfennig.rules"),
                "{w}"
            );
            let l = &w["labels"][0];
            let text = base
                [l["start"].as_u64().unwrap() as usize..l["end"].as_u64().unwrap() as usize]
                .to_string();
            (
                w["code"].as_str().unwrap().to_string(),
                w["line"].as_u64().unwrap(),
                w["column"].as_u64().unwrap(),
                text,
            )
        })
        .collect()
}

#[test]
fn coverage_names_dead_branches_and_requires_with_their_spans() {
    let j = json_of(&[
        "simulate",
        &path(VARIANT),
        "--players",
        "4",
        "--games",
        "30",
        "--coverage",
        "--format",
        "json",
    ]);
    let w = warnings(&j);
    let has = |code: &str, line: u64, col: u64, text: &str| {
        assert!(
            w.iter()
                .any(|x| x.0 == code && x.1 == line && x.2 == col && x.3 == text),
            "no {code} at {line}:{col} on `{text}` in {w:#?}"
        );
    };
    // Private tiles are off: the branch that deals them openly never runs ...
    has("W0105", 116, 5, "if not open_tiles_no_private");
    // ... and with every tile open, drawing one at random never does.
    has("W0105", 148, 3, "if open_tiles");
    // The pool is never empty when a player may draw: the `require` filters nothing.
    has("W0103", 147, 11, "not empty(pool)");
    // Nobody holds a private tile: its action's `require` never holds, so it is never offered.
    has("W0104", 163, 11, "not empty(actor.private)");
    has("W0101", 162, 8, "play_private");
    // Warnings come in source order.
    let order: Vec<(u64, u64)> = w.iter().map(|x| (x.1, x.2)).collect();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(order, sorted);
    // The base game deals private tiles: none of these is dead there.
    let j = json_of(&[
        "simulate",
        &path(AHUP),
        "--players",
        "4",
        "--games",
        "30",
        "--coverage",
        "--format",
        "json",
    ]);
    let w = warnings(&j);
    assert!(
        !w.iter().any(|x| x.1 == 116 || x.1 == 162 || x.1 == 163),
        "{w:#?}"
    );
}

#[test]
fn coverage_json_shape() {
    let j = json_of(&[
        "simulate",
        &path(VARIANT),
        "--players",
        "4",
        "--games",
        "10",
        "--coverage",
        "--format",
        "json",
        "--seed",
        "5",
    ]);
    let c = &j["coverage"];
    for k in [
        "actions",
        "actions_offered",
        "actions_taken",
        "ifs_reached",
        "branches",
        "branches_run",
        "requires_checked",
        "requires_both_ways",
    ] {
        assert!(c[k].is_u64(), "`{k}` missing in {c}");
    }
    assert_eq!(c["actions"], 3);
    assert_eq!(c["actions_offered"], 2);
    let w = &c["warnings"][0];
    for k in [
        "code", "severity", "message", "file", "line", "column", "labels", "help",
    ] {
        assert!(!w[k].is_null(), "`{k}` missing in {w}");
    }
    assert_eq!(w["severity"], "warning");
    // Same seeds, same report: the counts do not depend on the threads.
    let again = json_of(&[
        "simulate",
        &path(VARIANT),
        "--players",
        "4",
        "--games",
        "10",
        "--coverage",
        "--format",
        "json",
        "--seed",
        "5",
        "--threads",
        "1",
    ]);
    assert_eq!(j, again);
    // Without `--coverage` the summary has no such key.
    let plain = json_of(&[
        "simulate",
        &path(VARIANT),
        "--players",
        "4",
        "--games",
        "10",
        "--format",
        "json",
    ]);
    assert!(plain.get("coverage").is_none());
}

#[test]
fn coverage_text_report_and_mcts_seats() {
    let r = cli(&[
        "simulate",
        &path(VARIANT),
        "--players",
        "4",
        "--games",
        "4",
        "--coverage",
        "--seat",
        "mcts:30",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out.contains("coverage: 2 of 3 actions offered, 2 taken;"),
        "{}",
        r.out
    );
    assert!(
        r.out
            .contains("action `play_private` was never offered in 4 game(s)"),
        "{}",
        r.out
    );
    assert!(r.out.contains("W0105"), "{}", r.out);
}

#[test]
fn simulate_reports_declared_statistics() {
    let r = cli(&[
        "simulate",
        &path(AHUP),
        "--players",
        "4",
        "--games",
        "20",
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    let j: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    let st = j["statistics"].as_array().unwrap();
    assert_eq!(st.len(), 2);
    assert_eq!(
        (
            st[0]["name"].as_str().unwrap(),
            st[0]["per_player"].as_bool().unwrap()
        ),
        ("rounds_played", false)
    );
    assert_eq!(st[0]["mean"], 3.0, "AHUP-8.1: three rounds");
    assert!(st[0].get("seats").is_none());
    assert_eq!(
        (
            st[1]["name"].as_str().unwrap(),
            st[1]["per_player"].as_bool().unwrap()
        ),
        ("stalls_left", true)
    );
    let seats: Vec<f64> = st[1]["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert_eq!(seats.len(), 4);
    let mean = st[1]["mean"].as_f64().unwrap();
    assert!(
        (mean - seats.iter().sum::<f64>() / 4.0).abs() < 1e-9,
        "{mean} {seats:?}"
    );
    let r = cli(&[
        "simulate",
        &path("rulesets/auf-heller-und-pfennig/open-ended.rules"),
        "--players",
        "4",
        "--games",
        "20",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out.contains("statistic rounds_played: mean "),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("statistic stalls_left: mean ") && r.out.contains("(per seat: "),
        "{}",
        r.out
    );
}

#[test]
fn compare_compares_the_statistics_both_sides_declare() {
    let d = tmp("stats");
    let v = d.join("v.rules");
    std::fs::write(
        &v,
        format!(
            "variant \"v\" extends \"{}\"\noverride option open_ended: bool = true\noverride statistic rounds_played = round * 10\nstatistic money_total = sum(p in players: p.money)\n",
            path(AHUP)
        ),
    )
    .unwrap();
    let r = cli(&[
        "compare",
        &path(AHUP),
        &v.display().to_string(),
        "--players",
        "2",
        "--games",
        "20",
        "--batch",
        "20",
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    let j: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    let m = j["measures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["measure"] == "rounds_played")
        .unwrap();
    // The base plays three rounds; the variant's statistic counts tens of rounds.
    assert_eq!(m["base"]["mean"], 3.0);
    assert!(m["variant"]["mean"].as_f64().unwrap() >= 10.0, "{m}");
    assert!(
        m["sentence"]
            .as_str()
            .unwrap()
            .starts_with("`rounds_played` is "),
        "{m}"
    );
    assert_eq!(
        j["unmatched_statistics"],
        serde_json::json!(["`money_total` is declared by the variant only"])
    );
    let r = cli(&[
        "compare",
        &path(AHUP),
        &v.display().to_string(),
        "--players",
        "2",
        "--games",
        "20",
        "--batch",
        "20",
    ]);
    assert!(
        r.out
            .contains("statistic `money_total` is declared by the variant only: not compared"),
        "{}",
        r.out
    );
}

/// Every `.rules` file under a folder of shipped games, sorted.
fn shipped(dir: &str) -> Vec<String> {
    let mut v = vec![];
    for d in std::fs::read_dir(path(dir)).unwrap() {
        let d = d.unwrap().path();
        if d.is_dir() {
            for f in std::fs::read_dir(&d).unwrap() {
                let f = f.unwrap().path();
                if f.extension().is_some_and(|e| e == "rules") {
                    v.push(f.display().to_string());
                }
            }
        }
    }
    v.sort();
    v
}

/// Issue 26: the shipped house rule broke Hansa's bank at 4 players. Every
/// shipped ruleset, variant and example, at every player count it allows,
/// plays a few seeded random games with its invariants checked after every
/// decision (a modest number each, to keep CI's cost small; the soak tests
/// play more of the base games).
#[test]
fn simulate_of_every_shipped_ruleset_and_variant_holds_its_invariants() {
    let files: Vec<String> = shipped("rulesets")
        .into_iter()
        .chain(shipped("examples"))
        .collect();
    assert!(files.iter().any(|f| f.ends_with("house-thrifty.rules")));
    for f in &files {
        let mut sources = regel::diag::Sources::default();
        let (g, _) = regel::pipeline::compile(
            &mut sources,
            &regel::cli::read_file,
            Path::new(f),
            &regel::opt::Passes::all(),
        )
        .unwrap_or_else(|d| panic!("{f}: {d:?}"));
        for n in g.min_players..=g.max_players {
            let r = cli(&[
                "simulate",
                f,
                "--players",
                &n.to_string(),
                "--games",
                "6",
                "--seed",
                "7",
                "--format",
                "json",
            ]);
            let j: serde_json::Value = serde_json::from_str(&r.out).unwrap();
            assert_eq!(
                (r.code, &j["errors"]),
                (0, &serde_json::json!(0)),
                "{f} at {n} players: {}",
                j["first_errors"]
            );
        }
    }
}
