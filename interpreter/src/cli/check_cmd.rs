//! `regel check`: every problem in every file, rustc-style or as JSON.

use super::{files, Format, Io};
use crate::check;
use crate::diag::{self, Sources};
use std::path::PathBuf;

pub fn run(files: &[PathBuf], format: Format, summary: bool, io: &mut Io) -> i32 {
    let mut failed = false;
    let mut json = vec![];
    for f in files {
        let mut sources = Sources::default();
        let read = files::confined(files::root_for(f, io.root.as_deref()));
        let (ok, diags, sum) =
            match crate::pipeline::compile(&mut sources, &read, f, &crate::opt::Passes::all()) {
                Ok((g, warnings)) => (true, warnings, Some(check::summary(&g))),
                Err(d) => (false, d, None),
            };
        failed |= !ok;
        match format {
            Format::Text => {
                let _ = write!(io.err, "{}", diag::render(&sources, &diags, io.color, 100));
                if ok {
                    let _ = writeln!(
                        io.out,
                        "ok: {}{}",
                        f.display(),
                        if diags.is_empty() {
                            String::new()
                        } else {
                            format!(" ({} warning(s))", diags.len())
                        }
                    );
                    if summary {
                        let _ = write!(io.out, "{}", sum.unwrap_or_default());
                    }
                } else {
                    let n = diags.iter().filter(|d| d.is_error()).count();
                    let _ = writeln!(io.out, "error: {}: {} problem(s)", f.display(), n);
                }
            }
            Format::Json => {
                let ds: Vec<_> = diags.iter().map(|d| diag::to_json(&sources, d)).collect();
                json.push(serde_json::json!({ "file": f.display().to_string(), "ok": ok, "diagnostics": ds, "summary": if summary { sum } else { None } }));
            }
        }
    }
    if format == Format::Json {
        let _ = writeln!(
            io.out,
            "{}",
            serde_json::to_string_pretty(&json).unwrap_or_default()
        );
    }
    if failed {
        1
    } else {
        0
    }
}
