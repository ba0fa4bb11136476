//! The layout on small inputs: each rule of the canonical layout once.

use super::format_source;

fn fmt(s: &str) -> String {
    let out = format_source(s).expect("the input parses");
    assert_eq!(
        format_source(&out).as_deref(),
        Some(out.as_str()),
        "idempotent"
    );
    out
}

#[test]
fn text_that_does_not_parse_is_refused() {
    assert_eq!(format_source("game \"x\"\nlet = 3\n"), None);
    assert_eq!(format_source("piece"), None);
}

#[test]
fn blocks_are_indented_two_spaces_per_brace() {
    let src = "game \"g\"\nplayers 2\nplay {\nif true {\nlog \"a\"\n} else {\n    log \"b\"\n      }\n}\n";
    assert_eq!(
        fmt(src),
        "game \"g\"\nplayers 2\nplay {\n  if true {\n    log \"a\"\n  } else {\n    log \"b\"\n  }\n}\n"
    );
}

#[test]
fn spaces_between_tokens_are_canonical() {
    let src = "game  \"g\"\nplayers 2..4\nvar  per player  score_:int=-1\nfn f( a:int , b :int )->int=a+ -b*(a-1)\nconst l = [ 1,2 ]\nconst m = l [1]\nplay { f(1,2)  ;  end game }\n";
    assert_eq!(
        fmt(src),
        "game \"g\"\nplayers 2..4\nvar per player score_: int = -1\nfn f(a: int, b: int) -> int = a + -b * (a - 1)\nconst l = [1, 2]\nconst m = l[1]\nplay { f(1, 2); end game }\n"
    );
}

#[test]
fn comments_and_their_distance_from_code_are_kept() {
    let src = "# header comment\ngame \"g\"   # the name\nplayers 2        # two\n\n\n\n# before play\nplay {\n# inside\nend game\n}\n";
    assert_eq!(
        fmt(src),
        "# header comment\ngame \"g\"   # the name\nplayers 2        # two\n\n\n# before play\nplay {\n  # inside\n  end game\n}\n"
    );
}

#[test]
fn continuation_lines_are_one_step_deeper_or_keep_their_alignment() {
    let src = "game \"g\"\nplayers 2\nfn f(a: int) -> int =\na + 1\nfn g(a: int) -> int = max(a,\n                          2)\nfn h(a: int) -> bool = a > 1\n          and a < 3\ninvariant \"small\"\n1 < 2\nplay {\nlet x = 1 +\n2\nend game\n}\n";
    assert_eq!(
        fmt(src),
        "game \"g\"\nplayers 2\nfn f(a: int) -> int =\n  a + 1\nfn g(a: int) -> int = max(a,\n                          2)\nfn h(a: int) -> bool = a > 1\n          and a < 3\ninvariant \"small\"\n  1 < 2\nplay {\n  let x = 1 +\n    2\n  end game\n}\n"
    );
}

#[test]
fn members_of_an_enumeration_are_not_continuations() {
    let src = "game \"g\"\nplayers 2\nenum hue {\nred,\ngreen \"Green\",\n}\npiece p per player { } label \"{owner}\" {\n2 x { }\n}\nplay { end game }\n";
    assert_eq!(
        fmt(src),
        "game \"g\"\nplayers 2\nenum hue {\n  red,\n  green \"Green\",\n}\npiece p per player { } label \"{owner}\" {\n  2 x { }\n}\nplay { end game }\n"
    );
}

#[test]
fn strings_are_kept_byte_for_byte() {
    let src = "game \"g\"\nplayers 2\nsummary \"two  lines,\n   the second indented {{ }\"\nplay {\nlog \"{if 1 == 1 then \"a\" else \"b\"}  x\"\nend game\n}\n";
    let out = fmt(src);
    assert!(out.contains("\"two  lines,\n   the second indented {{ }\""));
    assert!(out.contains("  log \"{if 1 == 1 then \"a\" else \"b\"}  x\""));
}

#[test]
fn a_display_keeps_its_parameter_and_move_all_its_space() {
    let src = "game \"g\"\nplayers 2\nvar per player n: int = 0\ndisplay \"n\" (p) = p.n\nzone z\nplay { move all (z) to z\nend game }\n";
    let out = fmt(src);
    assert!(out.contains("display \"n\"(p) = p.n"), "{out}");
    assert!(out.contains("move all (z) to z"), "{out}");
}
