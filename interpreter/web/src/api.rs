//! The requests the page makes, one JSON object each with a `cmd`, and their
//! answers: a JSON object, `{"error": "…"}` when the request could not be
//! met. Diagnostics are the core's `diag::to_json`, as `regel check --format
//! json` writes them.

use crate::files::Files;
use crate::measure;
use crate::session::{self, Session};
use regel_core::bot::seeded::GameResult;
use regel_core::bot::SeatKind;
use regel_core::diag::{self, Sources};
use regel_core::eval::Coverage;
use regel_core::ir::Game;
use serde::Deserialize;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

#[derive(Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case")]
enum Request {
    /// Adds or replaces files (the bundled ones, an edited one).
    Put {
        files: BTreeMap<String, String>,
    },
    /// Checks a ruleset; a good one becomes the game of `new` and `simulate`.
    Check {
        path: String,
    },
    /// A new match of the checked game; `seats` are `human`, `random`, `mcts`….
    New {
        players: usize,
        seed: u64,
        seats: Vec<String>,
    },
    /// The match as a seat (or, without one, an onlooker) sees it.
    Show {
        viewer: Option<usize>,
    },
    Apply {
        index: usize,
        viewer: Option<usize>,
    },
    Bot {
        viewer: Option<usize>,
    },
    Undo {
        viewer: Option<usize>,
    },
    /// A record's decisions, by label, played from the start of a new match.
    Replay {
        players: usize,
        seed: u64,
        seats: Vec<String>,
        labels: Vec<String>,
        viewer: Option<usize>,
    },
    /// Plays games `from .. from + count` of a run (seeds `seed + i`); the
    /// first batch (`from == 0`) starts the run.
    Simulate {
        players: usize,
        seed: u64,
        seats: Vec<String>,
        from: u64,
        count: u64,
        /// Count what the rules exercised (`regel simulate --coverage`).
        #[serde(default)]
        coverage: bool,
    },
    /// The run's summary, as `regel simulate --format json` writes it.
    Summary,
}

/// The checked game, with its sources (for run-time error places).
struct Checked {
    game: Arc<Game>,
    sources: Sources,
}

struct Run {
    players: usize,
    kinds: Vec<SeatKind>,
    results: Vec<GameResult>,
    /// The games' coverage counters added up, when the run counts them.
    coverage: Option<Coverage>,
}

#[derive(Default)]
struct Engine {
    files: Files,
    checked: Option<Checked>,
    session: Option<Session>,
    run: Option<Run>,
}

thread_local! {
    static ENGINE: RefCell<Engine> = RefCell::new(Engine::default());
}

/// Answers one request (JSON in, JSON out).
pub fn handle(req: &str) -> String {
    let answer = match serde_json::from_str::<Request>(req) {
        Ok(r) => ENGINE.with(|e| answer(&mut e.borrow_mut(), r)),
        Err(e) => Err(format!("a request the engine does not understand: {e}")),
    };
    match answer {
        Ok(v) => v.to_string(),
        Err(e) => json!({ "error": e }).to_string(),
    }
}

