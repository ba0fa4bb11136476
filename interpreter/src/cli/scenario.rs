//! `regel test`: scenario files. (Being written.)
use super::{Format, Io};
use std::path::PathBuf;
pub fn run(_files: &[PathBuf], _f: Format, io: &mut Io) -> i32 {
    let _ = writeln!(io.err, "not yet");
    2
}
