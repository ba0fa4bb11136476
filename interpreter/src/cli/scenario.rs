//! `regel test`: scenario files.
//!
//! A scenario is a TOML file. Its `given` code — statements in the rules
//! language — replaces the ruleset's `play` block through a generated variant,
//! so it runs after the ruleset's `setup` and sets up a position by hand
//! (moving pieces, setting variables) and then runs whatever it wants to test:
//! a phase, a procedure, an `act`. Then the scenario's `decisions` are taken
//! by label, and its expectations are checked: values of expressions, the
//! legal options, who decides, whether the game is over, or the run-time
//! error raised. Expectations are expressions compiled against the game, so a
//! scenario can ask anything the rules can.

use super::{parse_options, read_file, Format, Io};
use crate::diag::{self, Diagnostic, Sources, Span};
use crate::eval::{Match, Setup};
use crate::ir::Scalar;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The rule id(s) this scenario checks, e.g. "AHUP-6.4".
    pub rule: String,
    #[serde(default)]
    pub about: String,
    /// The ruleset, relative to the scenario file.
    pub ruleset: String,
    pub players: usize,
    #[serde(default)]
    pub seed: u64,
    #[serde(default)]
    pub options: Vec<String>,
    /// Extra declarations for this scenario (helper procedures, functions).
    #[serde(default)]
    pub rules: String,
    /// Statements that replace `play`.
    pub given: String,
    #[serde(default)]
    pub decisions: Vec<String>,
    /// The results of the next `random(…)` calls, in order (from `setup` on).
    #[serde(default)]
    pub rolls: Vec<i64>,
    #[serde(default)]
    pub expect: Expect,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// Expression → expected value (a number, true/false, or the value as text).
    #[serde(default)]
    pub values: indexmap::IndexMap<String, toml::Value>,
    /// Expressions that must be true.
    #[serde(default)]
    pub holds: Vec<String>,
    /// Exactly these options are legal now (in any order).
    pub options: Option<Vec<String>>,
    #[serde(default)]
    pub options_include: Vec<String>,
    #[serde(default)]
    pub options_exclude: Vec<String>,
    /// The number of legal options now.
    pub option_count: Option<usize>,
    /// The seat that must decide now, or "none".
    pub pending: Option<String>,
    pub over: Option<bool>,
    /// The run must stop with a run-time error containing this text.
    pub error: Option<String>,
    /// The seats that share first place in the standings (score, then tiebreaks, teams).
    pub winners: Option<Vec<String>>,
    /// Check the ruleset's invariants at the end (default true). A scenario
    /// that builds an artificial position may turn this off, saying why.
    pub invariants: Option<bool>,
}

/// The outcome of one scenario.
#[derive(Serialize, Debug)]
pub struct Outcome {
    pub file: String,
    pub rule: String,
    pub passed: bool,
    pub failures: Vec<String>,
}

pub fn run(files: &[PathBuf], format: Format, io: &mut Io) -> i32 {
    let mut outcomes = vec![];
    for f in files {
        let o = run_one(f, io);
        if format == Format::Text {
            if o.passed {
                let _ = writeln!(io.out, "ok     {} ({})", o.file, o.rule);
            } else {
                let _ = writeln!(io.out, "FAILED {} ({})", o.file, o.rule);
                for line in &o.failures {
                    let _ = writeln!(io.out, "       {line}");
                }
            }
        }
        outcomes.push(o);
    }
    let failed = outcomes.iter().filter(|o| !o.passed).count();
    match format {
        Format::Json => {
            let _ = writeln!(
                io.out,
                "{}",
                serde_json::to_string_pretty(&outcomes).unwrap_or_default()
            );
        }
        Format::Text => {
            let _ = writeln!(
                io.out,
                "{} passed, {} failed",
                outcomes.len() - failed,
                failed
            );
        }
    }
    if failed > 0 {
        1
    } else {
        0
    }
}

fn fail(file: &Path, rule: &str, msg: impl Into<String>) -> Outcome {
    Outcome {
        file: file.display().to_string(),
        rule: rule.to_string(),
        passed: false,
        failures: vec![msg.into()],
    }
}