fn answer(e: &mut Engine, r: Request) -> Result<Value, String> {
    match r {
        Request::Put { files } => {
            for (p, t) in files {
                e.files.put(&p, t);
            }
            Ok(json!({}))
        }
        Request::Check { path } => Ok(check(e, &path)),
        Request::New {
            players,
            seed,
            seats,
        } => {
            let game = game(e)?;
            let kinds = session::kinds(&seats, players)?;
            e.session = Some(Session::new(game, players, seed, kinds)?);
            shown(e, None)
        }
        Request::Show { viewer } => shown(e, viewer),
        Request::Apply { index, viewer } => {
            session(e)?.apply(index)?;
            shown(e, viewer)
        }
        Request::Bot { viewer } => {
            session(e)?.bot()?;
            shown(e, viewer)
        }
        Request::Undo { viewer } => {
            session(e)?.undo()?;
            shown(e, viewer)
        }
        Request::Replay {
            players,
            seed,
            seats,
            labels,
            viewer,
        } => {
            let game = game(e)?;
            let kinds = session::kinds(&seats, players)?;
            let mut s = Session::new(game, players, seed, kinds)?;
            s.replay(&labels)?;
            e.session = Some(s);
            shown(e, viewer)
        }
        Request::Simulate {
            players,
            seed,
            seats,
            from,
            count,
            coverage,
        } => {
            let c = e.checked.as_ref().ok_or("no ruleset has been checked")?;
            if players < c.game.min_players || players > c.game.max_players {
                return Err(format!(
                    "{} takes {}..{} players, not {players}",
                    c.game.name, c.game.min_players, c.game.max_players
                ));
            }
            let mut kinds = seats
                .iter()
                .map(|s| SeatKind::parse(s))
                .collect::<Result<Vec<_>, _>>()?;
            kinds.resize(players, SeatKind::Random);
            if from == 0 || e.run.is_none() {
                e.run = Some(Run {
                    players,
                    kinds: kinds.clone(),
                    results: vec![],
                    coverage: None,
                });
            }
            let run = e.run.as_mut().ok_or("no run")?;
            for i in from..from + count {
                let s = seed
                    .checked_add(i)
                    .ok_or("the seeds pass the largest seed")?;
                let mut r = measure::play(&c.game, players, s, &kinds, coverage);
                if let Some(counted) = r.coverage.take() {
                    match &mut run.coverage {
                        Some(total) => total.add(&counted),
                        None => run.coverage = Some(*counted),
                    }
                }
                run.results.push(r);
            }
            Ok(json!({ "done": run.results.len() }))
        }
        Request::Summary => {
            let c = e.checked.as_ref().ok_or("no ruleset has been checked")?;
            let run = e.run.as_ref().ok_or("no games have been simulated")?;
            let s = measure::summary(
                &c.game,
                &c.sources,
                run.players,
                &run.kinds,
                &run.results,
                run.coverage.as_ref(),
            );
            serde_json::to_value(s).map_err(|e| e.to_string())
        }
    }
}

/// Checks the ruleset at `path` as `regel check --format json` does.
fn check(e: &mut Engine, path: &str) -> Value {
    let mut sources = Sources::default();
    let files = &e.files;
    let read = |p: &Path| files.read(p);
    let result = regel_core::pipeline::compile(
        &mut sources,
        &read,
        Path::new(path),
        &regel_core::opt::Passes::all(),
    );
    let (ok, diags, game) = match result {
        Ok((g, warnings)) => (true, warnings, Some(Arc::new(g))),
        Err(d) => (false, d, None),
    };
    let ds: Vec<_> = diags.iter().map(|d| diag::to_json(&sources, d)).collect();
    let info = game.as_ref().map(|g| {
        json!({
            "name": g.name,
            "variants": g.variants,
            "min_players": g.min_players,
            "max_players": g.max_players,
            "seats": g.seats,
            "summary": regel_core::check::summary(g),
        })
    });
    let out = json!({ "file": path, "ok": ok, "diagnostics": ds, "game": info });
    if let Some(game) = game {
        e.checked = Some(Checked { game, sources });
    }
    out
}

fn game(e: &Engine) -> Result<Arc<Game>, String> {
    e.checked
        .as_ref()
        .map(|c| c.game.clone())
        .ok_or_else(|| "no ruleset has been checked".into())
}

fn session(e: &mut Engine) -> Result<&mut Session, String> {
    e.session
        .as_mut()
        .ok_or_else(|| "no match has been started".into())
}

fn shown(e: &mut Engine, viewer: Option<usize>) -> Result<Value, String> {
    serde_json::to_value(session(e)?.shown(viewer)).map_err(|e| e.to_string())
}
