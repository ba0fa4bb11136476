//! Code generation: the executable form of every block, [`Game::code`],
//! made after the rewrites (`opt::run`) from the structured blocks they
//! leave. Entry point: [`generate`]. An `if`
//! and its `else` are laid out inside the enclosing block as a conditional
//! jump over the `then` statements and a jump over the `else` ones, so that
//! taking a branch pushes no frame and ends no block; only loops and calls
//! keep blocks of their own. The structured blocks stay as they are for
//! everything that reads the rules rather than runs them (the summary, the
//! walkers).
//!
//! Jumps only go forward, so every loop still passes through a `while` or
//! `for` frame and the step budget still counts every iteration.

use crate::ir::Game;
use crate::ir::*;

/// Fills `g.code`: one flattened copy per block, under the same ids.
pub fn generate(g: &mut Game) {
    let mut code = Vec::with_capacity(g.blocks.len());
    for b in 0..g.blocks.len() {
        let mut out = vec![];
        flatten(g, b as BlockId, &g.blocks[b], &mut out);
        code.push(out);
    }
    g.code = code;
}

fn flatten(g: &Game, block: BlockId, stmts: &[Stmt], out: &mut Vec<Step>) {
    // A run of statements compiled whole (`Game::run_code`): its first
    // statement is laid out inside an `Op::RunCode`, the others as they
    // are, and the run's end is patched in after its last.
    let mut run: Option<(usize, u32)> = None;
    for (at, st) in stmts.iter().enumerate() {
        if let Some((pos, end)) = run {
            if at as u32 == end {
                patch_run(out, pos);
                run = None;
            }
        }
        let starts = g.run_code.get(&(block, at as u32)).copied();
        let span = st.span;
        let op = match &st.s {
            Instr::If(c, t, e) => {
                let test = out.len();
                out.push(Step {
                    op: Op::JumpUnless(c.clone(), 0),
                    span,
                });
                flatten(g, *t, &g.blocks[*t as usize], out);
                match e {
                    None => patch(out, test),
                    Some(e) => {
                        let skip = out.len();
                        out.push(Step {
                            op: Op::Jump(0),
                            span,
                        });
                        patch(out, test);
                        flatten(g, *e, &g.blocks[*e as usize], out);
                        patch(out, skip);
                    }
                }
                continue;
            }
            Instr::Let(l, e) => Op::Let(*l, e.clone()),
            Instr::Assign(p @ Place::Watched(..), o, e) => {
                Op::AssignWatched(p.clone(), *o, e.clone())
            }
            Instr::Assign(p, o, e) => Op::Assign(p.clone(), *o, e.clone()),
            Instr::For(l, c, b) => match g.loop_code.get(&(block, at as u32)) {
                Some(&code) => Op::ForCode(*l, c.clone(), *b, code),
                None => Op::For(*l, c.clone(), *b),
            },
            Instr::While(c, b) => Op::While(c.clone(), *b),
            Instr::Break => Op::Break,
            Instr::Continue => Op::Continue,
            Instr::Return => Op::Return,
            Instr::Move(w, z, p) => Op::Move(w.clone(), z.clone(), *p),
            Instr::Shuffle(z) => Op::Shuffle(z.clone()),
            Instr::Choose {
                slot,
                player,
                from,
                label,
                ty,
            } => Op::Choose {
                slot: *slot,
                player: player.clone(),
                from: from.clone(),
                label: *label,
                ty: *ty,
            },
            Instr::Act {
                player,
                actions,
                els,
            } => Op::Act {
                player: player.clone(),
                actions: actions.clone(),
                els: *els,
            },
            Instr::Call(p, args) => Op::Call(*p, args.clone()),
            Instr::Log(t) => Op::Log(*t),
            Instr::EndGame => Op::EndGame,
            Instr::ShowBoard => Op::ShowBoard,
            Instr::Reveal(e, on) => Op::Reveal(e.clone(), *on),
            Instr::Require(e) => Op::Require(e.clone()),
        };
        let op = match starts {
            Some((end, code)) => {
                run = Some((out.len(), end));
                Op::RunCode(Box::new(Step { op, span }), code, 0)
            }
            None => op,
        };
        out.push(Step { op, span });
    }
    if let Some((pos, _)) = run {
        patch_run(out, pos);
    }
}

/// Points the run at `at` past what has been laid out so far.
fn patch_run(out: &mut [Step], at: usize) {
    let to = out.len() as u32;
    if let Op::RunCode(_, _, t) = &mut out[at].op {
        *t = to;
    }
}

/// Points the jump at `at` to the end of what has been laid out so far.
fn patch(out: &mut [Step], at: usize) {
    let to = out.len() as u32;
    if let Op::JumpUnless(_, t) | Op::Jump(t) = &mut out[at].op {
        *t = to;
    }
}
