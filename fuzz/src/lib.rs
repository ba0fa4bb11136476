//! An in-process fuzzer for Regel, on stable Rust.
//!
//! The corpus is every shipped ruleset, example, board and scenario, and a
//! game record of each game. Input `i` of seed `s` is one corpus file with a
//! few random mutations (bytes flipped, inserted, deleted or duplicated,
//! hostile tokens such as `(` or `9223372036854775807` inserted, pieces of
//! other files spliced in, the tail cut off), always the same for the same
//! `(s, i)`, so a finding can be regenerated from its number. The kind of
//! file is drawn first, by [`MIX`], then a file of that kind: the kinds are
//! fuzzed in fixed proportions whatever the number of files of each.
//!
//! Each input goes through what a user would run: a ruleset or board is
//! checked and, if it checks, played with random decisions under a small step
//! budget, option labels and views rendered, every diagnostic rendered; a
//! scenario is run with `regel test`; a record is replayed, most often in
//! process against its ruleset checked once at start (see [`Corpus::run`]),
//! one in [`FULL_REPLAY`] with `regel replay`. A panic is caught and reported
//! with its input; a [`Watchdog`] aborts the process when one input runs
//! longer than [`Limits::time`] of its thread's CPU time or the process
//! holds more than [`Limits::memory`] bytes. [`fuzz`] runs inputs on several
//! threads.

mod targets;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use regel::cli::record::Record;
use regel::diag::{render, Sources};
use regel::eval::{Match, Setup};
use regel::ir::Game;
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What kind of file an input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Rules,
    Board,
    Scenario,
    Record,
    /// A mutated game's ruleset run by a command line drawn from every
    /// command and flag (simulate with MCTS seats, statistics, coverage and
    /// records; compare; draw; trace; check), with hostile flag values.
    Command,
    /// A mutated record read, written and read again (it must come back
    /// the same), and a record made of hostile values written and read.
    RoundTrip,
}

/// How many kinds there are.
pub const KINDS: usize = 6;

impl Kind {
    pub const ALL: [Kind; KINDS] = [
        Kind::Rules,
        Kind::Board,
        Kind::Scenario,
        Kind::Record,
        Kind::Command,
        Kind::RoundTrip,
    ];
    pub fn name(self) -> &'static str {
        [
            "rulesets",
            "boards",
            "scenarios",
            "records",
            "commands",
            "round trips",
        ][self as usize]
    }
}

/// How often each kind is drawn, in parts of 100 (rules, boards, scenarios,
/// records, commands, round trips). Hostile rulesets are what the fuzzer is
/// for, and a mutated ruleset or record costs a fraction of a board or
/// scenario (which re-check a whole game's rules), so those two are drawn
/// most; a command plays whole games and costs most of all.
pub const MIX: [u32; KINDS] = [38, 8, 12, 24, 10, 8];

/// One record input in this many is replayed with `regel replay` (reading
/// the record and ruleset from disk, checking the ruleset); the others are
/// replayed in process against the ruleset checked once at start.
pub const FULL_REPLAY: u32 = 8;

/// Seed records are cut to this many decisions.
pub const RECORD_DECISIONS: usize = 300;

/// One corpus file: its path relative to the workspace, and its text.
#[derive(Clone, Debug)]
pub struct Seed {
    pub kind: Kind,
    pub path: String,
    pub text: String,
}

/// A mutated corpus file, ready to run.
#[derive(Clone, Debug)]
pub struct Input {
    pub seed: Seed,
    pub text: String,
    /// For a record: replay it with the command line rather than in process.
    pub full: bool,
}

/// A record's game, checked once: the record's own `ruleset` string, the
/// game and its sources (for rendering run-time errors).
struct Replayable {
    ruleset: String,
    game: Arc<Game>,
    sources: Sources,
}

