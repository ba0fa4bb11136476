//! The pipeline: the one driver from a ruleset's path to a compiled game.
//! Each stage has one entry function and is called from here, in order:
//!
//! 1. read the variants, parsing each file ([`crate::load::load_recovering`],
//!    which calls [`crate::syntax::parse_recovering`]: after a syntax error
//!    the rest of the file is still parsed, and the later stages check what
//!    parsed, their diagnostics shown after the syntax errors);
//! 2. the declaration limits, before anything gets a 16-bit index
//!    ([`crate::check::limits`]);
//! 3. the board ([`crate::board::build`], read through the same reader);
//! 4. check ([`crate::check::check`]: merged items and board → [`Game`] with
//!    its structured blocks);
//! 5. tables ([`crate::tables::build`]: the distance table, which the
//!    rewrites may read);
//! 6. the rewrites ([`crate::opt::run`], each pass switchable);
//! 7. code generation ([`crate::codegen::generate`]: `Game::code`).
//!
//! A ruleset with a board per range of player counts runs stages 3 to 7 once
//! per board (`boards.rs`); one whose variables some player counts leave
//! constant runs stages 6 and 7 once per run of counts that leave the same
//! ones constant (the `players` pass). Like every stage, the driver does no IO of its
//! own: files are read through the caller's [`Reader`].

mod boards;

use crate::check::{self, Checked};
use crate::diag::{Diagnostics, Sources};
use crate::ir::{Expr, Game, Ty};
use crate::load::{self, Merged, Reader};
use crate::opt::Passes;
use std::path::Path;

/// Compiles the ruleset at `path` (a game or a variant), reading files
/// through `read`, with the chosen rewrites (`Passes::all()` but for `regel
/// ir --passes` and the test that the passes change no outcome). On success
/// returns the game and its warnings.
pub fn compile(
    sources: &mut Sources,
    read: Reader,
    path: &Path,
    passes: &Passes,
) -> Result<(Game, Diagnostics), Diagnostics> {
    compile_indexed(sources, read, path, passes, None)
}

/// [`compile`], also recording the checker's side tables for editors into
/// `index` when it is given (what each name resolves to, each expression's
/// type; with a board per range of player counts, as checked with the
/// first board). The result is the same with or without them.
pub fn compile_indexed(
    sources: &mut Sources,
    read: Reader,
    path: &Path,
    passes: &Passes,
    index: Option<&mut check::Index>,
) -> Result<(Game, Diagnostics), Diagnostics> {
    let mut merged = load::load_recovering(sources, read, path)?;
    let recovered = std::mem::take(&mut merged.recovered);
    let result = compile_loaded(sources, read, merged, passes, index);
    if recovered.errors.is_empty() {
        return result;
    }
    // Syntax errors first, then what the later stages found in the items
    // that parsed, but for what only the missing text explains.
    let later = match result {
        Ok((_, warnings)) => warnings,
        Err(d) => d,
    };
    let mut all = recovered.errors;
    all.extend(later.into_iter().filter(|d| recovered.set_aside.keeps(d)));
    Err(all)
}

/// The stages after loading: limits, board, check, tables, rewrites,
/// code generation.
fn compile_loaded(
    sources: &mut Sources,
    read: Reader,
    merged: Merged,
    passes: &Passes,
    mut index: Option<&mut check::Index>,
) -> Result<(Game, Diagnostics), Diagnostics> {
    let over = check::limits(&merged.items);
    if !over.is_empty() {
        return Err(over);
    }
    if let Some(per_board) = boards::compile_per_board(sources, read, &merged, passes, &mut index) {
        return per_board;
    }
    compile_merged(sources, read, merged, passes, index, None)
}

/// Compiles one more expression (the whole of `sources.get(file)`) against
/// a compiled game, for a scenario's expectations: checked in the game's
/// global scope ([`check::compile_expr`]), then given the rewrites that
/// apply to an expression alone ([`crate::opt::run_expr`]). Returns the game
/// extended with any new text constants, the expression, its type and the
/// locals it needs.
pub fn compile_expr(
    game: &Game,
    sources: &Sources,
    file: u32,
) -> Result<(Game, Expr, Ty, u16), Diagnostics> {
    let (g, mut e, ty, nlocals) = check::compile_expr(game, sources, file)?;
    crate::opt::run_expr(&mut e);
    Ok((g, e, ty, nlocals))
}

