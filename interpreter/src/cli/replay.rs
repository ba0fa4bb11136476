//! `regel replay`: re-runs a game record against the current rules, reports
//! the first step where it no longer fits, and checks the final scores.
//!
//! Also home of the helpers that `play` and the debug views share: starting a
//! match from command-line settings, applying labelled decisions with an
//! error that names the step and the rule that asked, and printing standings.

use super::record::Record;
use super::{load_game, parse_options, Format, Io};
use crate::diag::{self, Diagnostic, Sources, Span};
use crate::eval::{Match, PendingKind, RunError, Setup, Standing};
use crate::ir::Game;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A checked game and a match of it, ready at its first decision.
pub(super) struct Started {
    pub game: Arc<Game>,
    pub sources: Sources,
    pub m: Match,
}

/// Loads and checks `file`, applies the `name=value` options and starts a
/// match. On failure the problem is printed and the exit code returned.
pub(super) fn start(
    file: &Path,
    players: usize,
    seed: u64,
    options: &[String],
    log: Logs,
    budget: u64,
    io: &mut Io,
) -> Result<Started, i32> {
    let Some((game, sources)) = load_game(file, io) else {
        return Err(1);
    };
    let opts = match parse_options(&game, options) {
        Ok(o) => o,
        Err(e) => {
            let _ = writeln!(io.err, "error: {e}");
            return Err(2);
        }
    };
    if players < game.min_players || players > game.max_players {
        let _ = writeln!(
            io.err,
            "error: {} takes {}..{} players, not {players}",
            game.name, game.min_players, game.max_players
        );
        return Err(2);
    }
    let setup = Setup {
        players,
        seed,
        options: opts,
        budget,
        log: log != Logs::Off,
    };
    let m = if log == Logs::Seats {
        Match::new_with_seat_logs(game.clone(), &setup)
    } else {
        Match::new(game.clone(), &setup)
    };
    match m {
        Ok(m) => Ok(Started { game, sources, m }),
        Err(e) => {
            let _ = write!(
                io.err,
                "{}",
                diag::render(&sources, &[e.to_diagnostic(0)], io.color, 100)
            );
            Err(1)
        }
    }
}

/// Which logs a started match keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Logs {
    Off,
    /// The engine's log, which sees everything.
    Engine,
    /// The engine's log and the log as each seat may read it.
    Seats,
}

/// The source span of the rule statement that asked the pending decision.
pub(super) fn pending_span(m: &Match) -> Option<Span> {
    let p = m.state.pending.as_ref()?;
    let (block, pc) = match p.kind {
        PendingKind::Choose { block, pc, .. } => (block, pc),
        PendingKind::Act { block, pc } => (block, pc),
    };
    m.game
        .code
        .get(block as usize)?
        .get(pc as usize)
        .map(|s| s.span)
}

/// `span` without the whitespace at its end (a statement's span may reach
/// into the next line).
pub(super) fn trim_span(sources: &Sources, span: Span) -> Span {
    let Some(f) = sources.files.get(span.file as usize) else {
        return span;
    };
    let (start, end) = (span.start as usize, (span.end as usize).min(f.text.len()));
    match f.text.get(start..end) {
        Some(t) => Span::new(
            span.file,
            start,
            start + t.trim_end().len().max(1).min(end - start),
        ),
        None => span,
    }
}

/// `file:line:col` of a span.
pub(super) fn location(sources: &Sources, span: Span) -> String {
    let (l, c) = sources.line_col(span.file, span.start);
    format!("{}:{l}:{c}", sources.get(span.file).name)
}

/// Why a list of labelled decisions could not be applied.
pub(super) enum StepError {
    /// Step `step` (1-based) names a label that is not a legal option.
    Illegal {
        step: usize,
        diag: Box<Diagnostic>,
        message: String,
    },
    /// The game ended before step `step`.
    Over { step: usize, message: String },
    /// The rules failed at run time while applying step `step`.
    Run {
        step: usize,
        diag: Box<Diagnostic>,
        message: String,
    },
}

impl StepError {
    pub fn message(&self) -> &str {
        match self {
            StepError::Illegal { message, .. }
            | StepError::Over { message, .. }
            | StepError::Run { message, .. } => message,
        }
    }
    pub fn step(&self) -> usize {
        match self {
            StepError::Illegal { step, .. }
            | StepError::Over { step, .. }
            | StepError::Run { step, .. } => *step,
        }
    }
    /// Prints the problem (as a diagnostic with the rule's span when there is one).
    pub fn print(&self, sources: &Sources, io: &mut Io) {
        match self {
            StepError::Illegal { diag, .. } | StepError::Run { diag, .. } => {
                let _ = write!(
                    io.err,
                    "{}",
                    diag::render(sources, std::slice::from_ref(&**diag), io.color, 100)
                );
            }
            StepError::Over { message, .. } => {
                let _ = writeln!(io.err, "error: {message}");
            }
        }
    }
}