/// The unmutated files, and a scratch copy of the workspace's games in which
/// scenarios and records run.
pub struct Corpus {
    pub seeds: Vec<Seed>,
    /// Indices into `seeds` by kind.
    by_kind: [Vec<usize>; KINDS],
    /// Every rules and board file by workspace-relative path (the in-memory
    /// file system of the checker).
    files: BTreeMap<String, String>,
    /// Which ruleset uses each board.
    board_users: BTreeMap<String, String>,
    /// Each record seed's checked game, by the record's path.
    replayable: BTreeMap<String, Replayable>,
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
        Limits {
            time: Duration::from_secs(10),
            memory: 2 << 30,
            budget: 200_000,
            decisions: 200,
        }
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
    let Ok(rd) = std::fs::read_dir(root.join(dir)) else {
        return out;
    };
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
    let mut io = regel::cli::Io {
        out: &mut out,
        err: &mut err,
        input: &mut input,
        color: false,
        root: Some(root.to_path_buf()),
        term: false,
    };
    let mut argv = vec!["regel".to_string()];
    argv.extend(args.iter().map(|s| s.to_string()));
    regel::cli::run(&argv, &mut io)
}

/// The checker's view of the in-memory file system: every corpus file by
/// its normalised path, with `over` (a path and its mutated text) in place
/// of the original.
fn read_in<'a>(
    files: &'a BTreeMap<String, String>,
    over: &'a [(&'a str, &'a str)],
) -> impl Fn(&Path) -> std::io::Result<String> + 'a {
    move |p: &Path| {
        let n = normal(p);
        if let Some((_, t)) = over.iter().find(|(o, _)| *o == n) {
            return Ok(t.to_string());
        }
        files
            .get(&n)
            .cloned()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"))
    }
}

thread_local! {
    /// A number per thread, so that threads write their scratch files under
    /// different names.
    static SCRATCH_NAME: u64 = {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        NEXT.fetch_add(1, Ordering::Relaxed)
    };
}

