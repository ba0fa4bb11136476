//! `regel ir`: the compiled program of every example, before the passes
//! (`--passes none`) and after them (`--passes all`), as snapshots. Reading a
//! pair shows what each rewrite did to a plainly written game; a change to a
//! pass shows up here as a reviewed diff.

use regel::diag::Sources;
use regel::opt::Passes;
use std::path::Path;

const EXAMPLES: &[(&str, &str)] = &[
    ("tic-tac-toe", "tic-tac-toe/tic-tac-toe.rules"),
    ("connect-four", "connect-four/connect-four.rules"),
    ("breakthrough", "breakthrough/breakthrough.rules"),
    ("reversi", "reversi/reversi.rules"),
    ("nim", "nim/nim.rules"),
    ("yacht", "yacht/yacht.rules"),
];

fn program(rel: &str, passes: &Passes) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(rel);
    let mut sources = Sources::default();
    match regel::pipeline::compile(&mut sources, &regel::cli::read_file, &path, passes) {
        Ok((g, _)) => regel::ir::print::print(&g),
        Err(d) => panic!(
            "{rel} does not check:\n{}",
            regel::diag::render(&sources, &d, false, 100)
        ),
    }
}

#[test]
fn programs_before_and_after_the_passes() {
    for (name, rel) in EXAMPLES {
        let before = program(rel, &Passes::none());
        let after = program(rel, &Passes::all());
        assert_ne!(before, after, "{name}: the passes changed nothing");
        insta::assert_snapshot!(format!("{name}_passes_none"), before);
        insta::assert_snapshot!(format!("{name}_passes_all"), after);
    }
}

/// The command itself: a bad pass name is a usage error, and `--passes`
/// picks what runs.
#[test]
fn the_ir_command_takes_passes() {
    let file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/connect-four/connect-four.rules");
    let run = |args: &[&str]| {
        let mut out = vec![];
        let mut err = vec![];
        let mut input = std::io::Cursor::new(vec![]);
        let mut all = vec!["regel", "ir", file.to_str().unwrap()];
        all.extend(args);
        let argv: Vec<String> = all.iter().map(|s| s.to_string()).collect();
        let code = {
            let mut io = regel::cli::Io {
                out: &mut out,
                err: &mut err,
                input: &mut input,
                color: false,
                root: Some("/".into()),
                term: false,
            };
            regel::cli::run(&argv, &mut io)
        };
        (
            code,
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    };
    let (code, _, err) = run(&["--passes", "inlining"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown pass `inlining`"), "{err}");
    let (code, none, _) = run(&["--passes", "none"]);
    assert_eq!(code, 0);
    assert!(
        none.contains("fn#2 step(") && !none.contains("node-by-key"),
        "{none}"
    );
    let (_, some, _) = run(&["--passes", "searches,board-index"]);
    assert!(some.contains("node-by-key[(row, col)"), "{some}");
}
