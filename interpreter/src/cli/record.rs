//! Game records: a human-readable TOML file with the ruleset, variant,
//! options, players, seed and the list of labelled decisions.

use crate::check::Game;
use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Record {
    /// The ruleset file, as given on the command line.
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
}

impl Record {
    pub fn new(file: &Path, g: &Game, players: usize, seed: u64, options: &[String], decisions: Vec<String>) -> Record {
        Record {
            ruleset: file.display().to_string(),
            game: g.name.clone(),
            variants: g.variants.clone(),
            players,
            seed,
            options: options.to_vec(),
            decisions,
            scores: None,
        }
    }

    pub fn to_toml(&self) -> String {
        let mut s = String::from("# A Regel game record: `regel replay FILE` plays it again.\n");
        s.push_str(&toml::to_string(self).unwrap_or_default());
        s
    }
}
