//! `regel play`: humans and bots in the terminal.
//!
//! A human seat is shown only its own view of the position and its own legal
//! options, and answers with an option's number or label. Bots use only what
//! their seat may know (see `crate::bot`). The course of the game is the log
//! as each seat may read it (`eval::view` writes it per seat: the engine's own
//! log sees everything): the rules' `log` lines, every move with what it made
//! public, forced moves, and phase markers. Between two human seats the screen
//! is cleared.

use super::record::Record;
use super::replay::{run_diag, standings_text, start, Logs, Started};
use super::screen;
use super::simulate::bot_seed;
use super::Io;
use crate::bot::seeded::DecisionClock;
use crate::bot::{SeatKind, Table};
use crate::diag;
use std::path::PathBuf;

pub struct Args {
    /// The ruleset; `None` only with `resume`.
    pub file: Option<PathBuf>,
    pub players: Option<usize>,
    /// The record of a game left unfinished, to be continued.
    pub resume: Option<PathBuf>,
    /// `None`: a fresh random seed, printed so the game can be played again.
    pub seed: Option<u64>,
    pub seats: Vec<String>,
    pub bot: Option<String>,
    pub options: Vec<String>,
    pub record: Option<PathBuf>,
    pub step_budget: u64,
    /// `--deadline`: seconds of wall-clock time one decision's work may take.
    pub deadline: Option<f64>,
}

fn seat_kinds(a: &Args, players: usize) -> Result<Vec<SeatKind>, String> {
    let others = match &a.bot {
        Some(b) => match SeatKind::parse(b)? {
            SeatKind::Human => {
                return Err("`--bot` names a bot: `random`, `mcts` or `mcts:ITERATIONS`".into())
            }
            k => k,
        },
        None => SeatKind::Random,
    };
    if a.seats.is_empty() {
        return Ok((0..players)
            .map(|i| if i == 0 { SeatKind::Human } else { others })
            .collect());
    }
    if a.seats.len() > players {
        return Err(format!(
            "{} `--seat`s given for {} players",
            a.seats.len(),
            players
        ));
    }
    let mut k: Vec<SeatKind> = a
        .seats
        .iter()
        .map(|s| SeatKind::parse(s))
        .collect::<Result<_, _>>()?;
    // Seats not named are bots.
    k.resize(players, others);
    Ok(k)
}

