//! Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling,
//! Powley and Whitehouse 2012). Entry: [`Mcts::choose`].
//!
//! Each iteration deals the hidden pieces again ([`super::sample`]), walks
//! one shared tree down from the root choosing by UCB among the options that
//! this deal allows, adds one node, plays on at random and credits every
//! seat on the way with its own result. A playout stops after `depth`
//! decisions; a game not over by then is judged by its score at that point:
//! each seat's margin over the best other team (see [`Outcome`]). Options are told apart
//! by their action and parameter values, not by their index, because the
//! options of other seats differ from deal to deal. The bot takes the root
//! option visited most. Its generator is its own and seeded, so a seed gives
//! the same decisions.

use super::sample::Hidden;
use super::Bot;
use crate::eval::{option_tuple, Match};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use smallvec::SmallVec;
use std::collections::HashMap;

/// An option as the tree knows it: its action (or `choose`) and values.
type Key = (u16, SmallVec<[i64; 4]>);

/// The exploration constant of UCB for rewards in 0..=1.
const EXPLORE: f64 = 0.7;

/// Part of a playout's reward for ranking well rather than only for winning,
/// so that the search still has a gradient when every line loses.
const RANK_SHARE: f64 = 0.2;

struct Edge {
    key: Key,
    child: u32,
    visits: u32,
    /// How often this edge was among the options of a deal (ISMCTS's availability count).
    avail: u32,
    /// The sum of the rewards of the playouts through it that finished the game.
    reward: f64,
    /// The sum of the score margins of the playouts through it that were cut off.
    margin: f64,
}

impl Edge {
    /// The mean reward in 0..=1. A cut-off playout counts 0.5 plus its margin
    /// over `2 * spread`, so that a typical lead is worth about 0.75: a score
    /// has no fixed scale, and this one is the search's own.
    fn value(&self, spread: f64) -> f64 {
        let v = self.visits.max(1) as f64;
        (self.reward / v + self.margin / (2.0 * spread * v)).clamp(0.0, 1.0)
    }
}

/// What a playout brings back, per seat.
enum Outcome {
    /// The game ended: mostly whether the seat won, partly its rank.
    Finished(Vec<f64>),
    /// The playout was cut off: the seat's team's score less the best other
    /// team's (scores oriented so that more is better).
    Cut(Vec<f64>),
}

#[derive(Default)]
struct Node {
    edges: Vec<Edge>,
    /// Key → edge index. Only looked up, never iterated, so its order never shows.
    index: HashMap<Key, u32>,
}

pub struct Mcts {
    iterations: u32,
    depth: u32,
    rng: ChaCha8Rng,
}

