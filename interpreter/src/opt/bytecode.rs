//! The `bytecode` pass: every expression a body evaluates (function bodies,
//! the statements of procedures, actions, `setup` and `play`, action
//! requirements, scores, tiebreaks, the team rule and invariants) is
//! compiled to a flat register program (`ir/bytecode.rs`) and replaced by an
//! [`Expr::Code`] naming it. The tree evaluator then pays one call per
//! expression instead of one per node, and the bytecode machine
//! (`eval/code.rs`) one dispatch per operation.
//!
//! A program's registers are slots of the frame of the body it runs in:
//! locals stay where they are, and temporaries get the slots above the
//! body's locals, whose count (`nlocals`) this pass raises. It is the last
//! pass, so no later pass renumbers a local under a program. A block
//! reached from two bodies (none is today) is left to the tree evaluator,
//! since its temporaries could not be placed above both frames.
//!
//! What the machine has no operation for (a collection sorted or made
//! distinct, `random`, positions in a list, …) stays a tree inside the
//! program, evaluated by the tree evaluator in the same frame.

use crate::ast::BinOp;
use crate::diag::Span;
use crate::ir::walk::{walk_c, walk_e, Visit};
use crate::ir::*;

/// Programs of at most this many operations (the `Ret` included) stay trees.
const MIN_OPS: usize = 3;

/// Compiles every body's expressions.
pub(super) fn run(g: &mut Game) {
    let shared = shared_blocks(g);
    let inl = Inlinable::of(g);
    for f in 0..g.fns.len() {
        let nl = g.fns[f].nlocals;
        let mut frame = Frame::new(nl);
        let mut body = std::mem::replace(&mut g.fns[f].body, Expr::Const(0));
        frame.root(g, &mut body, &inl);
        g.fns[f].body = body;
        g.fns[f].nlocals = frame.top;
    }
    for a in 0..g.actions.len() {
        let mut frame = Frame::new(g.actions[a].nlocals);
        let mut pre = std::mem::take(&mut g.actions[a].pre);
        for (e, _, _) in pre.iter_mut() {
            frame.root(g, e, &inl);
        }
        g.actions[a].pre = pre;
        let mut params = std::mem::take(&mut g.actions[a].params);
        for prm in params.iter_mut() {
            frame.root_coll(g, &mut prm.domain, &inl);
        }
        g.actions[a].params = params;
        frame.blocks(g, g.actions[a].body, &shared, &inl);
        g.actions[a].nlocals = frame.top;
    }
    for p in 0..g.procs.len() {
        let mut frame = Frame::new(g.procs[p].nlocals);
        frame.blocks(g, g.procs[p].body, &shared, &inl);
        g.procs[p].nlocals = frame.top;
    }
    if let Some((b, nl)) = g.setup {
        let mut frame = Frame::new(nl);
        frame.blocks(g, b, &shared, &inl);
        g.setup = Some((b, frame.top));
    }
    let (b, nl) = g.play;
    let mut frame = Frame::new(nl);
    frame.blocks(g, b, &shared, &inl);
    g.play = (b, frame.top);
    // Bodies of one player (local 0): the score, tiebreaks, team, invariants.
    let mut player_rules: Vec<(Expr, u16)> = vec![];
    if let Some((e, nl, _)) = &mut g.score {
        player_rules.push((std::mem::replace(e, Expr::Const(0)), *nl));
    }
    for (e, nl) in g.tiebreaks.iter_mut() {
        player_rules.push((std::mem::replace(e, Expr::Const(0)), *nl));
    }
    if let Some((e, nl)) = &mut g.team {
        player_rules.push((std::mem::replace(e, Expr::Const(0)), *nl));
    }
    for (_, e, nl, _) in g.invariants.iter_mut() {
        player_rules.push((std::mem::replace(e, Expr::Const(0)), *nl));
    }
    let done: Vec<(Expr, u16)> = player_rules
        .into_iter()
        .map(|(mut e, nl)| {
            let mut frame = Frame::new(nl);
            frame.root(g, &mut e, &inl);
            (e, frame.top)
        })
        .collect();
    let mut done = done.into_iter();
    let mut next = || done.next().expect("one compiled rule per rule taken");
    if let Some(s) = &mut g.score {
        (s.0, s.1) = next();
    }
    for t in g.tiebreaks.iter_mut() {
        *t = next();
    }
    if let Some(t) = &mut g.team {
        *t = next();
    }
    for inv in g.invariants.iter_mut() {
        (inv.1, inv.2) = next();
    }
}

/// One body's frame: its own locals, and the highest slot a program placed
/// in it uses.
struct Frame {
    locals: u16,
    top: u16,
}

impl Frame {
    fn new(locals: u16) -> Frame {
        Frame { locals, top: locals }
    }

    /// Compiles one expression of this frame in place.
    fn root(&mut self, g: &mut Game, e: &mut Expr, inl: &Inlinable) {
        if matches!(e, Expr::Const(_) | Expr::Local(_) | Expr::Var(_, None) | Expr::Code(_)) {
            return;
        }
        let mut out = vec![];
        let base_id = g.programs.len() as u32;
        let Some(top) = compile(g, inl, e, self.locals as u32, base_id, &mut out) else { return };
        let Ok(top) = u16::try_from(top) else { return };
        // A program of one or two operations is not worth its call: the
        // tree evaluator answers such an expression in a call or two too
        // (measured: compiling them made rulesets of many small expressions
        // slower). Key lookups and calls are the exception: the machine
        // runs their values and arguments without the tree.
        let root = out.last().expect("the root program is compiled last");
        if root.ops.len() <= MIN_OPS && !root.ops.iter().any(|op| matches!(op, BOp::KeyLookup { .. } | BOp::Call { .. })) {
            return;
        }
        self.top = self.top.max(top);
        *e = Expr::Code(base_id + out.len() as u32 - 1);
        g.programs.extend(out);
    }

