"""Parser states and select; tables with every property, keys and const entries."""
import pytest

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError

from fe_helpers import binary, lit, name, parse_declarations

PARSER = """
parser Prs(packet_in pkt, out h_t hdr) {
    value_set<bit<16>>(4) vs;
    bit<8> n = 0;
    @name("begin") state start {
        pkt.extract(hdr);
        transition select(hdr.g, hdr.f) {
            (0x0800, 1): next;
            (0x8100 &&& 0xEFFF, _): next;
            (1 .. 10, default): reject;
            (vs, 0): accept;
            default: accept;
        }
    }
    state next {
        pkt.extract(hdr, (bit<32>) n);
        verify(n < 4, error.NoMatch);
        transition select(pkt.lookahead<bit<16>>()[7:0]) {
            7: accept;
            _: reject;
        }
    }
    state empty { }
}
"""


def parse_parser() -> ast.ParserDecl:
    (decl,) = parse_declarations(PARSER)
    assert isinstance(decl, ast.ParserDecl)
    return decl


def test_parser_locals_and_states() -> None:
    parser = parse_parser()
    assert [type(d).__name__ for d in parser.locals] == ["ValueSetDecl", "VariableDecl"]
    value_set = parser.locals[0]
    assert value_set.element_type == ast.BitType(lit(16), span=None) and value_set.size == lit(4)
    assert [s.name for s in parser.states] == ["start", "next", "empty"]
    assert parser.states[0].annotations[0].name == "name"
    assert parser.states[2].transition is None and parser.states[2].statements == ()


def test_select_keysets_tuples_masks_ranges_value_sets_and_defaults() -> None:
    select = parse_parser().states[0].transition
    assert isinstance(select, ast.SelectExpression)
    assert len(select.exprs) == 2
    keysets = [c.keyset for c in select.cases]
    assert keysets[0] == ast.ListExpression((lit(2048, "0x0800"), lit(1)), span=None)
    assert keysets[1].elements == (
        binary("&&&", lit(0x8100, "0x8100"), lit(0xEFFF, "0xEFFF")), ast.DontCare(span=None)
    )
    assert keysets[2].elements == (binary("..", lit(1), lit(10)), ast.DefaultExpression(span=None))
    assert keysets[3].elements[0] == name("vs")
    assert keysets[4] == ast.DefaultExpression(span=None)
    assert [c.next_state for c in select.cases] == ["next", "next", "reject", "accept", "accept"]


def test_select_on_sliced_lookahead_and_single_keysets() -> None:
    state = parse_parser().states[1]
    select = state.transition
    (expr,) = select.exprs
    assert isinstance(expr, ast.Slice) and isinstance(expr.expr, ast.MethodCall)
    assert [c.keyset for c in select.cases] == [lit(7), ast.DontCare(span=None)]
    extract, verify = state.statements
    assert isinstance(extract.call.args[1].value, ast.Cast)
    assert verify.call.target == name("verify")


def test_direct_transition() -> None:
    (parser,) = parse_declarations("parser Q(packet_in p) { state start { transition accept; } }")
    assert parser.states[0].transition == name("accept")


TABLE = """
control K(inout h_t h) {
    direct_counter(CounterType.packets) dc;
    action a(bit<8> x) { h.f = x; }
    action b() { }
    @name("my_table") table t {
        key = {
            h.f: exact @name("field");
            h.g: ternary;
            h.g[3:0]: lpm;
            h.isValid(): exact;
        }
        actions = { a; @defaultonly b; @tableonly .NoAction; }
        const default_action = b();
        const entries = {
            (1, 0x10 &&& 0xF0, 3, true): a(1);
            priority = 5: (2, _, default, false): a(x = 2);
            const (3, 1 .. 2, 4, true): b() @note("x");
        }
        size = 1024;
        counters = dc;
        implementation = action_profile(32);
        support_timeout = true;
        custom = {1, 2};
    }
    table single { key = { h.f: exact; } actions = { b; } entries = { 7: b(); } default_action = b; }
    apply { t.apply(); }
}
"""


def parse_tables() -> tuple[ast.TableDecl, ast.TableDecl]:
    (control,) = parse_declarations(
        "enum CounterType { packets } extern action_profile { action_profile(bit<32> n); }" + TABLE
    )[2:]
    tables = [d for d in control.locals if isinstance(d, ast.TableDecl)]
    return tables[0], tables[1]


def properties(table: ast.TableDecl) -> dict[str, ast.TableProperty]:
    return {p.name: p for p in table.properties}


def test_table_key_and_actions() -> None:
    table, _ = parse_tables()
    assert table.annotations[0].name == "name"
    props = properties(table)
    key = props["key"].key
    assert [k.match_kind for k in key] == ["exact", "ternary", "lpm", "exact"]
    assert key[0].annotations[0].args == (ast.StringLiteral("field", span=None),)
    assert isinstance(key[2].expr, ast.Slice)
    actions = props["actions"].actions
    assert [a.name for a in actions] == ["a", "b", ".NoAction"]
    assert actions[1].annotations[0].name == "defaultonly"
    assert actions[2].annotations[0].name == "tableonly"


def test_default_action_and_other_properties() -> None:
    table, single = parse_tables()
    props = properties(table)
    default = props["default_action"]
    assert default.is_const and default.action.name == "b" and default.action.has_args
    assert properties(single)["default_action"].action.has_args is False
    assert props["size"].value == lit(1024)
    assert props["counters"].value == name("dc")
    assert isinstance(props["implementation"].value, ast.ConstructorCall)
    assert props["support_timeout"].value == ast.BoolLiteral(True, span=None)
    assert isinstance(props["custom"].value, ast.ListExpression)


def test_const_entries_with_priorities_masks_ranges_and_wildcards() -> None:
    table, single = parse_tables()
    entries_prop = properties(table)["entries"]
    assert entries_prop.is_const
    first, second, third = entries_prop.entries
    assert first.keyset[1] == binary("&&&", lit(16, "0x10"), lit(240, "0xF0"))
    assert first.priority is None and first.action.args[0].value == lit(1)
    assert second.priority == lit(5)
    assert second.keyset[1:3] == (ast.DontCare(span=None), ast.DefaultExpression(span=None))
    assert second.action.args[0].name == "x"
    assert third.is_const and third.keyset[1] == binary("..", lit(1), lit(2))
    assert third.annotations[0].name == "note"
    (only,) = properties(single)["entries"].entries
    assert only.keyset == (lit(7),)


@pytest.mark.parametrize("text, message", [
    ("control K() { table t { key = { x exact; } } apply { } }", "between the key expression"),
    ("control K() { table t { actions = { a } } apply { } }", "expected ';' after the action name"),
    ("control K() { table t { size 5; } apply { } }", "expected '=' after table property 'size'"),
    ("parser P() { state s { transition select(x) { 1 s2; } } }", "expected ':' after the select keyset"),
    ("parser P() { state s { transition; } }", "expected a state name or 'select'"),
    ("parser P() { state s { } bit<8> late; }", "expected 'state'"),
])
def test_table_and_parser_errors(text: str, message: str) -> None:
    with pytest.raises(CompileError, match=message):
        parse_declarations(text)