const HELP: &str = "\
Type the number of an option (1, 2, …) or its label exactly as shown, then Enter.
Options that differ only in their last word are grouped: `stall 1 at: 3) r1c3`
is option 3, whose label is `stall 1 at r1c3`.
Other commands:
  ?, help     this help and the options again
  rules       what the game is (the ruleset's summary) and each action's help
  view        the whole position, as you see it (the screen may fold some of it)
  map         the board as a text map: each place with what lies on it, slots
              in order (`·` is a free one), then each connection
  log         the whole course of the game since your last decision
  more        the next page of options
  undo        take back your last decision (and the others' decisions since);
              refused once randomness was drawn or something hidden from you
              came into sight after it: you have seen its consequence
  quit        leave the game (it is not finished; with `--record FILE`,
              `regel play --resume FILE` continues it)
";

/// What `rules` at the prompt prints: the ruleset's declared summary and
/// each action with its declared one-line help, in declaration order.
fn rules_text(g: &crate::ir::Game) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    match &g.summary {
        Some(t) => {
            let _ = writeln!(s, "{t}");
        }
        None => s.push_str("this ruleset declares no summary\n"),
    }
    let _ = writeln!(s, "actions:");
    // Actions by the words players read: the display name, else the label
    // when it has no values in it, else the id.
    let shown: Vec<String> = (0..g.actions.len()).map(|a| action_words(g, a)).collect();
    let w = shown.iter().map(|t| t.chars().count()).max().unwrap_or(0);
    for (a, t) in g.actions.iter().zip(&shown) {
        let _ = match &a.help {
            Some(h) => writeln!(s, "  {t:<w$}  {h}"),
            None => writeln!(s, "  {t}"),
        };
    }
    s
}

/// Action `a` as players read it: its name in `names { … }`; else its
/// label with each value left as `…` (`play …`); else its id.
fn action_words(g: &crate::ir::Game, a: usize) -> String {
    if let Some(Some(n)) = g.present.action_names.get(a) {
        return n.clone();
    }
    let Some(t) = g.actions[a].label.and_then(|t| g.templates.get(t as usize)) else {
        return g.actions[a].name.clone();
    };
    let mut out = String::new();
    for part in &t.parts {
        match part {
            crate::ir::TPart::Text(s) => out.push_str(s),
            crate::ir::TPart::Hole(..)
            | crate::ir::TPart::Choice(..)
            | crate::ir::TPart::Set(..) => out.push('…'),
        }
    }
    out
}

/// What a human answered.
enum Answer {
    Option(usize),
    /// Take back this seat's last decision.
    Undo,
    Leave(i32),
}

/// The numbered options, in columns when there are many (the `moves` debug view).
pub(super) fn options_text(labels: &[String]) -> String {
    let w = labels.len().to_string().len();
    let cells: Vec<String> = labels
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{:>w$}) {l}", i + 1))
        .collect();
    let cw = cells.iter().map(|c| c.chars().count()).max().unwrap_or(0) + 3;
    let cols = if labels.len() > 12 {
        (96 / cw).max(1)
    } else {
        1
    };
    let rows = labels.len().div_ceil(cols);
    let mut s = String::new();
    for r in 0..rows {
        s.push_str("  ");
        for c in 0..cols {
            let Some(cell) = cells.get(c * rows + r) else {
                continue;
            };
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

/// Clears the terminal (and its scrollback) so that the next seat does not
/// see the last one's hand; without a terminal, a marker line.
fn clear_screen(io: &mut Io) {
    if io.term {
        let _ = write!(io.out, "\x1b[H\x1b[2J\x1b[3J");
    } else {
        let _ = writeln!(io.out, "\n[screen cleared]");
    }
}

/// The course of the game since this seat last decided: the last
/// [`screen::COURSE_LINES`] lines, and how many came before.
fn course_text(course: &[String], all: bool) -> String {
    let skip = if all {
        0
    } else {
        course.len().saturating_sub(screen::COURSE_LINES)
    };
    let mut s = String::new();
    if skip > 0 {
        s.push_str(&format!("  ({skip} earlier line(s): `log` shows them)\n"));
    }
    for l in &course[skip..] {
        s.push_str(&screen::course_line(l));
        s.push('\n');
    }
    s
}

/// Asks a human seat for a decision until it gives a legal one (or leaves).
/// `course` is what happened since the seat last decided, as it may read it.
fn ask(
    m: &crate::eval::Match,
    opening: &crate::eval::Match,
    seat: usize,
    course: &[String],
    sources: &diag::Sources,
    io: &mut Io,
) -> Answer {
    let g = &m.game;
    let name = &g.seats[seat];
    // Records and typed answers use the labels' ids; the screen shows their
    // display form, and a typed display form is understood too.
    let labels = m.option_labels();
    let shown = crate::eval::view::with_names(|| m.option_labels());
    let n = labels.len();
    // Shown with the single options (the frequent ones) before the long
    // groups; the number typed is the one shown.
    let order = crate::draw::option_order(&shown);
    let in_order: Vec<String> = order.iter().map(|&i| shown[i].clone()).collect();
    let lines = screen::options(&in_order);
    let mut page = 0;
    let seats = &g.seats[..m.state.nplayers as usize];
    let full = crate::eval::view::with_names(|| m.view(Some(seat)));
    let opening_view = crate::eval::view::with_names(|| opening.view(Some(seat)));
    // The position gets the rows the options leave of a 40-row terminal
    // (two for the prompt and the `──` above).
    let options_rows =
        lines.len().min(screen::OPTION_LINES) + usize::from(lines.len() > screen::OPTION_LINES) + 1;
    let view = screen::position_in(
        &screen::declared(full.clone()),
        seats,
        Some(seat),
        screen::ROWS - 2 - options_rows,
        Some(&screen::declared(opening_view)),
    );
    let _ = writeln!(
        io.out,
        "\n══ decision {}: {name} to play ══",
        m.state.decisions + 1
    );
    let _ = write!(io.out, "{}", course_text(course, false));
    let _ = writeln!(io.out, "──");
    let _ = write!(io.out, "{view}");
    let _ = writeln!(io.out, "your options:");
    let _ = write!(io.out, "{}", screen::options_page(&lines, page));
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
                let _ = write!(io.out, "{}", screen::options_page(&lines, page));
                continue;
            }
            "rules" => {
                let _ = write!(io.out, "{}", rules_text(g));
                let _ = writeln!(io.out, "your options:");
                let _ = write!(io.out, "{}", screen::options_page(&lines, page));
                continue;
            }
            "quit" | "exit" => {
                let _ = writeln!(io.out, "{name} leaves the game.");
                return Answer::Leave(3);
            }
            "undo" => return Answer::Undo,
            "view" | "board" => {
                let _ = write!(io.out, "{}", screen::position(&full, seats, Some(seat)));
                let _ = writeln!(io.out, "your options:");
                let _ = write!(io.out, "{}", screen::options_page(&lines, page));
                continue;
            }
            "log" => {
                let _ = write!(io.out, "{}", course_text(course, true));
                continue;
            }
            "map" => {
                let _ = write!(io.out, "{}", screen::map_text(&full, g));
                let _ = writeln!(io.out, "your options:");
                let _ = write!(io.out, "{}", screen::options_page(&lines, page));
                continue;
            }
            "more" => {
                page += 1;
                let _ = write!(io.out, "{}", screen::options_page(&lines, page));
                continue;
            }
            _ => {}
        }
        if let Ok(k) = t.parse::<usize>() {
            if (1..=n).contains(&k) {
                return Answer::Option(order[k - 1]);
            }
            let _ = writeln!(
                io.out,
                "error: there is no option {k}: type a number from 1 to {n}, or an option's label"
            );
        } else if let Some(i) = labels
            .iter()
            .position(|l| l == t)
            .or_else(|| shown.iter().position(|l| l == t))
        {
            return Answer::Option(i);
        } else {
            let ci: Vec<usize> = (0..n)
                .filter(|&i| labels[i].eq_ignore_ascii_case(t) || shown[i].eq_ignore_ascii_case(t))
                .collect();
            if ci.len() == 1 {
                return Answer::Option(ci[0]);
            }
            let _ = writeln!(io.out, "error: `{t}` is not an option here: type a number from 1 to {n}, or an option's label (`?` for help)");
            if let Some(w) = crate::eval::why_illegal(m, t, sources) {
                let at = w
                    .span
                    .map(|s| format!(" ({})", super::replay::location(sources, s)))
                    .unwrap_or_default();
                let _ = writeln!(io.out, "why: {}{at}", w.message);
            }
        }
        if lines.len() <= screen::OPTION_LINES {
            let _ = writeln!(io.out, "your options:");
            let _ = write!(io.out, "{}", screen::options_page(&lines, page));
        } else {
            let _ = writeln!(io.out, "({n} options above; `?` lists them again)");
        }
    }
}