    /// Compiles one collection of this frame in place: a filter or a map,
    /// whose test or value runs per element (other collections are listed
    /// by the tree evaluator in one call).
    fn root_coll(&mut self, g: &mut Game, c: &mut Coll, inl: &Inlinable) {
        if !matches!(c, Coll::Filter(..) | Coll::Map(..)) {
            return;
        }
        let mut out = vec![];
        let base_id = g.programs.len() as u32;
        let Some(top) = compile_listing(g, inl, c, self.locals as u32, base_id, &mut out) else { return };
        let Ok(top) = u16::try_from(top) else { return };
        self.top = self.top.max(top);
        *c = Coll::Code(base_id + out.len() as u32 - 1);
        g.programs.extend(out);
    }

    /// Compiles the statements of `root` and the blocks nested in it, unless
    /// a block is shared with another body.
    fn blocks(&mut self, g: &mut Game, root: BlockId, shared: &[bool], inl: &Inlinable) {
        for b in nested(g, root, shared) {
            let mut stmts = std::mem::take(&mut g.blocks[b as usize]);
            for st in stmts.iter_mut() {
                match &mut st.s {
                    Instr::Let(_, e) | Instr::Assign(_, _, e) | Instr::If(e, _, _) | Instr::While(e, _) | Instr::Require(e) | Instr::Reveal(e, _) => self.root(g, e, inl),
                    Instr::Act { player, .. } => self.root(g, player, inl),
                    Instr::Choose { player, from, .. } => {
                        self.root(g, player, inl);
                        self.root_coll(g, from, inl);
                    }
                    Instr::Call(_, args) => args.iter_mut().for_each(|a| self.root(g, a, inl)),
                    Instr::Move(MoveWhat::One(e), _, _) => self.root(g, e, inl),
                    Instr::Move(MoveWhat::All(c), _, _) | Instr::For(_, c, _) => self.root_coll(g, c, inl),
                    Instr::Move(MoveWhat::N(e, c), _, _) => {
                        self.root(g, e, inl);
                        self.root_coll(g, c, inl);
                    }
                    Instr::Shuffle(_) | Instr::Break | Instr::Continue | Instr::Return | Instr::Log(_) | Instr::EndGame => {}
                }
            }
            g.blocks[b as usize] = stmts;
        }
    }
}

/// The blocks nested in `root` (itself included) that no other body reaches.
fn nested(g: &Game, root: BlockId, shared: &[bool]) -> Vec<BlockId> {
    let mut out = crate::ir::walk::nested_blocks(g, root);
    out.retain(|b| !shared[*b as usize]);
    out
}

/// Blocks that two statements name (the checker makes a block per use, so
/// this finds none; it keeps the pass safe should that change).
fn shared_blocks(g: &Game) -> Vec<bool> {
    let mut uses = vec![0u32; g.blocks.len()];
    let mut roots: Vec<BlockId> = vec![g.play.0];
    roots.extend(g.setup.map(|s| s.0));
    roots.extend(g.procs.iter().map(|p| p.body));
    roots.extend(g.actions.iter().map(|a| a.body));
    for r in roots {
        uses[r as usize] += 1;
    }
    for b in &g.blocks {
        for st in b {
            match &st.s {
                Instr::If(_, t, e) => {
                    uses[*t as usize] += 1;
                    if let Some(e) = e {
                        uses[*e as usize] += 1;
                    }
                }
                Instr::While(_, b) | Instr::For(_, _, b) | Instr::Act { els: Some(b), .. } => uses[*b as usize] += 1,
                _ => {}
            }
        }
    }
    uses.iter().map(|&u| u > 1).collect()
}

/// Compiles `e` for a frame whose temporaries start at slot `temps`: the
/// programs go to `out` (key lookup values first, the root last, numbered
/// from `base_id`); returns the highest slot used plus one, or `None` when a
/// table would outgrow its index.
fn compile(g: &Game, inl: &Inlinable, e: &Expr, temps: u32, base_id: u32, out: &mut Vec<Program>) -> Option<u32> {
    let mut c = Comp::new(g, inl, temps, base_id);
    let d = c.expr(e, CALLER_SPAN);
    c.emit(BOp::Ret { s: d });
    c.finish(e.clone(), out)
}

/// Calls compiled in place inside each other at most this deep.
const MAX_INLINED: u32 = 3;
/// Functions whose bodies have more nodes than this are called, not inlined.
const MAX_INLINED_NODES: usize = 48;

/// Which functions a call may compile in place: those that cannot reach
/// themselves through calls and are small, with their bodies as the rules
/// wrote them (before this pass compiled them) and their parameter and
/// local counts.
struct Inlinable {
    bodies: Vec<(Expr, u16, u16)>,
    ok: Vec<bool>,
}

