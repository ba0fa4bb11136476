//! `regel replay RECORD --against EDITED`: plays a record on its own ruleset
//! and on an edited one side by side, and shows the first step where they
//! part: the position before it as the deciding seat sees it on each side,
//! the recorded decision, and the options each ruleset offers.
//!
//! Two steps agree when the same seat decides, sees the same position and is
//! offered the same options; after the last step, the final scores must
//! agree too. The exit code follows `diff`: 0 when the edited rules play the
//! record identically, 1 when they part, 2 when the record or a ruleset is
//! unusable.

use super::replay::{read_record, start, Started};
use super::{Format, Io};
use crate::eval::Match;
use serde::Serialize;
use std::path::Path;

/// One side at the step where the rulesets part.
#[derive(Serialize)]
struct Side {
    ruleset: String,
    /// The seat to decide (none when the game is over).
    seat: Option<String>,
    /// The position as that seat sees it (the public view when the game is over).
    position: String,
    options: Vec<String>,
    /// The final scores, when the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    scores: Option<Vec<i64>>,
}

#[derive(Serialize)]
struct Out {
    record: String,
    diverged: bool,
    /// The 1-based step at which they part (`decisions + 1`: at the end).
    #[serde(skip_serializing_if = "Option::is_none")]
    step: Option<usize>,
    /// The recorded decision at that step (none at the end).
    #[serde(skip_serializing_if = "Option::is_none")]
    decision: Option<String>,
    /// What differs: `seat`, `position`, `options`, `end` or `scores`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    differs: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    base: Option<Side>,
    #[serde(skip_serializing_if = "Option::is_none")]
    edited: Option<Side>,
    decisions: usize,
}

fn side(m: &mut Match, ruleset: &Path) -> Side {
    let seat = m.pending().map(|p| p.0);
    let scores = if seat.is_none() {
        m.standings()
            .ok()
            .map(|st| st.iter().map(|s| s.score).collect())
    } else {
        None
    };
    Side {
        ruleset: ruleset.display().to_string(),
        seat: seat.map(|s| m.game.seats[s].clone()),
        position: m.view(seat).to_text(),
        options: m.option_labels(),
        scores,
    }
}

pub fn run(record: &Path, edited: &Path, format: Format, io: &mut Io) -> i32 {
    let Ok((rec, ruleset)) = read_record(record, io) else {
        return 2;
    };
    let open = |f: &Path, io: &mut Io| {
        start(
            f,
            rec.players,
            rec.seed,
            &rec.options,
            super::replay::Logs::Off,
            crate::eval::DEFAULT_BUDGET,
            io,
        )
        .map(|s: Started| s.m)
    };
    let (Ok(mut a), Ok(mut b)) = (open(&ruleset, io), open(edited, io)) else {
        return 2;
    };
    let mut out = Out {
        record: record.display().to_string(),
        diverged: false,
        step: None,
        decision: None,
        differs: vec![],
        base: None,
        edited: None,
        decisions: rec.decisions.len(),
    };
    for step in 1..=rec.decisions.len() + 1 {
        let (sa, sb) = (side(&mut a, &ruleset), side(&mut b, edited));
        let mut differs = vec![];
        if sa.seat != sb.seat {
            differs.push(if sa.seat.is_none() || sb.seat.is_none() {
                "end"
            } else {
                "seat"
            });
        }
        if sa.position != sb.position {
            differs.push("position");
        }
        if sa.options != sb.options {
            differs.push("options");
        }
        if sa.scores != sb.scores {
            differs.push("scores");
        }
        let label = rec.decisions.get(step - 1);
        if !differs.is_empty() {
            out = Out {
                diverged: true,
                step: Some(step),
                decision: label.cloned(),
                differs,
                base: Some(sa),
                edited: Some(sb),
                ..out
            };
            break;
        }
        let Some(label) = label else { break };
        // Both sides agree; the recorded label must be legal on both.
        let Some(i) = sa.options.iter().position(|l| l == label) else {
            let _ = writeln!(io.err, "error: step {step}: `{}` is not a legal option on either side; the record does not fit its own rules (`regel replay` says more)", crate::diag::echo(label));
            return 2;
        };
        if let Err(e) = a.apply(i).and_then(|_| b.apply(i)) {
            let _ = writeln!(io.err, "error: step {step}: run-time error: {}", e.message);
            return 2;
        }
    }
    match format {
        Format::Json => {
            let _ = writeln!(
                io.out,
                "{}",
                serde_json::to_string_pretty(&out).unwrap_or_default()
            );
        }
        Format::Text => print_text(&out, io),
    }
    out.diverged as i32
}