/// Applies `labels` in order (step numbers start at `first_step`).
pub(super) fn apply_labels(
    m: &mut Match,
    sources: &Sources,
    labels: &[String],
    first_step: usize,
) -> Result<(), StepError> {
    for (k, label) in labels.iter().enumerate() {
        let step = first_step + k;
        // What messages echo of the label: a recorded label can be huge.
        let shown = crate::diag::echo(label);
        let Some((seat, _)) = m.pending() else {
            return Err(StepError::Over {
                step,
                message: format!("step {step}: the game is already over, but {} more decision(s) follow, starting with `{shown}`", labels.len() - k),
            });
        };
        let seat_name = m.game.seats[seat].clone();
        let options = m.option_labels();
        let Some(i) = options.iter().position(|l| l == label) else {
            let span = pending_span(m).map(|s| trim_span(sources, s));
            let why = crate::eval::why_illegal(m, label, sources);
            let mut message =
                format!("step {step}: `{shown}` is not a legal option for {seat_name}");
            if let Some(s) = span {
                message.push_str(&format!(" (asked by the rule at {})", location(sources, s)));
            }
            if let Some(w) = &why {
                message.push_str(&format!("; why: {}", w.message));
            }
            message.push_str(&format!(
                "; the legal options are: {}",
                quote_some(&options, 40)
            ));
            let mut d = Diagnostic::error(
                "E0902",
                format!("step {step}: `{shown}` is not a legal option for {seat_name}"),
            );
            if let Some(s) = span {
                d = d.at(s, format!("this rule asked {seat_name} to decide"));
            }
            let mut help = format!(
                "the legal options at step {step} are: {}",
                quote_some(&options, 24)
            );
            match why {
                Some(crate::eval::Why {
                    message,
                    span: Some(s),
                }) => d = d.at(trim_span(sources, s), format!("why: {message}")),
                Some(w) => help = format!("why: {}; {help}", w.message),
                None => {}
            }
            d = d.help(help);
            return Err(StepError::Illegal {
                step,
                diag: Box::new(d),
                message,
            });
        };
        if let Err(e) = m.apply(i) {
            let message = format!("step {step} (`{shown}`): run-time error: {}", e.message);
            let d = run_diag(&e, m.state.decisions);
            return Err(StepError::Run {
                step,
                diag: Box::new(d),
                message,
            });
        }
    }
    Ok(())
}

pub(super) fn run_diag(e: &RunError, decisions: u32) -> Diagnostic {
    e.to_diagnostic(decisions)
}