/// Expressions compiled by [`compile_exprs`]: each with its type and the
/// locals it needs.
pub type CompiledExprs = Vec<(Expr, Ty, u16)>;

/// [`compile_expr`] for several files with one checker (see
/// [`check::compile_exprs`]); the error names the first that fails by its
/// place in `files`.
pub fn compile_exprs(
    game: &Game,
    sources: &Sources,
    files: &[u32],
) -> Result<(Game, CompiledExprs), (usize, Diagnostics)> {
    let (g, mut v) = check::compile_exprs(game, sources, files)?;
    for (e, ..) in &mut v {
        crate::opt::run_expr(e);
    }
    Ok((g, v))
}

/// A merged ruleset with at most one board through the stages after
/// loading: board, check, tables, rewrites, code generation.
///
/// `counts` is the range of player counts the game is compiled for (`None`:
/// every count the ruleset allows; a board's range when the ruleset names a
/// board per range).
fn compile_merged(
    sources: &mut Sources,
    read: Reader,
    m: Merged,
    passes: &Passes,
    index: Option<&mut check::Index>,
    counts: Option<(usize, usize)>,
) -> Result<(Game, Diagnostics), Diagnostics> {
    let board = read_board(sources, read, &m)?;
    let Checked {
        mut game,
        warnings,
        uses_distance,
    } = check::check_indexed(&m, board, index)?;
    // The distance table comes first: it depends on the board alone, and
    // the passes may read it (`fn-tables` tabulates functions of `distance`).
    crate::tables::build(&mut game, uses_distance);
    let (lo, hi) = counts.unwrap_or((game.min_players, game.max_players));
    let mut copies = crate::opt::split(&game, passes, lo, hi);
    if copies.len() <= 1 {
        // One program serves every count: the game, or its one copy.
        if let Some((.., copy)) = copies.pop() {
            game = copy;
        }
        crate::opt::run(&mut game, passes);
        crate::codegen::generate(&mut game);
        return Ok((game, warnings));
    }
    // A copy per run of player counts (the `players` pass): each goes through the
    // rest of the stages as a game of its own, and the first, carrying them
    // all, stands for the ruleset, as with a board per range of counts.
    let mut games = Vec::with_capacity(copies.len());
    for (a, b, mut g) in copies {
        crate::opt::run(&mut g, passes);
        crate::codegen::generate(&mut g);
        games.push((a, b, std::sync::Arc::new(g)));
    }
    let mut first = (*games[0].2).clone();
    first.by_players = games;
    Ok((first, warnings))
}

/// The board the ruleset names (relative to the file that names it), or the
/// empty board if it names none. The board comes before checking: node
/// attributes and piece sets are part of the namespace.
fn read_board(
    sources: &mut Sources,
    read: Reader,
    m: &Merged,
) -> Result<crate::board::Board, Diagnostics> {
    let board_item = m.items.iter().find_map(|it| match &it.kind {
        crate::ast::ItemKind::Board { path, .. } => Some((path.clone(), it.span)),
        _ => None,
    });
    let Some((path, span)) = board_item else {
        return Ok(crate::board::empty());
    };
    let dir = m
        .dirs
        .iter()
        .find(|(f, _)| *f == span.file)
        .map(|d| d.1.clone())
        .unwrap_or_default();
    let full = dir.join(&path);
    match read(&full) {
        Ok(text) => {
            let f = sources.add(full.display().to_string(), text);
            crate::board::build(sources, f)
        }
        Err(e) => Err(vec![crate::check::err(
            "E0002",
            span,
            format!("cannot read the board file `{}`: {e}", full.display()),
            "named here",
        )
        .help("board paths are relative to the rules file that names them")]),
    }
}
