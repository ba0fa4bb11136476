//! Compiling one expression against an already checked game: scenario
//! expectations and debug views use it.

use super::context::{Body, Checker};
use crate::diag::{Diagnostics, Sources};
use crate::ir::Game;
use crate::ir::{Expr, Ty};

/// One compiled expression: the expression, its type and the locals it needs.
pub type Compiled = (Expr, Ty, u16);

/// Compiles `sources.get(file)` (the whole file is one expression) in the
/// game's global scope. Returns the game extended with any new text
/// constants, the expression, its type and the locals it needs.
pub fn compile_expr(
    game: &Game,
    sources: &Sources,
    file: u32,
) -> Result<(Game, Expr, Ty, u16), Diagnostics> {
    let (g, mut v) = compile_exprs(game, sources, &[file]).map_err(|(_, d)| d)?;
    let (e, ty, n) = v.pop().expect("one expression compiled");
    Ok((g, e, ty, n))
}

/// [`compile_expr`] for several files in turn, with one checker: the game
/// is copied once, not once per expression (a scenario's expectations cost
/// what their own text costs). The error names the first file that does
/// not check, by its place in `files`.
pub fn compile_exprs(
    game: &Game,
    sources: &Sources,
    files: &[u32],
) -> Result<(Game, Vec<Compiled>), (usize, Diagnostics)> {
    let mut ck = Checker::resume(game);
    let mut out = Vec::with_capacity(files.len());
    for (i, &file) in files.iter().enumerate() {
        let text = &sources.get(file).text;
        let ast = crate::syntax::parse_hole(file, text, 0, 0).map_err(|d| (i, vec![d]))?;
        ck.body = Body::default();
        ck.body.scopes.push(vec![]);
        let (e, ty) = ck.expr(&ast);
        ck.no_set(ty, ast.span, "an expectation");
        if !ck.errors.is_empty() {
            return Err((i, ck.errors));
        }
        out.push((e, ty, ck.body.nlocals));
    }
    ck.g.texts = ck.texts.keys().cloned().collect();
    ck.g.symbols.texts = ck.texts.clone();
    Ok((ck.g, out))
}
