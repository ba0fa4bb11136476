//! Game records: a human-readable TOML file with the ruleset, variant,
//! options, players, seed and the list of labelled decisions.
//!
//! ```toml
//! # A Regel game record: `regel replay FILE` plays it again.
//! ruleset = "rulesets/my-game/my-game.rules"
//! game = "My Game"
//! variants = []
//! players = 2
//! seed = 7
//! options = []
//! scores = [101, 87]
//! decisions = [
//!   "draw",               # 1 white
//!   "put hidden tile at r2c3", # …
//! ]
//! ```

use crate::diag::{Diagnostic, Sources};
use crate::ir::Game;
use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Record {
    /// The ruleset file, relative to the record's folder (records written
    /// before this read it from the folder `replay` runs in; both work).
    pub ruleset: String,
    pub game: String,
    #[serde(default)]
    pub variants: Vec<String>,
    pub players: usize,
    pub seed: u64,
    /// `name=value` settings.
    #[serde(default)]
    pub options: Vec<String>,
    /// The label of every decision, in order.
    pub decisions: Vec<String>,
    /// The final scores per seat, when the game ended (checked by `replay`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<i64>>,
    /// Who took each decision (written as comments beside the labels; not read back).
    #[serde(skip)]
    pub deciders: Vec<String>,
}

/// The fields before the decisions, in the order they are written.
#[derive(Serialize)]
struct Head<'a> {
    ruleset: &'a str,
    game: &'a str,
    variants: &'a [String],
    players: usize,
    seed: u64,
    options: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    scores: Option<&'a [i64]>,
}

impl Record {
    /// A record of a game of ruleset `file`, to be written at `at` (when
    /// known: the ruleset is then stored relative to the record's folder).
    pub fn new(
        file: &Path,
        at: Option<&Path>,
        g: &Game,
        players: usize,
        seed: u64,
        options: &[String],
        decisions: Vec<String>,
    ) -> Record {
        let ruleset = at
            .and_then(|r| relative_to_folder_of(file, r))
            .unwrap_or_else(|| file.to_path_buf());
        Record {
            ruleset: ruleset.display().to_string().replace('\\', "/"),
            game: g.name.clone(),
            variants: g.variants.clone(),
            players,
            seed,
            options: options.to_vec(),
            decisions,
            scores: None,
            deciders: vec![],
        }
    }

    /// The record as TOML: one decision per line, with its step number and,
    /// when known, the seat that took it as a comment.
    pub fn to_toml(&self) -> String {
        let mut s = String::from("# A Regel game record: `regel replay FILE` plays it again.\n");
        let head = Head {
            ruleset: &self.ruleset,
            game: &self.game,
            variants: &self.variants,
            players: self.players,
            seed: self.seed,
            options: &self.options,
            scores: self.scores.as_deref(),
        };
        s.push_str(&toml::to_string(&head).unwrap_or_default());
        s.push_str("decisions = [\n");
        let quoted: Vec<String> = self
            .decisions
            .iter()
            .map(|l| format!("{},", toml::Value::String(l.clone())))
            .collect();
        let width = quoted.iter().map(|q| q.chars().count()).max().unwrap_or(0);
        for (k, q) in quoted.iter().enumerate() {
            let who = self
                .deciders
                .get(k)
                // A comment ends at a line break: a decider's name is
                // written with its control characters as spaces, so no
                // name can break the record.
                .map(|d| {
                    let d: String = d
                        .chars()
                        .map(|c| if c.is_control() { ' ' } else { c })
                        .collect();
                    format!(" {d}")
                })
                .unwrap_or_default();
            s.push_str(&format!("  {q:<width$}  # {}{who}\n", k + 1));
        }
        s.push_str("]\n");
        s
    }

    /// Reads a record; a malformed one gives a diagnostic pointing into the
    /// TOML text (added to `sources` under `name`).
    pub fn from_toml(sources: &mut Sources, name: &str, text: &str) -> Result<Record, Diagnostic> {
        match toml::from_str::<Record>(text) {
            Ok(r) => Ok(r),
            Err(e) => {
                let file = sources.add(name, text);
                let msg = e.message().trim().to_string();
                let mut d = Diagnostic::error("E0903", format!("`{name}` is not a valid game record: {msg}"))
                    .help("a record has `ruleset`, `game`, `players`, `seed` and `decisions` (a list of option labels); `options`, `variants` and `scores` are optional");
                if let Some(r) = e.span() {
                    d = d.at(crate::diag::Span::new(file, r.start, r.end), msg);
                }
                Err(d)
            }
        }
    }
}

/// `file` as a path from the folder of `record`, when both can be resolved.
fn relative_to_folder_of(file: &Path, record: &Path) -> Option<std::path::PathBuf> {
    let file = std::fs::canonicalize(file).ok()?;
    let dir = record
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let dir = std::fs::canonicalize(dir).ok()?;
    let f: Vec<_> = file.components().collect();
    let d: Vec<_> = dir.components().collect();
    let common = f.iter().zip(&d).take_while(|(a, b)| a == b).count();
    let mut out = std::path::PathBuf::new();
    for _ in common..d.len() {
        out.push("..");
    }
    for c in &f[common..] {
        out.push(c);
    }
    Some(out)
}
