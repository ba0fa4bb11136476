//! Coverage checks (issue 26): known distributions are sampled with a seeded
//! generator, and the 95 % intervals must cover the true difference in about
//! 95 % of trials — neither much less (overconfident) nor nearly always
//! (useless). Seeded and a few hundred thousand draws: deterministic and fast.

use super::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const TRIALS: usize = 2000;

/// The share of `TRIALS` trials whose interval covered `truth`.
fn coverage(seed: u64, truth: f64, mut trial: impl FnMut(&mut ChaCha8Rng) -> Paired) -> f64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let hits = (0..TRIALS)
        .filter(|_| {
            let p = trial(&mut rng);
            p.difference.low <= truth && truth <= p.difference.high
        })
        .count();
    hits as f64 / TRIALS as f64
}

/// A standard normal draw (Box–Muller).
fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let u: f64 = rng.gen::<f64>().max(f64::MIN_POSITIVE);
    let v: f64 = rng.gen();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// Pairs of yes/no outcomes: (variant only, base only, both) with these chances.
fn binary_pairs(rng: &mut ChaCha8Rng, n: usize, up: f64, down: f64, both: f64) -> Paired {
    let (mut b, mut v) = (vec![], vec![]);
    for _ in 0..n {
        let u: f64 = rng.gen();
        let (x, y) = if u < up {
            (0.0, 1.0)
        } else if u < up + down {
            (1.0, 0.0)
        } else if u < up + down + both {
            (1.0, 1.0)
        } else {
            (0.0, 0.0)
        };
        b.push(x);
        v.push(y);
    }
    paired(Kind::Proportion, &b, &v)
}

fn assert_near_95(what: &str, c: f64) {
    assert!((0.93..=0.975).contains(&c), "{what}: coverage {c}");
}

#[test]
fn t_intervals_cover_a_normal_mean_difference() {
    // Paired games whose shared luck cancels: base ~ N(40, 10), the
    // variant adds 1.5 plus noise of its own.
    for (seed, n) in [(1, 10), (2, 40), (3, 200)] {
        let c = coverage(seed, 1.5, |rng| {
            let (mut b, mut v) = (vec![], vec![]);
            for _ in 0..n {
                let x = 40.0 + 10.0 * normal(rng);
                b.push(x);
                v.push(x + 1.5 + 2.0 * normal(rng));
            }
            paired(Kind::Mean, &b, &v)
        });
        assert_near_95(&format!("normal, {n} pairs"), c);
    }
}

#[test]
fn t_intervals_cover_a_skewed_count_difference() {
    // Differences from a skewed distribution (exponential, mean 3) over 100 pairs.
    let c = coverage(4, 3.0, |rng| {
        let b = vec![0.0; 100];
        let v: Vec<f64> = (0..100)
            .map(|_| -3.0 * (1.0 - rng.gen::<f64>()).ln())
            .collect();
        paired(Kind::Mean, &b, &v)
    });
    assert_near_95("exponential", c);
}

#[test]
fn score_intervals_cover_paired_proportions_common_and_rare() {
    // A win rate moving from 45 % to 50 % in 300 pairs; and a rare event:
    // a tie the variant adds in 1 % of games and removes in 0.3 %.
    let c = coverage(5, 0.05, |rng| binary_pairs(rng, 300, 0.15, 0.10, 0.35));
    assert_near_95("common", c);
    let c = coverage(6, 0.007, |rng| binary_pairs(rng, 500, 0.01, 0.003, 0.0));
    assert!((0.93..=0.99).contains(&c), "rare: coverage {c}");
    // Nothing changes at all: the interval still covers zero and has width.
    let p = binary_pairs(&mut ChaCha8Rng::seed_from_u64(7), 100, 0.0, 0.0, 0.5);
    assert_eq!((p.higher, p.lower, p.p), (0, 0, 1.0));
    let unseen = p.unseen.unwrap();
    assert!(p.difference.low < 0.0 && p.difference.high > 0.0);
    assert!((0.03..0.05).contains(&unseen), "{unseen}");
}

#[test]
fn a_rare_difference_is_not_called_clear_on_few_pairs() {
    // Two thousand pairs, four of which differ by +5: the t test alone would
    // reject; the sign test on four pairs cannot.
    let b = vec![7.0; 2000];
    let mut v = b.clone();
    for x in v.iter_mut().take(4) {
        *x += 5.0;
    }
    let p = paired(Kind::Mean, &b, &v);
    assert!(p.p > 0.05, "{p:?}");
    assert_eq!(p.differing(), 4);
    // None differ: nothing estimated, and what would have been seen is said.
    let p = paired(Kind::Mean, &b, &b);
    assert_eq!(p.p, 1.0);
    assert!((p.unseen.unwrap() - 3.69 / 2000.0).abs() < 1e-4);
}

#[test]
fn holm_adjusts_in_steps() {
    let a = holm(&[0.01, 0.04, 0.03, 0.5]);
    // Sorted 0.01, 0.03, 0.04, 0.5 → 0.04, 0.09, 0.09 (monotone), 0.5.
    let want = [0.04, 0.09, 0.09, 0.5];
    for (x, y) in a.iter().zip(want) {
        assert!((x - y).abs() < 1e-12, "{a:?}");
    }
}

#[test]
fn wilson_is_never_empty_at_zero() {
    let (lo, hi) = wilson(0, 100);
    assert_eq!(lo, 0.0);
    assert!((hi - 0.037).abs() < 0.001, "{hi}");
}
