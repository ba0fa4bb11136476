//! Where the fuzzer's time goes: runs inputs `0..N` of seed 1 (only those of
//! one kind, with `KIND=0..3`: rulesets, boards, scenarios, records) on one
//! thread and prints how many of each kind ran and their time, and the
//! slowest inputs. Wall-clock times mislead on a loaded machine; for figures
//! to compare, count CPU time or instructions instead:
//!
//! ```sh
//! cargo build --release -p regel-fuzz --examples
//! KIND=0 perf stat -e task-clock ./target/release/examples/profile 4000
//! KIND=0 valgrind --tool=callgrind ./target/release/examples/profile 700
//! ```

use regel_fuzz::{quiet_panics, Corpus, Kind, Limits};
use std::path::Path;
use std::time::Instant;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let scratch = std::env::temp_dir().join(format!("regel-fuzz-profile-{}", std::process::id()));
    let corpus = Corpus::load(root, &scratch);
    quiet_panics();
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let only: Option<usize> = std::env::var("KIND").ok().and_then(|k| k.parse().ok());
    let limits = Limits::default();
    let (mut count, mut secs) = ([0u64; regel_fuzz::KINDS], [0f64; regel_fuzz::KINDS]);
    let mut slow: Vec<(f64, u64, String)> = vec![];
    for i in 0..n {
        let input = corpus.input(1, i);
        let k = input.seed.kind as usize;
        if only.is_some_and(|o| o != k) {
            continue;
        }
        let t = Instant::now();
        let _ = corpus.run(&input, &limits);
        let d = t.elapsed().as_secs_f64();
        count[k] += 1;
        secs[k] += d;
        slow.push((d, i, input.seed.path));
    }
    for k in Kind::ALL {
        let (c, s) = (count[k as usize], secs[k as usize]);
        if c > 0 {
            println!(
                "{:10} {c:7} inputs {s:8.3} s {:8.3} ms each",
                k.name(),
                s * 1000.0 / c as f64
            );
        }
    }
    slow.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!("slowest:");
    for (d, i, path) in slow.iter().take(10) {
        println!("  {:8.1} ms  input {i}  {path}", d * 1000.0);
    }
    let _ = std::fs::remove_dir_all(&scratch);
}