/// A seed nobody chose: from the clock and the process, mixed.
fn fresh_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    let x = t ^ (u64::from(std::process::id()) << 32);
    // A splitmix step, so that seeds of games started close together differ in every digit.
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) % 1_000_000_000
}

/// What a game is started from: the command line, or the record of a game
/// left unfinished (`--resume`).
struct Game0 {
    file: PathBuf,
    players: usize,
    seed: u64,
    options: Vec<String>,
    /// Decisions already taken (a resumed game's).
    done: Vec<String>,
    /// Where the record is written as the game goes.
    record: Option<PathBuf>,
}

fn game0(a: &Args, io: &mut Io) -> Result<Game0, i32> {
    let Some(path) = &a.resume else {
        // clap asks for both unless `--resume` is given.
        let (Some(file), Some(players)) = (a.file.clone(), a.players) else {
            let _ = writeln!(
                io.err,
                "error: give a ruleset and `--players`, or `--resume RECORD`"
            );
            return Err(2);
        };
        return Ok(Game0 {
            file,
            players,
            seed: a.seed.unwrap_or_else(fresh_seed),
            options: a.options.clone(),
            done: vec![],
            record: a.record.clone(),
        });
    };
    let (rec, ruleset) = super::replay::read_record(path, io).map_err(|_| 1)?;
    if rec.scores.is_some() {
        let _ = writeln!(
            io.err,
            "error: the game of `{}` is over: there is nothing to resume (`regel replay` shows it)",
            path.display()
        );
        return Err(2);
    }
    // The record decides what game it is; the same settings given again agree with it.
    let clash = a.players.is_some_and(|p| p != rec.players)
        || a.seed.is_some_and(|s| s != rec.seed)
        || !a.options.is_empty() && a.options != rec.options;
    if clash || a.file.is_some() {
        let _ = writeln!(
            io.err,
            "error: `--resume` takes the ruleset, players, seed and options from the record; give none of them"
        );
        return Err(2);
    }
    Ok(Game0 {
        file: ruleset,
        players: rec.players,
        seed: rec.seed,
        options: rec.options,
        done: rec.decisions,
        record: Some(a.record.clone().unwrap_or_else(|| path.clone())),
    })
}

