//! Run-time errors (E0901) as data: one [`RunErrorKind`] per thing that can
//! go wrong while a match runs, each with one constructor and one message
//! text. The tree evaluator, the bytecode machine and the statement machine
//! build their errors from these kinds, so the same failure reads the same
//! whichever executor met it, and code that must recognise an error (the
//! call depth put back after a failed program) matches its kind, never its
//! text.

use crate::diag::{Diagnostic, Span};
use crate::ir::Val;
use crate::ops;
use serde::{Deserialize, Serialize};

/// What went wrong. The message and help of each kind are written once, in
/// [`RunErrorKind::message`] and [`RunErrorKind::help`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RunErrorKind {
    /// An arithmetic result does not fit in 64 bits (`ops::Fault::Overflow`).
    Overflow,
    /// A division or remainder by zero (`ops::Fault::DivisionByZero`).
    DivisionByZero,
    /// `v[i]` with `i` = `none`.
    NoneVariableRead,
    /// `v[i] = …` with `i` = `none`.
    NoneVariableAssigned,
    /// `p.field` with `p` = `none`.
    NoneField,
    /// A node's or edge's attribute of `none`.
    NoneAttribute,
    /// `from(e)` / `to(e)` of `none`.
    NoneEnd,
    /// A two-dimensional index with a `none` coordinate.
    NoneIndex,
    /// A zone given as a value that is `none` (or no zone).
    NoneZoneValue,
    /// A zone of a node, seat, edge or index that is `none` (or out of range).
    NoneZone,
    /// `players from p` / `opponents(p)` with `p` = `none`.
    NonePlayers,
    /// The neighbours of `none`.
    NoneNeighbours,
    /// `next(p)` / `prev(p)` of `none`.
    NoneSeat,
    /// `sees(p, x)` of `none`.
    NoneSees,
    /// `distance(a, b)` with an end `none`.
    NoneDistance,
    /// `from..to` longer than `limits::MAX_RANGE`.
    RangeTooLong { from: Val, to: Val },
    /// `min` or `max` of an empty collection.
    EmptyExtreme { max: bool },
    /// `random` of an empty collection.
    EmptyRandom,
    /// `list[i]` outside `1..len`.
    IndexOutside { index: Val, len: Val },
    /// A scripted roll (scenario tests) that names no element; the text says
    /// which roll and what it could have been.
    ScriptedRoll(Box<str>),
    /// Functions nested deeper than the call-depth limit.
    FunctionDepth,
    /// Procedures nested deeper than the frame limit.
    ProcedureDepth,
    /// The step budget is used up, counted where `at` says.
    Budget { budget: u64, at: Budgeted },
    /// The host stopped the match (its deadline passed) through the flag of
    /// `Match::set_interrupt`.
    Interrupted,
    /// A decision with more options than `limits::MAX_OPTIONS`.
    TooManyOptions { what: Box<str> },
    /// `subsets(C)` of more than `limits::MAX_SUBSET_ELEMS` elements.
    SubsetsOfTooMany { n: usize },
    /// `subsets(C, lo..hi)` with more than `limits::MAX_SUBSETS` subsets.
    TooManySubsets { elems: usize },
    /// `subsets(C, lo..hi)` with `lo < 0` or `hi < lo`.
    SubsetsBounds { lo: Val, hi: Val },
    /// Two options of one decision read alike (`eval/labels.rs`): the label
    /// and the two options, as the decision's text names them.
    EqualLabels {
        label: Box<str>,
        first: Box<str>,
        second: Box<str>,
        /// Options of an `act` (which `merge` may join), not values of a `choose`.
        act: bool,
    },
    /// `move` of `none`.
    MoveNone,
    /// `move N of …` with a negative `N`.
    CannotMove { n: Val },
    /// `move N of …` of a collection with fewer pieces.
    MoveShort { take: usize, len: usize },
    /// `choose` by a seat that is `none`.
    ChooseNone,
    /// `choose` from an empty collection.
    ChooseEmpty,
    /// `act` by a seat that is `none`.
    ActNone,
    /// `reveal` of `none`.
    RevealNone,
    /// A `require` after the start of an action failed.
    RequireFailed,
    /// The game does not take this many players.
    PlayerCount {
        game: Box<str>,
        min: usize,
        max: usize,
        n: usize,
    },
    /// A match option the ruleset does not declare; `known` lists them.
    NoSuchOption { name: Box<str>, known: Box<str> },
    /// An option number past the pending decision's options.
    NoOptionNumbered { i: usize },
    /// A label that is not a legal option; `options` lists them.
    NotLegal { label: Box<str>, options: Box<str> },
    /// A decision given after the game ended.
    Ended { decisions: u32, what: Box<str> },
    /// A decision given when none is pending.
    NothingPending { what: Box<str> },
}

