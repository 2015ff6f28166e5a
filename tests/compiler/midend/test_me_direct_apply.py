"""The direct-application pass: ``Sub.apply(...)`` on a control type gets an instance
``Sub$direct`` of its own, named for the control plane as the type is."""
from __future__ import annotations

from pathlib import Path

from p4sim.compiler import ast
from p4sim.compiler.driver import compile_program
from p4sim.compiler.midend.direct_apply import instantiate_direct_applications
from p4sim.compiler.unparse import unparse

from me_helpers import apply_text, declaration, parse, run_stf, source, write

SUB = """
control Sub(inout bit<8> v) {
    action set(bit<8> x) { v = x; }
    table t { key = { v: exact; } actions = { set; NoAction; } default_action = NoAction; }
    apply { t.apply(); }
}
control Twice(inout bit<8> v) { apply { v = v + v; } }
"""


def _locals(program: ast.Program, control: str = "I") -> list[str]:
    decl = declaration(program, control)
    return [unparse(d).strip() for d in decl.locals]  # type: ignore[attr-defined]


def test_each_applied_type_gets_one_instance_and_every_call_uses_it() -> None:
    program = parse("Sub.apply(hdr.h.a); Twice.apply(hdr.h.b); Sub.apply(hdr.h.b);",
                    globals_=SUB)
    out = instantiate_direct_applications(program)
    assert _locals(out) == ['@name("Sub") Sub() Sub$direct;',
                            '@name("Twice") Twice() Twice$direct;']
    assert apply_text(out) == ("{ s.egress_spec = 2; Sub$direct.apply(hdr.h.a); "
                               "Twice$direct.apply(hdr.h.b); Sub$direct.apply(hdr.h.b); }")


def test_applications_nested_in_branches_are_found() -> None:
    program = parse("if (hdr.h.a == 1) { Twice.apply(hdr.h.b); } else { "
                    "switch (hdr.h.b) { 2: { Twice.apply(hdr.h.a); } } }", globals_=SUB)
    out = instantiate_direct_applications(program)
    assert _locals(out) == ['@name("Twice") Twice() Twice$direct;']
    assert "Twice.apply" not in apply_text(out)
    assert apply_text(out).count("Twice$direct.apply") == 2


def test_the_type_name_annotation_names_the_instance() -> None:
    program = parse("Renamed.apply(hdr.h.a);", globals_="""
@name("ingress_stage") control Renamed(inout bit<8> v) { apply { v = 1; } }""")
    out = instantiate_direct_applications(program)
    assert _locals(out) == ['@name("ingress_stage") Renamed() Renamed$direct;']


def test_names_redeclared_in_the_control_are_not_the_type() -> None:
    for locals_, body in (
            ("Twice() Twice;", "Twice.apply(hdr.h.a);"),         # an instance called so
            ("", "{ bit<8> Twice = 1; } Sub.apply(hdr.h.a);")):  # a block variable
        program = parse(body, locals_=locals_, globals_=SUB)
        out = instantiate_direct_applications(program)
        assert "Twice$direct" not in apply_text(out)
    # Sub (not redeclared) is still instantiated beside a redeclared Twice
    assert _locals(out) == ['@name("Sub") Sub() Sub$direct;']


def test_controls_with_constructor_parameters_and_instances_are_left_alone() -> None:
    program = parse("two.apply(hdr.h.a);", locals_="Scaled(2) two;", globals_="""
control Scaled(inout bit<8> v)(bit<8> k) { apply { v = v * k; } }""")
    assert instantiate_direct_applications(program) is program


def test_tables_inside_keep_the_names_p4c_gives_them(tmp_path: Path) -> None:
    result = compile_program(str(write(tmp_path, source("Sub.apply(hdr.h.a);",
                                                         globals_=SUB))))
    assert [t.name for t in result.control_plane.tables] == ["I.Sub.t"]
    ingress = result.bmv2_json["pipelines"][0]
    assert "I.Sub.t" in [t["name"] for t in ingress["tables"]]


def test_directly_applied_controls_run(tmp_path: Path) -> None:
    text = source("Twice.apply(hdr.h.a); Twice.apply(hdr.h.b);", globals_=SUB)
    result = run_stf(tmp_path, text, """
packet 0 03 05
expect 2 06 0a
""")
    assert result.passed, result.report


SUB_PARSER = """
parser Sub(packet_in p, out h_t x) {
    state start { p.extract(x); transition accept; }
}
"""


def _two_header_program(states: str) -> str:
    """The test frame with a second header ``g`` parsed by ``states``."""
    text = source("hdr.g.a = hdr.h.a + hdr.g.b;", globals_="")
    text = text.replace("struct headers_t { h_t h; }", "struct headers_t { h_t h; h_t g; }")
    text = text.replace("state start { p.extract(hdr.h); transition accept; }", states)
    text = text.replace("p.emit(hdr.h);", "p.emit(hdr.h); p.emit(hdr.g);")
    return text.replace("parser P(", SUB_PARSER + "parser P(")


TWO_STATES = ("state start { Sub.apply(p, hdr.h); transition next; }\n"
              "    state next { Sub.apply(p, hdr.g); transition accept; }")


def test_parser_states_apply_sub_parser_types_through_an_instance() -> None:
    from p4sim.compiler.frontend import parse_text
    out = instantiate_direct_applications(parse_text(_two_header_program(TWO_STATES)))
    parser = declaration(out, "P")
    assert [unparse(d).strip() for d in parser.locals] == [  # type: ignore[attr-defined]
        '@name("Sub") Sub() Sub$direct;']
    calls = [unparse(s).strip() for state in parser.states  # type: ignore[attr-defined]
             for s in state.statements]
    assert calls == ["Sub$direct.apply(p, hdr.h);", "Sub$direct.apply(p, hdr.g);"]


def test_directly_applied_sub_parsers_run(tmp_path: Path) -> None:
    text = _two_header_program(TWO_STATES)
    states = [s["name"] for s in compile_program(str(write(tmp_path, text)))
              .bmv2_json["parsers"][0]["parse_states"]]
    assert states == ["start", "P_Sub_start", "start_after_P_Sub", "next",
                      "P_Sub_1_start", "next_after_P_Sub_1"]
    result = run_stf(tmp_path, text, """
packet 0 03 05 07 09
expect 2 03 05 0c 09
""")
    assert result.passed, result.report
