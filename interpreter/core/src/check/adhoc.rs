//! Compiling one expression against an already checked game: scenario
//! expectations and debug views use it.

use super::context::{Body, Checker};
use crate::diag::{Diagnostics, Sources};
use crate::ir::Game;
use crate::ir::{Expr, Ty};

/// Compiles `sources.get(file)` (the whole file is one expression) in the
/// game's global scope. Returns the game extended with any new text
/// constants, the expression, its type and the locals it needs.
pub fn compile_expr(
    game: &Game,
    sources: &Sources,
    file: u32,
) -> Result<(Game, Expr, Ty, u16), Diagnostics> {
    let text = &sources.get(file).text;
    let ast = crate::syntax::parse_hole(file, text, 0).map_err(|d| vec![d])?;
    let mut ck = Checker::resume(game);
    ck.body = Body::default();
    ck.body.scopes.push(vec![]);
    let (e, ty) = ck.expr(&ast);
    if !ck.errors.is_empty() {
        return Err(ck.errors);
    }
    ck.g.texts = ck.texts.keys().cloned().collect();
    ck.g.symbols.texts = ck.texts.clone();
    let n = ck.body.nlocals;
    Ok((ck.g, e, ty, n))
}
