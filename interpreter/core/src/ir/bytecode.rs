//! Bytecode: expressions compiled to a flat list of register operations
//! (`opt/bytecode/` writes them, `eval/bytecode.rs` runs them). A program is
//! what an [`Expr::Code`] names; it runs in the frame of the body that holds
//! the expression, so a register is a slot of that frame: the expression's
//! locals are read where they live, and its temporaries have slots above the
//! body's own locals (the pass raises the body's `nlocals` to make room).
//!
//! Every value is an `i64`, so registers are untyped slots; the checker has
//! already fixed what each one means. Operations that can fail carry a span
//! index (`sp`): 0 is the span the caller passes in (the statement's, or the
//! call site's for a function body), as the tree evaluator would report it.

use super::*;
use crate::diag::Span;

/// A slot of the running frame.
pub type Reg = u16;

/// The span index meaning "the span the program was called with".
pub const CALLER_SPAN: u16 = 0;

/// Which neighbours a collection or key lookup lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adj {
    Successors,
    Predecessors,
    Neighbors,
    OutEdges,
}

/// How a zone reference's index is checked (see [`ZIndex`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZDim {
    Global,
    Player,
    Node,
    Edge,
    /// A slot of a `per ENUM` or two-dimensional declaration, of `n` slots.
    At,
    /// A zone-typed value.
    Value,
}

/// What an in-place loop walks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Iter {
    Zone,
    Nodes,
    Adj(Adj),
}

/// What [`BOp::ZoneOwner`] answers of the pieces of a zone whose owner is
/// the given seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OwnerTest {
    /// Whether there is one (`any(x in Z: x.owner == p)`).
    Any,
    /// Whether every piece is (`all(x in Z: x.owner == p)`).
    All,
    /// How many there are (`count(x in Z: x.owner == p)`).
    Count,
}

/// What is read off a listed collection (`count`, `empty`, `first`, `last`,
/// `sum` of a list).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listed {
    Count,
    Empty,
    First,
    Last,
    Sum,
}

// An operation fits in 16 bytes: the machine's loop reads one per step,
// and a larger one would spread the programs over more cache lines.
const _: () = assert!(std::mem::size_of::<BOp>() == 16);

