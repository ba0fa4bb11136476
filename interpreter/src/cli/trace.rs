//! `regel trace`: the full, omniscient log of one game, either a seeded game
//! between random bots (the bots' generator seeded as in `simulate`) or a
//! recorded game (`--record FILE`, read as `replay` reads it), as text or
//! as JSON lines (`--format json`, one object per line; the shape is in the
//! README, "Debug views").

use super::replay::{
    apply_labels, pending_span, read_record, run_diag, standings_text, start, Logs, Started,
};
use super::simulate::bot_seed;
use super::{Format, Io};
use crate::diag::{self, Diagnostic, Sources};
use crate::eval::{Match, Viewer};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;

/// What to trace: `regel trace`'s arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The ruleset (not with `--record`: the record names it).
    #[arg(required_unless_present = "record")]
    pub file: Option<PathBuf>,
    #[arg(long, required_unless_present = "record")]
    pub players: Option<usize>,
    #[arg(long, default_value_t = 0, value_parser = super::seed_parser())]
    pub seed: u64,
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Trace the game of this record (as `regel replay` reads it: its ruleset, players, seed, options and decisions).
    #[arg(long, value_name = "RECORD", conflicts_with_all = ["file", "players", "seed", "options"])]
    pub record: Option<PathBuf>,
    /// `json`: one JSON object per line (the start, each decision with its typed option and log lines, the end).
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
}

/// Who takes the decisions: random bots, or a record's labels in order.
enum Deciders {
    Random(Box<ChaCha8Rng>),
    Record(Vec<String>),
}

/// Writes a trace's lines as text or as JSON lines.
struct Out<'a, 'b> {
    io: &'a mut Io<'b>,
    format: Format,
}

impl Out<'_, '_> {
    /// One JSON line (only in JSON).
    fn json(&mut self, j: serde_json::Value) {
        if self.format == Format::Json {
            let _ = writeln!(self.io.out, "{j}");
        }
    }

    /// Text lines (only in text).
    fn text(&mut self, s: &str) {
        if self.format == Format::Text {
            let _ = write!(self.io.out, "{s}");
        }
    }

    /// The log lines written since the last call: printed in text, returned for JSON.
    fn log(&mut self, m: &mut Match) -> Vec<String> {
        let lines = m.take_log();
        for l in &lines {
            self.text(&format!("{l}\n"));
        }
        lines
    }
}

pub fn run(a: Args, io: &mut Io) -> i32 {
    let (file, players, seed, options, mut deciders, record) = match &a.record {
        Some(path) => {
            let (rec, ruleset) = match read_record(path, io) {
                Ok(r) => r,
                Err(_) => return 1,
            };
            let record = Some(path.display().to_string());
            let d = Deciders::Record(rec.decisions);
            (ruleset, rec.players, rec.seed, rec.options, d, record)
        }
        None => {
            // Clap requires both without `--record`.
            let (Some(file), Some(players)) = (a.file.clone(), a.players) else {
                let _ = writeln!(io.err, "error: trace needs FILE and --players, or --record");
                return 2;
            };
            let d = Deciders::Random(Box::new(ChaCha8Rng::seed_from_u64(bot_seed(a.seed))));
            (file, players, a.seed, a.options.clone(), d, None)
        }
    };
    let Started {
        game,
        sources,
        mut m,
    } = match start(
        &file,
        players,
        seed,
        &options,
        Logs::Engine,
        crate::eval::DEFAULT_BUDGET,
        io,
    ) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let mut out = Out {
        io,
        format: a.format,
    };
    out.text(&format!(
        "# {} — {} players, seed {} (full log: it shows hidden things)\n",
        game.name, players, seed
    ));
    let log = out.log(&mut m);
    out.json(serde_json::json!({
        "event": "start", "game": game.name, "variants": game.variants,
        "players": players, "seed": seed, "options": options, "record": record, "log": log,
    }));
    let mut step = 0;
    while let Some((seat, n)) = m.pending() {
        step += 1;
        if n == 0 {
            let d = Diagnostic::error(
                "E0901",
                format!(
                    "{} must decide, but the rules offer no option",
                    game.seats[seat]
                ),
            );
            let d = match pending_span(&m) {
                Some(s) => d.at(s, "this rule asked"),
                None => d,
            };
            let _ = write!(
                out.io.err,
                "{}",
                diag::render(&sources, &[d], out.io.color, 100)
            );
            return 1;
        }
        let i = match &mut deciders {
            Deciders::Random(bot) => rand::Rng::gen_range(&mut **bot, 0..n as u32) as usize,
            Deciders::Record(labels) => {
                let Some(label) = labels.get(step - 1) else {
                    let _ = writeln!(
                        out.io.err,
                        "error: the record ends after {} decision(s), but the game goes on: {} is to decide",
                        step - 1,
                        game.seats[seat]
                    );
                    return 1;
                };
                match m.option_labels().iter().position(|l| l == label) {
                    Some(i) => i,
                    None => {
                        // Not legal: `replay`'s report, with the rule that forbids it.
                        if let Err(e) =
                            apply_labels(&mut m, &sources, std::slice::from_ref(label), step)
                        {
                            e.print(&sources, out.io);
                        }
                        return 1;
                    }
                }
            }
        };
        let taken = (out.format == Format::Json).then(|| {
            let mut o = m.options_data_as(i..i + 1, Viewer::All);
            let mut o = o.pop();
            // The label as the deciding seat reads it: what records and `--decide` take.
            if let Some(o) = o.as_mut() {
                o.label = m.option_label(i);
            }
            o
        });
        let r = m.apply(i);
        let log = out.log(&mut m);
        if let Some(o) = taken {
            out.json(serde_json::json!({
                "event": "decision", "step": step, "seat": game.seats[seat],
                "option": i, "of": n, "taken": o, "log": log,
            }));
        }
        if let Err(e) = r {
            let d = run_diag(&e, m.state.decisions);
            let _ = write!(
                out.io.err,
                "{}",
                diag::render(&sources, &[d], out.io.color, 100)
            );
            return 1;
        }
    }
    if let Deciders::Record(labels) = &deciders {
        if labels.len() > step {
            let d: &[String] = &labels[step..];
            let mut m2 = m.clone();
            if let Err(e) = apply_labels(&mut m2, &sources, d, step + 1) {
                e.print(&sources, out.io);
            }
            return 1;
        }
    }
    finish(&mut m, &sources, &mut out)
}

/// The end of a trace: the standings.
fn finish(m: &mut Match, sources: &Sources, out: &mut Out) -> i32 {
    match m.standings() {
        Ok(st) => {
            out.text(&format!(
                "# game over after {} decision(s)\n{}",
                m.state.decisions,
                standings_text(&st)
            ));
            out.json(serde_json::json!({
                "event": "end", "decisions": m.state.decisions, "standings": st,
            }));
            0
        }
        Err(e) => {
            let d = run_diag(&e, m.state.decisions);
            let _ = write!(
                out.io.err,
                "{}",
                diag::render(sources, &[d], out.io.color, 100)
            );
            1
        }
    }
}
