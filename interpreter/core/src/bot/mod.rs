//! Bots: who sits at a seat that no human takes. Entry: [`make`], which
//! builds a bot from a seat's kind ([`SeatKind::parse`]: `random`, `mcts`,
//! `mcts:ITER`, `mcts:ITER:DEPTH`).
//!
//! A bot is handed the match but promises to use only what its seat may
//! know: the random bot looks at nothing but the number of options, and the
//! MCTS bot ([`mcts`]) searches only positions drawn by [`sample`], which
//! forgets everything the seat cannot see.

pub mod mcts;
pub mod sample;
pub mod seeded;

use crate::eval::Match;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The default number of MCTS iterations per decision.
pub const DEFAULT_ITERATIONS: u32 = 400;

/// The default length of an MCTS playout, in decisions, before the position
/// it reached is scored by the standings instead of played to the end. A game
/// whose random playouts are long (thousands of decisions) would otherwise
/// take seconds per decision; shorter games finish within it and are played
/// out in full.
pub const DEFAULT_DEPTH: u32 = 200;

/// Who sits at a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatKind {
    Human,
    Random,
    /// Information-set MCTS with this many iterations per decision, and
    /// playouts cut off after `depth` decisions.
    Mcts {
        iterations: u32,
        depth: u32,
    },
}

impl SeatKind {
    /// Reads a seat's kind as the command line writes it.
    pub fn parse(s: &str) -> Result<SeatKind, String> {
        match s {
            "human" => return Ok(SeatKind::Human),
            "random" | "bot" => return Ok(SeatKind::Random),
            "mcts" => return Ok(SeatKind::mcts(DEFAULT_ITERATIONS)),
            _ => {}
        }
        if let Some(rest) = s.strip_prefix("mcts:") {
            let (n, depth) = rest.split_once(':').unwrap_or((rest, ""));
            let iterations = match n.parse::<u32>() {
                Ok(k) if k > 0 => k,
                _ => return Err(format!("`{s}`: write MCTS with a positive number of iterations, as `mcts:{DEFAULT_ITERATIONS}`")),
            };
            let depth = match depth {
                "" => DEFAULT_DEPTH,
                d => match d.parse::<u32>() {
                    Ok(k) if k > 0 => k,
                    _ => return Err(format!("`{s}`: write the playout depth as a positive number of decisions, as `mcts:{iterations}:{DEFAULT_DEPTH}`")),
                },
            };
            return Ok(SeatKind::Mcts { iterations, depth });
        }
        Err(format!("`{s}` is not a kind of seat: use `human`, `random`, `mcts`, `mcts:ITERATIONS` or `mcts:ITERATIONS:DEPTH`"))
    }

    /// MCTS with `iterations` per decision and playouts of the default depth.
    pub fn mcts(iterations: u32) -> SeatKind {
        SeatKind::Mcts {
            iterations,
            depth: DEFAULT_DEPTH,
        }
    }

    pub fn is_bot(self) -> bool {
        self != SeatKind::Human
    }

    /// How the seat is named in summaries.
    pub fn name(self) -> String {
        match self {
            SeatKind::Human => "human".into(),
            SeatKind::Random => "random".into(),
            SeatKind::Mcts {
                iterations,
                depth: DEFAULT_DEPTH,
            } => format!("mcts:{iterations}"),
            SeatKind::Mcts { iterations, depth } => format!("mcts:{iterations}:{depth}"),
        }
    }
}

/// A bot: chooses one of the pending decision's options.
pub trait Bot: Send {
    fn choose(&mut self, m: &Match) -> usize;
}

/// Chooses uniformly at random.
pub struct RandomBot {
    pub rng: ChaCha8Rng,
}

impl Bot for RandomBot {
    fn choose(&mut self, m: &Match) -> usize {
        let n = m.pending().map(|p| p.1).unwrap_or(1).max(1);
        rand::Rng::gen_range(&mut self.rng, 0..n as u32) as usize
    }
}

/// The bots of a game, one per seat (`None` for humans). Random seats share
/// one generator seeded with `seed`, so that a game of random bots is the
/// same game whatever the number of seats; each MCTS seat has its own.
pub struct Table {
    random: RandomBot,
    seats: Vec<Option<Box<dyn Bot>>>,
}

impl Table {
    pub fn new(kinds: &[SeatKind], seed: u64) -> Table {
        // A table of random players only (every playout) allocates no
        // entries: `choose` finds none and asks the random bot.
        let bots = kinds.iter().any(|k| matches!(k, SeatKind::Mcts { .. }));
        let seats = kinds
            .iter()
            .filter(|_| bots)
            .enumerate()
            .map(|(s, k)| match *k {
                SeatKind::Mcts { iterations, depth } => Some(Box::new(mcts::Mcts::new(
                    iterations,
                    depth,
                    seed.wrapping_add(1 + s as u64)
                        .wrapping_mul(0x2545_f491_4f6c_dd1d),
                )) as Box<dyn Bot>),
                _ => None,
            })
            .collect();
        Table {
            random: RandomBot {
                rng: ChaCha8Rng::seed_from_u64(seed),
            },
            seats,
        }
    }

    /// The option the bot at `seat` takes.
    pub fn choose(&mut self, seat: usize, m: &Match) -> usize {
        match self.seats.get_mut(seat).and_then(|b| b.as_mut()) {
            Some(b) => b.choose(m),
            None => self.random.choose(m),
        }
    }
}

/// A bot for one seat kind (a human seat gets a random bot).
pub fn make(kind: SeatKind, seed: u64) -> Box<dyn Bot> {
    match kind {
        SeatKind::Mcts { iterations, depth } => Box::new(mcts::Mcts::new(iterations, depth, seed)),
        _ => Box::new(RandomBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }),
    }
}
