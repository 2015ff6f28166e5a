"""The statement walk the passes share: bottom-up, every kind of body, identity kept
where nothing changes."""
from __future__ import annotations

from p4sim.compiler import ast
from p4sim.compiler.frontend import parse_text
from p4sim.compiler.midend.walk import map_program, map_statement
from p4sim.compiler.unparse import unparse

from me_helpers import declaration, parse, source


def _rename_exits(s: ast.Statement) -> ast.Statement:
    """Every 'exit;' becomes 'return;' (a change the walk must carry upwards)."""
    return ast.ReturnStatement(span=s.span) if isinstance(s, ast.ExitStatement) else s


def test_statements_are_seen_innermost_first() -> None:
    seen: list[str] = []

    def record(s: ast.Statement) -> ast.Statement:
        seen.append(type(s).__name__)
        return s

    program = parse("if (hdr.h.a == 1) { hdr.h.b = 1; } else { exit; }")
    map_statement(declaration(program, "I").apply, record)  # type: ignore[attr-defined]
    assert seen == ["Assignment", "Assignment", "BlockStatement", "ExitStatement",
                    "BlockStatement", "IfStatement", "BlockStatement"]


def test_every_kind_of_body_is_walked() -> None:
    text = source("switch (hdr.h.a) { 1: { exit; } }", locals_="action a() { exit; }",
                  globals_="void f() { if (true) { exit; } }")
    text = text.replace("state start { p.extract(hdr.h); transition accept; }",
                        "state start { p.extract(hdr.h); { exit; } transition accept; }")
    out = unparse(map_program(parse_text(text), _rename_exits))
    assert "exit" not in out
    assert out.count("return;") == 4


def test_parser_states_and_loops_can_be_skipped() -> None:
    text = source("for (bit<8> i = 0; i < 2; i = i + 1) { exit; }")
    text = text.replace("state start { p.extract(hdr.h); transition accept; }",
                        "state start { p.extract(hdr.h); { exit; } transition accept; }")
    program = parse_text(text)
    assert map_program(program, _rename_exits, parser_states=False) is not program
    skipped = map_program(program, _rename_exits, parser_states=False)
    assert "exit;" in unparse(declaration(skipped, "P"))
    apply = declaration(program, "I").apply  # type: ignore[attr-defined]
    assert map_statement(apply, _rename_exits, loops=False) is apply


def test_untouched_declarations_are_the_same_objects() -> None:
    program = parse("exit;")
    out = map_program(program, _rename_exits)
    changed = [d for d, old in zip(out.declarations, program.declarations) if d is not old]
    assert [getattr(d, "name", None) for d in changed] == ["I"]
    assert map_program(program, lambda s: s) is program
