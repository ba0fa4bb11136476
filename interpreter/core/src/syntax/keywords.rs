//! Every keyword of the rules language in one table, with what it
//! introduces. The grammar spells each keyword as a `k_WORD` rule and lists
//! the reserved ones in its `keyword` rule; a test (`grammar_tests.rs`) holds
//! the grammar and this table to the same words, so editor tooling (syntax
//! highlighting, completion) generated from the table cannot drift from the
//! parser.

/// Where in a file a keyword belongs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeywordKind {
    /// The first line of a file (`game`, `variant … extends`).
    Header,
    /// The word that starts a declaration (`piece`, `action`, …).
    Declaration,
    /// A word of a statement (`move`, `act`, `for … in`, …).
    Statement,
    /// A word inside an expression (`and`, `where`, `then`, …).
    Operator,
    /// A literal value (`true`, `false`, `none`).
    Literal,
    /// A word of a type (`list of T`).
    Type,
    /// A word with a meaning in one position of a declaration or statement
    /// only (`per player`, `top visible`, `label`), free as a name elsewhere
    /// unless reserved.
    Modifier,
}

/// One keyword.
#[derive(Clone, Copy, Debug)]
pub struct Keyword {
    pub word: &'static str,
    pub kind: KeywordKind,
    /// Reserved words can never be names; the others are keywords only
    /// where the grammar expects them.
    pub reserved: bool,
    /// What the word introduces, with its syntax.
    pub introduces: &'static str,
}

const fn kw(
    word: &'static str,
    kind: KeywordKind,
    reserved: bool,
    introduces: &'static str,
) -> Keyword {
    Keyword {
        word,
        kind,
        reserved,
        introduces,
    }
}

use KeywordKind::*;

