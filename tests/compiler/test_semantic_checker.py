"""The checker (p4sim/compiler/semantic/bodies.py, calls.py, expr_types.py) checks the
code nothing instantiates as p4c's type checker does: every error class is refused
there, in the words lowering uses for reachable code, and a control full of valid
constructs that nothing instantiates still compiles (a false refusal is worse than a
missed one)."""
from __future__ import annotations

from pathlib import Path

import pytest

from p4sim.compiler.driver import compile_program
from p4sim.compiler.errors import CompileError

# A complete v1model program with empty blocks; {extra} goes before main.
SKELETON = """#include <v1model.p4>
struct H { } struct M { }
parser P(packet_in p, out H h, inout M m, inout standard_metadata_t s) {
    state start { transition accept; }
}
control C(inout H h, inout M m) { apply { } }
control I(inout H h, inout M m, inout standard_metadata_t s) { apply { } }
control D(packet_out p, in H h) { apply { } }
header E { bit<8> v; bit<16> w; }
header F { bit<8> v; }
header_union U { E e; F f; }
struct S { bit<8> a; bool b; E e; }
%s
V1Switch(P(), C(), I(), I(), C(), D()) main;
"""


def _compile(tmp_path: Path, text: str) -> None:
    path = tmp_path / "prog.p4"
    path.write_text(text)
    compile_program(str(path))


def _refusal(tmp_path: Path, extra: str) -> CompileError:
    with pytest.raises(CompileError) as info:
        _compile(tmp_path, SKELETON % extra)
    return info.value


def test_the_skeleton_compiles(tmp_path: Path) -> None:
    _compile(tmp_path, SKELETON % "")


# (declarations nothing instantiates or calls, the error's start, its line in SKELETON)
REFUSED = [
    ("control Bad(inout E x) { apply { x.v = x.v + x.w; } }",
     "operands of '+' have different types: bit<8> and bit<16>"),
    ("bit<8> f(in bit<8> x) { return x + y; }", "undeclared name 'y'"),
    ("action a(inout S s) { s.c = 1; }", "struct 'S' has no field 'c'"),
    ("action a(inout E e) { e.c = 1; }", "header 'E' has no field 'c'"),
    ("action a(inout U u) { u.g.v = 1; }", "header_union 'U' has no member 'g'"),
    ("action a(inout E e) { e.push(); }", "headers have no method 'push'"),
    ("action a(inout E e) { e.setValid(1); }",
     "wrong number of arguments: setValid() expects 0, got 1"),
    ("control Bad(in bit<8> x) { apply { x = 1; } }",
     "cannot assign to 'x': 'x' is an in parameter"),
    ("const bit<8> K = 1;\ncontrol Bad() { apply { K = 2; } }",
     "cannot assign to 'K': a constant"),
    ("bit<8> g(in bit<8> x) { return x; }\nbit<8> f() { return g(1, 2); }",
     "wrong number of arguments: 'g' expects 1, got 2"),
    ("action set(bit<8> v) { }\ncontrol Bad() { apply { set(); } }",
     "wrong number of arguments: action 'set' expects 1, got 0 (missing 'v')"),
    ("control Bad(inout standard_metadata_t s) { apply { clone(CloneType.I2E, 16w5); } }",
     "type mismatch: expected bit<32>, got bit<16>"),
    ("control Bad(inout bit<8> x) { apply { bool b = x; } }",
     "type mismatch: expected bool, got bit<8>"),
    ("bit<8> f(in bit<16> x) { return x; }", "type mismatch: expected bit<8>, got bit<16>"),
    ("control Bad(inout bit<8> x) { register<bit<8>, bit<32>>(4) r; apply { r.peek(x, 0); } }",
     "extern 'register' has no method 'peek'"),
    ("control Bad(inout bit<8> x) { register<bit<8>, bit<32>>(4) r; apply { r.read(x); } }",
     "wrong number of arguments: 'register.read' expects 2, got 1"),
    ("control Bad() { table t { actions = { NoAction; } } apply { t.run(); } }",
     "table 't' has no method 'run'"),
    ("control Bad() { table t { actions = { nope; } } apply { t.apply(); } }",
     "unknown action 'nope' in table 't'"),
    ("control Bad(in bit<8> k) { table t { key = { k: fuzzy; } actions = { NoAction; } }"
     " apply { t.apply(); } }", "unknown match kind 'fuzzy'"),
    ("parser Bad(packet_in p) { state start { transition nowhere; } }",
     "unknown parser state 'nowhere'"),
    ("control Bad(inout bit<8> x) { apply { if (x) { x = 1; } } }",
     "the condition of 'if' must be bool, not bit<8>"),
    ("control Bad(inout bit<8> x) { apply { x = x == 1 ? 2 : 3; x = (x ? 1 : 2); } }",
     "the condition of '?:' must be bool"),
    ("control Bad(inout bit<8> x) { apply { if (!x == 1) { } } }",
     "'!' needs a bool operand, not bit<8>"),
    ("control Bad(inout standard_metadata_t s) { apply { mark_to_drop(1w1); } }",
     "'1w1' cannot be passed to the inout parameter 'standard_metadata': it is not an lvalue"),
    ("action a(bit<8> v) { bit<8> o; o = v; }\n"
     "void f(out bit<8> o) { o = 1; }\naction b(bit<8> v) { f(v); }",
     "'v' cannot be passed to the out parameter 'o': an action parameter"),
    ("control Bad(inout E[2] st) { apply { st.next.v = 1; } }",
     "st.next: 'last', and 'next' for stacks can only be used in a parser"),
    ("control Bad(inout bit<8> x) { apply { if (HashAlgorithm.md5 == HashAlgorithm.crc16) "
     "{ } } }", "enum 'HashAlgorithm' has no member 'md5'"),
    ("control Bad(inout standard_metadata_t s) { apply { "
     "if (s.parser_error == error.Nope) { } } }", "unknown error 'error.Nope'"),
    ("control Bad(inout bit<8> x) { apply { x = x[8:1]; } }",
     "slice [8:1] is out of range for bit<8>"),
    ("control Bad(inout bit<8> x) { apply { x = x.v; } }",
     "a value of type bit<8> has no member 'v'"),
    ("control Bad(inout bit<8> x) { apply { bit<8> y = (x == 1) + 1; } }",
     "operator '+' cannot be applied to bool and int"),
    ("control Bad(inout bit<8> x) { apply { no_such_action(); } }",
     "undeclared name 'no_such_action'"),
    ("control Bad(inout bit<8> x) { apply { nothing_t y; } }", "unknown type 'nothing_t'"),
]


