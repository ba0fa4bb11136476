//! Flattening: the executable form of every block, [`Game::code`]. An `if`
//! and its `else` are laid out inside the enclosing block as a conditional
//! jump over the `then` statements and a jump over the `else` ones, so that
//! taking a branch pushes no frame and ends no block; only loops and calls
//! keep blocks of their own. The structured blocks stay as they are for
//! everything that reads the rules rather than runs them (the summary, the
//! walkers).
//!
//! Jumps only go forward, so every loop still passes through a `while` or
//! `for` frame and the step budget still counts every iteration.

use crate::ir::*;
use crate::ir::Game;

/// Fills `g.code`: one flattened copy per block, under the same ids.
pub(super) fn flatten_game(g: &mut Game) {
    let mut code = Vec::with_capacity(g.blocks.len());
    for b in 0..g.blocks.len() {
        let mut out = vec![];
        flatten(g, &g.blocks[b], &mut out);
        code.push(out);
    }
    g.code = code;
}

fn flatten(g: &Game, stmts: &[Stmt], out: &mut Vec<Stmt>) {
    for st in stmts {
        let Instr::If(c, t, e) = &st.s else {
            out.push(st.clone());
            continue;
        };
        let test = out.len();
        out.push(Stmt { s: Instr::JumpUnless(c.clone(), 0), span: st.span });
        flatten(g, &g.blocks[*t as usize], out);
        match e {
            None => patch(out, test),
            Some(e) => {
                let skip = out.len();
                out.push(Stmt { s: Instr::Jump(0), span: st.span });
                patch(out, test);
                flatten(g, &g.blocks[*e as usize], out);
                patch(out, skip);
            }
        }
    }
}

/// Points the jump at `at` to the end of what has been laid out so far.
fn patch(out: &mut [Stmt], at: usize) {
    let to = out.len() as u32;
    match &mut out[at].s {
        Instr::JumpUnless(_, t) | Instr::Jump(t) => *t = to,
        _ => unreachable!("only jumps are patched"),
    }
}