impl Inlinable {
    fn of(g: &Game) -> Inlinable {
        let n = g.fns.len();
        let mut calls: Vec<Vec<u16>> = vec![vec![]; n];
        let mut size = vec![0usize; n];
        for (f, fd) in g.fns.iter().enumerate() {
            walk_e(&mut fd.body.clone(), &mut |x: &mut Expr| {
                size[f] += 1;
                if let Expr::Call { func, .. } = x {
                    calls[f].push(*func);
                }
            });
        }
        let ok = (0..n)
            .map(|f| {
                // Whether `f` reaches itself: a search over the call graph.
                let mut seen = vec![false; n];
                let mut stack: Vec<u16> = calls[f].clone();
                while let Some(c) = stack.pop() {
                    if c as usize == f {
                        return false;
                    }
                    if !std::mem::replace(&mut seen[c as usize], true) {
                        stack.extend(&calls[c as usize]);
                    }
                }
                size[f] <= MAX_INLINED_NODES
            })
            .collect();
        Inlinable { bodies: g.fns.iter().map(|f| (f.body.clone(), f.nparams, f.nlocals)).collect(), ok }
    }
}

/// Renames locals to the registers they live in (see [`Comp::remap`]).
struct Rename<'m>(&'m [Reg]);

impl Rename<'_> {
    fn at(&self, s: &mut u16) {
        if let Some(r) = self.0.get(*s as usize) {
            *s = *r;
        }
    }
}

impl Visit for Rename<'_> {
    fn expr(&mut self, e: &mut Expr) {
        if let Expr::Local(s) | Expr::Agg { slot: s, .. } = e {
            self.at(s);
        }
    }

    fn coll(&mut self, c: &mut Coll) {
        if let Coll::Filter(_, s, _) | Coll::Map(_, s, _) | Coll::Distinct(_, s, _) | Coll::Sorted(_, s, _) = c {
            self.at(s);
        }
    }
}

/// The registers an aggregate's loop updates: the answer, the best key so
/// far and whether there is one (`best`/`worst`), and the scratch mark a
/// failing `sum` drops back to.
#[derive(Clone, Copy)]
struct Acc {
    d: Reg,
    key: Reg,
    has: Reg,
    m: Reg,
}

/// Compiles a collection to a program that pushes its elements (the
/// caller counts them against the budget, as the tree's `coll` does).
fn compile_listing(g: &Game, inl: &Inlinable, c: &Coll, temps: u32, base_id: u32, out: &mut Vec<Program>) -> Option<u32> {
    let mut comp = Comp::new(g, inl, temps, base_id);
    let m = comp.temp();
    comp.emit(BOp::Mark { d: m });
    comp.elements(c, m, CALLER_SPAN);
    comp.emit(BOp::Ret { s: m });
    comp.p.listed = Some(c.clone());
    comp.finish(Expr::Const(0), out)
}

struct Comp<'g> {
    g: &'g Game,
    inl: &'g Inlinable,
    /// Where each local of the body being compiled lives: the identity
    /// (empty) for the frame's own expressions; inside an inlined call, the
    /// callee's parameters are the argument registers and its other locals
    /// fresh temporaries.
    map: Vec<Reg>,
    /// Calls inlined around the code being compiled.
    inlined: u32,
    p: Program,
    next: u32,
    top: u32,
    base_id: u32,
    /// Key lookup value programs, compiled before the root.
    subs: Vec<Program>,
    overflow: bool,
}

