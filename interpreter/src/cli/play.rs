//! `regel play`: humans and bots in the terminal. (Being written.)
use super::Io;
use std::path::PathBuf;
pub struct Args {
    pub file: PathBuf,
    pub players: usize,
    pub seed: u64,
    pub seats: Vec<String>,
    pub bot: Option<String>,
    pub options: Vec<String>,
    pub record: Option<PathBuf>,
    pub step_budget: u64,
}
pub fn run(_a: &Args, io: &mut Io) -> i32 {
    let _ = writeln!(io.err, "not yet");
    2
}
