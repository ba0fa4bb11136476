//! Error recovery on broken versions of the shipped rules: a stray
//! character, a stray `}` or a lost character at many places of each file.
//! Recovery never panics, every error points into the file, and a file
//! reports at most `MAX_SYNTAX_ERRORS`.

use regel::diag::Sources;
use regel::limits::MAX_SYNTAX_ERRORS;
use regel::syntax::parse_recovering;
use std::path::Path;

fn shipped() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut out = vec![];
    for dir in ["rulesets", "examples"] {
        let mut games: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        games.sort();
        for g in games.iter().filter(|g| g.is_dir()) {
            let mut files: Vec<_> = std::fs::read_dir(g)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            files.sort();
            out.extend(
                files
                    .iter()
                    .filter(|p| p.extension().is_some_and(|e| e == "rules"))
                    .map(|p| std::fs::read_to_string(p).unwrap()),
            );
        }
    }
    assert!(out.len() >= 10);
    out
}

#[test]
fn broken_shipped_files_recover_without_panicking() {
    let (mut broke, mut tried) = (0, 0);
    for text in shipped() {
        let cuts: Vec<usize> = (1..7)
            .map(|i| i * text.len() / 7)
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        for at in cuts {
            let next = text[at..].chars().next().map_or(0, char::len_utf8);
            for broken in [
                format!("{}$${}", &text[..at], &text[at..]),
                format!("{}}}{}", &text[..at], &text[at..]),
                format!("{}{}", &text[..at], &text[at + next..]),
            ] {
                let mut sources = Sources::default();
                let id = sources.add("broken.rules", broken.as_str());
                let parsed = parse_recovering(&sources, id);
                assert!(parsed.errors.len() <= MAX_SYNTAX_ERRORS + 1);
                for d in &parsed.errors {
                    let p = d.primary.expect("a syntax error has a span");
                    assert!(p.start <= p.end && p.end as usize <= broken.len());
                }
                // (A `$$` inside a comment or a string breaks nothing.)
                broke += usize::from(!parsed.errors.is_empty());
                tried += 1;
            }
        }
    }
    assert!(
        broke > tried / 4,
        "breaks that are errors: {broke} of {tried}"
    );
}
