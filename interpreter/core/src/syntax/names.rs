//! Human names for grammar rules, used in syntax errors ("expected a statement")
//! instead of pest's rule names.

use super::Rule;

/// What the parser expected, in words, and a hint when one helps.
pub(super) fn expected(rules: &[Rule]) -> (String, Option<String>) {
    // pest lists everything that could have come next, including whatever
    // could still continue the previous construct (`+`, `where`, `hidden`, …).
    // When something could also start anew (a statement, a declaration), the
    // continuations are noise: `x = y $` wants a statement, not an operator.
    let starts_anew = rules.iter().any(|r| !is_continuation(*r));
    let mut rules: Vec<Rule> = rules
        .iter()
        .copied()
        .filter(|r| !starts_anew || !is_continuation(*r))
        .collect();
    if rules.contains(&Rule::item) {
        rules.retain(|r| *r != Rule::EOI);
    }
    let mut names: Vec<&str> = rules
        .iter()
        .map(|r| {
            if is_operator(*r) {
                "an operator"
            } else {
                name(*r)
            }
        })
        .collect();
    names.sort();
    names.dedup();
    let text = match names.len() {
        0 => "something else".to_string(),
        1 => names[0].to_string(),
        _ => format!(
            "{} or {}",
            names[..names.len() - 1].join(", "),
            names[names.len() - 1]
        ),
    };
    let help = if rules.contains(&Rule::EOI) || rules.contains(&Rule::item) {
        Some("at the top level a file holds declarations: `zone`, `var`, `piece`, `action`, `phase`, `proc`, `setup`, `play`, …".to_string())
    } else if rules.contains(&Rule::stmt) {
        Some("a block holds statements: `let`, `if`, `for`, `while`, `move`, `act`, `choose`, an assignment or a call".to_string())
    } else {
        None
    };
    (text, help)
}

/// Rules that can only continue what came before them.
fn is_continuation(rule: Rule) -> bool {
    is_operator(rule)
        || matches!(
            rule,
            Rule::visibility
                | Rule::vis_kind
                | Rule::k_public
                | Rule::k_hidden
                | Rule::k_owner
                | Rule::k_unless
                | Rule::label_clause
                | Rule::k_label
                | Rule::lowest
                | Rule::k_lowest
                | Rule::move_pos
                | Rule::k_top
                | Rule::k_bottom
                | Rule::k_else
                | Rule::top_visible
                | Rule::k_visible
        )
}

/// Binary operators, which an error message names together as "an operator".
fn is_operator(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::prod_op
            | Rule::sum_op
            | Rule::k_and
            | Rule::k_or
            | Rule::k_where
            | Rule::cmp_op
            | Rule::in_op
            | Rule::is_op
    )
}

