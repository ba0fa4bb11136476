//! Bounded execution: every limit Regel puts on its input, in one place.
//!
//! A ruleset, board, game record or scenario may come from a stranger. Each
//! constant here bounds one way such a file could crash, hang or exhaust the
//! host; each is checked where it can be exceeded and reported with its own
//! diagnostic (code, span, hint), never by a wrap, a panic or an abort. The
//! README's "Bounded execution" section lists them for users; keep the two in
//! step.

/// The largest file Regel reads (a ruleset, a variant, a board, a record or
/// a scenario), in bytes. The shipped rulesets are under 40 KiB; the cap
/// keeps a device or a huge file from being read into memory (E0701).
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// The deepest nesting of brackets (`(`, `[`, `{`) and `else if` chains in a
/// rules file or a template hole (E0702). The parser is recursive, so this is
/// checked by a scan of the text before parsing. Real rulesets nest fewer
/// than ten levels.
pub const MAX_NESTING: usize = 100;

/// The deepest expression tree after parsing (E0703): a chain such as
/// `a + b + … + z` is as deep as it is long, and the checker, the passes and
/// the evaluator walk expressions recursively.
pub const MAX_EXPR_DEPTH: usize = 200;

/// Syntax errors reported for one file: after each, the statement or
/// declaration that holds it is set aside and the file parsed again, so a
/// file costs at most this many parses.
pub const MAX_SYNTAX_ERRORS: usize = 20;

/// The most bytes error recovery parses for one file, all its parses
/// together: a file of a few megabytes stops after its first few errors, so
/// that a large broken file costs a few parses, not twenty.
pub const MAX_RECOVERY_BYTES: usize = 8 << 20;

/// The longest name (identifier, node name, field name) in bytes (E0704).
pub const MAX_NAME_LEN: usize = 128;

/// The most declarations of one kind (enumerations, members of one
/// enumeration, functions, procedures and phases, actions, piece kinds,
/// fields of one piece kind, zones, variables, parameters of one callable)
/// and the most local names bound in one body (E0705). Internal indices are
/// 16 bits wide; this keeps every one far from a wrap.
pub const MAX_PER_KIND: usize = 10_000;

/// The most pieces a game may hold, all kinds together (E0706). Each piece
/// costs a few words of memory in every position.
pub const MAX_PIECES: u64 = 1_000_000;

/// The most variable cells and zones a position may hold (E0707): a
/// per-node declaration takes one per node, so a big board and many such
/// declarations could otherwise take gigabytes in every position.
pub const MAX_STATE_CELLS: u64 = 4_000_000;

/// The most cells of a `[grid]` board (E0518). Building a board costs about
/// two kilobytes per node; sides are limited to 1,000 separately.
pub const MAX_GRID_CELLS: u64 = 100_000;

/// The most options one decision may offer (all its actions together): a
/// player, a record or a scenario picks by label, and the labels are listed.
pub const MAX_OPTIONS: u64 = 1_000_000;

/// The most elements `subsets(C)` takes subsets of: a subset is a bit mask
/// of one 64-bit value over them.
pub const MAX_SUBSET_ELEMS: usize = 64;

/// The most subsets one `subsets(C, lo..hi)` may list (after twins are
/// counted once and the size bounds applied): every subset of 16 different
/// elements. They are counted before any is listed, so a larger family is
/// a run-time error, not a long wait.
pub const MAX_SUBSETS: u64 = 65_536;

/// The longest range (`a..b`) evaluated at run time, in numbers.
pub const MAX_RANGE: i64 = 1_000_000;

/// The most expression nodes the check-time inliner may produce for one
/// body; beyond it, calls stay calls (nested calls would otherwise grow
/// exponentially).
pub const MAX_INLINED_SIZE: usize = 4_096;

/// The widest source line a diagnostic shows with its code snippet; a wider
/// line is reported by line and column only (the renderer pads to the
/// column, and formatting widths above 65,535 panic).
pub const MAX_RENDER_COLUMN: usize = 1_000;

/// The most diagnostics rendered for one run; the rest are counted. This
/// keeps rendering linear in the size of the input.
pub const MAX_RENDERED_DIAGNOSTICS: usize = 100;

/// The longest label or logged line printed, in characters; longer text is
/// cut with `…`.
pub const MAX_LABEL_CHARS: usize = 1_000;

/// The most characters of a user's text (a recorded or typed label, a
/// scenario's decision) echoed in a message; the rest is cut with a note of
/// how much was left out, so a 3 MB label costs a line, not 3 MB.
pub const MAX_ECHO_CHARS: usize = 200;

/// How deep a label may refer to other labels (a piece's label naming a
/// piece whose label names a piece …); deeper holes print `…`.
pub const MAX_LABEL_DEPTH: u32 = 4;

/// How deep template holes may nest through the quoted text inside them
/// (`"{if a then "x{if b then "y{c}" else ""}" else ""}"` nests two deep)
/// (E0708). Each level is parsed again on its own, so the cost of a hole
/// grows with its depth; real labels nest one or two levels.
pub const MAX_TEMPLATE_NESTING: u32 = 8;

/// The most decisions a game record or a scenario may list.
pub const MAX_DECISIONS: usize = 1_000_000;

/// Games (or pairs of games) one `simulate` or `compare` run may play,
/// checked before anything is allocated (`simulate` streams its games; a
/// run this long takes hours anyway). Larger studies run in several seed
/// ranges.
pub const MAX_GAMES: u64 = 1_000_000;

/// Threads one run may start (`--threads`); each has a stack of its own.
pub const MAX_THREADS: usize = 256;
