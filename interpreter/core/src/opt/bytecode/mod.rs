//! The `bytecode` pass: every expression a body evaluates (function bodies,
//! the statements of procedures, actions, `setup` and `play`, action
//! requirements, scores, tiebreaks, the team rule and invariants) is
//! compiled to a flat register program (`ir/bytecode.rs`) and replaced by an
//! [`Expr::Code`] naming it. The tree evaluator then pays one call per
//! expression instead of one per node, and the bytecode machine
//! (`eval/bytecode.rs`) one dispatch per operation.
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
//!
//! | file | what it holds |
//! |---|---|
//! | `mod.rs` | the driver: which expressions of which frame are compiled, and which functions may be inlined |
//! | `comp.rs` | `Comp`: expressions, conditions as jumps, calls compiled in place |
//! | `colls.rs` | collections, aggregates and key lookups |
//! | `lister.rs` | an action's lister: all its options in one program, for actions whose parameters depend on each other |
//! | `memo.rs` | loop-invariant values computed once per loop |
//! | `switch.rs` | a filter whose test branches on loop-invariant tests, split into one loop per branch |
//! | `keep.rs` | values that read no local kept between decisions (the `keep` pass) |
//! | `shared.rs` | requirements that several actions share, computed once per decision |
//! | `stmts.rs` | `for` loops and runs of statements (lets, assignments, `if`s, moves, reveals, logs) compiled whole |

use crate::ir::walk::{walk_e, Visit};
use crate::ir::*;

mod colls;
mod comp;
mod draw;
mod hoist;
mod jumps;
mod keep;
mod lister;
mod memo;
mod shared;
mod stmts;
mod switch;

use comp::Comp;

/// Programs of at most this many operations (the `Ret` included) stay trees.
const MIN_OPS: usize = 3;

/// Compiles every body's expressions; with `keep`, values that read no
/// local are kept between decisions (`keep.rs`).
pub(super) fn run(g: &mut Game, keep: bool) {
    let shared = shared_blocks(g);
    let mut inl = Inlinable::of(g);
    inl.kept = keep.then(|| keep::KeptPlan::of(g));
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
        let folded = folded_domains(g, &g.actions[a]);
        let ad = &g.actions[a];
        if !ad.product && ad.areas.is_empty() && !ad.params.is_empty() {
            let mut out = vec![];
            let base_id = g.programs.len() as u32;
            let top = lister::compile(g, &inl, ad, frame.locals as u32, base_id, &mut out);
            if let Some(top) = top.and_then(|t| u16::try_from(t).ok()) {
                frame.top = frame.top.max(top);
                g.actions[a].lister = Some(base_id + out.len() as u32 - 1);
                g.programs.extend(out);
            }
        }
        let mut pre = std::mem::take(&mut g.actions[a].pre);
        for (e, _, _) in pre.iter_mut() {
            frame.root(g, e, &inl);
        }
        g.actions[a].pre = pre;
        let mut params = std::mem::take(&mut g.actions[a].params);
        for prm in params.iter_mut() {
            prm.draw = draw::form(&prm.domain).map(|(mut base, mut filters)| {
                frame.root_coll(g, &mut base, &inl);
                for (_, e) in filters.iter_mut() {
                    frame.root(g, e, &inl);
                }
                (base, filters)
            });
            frame.root_coll(g, &mut prm.domain, &inl);
        }
        for (prm, fold) in params.iter_mut().zip(folded) {
            let Some(mut c) = fold else { continue };
            frame.root_coll(g, &mut c, &inl);
            // Only a compiled filter saves work; a tree one is left alone.
            if matches!(c, Coll::Code(_)) {
                prm.fast = Some(c);
            }
        }
        g.actions[a].params = params;
        g.actions[a].draw = draw::plan(g, &g.actions[a]);
        frame.blocks(g, g.actions[a].body, &shared, &inl);
        g.actions[a].nlocals = frame.top;
    }
    for (a, classes) in shared::classes(g, &inl.pure).into_iter().enumerate() {
        g.actions[a].shared = classes;
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
    // Bodies of one player (local 0): the score, tiebreaks, team,
    // invariants. They run once a game, or only when invariants are checked:
    // a value kept for them would make every playout note the changes of
    // what it reads.
    let plan = inl.kept.take();
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
    if let Some(plan) = plan {
        g.kept = plan.finish();
    }
}

