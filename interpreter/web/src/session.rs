//! Play: one match between people (hot seat) and bots, as the page shows it
//! after every decision: the picture of the board, the options with the
//! places they name, the per-seat log, the standings at the end. Undo plays
//! the match again from its seed without its last decision.

use regel_core::bot::seeded::bot_seed;
use regel_core::bot::{SeatKind, Table};
use regel_core::draw;
use regel_core::eval::view::with_names;
use regel_core::eval::{Match, Setup};
use regel_core::ir::Game;
use serde::Serialize;
use std::sync::Arc;

pub struct Session {
    game: Arc<Game>,
    players: usize,
    seed: u64,
    kinds: Vec<SeatKind>,
    bots: Table,
    m: Match,
    /// The options taken, by index, in order (what undo replays).
    taken: Vec<usize>,
    /// Their labels by id, for the record.
    labels: Vec<String>,
    /// The log as each seat and, last, an onlooker may read it.
    log: Vec<Vec<String>>,
    /// The run-time error that stopped the match, if one did.
    error: Option<String>,
}

#[derive(Serialize)]
pub struct Shown {
    players: usize,
    seed: u64,
    decisions: usize,
    over: bool,
    /// The seat to decide, its name and whether a bot sits there.
    pending: Option<(usize, String, bool)>,
    options: Vec<OptionShown>,
    /// The options as the page lays them out, in the order of the terminal's
    /// play screen (`draw::option_order`): those that stand alone first,
    /// then each run of three or more that differ only in their last word.
    groups: Vec<OptionGroup>,
    svg: String,
    log: Vec<String>,
    standings: Vec<(String, i64, usize, bool)>,
    error: Option<String>,
    /// The decisions' labels by id, for a record.
    labels: Vec<String>,
}

#[derive(Serialize)]
struct OptionShown {
    /// The label as people read it (display names).
    label: String,
    /// The display names of the board's places the option names, so that a
    /// click on a place can take it.
    places: Vec<String>,
}

#[derive(Serialize)]
struct OptionGroup {
    /// The words a group's options share (`stall 1 at`); none for an option
    /// that stands alone.
    head: Option<String>,
    /// Each option's index and the words its button shows: its last word in
    /// a group, else its whole label.
    items: Vec<(usize, String)>,
}

/// Lays out the options labelled `labels` (see [`Shown::groups`]).
fn groups(labels: &[String]) -> Vec<OptionGroup> {
    draw::option_layout(labels)
        .into_iter()
        .map(|run| {
            if run.len() == 1 {
                let i = run.start;
                return OptionGroup {
                    head: None,
                    items: vec![(i, labels[i].clone())],
                };
            }
            let head = labels[run.start]
                .rsplit_once(' ')
                .map(|(h, _)| h.to_string());
            let items = run
                .map(|i| {
                    let last = labels[i]
                        .rsplit_once(' ')
                        .map_or(&labels[i][..], |(_, w)| w);
                    (i, last.to_string())
                })
                .collect();
            OptionGroup { head, items }
        })
        .collect()
}

/// Bot and human seats as the page names them: `human`, `random`, `mcts`, `mcts:ITER`.
pub fn kinds(names: &[String], players: usize) -> Result<Vec<SeatKind>, String> {
    let mut k = names
        .iter()
        .map(|s| SeatKind::parse(s))
        .collect::<Result<Vec<_>, _>>()?;
    k.resize(players, SeatKind::Human);
    Ok(k)
}

impl Session {
    pub fn new(
        game: Arc<Game>,
        players: usize,
        seed: u64,
        kinds: Vec<SeatKind>,
    ) -> Result<Session, String> {
        let m = start(&game, players, seed)?;
        let mut s = Session {
            bots: Table::new(&kinds, bot_seed(seed)),
            game,
            players,
            seed,
            kinds,
            m,
            taken: vec![],
            labels: vec![],
            log: vec![vec![]; players + 1],
            error: None,
        };
        s.drain_log();
        Ok(s)
    }

    fn drain_log(&mut self) {
        for line in self.m.take_seat_log() {
            for (v, t) in line.text.into_iter().enumerate() {
                if let Some(l) = self.log.get_mut(v) {
                    l.push(t);
                }
            }
        }
        drop(self.m.take_log());
    }