fn name(rule: Rule) -> &'static str {
    match rule {
        Rule::EOI => "the end of the file",
        Rule::keyword => "a keyword",
        Rule::ident => "a name",
        Rule::int => "a whole number",
        Rule::string => "a string in double quotes",
        Rule::str_inner => "the text of a string",
        Rule::node_lit => "a board node such as `@r1c1`",
        Rule::node_name => "a node id",
        Rule::k_act => "`act`",
        Rule::k_action => "`action`",
        Rule::k_all => "`all`",
        Rule::k_and => "`and`",
        Rule::k_attr => "`attr`",
        Rule::k_board => "`board`",
        Rule::k_block => "`block`",
        Rule::k_bottom => "`bottom`",
        Rule::k_break => "`break`",
        Rule::k_choose => "`choose`",
        Rule::k_const => "`const`",
        Rule::k_continue => "`continue`",
        Rule::k_edge => "`edge`",
        Rule::k_else => "`else`",
        Rule::k_end => "`end`",
        Rule::k_enum => "`enum`",
        Rule::k_extends => "`extends`",
        Rule::k_false => "`false`",
        Rule::k_fn => "`fn`",
        Rule::k_for => "`for`",
        Rule::k_from => "`from`",
        Rule::k_game => "`game`",
        Rule::k_hidden => "`hidden`",
        Rule::k_hide => "`hide`",
        Rule::k_if => "`if`",
        Rule::k_in => "`in`",
        Rule::k_invariant => "`invariant`",
        Rule::k_is => "`is`",
        Rule::k_label => "`label`",
        Rule::k_let => "`let`",
        Rule::k_list => "`list`",
        Rule::k_log => "`log`",
        Rule::k_show => "`show`",
        Rule::k_lowest => "`lowest`",
        Rule::k_move => "`move`",
        Rule::k_node => "`node`",
        Rule::k_none => "`none`",
        Rule::k_not => "`not`",
        Rule::k_of => "`of`",
        Rule::k_option => "`option`",
        Rule::k_or => "`or`",
        Rule::k_override => "`override`",
        Rule::k_owner => "`owner`",
        Rule::k_per => "`per`",
        Rule::k_phase => "`phase`",
        Rule::k_piece => "`piece`",
        Rule::k_play => "`play`",
        Rule::k_player => "`player`",
        Rule::k_players => "`players`",
        Rule::k_proc => "`proc`",
        Rule::k_public => "`public`",
        Rule::k_require => "`require`",
        Rule::k_return => "`return`",
        Rule::k_reveal => "`reveal`",
        Rule::k_score => "`score`",
        Rule::k_seats => "`seats`",
        Rule::k_setup => "`setup`",
        Rule::k_shuffle => "`shuffle`",
        Rule::k_statistic => "`statistic`",
        Rule::k_summary => "`summary`",
        Rule::k_help => "`help`",
        Rule::k_team => "`team`",
        Rule::k_then => "`then`",
        Rule::k_tiebreak => "`tiebreak`",
        Rule::k_to => "`to`",
        Rule::k_top => "`top`",
        Rule::k_true => "`true`",
        Rule::k_unless => "`unless`",
        Rule::k_var => "`var`",
        Rule::k_variant => "`variant`",
        Rule::k_where => "`where`",
        Rule::k_while => "`while`",
        Rule::k_with => "`with`",
        Rule::k_names => "`names`",
        Rule::k_display => "`display`",
        Rule::k_draw => "`draw`",
        Rule::k_x => "`x`",
        Rule::k_zone => "`zone`",
        Rule::file => "a rules file",
        Rule::header => "`game \"…\"` or `variant \"…\" extends \"…\"`",
        Rule::game_header => "`game \"…\"`",
        Rule::variant_header => "`variant \"…\" extends \"…\"`",
        Rule::item => "a declaration (`zone`, `var`, `action`, `phase`, …)",
        Rule::override_kw => "`override`",
        Rule::players_decl => "`players N..M`",
        Rule::seats_decl => "`seats a, b, …`",
        Rule::board_decl => "`board \"file.toml\"`",
        Rule::board_players => "`for MIN..MAX` (the player counts a board is for)",
        Rule::option_decl => "an option",
        Rule::const_decl => "a constant",
        Rule::enum_decl => "an enumeration",
        Rule::top_visible => "`top visible`",
        Rule::k_visible => "`visible`",
        Rule::enum_member => "an enumeration member (`name` or `name \"shown as\"`)",
        Rule::piece_decl => "a piece declaration",
        Rule::per_player => "`per player`",
        Rule::field_decls => "field declarations",
        Rule::field_decl => "a field `name: type`",
        Rule::start_zone => "`in ZONE`",
        Rule::instances => "a list of instances",
        Rule::instance => "an instance such as `2 x { value: 1 }`",
        Rule::instance_for => "`for NAME in COLL { … }` over instances",
        Rule::field_init => "a field value `name: expr`",
        Rule::zone_decl => "a zone declaration",
        Rule::attr_decl => "an attribute declaration `attr per node NAME: ENUM`",
        Rule::scope => "`per player`, `per node`, `per edge` or `per ENUM`",
        Rule::scope_dim => "`per player`, `per node`, `per edge` or `per ENUM`",
        Rule::scope_enum => "an enumeration",
        Rule::scope_player => "`player`",
        Rule::scope_node => "`node`",
        Rule::scope_edge => "`edge`",
        Rule::visibility => "a visibility (`public`, `hidden` or `owner`)",
        Rule::vis_kind => "`public`, `hidden` or `owner`",
        Rule::var_decl => "a variable declaration",
        Rule::fn_decl => "a function",
        Rule::proc_decl => "a procedure",
        Rule::phase_decl => "a phase",
        Rule::block_decl => "`override block BODY.NAME { … }`",
        Rule::params => "parameters",
        Rule::param => "a parameter `name: type`",
        Rule::action_decl => "an action",
        Rule::action_params => "action parameters",
        Rule::action_param => "an action parameter `name in collection`",
        Rule::label_clause => "`label \"…\"`",
        Rule::setup_decl => "`setup { … }`",
        Rule::play_decl => "`play { … }`",
        Rule::score_decl => "`score(p) = …`",
        Rule::lowest => "`lowest`",
        Rule::tiebreak_decl => "`tiebreak(p) = …`",
        Rule::team_decl => "`team(p) = …`",
        Rule::statistic_decl => "`statistic NAME = …`",
        Rule::invariant_decl => "an invariant",
        Rule::names_decl => "`names { NAME: \"text\", … }`",
        Rule::name_entry => "`NAME: \"text\"`",
        Rule::display_decl => "`display \"text\" = …`",
        Rule::draw_decl => "`draw NAME PROPERTY = …`",
        Rule::draw_part => "`PROPERTY = …`",
        Rule::summary_decl => "`summary \"…\"`",
        Rule::help_clause => "`help \"…\"`",
        Rule::help_decl => "`help \"…\"`",
        Rule::type_ref => "a type",
        Rule::zone_type => "`zone of KIND`",
        Rule::list_type => "`list of TYPE`",
        Rule::block => "a block `{ … }`",
        Rule::stmt => "a statement",
        Rule::let_stmt => "`let`",
        Rule::choose_expr => "`choose PLAYER from COLLECTION`",
        Rule::assign_stmt => "an assignment",
        Rule::place => "a variable",
        Rule::assign_op => "`=`, `+=` or `-=`",
        Rule::if_stmt => "`if`",
        Rule::for_stmt => "`for`",
        Rule::while_stmt => "`while`",
        Rule::break_stmt => "`break`",
        Rule::continue_stmt => "`continue`",
        Rule::return_stmt => "`return`",
        Rule::move_stmt => "`move`",
        Rule::move_what => "what to move",
        Rule::move_all => "`all COLLECTION`",
        Rule::move_n => "`N of COLLECTION`",
        Rule::move_pos => "`top` or `bottom`",
        Rule::shuffle_stmt => "`shuffle`",
        Rule::act_stmt => "`act PLAYER with ACTIONS`",
        Rule::log_stmt => "`log \"…\"`",
        Rule::end_stmt => "`end game`",
        Rule::show_stmt => "`show board`",
        Rule::named_block => "`block NAME { … }`",
        Rule::reveal_stmt => "`reveal`",
        Rule::hide_stmt => "`hide`",
        Rule::require_stmt => "`require`",
        Rule::call_stmt => "a procedure call",
        Rule::expr => "an expression",
        Rule::if_expr => "`if … then … else …`",
        Rule::not_expr => "an expression",
        Rule::not_op => "`not`",
        Rule::cmp_op => "a comparison",
        Rule::in_op => "`in`",
        Rule::is_op => "`is`",
        Rule::sum_op => "`+` or `-`",
        Rule::prod_op => "`*`, `/` or `%`",
        Rule::unary => "an expression",
        Rule::neg => "`-`",
        Rule::field_name => "a field name",
        Rule::primary => "a value",
        Rule::bool_lit => "`true` or `false`",
        Rule::none_lit => "`none`",
        Rule::paren => "`(`",
        Rule::list_lit => "`[`",
        Rule::agg => "an aggregate such as `sum(x in xs: …)`",
        Rule::binder => "`NAME in`",
        Rule::call => "a call",
        Rule::args => "arguments",
        Rule::hole => "an expression",
        _ => "something else",
    }
}