/// For each parameter of `ad`, its domain filtered by the leading
/// `require`s that read it alone (joined by `and`, in their order), so
/// reading no other parameter than the domain does; `None` where no
/// requirement reads it alone, and for every parameter of an action whose parameters depend on
/// each other (its lister, and the executor's fallback without one, list
/// the domains as written and test each requirement, so a folded domain
/// there would be compiled and never run).
///
/// The options listed are the same either way, found in the same order,
/// each requirement tested on the same values in the same order: the
/// requirements of one parameter of a product are tested before any later
/// parameter's domain is listed. A `subsets(…)` domain keeps its own path.
fn folded_domains(g: &Game, ad: &ActionDecl) -> Vec<Option<Coll>> {
    ad.params
        .iter()
        .enumerate()
        .map(|(i, prm)| {
            if !ad.product || prm.domain.subsets_area(&g.programs).is_some() {
                return None;
            }
            let mut cond: Option<Expr> = None;
            for (e, _, _) in ad.pre.iter().filter(|(_, m, _)| *m == 1 << i) {
                cond = Some(match cond {
                    None => e.clone(),
                    Some(c) => Expr::Bin(crate::ast::BinOp::And, Box::new(c), Box::new(e.clone())),
                });
            }
            Some(Coll::Filter(Box::new(prm.domain.clone()), prm.slot, cond?))
        })
        .collect()
}

/// One body's frame: its own locals, and the highest slot a program placed
/// in it uses.
struct Frame {
    locals: u16,
    top: u16,
}

impl Frame {
    fn new(locals: u16) -> Frame {
        Frame {
            locals,
            top: locals,
        }
    }

    /// Compiles one expression of this frame in place.
    fn root(&mut self, g: &mut Game, e: &mut Expr, inl: &Inlinable) {
        if matches!(
            e,
            Expr::Const(_) | Expr::Local(_) | Expr::Var(_, None) | Expr::Code(_)
        ) {
            return;
        }
        let mut out = vec![];
        let base_id = g.programs.len() as u32;
        let Some(top) = compile(g, inl, e, self.locals as u32, base_id, &mut out) else {
            return;
        };
        let Ok(top) = u16::try_from(top) else { return };
        // A program of one or two operations is not worth its call: the
        // tree evaluator answers such an expression in a call or two too
        // (measured: compiling them made rulesets of many small expressions
        // slower). Key lookups and calls are the exception: the machine
        // runs their values and arguments without the tree, and a call it
        // compiled in place (`CallLeaf`, `CallEnter`) would be a call of
        // the tree's (breakthrough's `mine(p, c)` as a tree made drawn
        // games 15 % longer, when a fused operation had made it short).
        let root = out.last().expect("the root program is compiled last");
        let size = root.ops().len() + root.ops().iter().filter(|op| op.fused()).count();
        if size <= MIN_OPS
            && !root.ops().iter().any(|op| {
                matches!(
                    op,
                    BOp::KeyLookup { .. }
                        | BOp::KeyRegs { .. }
                        | BOp::KeyPair { .. }
                        | BOp::Call { .. }
                        | BOp::CallLeaf { .. }
                        | BOp::CallEnter { .. }
                        | BOp::KeyPairK { .. }
                        | BOp::EnterJumpEqK { .. }
                        | BOp::JumpEqKLeaf { .. }
                        | BOp::LeafZoneOwnerOf { .. }
                        | BOp::LeafJumpZoneLen { .. }
                )
            })
        {
            return;
        }
        self.top = self.top.max(top);
        *e = Expr::Code(base_id + out.len() as u32 - 1);
        g.programs.extend(out);
    }

    /// Compiles one collection of this frame in place: a filter, a map or
    /// the distinct values of a map, whose test or value runs per element
    /// (other collections are listed by the tree evaluator in one call).
    fn root_coll(&mut self, g: &mut Game, c: &mut Coll, inl: &Inlinable) {
        if !matches!(c, Coll::Filter(..) | Coll::Map(..) | Coll::Distinct(..)) {
            return;
        }
        let mut out = vec![];
        let base_id = g.programs.len() as u32;
        let Some(top) = compile_listing(g, inl, c, self.locals as u32, base_id, &mut out) else {
            return;
        };
        let Ok(top) = u16::try_from(top) else { return };
        self.top = self.top.max(top);
        *c = Coll::Code(base_id + out.len() as u32 - 1);
        g.programs.extend(out);
    }