impl<'g> Comp<'g> {
    fn new(g: &'g Game, inl: &'g Inlinable, temps: u32, base_id: u32) -> Comp<'g> {
        let p = Program { ops: vec![], spans: vec![Span::default()], trees: vec![], colls: vec![], preds: vec![], regs: vec![], lookups: vec![], nregs: 0, source: Expr::Const(0), listed: None };
        Comp { g, inl, map: vec![], inlined: 0, p, next: temps, top: temps, base_id, subs: vec![], overflow: false }
    }

    fn finish(mut self, source: Expr, out: &mut Vec<Program>) -> Option<u32> {
        if self.overflow || self.p.ops.len() > u32::MAX as usize / 2 {
            return None;
        }
        self.p.source = source;
        if !self.p.seal() || !self.subs.iter_mut().all(|s| s.seal()) {
            return None;
        }
        out.append(&mut self.subs);
        out.push(self.p);
        Some(self.top)
    }

    fn temp(&mut self) -> Reg {
        let r = self.next;
        self.next += 1;
        self.top = self.top.max(self.next);
        if self.next > u16::MAX as u32 {
            self.overflow = true;
            return 0;
        }
        r as Reg
    }

    fn emit(&mut self, op: BOp) -> usize {
        self.p.ops.push(op);
        self.p.ops.len() - 1
    }

    fn here(&self) -> u32 {
        self.p.ops.len() as u32
    }

    /// Points the jump at `at` to the next operation.
    fn patch(&mut self, at: usize) {
        let here = self.here();
        self.patch_to(at, here);
    }

    fn patch_to(&mut self, at: usize, here: u32) {
        match &mut self.p.ops[at] {
            BOp::Jump { to } | BOp::JumpIf { to, .. } | BOp::JumpUnless { to, .. } | BOp::JumpEqK { to, .. } | BOp::JumpNeK { to, .. } => *to = here,
            BOp::Next { exit, .. } | BOp::NextRev { exit, .. } | BOp::IterNext { exit, .. } => *exit = here,
            _ => {}
        }
    }

    /// Compiles a condition as jumps: the returned jumps (to be patched)
    /// are taken when the condition's truth is `when`; otherwise control
    /// falls through. Connectives short-circuit in the order written, as
    /// their values do.
    fn branch(&mut self, e: &Expr, when: bool, sp: u16) -> Vec<usize> {
        match e {
            Expr::Not(a) => self.branch(a, !when, sp),
            Expr::Bin(op @ (BinOp::And | BinOp::Or), a, b) => {
                // `a and b` jumps when false as soon as either part is
                // false, and when true only through `b` (a false `a` skips
                // it); `or` is the mirror image.
                let settles = *op == BinOp::Or;
                if when == settles {
                    let mut j = self.branch(a, when, sp);
                    j.extend(self.branch(b, when, sp));
                    j
                } else {
                    let skip = self.branch(a, !when, sp);
                    let j = self.branch(b, when, sp);
                    for s in skip {
                        self.patch(s);
                    }
                    j
                }
            }
            Expr::Bin(op @ (BinOp::Eq | BinOp::Ne), a, b) if matches!(**b, Expr::Const(_)) => {
                let Expr::Const(k) = **b else { return vec![] };
                let keep = self.next;
                let a = self.expr(a, sp);
                self.next = keep;
                let eq = (*op == BinOp::Eq) == when;
                vec![self.emit(if eq { BOp::JumpEqK { a, k, to: 0 } } else { BOp::JumpNeK { a, k, to: 0 } })]
            }
            _ => {
                let keep = self.next;
                let c = self.expr(e, sp);
                self.next = keep;
                vec![self.emit(if when { BOp::JumpIf { c, to: 0 } } else { BOp::JumpUnless { c, to: 0 } })]
            }
        }
    }

    fn span(&mut self, s: Span) -> u16 {
        if self.p.spans.last() == Some(&s) && self.p.spans.len() > 1 {
            return (self.p.spans.len() - 1) as u16;
        }
        if self.p.spans.len() >= u16::MAX as usize {
            self.overflow = true;
            return CALLER_SPAN;
        }
        self.p.spans.push(s);
        (self.p.spans.len() - 1) as u16
    }

    fn tree(&mut self, e: &Expr, d: Reg, sp: u16) {
        let e = self.remap(e);
        self.p.trees.push(e);
        let e = (self.p.trees.len() - 1) as u32;
        self.emit(BOp::Tree { d, e, sp });
    }

    /// The register of local `s` of the body being compiled.
    fn loc(&self, s: u16) -> Reg {
        self.map.get(s as usize).copied().unwrap_or(s)
    }

    /// A tree left to the tree evaluator, with its locals renamed to their
    /// registers (it runs in the same frame).
    fn remap(&self, e: &Expr) -> Expr {
        let mut e = e.clone();
        if !self.map.is_empty() {
            walk_e(&mut e, &mut Rename(&self.map));
        }
        e
    }

    fn remap_coll(&self, c: &Coll) -> Coll {
        let mut c = c.clone();
        if !self.map.is_empty() {
            walk_c(&mut c, &mut Rename(&self.map));
        }
        c
    }

    /// A call compiled in place: the callee's body with its parameters in
    /// the argument registers and its other locals in fresh temporaries,
    /// between `CallEnter` (the step and the depth a call counts) and
    /// `CallLeave`. Its errors point at the call, as a call's do.
    fn inline_call(&mut self, func: u16, args: &[Reg], d: Reg, sp: u16) {
        let (body, nparams, nlocals) = &self.inl.bodies[func as usize];
        let mut map: Vec<Reg> = args[..*nparams as usize].to_vec();
        for _ in *nparams..*nlocals {
            let t = self.temp();
            map.push(t);
        }
        self.emit(BOp::CallEnter { sp });
        let outer = std::mem::replace(&mut self.map, map);
        self.inlined += 1;
        self.into(body, d, sp);
        self.inlined -= 1;
        self.map = outer;
        self.emit(BOp::CallLeave);
    }

    /// The register holding `e`'s value: a local where it lives, else a
    /// fresh temporary (the temporaries of its parts are free again after).
    fn expr(&mut self, e: &Expr, sp: u16) -> Reg {
        if let Expr::Local(s) = e {
            return self.loc(*s);
        }
        let d = self.temp();
        self.into(e, d, sp);
        self.next = d as u32 + 1;
        d
    }

    /// Compiles `e` to write register `d`.
    fn into(&mut self, e: &Expr, d: Reg, sp: u16) {
        match e {
            Expr::Const(v) => drop(self.emit(BOp::Const { d, v: *v })),
            Expr::Local(s) => {
                let s = self.loc(*s);
                self.emit(BOp::Mov { d, s });
            }
            Expr::Var(at, None) => drop(self.emit(BOp::Var { d, at: *at })),
            Expr::Var(base, Some(i)) => {
                let i = self.expr(i, sp);
                self.emit(BOp::VarAt { d, base: *base, i, sp });
            }
            Expr::Field(fid, a) => {
                let p = self.expr(a, sp);
                self.emit(BOp::Field { d, fid: *fid, p, sp });
            }
            Expr::Owner(a) => {
                let p = self.expr(a, sp);
                self.emit(BOp::Owner { d, p, sp });
            }
            Expr::NodeAttr(attr, a) => {
                let n = self.expr(a, sp);
                self.emit(BOp::NodeAttr { d, attr: *attr, n, sp });
            }
            Expr::EdgeAttr(attr, a) => {
                let e = self.expr(a, sp);
                self.emit(BOp::EdgeAttr { d, attr: *attr, e, sp });
            }
            Expr::EdgeFrom(a) | Expr::EdgeTo(a) => {
                let x = self.expr(a, sp);
                self.emit(BOp::EdgeEnd { d, e: x, to: matches!(e, Expr::EdgeTo(_)), sp });
            }
            Expr::IsKind(a, kind) => {
                let p = self.expr(a, sp);
                self.emit(BOp::IsKind { d, p, kind: *kind });
            }
            Expr::Pos2(a, b, stride) => {
                let a = self.expr(a, sp);
                let b = self.expr(b, sp);
                self.emit(BOp::Pos2 { d, a, b, stride: *stride, sp });
            }
            Expr::Zone(z) => self.zone(z, d, sp),
            Expr::ZoneLen(z) | Expr::ZoneEmpty(z) => {
                let empty = matches!(e, Expr::ZoneEmpty(_));
                match &z.index {
                    ZIndex::Node(x) | ZIndex::Player(x) => {
                        let dim = if matches!(z.index, ZIndex::Node(_)) { ZDim::Node } else { ZDim::Player };
                        let i = self.expr(x, sp);
                        self.emit(BOp::ZoneLenOf { d, base: z.base, i, dim, empty, sp });
                    }
                    _ => {
                        self.zone(z, d, sp);
                        self.emit(if empty { BOp::ZoneEmpty { d, z: d } } else { BOp::ZoneLen { d, z: d } });
                    }
                }
            }
            Expr::Agg { op, coll, slot, body } => self.agg(*op, coll, self.loc(*slot), body.as_deref(), d, sp),
            Expr::Neg(a) => {
                let a = self.expr(a, sp);
                self.emit(BOp::Neg { d, a, sp });
            }
            Expr::Not(a) => {
                let a = self.expr(a, sp);
                self.emit(BOp::Not { d, a });
            }
            Expr::Bin(op @ (BinOp::And | BinOp::Or), a, b) => {
                // Short-circuit: `d` holds the answer should `b` not run.
                let a = self.expr(a, sp);
                let and = *op == BinOp::And;
                self.emit(BOp::Const { d, v: (!and) as Val });
                let j = self.emit(if and { BOp::JumpUnless { c: a, to: 0 } } else { BOp::JumpIf { c: a, to: 0 } });
                let b = self.expr(b, sp);
                self.emit(BOp::Truth { d, a: b });
                self.patch(j);
            }
            Expr::Bin(op, a, b) => self.bin(e, *op, a, b, d, sp),
            Expr::In(a, c) => {
                let x = self.expr(a, sp);
                let m = self.temp();
                self.emit(BOp::Mark { d: m });
                self.coll(c, m, sp);
                self.emit(BOp::Contains { d, x, m });
            }
            Expr::If(c, a, b) => {
                let js = self.branch(c, false, sp);
                self.into(a, d, sp);
                let end = self.emit(BOp::Jump { to: 0 });
                for j in js {
                    self.patch(j);
                }
                self.into(b, d, sp);
                self.patch(end);
            }
            Expr::Call { func, args, span } => {
                let sp = self.span(*span);
                let regs: Vec<Reg> = args.iter().map(|a| self.expr(a, sp)).collect();
                if self.inlined < MAX_INLINED && self.inl.ok[*func as usize] {
                    return self.inline_call(*func, &regs, d, sp);
                }
                let at = self.p.regs.len() as u32;
                self.p.regs.extend(regs);
                self.emit(BOp::Call { d, func: *func, args: at, n: args.len() as u16, sp });
            }
            Expr::Builtin(b, args, None, span) if args.len() <= 2 => {
                let sp = self.span(*span);
                let x = args.first().map_or(d, |a| self.expr(a, sp));
                let y = args.get(1).map_or(d, |a| self.expr(a, sp));
                self.emit(BOp::Builtin { d, b: *b, x, y, sp });
            }
            Expr::Builtin(b @ (Builtin::Count | Builtin::Empty | Builtin::First | Builtin::Last | Builtin::SumList), _, Some(c), span) => {
                let sp = self.span(*span);
                let what = match b {
                    Builtin::Count => Listed::Count,
                    Builtin::Empty => Listed::Empty,
                    Builtin::First => Listed::First,
                    Builtin::Last => Listed::Last,
                    _ => Listed::Sum,
                };
                let m = self.temp();
                self.emit(BOp::Mark { d: m });
                self.coll(c, m, sp);
                self.emit(BOp::Listed { d, m, what, sp });
            }
            Expr::NodesZoneAgg(op, p) => {
                self.p.preds.push(p.clone());
                let pred = (self.p.preds.len() - 1) as u32;
                self.emit(BOp::NodesZoneAgg { d, op: *op, pred });
            }
            Expr::NodeByKey { key, vals, within, fallback } => self.key_lookup(e, *key, vals, within, fallback, d, sp),
            Expr::Builtin(..) | Expr::Code(_) => self.tree(e, d, sp),
        }
    }

    fn bin(&mut self, e: &Expr, op: BinOp, a: &Expr, b: &Expr, d: Reg, sp: u16) {
        if matches!(op, BinOp::And | BinOp::Or | BinOp::In) {
            // Connectives are compiled by the caller and `in` is lowered to
            // `Expr::In`; whatever else is left to the tree.
            return self.tree(e, d, sp);
        }
        // A constant right operand is folded into the operation.
        if let Expr::Const(k) = *b {
            let op = match op {
                BinOp::Add => Some(BOp::AddK { d, a: 0, k, sp }),
                BinOp::Sub if k != Val::MIN => Some(BOp::AddK { d, a: 0, k: -k, sp }),
                BinOp::Eq => Some(BOp::EqK { d, a: 0, k }),
                BinOp::Ne => Some(BOp::NeK { d, a: 0, k }),
                BinOp::Lt => Some(BOp::LtK { d, a: 0, k }),
                BinOp::Gt => Some(BOp::GtK { d, a: 0, k }),
                BinOp::Le if k != Val::MAX => Some(BOp::LtK { d, a: 0, k: k + 1 }),
                BinOp::Ge if k != Val::MIN => Some(BOp::GtK { d, a: 0, k: k - 1 }),
                _ => None,
            };
            if let Some(mut op) = op {
                let r = self.expr(a, sp);
                match &mut op {
                    BOp::AddK { a, .. } | BOp::EqK { a, .. } | BOp::NeK { a, .. } | BOp::LtK { a, .. } | BOp::GtK { a, .. } => *a = r,
                    _ => {}
                }
                self.emit(op);
                return;
            }
        }
        let x = self.expr(a, sp);
        let y = self.expr(b, sp);
        let op = match op {
            BinOp::Add => BOp::Add { d, a: x, b: y, sp },
            BinOp::Sub => BOp::Sub { d, a: x, b: y, sp },
            BinOp::Mul => BOp::Mul { d, a: x, b: y, sp },
            BinOp::Div => BOp::Div { d, a: x, b: y, sp },
            BinOp::Rem => BOp::Rem { d, a: x, b: y, sp },
            BinOp::Eq => BOp::Eq { d, a: x, b: y },
            BinOp::Ne => BOp::Ne { d, a: x, b: y },
            BinOp::Lt => BOp::Lt { d, a: x, b: y },
            BinOp::Le => BOp::Le { d, a: x, b: y },
            BinOp::Gt => BOp::Lt { d, a: y, b: x },
            BinOp::Ge => BOp::Le { d, a: y, b: x },
            BinOp::And | BinOp::Or | BinOp::In => return self.tree(e, d, sp),
        };
        self.emit(op);
    }

    /// The zone a reference names, into `d`.
    fn zone(&mut self, z: &ZoneRef, d: Reg, sp: u16) {
        let (dim, x, n) = match &z.index {
            ZIndex::Global => (ZDim::Global, None, 0),
            ZIndex::Player(x) => (ZDim::Player, Some(x), 0),
            ZIndex::Node(x) => (ZDim::Node, Some(x), 0),
            ZIndex::Edge(x) => (ZDim::Edge, Some(x), 0),
            ZIndex::At(x, n) => (ZDim::At, Some(x), *n),
            ZIndex::Value(x) => (ZDim::Value, Some(x), 0),
        };
        let i = x.map_or(d, |x| self.expr(x, sp));
        self.emit(BOp::Zone { d, base: z.base, i, dim, n, sp });
    }

    /// Lists a collection above mark `m` (which the caller has set), counted
    /// against the step budget as the tree evaluator counts it.
    fn coll(&mut self, c: &Coll, m: Reg, sp: u16) {
        if matches!(c, Coll::Distinct(..) | Coll::Sorted(..) | Coll::Reachable(..) | Coll::Code(_)) {
            let c = self.remap_coll(c);
            self.p.colls.push(c);
            let c = (self.p.colls.len() - 1) as u32;
            self.emit(BOp::PushTree { c, sp });
            return;
        }
        let keep = self.next;
        self.elements(c, m, sp);
        self.next = keep;
        self.emit(BOp::Charge { m, sp });
    }

    fn elements(&mut self, c: &Coll, m: Reg, sp: u16) {
        match c {
            Coll::Zone(z) => {
                let t = self.temp();
                self.zone(z, t, sp);
                self.emit(BOp::PushZone { z: t });
            }
            Coll::Players => drop(self.emit(BOp::PushPlayers)),
            Coll::PlayersFrom(e) | Coll::Opponents(e) => {
                let p = self.expr(e, sp);
                self.emit(BOp::PushPlayersFrom { p, skip: matches!(c, Coll::Opponents(_)), sp });
            }
            Coll::Nodes => drop(self.emit(BOp::PushNodes)),
            Coll::Edges => drop(self.emit(BOp::PushEdges)),
            Coll::Successors(e) | Coll::Predecessors(e) | Coll::Neighbors(e) | Coll::EdgesOf(e) => {
                let adj = match c {
                    Coll::Successors(_) => Adj::Successors,
                    Coll::Predecessors(_) => Adj::Predecessors,
                    Coll::Neighbors(_) => Adj::Neighbors,
                    _ => Adj::OutEdges,
                };
                let n = self.expr(e, sp);
                self.emit(BOp::PushAdj { n, adj, sp });
            }
            Coll::Range(a, b) => {
                let a = self.expr(a, sp);
                let b = self.expr(b, sp);
                self.emit(BOp::PushRange { a, b, sp });
            }
            Coll::List(es) => {
                for e in es {
                    let keep = self.next;
                    let s = self.expr(e, sp);
                    self.emit(BOp::Push { s });
                    self.next = keep;
                }
            }
            Coll::NodesWhereZones(p) => {
                self.p.preds.push(p.clone());
                let pred = (self.p.preds.len() - 1) as u32;
                self.emit(BOp::PushZPred { pred });
            }
            Coll::NodesWithAttr(attr, e) => {
                let v = self.expr(e, sp);
                self.emit(BOp::PushAttr { attr: *attr, v });
            }
            Coll::Filter(inner, slot, body) | Coll::Map(inner, slot, body) => {
                let slot = &self.loc(*slot);
                // The inner list is compacted in place: kept elements (or
                // mapped values) are written from the mark up.
                self.coll(inner, m, sp);
                let end = self.temp();
                self.emit(BOp::Mark { d: end });
                let w = self.temp();
                self.emit(BOp::Mov { d: w, s: m });
                let i = self.temp();
                self.emit(BOp::Mov { d: i, s: m });
                let top = self.here();
                let next = self.emit(BOp::Next { i, end, slot: *slot, exit: 0 });
                let keep = self.next;
                if matches!(c, Coll::Filter(..)) {
                    for j in self.branch(body, false, sp) {
                        self.patch_to(j, top);
                    }
                    self.emit(BOp::Put { w, s: *slot });
                } else {
                    let v = self.expr(body, sp);
                    self.emit(BOp::Put { w, s: v });
                }
                self.next = keep;
                self.emit(BOp::Jump { to: top });
                self.patch(next);
                self.emit(BOp::Truncate { m: w });
            }
            Coll::Distinct(..) | Coll::Sorted(..) | Coll::Reachable(..) | Coll::Code(_) => {
                let c = self.remap_coll(c);
                self.p.colls.push(c);
                let c = (self.p.colls.len() - 1) as u32;
                self.emit(BOp::PushTree { c, sp });
            }
        }
    }

    /// An aggregate over a collection, as the tree evaluator's `agg`.
    #[allow(clippy::too_many_arguments)]
    fn agg(&mut self, op: AggOp, coll: &Coll, slot: u16, body: Option<&Expr>, d: Reg, sp: u16) {
        // Over a zone, all nodes or a node's neighbours the loop reads the
        // elements where they are: the body cannot change them (expressions
        // move nothing), and they are counted against the budget up front,
        // as listing them would.
        let what = match coll {
            Coll::Zone(_) => Some(Iter::Zone),
            Coll::Nodes => Some(Iter::Nodes),
            Coll::Successors(_) => Some(Iter::Adj(Adj::Successors)),
            Coll::Predecessors(_) => Some(Iter::Adj(Adj::Predecessors)),
            Coll::Neighbors(_) => Some(Iter::Adj(Adj::Neighbors)),
            Coll::EdgesOf(_) => Some(Iter::Adj(Adj::OutEdges)),
            _ => None,
        };
        if let (Some(what), false) = (what, matches!(op, AggOp::Last | AggOp::Min | AggOp::Max)) {
            return self.agg_in_place(op, coll, what, slot, body, d, sp);
        }
        let m = self.temp();
        self.emit(BOp::Mark { d: m });
        self.coll(coll, m, sp);
        let end = self.temp();
        self.emit(BOp::Mark { d: end });
        let init = match op {
            AggOp::Count | AggOp::Sum | AggOp::Any => 0,
            AggOp::All => 1,
            AggOp::Min => Val::MAX,
            AggOp::Max => Val::MIN,
            AggOp::Best | AggOp::Worst | AggOp::First | AggOp::Last => NONE,
        };
        self.emit(BOp::Const { d, v: init });
        let (key, has) = if matches!(op, AggOp::Best | AggOp::Worst) {
            let (k, h) = (self.temp(), self.temp());
            self.emit(BOp::Const { d: h, v: 0 });
            (k, h)
        } else {
            (d, d)
        };
        let i = self.temp();
        let top = self.here() + 1;
        let next = if op == AggOp::Last {
            self.emit(BOp::Mov { d: i, s: end });
            self.emit(BOp::NextRev { i, m, slot, exit: 0 })
        } else {
            self.emit(BOp::Mov { d: i, s: m });
            self.emit(BOp::Next { i, end, slot, exit: 0 })
        };
        self.agg_loop(op, slot, body, Acc { d, key, has, m }, top, next, sp);
        self.emit(BOp::Truncate { m });
        if matches!(op, AggOp::Min | AggOp::Max) {
            self.emit(BOp::ErrEmpty { m, e: end, max: op == AggOp::Max, sp });
        }
    }

    /// An aggregate whose elements are read in place (see [`Comp::agg`]).
    #[allow(clippy::too_many_arguments)]
    fn agg_in_place(&mut self, op: AggOp, coll: &Coll, what: Iter, slot: u16, body: Option<&Expr>, d: Reg, sp: u16) {
        let src = match coll {
            Coll::Zone(z) => {
                let t = self.temp();
                self.zone(z, t, sp);
                t
            }
            // A local or a temporary below the loop's: either keeps the
            // node for the whole loop.
            Coll::Successors(e) | Coll::Predecessors(e) | Coll::Neighbors(e) | Coll::EdgesOf(e) => self.expr(e, sp),
            _ => d,
        };
        let (i, end) = (self.temp(), self.temp());
        self.emit(BOp::IterInit { what, src, i, end, sp });
        let init = match op {
            AggOp::Count | AggOp::Sum | AggOp::Any => 0,
            AggOp::All => 1,
            _ => NONE,
        };
        self.emit(BOp::Const { d, v: init });
        let (key, has) = if matches!(op, AggOp::Best | AggOp::Worst) {
            let (k, h) = (self.temp(), self.temp());
            self.emit(BOp::Const { d: h, v: 0 });
            (k, h)
        } else {
            (d, d)
        };
        // `SumAcc` drops the list above its mark on overflow: here there is
        // none, so the mark is the height the loop starts at.
        let m = if op == AggOp::Sum {
            let m = self.temp();
            self.emit(BOp::Mark { d: m });
            m
        } else {
            d
        };
        let top = self.here();
        let next = self.emit(BOp::IterNext { what, src, i, end, slot, exit: 0 });
        self.agg_loop(op, slot, body, Acc { d, key, has, m }, top, next, sp);
    }

    /// The body of an aggregate's loop, from the element bound in `slot` at
    /// `top` (the loop step, jumping out through `next`): its test or value
    /// and what that does to the answer; then back to `top`, or out early
    /// once the answer is settled.
    #[allow(clippy::too_many_arguments)]
    fn agg_loop(&mut self, op: AggOp, slot: u16, body: Option<&Expr>, acc: Acc, top: u32, next: usize, sp: u16) {
        let Acc { d, key, has, m } = acc;
        let keep = self.next;
        let stops = matches!(op, AggOp::Any | AggOp::All | AggOp::First | AggOp::Last);
        let v = match body {
            // A test that stops the search is compiled as jumps.
            Some(b) if stops => {
                for j in self.branch(b, op == AggOp::All, sp) {
                    self.patch_to(j, top);
                }
                d
            }
            Some(b) => self.expr(b, sp),
            None => {
                let t = self.temp();
                self.emit(BOp::Const { d: t, v: 1 });
                if stops {
                    self.emit(if op == AggOp::All { BOp::JumpIf { c: t, to: top } } else { BOp::JumpUnless { c: t, to: top } });
                }
                t
            }
        };
        let mut exit = None;
        match op {
            AggOp::Count => drop(self.emit(BOp::CountIf { d, v })),
            AggOp::Sum => drop(self.emit(BOp::SumAcc { d, v, m, sp })),
            AggOp::Min => drop(self.emit(BOp::MinAcc { d, v })),
            AggOp::Max => drop(self.emit(BOp::MaxAcc { d, v })),
            AggOp::Best | AggOp::Worst => drop(self.emit(BOp::BestAcc { d, key, has, x: slot, v, worst: op == AggOp::Worst })),
            AggOp::Any | AggOp::All | AggOp::First | AggOp::Last => {
                // The test above went back to `top` unless this element
                // settles the answer.
                self.emit(match op {
                    AggOp::Any => BOp::Const { d, v: 1 },
                    AggOp::All => BOp::Const { d, v: 0 },
                    _ => BOp::Mov { d, s: slot },
                });
                exit = Some(self.emit(BOp::Jump { to: 0 }));
            }
        }
        self.next = keep;
        if exit.is_none() {
            self.emit(BOp::Jump { to: top });
        }
        self.patch(next);
        if let Some(j) = exit {
            self.patch(j);
        }
    }

    /// A key lookup (`opt/board_index.rs`): within all nodes or a node's
    /// neighbours it runs here; within any other collection it is left to
    /// the tree. Each value is a program of its own, so that one that fails
    /// can hand over to the original search.
    #[allow(clippy::too_many_arguments)]
    fn key_lookup(&mut self, e: &Expr, key: u16, vals: &[Expr], within: &Coll, fallback: &Expr, d: Reg, sp: u16) {
        // A value holding a key lookup of its own would need programs of
        // its own: such lookups are left to the tree, decided before
        // anything is emitted so that nothing is evaluated twice.
        let nested = vals.iter().any(|v| {
            let mut found = false;
            crate::ir::walk::walk_e(&mut v.clone(), &mut |x: &mut Expr| found |= matches!(x, Expr::NodeByKey { .. }));
            found
        });
        if nested {
            return self.tree(e, d, sp);
        }
        let (adj, n) = match within {
            Coll::Nodes => (None, d),
            Coll::Successors(x) => (Some(Adj::Successors), self.expr(x, sp)),
            Coll::Predecessors(x) => (Some(Adj::Predecessors), self.expr(x, sp)),
            Coll::Neighbors(x) => (Some(Adj::Neighbors), self.expr(x, sp)),
            _ => return self.tree(e, d, sp),
        };
        let mut ids = vec![];
        for v in vals {
            // A value's temporaries lie above every register live here.
            let mut sub = Comp::new(self.g, self.inl, self.next, 0);
            sub.map = self.map.clone();
            sub.inlined = self.inlined;
            sub.p.spans = self.p.spans.clone();
            let r = sub.expr(v, sp);
            sub.emit(BOp::Ret { s: r });
            if sub.overflow {
                self.overflow = true;
            }
            self.top = self.top.max(sub.top);
            sub.p.source = v.clone();
            let id = self.base_id + self.subs.len() as u32;
            self.subs.push(sub.p);
            ids.push(id);
        }
        let fallback = self.remap(fallback);
        self.p.trees.push(fallback);
        self.p.lookups.push((ids, (self.p.trees.len() - 1) as u32));
        let at = (self.p.lookups.len() - 1) as u32;
        self.emit(BOp::KeyLookup { d, key, adj, n, at, sp });
    }
}
