//! Rewrites change no outcome: every shipped ruleset, variant and example is
//! checked twice, with the passes after checking off (`--passes none`) and
//! on (all of them), and seeded random games are played on both programs at
//! every player count. The logs, the number of decisions and the standings
//! must be identical. The test also asserts that the passes did rewrite
//! something, so that it cannot pass by comparing a program with itself.
//!
//! The executor's indexes (`eval/zindex.rs`) are always equal to the scans
//! they replace: the same games are played with the passes on, and at every
//! decision each index is compared with a fresh scan of the board (debug
//! builds also compare at every lookup). That test asserts that some game
//! keeps an index, one of a test of variables and one of a seat's pieces,
//! so that it cannot pass by comparing nothing.
//!
//! Values kept between decisions (`opt/bytecode/keep.rs`, `eval/kept.rs`)
//! are what computing them again gives, value and steps, at every decision;
//! and a match with them takes the same steps as one without them.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use regel::diag::Sources;
use regel::eval::{Match, Setup};
use regel::ir::Game;
use regel::opt::Passes;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `.rules` file directly inside a game's folder under `rulesets/` and
/// `examples/` (scenario files live in subfolders and are not games).
fn games() -> Vec<PathBuf> {
    let mut out = vec![];
    for top in ["rulesets", "examples"] {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(root().join(top))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        for d in dirs {
            let mut files: Vec<PathBuf> = std::fs::read_dir(&d)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "rules"))
                .collect();
            files.sort();
            out.extend(files);
        }
    }
    out
}

fn load(path: &Path, passes: &Passes) -> Arc<Game> {
    let mut sources = Sources::default();
    match regel::pipeline::compile(&mut sources, &regel::cli::read_file, path, passes) {
        Ok((g, _)) => Arc::new(g),
        Err(d) => panic!(
            "{} does not check:\n{}",
            path.display(),
            regel::diag::render(&sources, &d, false, 100)
        ),
    }
}

/// One seeded random game: its log, decisions and standings as text.
fn play(game: &Arc<Game>, players: usize, seed: u64) -> String {
    let mut setup = Setup::new(players, seed);
    setup.log = true;
    let mut m = Match::new(game.clone(), &setup).expect("the match starts");
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let decisions = match m.playout(&mut rng) {
        Ok(n) => n.to_string(),
        Err(e) => format!("error: {}", e.message),
    };
    let standings = m
        .standings()
        .map(|s| format!("{s:?}"))
        .unwrap_or_else(|e| format!("error: {}", e.message));
    format!(
        "{}\ndecisions: {decisions}\n{standings}",
        m.take_log().join("\n")
    )
}

#[test]
fn rewrites_change_no_outcome() {
    let mut rewritten = 0;
    for path in games() {
        let off = load(&path, &Passes::none());
        let on = load(&path, &Passes::all());
        if regel::ir::print::print(&off) != regel::ir::print::print(&on) {
            rewritten += 1;
        }
        // Long games (thousands of decisions) get fewer seeds.
        let seeds = if path.to_string_lossy().contains("teutonica") {
            2
        } else {
            12
        };
        for players in off.min_players..=off.max_players {
            let (off, on) = (off.for_players(players), on.for_players(players));
            for seed in 1..=seeds {
                let a = play(&off, players, seed);
                let b = play(&on, players, seed);
                assert!(
                    a == b,
                    "{} with {players} players, seed {seed}: the passes changed the game",
                    path.display()
                );
            }
        }
    }
    assert!(
        rewritten >= 8,
        "the passes rewrote only {rewritten} programs: are they running?"
    );
}

#[test]
fn pass_names_parse() {
    assert_eq!(Passes::parse("all").unwrap(), Passes::all());
    assert_eq!(Passes::parse("none").unwrap(), Passes::none());
    assert!(Passes::parse("inline, splice")
        .unwrap()
        .has(regel::opt::Pass::Splice));
    assert!(!Passes::parse("inline")
        .unwrap()
        .has(regel::opt::Pass::Splice));
    let e = Passes::parse("inlining").unwrap_err();
    assert!(
        e.contains("unknown pass `inlining`") && e.contains("fold-board"),
        "{e}"
    );
}

