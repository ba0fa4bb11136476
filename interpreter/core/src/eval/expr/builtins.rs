//! Builtins: those of values (`abs`, `next`, `distance`, …, shared with
//! the bytecode machine through [`Exec::builtin_values`]) and those of a
//! collection (`random`, `index`, `sum`, …), with scripted rolls for
//! scenarios.

use super::{Exec, R};
use crate::diag::Span;
use crate::eval::{RunError, RunErrorKind};
use crate::ir::*;
use crate::ops;
use rand::Rng;

impl Exec<'_> {
    #[inline(never)]
    pub(super) fn builtin(
        &mut self,
        b: Builtin,
        args: &[Expr],
        c: Option<&Coll>,
        span: Span,
    ) -> R<Val> {
        if let Builtin::Set(op, on) = b {
            return self.set_op(op, on, args, c, span);
        }
        if c.is_none() && args.len() <= 2 {
            // A builtin of values only: its arguments, left to right, then
            // the builtin (shared with the bytecode machine, `eval/bytecode.rs`).
            let x = match args.first() {
                Some(a) => self.eval(a, span)?,
                None => 0,
            };
            let y = match args.get(1) {
                Some(a) => self.eval(a, span)?,
                None => 0,
            };
            return self.builtin_values(b, x, y, span);
        }
        self.builtin_listed(b, args, c, span)
    }

    /// A builtin applied to the values of its (at most two) arguments.
    ///
    /// The commonest, which neither fail nor look far, are answered here,
    /// inlined where they are called; the rest in [`Exec::values_rest`].
    /// One function for all spent some 30 instructions a call saving and
    /// restoring registers that `next(p)` or `top(zone)` never needed
    /// (measured on connect four: 95 instructions a `next` from the tree).
    #[inline(always)]
    pub(crate) fn builtin_values(&mut self, b: Builtin, x: Val, y: Val, span: Span) -> R<Val> {
        let n = self.st.nplayers as Val;
        match b {
            Builtin::Next if x >= 0 => Ok((x + 1) % n),
            Builtin::Prev if x >= 0 => Ok((x + n - 1) % n),
            Builtin::Min2 => Ok(x.min(y)),
            Builtin::Max2 => Ok(x.max(y)),
            Builtin::Top | Builtin::Bottom => {
                let s = self.st.zones.slice(x as u32);
                let p = if b == Builtin::Top {
                    s.last()
                } else {
                    s.first()
                };
                Ok(p.map(|&p| p as Val).unwrap_or(NONE))
            }
            _ => self.values_rest(b, x, y, span),
        }
    }

    /// [`Exec::builtin_values`] for the builtins of values it does not
    /// answer itself (and `next`, `prev` of `none`, which fail); the
    /// bytecode machine's `BOp::Builtin` calls it for the same ones.
    #[inline(never)]
    pub(crate) fn values_rest(&mut self, b: Builtin, x: Val, y: Val, span: Span) -> R<Val> {
        let n = self.st.nplayers as Val;
        Ok(match b {
            Builtin::NumPlayers => n,
            Builtin::Next | Builtin::Prev => {
                return Err(RunError::at(RunErrorKind::NoneSeat, span));
            }
            Builtin::Abs => ops::abs(x).map_err(|f| RunError::op(f, span))?,
            Builtin::Sign => ops::sign(x),
            Builtin::Min2 | Builtin::Max2 | Builtin::Top | Builtin::Bottom => {
                unreachable!("answered by `builtin_values` and the machine")
            }
            Builtin::ZoneOf => {
                let p = self.piece(x, span)?;
                self.st.zones.zone_of[p] as Val
            }
            Builtin::NodeOf => {
                let p = self.piece(x, span)?;
                let z = self.st.zones.zone_of[p];
                let (d, i) = self.g.zone_decl(z);
                if self.g.zones[d].scope == crate::ast::Scope::Node {
                    i as Val
                } else {
                    NONE
                }
            }
            Builtin::Revealed => {
                let p = self.piece(x, span)?;
                self.st.revealed[p] as Val
            }
            Builtin::EdgeBetween => {
                if x < 0 || y < 0 {
                    NONE
                } else {
                    self.g
                        .board
                        .edge_between(x as u32, y as u32)
                        .map(|e| e as Val)
                        .unwrap_or(NONE)
                }
            }
            Builtin::Sees => {
                let p = x;
                let x = self.piece(y, span)?;
                if p < 0 {
                    return Err(RunError::at(RunErrorKind::NoneSees, span));
                }
                crate::eval::view::visible(
                    self.g,
                    self.st,
                    x,
                    crate::eval::view::Viewer::Seat(p as usize),
                ) as Val
            }
            Builtin::Team => match &self.g.team {
                Some((e, nl)) => self.with_player(e, *nl, x, span)?,
                None => x,
            },
            Builtin::Distance => {
                if x < 0 || y < 0 {
                    return Err(RunError::at(RunErrorKind::NoneDistance, span));
                }
                match self.g.table_distance(x as usize, y as usize) {
                    Some(d) => d,
                    None => self.distance(x as usize, y as usize),
                }
            }
            Builtin::ZoneAt => {
                let s = self.st.zones.slice(x as u32);
                if y >= 1 && y as usize <= s.len() {
                    s[y as usize - 1] as Val
                } else {
                    NONE
                }
            }
            Builtin::Random
            | Builtin::First
            | Builtin::Last
            | Builtin::Empty
            | Builtin::Count
            | Builtin::SumList
            | Builtin::ListAt
            | Builtin::IndexOf
            | Builtin::LongestPath => {
                unreachable!("builtins of a collection always carry it")
            }
            Builtin::Set(..) => unreachable!("sets are answered by `set_op`"),
        })
    }

    /// The builtins of a collection.
    fn builtin_listed(
        &mut self,
        b: Builtin,
        args: &[Expr],
        c: Option<&Coll>,
        span: Span,
    ) -> R<Val> {
        Ok(match b {
            Builtin::Random if matches!(c, Some(Coll::Zone(_))) => {
                // Drawing from a plain zone reads it in place.
                let Some(Coll::Zone(z)) = c else {
                    unreachable!()
                };
                let id = self.zone_id(z, span)?;
                let len = self.st.zones.len(id);
                if len == 0 {
                    return Err(RunError::at(RunErrorKind::EmptyRandom, span));
                }
                let i = if self.st.rolls.is_empty() {
                    self.st.rng.gen_range(0..len as u32) as usize
                } else {
                    let elems: Vec<Val> =
                        self.st.zones.slice(id).iter().map(|&p| p as Val).collect();
                    self.scripted(&elems, false, span)?
                };
                self.st.zones.slice(id)[i] as Val
            }
            Builtin::IndexOf if matches!(c, Some(Coll::Zone(_))) => {
                // In a plain zone: where the piece lies says whether it is there.
                let Some(Coll::Zone(z)) = c else {
                    unreachable!()
                };
                let x = self.eval(&args[0], span)?;
                let id = self.zone_id(z, span)?;
                if x < 0
                    || x as usize >= self.g.piece_kind.len()
                    || self.st.zones.zone_of[x as usize] != id
                {
                    0
                } else {
                    self.st
                        .zones
                        .slice(id)
                        .iter()
                        .position(|&p| p as Val == x)
                        .map(|i| i as Val + 1)
                        .unwrap_or(0)
                }
            }
            Builtin::LongestPath => {
                let mark = self.st.scratch.len();
                self.coll(c.expect("collection builtins carry their collection"), span)?;
                self.longest_path(mark, span)?
            }
            Builtin::ListAt | Builtin::IndexOf => {
                let x = self.eval(&args[0], span)?;
                let mark = self.st.scratch.len();
                self.coll(c.expect("collection builtins carry their collection"), span)?;
                let len = (self.st.scratch.len() - mark) as Val;
                let r = if b == Builtin::IndexOf {
                    self.st.scratch[mark..]
                        .iter()
                        .position(|&v| v == x)
                        .map(|i| i as Val + 1)
                        .unwrap_or(0)
                } else if x >= 1 && x <= len {
                    self.st.scratch[mark + x as usize - 1]
                } else {
                    self.st.scratch.truncate(mark);
                    return Err(RunError::at(
                        RunErrorKind::IndexOutside { index: x, len },
                        span,
                    ));
                };
                self.st.scratch.truncate(mark);
                r
            }
            Builtin::Random
            | Builtin::First
            | Builtin::Last
            | Builtin::Empty
            | Builtin::Count
            | Builtin::SumList => {
                let mark = self.st.scratch.len();
                self.coll(c.expect("collection builtins carry their collection"), span)?;
                let len = self.st.scratch.len() - mark;
                let r = match b {
                    Builtin::Count => len as Val,
                    Builtin::Empty => (len == 0) as Val,
                    Builtin::First => {
                        if len == 0 {
                            NONE
                        } else {
                            self.st.scratch[mark]
                        }
                    }
                    Builtin::Last => self.st.scratch[mark..].last().copied().unwrap_or(NONE),
                    Builtin::SumList => match self.st.scratch[mark..]
                        .iter()
                        .try_fold(0i64, |a, &x| ops::add(a, x).ok())
                    {
                        Some(v) => v,
                        None => {
                            self.st.scratch.truncate(mark);
                            return Err(RunError::op(ops::Fault::Overflow, span));
                        }
                    },
                    _ => {
                        if len == 0 {
                            self.st.scratch.truncate(mark);
                            return Err(RunError::at(RunErrorKind::EmptyRandom, span));
                        }
                        let i = if self.st.rolls.is_empty() {
                            self.st.rng.gen_range(0..len as u32) as usize
                        } else {
                            let elems = self.st.scratch[mark..].to_vec();
                            let by_value = matches!(args.first(), Some(Expr::Const(1)));
                            match self.scripted(&elems, by_value, span) {
                                Ok(i) => i,
                                Err(e) => {
                                    self.st.scratch.truncate(mark);
                                    return Err(e);
                                }
                            }
                        };
                        self.st.scratch[mark + i]
                    }
                };
                self.st.scratch.truncate(mark);
                r
            }
            _ => unreachable!("builtins of values are answered by `builtin_values`"),
        })
    }

    /// The fewest edges from `a` to `b` (-1: no path), by a breadth-first
    /// search over the scratch stack: for boards too large for a table.
    #[inline(never)]
    fn distance(&mut self, a: usize, b: usize) -> Val {
        let board = &self.g.board;
        let n = board.nodes.len();
        let s = &mut self.st.scratch;
        let dist = s.len();
        s.resize(dist + n, -1);
        s[dist + a] = 0;
        let queue = s.len();
        s.push(a as Val);
        let mut head = queue;
        let mut r = -1;
        while head < s.len() {
            let u = s[head] as usize;
            head += 1;
            if u == b {
                r = s[dist + u];
                break;
            }
            for &v in board.successors(u as u32) {
                if s[dist + v as usize] < 0 {
                    s[dist + v as usize] = s[dist + u] + 1;
                    s.push(v as Val);
                }
            }
        }
        s.truncate(dist);
        r
    }

    /// The element a scripted roll picks (scenarios' `rolls`): a number
    /// drawn from numbers is the roll itself; from anything else, the roll
    /// is the element's 1-based position.
    #[cold]
    fn scripted(&mut self, elems: &[Val], by_value: bool, span: Span) -> R<usize> {
        let roll = self.st.rolls.remove(0);
        let found = if by_value {
            elems.iter().position(|&v| v == roll)
        } else {
            (roll >= 1 && roll as usize <= elems.len()).then(|| roll as usize - 1)
        };
        found.ok_or_else(|| {
            let what = if by_value {
                format!(
                    "{roll} is not among the values ({})",
                    elems
                        .iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            } else {
                format!("{roll} is not a position in 1..{}", elems.len())
            };
            RunError::at(RunErrorKind::ScriptedRoll(what.into()), span)
        })
    }
}