    /// Takes option `i` of the pending decision.
    pub fn apply(&mut self, i: usize) -> Result<(), String> {
        let Some((_, n)) = self.m.pending() else {
            return Err("the game is over".into());
        };
        if i >= n {
            return Err(format!("there are {n} options, not {}", i + 1));
        }
        if self.error.is_some() {
            return Err("the game stopped on an error".into());
        }
        self.labels.push(self.m.option_label(i));
        self.taken.push(i);
        if let Err(e) = self.m.apply(i) {
            self.error = Some(e.message);
        }
        self.drain_log();
        Ok(())
    }

    /// The bot at the pending seat decides (a human seat gets the random bot).
    pub fn bot(&mut self) -> Result<(), String> {
        let Some((seat, _)) = self.m.pending() else {
            return Err("the game is over".into());
        };
        let i = self.bots.choose(seat, &self.m);
        self.apply(i)
    }

    /// Plays the match again without its last decision.
    pub fn undo(&mut self) -> Result<(), String> {
        let mut taken = std::mem::take(&mut self.taken);
        if taken.pop().is_none() {
            self.taken = taken;
            return Err("nothing to undo".into());
        }
        let mut s = Session::new(
            self.game.clone(),
            self.players,
            self.seed,
            self.kinds.clone(),
        )?;
        for i in taken {
            s.apply(i)?;
        }
        *self = s;
        Ok(())
    }

    /// Plays the labels of a record from the start.
    pub fn replay(&mut self, labels: &[String]) -> Result<(), String> {
        for (k, l) in labels.iter().enumerate() {
            let Some((_, n)) = self.m.pending() else {
                return Err(format!("decision {}: the game is already over", k + 1));
            };
            let i = (0..n)
                .find(|&i| self.m.option_label(i) == *l)
                .ok_or_else(|| format!("decision {}: `{l}` is not a legal option", k + 1))?;
            self.apply(i)?;
        }
        Ok(())
    }

    /// What the page shows, as `viewer` sees it (`None`: an onlooker).
    pub fn shown(&mut self, viewer: Option<usize>) -> Shown {
        let viewer = viewer.filter(|&v| v < self.players);
        let g = self.m.game.clone();
        let seats = &self.game.seats[..self.players];
        let pending = self
            .m
            .pending()
            .filter(|_| self.error.is_none())
            .map(|(s, _)| (s, seats[s].clone(), self.kinds[s] != SeatKind::Human));
        let options = match pending {
            Some(_) => {
                let shown = with_names(|| self.m.option_labels());
                let ids = self.m.option_labels();
                shown
                    .into_iter()
                    .zip(ids)
                    .map(|(label, id)| OptionShown {
                        label,
                        places: places(&g, &id),
                    })
                    .collect()
            }
            None => vec![],
        };
        let labels: Vec<String> = options
            .iter()
            .map(|o: &OptionShown| o.label.clone())
            .collect();
        let view = with_names(|| self.m.view(viewer));
        let title = draw::title(
            &self.game,
            self.players,
            self.seed,
            self.taken.len(),
            self.m.is_over(),
            viewer,
        );
        let svg = draw::scene_svg(&g, &view, &title, seats);
        let standings = if self.m.is_over() {
            self.m
                .standings()
                .map(|st| {
                    st.into_iter()
                        .map(|s| (s.seat, s.score, s.rank, s.winner))
                        .collect()
                })
                .unwrap_or_default()
        } else {
            vec![]
        };
        Shown {
            players: self.players,
            seed: self.seed,
            decisions: self.taken.len(),
            over: self.m.is_over(),
            pending,
            options,
            groups: groups(&labels),
            svg,
            log: self.log[viewer.unwrap_or(self.players)].clone(),
            standings,
            error: self.error.clone(),
            labels: self.labels.clone(),
        }
    }
}

fn start(game: &Arc<Game>, players: usize, seed: u64) -> Result<Match, String> {
    if players < game.min_players || players > game.max_players {
        return Err(format!(
            "{} takes {}..{} players, not {players}",
            game.name, game.min_players, game.max_players
        ));
    }
    Match::new_with_seat_logs(game.clone(), &Setup::new(players, seed)).map_err(|e| e.message)
}

/// The display names of the board's nodes whose ids are words of `label`.
fn places(g: &Game, label: &str) -> Vec<String> {
    let mut out = vec![];
    for w in label.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_')) {
        if let Some(&i) = g.board.node_index.get(w) {
            let s = g.node_shown(i as usize).to_string();
            if !out.contains(&s) {
                out.push(s);
            }
        }
    }
    out
}