impl Corpus {
    /// Reads the corpus from the workspace at `root`; scenarios and records
    /// run in a copy of it under `scratch` (which is created).
    pub fn load(root: &Path, scratch: &Path) -> Corpus {
        let mut seeds = vec![];
        let mut files = BTreeMap::new();
        let mut board_users = BTreeMap::new();
        let mut games = vec![];
        for dir in ["rulesets", "examples"] {
            for rel in files_in(root, dir, ".rules", 2) {
                let text = std::fs::read_to_string(root.join(&rel)).unwrap();
                if let Some(line) = text.lines().find(|l| l.starts_with("board \"")) {
                    let board = line.split('"').nth(1).unwrap_or_default();
                    let b = normal(&Path::new(&rel).parent().unwrap().join(board));
                    board_users.entry(b).or_insert(rel.clone());
                }
                // A game's main file is named after its folder.
                let p = Path::new(&rel);
                if p.file_stem() == p.parent().and_then(|d| d.file_name()) {
                    games.push(rel.clone());
                }
                files.insert(rel.clone(), text.clone());
                if p.file_stem() == p.parent().and_then(|d| d.file_name()) {
                    seeds.push(Seed {
                        kind: Kind::Command,
                        path: rel.clone(),
                        text: text.clone(),
                    });
                }
                seeds.push(Seed {
                    kind: Kind::Rules,
                    path: rel,
                    text,
                });
            }
        }
        for rel in files_in(root, "maps", ".toml", 0) {
            let text = std::fs::read_to_string(root.join(&rel)).unwrap();
            files.insert(rel.clone(), text.clone());
            if board_users.contains_key(&rel) {
                seeds.push(Seed {
                    kind: Kind::Board,
                    path: rel,
                    text,
                });
            }
        }
        let _ = std::fs::remove_dir_all(scratch);
        for dir in ["rulesets", "examples", "maps"] {
            copy_tree(&root.join(dir), &scratch.join(dir));
        }
        for dir in ["rulesets", "examples"] {
            for rel in files_in(root, dir, ".toml", 2) {
                if rel.contains("/scenarios/") {
                    let text = std::fs::read_to_string(root.join(&rel)).unwrap();
                    seeds.push(Seed {
                        kind: Kind::Scenario,
                        path: rel,
                        text,
                    });
                }
            }
        }
        // One record of each game (its smallest number of players), made by
        // `regel simulate`; its ruleset is checked once here for the
        // in-process replays.
        let mut replayable = BTreeMap::new();
        for rel in games {
            let mut sources = Sources::default();
            let Ok((game, _)) = regel::pipeline::compile(
                &mut sources,
                &read_in(&files, &[]),
                Path::new(&rel),
                &regel::opt::Passes::all(),
            ) else {
                continue;
            };
            let d = scratch.join("records").join(rel.replace('/', "_"));
            let f = scratch.join(&rel).display().to_string();
            cli(
                &[
                    "simulate",
                    &f,
                    "--players",
                    &game.min_players.to_string(),
                    "--games",
                    "1",
                    "--threads",
                    "1",
                    "--records",
                    &d.display().to_string(),
                ],
                scratch,
            );
            let game = Arc::new(game);
            for p in files_in(
                scratch,
                &d.strip_prefix(scratch).unwrap().display().to_string(),
                ".toml",
                0,
            ) {
                let text = std::fs::read_to_string(scratch.join(&p)).unwrap();
                let mut rec = Record::from_toml(&mut Sources::default(), &p, &text)
                    .expect("simulate writes valid records");
                // A random game can be thousands of decisions long; its first
                // ones are as good a seed and far cheaper to replay.
                if rec.decisions.len() > RECORD_DECISIONS {
                    rec.decisions.truncate(RECORD_DECISIONS);
                    rec.deciders.truncate(RECORD_DECISIONS);
                    rec.scores = None;
                }
                let text = rec.to_toml();
                replayable.insert(
                    p.clone(),
                    Replayable {
                        ruleset: rec.ruleset,
                        game: game.clone(),
                        sources: sources.clone(),
                    },
                );
                seeds.push(Seed {
                    kind: Kind::RoundTrip,
                    path: p.clone(),
                    text: text.clone(),
                });
                seeds.push(Seed {
                    kind: Kind::Record,
                    path: p,
                    text,
                });
            }
        }
        let mut by_kind: [Vec<usize>; KINDS] = Default::default();
        for (i, s) in seeds.iter().enumerate() {
            by_kind[s.kind as usize].push(i);
        }
        Corpus {
            seeds,
            by_kind,
            files,
            board_users,
            replayable,
            scratch: scratch.to_path_buf(),
        }
    }

