"""End-to-end tests of `regel lsp` with a real protocol client (pytest-lsp).

The server is the release binary (`REGEL` overrides the path). Each test
starts a fresh server, opens real rulesets, edits them as an editor would
(full-text changes) and checks what comes back: diagnostics with their
did-you-mean, the quick fix that clears them, definitions (a function, a
board city id, a variant's override), hover, rename, and that memory stays
bounded under 10,000 edits.
"""

import os
import pathlib
import re

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

ROOT = pathlib.Path(__file__).resolve().parents[2]
REGEL = os.environ.get("REGEL", str(ROOT / "target" / "release" / "regel"))
HT = ROOT / "rulesets" / "hansa-teutonica" / "hansa-teutonica.rules"
HANSA = ROOT / "rulesets" / "hansa" / "hansa.rules"
THRIFTY = ROOT / "rulesets" / "hansa" / "house-thrifty.rules"
NIM = ROOT / "examples" / "nim" / "nim.rules"
HASP = ROOT / "rulesets" / "hasp" / "hasp.rules"
TIES = ROOT / "rulesets" / "hasp" / "tie-splits.rules"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[REGEL, "lsp"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        t.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    )
    yield
    await lsp_client.shutdown_session()


def uri(path: pathlib.Path) -> str:
    return path.as_uri()