impl Mcts {
    pub fn new(iterations: u32, depth: u32, seed: u64) -> Mcts {
        Mcts {
            iterations,
            depth,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Bot for Mcts {
    fn choose(&mut self, m: &Match) -> usize {
        let Some((seat, n)) = m.pending() else {
            return 0;
        };
        if n <= 1 {
            return 0;
        }
        let hidden = Hidden::of(m, seat);
        let mut tree: Vec<Node> = vec![Node::default()];
        let mut path: Vec<(u32, u32, usize)> = vec![];
        let mut keys: Vec<Key> = vec![];
        let mut fresh: Vec<usize> = vec![];
        let mut seen: Vec<u32> = vec![];
        // The mean size of a cut-off playout's margin so far: the scale of a lead.
        let (mut cuts, mut margins, mut spread) = (0.0f64, 0.0f64, 1.0f64);
        for _ in 0..self.iterations {
            let mut d = hidden.sample(m, &mut self.rng);
            path.clear();
            let mut node = 0u32;
            let mut ok = true;
            // Selection and expansion.
            while let Some((player, n)) = d.pending() {
                if n == 0 {
                    ok = false;
                    break;
                }
                keys.clear();
                keys.extend((0..n).map(|i| option_tuple(&d.state, i)));
                fresh.clear();
                seen.clear();
                let nd = &tree[node as usize];
                for (i, k) in keys.iter().enumerate() {
                    match nd.index.get(k) {
                        Some(&e) => seen.push(e),
                        None => fresh.push(i),
                    }
                }
                let nd = &mut tree[node as usize];
                for &e in &seen {
                    nd.edges[e as usize].avail += 1;
                }
                if !fresh.is_empty() {
                    let i = fresh[self.rng.gen_range(0..fresh.len())];
                    let child = tree.len() as u32;
                    let nd = &mut tree[node as usize];
                    let e = nd.edges.len() as u32;
                    nd.index.insert(keys[i].clone(), e);
                    nd.edges.push(Edge {
                        key: keys[i].clone(),
                        child,
                        visits: 0,
                        avail: 1,
                        reward: 0.0,
                        margin: 0.0,
                    });
                    tree.push(Node::default());
                    path.push((node, e, player));
                    ok = d.apply(i).is_ok();
                    break;
                }
                // Every option of this deal has an edge: the best by UCB.
                let nd = &tree[node as usize];
                let mut best = (f64::NEG_INFINITY, 0u32);
                for &e in &seen {
                    let ed = &nd.edges[e as usize];
                    let v = ed.visits.max(1) as f64;
                    let u = ed.value(spread) + EXPLORE * ((ed.avail as f64).ln() / v).sqrt();
                    if u > best.0 {
                        best = (u, e);
                    }
                }
                let ed = &nd.edges[best.1 as usize];
                let i = keys.iter().position(|k| *k == ed.key).unwrap_or(0);
                path.push((node, best.1, player));
                node = ed.child;
                if d.apply(i).is_err() {
                    ok = false;
                    break;
                }
            }
            // Simulation and backpropagation.
            let outcome = if ok && d.playout_at_most(&mut self.rng, self.depth).is_ok() {
                outcome(&mut d)
            } else {
                None
            };
            if let Some(Outcome::Cut(m)) = &outcome {
                cuts += m.len() as f64;
                margins += m.iter().map(|x| x.abs()).sum::<f64>();
                spread = (margins / cuts).max(1.0);
            }
            for &(nd, e, player) in &path {
                let ed = &mut tree[nd as usize].edges[e as usize];
                ed.visits += 1;
                match &outcome {
                    Some(Outcome::Finished(r)) => {
                        ed.reward += r.get(player).copied().unwrap_or(0.0)
                    }
                    Some(Outcome::Cut(m)) => {
                        ed.reward += 0.5;
                        ed.margin += m.get(player).copied().unwrap_or(0.0);
                    }
                    None => {}
                }
            }
        }
        // The root's options are the real ones: take the most visited.
        let root = &tree[0];
        let best = root.edges.iter().max_by(|a, b| {
            a.visits
                .cmp(&b.visits)
                .then(a.value(spread).total_cmp(&b.value(spread)))
                .then(b.child.cmp(&a.child))
        });
        match best {
            Some(ed) => (0..n)
                .find(|&i| option_tuple(&m.state, i) == ed.key)
                .unwrap_or(0),
            None => 0,
        }
    }
}

/// What the playout that left `d` where it is brings back to each seat.
fn outcome(d: &mut Match) -> Option<Outcome> {
    let st = d.standings().ok()?;
    if d.is_over() {
        let n = st.len().max(2) as f64;
        return Some(Outcome::Finished(
            st.iter()
                .map(|s| {
                    (1.0 - RANK_SHARE) * (s.winner as u8 as f64)
                        + RANK_SHARE * (n - s.rank as f64) / (n - 1.0)
                })
                .collect(),
        ));
    }
    let lowest = d.game.score.as_ref().is_some_and(|s| s.2);
    let oriented: Vec<f64> = st
        .iter()
        .map(|s| if lowest { -s.score } else { s.score } as f64)
        .collect();
    // A team's score is its best member's, as in the standings.
    let best = |keep: &dyn Fn(i64) -> bool| {
        (0..st.len())
            .filter(|&q| keep(st[q].team))
            .map(|q| oriented[q])
            .fold(f64::NEG_INFINITY, f64::max)
    };
    Some(Outcome::Cut(
        st.iter()
            .map(|s| {
                let other = best(&|t| t != s.team);
                if other.is_finite() {
                    best(&|t| t == s.team) - other
                } else {
                    0.0
                }
            })
            .collect(),
    ))
}