@pytest.mark.parametrize("extra, message", REFUSED, ids=[m for _, m in REFUSED])
def test_an_error_in_code_nothing_uses_is_refused(tmp_path: Path, extra: str,
                                                  message: str) -> None:
    error = _refusal(tmp_path, extra)
    assert error.message.startswith(message), error.render()
    # located in the added declarations, which follow the skeleton's first 12 lines
    assert error.span.line > 12 and error.span.file.endswith("prog.p4"), error.render()


def test_the_first_error_in_source_order_is_given(tmp_path: Path) -> None:
    error = _refusal(tmp_path, "bit<8> f() { return first; }\nbit<8> g() { return second; }")
    assert error.message == "undeclared name 'first'"


def test_a_program_without_main_has_its_code_checked_first(tmp_path: Path) -> None:
    with pytest.raises(CompileError) as info:
        _compile(tmp_path, "#include <core.p4>\n"
                 "control Bad(inout bit<8> x) { apply { x = x + 16w1; } }\n")
    assert info.value.message.startswith("operands of '+' have different types")


def test_a_foreign_main_package_gets_p4c_bm2_ss_model_error(tmp_path: Path) -> None:
    text = ("#include <core.p4>\ncontrol Pipe(inout bit<8> x);\npackage Top(Pipe p);\n"
            "control Ok(inout bit<8> x) { apply { x = x + 1; } }\nTop(Ok()) main;\n")
    with pytest.raises(CompileError) as info:
        _compile(tmp_path, text)
    assert info.value.message == "package Top: main package does not match the expected model"
    assert info.value.span.line == 5
    assert any("should be called V1Switch" in n for n in info.value.notes)


def test_a_foreign_main_package_is_refused_after_the_code_is_checked(tmp_path: Path
                                                                     ) -> None:
    text = ("#include <core.p4>\ncontrol Pipe(inout bit<8> x);\npackage Top(Pipe p);\n"
            "control Bad(inout bit<8> x) { apply { x = x + 16w1; } }\nTop(Bad()) main;\n")
    with pytest.raises(CompileError) as info:
        _compile(tmp_path, text)
    assert info.value.message.startswith("operands of '+' have different types")


def test_valid_constructs_nothing_instantiates_compile(tmp_path: Path) -> None:
    """Control "Unused" holds most kinds of statement, call and expression; nothing
    instantiates it, so only the checker reads it, and it must accept all of it."""
    _compile(tmp_path, VALID)
    assert "control Unused" in VALID and "Unused()" not in VALID