/// Runs one scenario file. Diagnostics (a broken scenario or ruleset) are
/// written to `io.err`; the outcome says what failed.
pub fn run_one(path: &Path, io: &mut Io) -> Outcome {
    let mut sources = Sources::default();
    let text = match read_file(path) {
        Ok(t) => t,
        Err(e) => return fail(path, "?", format!("cannot read {}: {e}", path.display())),
    };
    let file = sources.add(path.display().to_string(), text.clone());
    let sc: Scenario = match toml::from_str(&text) {
        Ok(s) => s,
        Err(e) => {
            let span = e
                .span()
                .map(|r| Span::new(file, r.start, r.end))
                .unwrap_or(Span::new(file, 0, 0));
            let d = Diagnostic::error("E0801", format!("this scenario file is not valid: {}", e.message())).at(span, "here").help(
                "a scenario has `rule`, `ruleset`, `players`, `given`, and optionally `about`, `seed`, `options`, `rules`, `rolls`, `decisions` and an `[expect]` table",
            );
            let _ = write!(io.err, "{}", diag::render(&sources, &[d], io.color, 100));
            return fail(
                path,
                "?",
                "the scenario file is not valid TOML for a scenario",
            );
        }
    };
    // The ruleset's path is written into the generated variant's `extends
    // "…"`, a string of the rules language with no escapes: a quote, a brace
    // (a template hole) or a line break would change what the variant says.
    if sc
        .ruleset
        .chars()
        .any(|c| matches!(c, '"' | '{' | '}') || c.is_control())
    {
        return fail(
            path,
            &sc.rule,
            "the scenario's `ruleset` may not contain a quote, a brace or a control character (a line break, a tab); name the ruleset file by a plain path",
        );
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    // The generated variant lives beside the scenario, so `extends` resolves
    // the ruleset path just as the scenario states it.
    let virtual_path = dir.join(format!(
        "{}.scenario.rules",
        path.file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("scenario")
    ));
    let variant = format!(
        "variant \"scenario {}\" extends \"{}\"\n{}\noverride play {{\n{}\n}}\n",
        path.display(),
        sc.ruleset,
        sc.rules,
        sc.given
    );
    let vp = virtual_path.clone();
    let files = super::files::confined(super::files::root_for(path, io.root.as_deref()));
    let reader = move |p: &Path| -> std::io::Result<String> {
        if p == vp {
            Ok(variant.clone())
        } else {
            files(p)
        }
    };
    let game = match crate::pipeline::compile(
        &mut sources,
        &reader,
        &virtual_path,
        &crate::opt::Passes::all(),
    ) {
        Ok((g, _)) => Arc::new(g),
        Err(d) => {
            let _ = write!(io.err, "{}", diag::render(&sources, &d, io.color, 100));
            return fail(
                path,
                &sc.rule,
                "the scenario's rules do not check (see the diagnostics above)",
            );
        }
    };
    // Expectations are compiled against the game the match will run: with a
    // board per range of player counts, the one for this scenario's count.
    let game = game.for_players(sc.players);
    let options = match parse_options(&game, &sc.options) {
        Ok(o) => o,
        Err(e) => return fail(path, &sc.rule, e),
    };
    // Compile every expectation before running, so a typo fails clearly.
    let exprs: Vec<(String, Option<toml::Value>)> = sc
        .expect
        .values
        .iter()
        .map(|(k, v)| (k.clone(), Some(v.clone())))
        .chain(sc.expect.holds.iter().map(|h| (h.clone(), None)))
        .collect();
    let files: Vec<u32> = exprs
        .iter()
        .map(|(src, _)| sources.add(format!("{} (expectation)", path.display()), src.clone()))
        .collect();
    // One checker for all of them: the game is copied once.
    let compiled: Vec<Compiled> = match crate::pipeline::compile_exprs(&game, &sources, &files) {
        Ok((_, v)) => exprs
            .iter()
            .zip(v)
            .map(|((src, want), (e, ty, n))| (src.clone(), want.clone(), e, ty, n))
            .collect(),
        Err((i, d)) => {
            let _ = write!(io.err, "{}", diag::render(&sources, &d, io.color, 100));
            return fail(
                path,
                &sc.rule,
                format!("the expectation `{}` does not check", exprs[i].0),
            );
        }
    };
    let setup = Setup {
        players: sc.players,
        seed: sc.seed,
        options,
        budget: crate::eval::DEFAULT_BUDGET,
        log: true,
    };
    let mut failures = vec![];
    let mut run_error = None;
    // A run-time error says where the rules were: file:line:col.
    let at = |e: &crate::eval::RunError| {
        e.span
            .map(|s| format!(" (at {})", super::replay::location(&sources, s)))
            .unwrap_or_default()
    };
    let mut m = match Match::scripted(game.clone(), &setup, sc.rolls.clone()) {
        Ok(m) => Some(m),
        Err(e) => {
            run_error = Some(format!(
                "before the first decision: {}{}",
                e.message,
                at(&e)
            ));
            None
        }
    };
    if let Some(m) = m.as_mut() {
        for (k, label) in sc.decisions.iter().enumerate() {
            if let Err(e) = m.apply_label(label) {
                let taken = if k == 0 {
                    String::new()
                } else {
                    format!(
                        ", after {}",
                        sc.decisions[..k]
                            .iter()
                            .map(|d| format!("`{}`", diag::echo(d)))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                };
                run_error = Some(format!(
                    "decision {} `{}`{taken}: {}{}{}",
                    k + 1,
                    diag::echo(label),
                    e.message,
                    e.help
                        .clone()
                        .map(|h| format!(" ({h})"))
                        .unwrap_or_default(),
                    at(&e)
                ));
                break;
            }
        }
    }
    match (&sc.expect.error, &run_error) {
        (Some(want), Some(got)) if got.contains(want.as_str()) => {}
        (Some(want), Some(got)) => {
            failures.push(format!("expected the error `{want}`, got `{got}`"))
        }
        (Some(want), None) => failures.push(format!(
            "expected the error `{want}`, but the run succeeded"
        )),
        (None, Some(got)) => failures.push(format!("run-time error: {got}")),
        (None, None) => {}
    }
    if let (Some(m), None) = (m.as_mut(), &run_error) {
        check_position(m, &sc.expect, &compiled, &mut failures);
    }
    Outcome {
        file: path.display().to_string(),
        rule: sc.rule.clone(),
        passed: failures.is_empty(),
        failures,
    }
}

type Compiled = (
    String,
    Option<toml::Value>,
    crate::ir::Expr,
    crate::ir::Ty,
    u16,
);

fn check_position(m: &mut Match, ex: &Expect, compiled: &[Compiled], failures: &mut Vec<String>) {
    for (src, want, e, ty, n) in compiled {
        let v = match m.evaluate(e, *n) {
            Ok(v) => v,
            Err(err) => {
                failures.push(format!("`{src}`: run-time error: {}", err.message));
                continue;
            }
        };
        match want {
            None => {
                if v == 0 {
                    failures.push(format!("expected `{src}` to hold, but it does not"));
                }
            }
            Some(want) => {
                let shown = m.display(*ty, v);
                let ok = match (want, ty.scalar) {
                    (toml::Value::Integer(i), Scalar::Int) => *i == v,
                    (toml::Value::Boolean(b), Scalar::Bool) => (*b as i64) == v,
                    (toml::Value::String(s), _) => *s == shown,
                    (w, _) => w.to_string() == shown,
                };
                if !ok {
                    failures.push(format!("`{src}`: expected {want}, actual {shown}"));
                }
            }
        }
    }
    let labels = m.option_labels();
    let pending = m
        .pending()
        .map(|(p, _)| m.game.seats[p].clone())
        .unwrap_or_else(|| "none".into());
    if let Some(want) = &ex.pending {
        if *want != pending {
            failures.push(format!("expected `{want}` to decide, actual `{pending}`"));
        }
    }
    if let Some(want) = &ex.options {
        let mut a = want.clone();
        a.sort();
        let mut b = if m.pending().is_some() {
            labels.clone()
        } else {
            vec![]
        };
        b.sort();
        if a != b {
            let missing: Vec<&String> = a.iter().filter(|x| !b.contains(x)).collect();
            let extra: Vec<&String> = b.iter().filter(|x| !a.contains(x)).collect();
            failures.push(format!(
                "options differ: missing {missing:?}, unexpected {extra:?}"
            ));
        }
    }
    for o in &ex.options_include {
        if !labels.contains(o) {
            failures.push(format!(
                "expected the option `{o}`; the options are {labels:?}"
            ));
        }
    }
    for o in &ex.options_exclude {
        if labels.contains(o) {
            failures.push(format!("the option `{o}` should not be offered"));
        }
    }
    if let Some(n) = ex.option_count {
        let have = if m.pending().is_some() {
            labels.len()
        } else {
            0
        };
        if n != have {
            failures.push(format!("expected {n} options, actual {have}"));
        }
    }
    if let Some(want) = ex.over {
        if want != m.is_over() {
            failures.push(format!(
                "expected the game {}to be over",
                if want { "" } else { "not " }
            ));
        }
    }
    if let Some(want) = &ex.winners {
        match m.standings() {
            Ok(st) => {
                let mut got: Vec<String> = st
                    .iter()
                    .filter(|s| s.winner)
                    .map(|s| s.seat.clone())
                    .collect();
                let mut want = want.clone();
                got.sort();
                want.sort();
                if got != want {
                    failures.push(format!("expected the winners {want:?}, actual {got:?}"));
                }
            }
            Err(e) => failures.push(format!("standings failed: {}", e.message)),
        }
    }
    // Invariants are promised only where the rules are at rest
    // (`Match::at_rest`): a scenario that stops in the middle of an action
    // does not check them.
    if ex.invariants.unwrap_or(true) && m.at_rest() {
        match m.broken_invariants() {
            Ok(b) => failures.extend(b.into_iter().map(|i| format!("invariant broken: {i}"))),
            Err(e) => failures.push(format!("invariant check failed: {}", e.message)),
        }
    }
}
