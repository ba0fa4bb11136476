//! An in-process fuzzer for Regel, on stable Rust.
//!
//! The corpus is every shipped ruleset, example, board and scenario, and a
//! game record of each game. Input `i` of seed `s` is one corpus file with a
//! few random mutations (bytes flipped, inserted, deleted or duplicated,
//! hostile tokens such as `(` or `9223372036854775807` inserted, pieces of
//! other files spliced in, the tail cut off), always the same for the same
//! `(s, i)`, so a finding can be regenerated from its number.
//!
//! Each input goes through what a user would run: a ruleset or board is
//! checked and, if it checks, played with random decisions under a small step
//! budget, option labels and views rendered, every diagnostic rendered; a
//! scenario is run with `regel test`, a record with `regel replay`. A panic
//! is caught and reported with its input; a [`Watchdog`] aborts the process
//! when one input runs longer than [`Limits::time`] or the process holds more
//! than [`Limits::memory`] bytes.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use regel::diag::{render, Sources};
use regel::eval::{Match, Setup};
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What kind of file an input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Rules,
    Board,
    Scenario,
    Record,
}

/// One corpus file: its path relative to the workspace, and its text.
#[derive(Clone, Debug)]
pub struct Seed {
    pub kind: Kind,
    pub path: String,
    pub text: String,
}

/// The unmutated files, and a scratch copy of the workspace's games in which
/// scenarios and records run.
pub struct Corpus {
    pub seeds: Vec<Seed>,
    /// Every rules and board file by workspace-relative path (the in-memory
    /// file system of the checker).
    files: BTreeMap<String, String>,
    /// Which ruleset uses each board.
    board_users: BTreeMap<String, String>,
    scratch: PathBuf,
}

/// The bounds an input must stay within.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub time: Duration,
    pub memory: u64,
    /// Steps per match: small, so that fuzzing moves on quickly.
    pub budget: u64,
    /// Decisions per match.
    pub decisions: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { time: Duration::from_secs(10), memory: 2 << 30, budget: 200_000, decisions: 200 }
    }
}

/// Lexical normalisation (`a/b/../c` → `a/c`), so that the in-memory file
/// system finds `rulesets/x/../../maps/y.toml`.
fn normal(p: &Path) -> String {
    let mut out: Vec<String> = vec![];
    for c in p.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(s) => out.push(s.to_string_lossy().into_owned()),
            _ => {}
        }
    }
    out.join("/")
}

fn files_in(root: &Path, dir: &str, ext: &str, depth: usize) -> Vec<String> {
    let mut out = vec![];
    let Ok(rd) = std::fs::read_dir(root.join(dir)) else { return out };
    let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
        if p.is_dir() && depth > 0 {
            out.extend(files_in(root, &rel, ext, depth - 1));
        } else if rel.ends_with(ext) {
            out.push(rel);
        }
    }
    out
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        let t = to.join(e.file_name());
        if p.is_dir() {
            copy_tree(&p, &t);
        } else {
            std::fs::copy(&p, &t).unwrap();
        }
    }
}

/// Runs the command line in process; returns its exit code.
fn cli(args: &[&str], root: &Path) -> i32 {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut input = std::io::Cursor::new(Vec::new());
    let mut io = regel::cli::Io { out: &mut out, err: &mut err, input: &mut input, color: false, root: Some(root.to_path_buf()), term: false };
    let mut argv = vec!["regel".to_string()];
    argv.extend(args.iter().map(|s| s.to_string()));
    regel::cli::run(&argv, &mut io)
}

