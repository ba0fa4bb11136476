//! `regel-fuzz`: the long fuzz run (see the README, "Bounded execution").
//!
//! ```text
//! regel-fuzz [--seed S] [--start I] [--inputs N] [--seconds T] [--threads K]
//!            [--out DIR] [--progress FILE] [--workspace DIR]
//! ```
//!
//! Runs inputs `I..I+N` of seed `S` (see `regel_fuzz::Corpus::input`) on `K`
//! threads (default 1) for at most `T` seconds. It runs the inputs in a child
//! process of itself, so that an abort (a stack overflow, the watchdog's hang
//! or memory limit) is reported with its input, saved under `DIR`, and the run
//! goes on after it. Panics are caught in process and saved the same way.
//! Every ten seconds the figures so far (inputs per kind, rate, findings, the
//! child's peak memory) are written to `FILE`. The corpus is read from the
//! workspace `DIR` (default: the one the fuzzer was built in).

use regel_fuzz::{fuzz, quiet_panics, Corpus, Event, Kind, Limits};
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

/// The workspace whose games are the corpus: `--workspace DIR`, or the one
/// the fuzzer was built in.
fn workspace(args: &[String]) -> PathBuf {
    arg(args, "--workspace")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .parent()
                .unwrap()
                .to_path_buf()
        })
}

fn save(out: &Path, corpus: &Corpus, seed: u64, i: u64, why: &str) {
    let input = corpus.input(seed, i);
    let ext = Path::new(&input.seed.path)
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("txt");
    let _ = std::fs::create_dir_all(out);
    let f = out.join(format!("seed{seed}-input{i}.{ext}"));
    let _ = std::fs::write(&f, input.text);
    println!(
        "FOUND input {i} ({}) → {}: {why}",
        input.seed.path,
        f.display()
    );
}

/// The child: runs the inputs, and tells the parent on stdout when each one
/// starts (`s I`, flushed, so the parent knows what was running if the child
/// dies) and ends (`d I KIND`).
fn child(corpus: &Corpus, seed: u64, start: u64, inputs: u64, seconds: u64, threads: usize) {
    quiet_panics();
    let out = Mutex::new(BufWriter::new(std::io::stdout()));
    let rep = fuzz(
        corpus,
        seed,
        start,
        inputs,
        Duration::from_secs(seconds),
        Limits::default(),
        threads,
        &|e| {
            let mut o = out.lock().unwrap();
            let _ = match e {
                Event::Start(i) => writeln!(o, "s {i}").and_then(|_| o.flush()),
                Event::Done(i, k) => writeln!(o, "d {i} {}", k as usize),
            };
        },
    );
    let mut o = out.lock().unwrap();
    for (i, _, msg) in &rep.panics {
        let _ = writeln!(o, "PANIC {i} {}", msg.replace('\n', " "));
    }
    let _ = o.flush();
}

/// The peak resident memory of process `pid` so far, in bytes.
fn peak_rss(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? * 1024)
}

/// The figures of a run, as written to the progress file and at the end.
struct Figures {
    t0: Instant,
    done: u64,
    by_kind: [u64; regel_fuzz::KINDS],
    found: u64,
    peak: u64,
}

impl Figures {
    fn text(&self, command: &str) -> String {
        let secs = self.t0.elapsed().as_secs_f64();
        let kinds: Vec<String> = Kind::ALL
            .iter()
            .map(|k| format!("{} {}", k.name(), self.by_kind[*k as usize]))
            .collect();
        format!(
            "command: {command}\ninputs: {} ({})\nelapsed: {secs:.0} s, {:.1} inputs/s\nfindings: {}\npeak memory of a child: {} MB\n",
            self.done,
            kinds.join(", "),
            self.done as f64 / secs.max(1e-9),
            self.found,
            self.peak >> 20
        )
    }
}

