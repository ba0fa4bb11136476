//! The checker's diagnostics as the protocol's: per file, with the code,
//! the labelled spans as related information and the hint in the message
//! (and in `data`, which code actions read back).

use super::analysis::Analysis;
use super::documents::{path_uri, Encoding, Lines};
use crate::diag::{Diagnostic, Severity};
use lsp_types as lt;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The diagnostics of some analyses grouped by the file their primary span
/// lies in (a diagnostic without a span goes to its ruleset's root file);
/// one reported by two analyses (a base checked with each of two open
/// variants) is kept once.
pub fn by_file(analyses: &[&Analysis], enc: Encoding) -> BTreeMap<PathBuf, Vec<lt::Diagnostic>> {
    let mut out: BTreeMap<PathBuf, Vec<lt::Diagnostic>> = BTreeMap::new();
    for a in analyses {
        for d in &a.diags {
            let (path, item) = convert(a, d, enc);
            let list = out.entry(path).or_default();
            if !list.contains(&item) {
                list.push(item);
            }
        }
    }
    out
}

fn convert(a: &Analysis, d: &Diagnostic, enc: Encoding) -> (PathBuf, lt::Diagnostic) {
    let (path, range) = match d.primary {
        Some(s) => {
            let lines = Lines::new(a.text(s.file), enc);
            (
                a.path(s.file),
                lines.range(s.start as usize, s.end as usize),
            )
        }
        None => (a.root.clone(), lt::Range::default()),
    };
    let related: Vec<lt::DiagnosticRelatedInformation> = d
        .labels
        .iter()
        .skip(1)
        .map(|(s, label)| {
            let lines = Lines::new(a.text(s.file), enc);
            lt::DiagnosticRelatedInformation {
                location: lt::Location::new(
                    path_uri(&a.path(s.file)),
                    lines.range(s.start as usize, s.end as usize),
                ),
                message: label.clone(),
            }
        })
        .collect();
    let mut message = d.message.clone();
    if let Some((_, label)) = d.labels.first() {
        message.push_str(&format!(" ({label})"));
    }
    if let Some(h) = &d.help {
        message.push_str(&format!("\nhelp: {h}"));
    }
    let item = lt::Diagnostic {
        range,
        severity: Some(match d.severity {
            Severity::Error => lt::DiagnosticSeverity::ERROR,
            Severity::Warning => lt::DiagnosticSeverity::WARNING,
        }),
        code: Some(lt::NumberOrString::String(d.code.to_string())),
        source: Some("regel".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        data: d.help.as_ref().map(|h| serde_json::json!({ "help": h })),
        ..Default::default()
    };
    (path, item)
}