/// The number of values in `from..to` (none when `to < from`), computed
/// without overflow: `-9e18..9e18` is simply too long.
pub fn range_len(from: Val, to: Val) -> i128 {
    (to as i128 - from as i128 + 1).max(0)
}

/// Where the step budget ran out; each place has its own advice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Budgeted {
    /// Inside an expression (elements of collections, calls).
    Expression,
    /// At a statement.
    Statement,
    /// At a `while` loop's test.
    Loop,
}

impl RunErrorKind {
    /// The one message text of this kind.
    pub fn message(&self) -> String {
        use RunErrorKind::*;
        match self {
            Overflow => "arithmetic overflow: the result does not fit in a 64-bit number".into(),
            DivisionByZero => "division by zero".into(),
            NoneVariableRead => "a variable of `none` was read".into(),
            NoneVariableAssigned => "a variable of `none` was assigned".into(),
            NoneField => "a field of `none` was read: there is no piece here".into(),
            NoneAttribute => "an attribute of `none` was read".into(),
            NoneEnd => "an end of `none` was read".into(),
            NoneIndex => "`none` used as an index".into(),
            NoneZoneValue => "no zone here (the value is `none`)".into(),
            NoneZone => "a zone of `none` was asked for".into(),
            NonePlayers => "players counted from `none`".into(),
            NoneNeighbours => "the neighbours of `none` were asked for".into(),
            NoneSeat => "the seat after `none` was asked for".into(),
            NoneSees => "`sees` of `none`".into(),
            NoneDistance => "the distance of `none` was asked for".into(),
            RangeTooLong { from, to } => format!(
                "a range of {} numbers, more than the limit of {}",
                range_len(*from, *to),
                crate::limits::MAX_RANGE
            ),
            EmptyExtreme { max } => format!(
                "`{}` of an empty collection",
                if *max { "max" } else { "min" }
            ),
            EmptyRandom => "`random` of an empty collection".into(),
            IndexOutside { index, len } => {
                format!("index {index} is outside the list (1..{len})")
            }
            ScriptedRoll(what) => format!("the scripted roll {what}"),
            FunctionDepth => "functions call each other too deeply (endless recursion?)".into(),
            ProcedureDepth => "procedures call each other too deeply (endless recursion?)".into(),
            Budget { budget, .. } => {
                format!("the step budget of {budget} steps is used up: the rules may loop forever")
            }
            Interrupted => "stopped by the host: the rules ran past its deadline".into(),
            TooManyOptions { what } => format!(
                "`{what}` offers more than {} options at once",
                crate::limits::MAX_OPTIONS
            ),
            SubsetsOfTooMany { n } => format!(
                "`subsets` of {n} elements: at most {} can be chosen from",
                crate::limits::MAX_SUBSET_ELEMS
            ),
            TooManySubsets { elems } => format!(
                "`subsets` of {elems} elements has more than {} subsets of the sizes asked",
                crate::limits::MAX_SUBSETS
            ),
            SubsetsBounds { lo, hi } => {
                format!("`subsets` with sizes {lo}..{hi}: a size is 0 or more, and the first bound is at most the second")
            }
            EqualLabels {
                label,
                first,
                second,
                ..
            } => format!("two options read `{label}`: {first} and {second}"),
            MoveNone => "`move` of `none`: there is no piece to move".into(),
            CannotMove { n } => format!("cannot move {n} pieces"),
            MoveShort { take, len } => format!("`move {take} of …` found only {len} piece(s)"),
            ChooseNone => "`choose` asked `none` to decide".into(),
            ChooseEmpty => "`choose` from an empty collection: there is nothing to choose".into(),
            ActNone => "`act` asked `none` to act".into(),
            RevealNone => "`reveal` of `none`".into(),
            RequireFailed => "a `require` failed while the action was running".into(),
            PlayerCount { game, min, max, n } => {
                format!("{game} takes {min}..{max} players, not {n}")
            }
            NoSuchOption { name, .. } => format!("the ruleset has no option `{name}`"),
            NoOptionNumbered { i } => format!("option {i} does not exist"),
            NotLegal { label, .. } => format!("`{label}` is not a legal option here"),
            Ended { decisions, what } => {
                format!("the game has ended after {decisions} decision(s): {what} cannot be taken")
            }
            NothingPending { what } => format!("no decision is pending: {what} cannot be taken"),
        }
    }