/// One operation. `d` is the register written; `a`, `b`, `s` are read.
#[derive(Clone, Copy, Debug)]
pub enum BOp {
    /// `d` = the constant `v`.
    Const { d: Reg, v: Val },
    /// `d` = `s`.
    Mov { d: Reg, s: Reg },
    /// A plain variable slot.
    Var { d: Reg, at: u32 },
    /// Variable slot `base + i`; `i` of `none` fails.
    VarAt { d: Reg, base: u32, i: Reg, sp: u16 },
    /// `d` = field `fid` of the piece in `p`; `none` fails, a hidden piece marks a peek.
    Field { d: Reg, fid: u32, p: Reg, sp: u16 },
    /// `d` = the owner of the piece in `p` (`owner(p)`); `none` fails.
    Owner { d: Reg, p: Reg, sp: u16 },
    /// `d` = attribute `attr` of the node in `n` (`n.attr`); `none` fails.
    NodeAttr { d: Reg, attr: u16, n: Reg, sp: u16 },
    /// `d` = attribute `attr` of the edge in `e`; `none` fails.
    EdgeAttr { d: Reg, attr: u16, e: Reg, sp: u16 },
    /// `d` = the node an edge starts from (`from(e)`) or, with `to`, ends at (`to(e)`).
    EdgeEnd { d: Reg, e: Reg, to: bool, sp: u16 },
    /// `d` = whether the piece in `p` is of kind `kind` (`p is K`); `none` is not.
    IsKind { d: Reg, p: Reg, kind: u16 },
    /// `d` = `a * stride + b`: a slot of a two-dimensional declaration; a `none` index fails.
    Pos2 {
        d: Reg,
        a: Reg,
        b: Reg,
        stride: u32,
        sp: u16,
    },
    /// The zone id `base + i`, checked against the dimension (`n` slots for [`ZDim::At`]).
    Zone {
        d: Reg,
        base: u32,
        i: Reg,
        dim: ZDim,
        n: u32,
        sp: u16,
    },
    /// `d` = the number of pieces in zone `z` (`count(zone)`).
    ZoneLen { d: Reg, z: Reg },
    /// Fused `any`/`all`/`count(x in Z: x.owner == p)` for zone `z` and the
    /// seat (or `none`) in `p`: the pieces are counted against the budget,
    /// as the loop it replaces counts them before its first test.
    ZoneOwner {
        d: Reg,
        z: Reg,
        p: Reg,
        test: OwnerTest,
        sp: u16,
    },
    /// [`BOp::Zone`] and [`BOp::ZoneOwner`] in one operation, for the zone
    /// of a node, edge or seat in `i` (`any(x in c.slot: x.owner == p)`):
    /// one dispatch, and no register between them.
    ZoneOwnerOf {
        d: Reg,
        base: u32,
        i: Reg,
        dim: ZDim,
        p: Reg,
        test: OwnerTest,
        sp: u16,
    },
    /// `d` = whether zone `z` is empty (`empty(zone)`).
    ZoneEmpty { d: Reg, z: Reg },
    /// Fused `empty(x.zone)` / `count(x.zone)` for a node, edge or seat in a register.
    ZoneLenOf {
        d: Reg,
        base: u32,
        i: Reg,
        dim: ZDim,
        empty: bool,
        sp: u16,
    },
    /// `d` = `-a` (`ops::neg`); overflow fails.
    Neg { d: Reg, a: Reg, sp: u16 },
    /// `d` = `not a` (`ops::not`).
    Not { d: Reg, a: Reg },
    /// `a != 0` as 0 or 1.
    Truth { d: Reg, a: Reg },
    /// `d` = `a + b` (`ops::add`); overflow fails.
    Add { d: Reg, a: Reg, b: Reg, sp: u16 },
    /// `d` = `a - b` (`ops::sub`); overflow fails.
    Sub { d: Reg, a: Reg, b: Reg, sp: u16 },
    /// `d` = `a * b` (`ops::mul`); overflow fails.
    Mul { d: Reg, a: Reg, b: Reg, sp: u16 },
    /// `d` = `a / b` (`ops::div`); a zero divisor or overflow fails.
    Div { d: Reg, a: Reg, b: Reg, sp: u16 },
    /// `d` = `a % b` (`ops::rem`); a zero divisor or overflow fails.
    Rem { d: Reg, a: Reg, b: Reg, sp: u16 },
    /// `d` = `a + k` for a constant `k` (`x - k` compiles to `k` negated); overflow fails.
    AddK { d: Reg, a: Reg, k: Val, sp: u16 },
    /// `d` = `a == b` (`ops::eq`).
    Eq { d: Reg, a: Reg, b: Reg },
    /// `d` = `a != b` (`ops::ne`).
    Ne { d: Reg, a: Reg, b: Reg },
    /// `d` = `a < b` (`ops::lt`; `a > b` compiles with the operands swapped).
    Lt { d: Reg, a: Reg, b: Reg },
    /// `d` = `a <= b` (`ops::le`; `a >= b` compiles with the operands swapped).
    Le { d: Reg, a: Reg, b: Reg },
    /// `d` = `a == k` for a constant `k`.
    EqK { d: Reg, a: Reg, k: Val },
    /// `d` = `a != k` for a constant `k`.
    NeK { d: Reg, a: Reg, k: Val },
    /// `d` = `a < k` for a constant `k` (`a <= k` as `a < k + 1`).
    LtK { d: Reg, a: Reg, k: Val },
    /// `d` = `a > k` for a constant `k` (`a >= k` as `a > k - 1`).
    GtK { d: Reg, a: Reg, k: Val },
    /// Go to operation `to`.
    Jump { to: u32 },
    /// Jump when `a == k` (`JumpNeK`: when `a != k`): a comparison with a
    /// constant tested where a condition is needed, without its value.
    JumpEqK { a: Reg, k: Val, to: u32 },
    /// Jump when `a != k` (see `JumpEqK`).
    JumpNeK { a: Reg, k: Val, to: u32 },
    /// Jump when `a < k` (`JumpGtK`: when `a > k`), a constant `k`: `a <=
    /// k` as `a < k + 1`, `a >= k` as `a > k - 1`, and a test's negation as
    /// the other (`not (a < k)` as `a > k - 1`).
    JumpLtK { a: Reg, k: Val, to: u32 },
    /// Jump when `a > k` (see `JumpLtK`).
    JumpGtK { a: Reg, k: Val, to: u32 },
    /// Jump when `a == b` (`JumpNe`, `JumpLt`, `JumpLe`: when `a != b`,
    /// `a < b`, `a <= b`): a comparison of two values tested where a
    /// condition is needed, without its value (`>` and `>=` swap `a` and `b`,
    /// and a jump when false tests the opposite).
    JumpEq { a: Reg, b: Reg, to: u32 },
    /// See `JumpEq`.
    JumpNe { a: Reg, b: Reg, to: u32 },
    /// See `JumpEq`.
    JumpLt { a: Reg, b: Reg, to: u32 },
    /// See `JumpEq`.
    JumpLe { a: Reg, b: Reg, to: u32 },
    /// Jump to `to` when `c` is true (not 0).
    JumpIf { c: Reg, to: u32 },
    /// Jump to `to` when `c` is false (0).
    JumpUnless { c: Reg, to: u32 },
    /// A statement of a loop compiled whole (`opt/bytecode/stmts.rs`)
    /// begins: one step, checked against the budget as the executor checks
    /// a statement's (`Budgeted::Statement`), at span `sp`.
    Stmt { sp: u16 },
    /// Variable slot `base` (`base + i` with an index; `none` fails) set to
    /// `s`, or raised or lowered by it (`ops::add`, `ops::sub`; overflow
    /// fails), as the executor's assignment: the slot's family is marked
    /// changed for the values kept between decisions.
    SetVar {
        base: u32,
        i: Option<Reg>,
        s: Reg,
        op: crate::ast::AssignOp,
        sp: u16,
    },
    /// `move p to z` (`top` or bottom) in a loop compiled whole: `p` of
    /// `none` fails, and the move is the executor's (`Exec::move_piece`).
    MovePiece { p: Reg, z: Reg, top: bool, sp: u16 },
    /// `move all C to z` in a loop compiled whole: each piece listed above
    /// mark `m`, in order, moved as the executor moves it; the list dropped.
    MoveListed { m: Reg, z: Reg, top: bool, sp: u16 },
    /// `reveal p` (`on`) or `hide p` in a loop compiled whole, as the
    /// executor's (`Exec::reveal`).
    Reveal { p: Reg, on: bool, sp: u16 },
    /// The `Stmt { sp }` of a loop over a zone whose body is only `reveal
    /// x` or `hide x` of the loop's piece (`for c in deck { hide c }`):
    /// this operation, the [`BOp::Reveal`] of `slot` and the loop's
    /// [`BOp::ZoneNextTick`] back to it (`i`, `end`, `slot`), made by
    /// `Draft::tidy`. Where the steps of the rest of the loop (the
    /// statement's step for the piece in `slot`, and a step and a
    /// statement's for each piece left) end before the next checkpoint,
    /// and no per-seat log must note a card turned down, it turns them
    /// all, charges those steps, leaves `slot` and `i` as the loop leaves
    /// them and goes on after the loop; otherwise it is the `Stmt`.
    StmtRevealRun {
        sp: u16,
        i: Reg,
        end: Reg,
        slot: Reg,
        on: bool,
    },
    /// `log` of template `t` in a program compiled whole, as the
    /// executor's (`Exec::log_line`).
    Log { t: u32, sp: u16 },
    /// `show board` in a program compiled whole (`Exec::show_board`).
    ShowBoard,
    /// `VarAt` and a `JumpEqK` on its result in one dispatch (made only by
    /// [`Draft::fuse`]): `d` = variable slot `base + i` (`i` of `none`
    /// fails), then jump to `to` when it equals `k`. Reversi's neighbour
    /// walks skip empty squares with it.
    JumpVarAtEqK {
        d: Reg,
        base: u32,
        i: Reg,
        k: i8,
        to: u32,
        sp: u16,
    },
    /// `NodeAttr` and a `JumpEq` (`JumpNe` with `ne`) of its result against
    /// `b` in one dispatch (made only by [`Draft::fuse`]).
    JumpAttr {
        d: Reg,
        attr: u16,
        n: Reg,
        b: Reg,
        ne: bool,
        to: u32,
        sp: u16,
    },
    /// `ZoneLenOf` and a `JumpIf` (`JumpUnless` without `when`) on its
    /// result in one dispatch (made only by [`Draft::fuse`], for a `base`
    /// that fits 16 bits).
    JumpZoneLen {
        d: Reg,
        base: u16,
        i: Reg,
        dim: ZDim,
        empty: bool,
        when: bool,
        to: u32,
        sp: u16,
    },
    /// `Const` and the `Jump` after it: the value of one branch of an
    /// `if` and the jump to where the branches meet (made only by
    /// [`Draft::fuse`], for a constant that fits 32 bits).
    ConstJump { d: Reg, v: i32, to: u32 },
    /// `Push` and the `Jump` after it: a listing loop's element kept and
    /// the jump back to the loop's next one.
    PushJump { s: Reg, to: u32 },
    /// `Emit` and the `Jump` after it: a lister's option kept and the jump
    /// back to its loop.
    EmitJump { d: Reg, args: u32, n: u16, to: u32 },
    /// `Owner` and the `Jump` after it.
    OwnerJump { d: Reg, p: Reg, sp: u16, to: u32 },
    /// `Const` into `c` and the `KeyPair` that reads it as its first value
    /// (`node-by-key[(row, col) == (1, k)]`); `c` is written as `Const`
    /// writes it.
    KeyPairK {
        d: Reg,
        key: u16,
        c: Reg,
        k: i16,
        b: Reg,
    },
    /// `CallEnter` and the `JumpEqK` after it: a function compiled in
    /// place whose body begins by testing a parameter against a constant
    /// (`if c == none then …`).
    EnterJumpEqK { a: Reg, k: i32, to: u32, sp: u16 },
    /// `JumpEqK` and the `CallLeaf` after it (`c == none or not mine(p, c)`).
    JumpEqKLeaf { a: Reg, k: i32, to: u32, sp: u16 },
    /// `CallLeaf` and the `JumpZoneLen` after it, both at span `sp`: a
    /// function such as `free(c) = empty(c.slot)` compiled in place and
    /// tested (made by a second round of [`Draft::fuse`]).
    LeafJumpZoneLen {
        d: Reg,
        base: u16,
        i: Reg,
        dim: ZDim,
        empty: bool,
        when: bool,
        to: u32,
        sp: u16,
    },
    /// `Const` and the `Ret` of its register: a branch of the program that
    /// answers a constant (`then 0`); the register is written too.
    ConstRet { d: Reg, v: i32 },
    /// `SumAcc` and the `Jump` back to its loop.
    SumAccJump {
        d: Reg,
        v: Reg,
        m: Reg,
        sp: u16,
        to: u32,
    },
    /// `MaxAcc` (`MinAcc` without `max`) and the `Jump` back to its loop.
    AccJump { d: Reg, v: Reg, max: bool, to: u32 },
    /// `CallLeave` and the `AddK` after it: a call compiled in place ends
    /// and its value is added to (`1 + run(…)`).
    LeaveAddK { d: Reg, a: Reg, k: i32, sp: u16 },
    /// `CallLeave` and the `Add` after it.
    LeaveAdd { d: Reg, a: Reg, b: Reg, sp: u16 },
    /// `CallLeaf` and the `ZoneOwnerOf` after it, both at span `sp`: a
    /// function such as `mine(p, c) = any(x in c.slot: x.owner == p)`
    /// compiled in place.
    LeafZoneOwnerOf {
        d: Reg,
        base: u32,
        i: Reg,
        dim: ZDim,
        p: Reg,
        test: OwnerTest,
        sp: u16,
    },
    /// Calls function `func` with the registers `regs[args..args + n]`.
    Call {
        d: Reg,
        func: u16,
        args: u32,
        n: u16,
        sp: u16,
    },
    /// A call of a tabulated function (`Game::fn_tables[t]`, one read
    /// parameter, in `a`): when the table answers (see `opt/fn_tables.rs`),
    /// `d` = its value, its steps are charged and the machine goes on at
    /// `to`, past the call compiled after this operation, which runs
    /// otherwise. It answers only when its steps end before the next
    /// checkpoint, so it needs no span: the call reports the budget's end.
    Tab1 { d: Reg, t: u16, a: Reg, to: u32 },
    /// [`BOp::Tab1`] for a function of two read parameters, in `a` and `b`.
    Tab2 {
        d: Reg,
        t: u16,
        a: Reg,
        b: Reg,
        to: u32,
    },
    /// A call compiled in place starts: one step counted, the call depth
    /// raised and checked, as a call does after its arguments.
    CallEnter { sp: u16 },
    /// A call compiled in place ends: the depth lowered.
    CallLeave,
    /// A call compiled in place whose body calls nothing and reads nothing
    /// that reads the call depth (no call, table read, tree, key lookup or
    /// builtin): one step counted and the depth checked as `CallEnter`
    /// checks it, but not raised, so that no `CallLeave` follows. On
    /// failing the check the depth is raised, as `CallEnter` leaves it.
    CallLeaf { sp: u16 },
    /// A builtin of values only (no collection), with up to two arguments.
    Builtin {
        d: Reg,
        b: Builtin,
        x: Reg,
        y: Reg,
        sp: u16,
    },
    /// `d` = aggregate `op` over all nodes (edges) of a zone-size predicate (`preds[pred]`, see `ir::ZPred`).
    ZoneAgg { d: Reg, op: AggOp, pred: u32 },
    /// A key lookup (see [`Expr::NodeByKey`]) within all nodes or the
    /// neighbours of node `n`, described by `lookups[at]`.
    KeyLookup {
        d: Reg,
        key: u16,
        adj: Option<Adj>,
        n: Reg,
        at: u32,
        sp: u16,
    },
    /// A key lookup whose values cannot fail (constants and locals), read
    /// from the registers `regs[args..args + len]`: no program of their own
    /// and no fallback are needed.
    KeyRegs {
        d: Reg,
        key: u16,
        adj: Option<Adj>,
        n: Reg,
        args: u32,
        len: u8,
        sp: u16,
    },
    /// [`BOp::KeyRegs`] among all nodes for a dense table of two
    /// attributes (a grid's `row == r and col == k`), the values in `a` and
    /// `b`: the cell is computed in place, where `KeyRegs` copies its
    /// values through the register list and tests its table's kind
    /// (measured on connect four: some 72 instructions fewer a lookup).
    KeyPair { d: Reg, key: u16, a: Reg, b: Reg },
    /// An expression the compiler leaves to the tree evaluator.
    Tree { d: Reg, e: u32, sp: u16 },
    // Collections are listed on the scratch stack, as the tree evaluator does.
    /// `d` = the scratch stack's height.
    Mark { d: Reg },
    /// Counts the elements above mark `m` against the step budget.
    Charge { m: Reg, sp: u16 },
    /// Pushes the pieces of zone `z` onto the scratch stack, in the zone's order.
    PushZone { z: Reg },
    /// Pushes every seat (`players`).
    PushPlayers,
    /// Pushes the seats from `p` on, in turn order, skipping the first `skip` (`players from p`, `opponents(p)`); `none` fails.
    PushPlayersFrom { p: Reg, skip: bool, sp: u16 },
    /// Pushes every node (`nodes`).
    PushNodes,
    /// Pushes every edge (`edges`).
    PushEdges,
    /// Pushes the nodes (or out-edges) next to the node in `n`, by `adj`; `none` fails.
    PushAdj { n: Reg, adj: Adj, sp: u16 },
    /// Pushes `a..b`, charging its length; a range longer than `limits::MAX_RANGE` fails.
    PushRange { a: Reg, b: Reg, sp: u16 },
    /// Pushes the value in `s` (an element of a list literal).
    Push { s: Reg },
    /// Pushes the nodes (edges) that satisfy the zone-size predicate `preds[pred]`.
    PushZPred { pred: u32, sp: u16 },
    /// Pushes the nodes whose attribute `attr` equals `v`, from the attribute index.
    PushAttr { attr: u16, v: Reg },
    /// A collection the compiler leaves to the tree evaluator (it charges
    /// its own elements).
    PushTree { c: u32, sp: u16 },
    /// Loop step: unless `i == end`, local `slot` = `scratch[i]`, `i += 1`;
    /// else go to `exit`.
    Next {
        i: Reg,
        end: Reg,
        slot: Reg,
        exit: u32,
    },
    /// [`BOp::Zone`] and the [`BOp::IterInit`] over that zone after it, at
    /// the same span, in one dispatch (`Draft::fuse`): `d` = the zone id
    /// `base + i` (not a slot of a declaration of `n` slots, which keeps the
    /// pair), failing as `Zone`; then its pieces counted against the budget
    /// and `it`, `end` = where they lie in the zones' arena, as `IterInit`.
    /// Hansa Teutonica walks a route's posts this way some 90,000 times a
    /// game.
    ZoneIter {
        d: Reg,
        base: u32,
        i: Reg,
        dim: ZDim,
        it: Reg,
        end: Reg,
        sp: u16,
    },
    /// The close of a round of a loop compiled whole
    /// (`opt/bytecode/stmts.rs`): unless `i == end`, local `slot` =
    /// `scratch[i]`, `i += 1`, one step, unchecked, as the executor counts
    /// a loop's next round, and back to `to`; else on to the next
    /// operation. `Next`, `Tick` and the jump back in one dispatch.
    NextTick {
        i: Reg,
        end: Reg,
        slot: Reg,
        to: u32,
    },
    /// [`BOp::NextTick`] over the pieces of a zone where they lie in the
    /// zones' arena (a loop compiled whole whose body moves no piece,
    /// begun by [`BOp::ZoneSpan`]).
    ZoneNextTick {
        i: Reg,
        end: Reg,
        slot: Reg,
        to: u32,
    },
    /// Where the pieces of zone `z` lie in the zones' arena: `i` = their
    /// start, `end` = their end, uncounted, as the executor copies a zone's
    /// pieces for a `for` without counting them (a loop compiled whole;
    /// [`BOp::IterInit`] counts them, as an expression's walk does).
    ZoneSpan { z: Reg, i: Reg, end: Reg },
    /// In place, for an aggregate or a filter over a zone, all nodes, a
    /// node's neighbours or a range (no copy onto the scratch stack): `i` and
    /// `end` = where the elements start and end in the array that holds them
    /// (the zones' arena, the board's packed adjacency lists; `0..count` for
    /// all nodes and for a range), the elements counted against the step
    /// budget as listing them would. `src` is the zone id, the node or the
    /// range's first number, by `what`.
    IterInit {
        what: Iter,
        src: Reg,
        i: Reg,
        end: Reg,
        sp: u16,
    },
    /// Unless `i == end`, local `slot` = entry `i` of the array
    /// [`BOp::IterInit`] found the elements in (the zones' arena, the
    /// board's packed adjacency lists `Board::adj`; `i` itself for all
    /// nodes), `i += 1`. One operation for the three kinds of walk: a step
    /// of its own for each (`NextNode`, `NextZone`, `NextAdj`) ran 7 – 24 %
    /// fewer playouts per CPU-second on the four classic games for up to
    /// 9.5 % fewer instructions (measured, README's Speed, fourteenth part).
    IterNext {
        what: Iter,
        src: Reg,
        i: Reg,
        end: Reg,
        slot: Reg,
        exit: u32,
    },
    /// [`BOp::IterNext`] over a zone for a test that begins with the
    /// piece's owner (`key` = [`BOp::OWNER`]) or its field `key`: skips the
    /// pieces whose owner or field is (`eq`) or is not (`!eq`) other than
    /// `who`, binds the next one to `slot`, or jumps to `exit` at the end.
    /// One step instead of three per piece skipped; the pieces are still
    /// counted by `IterInit` up front, as the scan counts them. Each piece a
    /// field test looks at is looked at as `BOp::Field` looks: a hidden one
    /// is marked as peeked at while a seat's view is guarded.
    IterLead {
        i: Reg,
        end: Reg,
        slot: Reg,
        who: Reg,
        key: u16,
        eq: bool,
        exit: u32,
    },
    /// `first(Z where it.k1 == y.k1 and it.k2 == y.k2 …)` of a zone walked
    /// in place from `i` to `end` (begun by `ZoneIter`, which counted its
    /// pieces), each `k` the owner or a field (`likes()[like]`): the first
    /// piece that looks like the piece in `y` in those keys, or `none`,
    /// into `d`. What the walk's operations would do, as one operation:
    /// `y`'s keys are read only when the zone has a piece, where the walk
    /// first read them, and fail as they would for `none` (`sp`); while a
    /// seat's view is guarded, every piece the walk would look at is looked
    /// at in the same order. The test of a piece standing for those that
    /// look alike (`first(r.posts where shape == w.shape and owner ==
    /// w.owner) == w`) is then three operations instead of some ten.
    FirstAlike {
        d: Reg,
        i: Reg,
        end: Reg,
        y: Reg,
        like: u16,
        sp: u16,
    },
    /// In place, the start of a loop over `a..b` (an aggregate's or a
    /// filter's): `src` holds `a` and `end`, before, `b`; the range's length
    /// is checked and counted twice against the budget (as `PushRange` and
    /// the `Charge` after it count it), then `i` = 0 and `end` = the length.
    RangeInit { src: Reg, i: Reg, end: Reg, sp: u16 },
    /// The step of a loop begun by `RangeInit`: binds `src + i` to `slot`,
    /// or jumps to `exit` when `i == end`.
    RangeNext {
        src: Reg,
        i: Reg,
        end: Reg,
        slot: Reg,
        exit: u32,
    },
    /// Backwards: unless `i == m`, `i -= 1`, `slot` = `scratch[i]`.
    NextRev {
        i: Reg,
        m: Reg,
        slot: Reg,
        exit: u32,
    },
    /// `scratch[w] = s; w += 1` (compaction of a filter or map in place).
    Put { w: Reg, s: Reg },
    /// The values on the scratch stack from the height in `m` up, each
    /// kept once, where it first is (`distinct(x in C: v)`, after the map
    /// `x in C: v` is listed from `m`); as the tree evaluator's
    /// `eval::expr::dedupe`, which it calls.
    Distinct { m: Reg },
    /// Drops the scratch stack back to the height in `m`.
    Truncate { m: Reg },
    /// `d += 1` when `v` is true (`count` of a test).
    CountIf { d: Reg, v: Reg },
    /// `d += v` (`sum`); on overflow the scratch stack drops to mark `m` and the error is raised.
    SumAcc { d: Reg, v: Reg, m: Reg, sp: u16 },
    /// `d = min(d, v)`.
    MinAcc { d: Reg, v: Reg },
    /// `d = max(d, v)`.
    MaxAcc { d: Reg, v: Reg },
    /// `best`/`worst`: when `v` beats the key so far (or `has` is 0), `d = x`.
    BestAcc {
        d: Reg,
        key: Reg,
        has: Reg,
        x: Reg,
        v: Reg,
        worst: bool,
    },
    /// `min`/`max` of an empty collection fails: `m == e`.
    ErrEmpty { m: Reg, e: Reg, max: bool, sp: u16 },
    /// Whether `x` is listed above mark `m`; drops the list.
    Contains { d: Reg, x: Reg, m: Reg },
    /// The `x`-th (1-based) element listed above mark `m` (`C[x]`); out of
    /// range is a run-time error. Drops the list.
    ListAt { d: Reg, x: Reg, m: Reg, sp: u16 },
    /// `d` = whether `x` is a seat (`x in players`), after charging one step
    /// per seat as listing them would.
    InPlayers { d: Reg, x: Reg, sp: u16 },
    /// `d` = the `x`-th (1-based) of the `n` constants `vals[at..at + n]`
    /// (`[2, 3, 5][x]`), after charging the `n` elements as listing them
    /// would; out of range is a run-time error. One operation instead of a
    /// mark, a `Const` and a `Push` per element, a charge and `ListAt`.
    ConstAt {
        d: Reg,
        x: Reg,
        at: u32,
        n: u16,
        sp: u16,
    },
    /// The 1-based position of `x` among the elements listed above mark `m`,
    /// 0 when absent (`index(x, C)`). Drops the list.
    IndexOf { d: Reg, x: Reg, m: Reg },
    /// Appends the registers `regs[args..args + n]` to the option buffer as
    /// one tuple and counts it in `d` (an action's lister).
    Emit { d: Reg, args: u32, n: u16 },
    /// Charges the elements from index `a` to index `b` of the scratch
    /// stack: a list made once is walked again.
    ChargeRange { a: Reg, b: Reg, sp: u16 },
    /// Reads a list above mark `m` and drops it.
    Listed {
        d: Reg,
        m: Reg,
        what: Listed,
        sp: u16,
    },
    /// Replaces the edges listed above mark `m` with the nodes joined to
    /// node `n` through them (`reachable(n, E)` of an edge collection).
    ReachVia { n: Reg, m: Reg, sp: u16 },
    /// `d` = the longest trail within the edges listed above mark `m`
    /// (`longest_path(E)`); drops the list.
    LongestPath { d: Reg, m: Reg, sp: u16 },
    /// A loop-invariant expression's value kept from earlier in the loop
    /// (`opt/bytecode/memo.rs`), in the four registers from `m`: whether
    /// there is one, the value, the steps its computation charged, and the
    /// step count when it began. If there is one, no seat's view is being
    /// guarded and its steps end before the next checkpoint: they are
    /// charged again, `d` = the value, and control goes to `to`. Else the
    /// step count is noted in `m + 3` and the expression runs.
    MemoGet { d: Reg, m: Reg, to: u32 },
    /// Keeps `d`, just computed, as the value in the registers from `m`,
    /// with the steps charged since `MemoGet` noted the count.
    MemoSet { d: Reg, m: Reg },
    /// A loop-invariant value of plain reads and arithmetic, which charge
    /// no step and read nothing hidden (`opt/bytecode/memo.rs`), kept from
    /// earlier in the loop in the two registers from `m`: whether there is
    /// one, and the value. If there is one, `d` = the value and control
    /// goes to `to`; else the expression runs.
    HoldGet { d: Reg, m: Reg, to: u32 },
    /// Keeps `d`, just computed, as the value in the registers from `m`.
    HoldSet { d: Reg, m: Reg },
    /// A value kept between decisions (`opt/bytecode/keep.rs`): site `k`'s
    /// value, if the position keeps one that no change of what it reads
    /// has outdated, it was computed at the call depth of now, no seat's
    /// view is being guarded and its steps end before the next checkpoint
    /// (`eval/kept.rs`): its steps are charged again, `d` = the value and
    /// control goes to `to`. Else the step count is noted in `m` and the
    /// expression runs.
    KeepGet { d: Reg, k: u32, m: Reg, to: u32 },
    /// Keeps `d`, just computed, as site `k`'s value, with the steps
    /// charged since `KeepGet` noted the count in `m`.
    KeepSet { d: Reg, k: u32, m: Reg },
    /// [`BOp::Next`] for a lister's loop whose next, innermost parameter
    /// walks a zone of the element with a leading test
    /// (`r in edges, w in r.posts where w.owner == actor and …`): skips the
    /// elements whose zone (`skips()[skip]`) holds no piece passing the test
    /// against `who`, charging for each what the inner walk would have
    /// charged for it (the zone's length, at the walk's span) and looking at
    /// its pieces as [`BOp::IterLead`] looks. `slot` and `i` are written for
    /// every element, as the scan writes them.
    NextLead {
        i: Reg,
        end: Reg,
        slot: Reg,
        who: Reg,
        skip: u16,
        exit: u32,
    },
    /// The program's value is `s`.
    Ret { s: Reg },
}

