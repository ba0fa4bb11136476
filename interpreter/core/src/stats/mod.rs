//! Paired comparisons of two rulesets' measures, as `regel compare` (and a
//! browser page) reports them: **entry: [`paired`]**, with [`holm`] for many
//! measures at once and [`one_side`] for each side's own value. Pure
//! arithmetic on slices: no IO, no randomness.
//!
//! What the intervals promise, and why these ones:
//!
//! - A measure that is a yes/no per game (a seat wins, a game ties) is a
//!   paired proportion. Its difference gets Tango's score interval, which
//!   keeps its 95 % coverage for rare events and never has zero width: when
//!   no pair differs it still says how large a difference could have gone
//!   unseen. Its p-value is McNemar's exact test on the pairs that differ.
//! - Any other measure gets Student's t interval of the mean difference. A
//!   t interval is only as good as the number of pairs that differ, so its
//!   p-value is the larger of the t test's and an exact sign test's on those
//!   pairs: a difference seen in four pairs out of two thousand is not called
//!   clear, however small its spread.
//! - Each side's own rate gets a Wilson interval, its own mean a t interval.
//! - When no pair differs at all, nothing is estimated: the report says so,
//!   with the largest share of pairs (or difference in rate) that would have
//!   been seen 95 % of the time.
//!
//! `stats/coverage_tests.rs` simulates known distributions and checks that
//! the 95 % intervals cover the truth about 95 % of the time.

#[cfg(test)]
mod coverage_tests;
pub mod dist;

use serde::Serialize;

/// The two-sided level of every interval: 95 %.
pub const ALPHA: f64 = 0.05;

/// The normal quantile of a 95 % two-sided interval.
const Z: f64 = 1.959_963_984_540_054;

/// How a measure is counted per game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// 0 or 1 in each game (on both sides of every pair).
    Proportion,
    /// Any number.
    Mean,
}

/// A value with its 95 % interval, which need not be symmetric.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    pub mean: f64,
    pub low: f64,
    pub high: f64,
}

impl Estimate {
    /// The larger distance from the mean to an end of the interval.
    pub fn half(&self) -> f64 {
        (self.high - self.mean).max(self.mean - self.low)
    }
}

/// The difference a variant makes over paired games (variant − base).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Paired {
    pub pairs: usize,
    /// The mean difference and its 95 % interval.
    pub difference: Estimate,
    /// Pairs where the variant's value is higher, and lower.
    pub higher: usize,
    pub lower: usize,
    /// The two-sided p-value of "the variant changes nothing on average".
    pub p: f64,
    /// When no pair differs: the smallest difference that would have been
    /// seen with 95 % probability — in rate for a proportion, as a share of
    /// pairs changed for a mean.
    pub unseen: Option<f64>,
}

impl Paired {
    pub fn differing(&self) -> usize {
        self.higher + self.lower
    }
}

/// The paired comparison of `base[i]` and `variant[i]` (slices of equal length).
pub fn paired(kind: Kind, base: &[f64], variant: &[f64]) -> Paired {
    let n = base.len().min(variant.len());
    let d: Vec<f64> = (0..n).map(|i| variant[i] - base[i]).collect();
    let higher = d.iter().filter(|&&x| x > 0.0).count();
    let lower = d.iter().filter(|&&x| x < 0.0).count();
    let sign = dist::sign_test(higher, higher + lower);
    match kind {
        Kind::Proportion => {
            let (low, high) = tango(n, higher, lower);
            let mean = if n == 0 {
                0.0
            } else {
                (higher as f64 - lower as f64) / n as f64
            };
            Paired {
                pairs: n,
                difference: Estimate { mean, low, high },
                higher,
                lower,
                p: sign,
                unseen: (higher + lower == 0).then(|| high.max(-low)),
            }
        }
        Kind::Mean => {
            let difference = t_interval(&d);
            let p_t = t_p(&d);
            Paired {
                pairs: n,
                difference,
                higher,
                lower,
                p: p_t.max(sign),
                unseen: (higher + lower == 0).then(|| none_seen(n)),
            }
        }
    }
}

/// One side's own value: a Wilson interval for a proportion, else a t interval.
pub fn one_side(kind: Kind, x: &[f64]) -> Estimate {
    match kind {
        Kind::Proportion => {
            let k = x.iter().filter(|&&v| v > 0.5).count();
            let (low, high) = wilson(k, x.len());
            Estimate {
                mean: if x.is_empty() {
                    0.0
                } else {
                    k as f64 / x.len() as f64
                },
                low,
                high,
            }
        }
        Kind::Mean => t_interval(x),
    }
}

