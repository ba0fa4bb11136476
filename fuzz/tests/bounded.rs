//! The bounded fuzz step CI runs on every push: a fixed number of inputs (on
//! up to two threads) or about 60 seconds, whichever comes first. Any panic
//! fails the test with its input number (regenerate it with `regel-fuzz
//! --start N --inputs 1`); a hang or runaway memory aborts the test binary
//! through the watchdog.

use regel_fuzz::{fuzz, quiet_panics, Corpus, Limits};
use std::path::Path;
use std::time::Duration;

#[test]
fn fuzz_for_a_minute() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let scratch = std::env::temp_dir().join(format!("regel-fuzz-test-{}", std::process::id()));
    let corpus = Corpus::load(root, &scratch);
    quiet_panics();
    // Both cores of a CI machine; the inputs run are the same on any number.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(2));
    let rep = fuzz(
        &corpus,
        0,
        0,
        20_000,
        Duration::from_secs(60),
        Limits::default(),
        threads,
        &|_| {},
    );
    let _ = std::fs::remove_dir_all(&scratch);
    let _ = std::panic::take_hook();
    println!(
        "fuzzed {} inputs (rules, boards, scenarios, records: {:?})",
        rep.inputs, rep.by_kind
    );
    assert!(
        rep.inputs > 100,
        "the fuzzer ran only {} inputs",
        rep.inputs
    );
    assert!(rep.panics.is_empty(), "panics (seed 0): {:#?}", rep.panics);
}