/// What [`BOp::NextLead`] reads of an element's zone and tests of its
/// pieces: the zone as [`BOp::Zone`] finds it (`base`, `dim`; `n` for
/// `ZDim::At`), the piece's owner (`key` = [`BOp::OWNER`]) or field `key`
/// compared (`eq`: equal, else different) with the op's `who`, and the span
/// of the walk the skip stands for (its errors and charges).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeadSkip {
    pub base: u32,
    pub dim: ZDim,
    pub n: u32,
    pub key: u16,
    pub eq: bool,
    pub sp: u16,
}

/// One test of [`BOp::FirstAlike`]: the piece's owner (`key` =
/// [`BOp::OWNER`]) or field `key` equal to that of the piece in `y`;
/// `piece_first` when the walked piece's side is written first (the order
/// the walk looks at the two).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LikeTest {
    pub key: u16,
    pub piece_first: bool,
}

/// A program being written: what the `bytecode` pass fills in before
/// [`Program::seal`] checks it. Its fields are open; a [`Program`]'s are not.
#[derive(Clone, Debug)]
pub struct Draft {
    pub ops: Vec<BOp>,
    /// `spans[sp]` for `sp > 0`; `spans[0]` is unused.
    pub spans: Vec<Span>,
    pub trees: Vec<Expr>,
    pub colls: Vec<Coll>,
    pub preds: Vec<(Elems, ZPred)>,
    /// Call arguments, as runs of registers.
    pub regs: Vec<Reg>,
    /// Constant lists, as runs of values ([`BOp::ConstAt`]).
    pub vals: Vec<Val>,
    /// Key lookups: the programs that compute the values, and the tree to
    /// run instead should one fail.
    pub lookups: Vec<(Vec<u32>, u32)>,
    /// What [`BOp::NextLead`]s skip.
    pub skips: Vec<LeadSkip>,
    /// What [`BOp::FirstAlike`]s compare.
    pub likes: Vec<Vec<LikeTest>>,
    /// The expression as the passes left it: what `regel ir` prints and what
    /// explanations (`why`) read.
    pub source: Expr,
    /// For a program that lists a collection ([`Coll::Code`]): the
    /// collection as the passes left it. Such a program pushes the elements
    /// onto the scratch stack; the caller counts them against the budget.
    pub listed: Option<Coll>,
}