/// Every keyword, in alphabetical order.
pub const KEYWORDS: &[Keyword] = &[
    kw("act", Statement, true, "`act PLAYER with A, B [else { … }]`: a player chooses one legal instance of the actions"),
    kw("action", Declaration, false, "`action NAME(PARAMS) [merge] [label \"…\"] [help \"…\"] { … }`: something a player may choose to do"),
    kw("all", Modifier, false, "`move all COLL to ZONE`: every piece of the collection"),
    kw("and", Operator, true, "`A and B`: both hold (stops at the first false operand)"),
    kw("attr", Declaration, false, "`attr per node NAME: ENUM` (or `per edge`): a board attribute whose values name members of an enumeration"),
    kw("block", Statement, false, "`block NAME { … }`: a named block a variant may replace with `override block BODY.NAME { … }`"),
    kw("board", Declaration, false, "`board \"FILE.toml\" [for MIN..MAX]`: the board, for some player counts or all"),
    kw("bottom", Modifier, false, "`move … to ZONE bottom`: under the zone's other pieces"),
    kw("break", Statement, true, "`break`: leaves the innermost loop"),
    kw("choose", Statement, true, "`let x = choose PLAYER from COLL`: a player picks one element"),
    kw("const", Declaration, false, "`const NAME = EXPR`: a named constant"),
    kw("continue", Statement, true, "`continue`: the innermost loop's next round"),
    kw("display", Declaration, false, "`display \"TEXT\"[(p)] = EXPR`: a value shown to each seat, per player or for the game"),
    kw("draw", Declaration, false, "`draw NAME PROP = EXPR, …` or `draw \"DISPLAY\" track = N`: how `regel draw` pictures a kind, a zone or a display"),
    kw("edge", Modifier, false, "`per edge`: one zone or variable per board edge"),
    kw("else", Statement, true, "the other branch of an `if` statement or expression, or of an `act` with no legal option"),
    kw("end", Statement, true, "`end game`: the match ends now"),
    kw("enum", Declaration, false, "`enum NAME { A, B, … }`: an enumeration"),
    kw("extends", Header, false, "`variant \"…\" extends \"BASE.rules\"`: the ruleset a variant changes"),
    kw("false", Literal, true, "the boolean false"),
    kw("fn", Declaration, false, "`fn NAME(PARAMS) -> TYPE = EXPR`: a pure function"),
    kw("for", Statement, true, "`for x in COLL { … }`: a loop; also `board \"…\" for MIN..MAX`"),
    kw("from", Statement, true, "`choose PLAYER from COLL`: the collection chosen from"),
    kw("game", Header, false, "`game \"NAME\"`: the header of a ruleset; also `end game`"),
    kw("help", Modifier, false, "`action NAME(…) [label \"…\"] help \"…\" { … }`: the action's one-line help, shown by `rules` at the play prompt"),
    kw("hidden", Modifier, false, "a zone's or variable's visibility: nobody sees it"),
    kw("hide", Statement, true, "`hide PIECE`: a revealed piece is no longer shown to everybody"),
    kw("if", Statement, true, "`if COND { … }` statements and `if COND then A else B` values"),
    kw("in", Operator, true, "`x in COLL`: membership; also a loop's, parameter's or aggregate's collection, and a piece kind's start zone"),
    kw("invariant", Declaration, false, "`invariant \"TEXT\" EXPR`: a condition that must always hold"),
    kw("is", Operator, true, "`x is KIND`: a piece's kind"),
    kw("label", Modifier, false, "`label \"…\"`: how an option or a piece is written"),
    kw("let", Statement, true, "`let NAME = EXPR`: a new local name"),
    kw("list", Type, false, "`list of T`: the type of a list"),
    kw("log", Statement, true, "`log \"…\"`: a line of the game log"),
    kw("lowest", Modifier, false, "`score(p) = EXPR lowest`: the lowest score wins"),
    kw("merge", Modifier, false, "`action NAME(PARAMS) merge …`: the action's options that read the same are offered once"),
    kw("move", Statement, true, "`move WHAT to ZONE [top | bottom]`: pieces change zone"),
    kw("names", Declaration, false, "`names { NAME: \"text\", … }`: what people read for declared names (zones, kinds, variables, actions, phases, enum members)"),
    kw("node", Modifier, false, "`per node`: one zone or variable per board node"),
    kw("none", Literal, true, "no piece, no player, no node"),
    kw("not", Operator, true, "`not A`: logical negation"),
    kw("of", Modifier, true, "`move N of COLL`, `list of T`, `zone of KIND`"),
    kw("option", Declaration, false, "`option NAME: TYPE = EXPR`: a setting a match may change"),
    kw("or", Operator, true, "`A or B`: either holds (stops at the first true operand)"),
    kw("override", Declaration, true, "`override …` in a variant: replaces the base's declaration of the same kind and name"),
    kw("owner", Modifier, false, "a zone's or variable's visibility: only its owner sees it"),
    kw("per", Modifier, false, "`per player`, `per node`, `per edge`, `per ENUM`: one zone, variable or piece set per index"),
    kw("phase", Declaration, false, "`phase NAME { … }`: a named part of a turn"),
    kw("piece", Declaration, false, "`piece NAME { FIELDS } …`: a kind of piece"),
    kw("play", Declaration, false, "`play { … }`: the game's main loop"),
    kw("player", Modifier, false, "`per player`: one zone, variable or piece set per player"),
    kw("players", Declaration, false, "`players N` or `players MIN..MAX`: how many may play"),
    kw("proc", Declaration, false, "`proc NAME(PARAMS) { … }`: a procedure"),
    kw("public", Modifier, false, "a zone's or variable's visibility: everybody sees it"),
    kw("require", Statement, true, "`require COND`: a legality filter leading an action, an assertion elsewhere"),
    kw("return", Statement, true, "`return`: leaves the procedure, phase or action"),
    kw("reveal", Statement, true, "`reveal PIECE`: a piece is shown to everybody"),
    kw("score", Declaration, false, "`score(p) = EXPR [lowest]`: each player's score"),
    kw("seats", Declaration, false, "`seats A, B, …`: the seats' names in turn order"),
    kw("setup", Declaration, false, "`setup { … }`: statements run once before play"),
    kw("show", Statement, false, "`show board`: each seat's course of the game shows the board as it is now (the trace does not)"),
    kw("shuffle", Statement, true, "`shuffle ZONE`: the zone's pieces in a random order"),
    kw("statistic", Declaration, false, "`statistic NAME[(p)] = EXPR`: a number read at the end of each game"),
    kw("summary", Declaration, false, "`summary \"…\"`: what the game is, in a few lines, shown by `rules` at the play prompt"),
    kw("team", Declaration, false, "`team(p) = EXPR`: the team a player belongs to"),
    kw("then", Operator, true, "`if COND then A else B`: the value when the condition holds"),
    kw("tiebreak", Declaration, false, "`tiebreak(p) = EXPR`: what decides between equal scores"),
    kw("to", Statement, true, "`move WHAT to ZONE`: the destination"),
    kw("top", Modifier, false, "`move … to ZONE top`, and the `top visible` visibility"),
    kw("true", Literal, true, "the boolean true"),
    kw("unless", Modifier, false, "`hidden unless COND`: public while the condition holds"),
    kw("var", Declaration, false, "`var NAME: TYPE [= EXPR]`: a variable of the game's state"),
    kw("variant", Header, false, "`variant \"NAME\" extends \"…\"`: the header of a variant"),
    kw("visible", Modifier, false, "`top visible`: everybody sees the top piece, nobody the others"),
    kw("where", Operator, true, "`COLL where COND`: the elements for which the condition holds"),
    kw("while", Statement, true, "`while COND { … }`: a loop"),
    kw("with", Statement, true, "`act PLAYER with ACTIONS`: the actions offered"),
    kw("x", Modifier, false, "`N x { FIELDS }`: N pieces of a kind with these fields"),
    kw("zone", Declaration, false, "`zone NAME …`: a place that holds pieces; also the type `zone of KIND`"),
];