    /// The advice that goes with this kind, if any.
    pub fn help(&self) -> Option<String> {
        use RunErrorKind::*;
        Some(match self {
            Overflow => "numbers lie between -9223372036854775808 and 9223372036854775807; check what this computes".into(),
            Budget { at: Budgeted::Expression, .. } => "an expression does too much work (a huge range or collection, or runaway recursion); raise the budget with `--step-budget` if the game needs it".into(),
            Budget { at: Budgeted::Statement, .. } => "check the loop conditions; raise the budget with `--step-budget` if the game is simply long".into(),
            Budget { at: Budgeted::Loop, .. } => "check the loop's condition; it must become false".into(),
            Interrupted => "the rules do too much work for one decision; give the host a longer deadline (`--deadline`) if the game needs it".into(),
            TooManyOptions { .. } => "narrow the parameters' domains with `where`, or split the decision into steps (`choose` inside the action)".into(),
            EqualLabels { act: false, .. } => "a record names an option by its label: put the value in the choice's label (`label \"take {x}\"`)".into(),
            EqualLabels { act: true, .. } => "a record names an option by its label: put the value that tells them apart in the label, or, if they are the same move, write the action `merge` (`action NAME(…) merge label \"…\"`)".into(),
            MoveShort { .. } => "the rules did not expect this collection to run short; guard the move with a count".into(),
            SubsetsOfTooMany { .. } | TooManySubsets { .. } => "narrow the collection with `where`, or bound the sizes (`subsets(C, 1..3)`)".into(),
            SubsetsBounds { .. } => "write the sizes as `lo..hi` with `0 <= lo <= hi`".into(),
            ChooseEmpty => "guard the choice with `if count(…) > 0`".into(),
            RequireFailed => "only the `require`s at the start of an action filter its options; later ones are assertions".into(),
            PlayerCount { min, max, .. } => format!("pass `--players` between {min} and {max}"),
            NoSuchOption { known, .. } => format!("its options are: {known}"),
            NotLegal { options, .. } => format!("the options are: {options}"),
            Ended { .. } => "no decision is asked after `end game` or the end of `play`; drop the decisions after the last one, or find why the game ended early".into(),
            NothingPending { .. } => "the match stopped (a run-time error) or has not asked anything yet".into(),
            _ => return None,
        })
    }
}

/// A run-time error: the rules asked for something the position cannot
/// give, or the caller asked for a decision the match cannot take.
/// `message` and `help` are the kind's texts, kept as fields for readers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunError {
    pub kind: RunErrorKind,
    pub message: String,
    pub span: Option<Span>,
    pub help: Option<String>,
}

impl From<Box<RunError>> for RunError {
    fn from(b: Box<RunError>) -> RunError {
        *b
    }
}

impl RunError {
    /// The one constructor: an error of `kind`, at `span` if it has one.
    pub fn new(kind: RunErrorKind, span: Option<Span>) -> RunError {
        RunError {
            message: kind.message(),
            help: kind.help(),
            kind,
            span,
        }
    }

    /// An error of `kind` at `span`, boxed as the executors return it.
    #[cold]
    pub(crate) fn at(kind: RunErrorKind, span: Span) -> Box<RunError> {
        Box::new(RunError::new(kind, Some(span)))
    }

    /// The error of an operation without a value (`ops`) at `span`.
    #[cold]
    pub(crate) fn op(f: ops::Fault, span: Span) -> Box<RunError> {
        RunError::at(
            match f {
                ops::Fault::Overflow => RunErrorKind::Overflow,
                ops::Fault::DivisionByZero => RunErrorKind::DivisionByZero,
            },
            span,
        )
    }

    pub fn to_diagnostic(&self, decisions: u32) -> Diagnostic {
        let mut d = Diagnostic::error(
            "E0901",
            format!(
                "run-time error after {decisions} decision(s): {}",
                self.message
            ),
        );
        if let Some(s) = self.span {
            d = d.at(s, "while running this");
        }
        if let Some(h) = &self.help {
            d = d.help(h.clone());
        }
        d
    }
}