impl Corpus {
    /// Reads the corpus from the workspace at `root`; scenarios and records
    /// run in a copy of it under `scratch` (which is created).
    pub fn load(root: &Path, scratch: &Path) -> Corpus {
        let mut seeds = vec![];
        let mut files = BTreeMap::new();
        let mut board_users = BTreeMap::new();
        for dir in ["rulesets", "examples"] {
            for rel in files_in(root, dir, ".rules", 2) {
                let text = std::fs::read_to_string(root.join(&rel)).unwrap();
                if let Some(line) = text.lines().find(|l| l.starts_with("board \"")) {
                    let board = line.split('"').nth(1).unwrap_or_default();
                    let b = normal(&Path::new(&rel).parent().unwrap().join(board));
                    board_users.entry(b).or_insert(rel.clone());
                }
                files.insert(rel.clone(), text.clone());
                seeds.push(Seed { kind: Kind::Rules, path: rel, text });
            }
        }
        for rel in files_in(root, "maps", ".toml", 0) {
            let text = std::fs::read_to_string(root.join(&rel)).unwrap();
            files.insert(rel.clone(), text.clone());
            if board_users.contains_key(&rel) {
                seeds.push(Seed { kind: Kind::Board, path: rel, text });
            }
        }
        let _ = std::fs::remove_dir_all(scratch);
        for dir in ["rulesets", "examples", "maps"] {
            copy_tree(&root.join(dir), &scratch.join(dir));
        }
        for rel in files_in(root, "rulesets", ".toml", 2) {
            if rel.contains("/scenarios/") {
                let text = std::fs::read_to_string(root.join(&rel)).unwrap();
                seeds.push(Seed { kind: Kind::Scenario, path: rel, text });
            }
        }
        // One record of each shipped game, made by `regel simulate`.
        let recs = scratch.join("records");
        for (rel, players) in [("rulesets/hasp/hasp.rules", 2), ("rulesets/hansa/hansa.rules", 3), ("rulesets/auf-heller-und-pfennig/auf-heller-und-pfennig.rules", 2), ("examples/nim/nim.rules", 2)] {
            let d = recs.join(rel.replace('/', "_"));
            let f = scratch.join(rel).display().to_string();
            cli(&["simulate", &f, "--players", &players.to_string(), "--games", "1", "--threads", "1", "--records", &d.display().to_string()], scratch);
            for p in files_in(scratch, &d.strip_prefix(scratch).unwrap().display().to_string(), ".toml", 0) {
                let text = std::fs::read_to_string(scratch.join(&p)).unwrap();
                seeds.push(Seed { kind: Kind::Record, path: p, text });
            }
        }
        Corpus { seeds, files, board_users, scratch: scratch.to_path_buf() }
    }

    /// Input `i` of seed `seed`: a corpus file and its mutated text.
    pub fn input(&self, seed: u64, i: u64) -> (Seed, String) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ i);
        let s = &self.seeds[rng.gen_range(0..self.seeds.len())];
        let mut bytes = s.text.clone().into_bytes();
        let n = 1 + rng.gen_range(0..8u32).min(rng.gen_range(0..8u32));
        for _ in 0..n {
            mutate(&mut bytes, &mut rng, &self.seeds);
        }
        (s.clone(), String::from_utf8_lossy(&bytes).into_owned())
    }

    /// Runs one input. `Err` carries a panic's message.
    pub fn run(&self, seed: &Seed, text: &str, limits: &Limits) -> Result<(), String> {
        let r = catch_unwind(AssertUnwindSafe(|| match seed.kind {
            Kind::Rules => self.rules(&seed.path, Some(text), None, limits),
            Kind::Board => {
                let user = self.board_users[&seed.path].clone();
                self.rules(&user, None, Some((&seed.path, text)), limits)
            }
            Kind::Scenario | Kind::Record => {
                let name = if seed.kind == Kind::Scenario { "fuzz-scenario.toml" } else { "fuzz-record.toml" };
                let p = self.scratch.join(Path::new(&seed.path).parent().unwrap()).join(name);
                std::fs::write(&p, text).unwrap();
                let cmd = if seed.kind == Kind::Scenario { "test" } else { "replay" };
                cli(&[cmd, &p.display().to_string()], &self.scratch);
            }
        }));
        r.map_err(|e| e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_else(|| "a panic".into()))
    }

    /// Checks a ruleset (with one file replaced) and plays it.
    fn rules(&self, path: &str, rules: Option<&str>, board: Option<(&str, &str)>, limits: &Limits) {
        let read = |p: &Path| -> std::io::Result<String> {
            let n = normal(p);
            if let (Some(t), true) = (rules, n == path) {
                return Ok(t.to_string());
            }
            if let Some((b, t)) = board {
                if n == b {
                    return Ok(t.to_string());
                }
            }
            self.files.get(&n).cloned().ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"))
        };
        let mut sources = Sources::default();
        let (game, warnings) = match regel::check::check(&mut sources, &read, Path::new(path)) {
            Ok(ok) => ok,
            Err(d) => {
                render(&sources, &d, false, 80);
                return;
            }
        };
        render(&sources, &warnings, false, 80);
        let game = Arc::new(game);
        let mut rng = ChaCha8Rng::seed_from_u64(sources.files.len() as u64);
        let players = rng.gen_range(game.min_players..=game.max_players);
        let setup = Setup { players, seed: 0, options: vec![], budget: limits.budget, log: true };
        let mut m = match Match::new(game, &setup) {
            Ok(m) => m,
            Err(e) => {
                render(&sources, &[e.to_diagnostic(0)], false, 80);
                return;
            }
        };
        while let Some((seat, n)) = m.pending() {
            if m.state.decisions >= limits.decisions {
                break;
            }
            let labels = m.option_labels();
            if m.state.decisions % 16 == 0 {
                let _ = m.view(Some(seat)).to_text();
            }
            let i = rng.gen_range(0..n.max(1));
            let _ = labels;
            if let Err(e) = m.apply(i) {
                render(&sources, &[e.to_diagnostic(m.state.decisions)], false, 80);
                break;
            }
            m.take_log();
        }
        if m.is_over() {
            let _ = m.standings();
        }
    }
}

