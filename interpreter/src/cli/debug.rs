//! Debug views. (Being written.)
use super::{Format, Io};
use std::path::Path;
pub fn board(_f: &Path, io: &mut Io) -> i32 { let _ = writeln!(io.err, "not yet"); 2 }
pub fn ast(_f: &Path, io: &mut Io) -> i32 { let _ = writeln!(io.err, "not yet"); 2 }
pub fn moves(_f: &Path, _p: usize, _s: u64, _o: &[String], _d: &[String], _fmt: Format, io: &mut Io) -> i32 { let _ = writeln!(io.err, "not yet"); 2 }
pub fn trace(_f: &Path, _p: usize, _s: u64, _o: &[String], io: &mut Io) -> i32 { let _ = writeln!(io.err, "not yet"); 2 }
