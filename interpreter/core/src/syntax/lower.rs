//! Lowering: pest's parse tree → [`crate::ast`]. The grammar has already
//! accepted the text, so the shapes here are known; templates (`"{x}"`) are
//! parsed here, which is the one place that can still report an error.

use super::names::is_keyword;
use super::Rule;
use crate::ast::*;
use crate::diag::{Diagnostic, Diagnostics, Span};
use crate::limits::MAX_TEMPLATE_NESTING;
use pest::iterators::Pair;
use std::cell::RefCell;

type P<'a> = Pair<'a, Rule>;
type R<T> = Result<T, Diagnostics>;

struct Ctx {
    file: u32,
    /// Added to every pest offset: non-zero when lowering a template hole.
    offset: usize,
    /// How many template holes hold the text being lowered: inside one, a
    /// string with holes is a template ([`ExprKind::Template`]).
    holes: u32,
    errors: Diagnostics,
    /// [`Ctx::trimmed_end`] by where a pair's text ends, once computed (`u32::MAX`
    /// where not yet): every pair ending at one offset has the same trimmed
    /// end, so each is found once instead of once per pair above it.
    ends: RefCell<Vec<u32>>,
}

impl Ctx {
    fn span(&self, p: &P) -> Span {
        let s = p.as_span();
        Span::new(
            self.file,
            s.start() + self.offset,
            self.trimmed_end(p) + self.offset,
        )
    }

    /// Where a pair's own text ends. pest's implicit white space after an
    /// element that may be followed by an optional part (`move_pos?`,
    /// `stmt*`) belongs to the pair's span; diagnostics should not underline
    /// it, so the span ends at the last child or literal token instead (white
    /// space, `;` and comments after it are dropped). An atomic pair without
    /// children is exact already.
    ///
    /// Each is remembered by the pair's end (`ends`). A pair with children
    /// ends at its last significant byte before its end: the bytes after its
    /// last child are white space, comments or literal tokens, and those of
    /// the child are the same rule again. So any two pairs that end at one
    /// offset trim to the same place, except one that ends with the
    /// zero-width `EOI` (`file`, `hole`), which is not remembered (nor is a
    /// pair without children, which ends where its text does).
    fn trimmed_end(&self, p: &P) -> usize {
        let end = p.as_span().end();
        // Names and numbers (atomic, no children) are the commonest pairs:
        // known exact without looking for children.
        if matches!(
            p.as_rule(),
            Rule::ident | Rule::int | Rule::field_name | Rule::node_name
        ) {
            return end;
        }
        let Some(last) = p.clone().into_inner().next_back() else {
            return end;
        };
        if last.as_rule() == Rule::EOI {
            return end;
        }
        let known = self.ends.borrow().get(end).copied();
        if let Some(e) = known.filter(|&e| e != u32::MAX) {
            return e as usize;
        }
        let trimmed = trim_after(p, self.trimmed_end(&last));
        let mut ends = self.ends.borrow_mut();
        if ends.is_empty() {
            ends.resize(p.as_span().get_input().len() + 1, u32::MAX);
        }
        ends[end] = trimmed as u32;
        trimmed
    }
    fn ident(&self, p: P) -> Ident {
        Ident {
            name: p.as_str().to_string(),
            span: self.span(&p),
        }
    }
}

/// The end of `p`'s text when its last child's text ends at `end`: the
/// literal tokens after it kept, white space, `;` and comments dropped.
fn trim_after(p: &P, mut end: usize) -> usize {
    let s = p.as_span();
    let bytes = s.get_input().as_bytes();
    let mut i = end;
    while i < s.end() {
        match bytes[i] {
            b' ' | b'\t' | b'\r' | b'\n' | b';' => i += 1,
            b'#' => {
                while i < s.end() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            _ => {
                i += 1;
                end = i;
            }
        }
    }
    // Literal tokens are ASCII, but stay on a character boundary regardless.
    let input = s.get_input();
    while end < s.end() && !input.is_char_boundary(end) {
        end += 1;
    }
    end
}

/// The meaningful children of a pair: keyword tokens are dropped.
fn kids<'a>(p: P<'a>) -> impl Iterator<Item = P<'a>> {
    p.into_inner().filter(|c| !is_keyword(c.as_rule()))
}

pub(super) fn file(file_id: u32, p: P) -> R<File> {
    let mut cx = Ctx {
        file: file_id,
        offset: 0,
        holes: 0,
        errors: vec![],
        ends: RefCell::default(),
    };
    let mut it = kids(p);
    let header = cx.header(it.next().unwrap());
    let mut items = vec![];
    for c in it {
        if c.as_rule() == Rule::item {
            items.push(cx.item(c));
        }
    }
    if cx.errors.is_empty() {
        Ok(File { header, items })
    } else {
        Err(cx.errors)
    }
}

pub(super) fn expr_at(file: u32, p: P, offset: usize, holes: u32) -> R<Expr> {
    let mut cx = Ctx {
        file,
        offset,
        holes,
        errors: vec![],
        ends: RefCell::default(),
    };
    let e = cx.expr(p);
    if cx.errors.is_empty() {
        Ok(e)
    } else {
        Err(cx.errors)
    }
}

