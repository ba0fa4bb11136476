//! `regel-fuzz`: the long fuzz run (see the README, "Bounded execution").
//!
//! ```text
//! regel-fuzz [--seed S] [--start I] [--inputs N] [--seconds T] [--out DIR]
//! ```
//!
//! Runs inputs `I..I+N` of seed `S` (see `regel_fuzz::Corpus::input`) for at
//! most `T` seconds. It runs the inputs in a child process of itself, so that
//! an abort (a stack overflow, the watchdog's hang or memory limit) is
//! reported with its input, saved under `DIR`, and the run goes on after it.
//! Panics are caught in process and saved the same way.

use regel_fuzz::{fuzz, quiet_panics, Corpus, Limits};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn save(out: &Path, corpus: &Corpus, seed: u64, i: u64, why: &str) {
    let (s, text) = corpus.input(seed, i);
    let ext = Path::new(&s.path).extension().and_then(|e| e.to_str()).unwrap_or("txt");
    let _ = std::fs::create_dir_all(out);
    let f = out.join(format!("seed{seed}-input{i}.{ext}"));
    let _ = std::fs::write(&f, text);
    println!("FOUND input {i} ({}) → {}: {why}", s.path, f.display());
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = arg(&args, "--seed").and_then(|s| s.parse().ok()).unwrap_or(0);
    let start: u64 = arg(&args, "--start").and_then(|s| s.parse().ok()).unwrap_or(0);
    let inputs: u64 = arg(&args, "--inputs").and_then(|s| s.parse().ok()).unwrap_or(u64::MAX);
    let seconds: u64 = arg(&args, "--seconds").and_then(|s| s.parse().ok()).unwrap_or(60);
    let out = PathBuf::from(arg(&args, "--out").unwrap_or_else(|| "fuzz-findings".into()));
    let scratch = std::env::temp_dir().join(format!("regel-fuzz-{}", std::process::id()));
    let corpus = Corpus::load(&workspace(), &scratch);
    if args.iter().any(|a| a == "--child") {
        // The child: report each input's number before running it.
        quiet_panics();
        let stdout = std::io::stdout();
        let rep = fuzz(&corpus, seed, start, inputs, Duration::from_secs(seconds), Limits::default(), |i| {
            let mut o = stdout.lock();
            let _ = writeln!(o, "{i}");
            let _ = o.flush();
        });
        for (i, _, msg) in &rep.panics {
            println!("PANIC {i} {msg}");
        }
        let _ = std::fs::remove_dir_all(&scratch);
        return;
    }
    let t0 = Instant::now();
    let (mut next, end) = (start, start.saturating_add(inputs));
    let (mut done, mut found) = (0u64, 0u64);
    while next < end && t0.elapsed() < Duration::from_secs(seconds) {
        let left = seconds.saturating_sub(t0.elapsed().as_secs()).max(1);
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["--child", "--seed", &seed.to_string(), "--start", &next.to_string(), "--inputs", &(end - next).to_string(), "--seconds", &left.to_string()])
            .stdout(Stdio::piped())
            .spawn()
            .expect("the fuzzer starts itself");
        let mut last = None;
        for line in BufReader::new(child.stdout.take().unwrap()).lines().map_while(Result::ok) {
            if let Some(rest) = line.strip_prefix("PANIC ") {
                let (i, msg) = rest.split_once(' ').unwrap_or((rest, ""));
                save(&out, &corpus, seed, i.parse().unwrap_or(0), &format!("panic: {msg}"));
                found += 1;
            } else if let Ok(i) = line.parse::<u64>() {
                last = Some(i);
                done += 1;
                if done % 100_000 == 0 {
                    eprintln!("regel-fuzz: {done} inputs in {:.0} s", t0.elapsed().as_secs_f64());
                }
            }
        }
        let status = child.wait().unwrap();
        match (status.success(), last) {
            (true, _) => break,
            (false, Some(i)) => {
                save(&out, &corpus, seed, i, &format!("the process died ({status})"));
                found += 1;
                next = i + 1;
            }
            (false, None) => break,
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    println!("regel-fuzz: seed {seed}, inputs {start}..{}, {done} run in {:.0} s, {found} finding(s)", start + done, t0.elapsed().as_secs_f64());
    if found > 0 {
        std::process::exit(1);
    }
}