/// At most `max` labels, quoted, and how many more there are.
pub(super) fn quote_some(labels: &[String], max: usize) -> String {
    let mut s = labels
        .iter()
        .take(max)
        .map(|l| format!("`{l}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if labels.len() > max {
        s.push_str(&format!(
            " … and {} more (`regel moves` lists them all)",
            labels.len() - max
        ));
    }
    s
}

/// The standings as a small table.
pub(super) fn standings_text(st: &[Standing]) -> String {
    let mut order: Vec<&Standing> = st.iter().collect();
    order.sort_by_key(|s| s.rank);
    let w = st
        .iter()
        .map(|s| s.seat.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut s = format!("{:<4}  {:<w$}  {:>7}\n", "rank", "seat", "score");
    for x in order {
        s.push_str(&format!(
            "{:<4}  {:<w$}  {:>7}{}\n",
            x.rank,
            x.seat,
            x.score,
            if x.winner { "  winner" } else { "" }
        ));
    }
    s
}

/// Where the ruleset of a record is: a relative path is read from the
/// record's folder (how records are written), else from the current folder
/// (how records were written before).
fn resolve_ruleset(stored: &str, record: &Path) -> PathBuf {
    let p = PathBuf::from(stored);
    if p.is_relative() {
        if let Some(dir) = record.parent() {
            let alt = dir.join(&p);
            if alt.exists() {
                return alt;
            }
        }
    }
    p
}

#[derive(Serialize)]
struct JsonOut {
    ok: bool,
    record: String,
    ruleset: String,
    decisions: usize,
    standings: Vec<Standing>,
    #[serde(skip_serializing_if = "Option::is_none")]
    recorded_scores: Option<Vec<i64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    step: Option<usize>,
}

pub fn run(path: &Path, format: Format, io: &mut Io) -> i32 {
    let mut out = JsonOut {
        ok: false,
        record: path.display().to_string(),
        ruleset: String::new(),
        decisions: 0,
        standings: vec![],
        recorded_scores: None,
        error: None,
        step: None,
    };
    let code = replay(path, format, io, &mut out);
    if format == Format::Json {
        out.ok = code == 0;
        let _ = writeln!(
            io.out,
            "{}",
            serde_json::to_string_pretty(&out).unwrap_or_default()
        );
    }
    code
}

/// Reads a game record and finds its ruleset; a problem is printed and returned.
///
/// The run's root is pinned here, before the record is read, to the project
/// the user works in or else the record's own ([`super::files::record_root`]):
/// the ruleset a record names is read only if it lies under that root, so a
/// record naming `/etc/passwd` is refused with E0001 and nothing of it echoed.
pub(super) fn read_record(path: &Path, io: &mut Io) -> Result<(Record, PathBuf), String> {
    io.root = Some(super::files::record_root(path, io.root.as_deref()));
    let text = match super::read_file(path) {
        Ok(t) => t,
        Err(e) => {
            let msg = format!("cannot read the record `{}`: {e}", path.display());
            let _ = writeln!(io.err, "error: {msg}");
            return Err(msg);
        }
    };
    let mut rec_sources = Sources::default();
    match Record::from_toml(&mut rec_sources, &path.display().to_string(), &text) {
        Ok(r) => {
            let ruleset = resolve_ruleset(&r.ruleset, path);
            Ok((r, ruleset))
        }
        Err(d) => {
            let _ = write!(
                io.err,
                "{}",
                diag::render(&rec_sources, std::slice::from_ref(&d), io.color, 100)
            );
            Err(d.message.clone())
        }
    }
}

fn replay(path: &Path, format: Format, io: &mut Io, out: &mut JsonOut) -> i32 {
    let (rec, ruleset) = match read_record(path, io) {
        Ok(r) => r,
        Err(msg) => {
            out.error = Some(msg);
            return 1;
        }
    };
    out.ruleset = ruleset.display().to_string();
    out.recorded_scores = rec.scores.clone();
    let Started {
        game,
        sources,
        mut m,
    } = match start(
        &ruleset,
        rec.players,
        rec.seed,
        &rec.options,
        Logs::Off,
        crate::eval::DEFAULT_BUDGET,
        io,
    ) {
        Ok(s) => s,
        Err(code) => {
            out.error = Some(format!(
                "cannot start a match of `{}` from the record",
                ruleset.display()
            ));
            return code.max(1);
        }
    };
    if game.name != rec.game || game.variants != rec.variants {
        let _ = writeln!(
            io.err,
            "warning: the record is of `{}`{}, but `{}` is `{}`{}",
            rec.game,
            variants_text(&rec.variants),
            ruleset.display(),
            game.name,
            variants_text(&game.variants)
        );
    }
    if let Err(e) = apply_labels(&mut m, &sources, &rec.decisions, 1) {
        e.print(&sources, io);
        out.decisions = e.step() - 1;
        out.step = Some(e.step());
        out.error = Some(e.message().to_string());
        return 1;
    }
    out.decisions = rec.decisions.len();
    if let Some((seat, _)) = m.pending() {
        let msg = format!(
            "the record ends after {} decision(s), but the game goes on: {} is to decide among {}",
            rec.decisions.len(),
            game.seats[seat],
            quote_some(&m.option_labels(), 24)
        );
        let _ = writeln!(io.err, "error: {msg}");
        out.error = Some(msg);
        out.step = Some(rec.decisions.len() + 1);
        return 1;
    }
    let st = match m.standings() {
        Ok(s) => s,
        Err(e) => {
            let _ = write!(
                io.err,
                "{}",
                diag::render(
                    &sources,
                    &[e.to_diagnostic(m.state.decisions)],
                    io.color,
                    100
                )
            );
            out.error = Some(format!(
                "the final scores cannot be computed: {}",
                e.message
            ));
            return 1;
        }
    };
    let scores: Vec<i64> = st.iter().map(|s| s.score).collect();
    out.standings = st.clone();
    if format == Format::Text {
        let _ = writeln!(
            io.out,
            "{}{} — {} players, seed {}: replayed {} decision(s)",
            game.name,
            variants_text(&game.variants),
            rec.players,
            rec.seed,
            rec.decisions.len()
        );
        let _ = writeln!(io.out, "\nfinal position:\n{}", m.view(None).to_text());
        let _ = write!(io.out, "{}", standings_text(&st));
    }
    match &rec.scores {
        Some(r) if *r != scores => {
            let msg = format!(
                "the final scores differ from the record: recorded {r:?}, replayed {scores:?}"
            );
            let _ = writeln!(io.err, "error: {msg}");
            out.error = Some(msg);
            1
        }
        Some(_) => {
            if format == Format::Text {
                let _ = writeln!(io.out, "the scores match the record");
            }
            0
        }
        None => 0,
    }
}

fn variants_text(v: &[String]) -> String {
    if v.is_empty() {
        String::new()
    } else {
        format!(" ({})", v.join(" <- "))
    }
}