/// Where the hole that opens `s` (at its `{`) closes: the first `}` outside
/// quoted text, or `None` when it never does.
fn hole_end(s: &str) -> Option<usize> {
    // What is open at each point: a hole (`false`) or quoted text inside a
    // hole (`true`), which may open holes of its own, as the grammar's
    // `str_hole` and `hole_text` nest. The text starts with the hole's `{`.
    let b = s.as_bytes();
    let mut open: Vec<bool> = vec![];
    let mut i = 0;
    while i < b.len() {
        let quoted = open.last() == Some(&true);
        match b[i] {
            b'{' | b'}' if quoted && b.get(i + 1) == Some(&b[i]) => i += 1,
            b'{' if quoted || open.is_empty() => open.push(false),
            b'"' if quoted => {
                open.pop();
            }
            b'"' => open.push(true),
            b'}' if !quoted => {
                open.pop();
                if open.is_empty() {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The first `{…}` in a plain string that reads like a template hole: such a
/// string is printed as written, so `{x}` would appear literally.
fn literal_hole(s: &str) -> Option<(usize, usize)> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'{' {
            if b.get(i + 1) == Some(&b'{') {
                i += 2;
                continue;
            }
            let end = hole_end(&s[i..])?;
            if s[i + 1..i + end]
                .trim()
                .chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '@')
            {
                return Some((i, i + end + 1));
            }
        }
        i += 1;
    }
    None
}

fn unquote(p: &P) -> String {
    let s = p.as_str();
    s[1..s.len() - 1].to_string()
}

/// A `summary` string as players read it: each line trimmed, so the text may
/// be indented like the rules around it, and blank lines kept only between
/// paragraphs.
fn summary_text(p: &P) -> String {
    let raw = unquote(p);
    let lines: Vec<&str> = raw.lines().map(str::trim).collect();
    let first = lines
        .iter()
        .position(|l| !l.is_empty())
        .unwrap_or(lines.len());
    let last = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(first, |i| i + 1);
    lines[first..last].join("\n")
}

/// The text of a `help "…"` clause, trimmed (the checker refuses one that
/// spans lines).
fn help_text(p: &P) -> String {
    let s = kids(p.clone()).next().unwrap();
    unquote(&s).trim().to_string()
}

impl Ctx {
    fn header(&mut self, p: P) -> Header {
        let inner = p.into_inner().next().unwrap();
        let span = self.span(&inner);
        let mut strs = kids(inner.clone()).filter(|c| c.as_rule() == Rule::string);
        match inner.as_rule() {
            Rule::game_header => Header::Game {
                name: unquote(&strs.next().unwrap()),
                span,
            },
            _ => {
                let name = unquote(&strs.next().unwrap());
                let base = strs.next().unwrap();
                Header::Variant {
                    name,
                    base: unquote(&base),
                    base_span: self.span(&base),
                    span,
                }
            }
        }
    }

    fn item(&mut self, p: P) -> Item {
        let span = self.span(&p);
        let mut is_override = false;
        let mut decl = None;
        for c in kids(p) {
            if c.as_rule() == Rule::override_kw {
                is_override = true;
            } else {
                decl = Some(c);
            }
        }
        let d = decl.unwrap();
        let kind = self.item_kind(d);
        Item {
            is_override,
            kind,
            span,
        }
    }

    fn item_kind(&mut self, d: P) -> ItemKind {
        let rule = d.as_rule();
        let mut k: Vec<P> = kids(d).collect();
        match rule {
            Rule::players_decl => {
                let min = self.int(&k[0]);
                let max = if k.len() > 1 { self.int(&k[1]) } else { min };
                ItemKind::Players { min, max }
            }
            Rule::seats_decl => ItemKind::Seats(k.into_iter().map(|c| self.ident(c)).collect()),
            Rule::board_decl => {
                let players = k.get(1).map(|r| {
                    let span = self.span(r);
                    let ints: Vec<P> = r
                        .clone()
                        .into_inner()
                        .filter(|x| x.as_rule() == Rule::int)
                        .collect();
                    let min = self.int(&ints[0]);
                    let max = if ints.len() > 1 {
                        self.int(&ints[1])
                    } else {
                        min
                    };
                    (min, max, span)
                });
                ItemKind::Board {
                    path: unquote(&k[0]),
                    players,
                }
            }
            Rule::option_decl => {
                let value = self.expr(k.pop().unwrap());
                let ty = self.type_ref(k.pop().unwrap());
                ItemKind::Option {
                    name: self.ident(k.pop().unwrap()),
                    ty,
                    value,
                }
            }
            Rule::const_decl => {
                let value = self.expr(k.pop().unwrap());
                ItemKind::Const {
                    name: self.ident(k.pop().unwrap()),
                    value,
                }
            }
            Rule::enum_decl => {
                let mut it = k.into_iter();
                let name = self.ident(it.next().unwrap());
                let (mut members, mut shown) = (vec![], vec![]);
                for m in it {
                    let mut mk = kids(m);
                    members.push(self.ident(mk.next().unwrap()));
                    shown.push(mk.next().map(|s| unquote(&s)));
                }
                ItemKind::Enum {
                    name,
                    members,
                    shown,
                }
            }
            Rule::piece_decl => {
                let mut it = k.into_iter();
                let name = self.ident(it.next().unwrap());
                let (mut per_player, mut fields, mut start, mut label, mut instances) =
                    (false, vec![], None, None, None);
                for c in it {
                    match c.as_rule() {
                        Rule::per_player => per_player = true,
                        Rule::field_decls => fields = kids(c).map(|f| self.param(f)).collect(),
                        Rule::start_zone => start = Some(self.ident(kids(c).next().unwrap())),
                        Rule::label_clause => label = Some(self.label(c)),
                        Rule::instances => instances = Some(self.instance_items(c)),
                        _ => {}
                    }
                }
                ItemKind::Piece {
                    name,
                    per_player,
                    fields,
                    start,
                    label,
                    instances,
                }
            }
            Rule::zone_decl => {
                let (mut scope, mut dims, mut name, mut kind, mut vis) =
                    (Scope::Global, vec![], None, None, None);
                for c in k {
                    match c.as_rule() {
                        Rule::scope => (scope, dims) = self.scope(c),
                        Rule::ident if name.is_none() => name = Some(self.ident(c)),
                        Rule::ident => kind = Some(self.ident(c)),
                        Rule::visibility => vis = Some(self.visibility(c)),
                        _ => {}
                    }
                }
                ItemKind::Zone {
                    name: name.unwrap(),
                    scope,
                    dims,
                    kind,
                    vis,
                }
            }
            Rule::attr_decl => {
                let edge = k[0].as_rule() == Rule::scope_edge;
                ItemKind::Attr {
                    name: self.ident(k[1].clone()),
                    edge,
                    ty: self.ident(k[2].clone()),
                }
            }
            Rule::var_decl => {
                let (mut scope, mut dims, mut name, mut ty, mut init, mut vis) =
                    (Scope::Global, vec![], None, None, None, None);
                for c in k {
                    match c.as_rule() {
                        Rule::scope => (scope, dims) = self.scope(c),
                        Rule::ident => name = Some(self.ident(c)),
                        Rule::type_ref => ty = Some(self.type_ref(c)),
                        Rule::expr => init = Some(self.expr(c)),
                        Rule::visibility => vis = Some(self.visibility(c)),
                        _ => {}
                    }
                }
                ItemKind::Var {
                    name: name.unwrap(),
                    scope,
                    dims,
                    ty: ty.unwrap(),
                    init,
                    vis,
                }
            }
            Rule::fn_decl => {
                let body = self.expr(k.pop().unwrap());
                let ret = self.type_ref(k.pop().unwrap());
                let mut it = k.into_iter();
                let name = self.ident(it.next().unwrap());
                let params = it.next().map(|ps| self.params(ps)).unwrap_or_default();
                ItemKind::Fn {
                    name,
                    params,
                    ret,
                    body,
                }
            }
            Rule::proc_decl => {
                let body = self.block(k.pop().unwrap());
                let mut it = k.into_iter();
                let name = self.ident(it.next().unwrap());
                let params = it.next().map(|ps| self.params(ps)).unwrap_or_default();
                ItemKind::Proc { name, params, body }
            }
            Rule::phase_decl => {
                let body = self.block(k.pop().unwrap());
                ItemKind::Phase {
                    name: self.ident(k.pop().unwrap()),
                    body,
                }
            }
            Rule::block_decl => {
                let body = self.block(k.pop().unwrap());
                let name = self.ident(k.pop().unwrap());
                ItemKind::BlockOverride {
                    body_name: self.ident(k.pop().unwrap()),
                    name,
                    body,
                }
            }
            Rule::action_decl => {
                let body = self.block(k.pop().unwrap());
                let mut it = k.into_iter();
                let name = self.ident(it.next().unwrap());
                let (mut params, mut label, mut help, mut merge) = (vec![], None, None, false);
                for c in it {
                    match c.as_rule() {
                        Rule::action_params => {
                            params = kids(c)
                                .map(|ap| {
                                    let mut a = kids(ap);
                                    let name = self.ident(a.next().unwrap());
                                    ActionParam {
                                        name,
                                        domain: self.expr(a.next().unwrap()),
                                    }
                                })
                                .collect()
                        }
                        Rule::label_clause => label = Some(self.label(c)),
                        Rule::help_clause => help = Some(help_text(&c)),
                        Rule::merge_kw => merge = true,
                        _ => {}
                    }
                }
                ItemKind::Action {
                    name,
                    params,
                    merge,
                    label,
                    help,
                    body,
                }
            }
            Rule::setup_decl => ItemKind::Setup(self.block(k.pop().unwrap())),
            Rule::play_decl => ItemKind::Play(self.block(k.pop().unwrap())),
            Rule::score_decl => {
                let lowest = k
                    .last()
                    .map(|c| c.as_rule() == Rule::lowest)
                    .unwrap_or(false);
                if lowest {
                    k.pop();
                }
                let expr = self.expr(k.pop().unwrap());
                ItemKind::Score {
                    player: self.ident(k.pop().unwrap()),
                    expr,
                    lowest,
                }
            }
            Rule::tiebreak_decl => {
                let expr = self.expr(k.pop().unwrap());
                ItemKind::Tiebreak {
                    player: self.ident(k.pop().unwrap()),
                    expr,
                }
            }
            Rule::team_decl => {
                let expr = self.expr(k.pop().unwrap());
                ItemKind::Team {
                    player: self.ident(k.pop().unwrap()),
                    expr,
                }
            }
            Rule::statistic_decl => {
                let expr = self.expr(k.pop().unwrap());
                let player = if k.len() > 1 {
                    Some(self.ident(k.pop().unwrap()))
                } else {
                    None
                };
                ItemKind::Statistic {
                    name: self.ident(k.pop().unwrap()),
                    player,
                    expr,
                }
            }
            Rule::summary_decl => ItemKind::Summary {
                text: summary_text(&k[0]),
            },
            Rule::help_decl => ItemKind::Help {
                text: help_text(&k[0]),
            },
            Rule::invariant_decl => {
                let expr = self.expr(k.pop().unwrap());
                ItemKind::Invariant {
                    text: unquote(&k[0]),
                    expr,
                }
            }
            Rule::names_decl => ItemKind::Names(
                k.into_iter()
                    .map(|e| {
                        let mut ek = kids(e);
                        let name = self.ident(ek.next().unwrap());
                        let t = ek.next().unwrap();
                        let text_span = self.span(&t);
                        NameEntry {
                            name,
                            text: unquote(&t),
                            text_span,
                        }
                    })
                    .collect(),
            ),
            Rule::draw_decl => {
                let mut it = k.into_iter();
                let t = it.next().unwrap();
                let target = match t.as_rule() {
                    Rule::string => DrawTarget::Display(unquote(&t), self.span(&t)),
                    _ => DrawTarget::Name(self.ident(t)),
                };
                let parts = it
                    .map(|p| {
                        let mut pk = kids(p);
                        let name = self.ident(pk.next().unwrap());
                        (name, self.expr(pk.next().unwrap()))
                    })
                    .collect();
                ItemKind::Draw { target, parts }
            }
            Rule::display_decl => {
                let expr = self.expr(k.pop().unwrap());
                let player = if k.len() > 1 {
                    Some(self.ident(k.pop().unwrap()))
                } else {
                    None
                };
                ItemKind::Display {
                    text: unquote(&k[0]),
                    player,
                    expr,
                }
            }
            r => unreachable!("item rule {r:?}"),
        }
    }

    fn int(&mut self, p: &P) -> i64 {
        match p.as_str().parse() {
            Ok(v) => v,
            Err(_) => {
                self.errors.push(
                    Diagnostic::error("E0102", "number too large")
                        .at(self.span(p), "this does not fit in 64 bits")
                        .help("numbers range from -9223372036854775808 to 9223372036854775807"),
                );
                0
            }
        }
    }

    /// The dimensions of `per A [per B]`, and the scope they make: one
    /// player/node/edge dimension keeps its own scope, anything else is `Indexed`.
    fn scope(&mut self, p: P) -> (Scope, Vec<Dim>) {
        let dims: Vec<Dim> = kids(p)
            .map(|d| {
                let c = kids(d).next().unwrap();
                let span = self.span(&c);
                match c.as_rule() {
                    Rule::scope_player => Dim::Player(span),
                    Rule::scope_node => Dim::Node(span),
                    Rule::scope_edge => Dim::Edge(span),
                    _ => Dim::Enum(self.ident(kids(c).next().unwrap())),
                }
            })
            .collect();
        let scope = match dims.as_slice() {
            [Dim::Player(_)] => Scope::Player,
            [Dim::Node(_)] => Scope::Node,
            [Dim::Edge(_)] => Scope::Edge,
            _ => Scope::Indexed,
        };
        (scope, dims)
    }

    fn visibility(&mut self, p: P) -> Visibility {
        let mut it = kids(p);
        let kind = match it.next().unwrap().as_str() {
            "public" => VisKind::Public,
            "hidden" => VisKind::Hidden,
            "owner" => VisKind::Owner,
            _ => VisKind::Top,
        };
        Visibility {
            kind,
            unless: it.next().map(|e| self.expr(e)),
        }
    }

    fn type_ref(&mut self, p: P) -> TypeRef {
        let span = self.span(&p);
        let c = kids(p).next().unwrap();
        match c.as_rule() {
            Rule::list_type => {
                TypeRef::List(Box::new(self.type_ref(kids(c).next().unwrap())), span)
            }
            Rule::zone_type => TypeRef::ZoneOf(self.ident(kids(c).next().unwrap()), span),
            _ => TypeRef::Named(self.ident(c)),
        }
    }

    fn params(&mut self, p: P) -> Vec<Param> {
        kids(p).map(|c| self.param(c)).collect()
    }

    fn param(&mut self, p: P) -> Param {
        let mut it = kids(p);
        let name = self.ident(it.next().unwrap());
        Param {
            name,
            ty: self.type_ref(it.next().unwrap()),
        }
    }

    /// The entries of an instance list.
    fn instance_items(&mut self, p: P) -> Vec<InstanceItem> {
        kids(p).map(|i| self.instance_item(i)).collect()
    }

    /// `N x { … }`, or `for NAME in COLL { … }` with its entries.
    fn instance_item(&mut self, p: P) -> InstanceItem {
        if p.as_rule() != Rule::instance_for {
            return InstanceItem::One(self.instance(p));
        }
        let span = self.span(&p);
        let mut it = kids(p);
        let name = self.ident(it.next().unwrap());
        let coll = self.expr(it.next().unwrap());
        let items = it.map(|j| self.instance_item(j)).collect();
        InstanceItem::For {
            name,
            coll,
            items,
            span,
        }
    }

    fn instance(&mut self, p: P) -> Instance {
        let span = self.span(&p);
        let mut it = kids(p);
        let count = self.int(&it.next().unwrap());
        let fields = it
            .map(|f| {
                let mut fi = kids(f);
                let name = self.ident(fi.next().unwrap());
                FieldInit {
                    name,
                    value: self.expr(fi.next().unwrap()),
                }
            })
            .collect();
        Instance {
            count,
            fields,
            span,
        }
    }

    fn label(&mut self, p: P) -> Template {
        let s = kids(p).next().unwrap();
        self.template(s)
    }

    /// Splits `"stall {v} at {c}"` into text and parsed holes. `{{` and `}}`
    /// stand for literal braces.
    fn template(&mut self, s: P) -> Template {
        let span = self.span(&s);
        let raw = s.as_str();
        let body = &raw[1..raw.len() - 1];
        let base = s.as_span().start() + 1 + self.offset;
        let mut parts = vec![];
        let mut text = String::new();
        let bytes = body.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'{' if bytes.get(i + 1) == Some(&b'{') => {
                    text.push('{');
                    i += 2;
                }
                b'}' if bytes.get(i + 1) == Some(&b'}') => {
                    text.push('}');
                    i += 2;
                }
                b'{' => {
                    let Some(close) = hole_end(&body[i..]) else {
                        self.errors.push(
                            Diagnostic::error("E0103", "unclosed `{` in a template string")
                                .at(
                                    Span::new(self.file, base + i, base + i + 1),
                                    "this hole is never closed",
                                )
                                .help("write `{{` for a literal brace"),
                        );
                        break;
                    };
                    if !text.is_empty() {
                        parts.push(TemplatePart::Text(std::mem::take(&mut text)));
                    }
                    let hole = &body[i + 1..i + close];
                    match self.hole(hole, base + i + 1) {
                        Ok(e) => parts.push(TemplatePart::Hole(e)),
                        Err(d) => self.errors.push(d),
                    }
                    i += close + 1;
                }
                _ => {
                    let ch = body[i..].chars().next().unwrap();
                    text.push(ch);
                    i += ch.len_utf8();
                }
            }
        }
        if !text.is_empty() {
            parts.push(TemplatePart::Text(text));
        }
        Template { parts, span }
    }

    /// One `{…}` hole of a template, `at` its first byte: an expression,
    /// parsed on its own one level deeper; E0708 beyond the nesting limit.
    fn hole(&mut self, text: &str, at: usize) -> Result<Expr, Diagnostic> {
        let depth = self.holes + 1;
        if depth > MAX_TEMPLATE_NESTING {
            return Err(Diagnostic::error(
                "E0708",
                format!("template holes nested more than {MAX_TEMPLATE_NESTING} levels deep"),
            )
            .at(
                Span::new(self.file, at - 1, at + text.len() + 1),
                "this hole is one too deep",
            )
            .help(
                "write the innermost choice in a function that returns a value, or split the label",
            ));
        }
        super::parse_hole(self.file, text, at, depth)
    }

    fn block(&mut self, p: P) -> Block {
        let span = self.span(&p);
        Block {
            stmts: kids(p).map(|s| self.stmt(s)).collect(),
            span,
        }
    }

    fn stmt(&mut self, p: P) -> Stmt {
        let span = self.span(&p);
        let s = kids(p).next().unwrap();
        let rule = s.as_rule();
        let mut k: Vec<P> = kids(s).collect();
        let kind = match rule {
            Rule::let_stmt => {
                let v = k.pop().unwrap();
                let name = self.ident(k.pop().unwrap());
                if v.as_rule() == Rule::choose_expr {
                    let mut c: Vec<P> = kids(v).collect();
                    let label = if c.last().map(|x| x.as_rule()) == Some(Rule::label_clause) {
                        Some(self.label(c.pop().unwrap()))
                    } else {
                        None
                    };
                    let from = self.expr(c.pop().unwrap());
                    let player = self.expr(c.pop().unwrap());
                    StmtKind::Choose {
                        name,
                        player,
                        from,
                        label,
                    }
                } else {
                    StmtKind::Let {
                        name,
                        value: self.expr(v),
                    }
                }
            }
            Rule::assign_stmt => {
                let value = self.expr(k.pop().unwrap());
                let op = match k.pop().unwrap().as_str() {
                    "+=" => AssignOp::Add,
                    "-=" => AssignOp::Sub,
                    _ => AssignOp::Set,
                };
                let place: Vec<P> = k.pop().unwrap().into_inner().collect();
                let place = self.postfix(&place);
                StmtKind::Assign { place, op, value }
            }
            Rule::if_stmt => self.if_stmt(k),
            Rule::for_stmt => {
                let body = self.block(k.pop().unwrap());
                let coll = self.expr(k.pop().unwrap());
                StmtKind::For {
                    name: self.ident(k.pop().unwrap()),
                    coll,
                    body,
                }
            }
            Rule::while_stmt => {
                let body = self.block(k.pop().unwrap());
                StmtKind::While {
                    cond: self.expr(k.pop().unwrap()),
                    body,
                }
            }
            Rule::break_stmt => StmtKind::Break,
            Rule::continue_stmt => StmtKind::Continue,
            Rule::return_stmt => StmtKind::Return,
            Rule::move_stmt => {
                let pos = if k.last().map(|x| x.as_rule()) == Some(Rule::move_pos) {
                    if k.pop().unwrap().as_str() == "bottom" {
                        MovePos::Bottom
                    } else {
                        MovePos::Top
                    }
                } else {
                    MovePos::Top
                };
                let to = self.expr(k.pop().unwrap());
                let what = k.pop().unwrap();
                let w = kids(what).next().unwrap();
                let what = match w.as_rule() {
                    Rule::move_all => MoveWhat::All(self.expr(kids(w).next().unwrap())),
                    Rule::move_n => {
                        // The count's items (the grammar's `sum`), `of`, the collection.
                        let items: Vec<P> = w.into_inner().collect();
                        let of = items
                            .iter()
                            .position(|c| c.as_rule() == Rule::k_of)
                            .unwrap();
                        let n = self.sum(&items[..of]);
                        MoveWhat::N(n, self.expr(items[of + 1].clone()))
                    }
                    _ => MoveWhat::One(self.expr(w)),
                };
                StmtKind::Move { what, to, pos }
            }
            Rule::shuffle_stmt => StmtKind::Shuffle(self.expr(k.pop().unwrap())),
            Rule::act_stmt => {
                let els = if k.last().map(|x| x.as_rule()) == Some(Rule::block) {
                    Some(self.block(k.pop().unwrap()))
                } else {
                    None
                };
                let mut it = k.into_iter();
                let player = self.expr(it.next().unwrap());
                StmtKind::Act {
                    player,
                    actions: it.map(|c| self.ident(c)).collect(),
                    els,
                }
            }
            Rule::log_stmt => StmtKind::Log(self.template(k.pop().unwrap())),
            Rule::end_stmt => StmtKind::EndGame,
            Rule::show_stmt => StmtKind::ShowBoard,
            Rule::named_block => {
                let body = self.block(k.pop().unwrap());
                StmtKind::Named {
                    name: self.ident(k.pop().unwrap()),
                    body,
                }
            }
            Rule::reveal_stmt => StmtKind::Reveal(self.expr(k.pop().unwrap())),
            Rule::hide_stmt => StmtKind::Hide(self.expr(k.pop().unwrap())),
            Rule::require_stmt => StmtKind::Require(self.expr(k.pop().unwrap())),
            Rule::call_stmt => {
                let mut it = k.into_iter();
                let name = self.ident(it.next().unwrap());
                let args = it
                    .next()
                    .map(|a| kids(a).map(|e| self.expr(e)).collect())
                    .unwrap_or_default();
                StmtKind::Call { name, args }
            }
            r => unreachable!("stmt rule {r:?}"),
        };
        Stmt { kind, span }
    }

    fn if_stmt(&mut self, k: Vec<P>) -> StmtKind {
        let mut it = k.into_iter();
        let cond = self.expr(it.next().unwrap());
        let then = self.block(it.next().unwrap());
        let els = it.next().map(|e| match e.as_rule() {
            Rule::if_stmt => {
                let span = self.span(&e);
                let kind = self.if_stmt(kids(e).collect());
                Block {
                    stmts: vec![Stmt { kind, span }],
                    span,
                }
            }
            _ => self.block(e),
        });
        StmtKind::If { cond, then, els }
    }

    // ------------------------------------------------------------ expressions

    fn mk(&self, kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }

    /// An `expr` or `if_expr` pair. The precedence levels below `expr` are
    /// silent in the grammar: an `expr` that is not an `if` holds the
    /// operands and operators of its `where`, `or` and `and` levels flat,
    /// each operand a `not_expr`.
    pub(super) fn expr(&mut self, p: P) -> Expr {
        match p.as_rule() {
            Rule::expr => {
                let items: Vec<P> = p.into_inner().collect();
                if items[0].as_rule() == Rule::if_expr {
                    return self.expr(items[0].clone());
                }
                self.filtered(&items)
            }
            Rule::if_expr => {
                let span = self.span(&p);
                let mut it = kids(p);
                let c = self.expr(it.next().unwrap());
                let a = self.expr(it.next().unwrap());
                let b = self.expr(it.next().unwrap());
                self.mk(ExprKind::If(Box::new(c), Box::new(a), Box::new(b)), span)
            }
            r => unreachable!("expr rule {r:?}"),
        }
    }

    /// The span from the first of `items` to where the last one's text ends,
    /// which is that of the silent rule that held them.
    fn items_span(&self, items: &[P]) -> Span {
        let start = items[0].as_span().start() + self.offset;
        let end = self.trimmed_end(items.last().unwrap()) + self.offset;
        Span::new(self.file, start, end)
    }

    /// `COLL where COND`, or just a value (the grammar's `filtered`).
    fn filtered(&mut self, items: &[P]) -> Expr {
        match items.iter().position(|c| c.as_rule() == Rule::k_where) {
            None => self.logic(items, Rule::k_or),
            Some(w) => {
                let span = self.items_span(items);
                let coll = self.logic(&items[..w], Rule::k_or);
                let cond = self.logic(&items[w + 1..], Rule::k_or);
                self.mk(ExprKind::Where(Box::new(coll), Box::new(cond)), span)
            }
        }
    }

    /// `A or B …` (`k_or`) or `A and B …` (`k_and`), left to right; the
    /// operands of `and` are `not_expr` pairs.
    fn logic(&mut self, items: &[P], word: Rule) -> Expr {
        let (op, inner) = match word {
            Rule::k_or => (BinOp::Or, Some(Rule::k_and)),
            _ => (BinOp::And, None),
        };
        let mut acc: Option<Expr> = None;
        for part in items.split(|c| c.as_rule() == word) {
            let rhs = match inner {
                Some(w) => self.logic(part, w),
                None => self.not_expr(part[0].clone()),
            };
            acc = Some(match acc {
                None => rhs,
                Some(lhs) => {
                    let span = lhs.span.to(rhs.span);
                    self.mk(ExprKind::Bin(op, Box::new(lhs), Box::new(rhs)), span)
                }
            });
        }
        acc.unwrap()
    }

    /// `not A`, any number of times, or a comparison: the `not_op`s, then
    /// the comparison's items.
    fn not_expr(&mut self, p: P) -> Expr {
        let span = self.span(&p);
        let items: Vec<P> = p.into_inner().collect();
        let nots = items
            .iter()
            .take_while(|c| c.as_rule() == Rule::not_op)
            .count();
        let mut e = self.comparison(&items[nots..]);
        for _ in 0..nots {
            e = self.mk(ExprKind::Not(Box::new(e)), span);
        }
        e
    }

    /// A comparison of two values or one value (the grammar's `cmp_expr`).
    fn comparison(&mut self, items: &[P]) -> Expr {
        let Some(at) = items.iter().position(|c| c.as_rule() == Rule::cmp_op) else {
            return self.range(items);
        };
        let lhs = self.range(&items[..at]);
        let op = &items[at];
        let rhs = &items[at + 1..];
        let opk = kids(op.clone()).next().map(|x| x.as_rule());
        if opk == Some(Rule::is_op) {
            let span = lhs.span.to(self.items_span(rhs));
            let name = self.ident(first_ident(rhs[0].clone()));
            return self.mk(ExprKind::Is(Box::new(lhs), name), span);
        }
        let rhs = self.range(rhs);
        let op = match (opk, op.as_str()) {
            (Some(Rule::in_op), _) => BinOp::In,
            (_, "==") => BinOp::Eq,
            (_, "!=") => BinOp::Ne,
            (_, "<=") => BinOp::Le,
            (_, ">=") => BinOp::Ge,
            (_, "<") => BinOp::Lt,
            _ => BinOp::Gt,
        };
        let span = lhs.span.to(rhs.span);
        self.mk(ExprKind::Bin(op, Box::new(lhs), Box::new(rhs)), span)
    }

    /// `A..B` or one value (the grammar's `range`). `..` makes no pair: the
    /// second sum starts at an operand that follows an operand.
    fn range(&mut self, items: &[P]) -> Expr {
        let operand = |c: &P| c.as_rule() == Rule::unary;
        let Some(at) = (1..items.len()).find(|&i| operand(&items[i - 1]) && operand(&items[i]))
        else {
            return self.sum(items);
        };
        let a = self.sum(&items[..at]);
        let b = self.sum(&items[at..]);
        let span = a.span.to(b.span);
        self.mk(ExprKind::Range(Box::new(a), Box::new(b)), span)
    }

    /// `A + B - …` over products (`sum_op`), or `A * B / …` over `unary`
    /// pairs (`prod_op`), left to right.
    fn sum(&mut self, items: &[P]) -> Expr {
        self.arith(items, Rule::sum_op)
    }

    fn arith(&mut self, items: &[P], level: Rule) -> Expr {
        let mut acc: Option<Expr> = None;
        let mut op = "";
        let mut start = 0;
        for end in 0..=items.len() {
            if end < items.len() && items[end].as_rule() != level {
                continue;
            }
            let part = &items[start..end];
            let rhs = match level {
                Rule::sum_op => self.arith(part, Rule::prod_op),
                _ => self.unary(part[0].clone()),
            };
            acc = Some(match acc {
                None => rhs,
                Some(lhs) => {
                    let op = match op {
                        "+" => BinOp::Add,
                        "-" => BinOp::Sub,
                        "*" => BinOp::Mul,
                        "/" => BinOp::Div,
                        _ => BinOp::Rem,
                    };
                    let span = lhs.span.to(rhs.span);
                    self.mk(ExprKind::Bin(op, Box::new(lhs), Box::new(rhs)), span)
                }
            });
            if end < items.len() {
                op = items[end].as_str();
                start = end + 1;
            }
        }
        acc.unwrap()
    }

    /// A value with any number of minus signs before it: the `neg`s, then
    /// the postfix items.
    fn unary(&mut self, p: P) -> Expr {
        let span = self.span(&p);
        let items: Vec<P> = p.into_inner().collect();
        let negs = items
            .iter()
            .take_while(|c| c.as_rule() == Rule::neg)
            .count();
        let mut e = self.postfix(&items[negs..]);
        for _ in 0..negs {
            e = match e.kind {
                ExprKind::Int(v) => self.mk(ExprKind::Int(-v), span),
                _ => self.mk(ExprKind::Neg(Box::new(e)), span),
            };
        }
        e
    }

    /// A primary value followed by field names and index expressions (the
    /// grammar's `postfix`).
    fn postfix(&mut self, items: &[P]) -> Expr {
        let mut e = self.primary(items[0].clone());
        for f in &items[1..] {
            if f.as_rule() == Rule::expr {
                // `]` ends the index; the span stops at the expression's end plus one.
                let ispan = self.span(f);
                let span = Span::new(e.span.file, e.span.start as usize, ispan.end as usize + 1);
                let i = self.expr(f.clone());
                e = self.mk(ExprKind::Index(Box::new(e), Box::new(i)), span);
                continue;
            }
            let field = self.ident(f.clone());
            let span = e.span.to(field.span);
            e = self.mk(ExprKind::Field(Box::new(e), field), span);
        }
        e
    }

    fn primary(&mut self, p: P) -> Expr {
        let span = self.span(&p);
        let c = kids(p).next().unwrap();
        let kind = match c.as_rule() {
            Rule::int => ExprKind::Int(self.int(&c)),
            Rule::bool_lit => ExprKind::Bool(c.as_str() == "true"),
            Rule::none_lit => ExprKind::None,
            Rule::node_lit => {
                let n = c.into_inner().next().unwrap();
                ExprKind::Node(self.ident(n))
            }
            // Inside a template hole, quoted text with holes (or literal
            // braces `{{`, `}}`) is a template again
            // (`{if w > 0 then " + {w} loco" else ""}`).
            Rule::string if self.holes > 0 && c.as_str().contains(['{', '}']) => {
                ExprKind::Template(self.template(c))
            }
            Rule::string => {
                let text = unquote(&c);
                if let Some((a, b)) = literal_hole(&text) {
                    let at = c.as_span().start() + 1 + self.offset;
                    self.errors.push(
                        Diagnostic::error("E0104", format!("`{}` would print literally: only labels and `log` lines are templates", &text[a..b]))
                            .at(Span::new(self.file, at + a, at + b), "this text is a value, not a template")
                            .help("write the value in the label or log line itself (`log \"{x} left\"`), or choose between texts there (`{if x then \"yes\" else \"no\"}`); `{{` writes a literal brace"),
                    );
                }
                ExprKind::Str(text)
            }
            Rule::paren => return self.expr(kids(c).next().unwrap()),
            Rule::list_lit => ExprKind::List(kids(c).map(|e| self.expr(e)).collect()),
            Rule::agg => {
                let mut it = kids(c);
                let func = self.ident(it.next().unwrap());
                let binder = self.ident(kids(it.next().unwrap()).next().unwrap());
                let coll = Box::new(self.expr(it.next().unwrap()));
                let body = it.next().map(|b| Box::new(self.expr(b)));
                ExprKind::Agg {
                    func,
                    binder,
                    coll,
                    body,
                }
            }
            Rule::call => {
                let mut it = kids(c);
                let name = self.ident(it.next().unwrap());
                let args = it
                    .next()
                    .map(|a| kids(a).map(|e| self.expr(e)).collect())
                    .unwrap_or_default();
                ExprKind::Call(name, args)
            }
            Rule::ident => ExprKind::Name(self.ident(c)),
            r => unreachable!("primary rule {r:?}"),
        };
        self.mk(kind, span)
    }
}

