//! `regel play`: humans and bots in the terminal.
//!
//! A human seat is shown only its own view of the position and its own legal
//! options, and answers with an option's number or label. Bots use only what
//! their seat may know (see `crate::bot`). The match log is omniscient (it may name a secretly drawn
//! tile), so it is never shown here; a bot's decision is announced without its
//! label (a label may describe something only the bot may see), and the human
//! sees its effect in the next view.

use super::record::Record;
use super::replay::{run_diag, standings_text, start, Started};
use super::simulate::bot_seed;
use super::Io;
use crate::bot::{SeatKind, Table};
use crate::diag;
use std::path::PathBuf;

pub struct Args {
    pub file: PathBuf,
    pub players: usize,
    pub seed: u64,
    pub seats: Vec<String>,
    pub bot: Option<String>,
    pub options: Vec<String>,
    pub record: Option<PathBuf>,
    pub step_budget: u64,
}

fn seat_kinds(a: &Args) -> Result<Vec<SeatKind>, String> {
    let others = match &a.bot {
        Some(b) => match SeatKind::parse(b)? {
            SeatKind::Human => return Err("`--bot` names a bot: `random`, `mcts` or `mcts:ITERATIONS`".into()),
            k => k,
        },
        None => SeatKind::Random,
    };
    if a.seats.is_empty() {
        return Ok((0..a.players).map(|i| if i == 0 { SeatKind::Human } else { others }).collect());
    }
    if a.seats.len() > a.players {
        return Err(format!("{} `--seat`s given for {} players", a.seats.len(), a.players));
    }
    let mut k: Vec<SeatKind> = a.seats.iter().map(|s| SeatKind::parse(s)).collect::<Result<_, _>>()?;
    // Seats not named are bots.
    k.resize(a.players, others);
    Ok(k)
}

const HELP: &str = "\
Type the number of an option (1, 2, …) or its label exactly as shown, then Enter.
Other commands:
  ?, help     this help and the options again
  view        the position again, as you see it
  quit        leave the game (it is not finished)
";

/// What a human answered.
enum Answer {
    Option(usize),
    Leave(i32),
}

fn show_options(labels: &[String], io: &mut Io) {
    let _ = write!(io.out, "{}", options_text(labels));
}

/// The numbered options, in columns when there are many.
pub(super) fn options_text(labels: &[String]) -> String {
    let w = labels.len().to_string().len();
    let cells: Vec<String> = labels.iter().enumerate().map(|(i, l)| format!("{:>w$}) {l}", i + 1)).collect();
    let cw = cells.iter().map(|c| c.chars().count()).max().unwrap_or(0) + 3;
    let cols = if labels.len() > 12 { (96 / cw).max(1) } else { 1 };
    let rows = labels.len().div_ceil(cols);
    let mut s = String::new();
    for r in 0..rows {
        s.push_str("  ");
        for c in 0..cols {
            let Some(cell) = cells.get(c * rows + r) else { continue };
            if c + 1 < cols && cells.get((c + 1) * rows + r).is_some() {
                s.push_str(&format!("{cell:<cw$}"));
            } else {
                s.push_str(cell);
            }
        }
        s.push('\n');
    }
    s
}

/// Asks a human seat for a decision until it gives a legal one (or leaves).
fn ask(m: &crate::eval::Match, seat: usize, io: &mut Io) -> Answer {
    let g = &m.game;
    let name = &g.seats[seat];
    let labels = m.option_labels();
    let n = labels.len();
    let _ = writeln!(io.out, "\n== decision {}: {name} to play ==", m.state.decisions + 1);
    let view = m.view(Some(seat)).to_text();
    let _ = write!(io.out, "{view}");
    let _ = writeln!(io.out, "your options:");
    show_options(&labels, io);
    loop {
        let _ = write!(io.out, "{name}> ");
        let _ = io.out.flush();
        let mut line = String::new();
        match io.input.read_line(&mut line) {
            Ok(0) => {
                let _ = writeln!(io.out);
                let _ = writeln!(io.err, "end of input: the game is left unfinished");
                return Answer::Leave(3);
            }
            Ok(_) => {}
            Err(e) => {
                let _ = writeln!(io.err, "error: cannot read the answer: {e}");
                return Answer::Leave(3);
            }
        }
        let t = line.trim();
        match t {
            "" => continue,
            "?" | "help" => {
                let _ = write!(io.out, "{HELP}");
                let _ = writeln!(io.out, "your options:");
                show_options(&labels, io);
                continue;
            }
            "quit" | "exit" => {
                let _ = writeln!(io.out, "{name} leaves the game.");
                return Answer::Leave(3);
            }
            "view" | "board" => {
                let _ = write!(io.out, "{view}");
                let _ = writeln!(io.out, "your options:");
                show_options(&labels, io);
                continue;
            }
            _ => {}
        }
        if let Ok(k) = t.parse::<usize>() {
            if (1..=n).contains(&k) {
                return Answer::Option(k - 1);
            }
            let _ = writeln!(io.out, "error: there is no option {k}: type a number from 1 to {n}, or an option's label");
        } else if let Some(i) = labels.iter().position(|l| l == t) {
            return Answer::Option(i);
        } else {
            let ci: Vec<usize> = (0..n).filter(|&i| labels[i].eq_ignore_ascii_case(t)).collect();
            if ci.len() == 1 {
                return Answer::Option(ci[0]);
            }
            let _ = writeln!(io.out, "error: `{t}` is not an option here: type a number from 1 to {n}, or an option's label (`?` for help)");
        }
        if n <= 12 {
            let _ = writeln!(io.out, "your options:");
            show_options(&labels, io);
        } else {
            let _ = writeln!(io.out, "({n} options above; `?` lists them again)");
        }
    }
}

