//! `regel replay`: re-runs a record. (Being written.)
use super::{Format, Io};
use std::path::Path;
pub fn run(_r: &Path, _f: Format, io: &mut Io) -> i32 {
    let _ = writeln!(io.err, "not yet");
    2
}