impl Draft {
    /// Jumps that cost a step of the machine and do nothing else: a jump to
    /// an unconditional `Jump` goes on to that jump's target, an
    /// unconditional jump to a `Ret` returns there, and a `Jump` to the
    /// next operation is dropped (the operations after it move up and every
    /// target is moved with them). What the program computes, the steps it
    /// counts and its errors stay as they were: none of these operations
    /// reads or writes a register or counts a step. Then reads and the
    /// jumps on them are fused ([`Draft::fuse`]), and last a global zone's
    /// read becomes its constant.
    pub fn tidy(&mut self) {
        let n = self.ops.len();
        let ops = &mut self.ops;
        for i in 0..n {
            let mut op = ops[i];
            if let Some(t) = op.target_mut() {
                // At most `n` hops: a cycle of jumps (which no pass makes)
                // is left as it is.
                for _ in 0..n {
                    match ops.get(*t as usize) {
                        Some(&BOp::Jump { to }) if to != *t => *t = to,
                        _ => break,
                    }
                }
            }
            if let BOp::Jump { to } = op {
                if let Some(&BOp::Ret { s }) = ops.get(to as usize) {
                    op = BOp::Ret { s };
                }
            }
            ops[i] = op;
        }
        // Where control may arrive other than from the operation before.
        let mut target = vec![false; n + 1];
        for op in ops.iter() {
            if let Some(t) = op.target() {
                target[(t as usize).min(n)] = true;
            }
        }
        let drop: Vec<bool> = (0..n)
            .map(|i| {
                matches!(ops[i], BOp::Jump { to } if to as usize == i + 1)
                    || reloads(ops, &target, i)
            })
            .collect();
        self.remove(&drop);
        // Twice: a pair the first round made can join the operation
        // before it (`CallLeaf` and a `JumpZoneLen` fused from a read and
        // its jump).
        self.fuse();
        self.fuse();
        self.reveal_runs();
        // A global zone is a constant: its read is the cheapest operation
        // there is (after the fusions above, which join a zone read with
        // the walk of it, `ZoneIter`). It neither fails nor counts a step.
        for op in &mut self.ops {
            if let BOp::Zone {
                d,
                base,
                dim: ZDim::Global,
                ..
            } = *op
            {
                *op = BOp::Const {
                    d,
                    v: Val::from(base),
                };
            }
        }
    }

    /// Each loop over a zone whose body turns its piece face up or down
    /// (`Stmt`, `Reveal` of the loop's piece, `ZoneNextTick` back to the
    /// `Stmt`) begins with a [`BOp::StmtRevealRun`] instead of its `Stmt`,
    /// which runs the whole loop at once where it can. Only where nothing
    /// but the loop's step jumps into the body, and the loop's step is not the program's
    /// last operation (so the operation after it, where the run goes on,
    /// exists). Hasp hides the 28 cards of the deck every round: 3
    /// operations a card.
    fn reveal_runs(&mut self) {
        let ops = &mut self.ops;
        let n = ops.len();
        let mut target = vec![0u32; n + 1];
        for op in ops.iter() {
            if let Some(t) = op.target() {
                target[(t as usize).min(n)] += 1;
            }
        }
        for k in 0..n.saturating_sub(3) {
            if let (
                BOp::Stmt { sp },
                BOp::Reveal { p, on, .. },
                BOp::ZoneNextTick { i, end, slot, to },
            ) = (ops[k], ops[k + 1], ops[k + 2])
            {
                // The loop's step is the only way into its body: control
                // arriving at the `Stmt` from anywhere else would find
                // other values in the loop's registers.
                let only_loop = target[k] == 1 && target[k + 1] == 0 && target[k + 2] == 0;
                if p == slot && to as usize == k && only_loop {
                    ops[k] = BOp::StmtRevealRun {
                        sp,
                        i,
                        end,
                        slot,
                        on,
                    };
                }
            }
        }
    }

    /// A plain read and the conditional jump on its result right after it
    /// become one operation ([`BOp::JumpVarAtEqK`], [`BOp::JumpAttr`],
    /// [`BOp::JumpZoneLen`]): one dispatch where there were two, in the
    /// hottest loops of the grid games (reversi's neighbour walks, the
    /// breakthrough lister's row test). The fused operation writes the
    /// read's register as the read did, charges what the two charged (none
    /// charges) and fails as the read failed, so what the program computes,
    /// its steps and its errors stay as they were. A jump that other
    /// operations jump to is left alone: control arriving there must not
    /// run the read.
    ///
    /// The same holds for the other pairs joined here, each the first
    /// operation's work and then the second's in one arm of the machine:
    /// a value and the unconditional jump after it (`ConstJump`,
    /// `OwnerJump`, `PushJump`, `EmitJump`, `AccJump`, `SumAccJump`; and
    /// `ConstRet`, a constant and the `Ret` of it: one
    /// branch of an `if` and the jump to where the branches meet, or an
    /// element kept and the jump back to its loop); a call compiled in
    /// place and its first operation (`EnterJumpEqK`, `JumpEqKLeaf`,
    /// `LeafZoneOwnerOf`, `LeafJumpZoneLen`, the last two only where both
    /// carry the same span; `tidy` runs this twice, so that a read fused
    /// with its jump can join the leaf call before it);
    /// its end and the addition after it (`LeaveAddK`, `LeaveAdd`); a key
    /// lookup and the constant it reads (`KeyPairK`, which still writes
    /// the constant's register). Measured on connect four, where they are
    /// most of what runs: 155,178 → 141,207 instructions a game, with the
    /// executor's changes made alongside (`interpreter/README.md`).
    fn fuse(&mut self) {
        use BOp::*;
        let n = self.ops.len();
        // How many operations jump to each place.
        let mut landing = vec![0u32; n + 1];
        for op in &self.ops {
            if let Some(t) = op.target() {
                landing[(t as usize).min(n)] += 1;
            }
        }
        let mut drop = vec![false; n];
        for i in 0..n.saturating_sub(1) {
            if drop[i] {
                continue;
            }
            if let Some(([a, b, c], m)) = self.owner_count(i, &landing) {
                self.ops[i..i + 3].copy_from_slice(&[a, b, c]);
                drop[i + 3..i + 5].fill(true);
                // The list's mark, just before, is now written again
                // before it is read.
                if let Some(BOp::Mark { d }) = i.checked_sub(1).map(|k| self.ops[k]) {
                    drop[i - 1] |= d == m;
                }
                continue;
            }
            if landing[i + 1] > 0 {
                continue;
            }
            let fused = match (self.ops[i], self.ops[i + 1]) {
                (VarAt { d, base, i: x, sp }, JumpEqK { a, k, to }) if a == d => {
                    i8::try_from(k).ok().map(|k| JumpVarAtEqK {
                        d,
                        base,
                        i: x,
                        k,
                        to,
                        sp,
                    })
                }
                (NodeAttr { d, attr, n, sp }, JumpEq { a, b, to } | JumpNe { a, b, to })
                    if (a == d) != (b == d) =>
                {
                    Some(JumpAttr {
                        d,
                        attr,
                        n,
                        b: if a == d { b } else { a },
                        ne: matches!(self.ops[i + 1], JumpNe { .. }),
                        to,
                        sp,
                    })
                }
                (
                    ZoneLenOf {
                        d,
                        base,
                        i: x,
                        dim,
                        empty,
                        sp,
                    },
                    JumpIf { c, to } | JumpUnless { c, to },
                ) if c == d => u16::try_from(base).ok().map(|base| JumpZoneLen {
                    d,
                    base,
                    i: x,
                    dim,
                    empty,
                    when: matches!(self.ops[i + 1], JumpIf { .. }),
                    to,
                    sp,
                }),
                (Const { d, v }, Jump { to }) => {
                    i32::try_from(v).ok().map(|v| ConstJump { d, v, to })
                }
                (Push { s }, Jump { to }) => Some(PushJump { s, to }),
                (Emit { d, args, n }, Jump { to }) => Some(EmitJump { d, args, n, to }),
                (Owner { d, p, sp }, Jump { to }) => Some(OwnerJump { d, p, sp, to }),
                (Const { d: c, v }, KeyPair { d, key, a, b }) if a == c && b != c => {
                    i16::try_from(v).ok().map(|k| KeyPairK { d, key, c, k, b })
                }
                (
                    CallLeaf { sp: leaf },
                    JumpZoneLen {
                        d,
                        base,
                        i: x,
                        dim,
                        empty,
                        when,
                        to,
                        sp,
                    },
                ) if leaf == sp => Some(LeafJumpZoneLen {
                    d,
                    base,
                    i: x,
                    dim,
                    empty,
                    when,
                    to,
                    sp,
                }),
                (Const { d, v }, Ret { s }) if s == d => {
                    i32::try_from(v).ok().map(|v| ConstRet { d, v })
                }
                (SumAcc { d, v, m, sp }, Jump { to }) => Some(SumAccJump { d, v, m, sp, to }),
                (MaxAcc { d, v }, Jump { to }) => Some(AccJump {
                    d,
                    v,
                    max: true,
                    to,
                }),
                (MinAcc { d, v }, Jump { to }) => Some(AccJump {
                    d,
                    v,
                    max: false,
                    to,
                }),
                (CallLeave, AddK { d, a, k, sp }) => {
                    i32::try_from(k).ok().map(|k| LeaveAddK { d, a, k, sp })
                }
                (CallLeave, Add { d, a, b, sp }) => Some(LeaveAdd { d, a, b, sp }),
                (CallEnter { sp }, JumpEqK { a, k, to }) => {
                    i32::try_from(k).ok().map(|k| EnterJumpEqK { a, k, to, sp })
                }
                (JumpEqK { a, k, to }, CallLeaf { sp }) => {
                    i32::try_from(k).ok().map(|k| JumpEqKLeaf { a, k, to, sp })
                }
                (
                    CallLeaf { sp: leaf },
                    ZoneOwnerOf {
                        d,
                        base,
                        i: x,
                        dim,
                        p,
                        test,
                        sp,
                    },
                ) if leaf == sp => Some(LeafZoneOwnerOf {
                    d,
                    base,
                    i: x,
                    dim,
                    p,
                    test,
                    sp,
                }),
                (
                    Zone {
                        d,
                        base,
                        i: x,
                        dim,
                        n: _,
                        sp,
                    },
                    IterInit {
                        what: Iter::Zone,
                        src,
                        i: it,
                        end,
                        sp: at,
                    },
                ) if src == d && at == sp && dim != ZDim::At => Some(ZoneIter {
                    d,
                    base,
                    i: x,
                    dim,
                    it,
                    end,
                    sp,
                }),
                _ => None,
            };
            if let Some(f) = fused {
                self.ops[i] = f;
                drop[i + 1] = true;
            }
        }
        self.remove(&drop);
    }

