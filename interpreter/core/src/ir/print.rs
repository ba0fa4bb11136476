//! The program as text, for `regel ir`: every declaration, function and
//! block as the executor will run it, with names put back (variables, zones,
//! fields, attributes, functions) and locals written `l0`, `l1`, ….
//! Reading it shows what the passes did; the snapshots in
//! `tests/snapshots/ir__*.snap` show it for every example, before and after.

use super::*;
use crate::ast::{AssignOp, BinOp, MovePos};
use std::fmt::Write;

/// The whole program: storage, functions, actions, then every block of the
/// executable code (`Game::code`) with its statements numbered.
pub fn print(g: &Game) -> String {
    let p = Printer { g };
    let mut s = String::new();
    let _ = writeln!(s, "game {:?}", g.name);
    let _ = writeln!(
        s,
        "storage: {} variable slots, {} zones, {} pieces",
        g.nvars,
        g.nzones,
        g.piece_kind.len()
    );
    for v in &g.vars {
        let _ = writeln!(
            s,
            "  var {} [{}..{}]{}",
            v.name,
            v.base,
            v.base + v.count,
            v.init
                .as_ref()
                .map(|e| format!(" = {}", p.expr(e)))
                .unwrap_or_default()
        );
    }
    for z in &g.zones {
        let _ = writeln!(s, "  zone {} [{}..{}]", z.name, z.base, z.base + z.count);
    }
    for (i, f) in g.fns.iter().enumerate() {
        let _ = writeln!(
            s,
            "fn#{i} {}({} params, {} locals) = {}",
            f.name,
            f.nparams,
            f.nlocals,
            p.expr(&f.body)
        );
        if let Some(t) = f.table {
            let t = &g.fn_tables[t as usize];
            let over = match t.args.1 {
                Some(b) => format!("l{} and l{}", t.args.0, b),
                None => format!("l{}", t.args.0),
            };
            let misses = t.entries.iter().filter(|e| e.0 == FnTable::MISS).count();
            let _ = writeln!(
                s,
                "  tabulated over {over}: {} entries, {misses} computed by calling",
                t.entries.len()
            );
        }
    }
    for (i, a) in g.actions.iter().enumerate() {
        let _ = writeln!(
            s,
            "action#{i} {} ({} locals, {}) body b{}",
            a.name,
            a.nlocals,
            if a.product {
                "product of domains"
            } else {
                "listed"
            },
            a.body
        );
        for ap in &a.params {
            let _ = writeln!(
                s,
                "  param {} = l{} in {} (reads params {:#b})",
                ap.name,
                ap.slot,
                p.coll(&ap.domain),
                ap.deps
            );
            if let Some(c) = &ap.fast {
                let _ = writeln!(
                    s,
                    "    listed as {} with the requirements that end here (reads params {:#b})",
                    p.coll(c),
                    ap.deps
                );
            }
        }
        for (k, (e, mask, _)) in a.pre.iter().enumerate() {
            // A class shared with other actions' requirements (`opt/bytecode/shared.rs`).
            let shared = match a.shared.get(k) {
                Some(&c) if c != ActionDecl::UNSHARED => format!(", shared#{c}"),
                _ => String::new(),
            };
            let _ = writeln!(
                s,
                "  require {} (reads params {mask:#b}{shared})",
                p.expr(e)
            );
        }
        if let Some(e) = &a.needs {
            let _ = writeln!(s, "  every option needs {}", p.expr(e));
        }
        if let Some(id) = a.lister {
            let _ = writeln!(s, "  options listed by code#{id}");
        }
    }
    for (i, pr) in g.procs.iter().enumerate() {
        let _ = writeln!(
            s,
            "{}#{i} {} ({} locals) body b{}",
            if pr.is_phase { "phase" } else { "proc" },
            pr.name,
            pr.nlocals,
            pr.body
        );
    }
    if let Some((b, n)) = g.setup {
        let _ = writeln!(s, "setup ({n} locals) body b{b}");
    }
    let _ = writeln!(s, "play ({} locals) body b{}", g.play.1, g.play.0);
    if let Some((e, _, low)) = &g.score {
        let _ = writeln!(
            s,
            "score(l0) = {}{}",
            p.expr(e),
            if *low { " (lower wins)" } else { "" }
        );
    }
    for (e, _) in &g.tiebreaks {
        let _ = writeln!(s, "tiebreak(l0) = {}", p.expr(e));
    }
    if let Some((e, _)) = &g.team {
        let _ = writeln!(s, "team(l0) = {}", p.expr(e));
    }
    for (name, e, _, _) in &g.invariants {
        let _ = writeln!(s, "invariant {name:?} {}", p.expr(e));
    }
    for st in &g.statistics {
        let _ = writeln!(
            s,
            "statistic {}{} = {}",
            st.name,
            if st.per_player { "(l0)" } else { "" },
            p.expr(&st.expr)
        );
    }
    for (i, b) in g.code.iter().enumerate() {
        let _ = writeln!(s, "b{i}:");
        for (pc, st) in b.iter().enumerate() {
            let _ = writeln!(s, "  {pc:>3}  {}", p.op(&st.op));
        }
    }
    s
}