/// `x is stall`: the right side of `is` is a bare kind name.
fn first_ident(p: P) -> P {
    let mut cur = p;
    loop {
        if cur.as_rule() == Rule::ident {
            return cur;
        }
        match kids(cur.clone()).next() {
            Some(c) => cur = c,
            None => return cur,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pest::Parser;

    /// The trimmed end found by walking down to the last leaf every time,
    /// without [`Ctx::trimmed_end`]'s memory.
    fn walked_end(p: &P) -> usize {
        let Some(last) = p.clone().into_inner().next_back() else {
            return p.as_span().end();
        };
        trim_after(p, walked_end(&last))
    }

    /// The remembered trimmed ends are the walked ones for every pair of
    /// every shipped ruleset and example (pairs that end with `EOI` aside).
    #[test]
    fn remembered_ends_are_the_walked_ones() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        let mut files = vec![];
        let mut dirs = vec![format!("{root}/rulesets"), format!("{root}/examples")];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let path = e.unwrap().path();
                if path.is_dir() {
                    dirs.push(path.display().to_string());
                } else if path.extension().is_some_and(|x| x == "rules") {
                    files.push(path);
                }
            }
        }
        assert!(files.len() > 20, "found only {} rules files", files.len());
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            let file = super::super::RulesParser::parse(Rule::file, &text)
                .unwrap()
                .next()
                .unwrap();
            let cx = Ctx {
                file: 0,
                offset: 0,
                holes: 0,
                errors: vec![],
                ends: RefCell::default(),
            };
            for p in file.into_inner().flatten() {
                if p.clone().into_inner().next_back().map(|l| l.as_rule()) != Some(Rule::EOI) {
                    assert_eq!(
                        cx.trimmed_end(&p),
                        walked_end(&p),
                        "{}: {:?} at {:?}",
                        f.display(),
                        p.as_rule(),
                        p.as_span()
                    );
                }
            }
        }
    }
}
