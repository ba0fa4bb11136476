//! Random playouts per second on one thread: `cargo bench --bench playouts`.
//!
//! Each iteration plays one complete game from a fresh match with uniform
//! random choices (the bots' generator is separate from the match's). The
//! group `playouts` lists every decision's options; `drawn` draws them
//! (`Match::sampled_playout_at_most`, as `simulate --sampling draw`):
//! `cargo bench --bench playouts -- drawn/reversi`. The
//! game is checked once, outside the measurement; a match costs only its
//! state. Throughput is reported as games (elements) per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use regel::diag::Sources;
use regel::eval::{Match, Setup};
use regel::ir::Game;
use std::path::Path;
use std::sync::Arc;

/// The checked game, or `None` (said on stderr) for a ruleset that does not
/// check yet, so that one draft does not stop the other games' figures.
fn load(path: &str) -> Option<Arc<Game>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut sources = Sources::default();
    match regel::pipeline::compile(
        &mut sources,
        &regel::cli::read_file,
        &root.join(path),
        &regel::opt::Passes::all(),
    ) {
        Ok((g, _)) => Some(Arc::new(g)),
        Err(d) => {
            eprintln!(
                "skipped: {path} does not check ({} problem(s); `regel check {path}`)",
                d.len()
            );
            None
        }
    }
}

fn bench_game(c: &mut Criterion, name: &str, path: &str, players: usize, options: &[(&str, i64)]) {
    for drawn in [false, true] {
        bench_playouts(c, name, path, players, options, drawn);
    }
}

fn bench_playouts(
    c: &mut Criterion,
    name: &str,
    path: &str,
    players: usize,
    options: &[(&str, i64)],
    drawn: bool,
) {
    let Some(game) = load(path) else { return };
    let mut group = c.benchmark_group(if drawn { "drawn" } else { "playouts" });
    group.throughput(Throughput::Elements(1));
    group.sample_size(20);
    let mut seed = 0u64;
    let mut bot = ChaCha8Rng::seed_from_u64(7);
    group.bench_function(format!("{name}/{players}p"), |b| {
        b.iter(|| {
            seed += 1;
            let mut setup = Setup::new(players, seed);
            setup.options = options.iter().map(|(k, v)| (k.to_string(), *v)).collect();
            let mut m = Match::new(game.clone(), &setup).expect("match starts");
            if drawn {
                m.sampled_playout_at_most(&mut bot, u32::MAX)
                    .expect("game runs to its end");
                m.state.decisions
            } else {
                m.playout(&mut bot).expect("game runs to its end")
            }
        })
    });
    group.finish();
}

/// Every example and every shipped game. One game alone: `cargo bench --bench
/// playouts -- reversi`.
fn playouts(c: &mut Criterion) {
    let ahup = "rulesets/auf-heller-und-pfennig/auf-heller-und-pfennig.rules";
    bench_game(c, "auf-heller-und-pfennig", ahup, 4, &[]);
    bench_game(c, "auf-heller-und-pfennig", ahup, 2, &[]);
    bench_game(c, "hasp", "rulesets/hasp/hasp.rules", 4, &[]);
    bench_game(c, "hansa", "rulesets/hansa/hansa.rules", 4, &[]);
    let ht = "rulesets/hansa-teutonica/hansa-teutonica.rules";
    bench_game(c, "hansa-teutonica", ht, 3, &[]);
    bench_game(c, "hansa-teutonica", ht, 5, &[]);
    for (name, path) in [
        ("tic-tac-toe", "examples/tic-tac-toe/tic-tac-toe.rules"),
        ("connect-four", "examples/connect-four/connect-four.rules"),
        ("breakthrough", "examples/breakthrough/breakthrough.rules"),
        ("reversi", "examples/reversi/reversi.rules"),
        ("nim", "examples/nim/nim.rules"),
        ("nim-misere", "examples/nim/misere.rules"),
        ("yacht", "examples/yacht/yacht.rules"),
        (
            "route-builder",
            "examples/route-builder/route-builder.rules",
        ),
        ("coin-auction", "examples/coin-auction/coin-auction.rules"),
    ] {
        bench_game(c, name, path, 2, &[]);
    }
}

criterion_group!(benches, playouts);
criterion_main!(benches);