/// Run-time errors are the same with the bytecode pass off and on: the
/// same message at the same span after the same decisions, for every
/// run-time case of the error corpus (errors inside functions compiled in
/// place, budgets counted per call and per element, overflow, empty draws).
/// The other passes keep messages but not always spans: inlining a function
/// at check time makes its errors point at the statement, not the call.
#[test]
fn run_time_errors_are_the_same_with_and_without_bytecode() {
    let dir = root().join("tests/errors");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("runtime-")
                && p.extension().is_some_and(|x| x == "rules")
        })
        .collect();
    files.sort();
    assert!(files.len() >= 10, "the corpus has its run-time cases");
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let players: Option<usize> = text
            .lines()
            .find_map(|l| l.strip_prefix("# players: "))
            .map(|n| n.trim().parse().unwrap());
        let budget = text
            .lines()
            .find_map(|l| l.strip_prefix("# budget: "))
            .map(|n| n.trim().parse::<u64>().unwrap());
        let run = |passes: &Passes| {
            let g = load(f, passes);
            let mut setup = Setup::new(players.unwrap_or(g.min_players), 0);
            if let Some(b) = budget {
                setup.budget = b;
            }
            let mut rng = ChaCha8Rng::seed_from_u64(0);
            match Match::new(g, &setup) {
                Ok(mut m) => match m.playout(&mut rng) {
                    Ok(n) => format!("no error after {n} decisions"),
                    Err(e) => format!(
                        "{} at {:?} after {} decisions",
                        e.message, e.span, m.state.decisions
                    ),
                },
                Err(e) => format!("{} at {:?} at the start", e.message, e.span),
            }
        };
        let trees = Passes::parse(
            "zone-len,inline,fold-board,consts,zone-pred,searches,board-index,splice",
        )
        .unwrap();
        assert!(
            !trees.has(regel::opt::Pass::Bytecode) && Passes::all().has(regel::opt::Pass::Bytecode)
        );
        let (off, on) = (run(&trees), run(&Passes::all()));
        assert!(
            !off.starts_with("no error"),
            "{} fails at run time: {off}",
            f.display()
        );
        assert_eq!(
            off,
            on,
            "{}: bytecode changes the run-time error",
            f.display()
        );
        let none = run(&Passes::none());
        assert_eq!(
            none.split(" at ").next(),
            on.split(" at ").next(),
            "{}: the passes change the run-time error's message",
            f.display()
        );
    }
}

#[test]
fn indexes_equal_the_scans_they_replace() {
    let mut indexed = 0;
    let mut of_variables = 0;
    let mut of_owners = 0;
    for path in games() {
        let game = load(&path, &Passes::all());
        for players in game.min_players..=game.max_players {
            // Each player count may have a board (and so a program) of its own.
            let m = Match::new(game.clone(), &Setup::new(players, 1)).expect("the match starts");
            indexed += m.game.zindex.preds.len();
            of_variables += m.game.zindex.var_watch.len();
            of_owners += (m.game.zindex.preds.iter())
                .filter(|(_, p)| matches!(p, regel::ir::ZPred::Owns(..)))
                .count();
            // A game without indexes is played once (it checks that nothing
            // goes wrong without them), one with them three times.
            let games = if m.game.zindex.preds.is_empty() { 1 } else { 3 };
            for seed in 1..=games {
                let mut m =
                    Match::new(game.clone(), &Setup::new(players, seed)).expect("the match starts");
                let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x1de5);
                let mut decisions = 0;
                while let Some((_, n)) = m.pending() {
                    if let Err(e) = m.indexes_agree() {
                        panic!(
                            "{} ({players} players, seed {seed}), decision {decisions}: {e}",
                            path.display()
                        );
                    }
                    m.apply(rng.gen_range(0..n))
                        .unwrap_or_else(|e| panic!("{}: {}", path.display(), e.message));
                    decisions += 1;
                    if decisions > 20_000 {
                        break;
                    }
                }
                m.indexes_agree().unwrap();
            }
        }
    }
    assert!(indexed > 0, "some game keeps an index");
    assert!(
        of_variables > 0,
        "some game keeps an index of a variable test"
    );
    assert!(of_owners > 0, "some game keeps an index of a seat's pieces");
}