/// Hostile tokens: each has found, or could find, a limit.
const TOKENS: &[&str] = &[
    "(", ")", "{", "}", "[", "]", "\"", "#", "\n", " else if x { }", "9223372036854775807", "-9223372036854775808", "0", "-", "..", " / 0",
    " * 9223372036854775807", "{x}", "{{", "}}", "not ", "if ", " then ", " else ", "let x = ", "for x in 1..1000000 { }", "while true { }",
    "sum(x in 1..1000000: x)", "@", "..", "/", "/dev/zero", "../../../etc/passwd", "=", "\u{0}", "é", "\u{202e}", "x = 1\n", "[[", "]]",
    "count = 4294967297", "rows = 1000", "99999999999999999999",
    // Whole declarations that have broken the engine before.
    "\npiece selfish { v: int } in heap label \"me {it} {it}\" { 3 x { v: 1 } }\nzone heap: selfish public\n",
    "\nfn twice(n: int) -> int = if n <= 0 then 1 else twice(n - 1) + twice(n - 1)\n",
    "\nvar huge: int = 9223372036854775807\n", " += 9223372036854775807", " % -1", "-9223372036854775807 - 1",
    " label \"{it}\"", "sorted(x in 1..100000: 0 - x)", "distinct(x in 1..100000: x % 7)",
];

fn mutate(b: &mut Vec<u8>, rng: &mut ChaCha8Rng, seeds: &[Seed]) {
    let len = b.len();
    let at = if len == 0 { 0 } else { rng.gen_range(0..=len) };
    match rng.gen_range(0..9) {
        0 if len > 0 => {
            let i = rng.gen_range(0..len);
            b[i] ^= 1 << rng.gen_range(0..8);
        }
        1 => b.insert(at, rng.gen()),
        2 if len > 0 => {
            let end = (at + rng.gen_range(1..64)).min(len);
            b.drain(at.min(end)..end);
        }
        3 | 4 => {
            let t = TOKENS[rng.gen_range(0..TOKENS.len())].as_bytes();
            let times = if rng.gen_ratio(1, 8) { rng.gen_range(1..400) } else { 1 };
            for _ in 0..times {
                b.splice(at..at, t.iter().copied());
            }
        }
        5 if len > 0 => {
            let start = rng.gen_range(0..len);
            let end = (start + rng.gen_range(1..256)).min(len);
            let piece = b[start..end].to_vec();
            b.splice(at..at, piece);
        }
        6 => {
            let other = &seeds[rng.gen_range(0..seeds.len())].text.as_bytes();
            if !other.is_empty() {
                let start = rng.gen_range(0..other.len());
                let end = (start + rng.gen_range(1..512)).min(other.len());
                b.splice(at..at, other[start..end].iter().copied());
            }
        }
        7 => b.truncate(at),
        _ => {
            // A digit run replaced by a large or negative number.
            if let Some(i) = (at..len).find(|&i| b[i].is_ascii_digit()) {
                let n = [b"65536".as_slice(), b"4294967296", b"-1", b"1000000000000", b"9223372036854775807"][rng.gen_range(0..5)];
                b.splice(i..i + 1, n.iter().copied());
            }
        }
    }
}