/// A human's decision point, kept so that the seat can take the decision
/// back (`undo`): the match as it was (a match is plain data, so keeping it
/// is a copy; replaying from the seed would need the bots to decide the
/// same again), how many decisions were taken before, and the course of the
/// game the seat had been shown.
struct Point {
    m: crate::eval::Match,
    taken: usize,
    seat: usize,
    course: Vec<String>,
}

/// The point `undo` at the last point (the decision being asked) goes back
/// to: the seat's previous decision point, if the seat has learnt nothing
/// since that it could not have known then and no other human decided.
fn undo_to(points: &[Point], m: &crate::eval::Match, seat: usize) -> Result<usize, String> {
    let cur = points.len() - 1;
    let Some(j) = (0..cur).rev().find(|&j| points[j].seat == seat) else {
        return Err("there is nothing to undo: this is your first decision".into());
    };
    if points[j + 1..cur].iter().any(|p| p.seat != seat) {
        return Err("cannot undo: another human player has decided since".into());
    }
    if let Some(why) = m.learnt_since(&points[j].m, seat) {
        return Err(format!(
            "cannot undo: {why} your last decision, and you have seen its consequence"
        ));
    }
    Ok(j)
}

/// Writes the record; a failure is printed.
fn write_record(rec: &Record, path: &std::path::Path, io: &mut Io) -> bool {
    match std::fs::write(path, rec.to_toml()) {
        Ok(()) => true,
        Err(e) => {
            let _ = writeln!(
                io.err,
                "error: cannot write the record {}: {e}",
                path.display()
            );
            false
        }
    }
}

