//! Named blocks and `override block` (issue 24, item 8; rulesets/README.md,
//! "Variants"): a variant replaces one block of a body and nothing else, and
//! the base plays as it did before its block was named.

use regel::cli::{run, Io};
use regel::diag::Sources;
use std::io::Cursor;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `regel ARGS…`: its exit code and standard output.
fn cli(args: &[&str]) -> (i32, String) {
    let mut argv = vec!["regel".to_string()];
    argv.extend(args.iter().map(|s| s.to_string()));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut input = Cursor::new(Vec::new());
    let code = run(
        &argv,
        &mut Io {
            out: &mut out,
            err: &mut err,
            input: &mut input,
            color: false,
            root: Some(root()),
            term: false,
        },
    );
    let out = String::from_utf8(out).unwrap();
    (code, out + &String::from_utf8_lossy(&err))
}

/// `regel trace FILE --players N --seed S`: its standard output.
fn trace(file: &str, players: usize, seed: u64) -> String {
    let path = root().join(file).display().to_string();
    let (code, out) = cli(&[
        "trace",
        &path,
        "--players",
        &players.to_string(),
        "--seed",
        &seed.to_string(),
    ]);
    assert_eq!(code, 0, "{out}");
    out
}

/// `regel diff` goes inside the replaced block and names the variant's lines.
#[test]
fn diff_shows_the_replaced_block_alone() {
    let file = |f: &str| root().join(f).display().to_string();
    let (code, out) = cli(&[
        "diff",
        &file("rulesets/hasp/hasp.rules"),
        &file("rulesets/hasp/tie-splits.rules"),
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("in `block tie`"), "{out}");
    assert!(out.contains("+ for p in players { award(p) }"), "{out}");
    assert!(out.contains("tie-splits.rules line 9"), "{out}");
    assert!(out.contains("1 difference(s)"), "{out}");
}

/// HASP-8.2: on a tie on card points the announcer's side loses. The house
/// rule `tie-splits.rules` replaces only that branch (`block tie` of
/// `phase score_round`): in a seeded two-player game with one tie (seed 64)
/// the traces part exactly there, the tie's log line and its award, and the
/// final table; every other line is the base's.
#[test]
fn a_replaced_block_changes_only_its_branch() {
    let base = trace("rulesets/hasp/hasp.rules", 2, 64);
    let house = trace("rulesets/hasp/tie-splits.rules", 2, 64);
    let (b, h): (Vec<&str>, Vec<&str>) = (base.lines().collect(), house.lines().collect());
    let tie = b
        .iter()
        .position(|l| l.starts_with("tie on card points"))
        .expect("seed 64 has a tie on card points");
    assert_eq!(b[..tie], h[..tie], "the games agree up to the tie");
    assert_eq!(
        b[tie],
        "tie on card points: north announced the trump, so his side loses"
    );
    assert_eq!(h[tie], "tie on card points: every side scores (house rule)");
    // The announcer's side scores too under the house rule: one line more.
    assert!(h[tie + 1].starts_with("north scores 2"), "{}", h[tie + 1]);
    assert_eq!(b.len() + 1, h.len());
    let differ: Vec<usize> = (tie + 1..b.len()).filter(|&i| b[i] != h[i + 1]).collect();
    // Only the final table's line for north differs after the tie.
    assert_eq!(differ.len(), 1, "{differ:?}");
    assert!(b[differ[0]].contains("north"), "{}", b[differ[0]]);
}

/// Compiles `variant` over `base`, both served from memory: the program as text.
fn compile(base: &str, variant: &str) -> Result<String, String> {
    game(base, variant).map(|g| regel::ir::print::print(&g))
}

/// Compiles `variant` over `base`, both served from memory.
fn game(base: &str, variant: &str) -> Result<regel::ir::Game, String> {
    let (bp, vp) = (
        PathBuf::from("/m/base.rules"),
        PathBuf::from("/m/variant.rules"),
    );
    let (b, v) = (base.to_string(), variant.to_string());
    let (bq, vq) = (bp.clone(), vp.clone());
    let reader = move |p: &Path| -> std::io::Result<String> {
        if p == bq {
            Ok(b.clone())
        } else if p == vq {
            Ok(v.clone())
        } else {
            Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "not served",
            ))
        }
    };
    let mut sources = Sources::default();
    match regel::pipeline::compile(&mut sources, &reader, &vp, &regel::opt::Passes::all()) {
        Ok((g, _)) => Ok(g),
        Err(d) => Err(regel::diag::render(&sources, &d, false, 100)),
    }
}

const BASE: &str = r#"game "Blocks"
players 2
var total: int = 0
proc add(n: int) {
  let twice = n * 2
  if n > 0 {
    block bonus {
      total += twice
    }
  }
  block tail { }
}
play {
  add(1)
}
"#;

/// A replacement reads the body's parameters and the locals bound before
/// the block; a block nested in an `if` is found; an empty block may be filled.
#[test]
fn a_replacement_sees_the_body_around_it() {
    let v = "variant \"V\" extends \"base.rules\"\noverride block add.bonus {\n  total += twice + n\n}\noverride block add.tail {\n  total += 100\n}\n";
    let ir = compile(BASE, v).unwrap_or_else(|e| panic!("{e}"));
    // `twice` is the body's local 1 and `n` its parameter 0.
    assert!(ir.contains("total += (l1 + l0)"), "{ir}");
    assert!(ir.contains("total += 100"), "{ir}");
    assert!(!ir.contains("total += l1\n"), "{ir}");
}

/// A block's `let`s are its own: a name bound inside is unknown after it.
#[test]
fn a_block_is_a_scope() {
    let base = "game \"S\"\nplayers 2\nvar t: int = 0\nplay {\n  block b {\n    let x = 1\n  }\n  t = x\n}\n";
    let v = "variant \"V\" extends \"base.rules\"\n";
    let e = compile(base, v).unwrap_err();
    assert!(e.contains("E0231") && e.contains("unknown name `x`"), "{e}");
}

/// A leading block of `require`s only is a legality filter, so a variant
/// that replaces it changes which options are offered.
#[test]
fn a_leading_block_of_requires_filters_options() {
    let base = r#"game "Take"
players 2
seats first, second
var taken: int = 0
action take(n in 1..3) label "take {n}" {
  block legal {
    require n <= 2
  }
  taken += n
}
play { act first with take }
"#;
    let labels = |variant: &str| {
        let g = std::sync::Arc::new(game(base, variant).unwrap_or_else(|e| panic!("{e}")));
        let m = regel::eval::Match::new(g, &regel::eval::Setup::new(2, 1)).unwrap();
        m.option_labels()
    };
    assert_eq!(
        labels("variant \"V\" extends \"base.rules\"\n"),
        ["take 1", "take 2"]
    );
    let one =
        "variant \"V\" extends \"base.rules\"\noverride block take.legal {\n  require n >= 2\n}\n";
    assert_eq!(labels(one), ["take 2", "take 3"]);
}