/// Aborts the process when one input runs too long or memory grows too
/// large, after printing which input it was (a hang cannot be caught).
/// Time is the process's CPU time, not the wall clock: on a loaded machine
/// (CI, other jobs) an input that takes one second of CPU may take ten on
/// the clock, and that is not a hang.
pub struct Watchdog {
    epoch: Instant,
    started: Arc<AtomicU64>,
    current: Arc<Mutex<String>>,
}

fn rss_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/statm").ok().and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok()).map_or(0, |p| p * 4096)
}

/// The CPU time this process has used, in milliseconds (Linux; elsewhere the
/// wall clock since the watchdog started).
fn cpu_ms(epoch: Instant) -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").ok();
    // Fields after the command name (which may hold spaces): utime is the
    // 12th and stime the 13th of them, in clock ticks (100 per second).
    let ticks = stat.as_deref().and_then(|s| {
        let rest = &s[s.rfind(')')? + 2..];
        let f: Vec<&str> = rest.split_whitespace().collect();
        Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
    });
    ticks.map_or_else(|| epoch.elapsed().as_millis() as u64, |t| t * 10)
}

impl Watchdog {
    pub fn start(limits: Limits) -> Watchdog {
        let epoch = Instant::now();
        let started = Arc::new(AtomicU64::new(u64::MAX));
        let current = Arc::new(Mutex::new(String::new()));
        let (s, c) = (started.clone(), current.clone());
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(100));
            let t = s.load(Ordering::Relaxed);
            let now = cpu_ms(epoch);
            let hung = t != u64::MAX && now.saturating_sub(t) > limits.time.as_millis() as u64;
            let rss = rss_bytes();
            if hung || rss > limits.memory {
                let what = if hung { format!("HANG (> {:?} of CPU time)", limits.time) } else { format!("MEMORY ({rss} bytes)") };
                eprintln!("regel-fuzz: {what} on {}", c.lock().map(|x| x.clone()).unwrap_or_default());
                std::process::abort();
            }
        });
        Watchdog { epoch: epoch, started, current }
    }

    /// Marks the start of input `name`.
    pub fn begin(&self, name: &str) {
        if let Ok(mut c) = self.current.lock() {
            c.clear();
            c.push_str(name);
        }
        self.started.store(cpu_ms(self.epoch), Ordering::Relaxed);
    }

    pub fn end(&self) {
        self.started.store(u64::MAX, Ordering::Relaxed);
    }
}

/// Silences the default panic message (panics are reported with their input).
pub fn quiet_panics() {
    std::panic::set_hook(Box::new(|_| {}));
}

/// Figures of one run.
#[derive(Debug, Default, Clone)]
pub struct Report {
    pub inputs: u64,
    pub by_kind: [u64; 4],
    /// (input number, corpus file, panic message)
    pub panics: Vec<(u64, String, String)>,
}

/// Fuzzes inputs `start..start + count` of `seed`, stopping early after
/// `time`. `on_input` is told each input number before it runs.
pub fn fuzz(corpus: &Corpus, seed: u64, start: u64, count: u64, time: Duration, limits: Limits, mut on_input: impl FnMut(u64)) -> Report {
    let dog = Watchdog::start(limits);
    let t0 = Instant::now();
    let mut rep = Report::default();
    for i in start..start.saturating_add(count) {
        if t0.elapsed() > time {
            break;
        }
        on_input(i);
        let (s, text) = corpus.input(seed, i);
        dog.begin(&format!("seed {seed} input {i} ({})", s.path));
        if let Err(msg) = corpus.run(&s, &text, &limits) {
            rep.panics.push((i, s.path.clone(), msg));
        }
        dog.end();
        rep.inputs += 1;
        rep.by_kind[s.kind as usize] += 1;
    }
    rep
}