    /// Compiles the statements of `root` and the blocks nested in it, unless
    /// a block is shared with another body.
    fn blocks(&mut self, g: &mut Game, root: BlockId, shared: &[bool], inl: &Inlinable) {
        self.loops(g, root, shared, inl);
        for b in nested(g, root, shared) {
            let mut stmts = std::mem::take(&mut g.blocks[b as usize]);
            for st in stmts.iter_mut() {
                match &mut st.s {
                    Instr::Let(_, e)
                    | Instr::Assign(_, _, e)
                    | Instr::If(e, _, _)
                    | Instr::While(e, _)
                    | Instr::Require(e)
                    | Instr::Reveal(e, _) => self.root(g, e, inl),
                    Instr::Act { player, .. } => self.root(g, player, inl),
                    Instr::Choose { player, from, .. } => {
                        self.root(g, player, inl);
                        self.root_coll(g, from, inl);
                    }
                    Instr::Call(_, args) => args.iter_mut().for_each(|a| self.root(g, a, inl)),
                    Instr::Move(MoveWhat::One(e), _, _) => self.root(g, e, inl),
                    Instr::Move(MoveWhat::All(c), _, _) | Instr::For(_, c, _) => {
                        self.root_coll(g, c, inl)
                    }
                    Instr::Move(MoveWhat::N(e, c), _, _) => {
                        self.root(g, e, inl);
                        self.root_coll(g, c, inl);
                    }
                    Instr::Shuffle(_)
                    | Instr::Break
                    | Instr::Continue
                    | Instr::Return
                    | Instr::Log(_)
                    | Instr::EndGame
                    | Instr::ShowBoard => {}
                }
            }
            g.blocks[b as usize] = stmts;
        }
    }
}

impl Frame {
    /// Compiles whole what of this body a program can run (`stmts.rs`):
    /// each run of two or more such statements that begins with one the
    /// executor runs as a single operation (noted in `Game::run_code`), and
    /// each such `for` outside a run (noted in `Game::loop_code`); not what
    /// lies inside another of them, which runs it. The statements stay as
    /// they are, compiled one by one below, for the executor to run while
    /// coverage is counted.
    fn loops(&mut self, g: &mut Game, root: BlockId, shared: &[bool], inl: &Inlinable) {
        // Parents come before the blocks nested in them.
        let blocks = nested(g, root, shared);
        let mut inner = vec![false; g.blocks.len()];
        for &b in &blocks {
            if inner[b as usize] {
                continue;
            }
            let n = g.blocks[b as usize].len();
            let mut at = 0;
            while at < n {
                let stmts = &g.blocks[b as usize];
                let mut end = at + 1;
                if stmts::first_of_run(g, &stmts[at]) {
                    while end < n && stmts::compilable_stmt(g, &stmts[end]) {
                        end += 1;
                    }
                }
                let whole_for =
                    matches!(&stmts[at].s, Instr::For(..)) && stmts::compilable_stmt(g, &stmts[at]);
                if !(whole_for || end - at >= 2 && stmts::worth_a_run(&stmts[at..end])) {
                    at = end;
                    continue;
                }
                let run = stmts[at..end].to_vec();
                for st in &run {
                    for nb in st.s.blocks() {
                        for k in crate::ir::walk::nested_blocks(g, nb) {
                            inner[k as usize] = true;
                        }
                    }
                }
                let mut out = vec![];
                let base_id = g.programs.len() as u32;
                let top = stmts::compile_run(g, inl, &run, self.locals as u32, base_id, &mut out);
                if let Some(top) = top.and_then(|t| u16::try_from(t).ok()) {
                    self.top = self.top.max(top);
                    let code = base_id + out.len() as u32 - 1;
                    if end - at < 2 {
                        g.loop_code.insert((b, at as u32), code);
                    } else {
                        g.run_code.insert((b, at as u32), (end as u32, code));
                    }
                    g.programs.extend(out);
                }
                at = end;
            }
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
            for nb in st.s.blocks() {
                uses[nb as usize] += 1;
            }
        }
    }
    uses.iter().map(|&u| u > 1).collect()
}

/// Compiles `e` for a frame whose temporaries start at slot `temps`: the
/// programs go to `out` (key lookup values first, the root last, numbered
/// from `base_id`); returns the highest slot used plus one, or `None` when a
/// table would outgrow its index.
fn compile(
    g: &Game,
    inl: &Inlinable,
    e: &Expr,
    temps: u32,
    base_id: u32,
    out: &mut Vec<Program>,
) -> Option<u32> {
    let mut c = Comp::new(g, inl, temps, base_id);
    let d = c.expr(e, CALLER_SPAN);
    c.emit(BOp::Ret { s: d });
    c.finish(e.clone(), out)
}