/// Holm's step-down adjustment of p-values for testing them all at once: the
/// family-wise chance of any false "clear" stays at most the level.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..p.len()).collect();
    // Ties keep their index order, so the result is deterministic.
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]).then(a.cmp(&b)));
    let m = p.len();
    let mut out = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p[i]).min(1.0));
        out[i] = running;
    }
    out
}

/// The largest share of pairs that could change with none of `n` seen
/// changed, at 95 % (the exact Clopper–Pearson upper bound for 0 of n; about
/// 3.7 / n).
pub fn none_seen(n: usize) -> f64 {
    if n == 0 {
        1.0
    } else {
        1.0 - (ALPHA / 2.0).powf(1.0 / n as f64)
    }
}

/// Wilson's score interval for `k` successes in `n` trials.
pub fn wilson(k: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = Z * Z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    // At 0 or n the interval ends exactly at 0 or 1 (rounding would miss it).
    let low = if k == 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if k == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (low, high)
}

/// Student's t interval of a mean; infinite with fewer than two values.
fn t_interval(x: &[f64]) -> Estimate {
    let n = x.len();
    let mean = if n == 0 {
        0.0
    } else {
        x.iter().sum::<f64>() / n as f64
    };
    if n < 2 {
        return Estimate {
            mean,
            low: f64::NEG_INFINITY,
            high: f64::INFINITY,
        };
    }
    let half = dist::t_critical(ALPHA, (n - 1) as f64) * std_err(x, mean);
    Estimate {
        mean,
        low: mean - half,
        high: mean + half,
    }
}

fn std_err(x: &[f64], mean: f64) -> f64 {
    let n = x.len() as f64;
    let var = x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0);
    (var / n).sqrt()
}

/// The t test's two-sided p-value for a mean of zero.
fn t_p(d: &[f64]) -> f64 {
    let n = d.len();
    if n < 2 {
        return 1.0;
    }
    let mean = d.iter().sum::<f64>() / n as f64;
    let se = std_err(d, mean);
    if se == 0.0 {
        // Every difference equal: none at all, or the same one in every
        // pair (then the sign test decides).
        return if mean == 0.0 { 1.0 } else { 0.0 };
    }
    dist::t_two_sided(mean / se, (n - 1) as f64)
}

/// Tango's score interval (1998) for the difference of paired proportions:
/// `n` pairs, `up` with a yes for the variant only, `down` with a yes for the
/// base only (the concordant pairs enter only through `n`). Every Δ whose score statistic
/// is within ±1.96 is in the interval; the statistic falls as Δ grows, so
/// each end is found by bisection.
fn tango(n: usize, up: usize, down: usize) -> (f64, f64) {
    if n == 0 {
        return (-1.0, 1.0);
    }
    let (nf, b, c) = (n as f64, up as f64, down as f64);
    let score = |delta: f64| -> f64 {
        // The restricted maximum-likelihood share of "base only" pairs
        // given Δ, the positive root of 2n q² − B q − c Δ (1 − Δ) = 0.
        let bb = (b + c) + (b - c) * delta - 2.0 * nf * delta;
        let q = (bb
            + (bb * bb + 8.0 * nf * c * delta * (1.0 - delta))
                .max(0.0)
                .sqrt())
            / (4.0 * nf);
        let var = nf * (2.0 * q + delta * (1.0 - delta));
        let num = b - c - nf * delta;
        if var <= 0.0 {
            // Only where the data leave no doubt: the sign of the distance.
            return if num == 0.0 {
                0.0
            } else {
                num.signum() * f64::INFINITY
            };
        }
        num / var.sqrt()
    };
    let est = (b - c) / nf;
    let edge = |target_sign: f64| -> f64 {
        // From the estimate towards ±1: the last Δ with |score| ≤ z.
        let end = target_sign * (1.0 - 1e-12);
        if score(end).abs() <= Z {
            return target_sign;
        }
        let (mut inside, mut outside) = (est, end);
        for _ in 0..100 {
            let mid = 0.5 * (inside + outside);
            if score(mid).abs() <= Z {
                inside = mid;
            } else {
                outside = mid;
            }
        }
        inside
    };
    (edge(-1.0), edge(1.0))
}
