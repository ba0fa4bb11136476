//! `regel._regel`: the Rust side of the Python package. A game API in the
//! style of OpenSpiel (a `Game` loaded once, `State`s made from seeds, the
//! pending decision's options as action ids with labels) over
//! `regel::eval::Match`, and the command line run in-process (`run`), which
//! gives `simulate --shard` and `merge` exactly as the `regel` binary has
//! them. The Python wrapper (`python/regel/`) adds the keyword arguments and
//! the Dask fan-out.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use regel::cli::{self, Io};
use regel::eval::{Match, RunError, Setup};
use regel::ir::Game as IrGame;
use std::path::PathBuf;
use std::sync::Arc;

/// OpenSpiel's id for "nobody moves: the game is over".
const TERMINAL: i64 = -4;

fn run_error(e: RunError) -> PyErr {
    PyRuntimeError::new_err(e.message)
}

/// A checked ruleset for a number of players, with its options set.
#[pyclass(frozen, module = "regel")]
struct Game {
    game: Arc<IrGame>,
    players: usize,
    options: Vec<(String, i64)>,
    budget: u64,
}

#[pymethods]
impl Game {
    /// Loads and checks `path` (a ruleset or a variant) for `players` seats;
    /// `options` are `name=value` settings as `--option` takes them, `root`
    /// the folder it may read files from (as `--root`). A ruleset with
    /// errors raises `ValueError` with the rendered diagnostics.
    #[new]
    #[pyo3(signature = (path, players, options = vec![], root = None, step_budget = None))]
    fn new(
        py: Python<'_>,
        path: PathBuf,
        players: usize,
        options: Vec<String>,
        root: Option<PathBuf>,
        step_budget: Option<u64>,
    ) -> PyResult<Game> {
        let (loaded, _, err) = captured(py, root, |io| cli::load_game(&path, io));
        let Some((game, _)) = loaded else {
            return Err(PyValueError::new_err(err));
        };
        let options = cli::parse_options(&game, &options).map_err(PyValueError::new_err)?;
        if players < game.min_players || players > game.max_players {
            return Err(PyValueError::new_err(format!(
                "{} takes {}..{} players, not {players}",
                game.name, game.min_players, game.max_players
            )));
        }
        Ok(Game {
            game,
            players,
            options,
            budget: step_budget.unwrap_or(regel::eval::DEFAULT_BUDGET),
        })
    }

    /// The game's name, as the rules declare it.
    #[getter]
    fn name(&self) -> String {
        self.game.name.clone()
    }

    /// The fewest and most players the ruleset takes.
    #[getter]
    fn min_players(&self) -> usize {
        self.game.min_players
    }

    #[getter]
    fn max_players(&self) -> usize {
        self.game.max_players
    }

    fn num_players(&self) -> usize {
        self.players
    }

    /// The seats' names, in order (seat ids are their positions).
    fn seats(&self) -> Vec<String> {
        self.game.seats[..self.players].to_vec()
    }

    /// A new match from `seed`: the rules' own randomness (shuffles, dice)
    /// comes from this seed alone, as in `regel simulate`, `trace` and `play`.
    #[pyo3(signature = (seed = 0))]
    fn new_initial_state(&self, seed: u64) -> PyResult<State> {
        let setup = Setup {
            players: self.players,
            seed,
            options: self.options.clone(),
            budget: self.budget,
            log: false,
        };
        let m = Match::new(self.game.clone(), &setup).map_err(run_error)?;
        Ok(State { m })
    }

    /// `new_initial_state` under the name the API gives it.
    #[pyo3(signature = (seed = 0))]
    fn new_match(&self, seed: u64) -> PyResult<State> {
        self.new_initial_state(seed)
    }
}

/// A match in progress: plain data, cloned cheaply enough for search.
#[pyclass(module = "regel")]
#[derive(Clone)]
struct State {
    m: Match,
}

#[pymethods]
impl State {
    /// The seat to decide, or -4 (OpenSpiel's terminal id) when none is:
    /// the game is over, or stopped with a run-time error.
    fn current_player(&self) -> i64 {
        match self.m.pending() {
            Some((seat, _)) => seat as i64,
            None => TERMINAL,
        }
    }

    /// The pending decision's options as action ids `0..n` (empty when over).
    fn legal_actions(&self) -> Vec<usize> {
        (0..self.m.pending().map_or(0, |(_, n)| n)).collect()
    }

    /// The labels of the legal actions, in the order of their ids: what
    /// records, `regel play` and `trace` write.
    fn legal_labels(&self) -> Vec<String> {
        self.m.option_labels()
    }

    /// The label of action `action` as the deciding seat sees it.
    fn action_to_string(&self, action: usize) -> PyResult<String> {
        match self.m.pending() {
            Some((_, n)) if action < n => Ok(self.m.option_label(action)),
            _ => Err(PyValueError::new_err(format!(
                "{action} is not a legal action now"
            ))),
        }
    }