    /// Input `i` of seed `seed`: a corpus file and its mutated text.
    pub fn input(&self, seed: u64, i: u64) -> Input {
        let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ i);
        let mut pick = rng.gen_range(0..MIX.iter().sum::<u32>());
        let mut kind = 0;
        while pick >= MIX[kind] || self.by_kind[kind].is_empty() {
            pick = pick.saturating_sub(MIX[kind]);
            kind = (kind + 1) % KINDS;
        }
        let of_kind = &self.by_kind[kind];
        let s = &self.seeds[of_kind[rng.gen_range(0..of_kind.len())]];
        let mut bytes = s.text.clone().into_bytes();
        let n = 1 + rng.gen_range(0..8u32).min(rng.gen_range(0..8u32));
        for _ in 0..n {
            mutate(&mut bytes, &mut rng, &self.seeds);
        }
        let full = rng.gen_ratio(1, FULL_REPLAY);
        Input {
            seed: s.clone(),
            text: String::from_utf8_lossy(&bytes).into_owned(),
            full,
        }
    }

    /// Runs one input. `Err` carries a panic's message.
    pub fn run(&self, input: &Input, limits: &Limits) -> Result<(), String> {
        let (seed, text) = (&input.seed, input.text.as_str());
        let r = catch_unwind(AssertUnwindSafe(|| match seed.kind {
            Kind::Rules => self.rules(&seed.path, &[(&seed.path, text)], limits),
            Kind::Board => self.rules(&self.board_users[&seed.path], &[(&seed.path, text)], limits),
            Kind::Record if !input.full => self.replay(seed, text, limits),
            Kind::Scenario | Kind::Record => self.command(seed, text),
            Kind::Command => self.flags(seed, text),
            Kind::RoundTrip => targets::round_trip(text),
        }));
        r.map_err(|e| {
            e.downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a panic".into())
        })
    }

    /// Runs `regel test` on a scenario or `regel replay` on a record, written
    /// beside the file it was mutated from.
    fn command(&self, seed: &Seed, text: &str) {
        let (cmd, name) = if seed.kind == Kind::Scenario {
            ("test", "fuzz-scenario")
        } else {
            ("replay", "fuzz-record")
        };
        let n = SCRATCH_NAME.with(|n| *n);
        let p = self
            .scratch
            .join(Path::new(&seed.path).parent().unwrap())
            .join(format!("{name}-{n}.toml"));
        std::fs::write(&p, text).unwrap();
        cli(&[cmd, &p.display().to_string()], &self.scratch);
    }

    /// Replays a record in process against its game, checked once: what
    /// `regel replay` does after reading the ruleset. A record whose ruleset,
    /// options or player count were mutated goes to `regel replay` instead,
    /// which reads and checks what it names.
    fn replay(&self, seed: &Seed, text: &str, limits: &Limits) {
        let r = &self.replayable[&seed.path];
        let mut sources = Sources::default();
        let rec = match Record::from_toml(&mut sources, "fuzz-record.toml", text) {
            Ok(rec) => rec,
            Err(d) => {
                render(&sources, &[d], false, 80);
                return;
            }
        };
        if rec.ruleset != r.ruleset
            || !rec.options.is_empty()
            || !(r.game.min_players..=r.game.max_players).contains(&rec.players)
        {
            return self.command(seed, text);
        }
        let setup = Setup {
            players: rec.players,
            seed: rec.seed,
            options: vec![],
            budget: limits.budget,
            log: false,
        };
        let mut m = match Match::new(r.game.clone(), &setup) {
            Ok(m) => m,
            Err(e) => {
                render(&r.sources, &[e.to_diagnostic(0)], false, 80);
                return;
            }
        };
        for label in &rec.decisions {
            if let Err(e) = m.apply_label(label) {
                render(&r.sources, &[e.to_diagnostic(m.state.decisions)], false, 80);
                return;
            }
        }
        if m.is_over() {
            let _ = m.standings();
            let _ = m.view(None).to_text();
        }
    }

    /// Writes a mutated game's ruleset beside its original and runs a
    /// command line drawn for it (see `targets::argv`).
    fn flags(&self, seed: &Seed, text: &str) {
        let n = SCRATCH_NAME.with(|n| *n);
        let dir = self.scratch.join(Path::new(&seed.path).parent().unwrap());
        let file = dir.join(format!("fuzz-command-{n}.rules"));
        std::fs::write(&file, text).unwrap();
        let records = self.scratch.join(format!("records-of-commands-{n}"));
        let mut rng = targets::rng_of(text);
        let args = targets::argv(
            &mut rng,
            &file.display().to_string(),
            &self.scratch.join(&seed.path).display().to_string(),
            &records.display().to_string(),
        );
        let args: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        cli(&args, &self.scratch);
        // Records a run wrote are replayed, as a user would.
        if let Ok(rd) = std::fs::read_dir(&records) {
            for e in rd.flatten().take(2) {
                cli(&["replay", &e.path().display().to_string()], &self.scratch);
            }
            let _ = std::fs::remove_dir_all(&records);
        }
    }

    /// Checks the ruleset at `path` with the files in `over` replaced, and
    /// plays it.
    fn rules(&self, path: &str, over: &[(&str, &str)], limits: &Limits) {
        let read = read_in(&self.files, over);
        let mut sources = Sources::default();
        let (game, warnings) = match regel::pipeline::compile(
            &mut sources,
            &read,
            Path::new(path),
            &regel::opt::Passes::all(),
        ) {
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
        let setup = Setup {
            players,
            seed: 0,
            options: vec![],
            budget: limits.budget,
            log: true,
        };
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
            let _ = m.option_labels();
            if m.state.decisions % 16 == 0 {
                let _ = m.view(Some(seat)).to_text();
            }
            let i = rng.gen_range(0..n.max(1));
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
    // Statistics whose means once wrapped, and draw's text.
    "\nstatistic huge(p) = 9223372036854775807\n", "\nstatistic low = -9223372036854775807 - 1\n",
    "\nstatistic s(p) = count(players)\n", " display \"<script>{it}</script>\"",
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
            let times = if rng.gen_ratio(1, 8) {
                rng.gen_range(1..400)
            } else {
                1
            };
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
                let n = [
                    b"65536".as_slice(),
                    b"4294967296",
                    b"-1",
                    b"1000000000000",
                    b"9223372036854775807",
                ][rng.gen_range(0..5)];
                b.splice(i..i + 1, n.iter().copied());
            }
        }
    }
}