/// Every compiled expression's bytecode (`regel ir --bytecode`): its
/// source, then one operation per line. Registers are frame slots written
/// `rN`; the other fields are as `ir/bytecode.rs` names them.
pub fn programs(g: &Game) -> String {
    let p = Printer { g };
    let mut s = String::new();
    for (i, prog) in g.programs.iter().enumerate() {
        let source = match prog.listed() {
            Some(c) => p.coll(c),
            None => p.expr(prog.source()),
        };
        let _ = writeln!(s, "code#{i} ({} registers) = {source}", prog.nregs());
        for (pc, op) in prog.ops().iter().enumerate() {
            let _ = writeln!(s, "  {pc:>3}  {op:?}");
        }
    }
    // The values kept between decisions, with the declarations whose
    // changes outdate them.
    let nz = g.zones.len();
    for (k, site) in g.kept.sites.iter().enumerate() {
        let reads: Vec<&str> = site
            .reads
            .iter()
            .map(|&f| match (f as usize).checked_sub(nz) {
                None => g.zones[f as usize].name.as_str(),
                Some(v) => g.vars[v].name.as_str(),
            })
            .collect();
        let _ = writeln!(
            s,
            "kept#{k} (weight {}, reads {}) = {}",
            site.weight,
            reads.join(", "),
            p.expr(&site.expr)
        );
    }
    s
}

/// An expression as `regel ir` writes it.
pub fn expr(g: &Game, e: &Expr) -> String {
    Printer { g }.expr(e)
}

struct Printer<'a> {
    g: &'a Game,
}

