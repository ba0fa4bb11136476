//! `subsets(C)` as an action parameter's domain and a `choose`'s
//! collection (rulesets/README.md, "Subsets"): exact options with twins
//! counted once, size bounds, labels, the chosen set as a collection in the
//! body, typed options, the same options with the passes off, and the limit
//! on the number of sets.

use regel::diag::Sources;
use regel::eval::typed::Value;
use regel::eval::{Match, Setup};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A match of two players on `rules` (served from memory), seed 1, logging on.
fn start(rules: &str, passes: &regel::opt::Passes) -> Result<Match, String> {
    let path = PathBuf::from("/memory/game.rules");
    let (text, served) = (rules.to_string(), path.clone());
    let reader = move |p: &Path| -> std::io::Result<String> {
        if p == served {
            Ok(text.clone())
        } else {
            Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "not served",
            ))
        }
    };
    let mut sources = Sources::default();
    let game = match regel::pipeline::compile(&mut sources, &reader, &path, passes) {
        Ok((g, _)) => Arc::new(g),
        Err(d) => panic!(
            "check failed:\n{}",
            regel::diag::render(&sources, &d, false, 100)
        ),
    };
    let mut setup = Setup::new(2, 1);
    setup.log = true;
    Match::new(game, &setup).map_err(|e| e.message)
}

fn all() -> regel::opt::Passes {
    regel::opt::Passes::all()
}

const COINS: &str = r#"
game "Coins"
players 2
piece coin per player { value: int } in purse label "{value}" {
  2 x { value: 1 }
  1 x { value: 2 }
}
zone per player purse: coin
zone pot: coin
var paid: int = 0

action pay(coins in subsets(actor.purse)) {
  paid = sum(c in coins: c.value)
  move all coins to pot
  log "{count(coins)} coins: {coins}, 2 among them: {any(c in coins: c.value == 2)}"
}

play {
  act p1 with pay
}
"#;

#[test]
fn twin_pieces_make_each_multiset_once() {
    for passes in [all(), regel::opt::Passes::none()] {
        let m = start(COINS, &passes).unwrap();
        assert_eq!(
            m.option_labels(),
            [
                "pay nothing",
                "pay 1",
                "pay 2",
                "pay 1 and 1",
                "pay 1 and 2",
                "pay 1, 1 and 2"
            ]
        );
    }
}

#[test]
fn the_chosen_set_is_a_collection_in_the_body() {
    let mut m = start(COINS, &all()).unwrap();
    m.apply_label("pay 1 and 2").unwrap();
    assert!(m.is_over());
    let log = m.state.log.join("\n");
    assert!(
        log.contains("2 coins: 1 and 2, 2 among them: true"),
        "{log}"
    );
    let mut m = start(COINS, &all()).unwrap();
    m.apply_label("pay nothing").unwrap();
    let log = m.state.log.join("\n");
    assert!(
        log.contains("0 coins: nothing, 2 among them: false"),
        "{log}"
    );
}

#[test]
fn typed_options_give_the_set_as_a_list_of_pieces() {
    let m = start(COINS, &all()).unwrap();
    let opts = m.options_data();
    let o = opts.iter().find(|o| o.label == "pay 1 and 1").unwrap();
    assert_eq!(o.action.as_deref(), Some("pay"));
    let p = &o.params[0];
    assert_eq!(
        (p.name.as_str(), p.value.ty, p.value.of.as_deref()),
        ("coins", "list", Some("coin"))
    );
    let Value::List(items) = &p.value.value else {
        panic!("not a list: {:?}", p.value)
    };
    let values: Vec<String> = items
        .iter()
        .map(|t| match &t.value {
            Value::Piece(pc) => pc.label.clone(),
            v => panic!("not a piece: {v:?}"),
        })
        .collect();
    assert_eq!(values, ["1", "1"]);
}

/// A `choose` among sets of numbers, with the bounds given.
fn choose(coll: &str) -> Result<Match, String> {
    start(
        &format!(
            "game \"Numbers\"\nplayers 2\nvar total: int = 0\nplay {{\n  let xs = choose p1 from {coll}\n  total = sum(xs)\n  log \"{{xs}} make {{total}}\"\n}}\n"
        ),
        &all(),
    )
}

#[test]
fn equal_numbers_are_twins_and_bounds_are_inclusive() {
    let m = choose("subsets([1, 1, 2])").unwrap();
    assert_eq!(
        m.option_labels(),
        ["nothing", "1", "2", "1 and 1", "1 and 2", "1, 1 and 2"]
    );
    let m = choose("subsets([1, 1, 2, 3], 2..3)").unwrap();
    assert_eq!(
        m.option_labels(),
        [
            "1 and 1",
            "1 and 2",
            "1 and 3",
            "2 and 3",
            "1, 1 and 2",
            "1, 1 and 3",
            "1, 2 and 3"
        ]
    );
    // Bounds past the collection's size leave what there is.
    let m = choose("subsets(1..3, 3..9)").unwrap();
    assert!(m.is_over(), "one set of three: taken without asking");
    assert!(m.state.log.join("\n").contains("1, 2 and 3 make 6"));
    let m = choose("subsets([4, 5] where it > 4) where count(it) == 1").unwrap();
    assert!(m.is_over());
    assert!(m.state.log.join("\n").contains("5 make 5"));
}

#[test]
fn the_number_of_sets_is_bounded() {
    // Sixteen different numbers: every one of their 65,536 sets is offered.
    let m = choose("subsets(1..16)").unwrap();
    assert_eq!(m.option_labels().len(), 65_536);
    // Seventeen: an error before anything is listed.
    let e = choose("subsets(1..17)").err().unwrap();
    assert!(e.contains("more than 65536 subsets"), "{e}");
    // Bounds make large collections usable: 64 elements, one at a time.
    let m = choose("subsets(1..64, 1..1)").unwrap();
    assert_eq!(m.option_labels().len(), 64);
    let e = choose("subsets(1..65 where it > 0, 1..1)").err().unwrap();
    assert!(e.contains("`subsets` of 65 elements"), "{e}");
}