    /// Takes action `action` and runs the rules to the next decision.
    fn apply_action(&mut self, action: usize) -> PyResult<()> {
        self.m.apply(action).map_err(run_error)
    }

    /// Takes the option labelled `label`.
    fn apply_label(&mut self, label: &str) -> PyResult<()> {
        self.m.apply_label(label).map_err(run_error)
    }

    /// Takes an option given by its id or its label.
    fn apply(&mut self, option: &Bound<'_, PyAny>) -> PyResult<()> {
        match option.extract::<usize>() {
            Ok(i) => self.apply_action(i),
            Err(_) => self.apply_label(&option.extract::<String>()?),
        }
    }

    /// The legal options' labels (`legal_labels`), by the name.
    fn legal_options(&self) -> Vec<String> {
        self.m.option_labels()
    }

    fn is_terminal(&self) -> bool {
        self.m.pending().is_none()
    }

    /// Whether the rules ended the game (not a run-time error).
    fn is_over(&self) -> bool {
        self.m.is_over()
    }

    /// The final scores per seat (zeros while the game runs).
    fn returns(&mut self) -> PyResult<Vec<i64>> {
        if !self.m.is_over() {
            return Ok(vec![0; self.m.state.nplayers as usize]);
        }
        Ok(self
            .m
            .standings()
            .map_err(run_error)?
            .iter()
            .map(|s| s.score)
            .collect())
    }

    /// The seats that won (several on a shared win), once the game is over.
    fn winners(&mut self) -> PyResult<Vec<usize>> {
        if !self.m.is_over() {
            return Ok(vec![]);
        }
        Ok(self
            .m
            .standings()
            .map_err(run_error)?
            .iter()
            .enumerate()
            .filter(|(_, s)| s.winner)
            .map(|(i, _)| i)
            .collect())
    }

    /// The decisions taken so far.
    fn decisions(&self) -> u32 {
        self.m.state.decisions
    }

    /// What seat `seat` sees (None: an onlooker, who sees only what is
    /// public), as the text `regel play` and `trace` print.
    #[pyo3(signature = (seat = None))]
    fn observation_string(&self, seat: Option<usize>) -> PyResult<String> {
        if seat.is_some_and(|s| s >= self.m.state.nplayers as usize) {
            return Err(PyValueError::new_err("no such seat"));
        }
        Ok(self.m.view(seat).to_text())
    }

    /// `observation_string`, by the name.
    #[pyo3(signature = (seat = None))]
    fn view(&self, seat: Option<usize>) -> PyResult<String> {
        self.observation_string(seat)
    }

    /// The declared invariants that do not hold now, by their texts.
    fn broken_invariants(&mut self) -> PyResult<Vec<String>> {
        self.m.broken_invariants().map_err(run_error)
    }

    fn clone(&self) -> State {
        Clone::clone(self)
    }

    fn __repr__(&self) -> String {
        self.m.view(None).to_text()
    }
}

/// Runs `f` with in-memory output, the GIL released meanwhile; returns what
/// it returned (an exit code, a loaded game), its stdout and its stderr.
fn captured<T: Send>(
    py: Python<'_>,
    root: Option<PathBuf>,
    f: impl FnOnce(&mut Io) -> T + Send,
) -> (T, String, String) {
    py.allow_threads(|| {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let mut input = std::io::empty();
        let done = f(&mut Io {
            out: &mut out,
            err: &mut err,
            input: &mut input,
            color: false,
            root,
            term: false,
        });
        (
            done,
            String::from_utf8_lossy(&out).into_owned(),
            String::from_utf8_lossy(&err).into_owned(),
        )
    })
}

/// Runs a `regel` command line in-process (`args` without the program
/// name); returns (exit code, stdout, stderr).
#[pyfunction]
#[pyo3(signature = (args, root = None))]
fn run(py: Python<'_>, args: Vec<String>, root: Option<PathBuf>) -> (i32, String, String) {
    let mut argv = vec!["regel".to_string()];
    argv.extend(args);
    captured(py, root, |io| cli::run(&argv, io))
}

/// Merges partial results given as (name, text) pairs rather than files;
/// returns (exit code, stdout, stderr) as `regel merge` would.
#[pyfunction]
#[pyo3(signature = (parts, format = "text", root = None))]
fn merge_texts(
    py: Python<'_>,
    parts: Vec<(String, String)>,
    format: &str,
    root: Option<PathBuf>,
) -> PyResult<(i32, String, String)> {
    let format = match format {
        "text" => cli::Format::Text,
        "json" => cli::Format::Json,
        f => {
            return Err(PyValueError::new_err(format!(
                "format is text or json, not {f}"
            )))
        }
    };
    Ok(captured(py, root, |io| {
        cli::shard::merge_texts(&parts, format, io)
    }))
}

#[pymodule]
fn _regel(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(merge_texts, m)?)?;
    m.add("TERMINAL", TERMINAL)?;
    Ok(())
}