/// Aborts the process when one input runs too long or memory grows too
/// large, after printing which input it was (a hang cannot be caught).
///
/// Time is the CPU time of the thread that runs the input, not the wall
/// clock: on a loaded machine (CI, other jobs) an input that takes one
/// second of CPU may take ten on the clock, and that is not a hang. Workers
/// only store their input's number in a [`Slot`] (one atomic store per
/// input); one watchdog thread samples the slots ten times a second, so the
/// watchdog costs nothing per input.
pub struct Watchdog {
    slots: Arc<Vec<Slot>>,
    stop: Arc<AtomicBool>,
}

/// What one worker thread is running.
struct Slot {
    /// The input's number, or `IDLE`.
    input: AtomicU64,
    /// The worker's Linux thread id, for its CPU time (0: unknown).
    tid: AtomicU64,
}

const IDLE: u64 = u64::MAX;

fn rss_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |p| p * 4096)
}

/// The calling thread's Linux thread id (0 elsewhere).
fn own_tid() -> u64 {
    std::fs::read_link("/proc/thread-self")
        .ok()
        .and_then(|p| p.file_name()?.to_str()?.parse().ok())
        .unwrap_or(0)
}

/// The CPU time thread `tid` of this process has used, in milliseconds
/// (Linux; `None` elsewhere).
fn thread_cpu_ms(tid: u64) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/self/task/{tid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces): utime is the
    // 12th and stime the 13th of them, in clock ticks (100 per second).
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    Some((f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?) * 10)
}