# An ingress that compares with {#}: %s is its apply block (lowered, so through
# lower/equality.py rather than the checker).
COMPARING = """#include <v1model.p4>
header E { bit<8> v; }
header F { bit<8> v; }
header_union U { E e; F f; }
struct H { E e; F f; U u; E[2] st; } struct M { bit<8> m; }
parser P(packet_in p, out H h, inout M m, inout standard_metadata_t s) {
    state start { p.extract(h.e); transition accept; }
}
control C(inout H h, inout M m) { apply { } }
control I(inout H h, inout M m, inout standard_metadata_t s) { apply { %s } }
control D(packet_out p, in H h) { apply { p.emit(h.e); } }
V1Switch(P(), C(), I(), I(), C(), D()) main;
"""


@pytest.mark.parametrize("apply", [
    "if (h.e == {#}) { m.m = 1; }", "if ({#} != h.f) { m.m = 1; }",
    "if ((E){#} == h.e) { m.m = 1; }", "if (h.u == {#} || h.st[1] != {#}) { m.m = 1; }",
])
def test_a_header_compared_with_the_invalid_literal_compiles(tmp_path: Path, apply: str
                                                             ) -> None:
    _compile(tmp_path, COMPARING % apply)


@pytest.mark.parametrize("apply, message", [
    ("if (m.m == {#}) { }", "'{#}' is a header value: it cannot be compared with bit<8>"),
    ("if ((F){#} == h.e) { }", "operator '==' cannot be applied to F and E"),
])
def test_the_invalid_literal_compared_with_another_type_is_refused(
        tmp_path: Path, apply: str, message: str) -> None:
    with pytest.raises(CompileError) as info:
        _compile(tmp_path, COMPARING % apply)
    assert info.value.message == message