    /// `count(Z where owner == p)` as the compiler leaves it (operations
    /// `i..i + 5`: the walk's start `ZoneIter`, an `IterLead` loop on the
    /// owner that pushes each piece it keeps, the `Charge` of the list and
    /// its `Listed` count), made the three operations of a count by owner:
    /// `ZoneOwnerOf` (the zone found and its pieces charged, as
    /// `ZoneIter` did, at its span; then the count), and the count charged
    /// again as the list was (`ChargeRange` from a register set to 0), at
    /// the list's span. Hansa's `count(n.stalls where owner == p)` runs some
    /// 15,000 times a game. Only the loop's own jumps may land inside it
    /// (`landing`: how many jump to each place). With it, the list's mark
    /// register, now the 0. A test on a field keeps its loop: a new
    /// operation for it cost other games more (adding an arm to the
    /// machine's match moved connect four by 1.5 %) than it saved.
    fn owner_count(&self, i: usize, landing: &[u32]) -> Option<([BOp; 3], Reg)> {
        let ops = self.ops.get(i..i + 5)?;
        let (
            &BOp::ZoneIter {
                d: _,
                base,
                i: x,
                dim,
                it,
                end,
                sp: zsp,
            },
            &BOp::IterLead {
                i: li,
                end: lend,
                slot,
                who,
                key: BOp::OWNER,
                eq: true,
                exit,
            },
            &BOp::PushJump { s, to },
            &BOp::Charge { m, sp },
            &BOp::Listed {
                d,
                m: listed,
                what: Listed::Count,
                sp: at,
            },
        ) = (&ops[0], &ops[1], &ops[2], &ops[3], &ops[4])
        else {
            return None;
        };
        let own =
            (li, lend, s) == (it, end, slot) && to as usize == i + 1 && exit as usize == i + 3;
        let alone = landing[i + 1] == 1
            && landing[i + 2] == 0
            && landing[i + 3] == 1
            && landing[i + 4] == 0;
        let ops = [
            BOp::ZoneOwnerOf {
                d,
                base,
                i: x,
                dim,
                p: who,
                test: OwnerTest::Count,
                sp: zsp,
            },
            BOp::Const { d: m, v: 0 },
            BOp::ChargeRange { a: m, b: d, sp },
        ];
        (own && alone && listed == m && at == sp && d != m).then_some((ops, m))
    }

    /// Drops the operations marked in `drop` and moves every jump target
    /// with the operations that stay; a dropped operation's place is the
    /// next kept one's, where it would have gone on to.
    fn remove(&mut self, drop: &[bool]) {
        if !drop.contains(&true) {
            return;
        }
        let ops = &mut self.ops;
        let mut moved = Vec::with_capacity(ops.len() + 1);
        let mut k = 0u32;
        for &d in drop {
            moved.push(k);
            k += u32::from(!d);
        }
        moved.push(k);
        let mut i = 0;
        ops.retain(|_| {
            i += 1;
            !drop[i - 1]
        });
        for op in ops.iter_mut() {
            if let Some(t) = op.target_mut() {
                // A target outside the draft (a bug of the pass) stays
                // outside, for `Program::seal` to refuse.
                *t = moved.get(*t as usize).copied().unwrap_or(u32::MAX);
            }
        }
    }
}

/// How far back [`reloads`] looks for the same read.
const RELOAD_WINDOW: usize = 6;

/// Whether operation `i` reads into a register what an operation shortly
/// before it already read into it, on a path with no other way in and
/// nothing between that names either register: `b.disc != none and
/// b.disc != p` reads `b.disc` once. Only reads of what an expression
/// cannot change and that charge nothing and look at nothing hidden (a
/// variable, a piece's owner, a node's or an edge's attribute) are dropped;
/// the first read, had it failed, would have ended the program before.
fn reloads(ops: &[BOp], target: &[bool], i: usize) -> bool {
    use BOp::*;
    let Some(read) = plain_read(ops[i]) else {
        return false;
    };
    let (_, d, _, from) = read;
    // A read whose result replaces what it read from (`n.next.next`
    // reading into one register) reads something else the second time.
    if from == Some(d) {
        return false;
    }
    for j in (i.saturating_sub(RELOAD_WINDOW)..i).rev() {
        if target[j + 1] {
            return false;
        }
        if plain_read(ops[j]) == Some(read) {
            return true;
        }
        // What the operation between writes: plain reads and tests write
        // their `d`, jumps nothing; anything else ends the search.
        let writes = match ops[j] {
            Const { d, .. }
            | Mov { d, .. }
            | Var { d, .. }
            | VarAt { d, .. }
            | Owner { d, .. }
            | NodeAttr { d, .. }
            | EdgeAttr { d, .. }
            | Not { d, .. }
            | Truth { d, .. }
            | Eq { d, .. }
            | Ne { d, .. }
            | Lt { d, .. }
            | Le { d, .. }
            | EqK { d, .. }
            | NeK { d, .. }
            | LtK { d, .. }
            | GtK { d, .. } => Some(d),
            JumpEqK { .. }
            | JumpNeK { .. }
            | JumpLtK { .. }
            | JumpGtK { .. }
            | JumpEq { .. }
            | JumpNe { .. }
            | JumpLt { .. }
            | JumpLe { .. }
            | JumpIf { .. }
            | JumpUnless { .. } => None,
            _ => return false,
        };
        if writes.is_some_and(|w| w == d || Some(w) == from) {
            return false;
        }
    }
    false
}

/// What a read [`reloads`] may drop reads, its span left out: its kind,
/// the register it writes, its variable or attribute, and the register it
/// reads from (none for a variable's slot).
fn plain_read(op: BOp) -> Option<(u8, Reg, u32, Option<Reg>)> {
    match op {
        BOp::Var { d, at } => Some((0, d, at, None)),
        BOp::VarAt { d, base, i, .. } => Some((1, d, base, Some(i))),
        BOp::Owner { d, p, .. } => Some((2, d, 0, Some(p))),
        BOp::NodeAttr { d, attr, n, .. } => Some((3, d, attr.into(), Some(n))),
        BOp::EdgeAttr { d, attr, e, .. } => Some((4, d, attr.into(), Some(e))),
        _ => None,
    }
}

impl Default for Draft {
    fn default() -> Draft {
        Draft {
            ops: vec![],
            spans: vec![Span::default()],
            trees: vec![],
            colls: vec![],
            preds: vec![],
            regs: vec![],
            vals: vec![],
            lookups: vec![],
            skips: vec![],
            likes: vec![],
            source: Expr::Const(0),
            listed: None,
        }
    }
}

/// A compiled expression and the tables its operations index: a sealed
/// [`Draft`]. Its fields are private and it is made only by
/// [`Program::seal`], so safe code cannot hand the machine a program whose
/// registers or jumps it has not checked (the machine's `unsafe` reads rely
/// on them).
#[derive(Clone, Debug)]
pub struct Program {
    ops: Vec<BOp>,
    /// One more than the highest register the operations name: the frame
    /// must have this many slots (checked when the program starts).
    nregs: u32,
    spans: Vec<Span>,
    trees: Vec<Expr>,
    colls: Vec<Coll>,
    preds: Vec<(Elems, ZPred)>,
    regs: Vec<Reg>,
    vals: Vec<Val>,
    lookups: Vec<(Vec<u32>, u32)>,
    skips: Vec<LeadSkip>,
    likes: Vec<Vec<LikeTest>>,
    source: Expr,
    listed: Option<Coll>,
}

impl BOp {
    /// [`BOp::IterLead`]'s key for the piece's owner.
    pub const OWNER: u16 = u16::MAX;

