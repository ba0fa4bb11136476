//! Rulesets with a board per range of player counts (`board "back.toml" for
//! 2..3`, `board "front.toml" for 4..5`). The ruleset is checked once against
//! every board, each time as a game for that range of players only; the game
//! returned is the first one, carrying every compiled game in
//! [`Game::by_players`], and `Match::new` picks the one for its player count.
//! A problem found with some boards only says which board it was found with.
//! Each board's game goes through the same stages as a game with one board
//! ([`super::compile_merged`]).

use super::compile_merged;
use crate::ast::ItemKind;
use crate::check::err;
use crate::diag::{Diagnostics, Sources, Span};
use crate::ir::Game;
use crate::load::{Merged, Reader};
use std::sync::Arc;

/// A `board` line: its item's index, its player range (`for LO..HI`, with
/// the range's span) if it has one, and the line's span.
type BoardLine = (usize, Option<(i64, i64, Span)>, Span);

/// `None` when the ruleset names at most one board for all player counts (the
/// ordinary case, compiled by the caller); otherwise the result of compiling
/// it with each of its boards.
pub(super) fn compile_per_board(
    sources: &mut Sources,
    read: Reader,
    m: &Merged,
    passes: &crate::opt::Passes,
    index: &mut Option<&mut crate::check::Index>,
) -> Option<Result<(Game, Diagnostics), Diagnostics>> {
    let boards: Vec<BoardLine> = m
        .items
        .iter()
        .enumerate()
        .filter_map(|(i, it)| match &it.kind {
            ItemKind::Board { players, .. } => Some((i, *players, it.span)),
            _ => None,
        })
        .collect();
    if boards.iter().all(|b| b.1.is_none()) && boards.len() <= 1 {
        return None;
    }
    let players = m.items.iter().find_map(|it| match it.kind {
        ItemKind::Players { min, max } => Some((min, max)),
        _ => None,
    });
    let Some((pmin, pmax)) = players else {
        // E0208 (no `players`) is reported by the ordinary check.
        return None;
    };
    if pmin < 1 || pmax < pmin || pmax as u64 > crate::ir::MAX_SEATS as u64 {
        // E0207 (an invalid player count) is reported by the ordinary check;
        // the ranges below would be as long as the count.
        return None;
    }
    if let Some(e) = ranges_error(&boards, pmin, pmax) {
        return Some(Err(vec![e]));
    }
    let mut order: Vec<_> = boards
        .iter()
        .map(|b| (b.1.unwrap().0, b.1.unwrap().1, b.0, b.2))
        .collect();
    order.sort_by_key(|o| o.0);
    let mut games: Vec<(usize, usize, Arc<Game>)> = vec![];
    let mut errors: Vec<(crate::diag::Diagnostic, Vec<Span>)> = vec![];
    let mut warnings: Diagnostics = vec![];
    for &(lo, hi, item, board_span) in &order {
        let mut one = m.clone();
        one.items = m
            .items
            .iter()
            .enumerate()
            .filter(|(i, it)| *i == item || !matches!(it.kind, ItemKind::Board { .. }))
            .map(|(_, it)| {
                // The player range stays the whole game's, so that every
                // seat exists (and owns its pieces) whichever board is used.
                let mut it = it.clone();
                if let ItemKind::Board { players, .. } = &mut it.kind {
                    *players = None;
                }
                it
            })
            .collect();
        // Only the first board's check fills the editor's side tables.
        let range = (lo as usize, hi as usize);
        match compile_merged(sources, read, one, passes, index.take(), Some(range)) {
            Ok((g, w)) => {
                for d in w {
                    if !warnings.iter().any(|x| same(x, &d)) {
                        warnings.push(d);
                    }
                }
                // Compiled per player count (the `players` pass): each
                // count's game stands for itself.
                if g.by_players.is_empty() {
                    games.push((range.0, range.1, Arc::new(g)));
                } else {
                    games.extend(g.by_players);
                }
            }
            Err(ds) => {
                for d in ds {
                    match errors.iter_mut().find(|x| same(&x.0, &d)) {
                        Some(x) => x.1.push(board_span),
                        None => errors.push((d, vec![board_span])),
                    }
                }
            }
        }
    }
    if !errors.is_empty() {
        let all = order.len();
        return Some(Err(errors
            .into_iter()
            .map(|(d, with)| {
                if with.len() < all {
                    with.into_iter()
                        .fold(d, |d, s| d.at(s, "found when checking with this board"))
                } else {
                    d
                }
            })
            .collect()));
    }
    let mut first = (*games[0].2).clone();
    first.min_players = pmin as usize;
    first.max_players = pmax as usize;
    first.by_players = games;
    Some(Ok((first, warnings)))
}

fn same(a: &crate::diag::Diagnostic, b: &crate::diag::Diagnostic) -> bool {
    a.code == b.code && a.message == b.message && a.primary == b.primary
}

/// The boards' ranges must each lie within `players`, not overlap, and leave
/// no player count without a board.
fn ranges_error(boards: &[BoardLine], pmin: i64, pmax: i64) -> Option<crate::diag::Diagnostic> {
    if let Some(b) = boards.iter().find(|b| b.1.is_none()) {
        return Some(
            err(
                "E0270",
                b.2,
                "a board without `for` beside boards for some player counts",
                "for which player counts?",
            )
            .help("give every board line its range, e.g. `board \"small.toml\" for 2..3`"),
        );
    }
    let mut covered = vec![None::<Span>; (pmax.max(pmin) - pmin + 1).max(0) as usize];
    for b in boards {
        let (lo, hi, span) = b.1.unwrap();
        if lo > hi || lo < pmin || hi > pmax {
            return Some(
                err(
                    "E0270",
                    span,
                    format!(
                        "this board is for {lo}..{hi} players, but the game is for {pmin}..{pmax}"
                    ),
                    "outside the player counts",
                )
                .help("a board's range must lie within the `players` line"),
            );
        }
        for n in lo..=hi {
            if let Some(other) = covered[(n - pmin) as usize] {
                return Some(
                    err(
                        "E0270",
                        span,
                        format!("two boards for {n} players"),
                        "overlaps another board's range",
                    )
                    .at(other, "the other board for that count")
                    .help("make the boards' player ranges disjoint"),
                );
            }
            covered[(n - pmin) as usize] = Some(span);
        }
    }
    if let Some(i) = covered.iter().position(|c| c.is_none()) {
        let n = pmin + i as i64;
        return Some(
            err(
                "E0270",
                boards[0].2,
                format!("no board for {n} players"),
                "the boards leave a player count out",
            )
            .help(format!(
                "add a board line `for {n}..{n}` or widen a range to include {n}"
            )),
        );
    }
    None
}