/// Every value a position keeps between decisions is what computing its
/// expression again gives, value and steps, at every decision of seeded
/// games of every shipped game; and the same games played without the
/// `keep` pass (the choices drawn alike) have the same options and the
/// same step count at every decision, and the same log and standings. The
/// test asserts that some kept values were compared, so that it cannot pass
/// by comparing nothing.
#[test]
fn kept_values_equal_their_computation() {
    let without: Vec<&str> = regel::opt::Pass::ALL
        .iter()
        .filter(|p| **p != regel::opt::Pass::Keep)
        .map(|p| p.name())
        .collect();
    let without = Passes::parse(&without.join(",")).unwrap();
    let mut compared = 0;
    for path in games() {
        let kept = load(&path, &Passes::all());
        let plain = load(&path, &without);
        let seeds = if path.to_string_lossy().contains("teutonica") {
            1
        } else {
            3
        };
        for players in kept.min_players..=kept.max_players {
            let (kept, plain) = (kept.for_players(players), plain.for_players(players));
            for seed in 1..=seeds {
                let mut setup = Setup::new(players, seed);
                setup.log = true;
                let mut a = Match::new(kept.clone(), &setup).expect("the match starts");
                let mut b = Match::new(plain.clone(), &setup).expect("the match starts");
                let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x6ee9);
                let mut decisions = 0;
                let at = |d: usize| {
                    format!(
                        "{} ({players} players, seed {seed}), decision {d}",
                        path.display()
                    )
                };
                loop {
                    compared += a
                        .kept_agree()
                        .unwrap_or_else(|e| panic!("{}: {e}", at(decisions)));
                    let (pa, pb) = (a.pending().map(|p| p.1), b.pending().map(|p| p.1));
                    assert_eq!(pa, pb, "{}: the options", at(decisions));
                    assert_eq!(a.state.steps, b.state.steps, "{}: the steps", at(decisions));
                    let Some(n) = pa else { break };
                    let k = rng.gen_range(0..n);
                    let (ra, rb) = (a.apply(k), b.apply(k));
                    assert_eq!(ra.is_ok(), rb.is_ok(), "{}", at(decisions));
                    if ra.is_err() {
                        break;
                    }
                    decisions += 1;
                    if decisions > 20_000 {
                        break;
                    }
                }
                assert_eq!(a.take_log(), b.take_log(), "{}: the log", at(decisions));
                assert_eq!(
                    format!("{:?}", a.standings().map_err(|e| e.message)),
                    format!("{:?}", b.standings().map_err(|e| e.message)),
                    "{}: the standings",
                    at(decisions)
                );
            }
        }
    }
    assert!(compared > 1000, "only {compared} kept values compared");
}

/// Two shortcuts of option listing, both off when coverage counts each
/// requirement: an action's leading `require`s that end at a parameter are
/// folded into that parameter's domain (`ActionParam::fast`), and an action
/// whose parameters depend on each other lists all its options in one
/// program (`ActionDecl::lister`), and an action asks first for a test
/// every option needs (`ActionDecl::needs`). So a match with coverage lists
/// options through the domains and requirements one by one, and one
/// without through the shortcuts: at every decision of seeded games of every shipped game
/// both must list the same options in the same order. The test asserts
/// that some game takes each shortcut, so that it cannot pass by comparing
/// a path with itself.
#[test]
fn listing_shortcuts_list_the_options_the_requirements_allow() {
    let mut folded = 0;
    let mut listers = 0;
    let mut needs = 0;
    for path in games() {
        let game = load(&path, &Passes::all());
        for players in game.min_players..=game.max_players {
            let own = game.for_players(players);
            folded += own
                .actions
                .iter()
                .flat_map(|a| &a.params)
                .filter(|p| p.fast.is_some())
                .count();
            listers += own.actions.iter().filter(|a| a.lister.is_some()).count();
            needs += own.actions.iter().filter(|a| a.needs.is_some()).count();
            let seeds = if path.to_string_lossy().contains("teutonica") {
                1
            } else {
                3
            };
            for seed in 1..=seeds {
                let setup = Setup::new(players, seed);
                let mut fast = Match::new(game.clone(), &setup).expect("the match starts");
                let mut one_by_one =
                    Match::new_with_coverage(game.clone(), &setup).expect("the match starts");
                let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xf01d);
                let mut decisions = 0;
                while let Some((_, n)) = fast.pending() {
                    assert_eq!(
                        fast.option_labels(),
                        one_by_one.option_labels(),
                        "{} ({players} players, seed {seed}), decision {decisions}",
                        path.display()
                    );
                    let i = rng.gen_range(0..n);
                    fast.apply(i).unwrap();
                    one_by_one.apply(i).unwrap();
                    decisions += 1;
                    if decisions > 5_000 {
                        break;
                    }
                }
                assert_eq!(fast.pending(), one_by_one.pending());
            }
        }
    }
    assert!(folded > 0, "some game folds a requirement into a domain");
    assert!(needs > 0, "some game asks a test every option needs first");
    assert!(
        listers > 0,
        "some game lists an action's options in one program"
    );
}