VALID = r"""
#include <core.p4>
#include <v1model.p4>
const bit<16> ETH_IPV4 = 0x0800;
const int W = 4;
typedef bit<48> mac_t;
type bit<9> port_t;
enum bit<8> Kind { A = 1, B = 2 }
enum Color { RED, GREEN }
header eth_t { mac_t dst; mac_t src; bit<16> type; }
header item_t { bit<8> v; }
header v4_t { bit<16> w; }
header v6_t { bit<32> d; }
header_union addr_u { v4_t v4; v6_t v6; }
struct inner_t { bit<(W)> nib; bool flag; }
struct H { eth_t eth; item_t[4] stk; addr_u addr; }
struct M { bit<32> idx; bit<8> k; inner_t in1; bit<16> h16; bit<32> r; Kind kind; Color c; port_t p; error err; }
struct learn_t { mac_t src; bit<9> port; }
bit<8> twice<T>(in bit<8> x, in T unused) { return x + x; }
bit<16> sum16(in bit<16> a, in bit<16> b = 1) { return a + b; }
void fill(out bit<8> o, inout bit<8> io) { o = 1; io = io + 1; }
bit<8> top_size() { return 8; }
action top_drop(inout standard_metadata_t sm) { mark_to_drop(sm); }
control Sub(inout H hdr, in bit<8> k) { apply { if (k == 1) { hdr.eth.type = 0; } } }
control Generic<T>(inout T x) { apply { } }
parser SubP(packet_in pkt, inout H hdr) { state start { pkt.extract(hdr.stk.next); transition accept; } }
parser P(packet_in pkt, out H hdr, inout M meta, inout standard_metadata_t sm) {
    value_set<bit<16>>(4) vs;
    SubP() sp;
    state start {
        pkt.extract(hdr.eth);
        bit<16> peek = pkt.lookahead<bit<16>>();
        verify(hdr.eth.type != 0 || peek == 0, error.NoMatch);
        transition select(hdr.eth.type, pkt.lookahead<bit<8>>()) {
            (ETH_IPV4, _): items;
            (0x86dd .. 0x86ff, 0 &&& 0xf0): v6;
            default: vsets;
        }
    }
    state vsets {
        transition select(hdr.eth.type) { vs: items; default: accept; }
    }
    state items {
        pkt.extract(hdr.stk.next);
        transition select(hdr.stk.last.v) { 0: accept; default: sub; }
    }
    state sub { sp.apply(pkt, hdr); transition select(hdr.stk.lastIndex) { 2: accept; default: items; } }
    state v6 { pkt.extract(hdr.addr.v6); pkt.advance(32); transition accept; }
}
extern Callback<T> { Callback(); void poke(); abstract T step(in T x, inout bit<8> n); }
extern Store { Store(bit<8> size); bit<16> get(in bit<16> i); }
control Unused(inout H hdr, inout M meta, inout standard_metadata_t sm) {
    Callback<bit<16>>() cb = {
        Store(8w4) store;
        bit<16> step(in bit<16> x, inout bit<8> count) {
            this.poke();
            count = count + 1;
            return x + store.get(ETH_IPV4);
        }
    };
    counter(32, CounterType.packets) c;
    direct_counter(CounterType.packets) dc;
    meter(32, MeterType.bytes) mt;
    register<bit<32>>(16) r1;
    register<bit<32>, bit<32>>(16) r2;
    action_selector(HashAlgorithm.crc16, 32w64, 32w14) sel;
    Sub() sub;
    Generic<M>() gen;
    action set(bit<8> v) { hdr.stk[0].v = v; dc.count(); }
    action set2(bit<8> v, bit<8> w) { hdr.stk[0].v = v + w; }
    action nothing() { }
    table t {
        key = { hdr.eth.dst: exact @name("dst"); hdr.eth.type: ternary; meta.idx: range; hdr.stk[0].isValid(): exact; meta.h16: selector; }
        actions = { set; nothing; @defaultonly .NoAction; top_drop(sm); }
        const default_action = nothing();
        size = 1024;
        counters = dc;
        implementation = sel;
        const entries = { (1, _, 1 .. 4, true): nothing(); }
    }
    table t2 { key = { meta.k: exact; } actions = { set2; } default_action = set2(1, 2); }
    apply {
        bit<8> i = 0;
        bit<8> a; bit<8> b = 3;
        fill(a, b);
        fill(_, b);
        hdr.stk[i].v = twice(8w3, true);
        hdr.stk[i + 1].setValid();
        hdr.stk.push_front(1);
        hdr.stk.pop_front(1);
        meta.h16 = sum16(3) + sum16(1, 2) + (bit<16>) hdr.stk.size;
        meta.in1.nib = (4w3 ++ 4w0) == 0 ? 4w1 : 4w2;
        meta.in1.flag = hdr.addr.isValid() && !hdr.addr.v4.isValid();
        meta.kind = Kind.A;
        if (meta.kind == Kind.B || meta.k == (bit<8>) Kind.A || meta.kind == 8w2) { meta.k = 1; }
        meta.c = Color.RED;
        if (meta.c != Color.GREEN) { meta.err = error.NoError; }
        if (sm.parser_error == error.PacketTooShort) { exit; }
        meta.p = (port_t) sm.ingress_port;
        sm.egress_spec = (bit<9>) meta.p;
        switch (t.apply().action_run) {
            set: { meta.k = 2; }
            nothing: { }
            default: { }
        }
        if (t2.apply().hit) { meta.k = meta.k |+| 1; } else if (!t2.apply().miss) { }
        switch (meta.k) { 1: { } 2: { } default: { } }
        c.count(meta.idx);
        c.count((bit<32>) meta.k);
        mt.execute_meter(meta.idx, meta.k);
        r1.read(meta.r, meta.idx);
        r2.write(0, meta.r);
        hash(meta.h16, HashAlgorithm.crc16, 16w0, { hdr.eth.src, hdr.eth.dst }, 32w1024);
        random(meta.r, 0, 255);
        digest<learn_t>(1, { hdr.eth.src, sm.ingress_port });
        digest(1, meta.in1);
        clone(CloneType.I2E, 5);
        clone_preserving_field_list(CloneType.E2E, 32w5, 1);
        resubmit_preserving_field_list(0);
        sub.apply(hdr, 1);
        gen.apply(meta);
        Sub.apply(hdr, meta.k);
        update_checksum(hdr.eth.isValid(), { hdr.eth.src }, meta.h16, HashAlgorithm.csum16);
        log_msg("x");
        log_msg("x {}", { meta.k });
        bit<32> big = 1 << 4;
        int<8> neg = -1;
        neg = neg - 8s2;
        bit<8> sl = hdr.eth.src[7:0];
        sl[3:0] = 4w1;
        bit<4> n2 = hdr.eth.type[15:8][3:0];
        bool bb = (bool) 1w1;
        bit<1> bit1 = (bit<1>) bb;
        tuple<bit<8>, bit<16>> tp = { 1, 2 };
        meta.k = tp[0];
        H copy = hdr;
        copy.eth = {#};
        item_t it = { v = 1 };
        eth_t e2 = { dst = 0, src = 0, type = ETH_IPV4 };
        if (hdr.eth == e2 || hdr.eth != copy.eth) { }
        meta.k = top_size();
        for (bit<8> j = 0; j < 4; j = j + 1) { if (j == 2) { break; } continue; }
        assert(true); assume(meta.k == 1);
        mark_to_drop(sm);
        truncate(64);
        static_assert(W == 4);
        const bit<8> LOCAL = 7;
        meta.k = LOCAL;
        meta.idx = (bit<32>) eth_t.minSizeInBytes() + (bit<32>) hdr.eth.minSizeInBits();
    }

}
control C(inout H hdr, inout M meta) { apply { } }
control I(inout H hdr, inout M meta, inout standard_metadata_t sm) { apply { } }
control D(packet_out pkt, in H hdr) { apply { pkt.emit(hdr.eth); pkt.emit(hdr); } }
V1Switch(P(), C(), I(), I(), C(), D()) main;
"""