    /// Calls `f` on every register the operation names.
    pub fn registers(&self, f: &mut impl FnMut(Reg)) {
        use BOp::*;
        let rs: &[Reg] = match self {
            Const { d, .. } | Var { d, .. } | Mark { d } | ZoneAgg { d, .. } | Tree { d, .. } => {
                &[*d]
            }
            Mov { d, s } => &[*d, *s],
            VarAt { d, i, .. } | Zone { d, i, .. } | ZoneLenOf { d, i, .. } => &[*d, *i],
            Field { d, p, .. } | Owner { d, p, .. } | IsKind { d, p, .. } => &[*d, *p],
            NodeAttr { d, n, .. } | KeyLookup { d, n, .. } | KeyRegs { d, n, .. } => &[*d, *n],
            EdgeAttr { d, e, .. } | EdgeEnd { d, e, .. } => &[*d, *e],
            ZoneLen { d, z } | ZoneEmpty { d, z } => &[*d, *z],
            ZoneOwner { d, z, p, .. } => &[*d, *z, *p],
            ZoneOwnerOf { d, i, p, .. } | LeafZoneOwnerOf { d, i, p, .. } => &[*d, *i, *p],
            ConstJump { d, .. } | ConstRet { d, .. } => &[*d],
            SumAccJump { d, v, m, .. } => &[*d, *v, *m],
            AccJump { d, v, .. } => &[*d, *v],
            LeaveAddK { d, a, .. } => &[*d, *a],
            LeaveAdd { d, a, b, .. } => &[*d, *a, *b],
            PushJump { s, .. } => &[*s],
            EmitJump { d, .. } => &[*d],
            OwnerJump { d, p, .. } => &[*d, *p],
            KeyPairK { d, c, b, .. } => &[*d, *c, *b],
            EnterJumpEqK { a, .. } | JumpEqKLeaf { a, .. } => &[*a],
            JumpVarAtEqK { d, i, .. } | JumpZoneLen { d, i, .. } | LeafJumpZoneLen { d, i, .. } => {
                &[*d, *i]
            }
            SetVar { s, i: Some(i), .. } => &[*s, *i],
            SetVar { s, i: None, .. } => &[*s],
            Stmt { .. } | Log { .. } | ShowBoard => &[],
            MovePiece { p, z, .. } => &[*p, *z],
            StmtRevealRun { i, end, slot, .. } => &[*i, *end, *slot],
            MoveListed { m, z, .. } => &[*m, *z],
            Reveal { p, .. } => &[*p],
            JumpAttr { d, n, b, .. } => &[*d, *n, *b],
            Neg { d, a, .. }
            | Not { d, a }
            | Truth { d, a }
            | AddK { d, a, .. }
            | EqK { d, a, .. }
            | NeK { d, a, .. }
            | LtK { d, a, .. }
            | GtK { d, a, .. } => &[*d, *a],
            Pos2 { d, a, b, .. }
            | Add { d, a, b, .. }
            | Sub { d, a, b, .. }
            | Mul { d, a, b, .. }
            | Div { d, a, b, .. }
            | Rem { d, a, b, .. }
            | Eq { d, a, b }
            | Ne { d, a, b }
            | Lt { d, a, b }
            | Le { d, a, b } => &[*d, *a, *b],
            Jump { .. }
            | CallEnter { .. }
            | CallLeaf { .. }
            | CallLeave
            | PushPlayers
            | PushNodes
            | PushEdges
            | PushZPred { .. }
            | PushTree { .. } => &[],
            JumpIf { c, .. } | JumpUnless { c, .. } => &[*c],
            JumpEqK { a, .. } | JumpNeK { a, .. } | JumpLtK { a, .. } | JumpGtK { a, .. } => &[*a],
            JumpEq { a, b, .. }
            | JumpNe { a, b, .. }
            | JumpLt { a, b, .. }
            | JumpLe { a, b, .. } => &[*a, *b],
            Call { d, .. } => &[*d],
            Tab1 { d, a, .. } => &[*d, *a],
            KeyPair { d, a, b, .. } => &[*d, *a, *b],
            Tab2 { d, a, b, .. } => &[*d, *a, *b],
            Builtin { d, x, y, .. } => &[*d, *x, *y],
            Charge { m, .. } | Truncate { m } => &[*m],
            PushZone { z } => &[*z],
            PushPlayersFrom { p, .. } => &[*p],
            PushAdj { n, .. } => &[*n],
            PushRange { a, b, .. } => &[*a, *b],
            Push { s } | Ret { s } => &[*s],
            PushAttr { v, .. } => &[*v],
            Next { i, end, slot, .. }
            | NextTick { i, end, slot, .. }
            | ZoneNextTick { i, end, slot, .. } => &[*i, *end, *slot],
            ZoneSpan { z, i, end } => &[*z, *i, *end],
            FirstAlike { d, i, end, y, .. } => &[*d, *i, *end, *y],
            ZoneIter { d, i, it, end, .. } => &[*d, *i, *it, *end],
            IterInit { src, i, end, .. } | RangeInit { src, i, end, .. } => &[*src, *i, *end],
            IterNext {
                src, i, end, slot, ..
            }
            | RangeNext {
                src, i, end, slot, ..
            } => &[*src, *i, *end, *slot],
            NextRev { i, m, slot, .. } => &[*i, *m, *slot],
            IterLead {
                i, end, slot, who, ..
            }
            | NextLead {
                i, end, slot, who, ..
            } => &[*i, *end, *slot, *who],
            Put { w, s } => &[*w, *s],
            Distinct { m } => &[*m],
            CountIf { d, v } | MinAcc { d, v } | MaxAcc { d, v } => &[*d, *v],
            SumAcc { d, v, m, .. } => &[*d, *v, *m],
            BestAcc {
                d, key, has, x, v, ..
            } => &[*d, *key, *has, *x, *v],
            ErrEmpty { m, e, .. } => &[*m, *e],
            ConstAt { d, x, .. } | InPlayers { d, x, .. } => &[*d, *x],
            Contains { d, x, m } | ListAt { d, x, m, .. } | IndexOf { d, x, m } => &[*d, *x, *m],
            Emit { d, .. } => &[*d],
            ChargeRange { a, b, .. } => &[*a, *b],
            Listed { d, m, .. } | LongestPath { d, m, .. } => &[*d, *m],
            ReachVia { n, m, .. } => &[*n, *m],
            MemoGet { d, m, .. } | MemoSet { d, m } => &[*d, *m, *m + 3],
            HoldGet { d, m, .. } | HoldSet { d, m } => &[*d, *m, *m + 1],
            KeepGet { d, m, .. } | KeepSet { d, m, .. } => &[*d, *m],
        };
        rs.iter().for_each(|&r| f(r));
    }

    /// Where the operation may jump.
    pub fn target(&self) -> Option<u32> {
        let mut op = *self;
        op.target_mut().map(|t| *t)
    }

    /// Whether the operation is two fused by [`Draft::fuse`]: counted as two
    /// where the size of a program decides whether it is worth compiling.
    pub fn fused(&self) -> bool {
        matches!(
            self,
            BOp::JumpVarAtEqK { .. }
                | BOp::JumpAttr { .. }
                | BOp::JumpZoneLen { .. }
                | BOp::LeafJumpZoneLen { .. }
                | BOp::ConstJump { .. }
                | BOp::ConstRet { .. }
                | BOp::SumAccJump { .. }
                | BOp::AccJump { .. }
                | BOp::LeaveAddK { .. }
                | BOp::LeaveAdd { .. }
                | BOp::PushJump { .. }
                | BOp::EmitJump { .. }
                | BOp::OwnerJump { .. }
                | BOp::KeyPairK { .. }
                | BOp::EnterJumpEqK { .. }
                | BOp::JumpEqKLeaf { .. }
                | BOp::LeafZoneOwnerOf { .. }
                | BOp::ZoneIter { .. }
        )
    }

    /// Where the operation may jump, to be set (the one list of the
    /// operations that jump, so that a pass patching a jump and `seal`
    /// checking it cannot disagree).
    pub fn target_mut(&mut self) -> Option<&mut u32> {
        match self {
            BOp::Jump { to }
            | BOp::JumpIf { to, .. }
            | BOp::JumpUnless { to, .. }
            | BOp::JumpEqK { to, .. }
            | BOp::JumpNeK { to, .. }
            | BOp::JumpLtK { to, .. }
            | BOp::JumpGtK { to, .. }
            | BOp::JumpEq { to, .. }
            | BOp::JumpNe { to, .. }
            | BOp::JumpLt { to, .. }
            | BOp::JumpLe { to, .. }
            | BOp::Tab1 { to, .. }
            | BOp::Tab2 { to, .. }
            | BOp::MemoGet { to, .. }
            | BOp::HoldGet { to, .. }
            | BOp::KeepGet { to, .. }
            | BOp::JumpVarAtEqK { to, .. }
            | BOp::JumpAttr { to, .. }
            | BOp::JumpZoneLen { to, .. }
            | BOp::LeafJumpZoneLen { to, .. }
            | BOp::ConstJump { to, .. }
            | BOp::SumAccJump { to, .. }
            | BOp::AccJump { to, .. }
            | BOp::PushJump { to, .. }
            | BOp::EmitJump { to, .. }
            | BOp::OwnerJump { to, .. }
            | BOp::EnterJumpEqK { to, .. }
            | BOp::JumpEqKLeaf { to, .. }
            | BOp::NextTick { to, .. }
            | BOp::ZoneNextTick { to, .. } => Some(to),
            BOp::Next { exit, .. }
            | BOp::NextRev { exit, .. }
            | BOp::IterNext { exit, .. }
            | BOp::IterLead { exit, .. }
            | BOp::NextLead { exit, .. }
            | BOp::RangeNext { exit, .. } => Some(exit),
            _ => None,
        }
    }
}

impl Program {
    /// Seals a draft: computes the registers it names ([`Program::nregs`])
    /// and checks what the machine relies on without checking as it runs:
    /// every jump lands inside the program, and the last operation is `Ret`
    /// or a jump, so that `pc` never runs off the end. A draft that fails
    /// this is a bug of the pass; it is refused (`None`: the expression
    /// stays a tree) rather than run.
    pub fn seal(d: Draft) -> Option<Program> {
        let mut top: u32 = 0;
        for op in &d.ops {
            op.registers(&mut |r| top = top.max(r as u32 + 1));
        }
        for &r in &d.regs {
            top = top.max(r as u32 + 1);
        }
        let len = d.ops.len() as u32;
        // Operations that never go on to the next one: `Ret`, `Jump` and
        // the pairs `Draft::fuse` made of one of them.
        let ends = matches!(
            d.ops.last(),
            Some(
                BOp::Ret { .. }
                    | BOp::ConstRet { .. }
                    | BOp::Jump { .. }
                    | BOp::ConstJump { .. }
                    | BOp::PushJump { .. }
                    | BOp::EmitJump { .. }
                    | BOp::OwnerJump { .. }
                    | BOp::AccJump { .. }
                    | BOp::SumAccJump { .. }
            )
        );
        if !ends || !d.ops.iter().all(|op| op.target().is_none_or(|t| t < len)) {
            return None;
        }
        Some(Program {
            ops: d.ops,
            nregs: top,
            spans: d.spans,
            trees: d.trees,
            colls: d.colls,
            preds: d.preds,
            regs: d.regs,
            vals: d.vals,
            lookups: d.lookups,
            skips: d.skips,
            likes: d.likes,
            source: d.source,
            listed: d.listed,
        })
    }