impl Printer<'_> {
    fn var(&self, base: u32, idx: Option<&Expr>) -> String {
        let name = self
            .g
            .vars
            .iter()
            .find(|v| v.base == base)
            .map(|v| v.name.as_str())
            .unwrap_or("?var");
        match idx {
            None => name.to_string(),
            Some(i) => format!("{name}[{}]", self.expr(i)),
        }
    }

    fn field(&self, fid: u32) -> &str {
        self.g
            .kinds
            .iter()
            .flat_map(|k| k.fields.iter())
            .find(|f| f.2 == fid)
            .map(|f| f.0.as_str())
            .unwrap_or("?field")
    }

    fn zone(&self, z: &ZoneRef) -> String {
        let name = self
            .g
            .zones
            .iter()
            .find(|d| d.base == z.base)
            .map(|d| d.name.as_str())
            .unwrap_or("?zone");
        match &z.index {
            ZIndex::Global => name.to_string(),
            ZIndex::Player(e) | ZIndex::Node(e) | ZIndex::Edge(e) => {
                format!("{}.{name}", self.expr(e))
            }
            ZIndex::At(e, n) => format!("{name}[{} of {n}]", self.expr(e)),
            ZIndex::Value(e) => format!("zone({})", self.expr(e)),
        }
    }

    fn zpred(&self, on: Elems, p: &ZPred) -> String {
        let zone = |b: &u32| {
            self.g
                .zones
                .iter()
                .find(|d| d.base == *b)
                .map(|d| d.name.clone())
                .unwrap_or_else(|| "?zone".into())
        };
        match p {
            ZPred::AllEmpty(bs) => format!(
                "empty({})",
                bs.iter().map(zone).collect::<Vec<_>>().join(", ")
            ),
            ZPred::Len(b, op, k) => format!("count({}) {} {k}", zone(b), binop(*op)),
            ZPred::LenAttr(b, op, a) => {
                let attrs = match on {
                    Elems::Nodes => &self.g.node_attrs,
                    Elems::Edges => &self.g.edge_attrs,
                };
                format!("count({}) {} {}", zone(b), binop(*op), attrs[*a as usize].0)
            }
            ZPred::Owns(b, s) => format!("owns({}, {s})", zone(b)),
            ZPred::Var(b, op, k) => {
                let name = self
                    .g
                    .vars
                    .iter()
                    .find(|d| d.base == *b)
                    .map_or("?var", |d| d.name.as_str());
                format!("{name} {} {k}", binop(*op))
            }
            ZPred::And(a, b) => format!("({} and {})", self.zpred(on, a), self.zpred(on, b)),
            ZPred::Or(a, b) => format!("({} or {})", self.zpred(on, a), self.zpred(on, b)),
            ZPred::Not(a) => format!("not {}", self.zpred(on, a)),
            ZPred::Indexed(_, a) => self.zpred(on, a),
        }
    }

    fn args(&self, args: &[Expr]) -> String {
        args.iter()
            .map(|a| self.expr(a))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn expr(&self, e: &Expr) -> String {
        match e {
            Expr::Const(v) => v.to_string(),
            Expr::Code(id) => self.expr(self.g.programs[*id as usize].source()),
            Expr::Local(s) => format!("l{s}"),
            Expr::Var(b, i) => self.var(*b, i.as_deref()),
            Expr::Field(f, a) => format!("{}.{}", self.expr(a), self.field(*f)),
            Expr::Owner(a) => format!("{}.owner", self.expr(a)),
            Expr::NodeAttr(i, a) => {
                format!("{}.{}", self.expr(a), self.g.node_attrs[*i as usize].0)
            }
            Expr::EdgeAttr(i, a) => {
                format!("{}.{}", self.expr(a), self.g.edge_attrs[*i as usize].0)
            }
            Expr::EdgeFrom(a) => format!("{}.from", self.expr(a)),
            Expr::EdgeTo(a) => format!("{}.to", self.expr(a)),
            Expr::Zone(z) => self.zone(z),
            Expr::Agg {
                op,
                coll,
                slot,
                body,
            } => match body {
                Some(b) => format!(
                    "{}(l{slot} in {}: {})",
                    agg(*op),
                    self.coll(coll),
                    self.expr(b)
                ),
                None => format!("{}(l{slot} in {})", agg(*op), self.coll(coll)),
            },
            Expr::Neg(a) => format!("-{}", self.expr(a)),
            Expr::Not(a) => format!("not {}", self.expr(a)),
            Expr::Bin(op, a, b) => format!("({} {} {})", self.expr(a), binop(*op), self.expr(b)),
            Expr::In(a, c) => format!("({} in {})", self.expr(a), self.coll(c)),
            Expr::If(c, a, b) => format!(
                "(if {} then {} else {})",
                self.expr(c),
                self.expr(a),
                self.expr(b)
            ),
            Expr::Call { func, args, .. } => {
                format!("{}({})", self.g.fns[*func as usize].name, self.args(args))
            }
            Expr::Builtin(b, args, c, _) => {
                let mut parts: Vec<String> = args.iter().map(|a| self.expr(a)).collect();
                if let Some(c) = c {
                    parts.push(self.coll(c));
                }
                format!("{}({})", format!("{b:?}").to_lowercase(), parts.join(", "))
            }
            Expr::IsKind(a, k) => {
                format!("({} is {})", self.expr(a), self.g.kinds[*k as usize].name)
            }
            Expr::Pos2(a, b, stride) => {
                format!("pos2({}, {}; {stride})", self.expr(a), self.expr(b))
            }
            Expr::ZoneLen(z) => format!("len({})", self.zone(z)),
            Expr::ZoneEmpty(z) => format!("is-empty({})", self.zone(z)),
            Expr::NodeByKey {
                key, vals, within, ..
            } => {
                let names: Vec<&str> = self.g.keys[*key as usize]
                    .attrs
                    .iter()
                    .map(|&a| self.g.node_attrs[a as usize].0.as_str())
                    .collect();
                format!(
                    "node-by-key[({}) == ({})] in {}",
                    names.join(", "),
                    self.args(vals),
                    self.coll(within)
                )
            }
            Expr::ZoneAgg(op, on, p) => {
                format!("{}-{}[{}]", agg(*op), elems(*on), self.zpred(*on, p))
            }
        }
    }

    fn coll(&self, c: &Coll) -> String {
        match c {
            Coll::Zone(z) => self.zone(z),
            Coll::Code(id) => match self.g.programs[*id as usize].listed() {
                Some(c) => self.coll(c),
                None => format!("code#{id}"),
            },
            Coll::Players => "players".into(),
            Coll::PlayersFrom(e) => format!("players-from({})", self.expr(e)),
            Coll::Opponents(e) => format!("opponents({})", self.expr(e)),
            Coll::Nodes => "nodes".into(),
            Coll::Edges => "edges".into(),
            Coll::Successors(e) => format!("successors({})", self.expr(e)),
            Coll::Predecessors(e) => format!("predecessors({})", self.expr(e)),
            Coll::Neighbors(e) => format!("neighbors({})", self.expr(e)),
            Coll::EdgesOf(e) => format!("edges({})", self.expr(e)),
            Coll::Range(a, b) => format!("{}..{}", self.expr(a), self.expr(b)),
            Coll::List(es) => format!("[{}]", self.args(es)),
            Coll::Reachable(e, c) => format!("reachable({}, {})", self.expr(e), self.coll(c)),
            Coll::ReachableVia(e, c) => {
                format!("reachable-via({}, {})", self.expr(e), self.coll(c))
            }
            Coll::Components(_, c) => format!("components({})", self.coll(c)),
            Coll::Members(_, e) => format!("members({})", self.expr(e)),
            Coll::NodesWithAttr(i, e) => format!(
                "nodes-indexed[{} == {}]",
                self.g.node_attrs[*i as usize].0,
                self.expr(e)
            ),
            Coll::WhereZones(on, p) => format!("{}-where[{}]", elems(*on), self.zpred(*on, p)),
            Coll::ZonesOwned { on, base, who, .. } => {
                let zone = self.g.zones.iter().find(|d| d.base == *base);
                format!(
                    "{}-owned[{} of {}]",
                    elems(*on),
                    zone.map_or("?zone", |d| d.name.as_str()),
                    self.expr(who)
                )
            }
            Coll::Subsets {
                of, lo, hi, area, ..
            } => format!(
                "subsets@l{area}({}, {}..{})",
                self.coll(of),
                self.expr(lo),
                hi.as_ref().map_or("count".into(), |h| self.expr(h))
            ),
            Coll::Subset(e, area) => format!("subset@l{area}({})", self.expr(e)),
            Coll::Filter(c, s, e) => format!("({} where l{s}: {})", self.coll(c), self.expr(e)),
            Coll::Map(c, s, e) => format!("map(l{s} in {}: {})", self.coll(c), self.expr(e)),
            Coll::Distinct(c, s, e) => {
                format!("distinct(l{s} in {}: {})", self.coll(c), self.expr(e))
            }
            Coll::Sorted(c, s, e) => format!("sorted(l{s} in {}: {})", self.coll(c), self.expr(e)),
        }
    }

    fn instr(&self, s: &Instr) -> String {
        match s {
            Instr::Let(l, e) => format!("let l{l} = {}", self.expr(e)),
            Instr::Assign(place, op, e) => {
                let target = match place {
                    Place::Local(l) => format!("l{l}"),
                    Place::Var(b, i) => self.var(*b, i.as_deref()),
                    Place::Watched(b, i) => self.var(*b, Some(i)),
                };
                let op = match op {
                    AssignOp::Set => "=",
                    AssignOp::Add => "+=",
                    AssignOp::Sub => "-=",
                };
                format!("{target} {op} {}", self.expr(e))
            }
            Instr::If(c, t, e) => format!(
                "if {} then b{t}{}",
                self.expr(c),
                e.map(|e| format!(" else b{e}")).unwrap_or_default()
            ),
            Instr::For(l, c, b) => format!("for l{l} in {} do b{b}", self.coll(c)),
            Instr::While(c, b) => format!("while {} do b{b}", self.expr(c)),
            Instr::Break => "break".into(),
            Instr::Continue => "continue".into(),
            Instr::Return => "return".into(),
            Instr::Move(what, to, pos) => {
                let what = match what {
                    MoveWhat::One(e) => self.expr(e),
                    MoveWhat::All(c) => format!("all {}", self.coll(c)),
                    MoveWhat::N(n, c) => format!("{} of {}", self.expr(n), self.coll(c)),
                };
                let pos = match pos {
                    MovePos::Top => "",
                    MovePos::Bottom => " bottom",
                };
                format!("move {what} to {}{pos}", self.zone(to))
            }
            Instr::Shuffle(z) => format!("shuffle {}", self.zone(z)),
            Instr::Choose {
                slot, player, from, ..
            } => format!(
                "l{slot} = choose {} from {}",
                self.expr(player),
                self.coll(from)
            ),
            Instr::Act {
                player,
                actions,
                els,
            } => {
                let names: Vec<&str> = actions
                    .iter()
                    .map(|&a| self.g.actions[a as usize].name.as_str())
                    .collect();
                format!(
                    "act {} with {}{}",
                    self.expr(player),
                    names.join(", "),
                    els.map(|b| format!(" else b{b}")).unwrap_or_default()
                )
            }
            Instr::Call(p, args) => format!(
                "call {}({})",
                self.g.procs[*p as usize].name,
                self.args(args)
            ),
            Instr::Log(t) => format!("log {}", self.template(*t)),
            Instr::EndGame => "end game".into(),
            Instr::ShowBoard => "show board".into(),
            Instr::Reveal(e, on) => {
                format!("{} {}", if *on { "reveal" } else { "hide" }, self.expr(e))
            }
            Instr::Require(e) => format!("require {}", self.expr(e)),
        }
    }

    /// An executable statement: jumps, or the statement it runs.
    fn op(&self, op: &Op) -> String {
        let same = |i: Instr| self.instr(&i);
        match op {
            Op::JumpUnless(c, to) => format!("unless {} goto {to}", self.expr(c)),
            Op::Jump(to) => format!("goto {to}"),
            Op::Let(l, e) => same(Instr::Let(*l, e.clone())),
            Op::Assign(p, o, e) | Op::AssignWatched(p, o, e) => {
                same(Instr::Assign(p.clone(), *o, e.clone()))
            }
            Op::For(l, c, b) => same(Instr::For(*l, c.clone(), *b)),
            Op::RunCode(first, code, end) => {
                format!("{} (to {end} as code#{code})", self.op(&first.op))
            }
            Op::ForCode(l, c, b, code) => {
                format!("{} as code#{code}", same(Instr::For(*l, c.clone(), *b)))
            }
            Op::While(c, b) => same(Instr::While(c.clone(), *b)),
            Op::Break => same(Instr::Break),
            Op::Continue => same(Instr::Continue),
            Op::Return => same(Instr::Return),
            Op::Move(w, z, p) => same(Instr::Move(w.clone(), z.clone(), *p)),
            Op::Shuffle(z) => same(Instr::Shuffle(z.clone())),
            Op::Choose {
                slot,
                player,
                from,
                label,
                ty,
            } => same(Instr::Choose {
                slot: *slot,
                player: player.clone(),
                from: from.clone(),
                label: *label,
                ty: *ty,
            }),
            Op::Act {
                player,
                actions,
                els,
            } => same(Instr::Act {
                player: player.clone(),
                actions: actions.clone(),
                els: *els,
            }),
            Op::Call(p, args) => same(Instr::Call(*p, args.clone())),
            Op::Log(t) => same(Instr::Log(*t)),
            Op::EndGame => same(Instr::EndGame),
            Op::ShowBoard => same(Instr::ShowBoard),
            Op::Reveal(e, on) => same(Instr::Reveal(e.clone(), *on)),
            Op::Require(e) => same(Instr::Require(e.clone())),
        }
    }

    fn template(&self, t: u32) -> String {
        self.parts(&self.g.templates[t as usize].parts)
    }

    /// Template parts in quotes; a choice's branches as templates of their own.
    fn parts(&self, parts: &[TPart]) -> String {
        let mut s = String::from("\"");
        for part in parts {
            match part {
                TPart::Text(x) => s.push_str(x),
                TPart::Hole(e, _) => {
                    let _ = write!(s, "{{{}}}", self.expr(e));
                }
                TPart::Set(e, area, _) => {
                    let _ = write!(s, "{{subset@l{area}({})}}", self.expr(e));
                }
                TPart::Choice(c, a, b) => {
                    let _ = write!(
                        s,
                        "{{if {} then {} else {}}}",
                        self.expr(c),
                        self.parts(a),
                        self.parts(b)
                    );
                }
            }
        }
        s.push('"');
        s
    }
}

fn agg(op: AggOp) -> &'static str {
    match op {
        AggOp::Count => "count",
        AggOp::Sum => "sum",
        AggOp::Any => "any",
        AggOp::All => "all",
        AggOp::Min => "min",
        AggOp::Max => "max",
        AggOp::Best => "best",
        AggOp::Worst => "worst",
        AggOp::First => "first",
        AggOp::Last => "last",
    }
}

fn binop(op: BinOp) -> &'static str {
    op.symbol()
}

/// What a zone test ranges over, as `regel ir` names it.
fn elems(on: Elems) -> &'static str {
    match on {
        Elems::Nodes => "nodes",
        Elems::Edges => "edges",
    }
}