/// Options listed per side in text; the rest are counted.
const MAX_OPTIONS: usize = 30;

fn print_text(o: &Out, io: &mut Io) {
    let (Some(a), Some(b), Some(step)) = (&o.base, &o.edited, o.step) else {
        let _ = writeln!(io.out, "the edited rules play all {} decision(s) of {} exactly as the record's own rules do, to the same final scores", o.decisions, o.record);
        return;
    };
    let what = match o.decision.as_ref() {
        Some(d) => format!("before step {step}, the recorded decision `{d}`"),
        None => format!("at the end, after all {} decision(s)", o.decisions),
    };
    let _ = writeln!(
        io.out,
        "the rulesets part {what}: they differ in {}",
        o.differs.join(", ")
    );
    let who = |s: &Side| match &s.seat {
        Some(seat) => format!("{seat} to decide"),
        None => "game over".into(),
    };
    let w = 48;
    let _ = writeln!(io.out, "{:<w$}   {}", a.ruleset, b.ruleset);
    let mut left = vec![who(a), String::new()];
    let mut right = vec![who(b), String::new()];
    left.extend(a.position.lines().flat_map(|l| wrap(l, w)));
    right.extend(b.position.lines().flat_map(|l| wrap(l, w)));
    let pad = |l: &mut Vec<String>, r: &mut Vec<String>| {
        let n = l.len().max(r.len());
        l.resize(n, String::new());
        r.resize(n, String::new());
    };
    pad(&mut left, &mut right);
    left.push(String::new());
    right.push(String::new());
    if a.scores.is_some() || b.scores.is_some() {
        left.push(
            a.scores
                .as_ref()
                .map(|s| format!("final scores {s:?}"))
                .unwrap_or_default(),
        );
        right.push(
            b.scores
                .as_ref()
                .map(|s| format!("final scores {s:?}"))
                .unwrap_or_default(),
        );
    }
    left.push(format!("options ({}):", a.options.len()));
    right.push(format!("options ({}):", b.options.len()));
    let mark = |l: &[String], x: &String| if l.contains(x) { "  " } else { "+ " };
    // Long lists are cut (the JSON output has them whole).
    let list = |mine: &[String], other: &[String]| -> Vec<String> {
        let mut l: Vec<String> = mine
            .iter()
            .take(MAX_OPTIONS)
            .flat_map(|x| wrap(&format!("{}{x}", mark(other, x)), w))
            .collect();
        if mine.len() > MAX_OPTIONS {
            l.push(format!("… and {} more", mine.len() - MAX_OPTIONS));
        }
        l
    };
    left.extend(list(&a.options, &b.options));
    right.extend(list(&b.options, &a.options));
    pad(&mut left, &mut right);
    for (l, r) in left.iter().zip(&right) {
        let bar = if l != r { "|" } else { " " };
        let _ = writeln!(io.out, "{l:<w$} {bar} {r}");
    }
    let _ = writeln!(
        io.out,
        "(| marks lines that differ; + marks an option only that side offers)"
    );
}

/// A line broken at spaces into pieces of at most `w` characters (a longer
/// word is cut), so that the two columns stay side by side.
fn wrap(line: &str, w: usize) -> Vec<String> {
    let line = line.trim_end();
    if line.chars().count() <= w {
        return vec![line.to_string()];
    }
    let mut out = vec![];
    let mut cur = String::new();
    for word in line.split(' ') {
        let mut word = word.to_string();
        while word.chars().count() > w {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            out.push(word.chars().take(w).collect());
            word = word.chars().skip(w).collect();
        }
        if !cur.is_empty() && cur.chars().count() + 1 + word.chars().count() > w {
            out.push(std::mem::take(&mut cur).trim_end().to_string());
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(&word);
    }
    out.push(cur);
    out
}