    /// The operations; the last is `Ret` or a jump, every jump lands inside.
    #[inline]
    pub fn ops(&self) -> &[BOp] {
        &self.ops
    }

    /// One more than the highest register the program names: the frame it
    /// runs in must have at least this many slots.
    #[inline]
    pub fn nregs(&self) -> u32 {
        self.nregs
    }

    /// `spans()[sp]` for `sp > 0`; `spans()[0]` is unused.
    #[inline]
    pub fn spans(&self) -> &[Span] {
        &self.spans
    }

    /// Expressions left to the tree evaluator (`BOp::Tree`, key lookups'
    /// fallbacks).
    #[inline]
    pub fn trees(&self) -> &[Expr] {
        &self.trees
    }

    /// Collections left to the tree evaluator (`BOp::PushTree`).
    #[inline]
    pub fn colls(&self) -> &[Coll] {
        &self.colls
    }

    /// Zone predicates (`BOp::ZoneAgg`, `BOp::PushZPred`).
    #[inline]
    pub fn preds(&self) -> &[(Elems, ZPred)] {
        &self.preds
    }

    /// Call arguments, as runs of registers.
    #[inline]
    pub fn regs(&self) -> &[Reg] {
        &self.regs
    }

    /// The constant lists that [`BOp::ConstAt`] reads.
    #[inline]
    pub fn vals(&self) -> &[Val] {
        &self.vals
    }

    /// Key lookups: the programs that compute the values, and the tree to
    /// run instead should one fail.
    #[inline]
    pub fn lookups(&self) -> &[(Vec<u32>, u32)] {
        &self.lookups
    }

    /// What [`BOp::NextLead`]s skip.
    #[inline]
    pub fn skips(&self) -> &[LeadSkip] {
        &self.skips
    }

    /// What [`BOp::FirstAlike`]s compare.
    #[inline]
    pub fn likes(&self) -> &[Vec<LikeTest>] {
        &self.likes
    }

    /// The expression as the passes left it: what `regel ir` prints and
    /// what explanations (`why`) read.
    pub fn source(&self) -> &Expr {
        &self.source
    }

    /// For a program that lists a collection ([`Coll::Code`]): the
    /// collection as the passes left it.
    pub fn listed(&self) -> Option<&Coll> {
        self.listed.as_ref()
    }
}

/// The values a position keeps between decisions (`opt/bytecode/keep.rs`,
/// `eval/kept.rs`): what each site's expression reads, by family (a zone
/// declaration or a variable declaration), and the family of every zone and
/// variable slot, through which a change outdates the values that read it.
#[derive(Clone, Debug, Default)]
pub struct KeptSites {
    pub sites: Vec<KeptSite>,
    /// Per zone: its family, the index of its declaration, or
    /// [`KeptSites::UNREAD`]. Empty when there is no site.
    pub zone_fam: Vec<u16>,
    /// Per variable slot: its family, the number of zone declarations plus
    /// the index of its declaration, or [`KeptSites::UNREAD`].
    pub var_fam: Vec<u16>,
    /// How many families there are.
    pub nfam: u16,
}

impl KeptSites {
    /// The family of a zone or variable that no site reads: its changes
    /// are not noted.
    pub const UNREAD: u16 = u16::MAX;
}

