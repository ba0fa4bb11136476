//! `regel fmt [--check] FILE…`: rules files in the canonical layout
//! (`regel_core::fmt`). Without `--check` each file that is not in the layout
//! is rewritten; with it, nothing is written and the files that would change
//! are listed. A file that does not parse is left alone and its syntax errors
//! are shown as diagnostics.

use super::{files, Io};
use crate::diag::{self, Sources};
use std::path::PathBuf;

pub fn run(paths: &[PathBuf], check: bool, io: &mut Io) -> i32 {
    let mut failed = false;
    let mut changed = 0;
    for f in paths {
        let text = match files::read_file(f) {
            Ok(t) => t,
            Err(e) => {
                let _ = writeln!(io.err, "error: cannot read {}: {e}", f.display());
                failed = true;
                continue;
            }
        };
        let Some(formatted) = crate::fmt::format_source(&text) else {
            let mut sources = Sources::default();
            let id = sources.add(f.display().to_string(), text);
            let diags = crate::syntax::parse(&sources, id).err().unwrap_or_default();
            let _ = write!(io.err, "{}", diag::render(&sources, &diags, io.color, 100));
            let _ = writeln!(
                io.out,
                "error: {}: not formatted, it does not parse",
                f.display()
            );
            failed = true;
            continue;
        };
        if formatted == text {
            continue;
        }
        changed += 1;
        if check {
            let _ = writeln!(io.out, "would reformat: {}", f.display());
        } else if let Err(e) = std::fs::write(f, formatted) {
            let _ = writeln!(io.err, "error: cannot write {}: {e}", f.display());
            failed = true;
        } else {
            let _ = writeln!(io.out, "formatted: {}", f.display());
        }
    }
    if check && changed > 0 {
        let _ = writeln!(
            io.out,
            "{changed} file(s) not in the canonical layout; run `regel fmt` on them"
        );
    }
    i32::from(failed || (check && changed > 0))
}