pub fn run(a: &Args, io: &mut Io) -> i32 {
    let kinds = match seat_kinds(a) {
        Ok(k) => k,
        Err(e) => {
            let _ = writeln!(io.err, "error: {e}");
            return 2;
        }
    };
    let Started { game, sources, mut m } = match start(&a.file, a.players, a.seed, &a.options, false, a.step_budget, io) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let humans: Vec<usize> = (0..a.players).filter(|&s| kinds[s] == SeatKind::Human).collect();
    let mut bots = Table::new(&kinds, bot_seed(a.seed));
    let who: Vec<String> = (0..a.players)
        .map(|s| {
            let what = match kinds[s] {
                SeatKind::Human => "human".to_string(),
                SeatKind::Random => "random bot".to_string(),
                k => format!("{} bot", k.name()),
            };
            format!("{} ({what})", game.seats[s])
        })
        .collect();
    let variants = if game.variants.is_empty() { String::new() } else { format!(" ({})", game.variants.join(" <- ")) };
    let _ = writeln!(io.out, "{}{} — {} players, seed {}", game.name, variants, a.players, a.seed);
    let _ = writeln!(io.out, "seats: {}", who.join(", "));
    if !humans.is_empty() {
        let _ = writeln!(io.out, "Answer with an option's number or label; `?` for help, `quit` to leave.");
    }
    let mut labels: Vec<String> = vec![];
    let mut deciders: Vec<String> = vec![];
    let mut last_human: Option<usize> = None;
    let outcome: Result<(), i32> = loop {
        let Some((seat, n)) = m.pending() else { break Ok(()) };
        if n == 0 {
            let _ = writeln!(io.err, "error: {} must decide, but the rules offer no option", game.seats[seat]);
            break Err(1);
        }
        let i = if kinds[seat] == SeatKind::Human {
            if humans.len() > 1 && last_human != Some(seat) {
                let _ = writeln!(io.out, "\n--- {}'s turn at the terminal (the others look away) ---", game.seats[seat]);
            }
            last_human = Some(seat);
            match ask(&m, seat, io) {
                Answer::Option(i) => {
                    let _ = writeln!(io.out, "{} chose: {}", game.seats[seat], m.option_label(i));
                    i
                }
                Answer::Leave(code) => break Err(code),
            }
        } else {
            let i = bots.choose(seat, &m);
            if humans.is_empty() {
                // Nobody hides anything from anybody: an onlooker's game.
                let _ = writeln!(io.out, "{}: {}", game.seats[seat], m.option_label(i));
            } else if let [human] = humans[..] {
                // The move as the human may see it: hidden pieces read `hidden`.
                let _ = writeln!(io.out, "{}: {}", game.seats[seat], m.option_label_for(i, human));
            } else {
                let _ = writeln!(io.out, "{} decided.", game.seats[seat]);
            }
            i
        };
        labels.push(m.option_label(i));
        deciders.push(game.seats[seat].clone());
        if let Err(e) = m.apply(i) {
            let _ = write!(io.err, "{}", diag::render(&sources, &[run_diag(&e, m.state.decisions)], io.color, 100));
            break Err(1);
        }
    };
    let mut rec = Record::new(&a.file, &game, a.players, a.seed, &a.options, labels);
    rec.deciders = deciders;
    let code = match outcome {
        Ok(()) => match m.standings() {
            Ok(st) => {
                let _ = writeln!(io.out, "\n== game over after {} decision(s) ==", m.state.decisions);
                let _ = write!(io.out, "{}", m.view(None).to_text());
                let _ = writeln!(io.out, "\nfinal standings:");
                let _ = write!(io.out, "{}", standings_text(&st));
                rec.scores = Some(st.iter().map(|s| s.score).collect());
                0
            }
            Err(e) => {
                let _ = write!(io.err, "{}", diag::render(&sources, &[run_diag(&e, m.state.decisions)], io.color, 100));
                1
            }
        },
        Err(code) => code,
    };
    if let Some(path) = &a.record {
        match std::fs::write(path, rec.to_toml()) {
            Ok(()) => {
                let what = if rec.scores.is_some() { "game record" } else { "record of the unfinished game" };
                let _ = writeln!(io.out, "{what} written to {}", path.display());
            }
            Err(e) => {
                let _ = writeln!(io.err, "error: cannot write the record {}: {e}", path.display());
                return if code == 0 { 1 } else { code };
            }
        }
    }
    code
}