/// Keyword tokens carry no information once parsed; the lowering skips them.
pub(super) fn is_keyword(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::k_act
            | Rule::k_action
            | Rule::k_all
            | Rule::k_and
            | Rule::k_attr
            | Rule::k_board
            | Rule::k_block
            | Rule::k_bottom
            | Rule::k_break
            | Rule::k_choose
            | Rule::k_const
            | Rule::k_continue
            | Rule::k_edge
            | Rule::k_else
            | Rule::k_end
            | Rule::k_enum
            | Rule::k_extends
            | Rule::k_false
            | Rule::k_fn
            | Rule::k_for
            | Rule::k_from
            | Rule::k_game
            | Rule::k_hidden
            | Rule::k_hide
            | Rule::k_if
            | Rule::k_in
            | Rule::k_invariant
            | Rule::k_is
            | Rule::k_label
            | Rule::k_let
            | Rule::k_list
            | Rule::k_log
            | Rule::k_show
            | Rule::k_lowest
            | Rule::k_move
            | Rule::k_node
            | Rule::k_none
            | Rule::k_not
            | Rule::k_of
            | Rule::k_option
            | Rule::k_or
            | Rule::k_override
            | Rule::k_owner
            | Rule::k_per
            | Rule::k_phase
            | Rule::k_piece
            | Rule::k_play
            | Rule::k_player
            | Rule::k_players
            | Rule::k_proc
            | Rule::k_public
            | Rule::k_require
            | Rule::k_return
            | Rule::k_reveal
            | Rule::k_score
            | Rule::k_seats
            | Rule::k_setup
            | Rule::k_shuffle
            | Rule::k_statistic
            | Rule::k_summary
            | Rule::k_help
            | Rule::k_team
            | Rule::k_then
            | Rule::k_tiebreak
            | Rule::k_to
            | Rule::k_top
            | Rule::k_true
            | Rule::k_unless
            | Rule::k_var
            | Rule::k_variant
            | Rule::k_where
            | Rule::k_while
            | Rule::k_with
            | Rule::k_names
            | Rule::k_display
            | Rule::k_draw
            | Rule::k_x
            | Rule::k_zone
    )
}