/// Runs one child process on inputs `start..start + inputs` and reads its
/// reports. Returns whether it ended normally and the inputs it started but
/// did not finish.
#[allow(clippy::too_many_arguments)]
fn run_child(
    corpus: &Corpus,
    workspace: &Path,
    out: &Path,
    seed: u64,
    start: u64,
    inputs: u64,
    seconds: u64,
    threads: usize,
    fig: &mut Figures,
    progress: &mut dyn FnMut(&Figures),
) -> (bool, BTreeSet<u64>, u64) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--child",
            "--workspace",
            &workspace.display().to_string(),
            "--seed",
            &seed.to_string(),
            "--start",
            &start.to_string(),
            "--inputs",
            &inputs.to_string(),
            "--seconds",
            &seconds.to_string(),
            "--threads",
            &threads.to_string(),
        ])
        .stdout(Stdio::piped())
        .spawn()
        .expect("the fuzzer starts itself");
    let pid = child.id();
    let mut running = BTreeSet::new();
    let mut last = start;
    let mut tick = Instant::now();
    for line in BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map_while(Result::ok)
    {
        if let Some(rest) = line.strip_prefix("s ") {
            if let Ok(i) = rest.parse::<u64>() {
                running.insert(i);
                last = last.max(i);
            }
        } else if let Some(rest) = line.strip_prefix("d ") {
            let mut f = rest.split(' ').map(|x| x.parse::<u64>().unwrap_or(0));
            let (i, k) = (f.next().unwrap_or(0), f.next().unwrap_or(0) as usize);
            running.remove(&i);
            fig.done += 1;
            fig.by_kind[k.min(regel_fuzz::KINDS - 1)] += 1;
        } else if let Some(rest) = line.strip_prefix("PANIC ") {
            let (i, msg) = rest.split_once(' ').unwrap_or((rest, ""));
            save(
                out,
                corpus,
                seed,
                i.parse().unwrap_or(0),
                &format!("panic: {msg}"),
            );
            fig.found += 1;
        }
        if tick.elapsed() > Duration::from_secs(10) {
            fig.peak = fig.peak.max(peak_rss(pid).unwrap_or(0));
            progress(fig);
            tick = Instant::now();
        }
    }
    let status = child.wait().unwrap();
    (status.success(), running, last)
}

/// What `--help` prints.
const USAGE: &str = "regel-fuzz: mutated rulesets, boards, scenarios and records must never panic, hang or exhaust memory

Usage: regel-fuzz [--seed S] [--start I] [--inputs N] [--seconds T] [--threads K]
                  [--out DIR] [--progress FILE] [--workspace DIR]

  --seed S          the seed of the input sequence (default 0)
  --start I         the first input number (default 0)
  --inputs N        how many inputs to run (default: until --seconds)
  --seconds T       the longest the run may take (default 60)
  --threads K       threads running inputs (default 1)
  --out DIR         where findings are saved (default fuzz-findings)
  --progress FILE   figures so far, rewritten every ten seconds
  --workspace DIR   the checkout whose games are the corpus (default: the one built in)

Exit status: 0 with no findings, 1 with findings.";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return;
    }
    let seed: u64 = arg(&args, "--seed")
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let start: u64 = arg(&args, "--start")
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let inputs: u64 = arg(&args, "--inputs")
        .and_then(|s| s.parse().ok())
        .unwrap_or(u64::MAX);
    let seconds: u64 = arg(&args, "--seconds")
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let threads: usize = arg(&args, "--threads")
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let out = PathBuf::from(arg(&args, "--out").unwrap_or_else(|| "fuzz-findings".into()));
    let progress_file = arg(&args, "--progress").map(PathBuf::from);
    let scratch = std::env::temp_dir().join(format!("regel-fuzz-{}", std::process::id()));
    let corpus = Corpus::load(&workspace(&args), &scratch);
    if args.iter().any(|a| a == "--child") {
        child(&corpus, seed, start, inputs, seconds, threads);
        let _ = std::fs::remove_dir_all(&scratch);
        return;
    }
    let ws = workspace(&args);
    let command = args.join(" ");
    let mut fig = Figures {
        t0: Instant::now(),
        done: 0,
        by_kind: [0; regel_fuzz::KINDS],
        found: 0,
        peak: 0,
    };
    let mut progress = |f: &Figures| {
        if let Some(p) = &progress_file {
            let _ = std::fs::write(p, f.text(&command));
        }
    };
    let end = start.saturating_add(inputs);
    let mut next = start;
    while next < end && fig.t0.elapsed() < Duration::from_secs(seconds) {
        let left = seconds.saturating_sub(fig.t0.elapsed().as_secs()).max(1);
        let (ok, running, last) = run_child(
            &corpus,
            &ws,
            &out,
            seed,
            next,
            end - next,
            left,
            threads,
            &mut fig,
            &mut progress,
        );
        if ok {
            break;
        }
        if running.is_empty() {
            eprintln!("regel-fuzz: the child process died between inputs; stopping");
            break;
        }
        // Each input that was running when the child died is run again on
        // its own, so that the finding names the one that kills the process.
        for &i in &running {
            let (alone, ..) =
                run_child(&corpus, &ws, &out, seed, i, 1, 60, 1, &mut fig, &mut |_| {});
            if !alone || running.len() == 1 {
                save(
                    &out,
                    &corpus,
                    seed,
                    i,
                    if alone {
                        "the process died (not when run alone)"
                    } else {
                        "the process died"
                    },
                );
                fig.found += 1;
                fig.done += 1;
                fig.by_kind[corpus.input(seed, i).seed.kind as usize] += 1;
            }
        }
        next = last + 1;
    }
    let _ = std::fs::remove_dir_all(&scratch);
    progress(&fig);
    print!("{}", fig.text(&command));
    if fig.found > 0 {
        std::process::exit(1);
    }
}