/// Calls compiled in place inside each other at most this deep.
const MAX_INLINED: usize = 3;
/// Calls of one function compiled in place inside each other at most this
/// deep: a recursion's first two steps cost no call (connect four's `run`
/// along a line, reversi's `closes`: −2.7 % and −4.3 % instructions a game
/// against one step; three steps gained reversi 0.4 % more and cost
/// connect four 0.1 %).
const SELF_INLINED: usize = 2;
/// Functions whose bodies have more nodes than this are called, not inlined.
const MAX_INLINED_NODES: usize = 48;

/// Which functions a call may compile in place: the small ones, with their
/// bodies as the rules wrote them (before this pass compiled them) and
/// their parameter and local counts. One that calls itself (connect four's
/// `run` along a line) is compiled in place at most [`SELF_INLINED`] deep
/// around any code ([`Comp::inlined`](comp::Comp)), so its first steps
/// cost no call: the step and the depth a call counts are counted all the
/// same.
struct Inlinable {
    bodies: Vec<(Expr, u16, u16)>,
    ok: Vec<bool>,
    /// Per function: whether its calls may be kept by a loop (`memo.rs`).
    pure: Vec<bool>,
    /// Per function: the parameters (bit `i` for parameter `i`) its body
    /// surely never reads ([`unread_params`]). A call computes no constant
    /// argument for them.
    unread: Vec<u64>,
    /// With the `keep` pass: the families, what each function reads, and
    /// the sites compiled so far (`keep.rs`).
    kept: Option<keep::KeptPlan>,
}

impl Inlinable {
    fn of(g: &Game) -> Inlinable {
        let ok = g
            .fns
            .iter()
            .map(|fd| {
                let mut size = 0usize;
                walk_e(&mut fd.body.clone(), &mut |_: &mut Expr| size += 1);
                size <= MAX_INLINED_NODES
            })
            .collect();
        Inlinable {
            bodies: g
                .fns
                .iter()
                .map(|f| (f.body.clone(), f.nparams, f.nlocals))
                .collect(),
            ok,
            pure: memo::pure_fns(g),
            unread: g.fns.iter().map(unread_params).collect(),
            kept: None,
        }
    }
}

/// The parameters of `f` that its body surely never reads or writes, as a
/// bit set: a specialised function (`opt/consts.rs`) keeps the parameters
/// its constant arguments replaced. A body with code compiled before this
/// pass, or zone tests kept as predicates, could read any local, so it
/// reads them all.
fn unread_params(f: &FnDecl) -> u64 {
    struct Reads {
        used: u64,
        opaque: bool,
    }
    impl Visit for Reads {
        fn expr(&mut self, e: &mut Expr) {
            match e {
                Expr::Local(s) | Expr::Agg { slot: s, .. } => self.slot(*s),
                Expr::Code(_) | Expr::ZoneAgg(..) => self.opaque = true,
                _ => {}
            }
        }
        fn coll(&mut self, c: &mut Coll) {
            match c {
                Coll::Filter(_, s, _)
                | Coll::Map(_, s, _)
                | Coll::Distinct(_, s, _)
                | Coll::Sorted(_, s, _) => self.slot(*s),
                Coll::Code(_)
                | Coll::WhereZones(..)
                | Coll::ZonesOwned { .. }
                | Coll::Subsets { .. } => self.opaque = true,
                _ => {}
            }
        }
    }
    impl Reads {
        fn slot(&mut self, s: u16) {
            if s < 64 {
                self.used |= 1 << s;
            }
        }
    }
    let mut r = Reads {
        used: 0,
        opaque: false,
    };
    walk_e(&mut f.body.clone(), &mut r);
    let params = if f.nparams >= 64 {
        0
    } else {
        (1u64 << f.nparams) - 1
    };
    if r.opaque {
        0
    } else {
        params & !r.used
    }
}

/// Compiles a collection to a program that pushes its elements (the
/// caller counts them against the budget, as the tree's `coll` does).
fn compile_listing(
    g: &Game,
    inl: &Inlinable,
    c: &Coll,
    temps: u32,
    base_id: u32,
    out: &mut Vec<Program>,
) -> Option<u32> {
    let mut comp = Comp::new(g, inl, temps, base_id);
    let m = comp.temp();
    comp.emit(BOp::Mark { d: m });
    comp.elements(c, m, CALLER_SPAN);
    comp.emit(BOp::Ret { s: m });
    comp.p.listed = Some(c.clone());
    comp.finish(Expr::Const(0), out)
}