/// One expression whose value is kept between decisions.
#[derive(Clone, Debug)]
pub struct KeptSite {
    /// The families it reads, ascending.
    pub reads: Vec<u16>,
    /// The operations it is estimated to cost (`opt/bytecode/keep.rs`).
    pub weight: u64,
    /// The expression as compiled (it reads no local, so it can be computed
    /// in any frame of `nlocals` slots for its own elements): tests compute
    /// it again to compare with a kept value (`Match::kept_agree`).
    pub expr: Expr,
    pub nlocals: u16,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ops` after one round of `Draft::fuse`.
    fn fused(ops: Vec<BOp>) -> Vec<BOp> {
        let mut d = Draft {
            ops,
            ..Draft::default()
        };
        d.fuse();
        d.ops
    }

    /// An operation stays two words: the machine reads one per step.
    #[test]
    fn op_size() {
        assert_eq!(std::mem::size_of::<super::BOp>(), 16);
    }

    /// What the machine's `unsafe` reads rely on: a sealed program names
    /// its registers, and a draft that could run `pc` out of range is
    /// refused.
    #[test]
    fn seal_checks_jumps_and_counts_registers() {
        let draft = |ops: Vec<BOp>| Draft {
            ops,
            ..Draft::default()
        };
        let p = Program::seal(draft(vec![BOp::Const { d: 7, v: 1 }, BOp::Ret { s: 7 }]))
            .expect("a program that returns seals");
        assert_eq!(p.nregs(), 8);
        assert!(Program::seal(draft(vec![BOp::Jump { to: 1 }])).is_none());
        assert!(Program::seal(draft(vec![BOp::Const { d: 0, v: 1 }])).is_none());
        assert!(Program::seal(draft(vec![])).is_none());
    }

    /// `if c then 1 else 2` laid out with a jump to a jump, a jump to the
    /// next operation and one to a `Ret`: after `tidy`, the same answers in
    /// fewer steps, every target moved with its operation.
    #[test]
    fn tidy_drops_jumps_that_do_nothing() {
        use BOp::*;
        let mut d = Draft {
            ops: vec![
                JumpUnless { c: 0, to: 5 }, // 0: to a jump
                Const { d: 1, v: 1 },       // 1
                Jump { to: 3 },             // 2: to the next operation
                Const { d: 2, v: 5 },       // 3
                Jump { to: 8 },             // 4: to a `Ret`
                Jump { to: 7 },             // 5
                Const { d: 1, v: 9 },       // 6: never runs
                Const { d: 1, v: 2 },       // 7
                Ret { s: 1 },               // 8
            ],
            ..Draft::default()
        };
        d.tidy();
        let tidied = [
            JumpUnless { c: 0, to: 6 },
            Const { d: 1, v: 1 },
            Const { d: 2, v: 5 },
            Ret { s: 1 },
            Jump { to: 6 },
            Const { d: 1, v: 9 },
            // The constant and the `Ret` of it, fused (`Draft::fuse`).
            ConstRet { d: 1, v: 2 },
        ];
        assert_eq!(format!("{:?}", d.ops), format!("{tidied:?}"));
        let run = |ops: &[BOp], c: Val| {
            let (mut regs, mut pc) = ([c, 0, 0], 0usize);
            loop {
                match ops[pc] {
                    JumpUnless { c, to } if regs[c as usize] == 0 => pc = to as usize,
                    Jump { to } => pc = to as usize,
                    Const { d, v } => {
                        regs[d as usize] = v;
                        pc += 1
                    }
                    Ret { s } => return regs[s as usize],
                    ConstRet { v, .. } => return v as Val,
                    _ => pc += 1,
                }
            }
        };
        assert_eq!((run(&d.ops, 1), run(&d.ops, 0)), (1, 2));
        assert!(Program::seal(d).is_some());
        // A jump outside the draft, which a pass with a bug could make, is
        // still refused by `seal` after `tidy`, not a panic.
        let mut bad = Draft {
            ops: vec![Jump { to: 1 }, Jump { to: 9 }, Ret { s: 0 }],
            ..Draft::default()
        };
        bad.tidy();
        assert!(Program::seal(bad).is_none());
    }

    #[test]
    fn tidy_drops_a_read_repeated_on_one_path() {
        use BOp::*;
        let read = VarAt {
            d: 2,
            base: 0,
            i: 1,
            sp: 0,
        };
        let tidied = |ops: Vec<BOp>| {
            let mut d = Draft {
                ops,
                ..Draft::default()
            };
            d.tidy();
            d.ops
        };
        // `b.disc != none and b.disc != p`: the second read goes, and the
        // jump after it lands one earlier; then the first read and the jump
        // on it are fused (`Draft::fuse`), and the jumps land one earlier
        // again.
        let ops = tidied(vec![
            read,
            JumpEqK { a: 2, k: -1, to: 4 },
            read,
            JumpEq { a: 2, b: 0, to: 4 },
            Ret { s: 2 },
        ]);
        let want = [
            JumpVarAtEqK {
                d: 2,
                base: 0,
                i: 1,
                k: -1,
                to: 2,
                sp: 0,
            },
            JumpEq { a: 2, b: 0, to: 2 },
            Ret { s: 2 },
        ];
        assert_eq!(format!("{ops:?}"), format!("{want:?}"));
        // Kept: a read another path reaches; a read after its index or its
        // register was written; a read after an operation that is not a
        // plain read or test; a read into the register it reads from.
        for ops in [
            vec![read, JumpEqK { a: 2, k: -1, to: 2 }, read, Ret { s: 2 }],
            vec![read, Const { d: 1, v: 3 }, read, Ret { s: 2 }],
            vec![read, Mov { d: 2, s: 0 }, read, Ret { s: 2 }],
            vec![
                read,
                Add {
                    d: 3,
                    a: 0,
                    b: 0,
                    sp: 0,
                },
                read,
                Ret { s: 2 },
            ],
            vec![
                NodeAttr {
                    d: 1,
                    attr: 0,
                    n: 1,
                    sp: 0,
                },
                NodeAttr {
                    d: 1,
                    attr: 0,
                    n: 1,
                    sp: 0,
                },
                Ret { s: 1 },
            ],
        ] {
            let kept = tidied(ops.clone());
            let fused = kept.iter().filter(|op| op.fused()).count();
            assert_eq!(kept.len() + fused, ops.len(), "{ops:?}");
        }
    }

    #[test]
    fn fuse_joins_a_read_and_the_jump_on_its_result() {
        use BOp::*;
        let var = VarAt {
            d: 2,
            base: 7,
            i: 1,
            sp: 3,
        };
        let attr = NodeAttr {
            d: 4,
            attr: 1,
            n: 0,
            sp: 5,
        };
        let len = |base| ZoneLenOf {
            d: 6,
            base,
            i: 0,
            dim: ZDim::Node,
            empty: true,
            sp: 2,
        };
        // Each pair becomes one operation that writes the read's register
        // and keeps both spans' meaning (the read's); the jumps after it,
        // and the jump back to the start, move with the operations.
        let ops = fused(vec![
            var,                            // 0
            JumpEqK { a: 2, k: -1, to: 8 }, // 1
            attr,                           // 2
            JumpEq { a: 9, b: 4, to: 0 },   // 3: the read's register on the right
            len(40),                        // 4
            JumpUnless { c: 6, to: 8 },     // 5
            attr,                           // 6
            JumpNe { a: 4, b: 9, to: 8 },   // 7
            Ret { s: 2 },                   // 8
        ]);
        let want = [
            JumpVarAtEqK {
                d: 2,
                base: 7,
                i: 1,
                k: -1,
                to: 4,
                sp: 3,
            },
            JumpAttr {
                d: 4,
                attr: 1,
                n: 0,
                b: 9,
                ne: false,
                to: 0,
                sp: 5,
            },
            JumpZoneLen {
                d: 6,
                base: 40,
                i: 0,
                dim: ZDim::Node,
                empty: true,
                when: false,
                to: 4,
                sp: 2,
            },
            JumpAttr {
                d: 4,
                attr: 1,
                n: 0,
                b: 9,
                ne: true,
                to: 4,
                sp: 5,
            },
            Ret { s: 2 },
        ];
        assert_eq!(format!("{ops:?}"), format!("{want:?}"));
        // Left alone: a jump other operations jump to (control arriving
        // there must not run the read); a jump on another register; a
        // constant that does not fit the fused operation; a zone base that
        // does not fit 16 bits; a comparison of the read with itself.
        for ops in [
            vec![
                var,
                JumpEqK { a: 2, k: -1, to: 3 },
                Jump { to: 1 },
                Ret { s: 2 },
            ],
            vec![var, JumpEqK { a: 1, k: -1, to: 2 }, Ret { s: 2 }],
            vec![
                var,
                JumpEqK {
                    a: 2,
                    k: 300,
                    to: 2,
                },
                Ret { s: 2 },
            ],
            vec![len(70_000), JumpIf { c: 6, to: 2 }, Ret { s: 6 }],
            vec![attr, JumpEq { a: 4, b: 4, to: 2 }, Ret { s: 4 }],
        ] {
            assert_eq!(format!("{:?}", fused(ops.clone())), format!("{ops:?}"));
        }
    }

    #[test]
    fn fuse_joins_a_value_and_the_jump_after_it_and_a_call_and_its_first_test() {
        use BOp::*;
        let owner = ZoneOwnerOf {
            d: 5,
            base: 3,
            i: 1,
            dim: ZDim::Node,
            p: 0,
            test: OwnerTest::Any,
            sp: 2,
        };
        // connect four's `run` compiled in place, shortened: each pair is
        // one operation, every jump moved with the operations.
        let ops = fused(vec![
            CallEnter { sp: 1 },            // 0
            JumpEqK { a: 1, k: -1, to: 4 }, // 1
            CallLeaf { sp: 2 },             // 2
            owner,                          // 3
            Const { d: 4, v: 0 },           // 4
            Jump { to: 8 },                 // 5
            Const { d: 6, v: 1 },           // 6
            KeyPair {
                d: 7,
                key: 0,
                a: 6,
                b: 2,
            }, // 7
            CallLeave,                      // 8
            AddK {
                d: 4,
                a: 4,
                k: 1,
                sp: 3,
            }, // 9
            JumpEqK { a: 4, k: 0, to: 12 }, // 10
            CallLeaf { sp: 4 },             // 11
            Push { s: 4 },                  // 12
            Jump { to: 0 },                 // 13
            MaxAcc { d: 8, v: 4 },          // 14
            Jump { to: 0 },                 // 15
            SumAcc {
                d: 9,
                v: 4,
                m: 2,
                sp: 5,
            }, // 16
            Jump { to: 16 },                // 17
            Owner { d: 3, p: 1, sp: 6 },    // 18
            Jump { to: 21 },                // 19
            CallLeave,                      // 20
            Add {
                d: 4,
                a: 4,
                b: 3,
                sp: 7,
            }, // 21
            Ret { s: 4 },                   // 22
        ]);
        let want = [
            EnterJumpEqK {
                a: 1,
                k: -1,
                to: 2,
                sp: 1,
            },
            LeafZoneOwnerOf {
                d: 5,
                base: 3,
                i: 1,
                dim: ZDim::Node,
                p: 0,
                test: OwnerTest::Any,
                sp: 2,
            },
            ConstJump { d: 4, v: 0, to: 4 },
            KeyPairK {
                d: 7,
                key: 0,
                c: 6,
                k: 1,
                b: 2,
            },
            LeaveAddK {
                d: 4,
                a: 4,
                k: 1,
                sp: 3,
            },
            JumpEqKLeaf {
                a: 4,
                k: 0,
                to: 6,
                sp: 4,
            },
            PushJump { s: 4, to: 0 },
            AccJump {
                d: 8,
                v: 4,
                max: true,
                to: 0,
            },
            SumAccJump {
                d: 9,
                v: 4,
                m: 2,
                sp: 5,
                to: 8,
            },
            OwnerJump {
                d: 3,
                p: 1,
                sp: 6,
                to: 11,
            },
            CallLeave,
            Add {
                d: 4,
                a: 4,
                b: 3,
                sp: 7,
            },
            Ret { s: 4 },
        ];
        assert_eq!(format!("{ops:?}"), format!("{want:?}"));
        // A leaf call, a zone's size and the jump on it: one operation
        // after the two rounds `tidy` runs.
        let mut d = Draft {
            ops: vec![
                CallLeaf { sp: 2 },
                ZoneLenOf {
                    d: 6,
                    base: 40,
                    i: 0,
                    dim: ZDim::Node,
                    empty: true,
                    sp: 2,
                },
                JumpUnless { c: 6, to: 0 },
                Ret { s: 6 },
            ],
            ..Draft::default()
        };
        d.tidy();
        let want = [
            LeafJumpZoneLen {
                d: 6,
                base: 40,
                i: 0,
                dim: ZDim::Node,
                empty: true,
                when: false,
                to: 0,
                sp: 2,
            },
            Ret { s: 6 },
        ];
        assert_eq!(format!("{:?}", d.ops), format!("{want:?}"));
        // Left alone: a jump other operations land on; a leaf call and a
        // zone test at different spans; a `KeyPair` whose second value is
        // the constant too; constants that do not fit.
        for ops in [
            vec![
                Const { d: 4, v: 0 },
                Jump { to: 3 },
                Jump { to: 1 },
                Ret { s: 4 },
            ],
            vec![CallLeaf { sp: 9 }, owner, Ret { s: 5 }],
            vec![
                Const { d: 6, v: 1 },
                KeyPair {
                    d: 7,
                    key: 0,
                    a: 6,
                    b: 6,
                },
                Ret { s: 7 },
            ],
            vec![
                Const { d: 6, v: 1 << 20 },
                KeyPair {
                    d: 7,
                    key: 0,
                    a: 6,
                    b: 2,
                },
                Ret { s: 7 },
            ],
            vec![Const { d: 4, v: 1 << 40 }, Jump { to: 2 }, Ret { s: 4 }],
        ] {
            assert_eq!(format!("{:?}", fused(ops.clone())), format!("{ops:?}"));
        }
    }

    /// A zone and the in-place walk that begins over it, at the same span,
    /// are one `ZoneIter` (a route's posts in Hansa Teutonica); a slot of a
    /// declaration (`ZDim::At`, whose `n` the fused operation has no room
    /// for), a walk at another span, or over another register, keep the
    /// pair.
    #[test]
    fn fuse_joins_a_zone_and_the_walk_that_begins_over_it() {
        use BOp::*;
        let zone = |dim, sp| Zone {
            d: 3,
            base: 70_000,
            i: 1,
            dim,
            n: if dim == ZDim::At { 5 } else { 0 },
            sp,
        };
        let init = |src, sp| IterInit {
            what: Iter::Zone,
            src,
            i: 4,
            end: 5,
            sp,
        };
        let next = |exit| IterNext {
            what: Iter::Zone,
            src: 3,
            i: 4,
            end: 5,
            slot: 6,
            exit,
        };
        let walk =
            |first: BOp, second: BOp| vec![first, second, next(4), Jump { to: 2 }, Ret { s: 6 }];
        let ops = fused(walk(zone(ZDim::Edge, 2), init(3, 2)));
        let want = [
            ZoneIter {
                d: 3,
                base: 70_000,
                i: 1,
                dim: ZDim::Edge,
                it: 4,
                end: 5,
                sp: 2,
            },
            next(3),
            Jump { to: 1 },
            Ret { s: 6 },
        ];
        assert_eq!(format!("{ops:?}"), format!("{want:?}"));
        for ops in [
            walk(zone(ZDim::At, 2), init(3, 2)),
            walk(zone(ZDim::Edge, 2), init(3, 7)),
            walk(zone(ZDim::Edge, 2), init(9, 2)),
        ] {
            assert_eq!(format!("{:?}", fused(ops.clone())), format!("{ops:?}"));
        }
    }

    /// `count(Z where owner == p)` as the compiler leaves it (the list's
    /// mark, the walk's start, a loop pushing each piece kept, the list
    /// charged and counted) becomes a count by owner and the charge of the
    /// list. A loop something else jumps into, a count at another span than
    /// its charge, a loop that pushes another register than it binds, a
    /// test on a field or a list read otherwise keep their operations.
    #[test]
    fn fuse_counts_a_zone_by_owner_without_listing_it() {
        use BOp::*;
        let start = ZoneIter {
            d: 3,
            base: 7,
            i: 1,
            dim: ZDim::Node,
            it: 4,
            end: 5,
            sp: 2,
        };
        let lead = |key| IterLead {
            i: 4,
            end: 5,
            slot: 6,
            who: 0,
            key,
            eq: true,
            exit: 4,
        };
        let count = |what, sp, s, key, ret: BOp| {
            vec![
                Mark { d: 8 },
                start,
                lead(key),
                PushJump { s, to: 2 },
                Charge { m: 8, sp: 2 },
                BOp::Listed {
                    d: 9,
                    m: 8,
                    what,
                    sp,
                },
                ret,
            ]
        };
        let ops = fused(count(super::Listed::Count, 2, 6, BOp::OWNER, Ret { s: 9 }));
        let want = [
            ZoneOwnerOf {
                d: 9,
                base: 7,
                i: 1,
                dim: ZDim::Node,
                p: 0,
                test: OwnerTest::Count,
                sp: 2,
            },
            Const { d: 8, v: 0 },
            ChargeRange { a: 8, b: 9, sp: 2 },
            Ret { s: 9 },
        ];
        assert_eq!(format!("{ops:?}"), format!("{want:?}"));
        for ops in [
            count(super::Listed::Count, 2, 6, BOp::OWNER, Jump { to: 3 }),
            count(super::Listed::Count, 5, 6, BOp::OWNER, Ret { s: 9 }),
            count(super::Listed::Count, 2, 7, BOp::OWNER, Ret { s: 9 }),
            count(super::Listed::Count, 2, 6, 0, Ret { s: 9 }),
            count(super::Listed::Empty, 2, 6, BOp::OWNER, Ret { s: 9 }),
        ] {
            assert_eq!(format!("{:?}", fused(ops.clone())), format!("{ops:?}"));
        }
    }
}
