//! The command line, called as a library function with in-memory input and
//! output: `play`, `replay`, records, and the debug views.

use regel::cli::record::Record;
use regel::cli::{run, Io};
use std::io::Cursor;
use std::path::{Path, PathBuf};

struct Run {
    code: i32,
    out: String,
    err: String,
}

fn cli(args: &[&str], input: &str) -> Run {
    let mut argv = vec!["regel".to_string()];
    argv.extend(args.iter().map(|s| s.to_string()));
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut inp = Cursor::new(input.as_bytes().to_vec());
    let code = {
        let mut io = Io {
            out: &mut out,
            err: &mut err,
            input: &mut inp,
            color: false,
            root: Some(root()),
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

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn ahup(file: &str) -> String {
    root()
        .join("rulesets/auf-heller-und-pfennig")
        .join(file)
        .display()
        .to_string()
}

const BASE: &str = "auf-heller-und-pfennig.rules";
const VARIANTS: [&str; 4] = [
    "auf-heller-und-pfennig.rules",
    "open-ended.rules",
    "open-tiles.rules",
    "open-ended-open-tiles.rules",
];

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("regel-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn ones(n: usize) -> String {
    "1\n".repeat(n)
}

/// The scores of a final standings table (`rank seat score [winner]`), by seat order of appearance.
fn table_scores(out: &str) -> Vec<(String, i64)> {
    let start = out
        .lines()
        .position(|l| l.starts_with("rank"))
        .expect("a standings table");
    out.lines()
        .skip(start + 1)
        .map_while(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            if w.len() >= 3 && w[0].parse::<usize>().is_ok() {
                Some((w[1].to_string(), w[2].parse().ok()?))
            } else {
                None
            }
        })
        .collect()
}

#[test]
fn a_human_typing_1_finishes_every_variant_for_2_3_and_4_players() {
    for v in VARIANTS {
        for players in 2..=4 {
            let f = ahup(v);
            let n = players.to_string();
            let r = cli(&["play", &f, "--players", &n, "--seed", "11"], &ones(3000));
            assert_eq!(
                r.code,
                0,
                "{v} with {players}: {}\n{}",
                r.err,
                &r.out[r.out.len().saturating_sub(2000)..]
            );
            assert!(r.out.contains("final standings"), "{v} {players}");
            assert!(r.out.contains("winner"), "{v} {players}");
            assert_eq!(table_scores(&r.out).len(), players, "{v} {players}");
            assert!(r.out.contains("white> "), "the human was asked");
            // The human sees the others' hidden things only as hidden (base
            // game: secret tiles), by the kind's display name (`names`).
            if v == BASE {
                assert!(r.out.contains("hidden market tile"));
            }
        }
    }
}

/// Issues 3 and 4: a human plays a whole match of Hasp and of Hansa in the
/// terminal against bots, for 2, 3 and 4 players, and sees others' cards or the
/// goods stacks only as hidden.
#[test]
fn a_human_finishes_hasp_and_hansa_for_2_3_and_4_players() {
    for (game, first_seat, secret) in [
        ("hasp", "north", "hidden card"),
        ("hansa", "grey", "hidden goods"),
    ] {
        for players in 2..=4 {
            let f = root()
                .join(format!("rulesets/{game}/{game}.rules"))
                .display()
                .to_string();
            let n = players.to_string();
            let r = cli(&["play", &f, "--players", &n, "--seed", "5"], &ones(5000));
            assert_eq!(
                r.code,
                0,
                "{game} with {players}: {}\n{}",
                r.err,
                &r.out[r.out.len().saturating_sub(2000)..]
            );
            assert!(r.out.contains("final standings"), "{game} {players}");
            assert_eq!(table_scores(&r.out).len(), players, "{game} {players}");
            assert!(
                r.out.contains(&format!("{first_seat}> ")),
                "the human was asked"
            );
            assert!(
                r.out.contains(secret),
                "{game} {players}: the human's view hides {secret}"
            );
        }
    }
}

#[test]
fn bad_input_gets_a_message_and_the_same_question_again() {
    let f = ahup(BASE);
    let r = cli(
        &["play", &f, "--players", "2", "--seed", "4"],
        "xyz\n0\n999\n\n?\nquit\n",
    );
    assert_eq!(r.code, 3, "{}", r.err);
    assert!(r.out.contains("`xyz` is not an option here"), "{}", r.out);
    assert!(r.out.contains("there is no option 0"), "{}", r.out);
    assert!(r.out.contains("there is no option 999"), "{}", r.out);
    assert!(
        r.out.contains("Type the number of an option"),
        "help is printed"
    );
    // One question, asked again after each bad answer: the decision number does not move.
    assert_eq!(r.out.matches("══ decision").count(), 1, "{}", r.out);
    assert!(r.out.matches("white> ").count() >= 6, "{}", r.out);
    assert!(r.out.contains("white leaves the game"));
}

#[test]
fn quit_and_end_of_input_exit_with_3() {
    let f = ahup(BASE);
    let r = cli(&["play", &f, "--players", "3", "--seed", "1"], "quit\n");
    assert_eq!(r.code, 3);
    let r = cli(&["play", &f, "--players", "3", "--seed", "1"], "1\n1\n");
    assert_eq!(r.code, 3);
    assert!(r.err.contains("end of input"), "{}", r.err);
}

#[test]
fn a_label_is_an_answer_too() {
    let f = ahup(BASE);
    // The first question of white: `draw` is always legal at the start.
    let r = cli(
        &["play", &f, "--players", "2", "--seed", "4"],
        &format!("draw\n{}", ones(3000)),
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("put "), "drawing asks where to put the tile");
}

#[test]
fn bad_seats_and_files_are_clear_errors() {
    let f = ahup(BASE);
    let r = cli(&["play", &f, "--players", "2", "--seat", "wizard"], "");
    assert_eq!(r.code, 2);
    assert!(
        r.err.contains("`wizard` is not a kind of seat"),
        "{}",
        r.err
    );
    let r = cli(&["play", &f, "--players", "9"], "");
    assert_eq!(r.code, 2);
    assert!(r.err.contains("2..4 players"), "{}", r.err);
    let r = cli(&["play", "no/such/game.rules", "--players", "2"], "");
    assert_eq!(r.code, 1);
    assert!(r.err.contains("no/such/game.rules"), "{}", r.err);
    let r = cli(
        &["play", &f, "--players", "2", "--option", "nonsense=1"],
        "",
    );
    assert_eq!(r.code, 2);
    assert!(r.err.contains("no option `nonsense`"), "{}", r.err);
}

#[test]
fn play_record_then_replay_gives_the_same_scores() {
    let d = tmp("record");
    for (v, players) in [
        ("auf-heller-und-pfennig.rules", "3"),
        ("open-tiles.rules", "2"),
        ("open-ended.rules", "4"),
    ] {
        let rec = d.join(format!("{v}-{players}.toml"));
        let rec_s = rec.display().to_string();
        let r = cli(
            &[
                "play",
                &ahup(v),
                "--players",
                players,
                "--seed",
                "5",
                "--record",
                &rec_s,
            ],
            &ones(3000),
        );
        assert_eq!(r.code, 0, "{}", r.err);
        let played = table_scores(&r.out);
        let text = std::fs::read_to_string(&rec).unwrap();
        assert!(text.starts_with("# A Regel game record"));
        assert!(
            text.contains("# 1 "),
            "decisions are numbered and annotated:\n{text}"
        );
        let record: Record = toml::from_str(&text).unwrap();
        let scores = record
            .scores
            .clone()
            .expect("a finished game's record has its scores");
        let by_seat: Vec<i64> = ["white", "grey", "black", "yellow"]
            .iter()
            .take(scores.len())
            .map(|s| played.iter().find(|(n, _)| n == s).unwrap().1)
            .collect();
        assert_eq!(scores, by_seat);

        let r = cli(&["replay", &rec_s, "--format", "json"], "");
        assert_eq!(r.code, 0, "{}", r.err);
        let j: serde_json::Value = serde_json::from_str(&r.out).unwrap();
        assert_eq!(j["ok"], true);
        assert_eq!(
            j["decisions"].as_u64().unwrap() as usize,
            record.decisions.len()
        );
        let replayed: Vec<i64> = j["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["score"].as_i64().unwrap())
            .collect();
        assert_eq!(replayed, scores);

        let r = cli(&["replay", &rec_s], "");
        assert_eq!(r.code, 0, "{}", r.err);
        assert!(r.out.contains("the scores match the record"));
    }
}

#[test]
fn a_tampered_record_fails_at_its_step() {
    let d = tmp("tamper");
    let rec = d.join("game.toml");
    let rec_s = rec.display().to_string();
    let r = cli(
        &[
            "play",
            &ahup(BASE),
            "--players",
            "2",
            "--seed",
            "8",
            "--record",
            &rec_s,
        ],
        &ones(3000),
    );
    assert_eq!(r.code, 0, "{}", r.err);
    let mut record: Record = toml::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();

    // An illegal label at step 3.
    let mut bad = record.clone();
    bad.decisions[2] = "stall 9 at r9c9".into();
    let bad_path = d.join("bad.toml");
    std::fs::write(&bad_path, bad.to_toml()).unwrap();
    let r = cli(&["replay", &bad_path.display().to_string()], "");
    assert_eq!(r.code, 1);
    assert!(r.err.contains("E0902"), "{}", r.err);
    assert!(r.err.contains("step 3"), "{}", r.err);
    assert!(
        r.err.contains("`stall 9 at r9c9` is not a legal option"),
        "{}",
        r.err
    );
    assert!(r.err.contains("this rule asked"), "{}", r.err);
    assert!(
        r.err.contains("auf-heller-und-pfennig.rules:"),
        "names the rule's file: {}",
        r.err
    );
    assert!(r.err.contains("legal options"), "{}", r.err);
    let r = cli(
        &[
            "replay",
            &bad_path.display().to_string(),
            "--format",
            "json",
        ],
        "",
    );
    assert_eq!(r.code, 1);
    let j: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(j["ok"], false);
    assert_eq!(j["step"], 3);

    // Decisions that run out before the end.
    let mut short = record.clone();
    short.decisions.truncate(10);
    let short_path = d.join("short.toml");
    std::fs::write(&short_path, short.to_toml()).unwrap();
    let r = cli(&["replay", &short_path.display().to_string()], "");
    assert_eq!(r.code, 1);
    assert!(
        r.err.contains("the record ends after 10 decision(s)"),
        "{}",
        r.err
    );

    // Wrong scores.
    record.scores = Some(vec![1, 2]);
    let wrong = d.join("wrong.toml");
    std::fs::write(&wrong, record.to_toml()).unwrap();
    let r = cli(&["replay", &wrong.display().to_string()], "");
    assert_eq!(r.code, 1);
    assert!(r.err.contains("differ from the record"), "{}", r.err);

    // Not TOML of a record: the error points into the file.
    let broken = d.join("broken.toml");
    std::fs::write(
        &broken,
        "ruleset = \"x.rules\"\ngame = \"g\"\nplayers = \"two\"\nseed = 1\ndecisions = []\n",
    )
    .unwrap();
    let r = cli(&["replay", &broken.display().to_string()], "");
    assert_eq!(r.code, 1);
    assert!(r.err.contains("E0903"), "{}", r.err);
    assert!(r.err.contains("broken.toml:3:"), "{}", r.err);

    let r = cli(
        &["replay", &d.join("missing.toml").display().to_string()],
        "",
    );
    assert_eq!(r.code, 1);
    assert!(r.err.contains("missing.toml"), "{}", r.err);
}

#[test]
fn simulate_records_replay() {
    let d = tmp("simulate");
    let f = ahup("open-ended-open-tiles.rules");
    let r = cli(
        &[
            "simulate",
            &f,
            "--players",
            "3",
            "--games",
            "3",
            "--seed",
            "20",
            "--threads",
            "1",
            "--records",
            &d.display().to_string(),
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    for seed in 20..23 {
        let p = d.join(format!("game-{seed}.toml"));
        let r = cli(
            &["replay", &p.display().to_string(), "--format", "json"],
            "",
        );
        assert_eq!(r.code, 0, "{}", r.err);
        let j: serde_json::Value = serde_json::from_str(&r.out).unwrap();
        assert_eq!(j["ok"], true);
        assert_eq!(j["standings"].as_array().unwrap().len(), 3);
    }
}

#[test]
fn bots_only_play_is_simulate_s_game() {
    // Same seed, same bot generator: `play` with three random seats takes the
    // decisions `simulate` takes.
    let d = tmp("bots");
    let f = ahup(BASE);
    let r = cli(
        &[
            "simulate",
            &f,
            "--players",
            "3",
            "--games",
            "1",
            "--seed",
            "9",
            "--records",
            &d.display().to_string(),
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    let sim: Record =
        toml::from_str(&std::fs::read_to_string(d.join("game-9.toml")).unwrap()).unwrap();
    let rec = d.join("play.toml");
    let r = cli(
        &[
            "play",
            &f,
            "--players",
            "3",
            "--seed",
            "9",
            "--seat",
            "random",
            "--seat",
            "random",
            "--seat",
            "random",
            "--record",
            &rec.display().to_string(),
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    let played: Record = toml::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    assert_eq!(sim.decisions, played.decisions);
}

#[test]
fn a_record_finds_its_ruleset_beside_itself() {
    // A copy of the game and its map, with a record naming the ruleset relative to the record.
    let d = tmp("relative");
    std::fs::create_dir_all(d.join("rulesets/g")).unwrap();
    std::fs::create_dir_all(d.join("maps")).unwrap();
    std::fs::copy(ahup(BASE), d.join("rulesets/g/game.rules")).unwrap();
    std::fs::copy(
        root().join("maps/auf-heller-und-pfennig.toml"),
        d.join("maps/auf-heller-und-pfennig.toml"),
    )
    .unwrap();
    let rec = d.join("rulesets/g/rec.toml");
    let r = cli(
        &[
            "play",
            &d.join("rulesets/g/game.rules").display().to_string(),
            "--players",
            "2",
            "--seed",
            "2",
            "--record",
            &rec.display().to_string(),
            "--root",
            &d.display().to_string(),
        ],
        &ones(3000),
    );
    assert_eq!(r.code, 0, "{}", r.err);
    let mut record: Record = toml::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    record.ruleset = "game.rules".into();
    std::fs::write(&rec, record.to_toml()).unwrap();
    let r = cli(
        &[
            "replay",
            &rec.display().to_string(),
            "--root",
            &d.display().to_string(),
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.err);
}

#[test]
fn board_shows_dot() {
    let r = cli(&["board", &ahup(BASE)], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("graph"), "{}", r.out);
    assert!(r.out.contains("r1c1") && r.out.contains("r5c6"));
    let r = cli(
        &[
            "board",
            &root()
                .join("maps/auf-heller-und-pfennig.toml")
                .display()
                .to_string(),
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("graph") && r.out.contains("r1c1"));
    let r = cli(&["board", "no/such/board.toml"], "");
    assert_eq!(r.code, 1);
    assert!(r.err.contains("no/such/board.toml"), "{}", r.err);
}

#[test]
fn ast_is_json() {
    let r = cli(&["ast", &ahup("open-tiles.rules")], "");
    assert_eq!(r.code, 0, "{}", r.err);
    let j: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    assert!(j.is_object());
    assert!(r.out.contains("open_tiles"));
    let r = cli(&["ast", &ahup(BASE)], "");
    assert!(r.out.contains("Auf Heller und Pfennig"));
    let r = cli(&["ast", "nope.rules"], "");
    assert_eq!(r.code, 1);
    assert!(r.err.contains("nope.rules"));
}

#[test]
fn moves_lists_the_options_of_the_deciding_seat() {
    let f = ahup(BASE);
    let r = cli(&["moves", &f, "--players", "3", "--seed", "1"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("to decide"), "{}", r.out);
    assert!(r.out.contains(") draw"), "{}", r.out);
    let r = cli(
        &[
            "moves",
            &f,
            "--players",
            "3",
            "--seed",
            "1",
            "--decide",
            "draw",
            "--format",
            "json",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    let j: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    let opts: Vec<&str> = j["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["label"].as_str().unwrap())
        .collect();
    assert!(
        opts.iter().all(|o| o.starts_with("put ")),
        "after a draw the tile is put: {opts:?}"
    );
    assert!(j["seat"].is_string());
    assert!(j["view"]["zones"].is_array());
    let r = cli(
        &[
            "moves",
            &f,
            "--players",
            "3",
            "--seed",
            "1",
            "--decide",
            "fly away",
        ],
        "",
    );
    assert_eq!(r.code, 1);
    assert!(
        r.err.contains("step 1") && r.err.contains("fly away"),
        "{}",
        r.err
    );
}

#[test]
fn trace_prints_the_log_and_standings() {
    let f = ahup(BASE);
    let r = cli(&["trace", &f, "--players", "2", "--seed", "3"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("round 1:"), "{}", r.out);
    assert!(
        r.out.contains("put "),
        "the log names drawn tiles: {}",
        r.out
    );
    assert!(r.out.contains("rank"));
    assert_eq!(table_scores(&r.out).len(), 2);
    // Deterministic.
    let again = cli(&["trace", &f, "--players", "2", "--seed", "3"], "");
    assert_eq!(r.out, again.out);
}

/// Issue 8, HT-7.4, HT-13.5, DP-10/DP-11/DP-21: a human plays a whole game of
/// Hansa Teutonica against bots for 2 to 5 players, and decides the
/// relocations when a bot displaces one of its pieces (or, with 2 players, a
/// neutral piece): the question is asked at the terminal in the middle of the
/// bot's action. The human answers `2` to everything (mostly: place pieces).
#[test]
fn a_human_plays_hansa_teutonica_and_relocates_when_displaced() {
    let f = root()
        .join("rulesets/hansa-teutonica/hansa-teutonica.rules")
        .display()
        .to_string();
    let answers = "2\n".repeat(40_000);
    for players in 2..=5 {
        let n = players.to_string();
        let r = cli(&["play", &f, "--players", &n, "--seed", "5"], &answers);
        assert_eq!(r.code, 0, "{players} players: {}", r.err);
        assert!(
            r.out.contains("final standings"),
            "{players} players: the game ended"
        );
        assert_eq!(table_scores(&r.out).len(), players, "{players} players");
        assert!(
            r.out.contains("red> red chose: relocate "),
            "{players} players: the human relocated a displaced piece"
        );
        assert!(
            r.out.contains("hidden bonus token"),
            "{players} players: the face-down tokens are hidden from the human"
        );
    }
}

/// The screens of a `play` transcript: each is what follows a decision's
/// `──` line up to its prompt (the position and the options), with the
/// decision's number.
fn screens<'a>(out: &'a str, prompt: &str) -> Vec<(usize, &'a str)> {
    out.split("\n══ decision ")
        .skip(1)
        .filter_map(|d| {
            let n = d.split(':').next()?.parse().ok()?;
            let screen = d.split_once("\n──\n")?.1;
            Some((n, screen.split(prompt).next()?))
        })
        .collect()
}

/// Issue 12: the Hansa Teutonica screen, about 80 rows laid out plainly,
/// fits a 40×100 terminal at 4 and 5 players: every screen of a whole game
/// (the position and the options) is at most 38 rows (the prompt and the
/// `──` line make 40) and 100 columns. A mid-game screen is kept as a
/// snapshot (reviewed: the table folded into the seat rows, the desks in one
/// cell each, the posts listed by route, the unchanged office rows folded).
#[test]
fn the_hansa_teutonica_screen_fits_40_by_100_at_4_and_5_players() {
    let f = root()
        .join("rulesets/hansa-teutonica/hansa-teutonica.rules")
        .display()
        .to_string();
    for players in [4usize, 5] {
        let r = cli(
            &["play", &f, "--players", &players.to_string(), "--seed", "1"],
            &"2\n".repeat(40_000),
        );
        assert_eq!(r.code, 0, "{}", r.err);
        let all = screens(&r.out, "red> ");
        assert!(all.len() > 1000, "{players} players: {} screens", all.len());
        for (n, screen) in &all {
            let rows = screen.lines().count();
            assert!(
                rows <= 38,
                "{players} players, decision {n}: {rows} rows:\n{screen}"
            );
            for l in screen.lines() {
                assert!(
                    l.chars().count() <= 100,
                    "{players} players, decision {n}: {} columns: {l}",
                    l.chars().count()
                );
            }
        }
        let (n, mid) = all[all.len() / 2];
        insta::assert_snapshot!(
            format!("hansa-teutonica-screen-{players}p"),
            format!("decision {n}\n{mid}")
        );
    }
}

/// Issue 12: a displaced human's relocation is chosen inside another seat's
/// action; the human's screen shows that action up to the question (the
/// displacement), and the course of its next decision starts with the
/// relocation it chose.
#[test]
fn a_displaced_human_reads_its_relocation_in_the_course_of_the_game() {
    let f = root()
        .join("rulesets/hansa-teutonica/hansa-teutonica.rules")
        .display()
        .to_string();
    let r = cli(
        &["play", &f, "--players", "4", "--seed", "1"],
        &"2\n".repeat(40_000),
    );
    assert_eq!(r.code, 0, "{}", r.err);
    let decisions: Vec<&str> = r.out.split("\n══ decision ").collect();
    let mut seen = 0;
    for (k, d) in decisions.iter().enumerate() {
        let Some(chosen) = d
            .lines()
            .find_map(|l| l.strip_prefix("red> red chose: relocate "))
        else {
            continue;
        };
        let (course, _) = d.split_once("\n──\n").unwrap();
        // The question came inside another seat's displacement of red's piece.
        let displacer = course.lines().rev().find_map(|l| {
            l.trim()
                .split_once(": displace ")
                .filter(|(_, what)| what.starts_with("red "))
                .map(|(who, _)| who.to_string())
        });
        let Some(displacer) = displacer else { continue };
        assert_ne!(displacer, "red", "{course}");
        // The next screen's course begins with what red chose.
        let next = decisions
            .get(k + 1)
            .expect("a decision after the relocation");
        let first = next.lines().nth(1).unwrap_or("");
        assert_eq!(
            first,
            format!("  red: relocate {chosen}"),
            "decision {}",
            next.lines().next().unwrap_or("")
        );
        seen += 1;
    }
    assert!(
        seen >= 2,
        "{seen} relocations by red inside another seat's action"
    );
}

/// Issue 12: `play` without `--seed` takes a fresh seed and prints it; that
/// seed plays the same game again.
#[test]
fn play_takes_a_fresh_seed_and_prints_it() {
    let f = ahup(BASE);
    let seed_of = |out: &str| -> u64 {
        let l = out
            .lines()
            .find(|l| l.starts_with("seed "))
            .expect("the seed is printed");
        l.split_whitespace().nth(1).unwrap().parse().unwrap()
    };
    let a = cli(
        &[
            "play",
            &f,
            "--players",
            "2",
            "--seat",
            "random",
            "--seat",
            "random",
        ],
        "",
    );
    let b = cli(
        &[
            "play",
            &f,
            "--players",
            "2",
            "--seat",
            "random",
            "--seat",
            "random",
        ],
        "",
    );
    assert_eq!(a.code, 0, "{}", a.err);
    let (sa, sb) = (seed_of(&a.out), seed_of(&b.out));
    assert_ne!(sa, sb, "two games, two seeds");
    let again = cli(
        &[
            "play",
            &f,
            "--players",
            "2",
            "--seat",
            "random",
            "--seat",
            "random",
            "--seed",
            &sa.to_string(),
        ],
        "",
    );
    assert_eq!(again.out, a.out, "the printed seed plays the same game");
}

/// Issue 12: `simulate` checks declared invariants unless told not to, and
/// exits with 1 when a game broke one.
#[test]
fn simulate_checks_invariants_by_default_and_fails_on_a_broken_one() {
    let d = tmp("invariant");
    let rules = d.join("broken.rules");
    let nim = std::fs::read_to_string(root().join("examples/nim/nim.rules")).unwrap();
    std::fs::write(&rules, nim.replace("== 12", "== 11")).unwrap();
    let r = rules.display().to_string();
    // The broken copy lives in a temporary folder, outside the workspace root.
    let out = cli(
        &[
            "simulate",
            &r,
            "--players",
            "2",
            "--games",
            "5",
            "--root",
            "/",
        ],
        "",
    );
    assert_eq!(out.code, 1, "{}", out.out);
    assert!(out.out.contains("invariant broken"), "{}", out.out);
    assert!(out.out.contains("errors: 5"), "{}", out.out);
    let out = cli(
        &[
            "simulate",
            &r,
            "--players",
            "2",
            "--games",
            "5",
            "--no-invariants",
            "--root",
            "/",
        ],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.out);
    // The old switch is still accepted.
    let out = cli(
        &[
            "simulate",
            &r,
            "--players",
            "2",
            "--games",
            "5",
            "--invariants",
            "--root",
            "/",
        ],
        "",
    );
    assert_eq!(out.code, 1, "{}", out.out);
}

/// Issue 12: a record names its ruleset relative to itself, so `replay`
/// works from any folder; records that name it from the current folder
/// still replay.
#[test]
fn a_record_names_its_ruleset_relative_to_itself() {
    let d = tmp("record-folder").join("deep");
    std::fs::create_dir_all(&d).unwrap();
    let rec = d.join("game.toml");
    let rec_s = rec.display().to_string();
    let r = cli(
        &[
            "play",
            &ahup(BASE),
            "--players",
            "2",
            "--seed",
            "5",
            "--record",
            &rec_s,
        ],
        &ones(3000),
    );
    assert_eq!(r.code, 0, "{}", r.err);
    let record: Record = toml::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    assert!(record.ruleset.starts_with("../"), "{}", record.ruleset);
    assert!(
        record
            .ruleset
            .ends_with("rulesets/auf-heller-und-pfennig/auf-heller-und-pfennig.rules"),
        "{}",
        record.ruleset
    );
    // The path is taken from the record's folder.
    assert!(d.join(&record.ruleset).exists(), "{}", record.ruleset);
    let r = cli(&["replay", &rec_s], "");
    assert_eq!(r.code, 0, "{}", r.err);
    // An old record: the path as given on the command line, from this folder.
    let old = d.join("old.toml");
    let text = std::fs::read_to_string(&rec).unwrap().replace(
        &record.ruleset,
        "../rulesets/auf-heller-und-pfennig/auf-heller-und-pfennig.rules",
    );
    std::fs::write(&old, text).unwrap();
    let r = cli(&["replay", &old.display().to_string()], "");
    assert_eq!(r.code, 0, "{}", r.err);
}

/// Issue 21, item 1: at the end of a game with one human, the final position
/// is shown as that seat sees it: its own hand named (HASP-14.1: the owner
/// sees his hand), the other hands still hidden; and the trick winners in
/// the course of the game are named (HASP-14.6: every card was seen face up
/// when played).
#[test]
fn the_human_sees_its_own_hand_at_the_end() {
    let f = root()
        .join("rulesets/hasp/hasp.rules")
        .display()
        .to_string();
    let r = cli(&["play", &f, "--players", "4", "--seed", "5"], &ones(5000));
    assert_eq!(r.code, 0, "{}", r.err);
    let end = &r.out[r.out.find("═══ game over").expect("the game ends")..];
    let own = end.lines().find(|l| l.starts_with("north ")).unwrap();
    assert!(own.contains("hand: ") && !own.contains("hidden"), "{own}");
    let east = end.lines().find(|l| l.starts_with("east ")).unwrap();
    assert!(east.contains("hidden card"), "{east}");
    assert!(r.out.contains("trick 1: village-10 wins, south takes it"));
    assert!(!r.out.contains("hidden card wins"));
}

/// Issue 24, item 7: invariants are checked only where the rules are at
/// rest. An action that lends a coin, asks how it is returned and returns it
/// breaks "nothing lent" only in its middle, and no game reports it; a coin
/// left lent at the end of the action is reported, with one count of
/// decisions.
#[test]
fn invariants_are_checked_only_at_rest_and_reported_with_one_count() {
    let d = tmp("at-rest");
    let rules = d.join("lend.rules");
    let lend = r#"game "Lend"
players 2
seats first, second
var lent: int = 0
var rounds: int = 0
var current: player = first
action lend(k in 1..2) label "lend {k}" {
  lent = k
  let n = choose actor from 1..2 label "return {n}"
  log "returned {n}"
  lent = 0
  rounds += 1
}
play {
  while rounds < 6 {
    act current with lend
    current = next(current)
  }
}
invariant "nothing lent" lent == 0
"#;
    std::fs::write(&rules, lend).unwrap();
    let r = rules.display().to_string();
    let args = [
        "simulate",
        &r,
        "--players",
        "2",
        "--games",
        "5",
        "--root",
        "/",
    ];
    let out = cli(&args, "");
    assert_eq!(out.code, 0, "broken only inside the action: {}", out.out);
    assert!(
        out.out.contains("errors: 0") || !out.out.contains("errors"),
        "{}",
        out.out
    );
    // The coin is kept after the second round: broken at a rest.
    std::fs::write(
        &rules,
        lend.replace("lent = 0", "lent = if rounds >= 1 then 1 else 0"),
    )
    .unwrap();
    let out = cli(&args, "");
    assert_eq!(out.code, 1, "{}", out.out);
    let line = out
        .out
        .lines()
        .find(|l| l.contains("seed 0:"))
        .unwrap_or_else(|| panic!("{}", out.out));
    // The first action (two decisions: `lend k`, then `return n`) ends
    // with `lent = 0` (rounds was 0); the second keeps the coin, and the
    // rest after its two decisions breaks the invariant.
    assert!(
        line.starts_with("  seed 0: invariant broken: nothing lent (after 4 decisions;"),
        "{line}"
    );
    assert_eq!(line.matches("decisions").count(), 1, "one count: {line}");
}

fn rules(rel: &str) -> String {
    root().join(rel).display().to_string()
}

fn json(out: &str) -> serde_json::Value {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// Issue 24, item 9: `moves --format json` gives each option's action and
/// typed parameters beside its label: a number as a number, a node as its id
/// with its type named, and a `choose`'s answer as its one parameter.
#[test]
fn moves_json_gives_typed_options() {
    let nim = rules("examples/nim/nim.rules");
    let r = cli(&["moves", &nim, "--players", "2", "--format", "json"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    let j = json(&r.out);
    let first = &j["options"][0];
    assert_eq!(first["label"], "heap 1");
    assert_eq!(first["action"], "take");
    assert_eq!(
        first["params"],
        serde_json::json!([{"name": "h", "type": "int", "value": 1}])
    );
    // After `heap 3` the same action asks how many: a `choose`.
    let r = cli(
        &[
            "moves",
            &nim,
            "--players",
            "2",
            "--decide",
            "heap 3",
            "--format",
            "json",
        ],
        "",
    );
    let j = json(&r.out);
    let labels: Vec<&str> = j["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["take 1", "take 2", "take 3", "take 4", "take 5"]);
    assert!(j["options"][4]["action"].is_null());
    assert_eq!(j["options"][4]["params"][0]["value"], 5);
    // The view's variables: typed, with the owner split out.
    let vars = j["view"]["vars"].as_array().unwrap();
    let current = vars.iter().find(|v| v["name"] == "current").unwrap();
    assert_eq!(current["type"], "player");
    assert_eq!(current["value"], "first");
    assert!(current["owner"].is_null());
    // Hansa's first decision: a node, named by its id.
    let hansa = rules("rulesets/hansa/hansa.rules");
    let r = cli(
        &[
            "moves",
            &hansa,
            "--players",
            "2",
            "--seed",
            "13",
            "--format",
            "json",
        ],
        "",
    );
    let j = json(&r.out);
    let o = j["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["label"] == "start in luebeck")
        .unwrap();
    assert_eq!(
        o["params"],
        serde_json::json!([{"name": "choice", "type": "node", "value": "luebeck"}])
    );
    let money: Vec<&serde_json::Value> = j["view"]["vars"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["name"] == "money")
        .collect();
    assert_eq!(money.len(), 2, "one per seat: {money:?}");
    assert_eq!(money[0]["owner"], "grey");
    assert!(money[0]["value"].is_i64(), "{:?}", money[0]);
}

/// The typed view tells a seat no more than its text view: another seat's
/// hand is a row of hidden cards with neither number nor fields, its own
/// hand has both (Hasp's hands are `owner` zones).
#[test]
fn moves_json_shows_hidden_pieces_as_hidden() {
    let hasp = rules("rulesets/hasp/hasp.rules");
    let r = cli(
        &[
            "moves",
            &hasp,
            "--players",
            "3",
            "--seed",
            "1",
            "--format",
            "json",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    let j = json(&r.out);
    let me = j["seat"].as_str().unwrap().to_string();
    let hands: Vec<&serde_json::Value> = j["view"]["zones"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|z| z["name"] == "hand")
        .collect();
    assert_eq!(hands.len(), 3);
    for h in hands {
        let pieces = h["pieces"].as_array().unwrap();
        assert_eq!(pieces.len(), 7);
        for p in pieces {
            if h["owner"] == me.as_str() {
                assert_eq!(p["hidden"], false);
                assert!(p["id"].is_u64(), "{p}");
                let suit = p["fields"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|f| f["name"] == "suit")
                    .unwrap();
                assert_eq!(suit["type"], "enum");
                assert_eq!(suit["of"], "suit");
                assert!(suit["value"].is_string());
            } else {
                assert_eq!(
                    *p,
                    serde_json::json!({"kind": "card", "hidden": true, "label": "hidden card", "fields": []}),
                    "another seat's card tells nothing"
                );
            }
        }
    }
}

/// `trace --format json`: one object per line; the log lines of its events
/// are the text trace's lines, each decision names the option taken with
/// its label as the deciding seat reads it (the record's label), and the
/// end gives the standings of the text trace.
#[test]
fn trace_json_lines_match_the_text_trace() {
    let hasp = rules("rulesets/hasp/hasp.rules");
    let args = ["trace", &hasp, "--players", "3", "--seed", "5"];
    let text = cli(&args, "");
    assert_eq!(text.code, 0, "{}", text.err);
    let mut jargs = args.to_vec();
    jargs.extend(["--format", "json"]);
    let r = cli(&jargs, "");
    assert_eq!(r.code, 0, "{}", r.err);
    let events: Vec<serde_json::Value> = r.out.lines().map(json).collect();
    assert_eq!(events[0]["event"], "start");
    assert_eq!(events[0]["seed"], 5);
    let end = events.last().unwrap();
    assert_eq!(end["event"], "end");
    let decisions: Vec<&serde_json::Value> =
        events.iter().filter(|e| e["event"] == "decision").collect();
    assert_eq!(decisions.len() as u64, end["decisions"].as_u64().unwrap());
    let logged: Vec<String> = events
        .iter()
        .flat_map(|e| e["log"].as_array().cloned().unwrap_or_default())
        .map(|l| l.as_str().unwrap().to_string())
        .collect();
    let body: Vec<&str> = text
        .out
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("# game over"))
        .collect();
    assert_eq!(logged, body);
    assert!(text.out.contains(&format!(
        "# game over after {} decision(s)",
        end["decisions"]
    )));
    for (k, d) in decisions.iter().enumerate() {
        assert_eq!(d["step"], k as u64 + 1);
        // An action taken is logged as `seat: label`.
        if d["taken"]["action"].is_string() {
            let line = format!(
                "{}: {}",
                d["seat"].as_str().unwrap(),
                d["taken"]["label"].as_str().unwrap()
            );
            assert_eq!(d["log"][0].as_str(), Some(line.as_str()));
        }
    }
    // A card played: a typed piece with its fields (the trace sees all).
    let played = decisions
        .iter()
        .find(|d| d["taken"]["action"] == "play_card")
        .expect("a card is played");
    let card = &played["taken"]["params"][0];
    assert_eq!(card["type"], "piece");
    assert_eq!(card["value"]["hidden"], false);
    assert!(!card["value"]["fields"].as_array().unwrap().is_empty());
    for st in end["standings"].as_array().unwrap() {
        let seat = st["seat"].as_str().unwrap();
        let score = st["score"].as_i64().unwrap();
        assert!(
            text.out
                .lines()
                .any(|l| l.split_whitespace().nth(1) == Some(seat)
                    && l.split_whitespace().nth(2) == Some(&score.to_string())),
            "{seat} {score}: {}",
            text.out
        );
    }
}

/// `trace --record FILE` traces a game `simulate` recorded: the same game,
/// line for line, as tracing its seed, ending with the recorded scores.
#[test]
fn trace_of_a_record_reproduces_the_game() {
    let d = tmp("trace-record");
    let hasp = rules("rulesets/hasp/hasp.rules");
    let recs = d.join("records").display().to_string();
    let r = cli(
        &[
            "simulate",
            &hasp,
            "--players",
            "3",
            "--games",
            "1",
            "--seed",
            "7",
            "--records",
            &recs,
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    let rec_path = d.join("records/game-7.toml");
    let rec = Record::from_toml(
        &mut regel::diag::Sources::default(),
        "game-7.toml",
        &std::fs::read_to_string(&rec_path).unwrap(),
    )
    .unwrap();
    let rec_path = rec_path.display().to_string();
    let traced = cli(&["trace", "--record", &rec_path], "");
    assert_eq!(traced.code, 0, "{}", traced.err);
    let seeded = cli(&["trace", &hasp, "--players", "3", "--seed", "7"], "");
    assert_eq!(traced.out, seeded.out);
    assert!(traced.out.contains(&format!(
        "# game over after {} decision(s)",
        rec.decisions.len()
    )));
    // As JSON: the decisions are the record's labels, in order.
    let r = cli(&["trace", "--record", &rec_path, "--format", "json"], "");
    let events: Vec<serde_json::Value> = r.out.lines().map(json).collect();
    let labels: Vec<String> = events
        .iter()
        .filter(|e| e["event"] == "decision")
        .map(|e| e["taken"]["label"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(labels, rec.decisions);
    let scores: Vec<i64> = events.last().unwrap()["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["score"].as_i64().unwrap())
        .collect();
    assert_eq!(Some(scores), rec.scores);
    // A record cut short: the trace goes as far as it can, then says so.
    let mut short = rec.clone();
    short.decisions.truncate(5);
    let short_path = d.join("records/short.toml");
    std::fs::write(&short_path, short.to_toml()).unwrap();
    let r = cli(
        &["trace", "--record", &short_path.display().to_string()],
        "",
    );
    assert_eq!(r.code, 1);
    assert!(
        r.err.contains("the record ends after 5 decision(s)"),
        "{}",
        r.err
    );
}
