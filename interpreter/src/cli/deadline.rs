//! `--deadline SECONDS`: a wall-clock limit on the rules' work for one
//! decision, for hosts where a person waits (a terminal, an editor, a page).
//!
//! The engine reads no clock (the core does no IO); it looks at a flag every
//! `eval::INTERRUPT_EVERY` steps ([`Match::set_interrupt`]). Here a timer
//! thread sets that flag once a decision has run longer than the deadline:
//! the command arms the timer before each decision and disarms it after, so
//! a person's thinking time and a bot's search never count.

use crate::bot::seeded::DecisionClock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The longest deadline accepted, in seconds (a day): larger numbers are a
/// mistake, and `Duration` would overflow on absurd ones.
pub const MAX_DEADLINE_SECS: f64 = 86_400.0;

/// Parses `--deadline`: a positive number of seconds, at most a day.
pub fn parse(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !(v > 0.0 && v <= MAX_DEADLINE_SECS) {
        return Err(format!(
            "the deadline must be more than 0 and at most {MAX_DEADLINE_SECS} seconds"
        ));
    }
    Ok(v)
}

/// A timer for one match. Dropping it stops its thread.
pub struct Deadline {
    flag: Arc<AtomicBool>,
    /// When the running decision started, in milliseconds since `epoch`
    /// plus one; 0 while no decision runs.
    armed: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    epoch: Instant,
    thread: Option<JoinHandle<()>>,
}

impl Deadline {
    /// A timer of `seconds`, or none when no deadline is asked for; give its
    /// [`flag`](Deadline::flag) to the match it times.
    pub fn new(seconds: Option<f64>) -> Option<Deadline> {
        let limit = Duration::from_secs_f64(seconds?);
        let flag = Arc::new(AtomicBool::new(false));
        let armed = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let epoch = Instant::now();
        let (f, a, s) = (flag.clone(), armed.clone(), stop.clone());
        // Look ten times per deadline, at most every 10 ms.
        let tick = (limit / 10).min(Duration::from_millis(10));
        let thread = std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                std::thread::sleep(tick);
                let since = a.load(Ordering::Relaxed);
                let now = epoch.elapsed().as_millis() as u64 + 1;
                if since != 0 && now.saturating_sub(since) >= limit.as_millis() as u64 {
                    f.store(true, Ordering::Relaxed);
                }
            }
        });
        Some(Deadline {
            flag,
            armed,
            stop,
            epoch,
            thread: Some(thread),
        })
    }
}

impl DecisionClock for Deadline {
    /// The flag the timer sets (`Match::set_interrupt`).
    fn flag(&self) -> Arc<AtomicBool> {
        self.flag.clone()
    }

    /// A decision starts: its clock starts now.
    fn arm(&self) {
        self.flag.store(false, Ordering::Relaxed);
        self.armed.store(
            self.epoch.elapsed().as_millis() as u64 + 1,
            Ordering::Relaxed,
        );
    }

    /// The decision has ended.
    fn disarm(&self) {
        self.armed.store(0, Ordering::Relaxed);
        self.flag.store(false, Ordering::Relaxed);
    }
}

impl Drop for Deadline {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