impl Watchdog {
    /// A watchdog for `workers` threads fuzzing seed `seed`.
    pub fn start(limits: Limits, workers: usize, seed: u64) -> Watchdog {
        let slots: Arc<Vec<Slot>> = Arc::new(
            (0..workers)
                .map(|_| Slot {
                    input: AtomicU64::new(IDLE),
                    tid: AtomicU64::new(0),
                })
                .collect(),
        );
        let stop = Arc::new(AtomicBool::new(false));
        let (sl, st) = (slots.clone(), stop.clone());
        std::thread::spawn(move || {
            let epoch = Instant::now();
            // Per slot: the input last seen and the thread's CPU time (or the
            // clock, where CPU time is unknown) when it was first seen.
            let mut seen: Vec<(u64, u64)> = vec![(IDLE, 0); sl.len()];
            while !st.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                for (k, slot) in sl.iter().enumerate() {
                    let input = slot.input.load(Ordering::Relaxed);
                    if input == IDLE {
                        seen[k].0 = IDLE;
                        continue;
                    }
                    let tid = slot.tid.load(Ordering::Relaxed);
                    let now =
                        thread_cpu_ms(tid).unwrap_or_else(|| epoch.elapsed().as_millis() as u64);
                    if seen[k].0 != input {
                        seen[k] = (input, now);
                    } else if now.saturating_sub(seen[k].1) > limits.time.as_millis() as u64 {
                        eprintln!(
                            "regel-fuzz: HANG (> {:?} of CPU time) on seed {seed} input {input}",
                            limits.time
                        );
                        std::process::abort();
                    }
                }
                let rss = rss_bytes();
                if rss > limits.memory {
                    let running: Vec<u64> = sl
                        .iter()
                        .map(|s| s.input.load(Ordering::Relaxed))
                        .filter(|&i| i != IDLE)
                        .collect();
                    eprintln!(
                        "regel-fuzz: MEMORY ({rss} bytes) on seed {seed}, inputs {running:?}"
                    );
                    std::process::abort();
                }
            }
        });
        Watchdog { slots, stop }
    }

    /// Registers the calling thread as worker `k`.
    fn register(&self, k: usize) {
        self.slots[k].tid.store(own_tid(), Ordering::Relaxed);
    }

    /// Marks the start of input `i` on worker `k`.
    fn begin(&self, k: usize, i: u64) {
        self.slots[k].input.store(i, Ordering::Relaxed);
    }

    fn end(&self, k: usize) {
        self.slots[k].input.store(IDLE, Ordering::Relaxed);
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
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
    pub by_kind: [u64; KINDS],
    /// (input number, corpus file, panic message), by input number.
    pub panics: Vec<(u64, String, String)>,
}

/// What [`fuzz`] tells its caller, from any worker thread.
#[derive(Clone, Copy, Debug)]
pub enum Event {
    /// Input `i` is about to run.
    Start(u64),
    /// Input `i`, of this kind, has run (panic or not).
    Done(u64, Kind),
}

/// The stack of each worker thread: that of a program's main thread, where
/// `regel` runs rules.
const WORKER_STACK: usize = 8 << 20;

/// Fuzzes inputs `start..start + count` of `seed` on `threads` threads,
/// stopping early after `time`. `on` is told when each input starts and ends.
#[allow(clippy::too_many_arguments)]
pub fn fuzz(
    corpus: &Corpus,
    seed: u64,
    start: u64,
    count: u64,
    time: Duration,
    limits: Limits,
    threads: usize,
    on: &(dyn Fn(Event) + Sync),
) -> Report {
    let threads = threads.max(1);
    let dog = Watchdog::start(limits, threads, seed);
    let t0 = Instant::now();
    let end = start.saturating_add(count);
    let next = AtomicU64::new(start);
    let total = Mutex::new(Report::default());
    std::thread::scope(|scope| {
        for k in 0..threads {
            let (dog, next, total) = (&dog, &next, &total);
            std::thread::Builder::new()
                .stack_size(WORKER_STACK)
                .spawn_scoped(scope, move || {
                    dog.register(k);
                    let mut rep = Report::default();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= end || t0.elapsed() > time {
                            break;
                        }
                        on(Event::Start(i));
                        dog.begin(k, i);
                        let input = corpus.input(seed, i);
                        if let Err(msg) = corpus.run(&input, &limits) {
                            rep.panics.push((i, input.seed.path.clone(), msg));
                        }
                        dog.end(k);
                        on(Event::Done(i, input.seed.kind));
                        rep.inputs += 1;
                        rep.by_kind[input.seed.kind as usize] += 1;
                    }
                    let mut t = total.lock().unwrap();
                    t.inputs += rep.inputs;
                    for (a, b) in t.by_kind.iter_mut().zip(rep.by_kind) {
                        *a += b;
                    }
                    t.panics.extend(rep.panics);
                })
                .expect("a worker thread starts");
        }
    });
    let mut rep = total.into_inner().unwrap();
    rep.panics.sort();
    rep
}