pub fn run(a: &Args, io: &mut Io) -> i32 {
    let g0 = match game0(a, io) {
        Ok(g) => g,
        Err(code) => return code,
    };
    let kinds = match seat_kinds(a, g0.players) {
        Ok(k) => k,
        Err(e) => {
            let _ = writeln!(io.err, "error: {e}");
            return 2;
        }
    };
    let seed = g0.seed;
    let Started {
        game,
        sources,
        mut m,
    } = match start(
        &g0.file,
        g0.players,
        seed,
        &g0.options,
        Logs::Seats,
        a.step_budget,
        io,
    ) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let deadline = super::deadline::Deadline::new(a.deadline);
    if let Some(d) = &deadline {
        m.set_interrupt(d.flag());
    }
    let n = g0.players;
    // The position at the first decision: what a screen that does not fit
    // may leave out as unchanged since then.
    let opening = m.clone();
    let humans: Vec<usize> = (0..n).filter(|&s| kinds[s] == SeatKind::Human).collect();
    let mut bots = Table::new(&kinds, bot_seed(seed));
    let who: Vec<String> = (0..n)
        .map(|s| {
            let what = match kinds[s] {
                SeatKind::Human => "human".to_string(),
                SeatKind::Random => "random bot".to_string(),
                k => format!("{} bot", k.name()),
            };
            format!("{} ({what})", game.seats[s])
        })
        .collect();
    let variants = if game.variants.is_empty() {
        String::new()
    } else {
        format!(" ({})", game.variants.join(" <- "))
    };
    let _ = writeln!(io.out, "{}{} — {} players", game.name, variants, n);
    let _ = writeln!(
        io.out,
        "seed {seed} (`--seed {seed}` plays this game again)"
    );
    let _ = writeln!(io.out, "seats: {}", who.join(", "));
    if !humans.is_empty() {
        let _ = writeln!(
            io.out,
            "Answer with an option's number or label; `?` for help, `quit` to leave."
        );
    }
    // What each seat has not yet been shown, as it may read it. Onlookers
    // (no human at the table) are shown the public lines as they come.
    let mut unseen: Vec<Vec<String>> = vec![vec![]; n];
    let mut labels: Vec<String> = vec![];
    let mut deciders: Vec<String> = vec![];
    // A resumed game's decisions are taken again, as the record has them.
    for (k, label) in g0.done.iter().enumerate() {
        let seat = m.pending().map_or(0, |p| p.0);
        if let Err(e) =
            super::replay::apply_labels(&mut m, &sources, std::slice::from_ref(label), k + 1)
        {
            e.print(&sources, io);
            return 1;
        }
        labels.push(label.clone());
        deciders.push(game.seats[seat].clone());
    }
    if let Some(r) = &a.resume {
        let _ = writeln!(
            io.out,
            "resumed from {}: {} decision(s) taken again",
            r.display(),
            labels.len()
        );
    }
    let record = |labels: &[String], deciders: &[String]| {
        let mut rec = Record::new(
            &g0.file,
            g0.record.as_deref(),
            &game,
            n,
            seed,
            &g0.options,
            labels.to_vec(),
        );
        rec.deciders = deciders.to_vec();
        rec
    };
    // The record is written before the first decision, so that a path it
    // cannot be written to is found before anyone plays.
    if let Some(path) = &g0.record {
        if !write_record(&record(&labels, &deciders), path, io) {
            return 2;
        }
    }
    let mut points: Vec<Point> = vec![];
    let mut last_human: Option<usize> = None;
    let outcome: Result<(), i32> = loop {
        // The engine's own log is not shown here (it sees everything); drained
        // so that it does not grow with the game (option labels clone the state).
        drop(m.take_log());
        for line in m.take_seat_log() {
            if humans.is_empty() {
                let _ = writeln!(io.out, "{}", screen::course_line(&line.text[n]));
            }
            for &h in &humans {
                unseen[h].push(line.text[h].clone());
            }
        }
        let Some((seat, k)) = m.pending() else {
            break Ok(());
        };
        if k == 0 {
            let _ = writeln!(
                io.err,
                "error: {} must decide, but the rules offer no option",
                game.seats[seat]
            );
            break Err(1);
        }
        let i = if kinds[seat] == SeatKind::Human {
            if humans.len() > 1 && last_human != Some(seat) {
                // Hot seat: the last player's hand leaves the screen before the next sits down.
                clear_screen(io);
                let _ = write!(
                    io.out,
                    "── {}'s turn: pass the terminal to {0}, then press Enter ──",
                    game.seats[seat]
                );
                let _ = io.out.flush();
                let mut l = String::new();
                if matches!(io.input.read_line(&mut l), Ok(0) | Err(_)) {
                    let _ = writeln!(io.err, "\nend of input: the game is left unfinished");
                    break Err(3);
                }
                clear_screen(io);
            }
            last_human = Some(seat);
            // The record so far: a game left here can be resumed.
            if let Some(path) = &g0.record {
                write_record(&record(&labels, &deciders), path, io);
            }
            let course = std::mem::take(&mut unseen[seat]);
            points.push(Point {
                m: m.clone(),
                taken: labels.len(),
                seat,
                course: course.clone(),
            });
            match ask(&m, &opening, seat, &course, &sources, io) {
                Answer::Option(i) => {
                    let label = crate::eval::view::with_names(|| m.option_label(i));
                    let _ = writeln!(io.out, "{} chose: {label}", game.seats[seat]);
                    i
                }
                Answer::Undo => {
                    match undo_to(&points, &m, seat) {
                        Ok(j) => {
                            let p = points.swap_remove(j);
                            points.truncate(j);
                            let _ = writeln!(
                                io.out,
                                "{} takes back its last decision ({} decision(s) in all)",
                                game.seats[seat],
                                labels.len() - p.taken
                            );
                            m = p.m;
                            labels.truncate(p.taken);
                            deciders.truncate(p.taken);
                            unseen[seat] = p.course;
                        }
                        Err(why) => {
                            let _ = writeln!(io.out, "{why}");
                            points.pop();
                            unseen[seat] = course;
                        }
                    }
                    continue;
                }
                Answer::Leave(code) => break Err(code),
            }
        } else {
            // The move reaches every seat through the per-seat log.
            bots.choose(seat, &m)
        };
        labels.push(m.option_label(i));
        deciders.push(game.seats[seat].clone());
        if let Err(e) =
            crate::bot::seeded::timed(deadline.as_ref().map(|d| d as &dyn DecisionClock), || {
                m.apply(i)
            })
        {
            let _ = write!(
                io.err,
                "{}",
                diag::render(&sources, &[run_diag(&e, m.state.decisions)], io.color, 100)
            );
            break Err(1);
        }
    };
    let mut rec = record(&labels, &deciders);
    let code = match outcome {
        Ok(()) => match m.standings() {
            Ok(st) => {
                // The end of the course of the game: a single human's own
                // reading, or the public one.
                let reader = if let [h] = humans[..] { h } else { n };
                for line in m.take_seat_log() {
                    if reader < n {
                        unseen[reader].push(line.text[reader].clone());
                    } else {
                        if let Some(u) = unseen.get_mut(0) {
                            u.push(line.text[n].clone());
                        }
                    }
                }
                let rest = if reader < n {
                    &unseen[reader]
                } else {
                    &unseen[0]
                };
                if !humans.is_empty() {
                    let _ = write!(io.out, "{}", course_text(rest, true));
                } else {
                    for l in rest {
                        let _ = writeln!(io.out, "{}", screen::course_line(l));
                    }
                }
                let _ = writeln!(
                    io.out,
                    "\n═══ game over after {} decision(s) ═══",
                    m.state.decisions
                );
                // A single human sees the end position as that seat (its own
                // hand named); otherwise as an onlooker.
                // Like every play screen it shows display names and, when the
                // rules declare displays, those instead of the variables.
                let looker = (reader < n).then_some(reader);
                let shown = crate::eval::view::with_names(|| m.view(looker));
                let mut view = screen::declared(shown);
                let table = std::mem::take(&mut view.table);
                let opening_view = crate::eval::view::with_names(|| opening.view(looker));
                let _ = write!(
                    io.out,
                    "{}",
                    screen::position_in(
                        &view,
                        &game.seats[..n],
                        None,
                        screen::ROWS - 2,
                        Some(&screen::declared(opening_view))
                    )
                );
                // The breakdown: the per-player values the screen showed (the
                // declared ones, else every public per-player variable), then
                // the score and the rank.
                view.table = table;
                view.table.push((
                    "score".into(),
                    st.iter().map(|s| s.score.to_string()).collect(),
                ));
                view.table.push((
                    "place".into(),
                    st.iter()
                        .map(|s| {
                            if s.winner {
                                format!("{} (won)", s.rank)
                            } else {
                                s.rank.to_string()
                            }
                        })
                        .collect(),
                ));
                let _ = writeln!(io.out, "\nscore breakdown:");
                let _ = write!(io.out, "{}", screen::table(&view, &game.seats[..n], None));
                let _ = writeln!(io.out, "\nfinal standings:");
                let _ = write!(io.out, "{}", standings_text(&st));
                rec.scores = Some(st.iter().map(|s| s.score).collect());
                0
            }
            Err(e) => {
                let _ = write!(
                    io.err,
                    "{}",
                    diag::render(&sources, &[run_diag(&e, m.state.decisions)], io.color, 100)
                );
                1
            }
        },
        Err(code) => code,
    };
    if let Some(path) = &g0.record {
        if !write_record(&rec, path, io) {
            return if code == 0 { 1 } else { code };
        }
        if rec.scores.is_some() {
            let _ = writeln!(io.out, "game record written to {}", path.display());
        } else {
            let _ = writeln!(
                io.out,
                "record of the unfinished game written to {0} (`regel play --resume {0}` continues it)",
                path.display()
            );
        }
    }
    code
}