class Doc:
    """An open buffer: its text and version, edited with full-text changes."""

    def __init__(self, client: LanguageClient, path: pathlib.Path):
        self.client, self.uri, self.text, self.version = client, uri(path), path.read_text(), 1
        client.text_document_did_open(
            t.DidOpenTextDocumentParams(
                t.TextDocumentItem(uri=self.uri, language_id="regel", version=1, text=self.text)
            )
        )

    def change(self, text: str):
        self.text, self.version = text, self.version + 1
        self.client.text_document_did_change(
            t.DidChangeTextDocumentParams(
                t.VersionedTextDocumentIdentifier(uri=self.uri, version=self.version),
                [t.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    def position(self, needle: str, nth: int = 0, shift: int = 1) -> t.Position:
        """The position `shift` characters into the nth occurrence of needle."""
        at = [m.start() for m in re.finditer(re.escape(needle), self.text)][nth] + shift
        line = self.text.count("\n", 0, at)
        return t.Position(line=line, character=at - (self.text.rfind("\n", 0, at) + 1))

    def apply(self, edits: list[t.TextEdit]):
        """The text with the edits applied (last first, so offsets hold)."""
        lines = self.text.split("\n")
        offset = lambda p: sum(len(l) + 1 for l in lines[: p.line]) + p.character  # noqa: E731
        text = self.text
        for e in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
            text = text[: offset(e.range.start)] + e.new_text + text[offset(e.range.end) :]
        self.change(text)

    async def diagnostics(self, want=lambda ds: True) -> list[t.Diagnostic]:
        """The next diagnostics published for this buffer that satisfy `want`."""
        for _ in range(50):
            await self.client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
            ds = self.client.diagnostics.get(self.uri)
            if ds is not None and want(ds):
                return list(ds)
        raise AssertionError(f"no matching diagnostics for {self.uri}")


def ident(client, doc):
    return t.TextDocumentIdentifier(uri=doc.uri)


async def test_misspelt_name_gets_did_you_mean_and_the_quick_fix_clears_it(client):
    doc = Doc(client, HT)
    assert await doc.diagnostics() == []
    # A use of the function `income_size` (HT-7.1), misspelt.
    use = doc.text.index("income_size(", doc.text.index("fn income_size") + 5)
    doc.change(doc.text[:use] + "income_sise" + doc.text[use + len("income_size") :])
    ds = await doc.diagnostics(lambda ds: len(ds) > 0)
    assert len(ds) == 1, ds
    d = ds[0]
    assert d.code == "E0246" and d.severity == t.DiagnosticSeverity.Error
    assert "unknown function `income_sise`" in d.message
    assert "did you mean `income_size`?" in d.message
    assert d.range.start == doc.position("income_sise", shift=0)

    actions = await client.text_document_code_action_async(
        t.CodeActionParams(
            text_document=ident(client, doc),
            range=d.range,
            context=t.CodeActionContext(diagnostics=[d]),
        )
    )
    assert [a.title for a in actions] == ["replace with `income_size`"]
    doc.apply(actions[0].edit.changes[doc.uri])
    assert "income_sise" not in doc.text
    assert await doc.diagnostics(lambda ds: len(ds) == 0) == []


async def test_go_to_definition_of_a_function(client):
    doc = Doc(client, HT)
    await doc.diagnostics()
    # `can_act(p)` used in a `while`; declared by `fn can_act` (HT-6.2).
    use = doc.position("can_act(", nth=1)
    assert "fn can_act" not in doc.text.split("\n")[use.line]
    loc = await client.text_document_definition_async(
        t.DefinitionParams(text_document=ident(client, doc), position=use)
    )
    assert loc.uri == doc.uri
    assert loc.range.start == doc.position("fn can_act", shift=3)


async def test_go_to_definition_of_a_city_id_opens_its_table_in_the_board(client):
    doc = Doc(client, HANSA)
    await doc.diagnostics()
    loc = await client.text_document_definition_async(
        t.DefinitionParams(text_document=ident(client, doc), position=doc.position("@copenhagen", shift=3))
    )
    board = ROOT / "maps" / "hansa.toml"
    assert loc.uri == uri(board)
    line = board.read_text().split("\n")[loc.range.start.line]
    assert line.replace(" ", "") == 'id="copenhagen"'
    assert line[loc.range.start.character : loc.range.end.character] == "copenhagen"


async def test_go_to_definition_of_a_piece_field_and_a_local(client):
    doc = Doc(client, HT)
    await doc.diagnostics()
    # `s.value` in `table_score` (HT-12.5): the field of `piece table_space`.
    use = doc.position("s.value)", shift=3)
    loc = await client.text_document_definition_async(
        t.DefinitionParams(text_document=ident(client, doc), position=use)
    )
    assert loc.range.start == doc.position("value: int, colour", shift=0)
    # `s` there is the aggregate's element, bound just before it.
    loc = await client.text_document_definition_async(
        t.DefinitionParams(text_document=ident(client, doc), position=doc.position("s.value)", shift=0))
    )
    assert loc.range.start == doc.position("s in p.won", shift=0)


async def test_a_city_id_typed_into_hansa_teutonica_leads_to_its_board(client):
    doc = Doc(client, HT)
    await doc.diagnostics()
    doc.change(doc.text + "\nconst home = @groningen\n")
    assert await doc.diagnostics() == []
    loc = await client.text_document_definition_async(
        t.DefinitionParams(text_document=ident(client, doc), position=doc.position("@groningen", shift=2))
    )
    assert loc.uri.endswith(".toml") and "hansa-teutonica" in loc.uri


async def test_override_and_extends_lead_into_the_base(client):
    doc = Doc(client, THRIFTY)
    await doc.diagnostics()
    base = HANSA.read_text()
    loc = await client.text_document_definition_async(
        t.DefinitionParams(text_document=ident(client, doc), position=doc.position("keep_talers"))
    )
    assert loc.uri == uri(HANSA)
    assert base.split("\n")[loc.range.start.line].startswith("const keep_talers")
    loc = await client.text_document_definition_async(
        t.DefinitionParams(text_document=ident(client, doc), position=doc.position('"hansa.rules"', shift=2))
    )
    assert loc.uri == uri(HANSA)


async def test_override_block_leads_into_the_base_block_and_body(client):
    doc = Doc(client, TIES)
    assert await doc.diagnostics() == []
    base = HASP.read_text().split("\n")
    loc = await client.text_document_definition_async(
        t.DefinitionParams(text_document=ident(client, doc), position=doc.position(".tie", shift=2))
    )
    assert loc.uri == uri(HASP)
    assert base[loc.range.start.line].strip().startswith("block tie {")
    loc = await client.text_document_definition_async(
        t.DefinitionParams(text_document=ident(client, doc), position=doc.position("block score_round", shift=7))
    )
    assert loc.uri == uri(HASP)
    assert base[loc.range.start.line].startswith("phase score_round")


async def test_a_redeclaration_in_a_variant_gets_override_as_a_quick_fix(client):
    doc = Doc(client, THRIFTY)
    assert await doc.diagnostics() == []
    doc.change(doc.text.replace("override const keep_talers", "const keep_talers"))
    [d] = await doc.diagnostics(lambda ds: len(ds) > 0)
    assert d.code == "E0304" and "write `override` in front" in d.message
    # The base's declaration is related information, in the base file.
    assert d.related_information[0].location.uri == uri(HANSA)
    actions = await client.text_document_code_action_async(
        t.CodeActionParams(text_document=ident(client, doc), range=d.range, context=t.CodeActionContext(diagnostics=[d]))
    )
    assert [a.title for a in actions] == ["add `override`"]
    doc.apply(actions[0].edit.changes[doc.uri])
    assert "override const keep_talers" in doc.text
    assert await doc.diagnostics(lambda ds: len(ds) == 0) == []


async def test_hover_on_a_variable_shows_its_type_and_declaration(client):
    doc = Doc(client, HT)
    await doc.diagnostics()
    h = await client.text_document_hover_async(
        t.HoverParams(text_document=ident(client, doc), position=doc.position("actions_taken < "))
    )
    text = h.contents.value
    assert "actions_taken: int" in text
    assert "var actions_taken: int = 0" in text and "HT-6.2" in text


async def test_rename_a_variable_everywhere_and_the_file_still_checks(client):
    doc = Doc(client, HT)
    await doc.diagnostics()
    uses = len(re.findall(r"\bactions_taken\b", doc.text))
    edit = await client.text_document_rename_async(
        t.RenameParams(
            text_document=ident(client, doc), position=doc.position("actions_taken = 0"), new_name="actions_done"
        )
    )
    edits = edit.changes[doc.uri]
    assert len(edits) == uses
    doc.apply(edits)
    assert "actions_taken" not in doc.text
    assert len(re.findall(r"\bactions_done\b", doc.text)) == uses
    assert await doc.diagnostics() == []


async def test_outline_completion_and_semantic_tokens(client):
    doc = Doc(client, HT)
    await doc.diagnostics()
    symbols = await client.text_document_document_symbol_async(
        t.DocumentSymbolParams(text_document=ident(client, doc))
    )
    names = [s.name for s in symbols]
    assert "can_act" in names and "take_income" in names
    items = await client.text_document_completion_async(
        t.CompletionParams(text_document=ident(client, doc), position=doc.position("actions_taken < ", shift=0))
    )
    labels = {i.label for i in items}
    assert {"actions_taken", "can_act", "count", "if"} <= labels
    tokens = await client.text_document_semantic_tokens_full_async(
        t.SemanticTokensParams(text_document=ident(client, doc))
    )
    assert len(tokens.data) > 5 * 1000


async def test_format_a_file(client):
    doc = Doc(client, HT)
    await doc.diagnostics()
    # Every indented line pushed two columns further in: the same rules in
    # another layout.
    messy = "\n".join("  " + l if l.startswith("  ") else l for l in doc.text.split("\n"))
    doc.change(messy)
    await doc.diagnostics()
    params = t.DocumentFormattingParams(text_document=ident(client, doc), options=t.FormattingOptions(2, True))
    edits = await client.text_document_formatting_async(params)
    assert edits, "a layout that is not canonical is rewritten"
    doc.apply(edits)
    assert doc.text != messy
    assert await doc.diagnostics() == []
    # Formatting is idempotent: a second request changes nothing.
    again = await client.text_document_formatting_async(params)
    assert not again


def rss_kib(pid: int) -> int:
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


async def test_memory_stays_bounded_over_ten_thousand_edits(client):
    doc = Doc(client, NIM)
    await doc.diagnostics()
    good = doc.text
    bad = good + "\nconst broken = nothing_here\n"
    pid = client._server.pid
    samples = {}
    for i in range(1, 10_001):
        doc.change(bad if i % 2 else good)
        if i % 100 == 0:
            # A request waits for the edits so far to be checked.
            await client.text_document_document_symbol_async(t.DocumentSymbolParams(text_document=ident(client, doc)))
        if i in (1_000, 10_000):
            samples[i] = rss_kib(pid)
    # After 9,000 more edits, at most a few MiB more (allocator slack), not
    # the ~9,000 texts and analyses a leak would keep.
    assert samples[10_000] <= samples[1_000] + 8 * 1024, samples
