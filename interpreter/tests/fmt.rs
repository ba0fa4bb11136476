//! The formatter over every rules file the repository ships: the shipped
//! rulesets, variants, scenario helpers and examples are in the canonical
//! layout (what `regel fmt --check` holds in CI), and for them and for every
//! error-corpus case that parses, formatting is idempotent and keeps the
//! meaning: the formatted text parses to the same syntax tree, spans aside.

use regel::ast::visit;
use regel::diag::{Sources, Span};
use regel::fmt::format_source;
use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Every `.rules` file under `dir`, sorted.
fn rules_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rules_under(&p, out);
        } else if p.extension().is_some_and(|e| e == "rules") {
            out.push(p);
        }
    }
}

/// The files CI formats: rulesets and their variants and scenario helpers,
/// examples, and the rules the integration tests read.
fn shipped() -> Vec<PathBuf> {
    let root = workspace();
    let mut out = vec![];
    for dir in ["rulesets", "examples", "interpreter/tests"] {
        rules_under(&root.join(dir), &mut out);
    }
    assert!(out.len() > 20, "the shipped rules files are found");
    out
}

/// Sets every span it visits to the same value.
struct NoSpans;

impl visit::by_mut::Visit<'_> for NoSpans {
    fn span(&mut self, s: &mut Span) {
        *s = Span::default();
    }
}

/// The syntax tree of a text as JSON with its spans cleared, if it parses.
fn shape(text: &str) -> Option<serde_json::Value> {
    let mut sources = Sources::default();
    let id = sources.add("x.rules", text);
    let mut file = regel::syntax::parse(&sources, id).ok()?;
    visit::by_mut::walk_file(&mut NoSpans, &mut file);
    Some(serde_json::to_value(&file).unwrap())
}

/// Formatting `text` is idempotent and keeps its syntax tree; the formatted text.
fn holds(path: &Path, text: &str) -> Option<String> {
    let once = format_source(text)?;
    let twice = format_source(&once);
    assert_eq!(
        twice.as_deref(),
        Some(once.as_str()),
        "{}: fmt(fmt(x)) != fmt(x)",
        path.display()
    );
    assert_eq!(
        shape(text),
        shape(&once),
        "{}: formatting changed the syntax tree",
        path.display()
    );
    Some(once)
}

#[test]
fn shipped_rules_are_in_the_canonical_layout() {
    let mut off = vec![];
    for p in shipped() {
        let text = std::fs::read_to_string(&p).unwrap();
        let formatted =
            holds(&p, &text).unwrap_or_else(|| panic!("{} does not parse", p.display()));
        if formatted != text {
            off.push(p.display().to_string());
        }
    }
    assert!(
        off.is_empty(),
        "not formatted (run `regel fmt` on them): {off:?}"
    );
}

#[test]
fn corpus_cases_that_parse_format_idempotently_and_keep_their_meaning() {
    let mut files = vec![];
    rules_under(&workspace().join("tests/errors"), &mut files);
    let parsed = files
        .iter()
        .filter(|p| holds(p, &std::fs::read_to_string(p).unwrap()).is_some())
        .count();
    assert!(parsed > 100, "most corpus cases parse: {parsed}");
}

/// A scenario's `rules = """…"""` (items a scenario adds to or overrides in
/// its ruleset) is in the canonical layout too: formatted under a variant
/// header, it comes back unchanged.
#[test]
fn scenario_rules_are_in_the_canonical_layout() {
    let root = workspace();
    let mut checked = 0;
    for dir in ["rulesets", "examples"] {
        let mut games: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        games.sort();
        for game in games {
            let Ok(entries) = std::fs::read_dir(game.join("scenarios")) else {
                continue;
            };
            let mut files: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
            files.sort();
            for f in files
                .iter()
                .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            {
                let doc: toml::Table =
                    toml::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
                let Some(rules) = doc.get("rules").and_then(|r| r.as_str()) else {
                    continue;
                };
                let text = format!("variant \"scenario\" extends \"base.rules\"\n{rules}");
                let formatted = holds(f, &text)
                    .unwrap_or_else(|| panic!("{}: its rules do not parse", f.display()));
                assert_eq!(
                    formatted,
                    text,
                    "{}: its rules are not in the canonical layout",
                    f.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 5, "scenario rules found: {checked}");
}

/// Runs the command line; returns the exit code, stdout and stderr.
fn cli(args: &[&str]) -> (i32, String, String) {
    let (mut out, mut err) = (vec![], vec![]);
    let mut input = std::io::empty();
    let mut io = regel::cli::Io {
        out: &mut out,
        err: &mut err,
        input: &mut input,
        color: false,
        root: None,
        term: false,
    };
    let args: Vec<String> = std::iter::once("regel")
        .chain(args.iter().copied())
        .map(String::from)
        .collect();
    let code = regel::cli::run(&args, &mut io);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

#[test]
fn regel_fmt_checks_rewrites_and_refuses_what_does_not_parse() {
    let dir = std::env::temp_dir().join(format!("regel-fmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let messy = dir.join("messy.rules");
    let tidy = dir.join("tidy.rules");
    let broken = dir.join("broken.rules");
    std::fs::write(&messy, "game \"g\"\nplayers 2\nplay {\nend  game\n}\n").unwrap();
    std::fs::write(&tidy, "game \"g\"\nplayers 2\nplay {\n  end game\n}\n").unwrap();
    std::fs::write(&broken, "game \"g\"\nplayers 2\nplay {\n  let = 1\n}\n").unwrap();
    let (m, t, b) = (
        messy.to_str().unwrap(),
        tidy.to_str().unwrap(),
        broken.to_str().unwrap(),
    );

    // --check: nothing written, the file that would change listed, exit 1.
    let (code, out, _) = cli(&["fmt", "--check", m, t]);
    assert_eq!(code, 1);
    assert!(
        out.contains(&format!("would reformat: {m}")) && !out.contains(t),
        "{out}"
    );
    assert!(std::fs::read_to_string(&messy)
        .unwrap()
        .contains("end  game"));
    assert_eq!(cli(&["fmt", "--check", t]).0, 0);

    // Without --check the file is rewritten, and then it is in the layout.
    let (code, out, _) = cli(&["fmt", m]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        std::fs::read_to_string(&messy).unwrap(),
        std::fs::read_to_string(&tidy).unwrap()
    );
    assert_eq!(cli(&["fmt", "--check", m]).0, 0);

    // A file that does not parse is left alone, its syntax error shown.
    let (code, out, err) = cli(&["fmt", b]);
    assert_eq!(code, 1);
    assert!(
        out.contains("does not parse") && err.contains("E0101"),
        "{out}{err}"
    );
    assert!(std::fs::read_to_string(&broken)
        .unwrap()
        .contains("let = 1"));
    std::fs::remove_dir_all(&dir).unwrap();
}
