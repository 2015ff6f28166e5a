"""Which actions P4Info lists: p4c serializes P4Info after its front end, which inlines
calls of actions inside actions and then removes unused actions, so actions called
directly from an apply block are listed like table actions; unused and @hidden ones,
and those only other actions call, are not. A call from an
apply block binds every parameter, so such an action is listed with none (recorded:
corpus 025's set_port, and p4c's JSON copy of 025's IngressImpl.add_to for its direct
call has no runtime data)."""
from __future__ import annotations

from pathlib import Path

import pytest

from p4sim.compiler.driver import compile_program
from p4sim.compiler.p4info import build_p4info

PROGRAM = """
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; }
struct headers_t { h_t h; }
struct meta_t { }
parser P(packet_in p, out headers_t h, inout meta_t m, inout standard_metadata_t s) {
    state start { p.extract(h.h); transition accept; }
}
control V(inout headers_t h, inout meta_t m) { apply { } }
action global_mark(inout bit<8> x) { x = 1; }
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t s) {
    action set_port(bit<9> port) { s.egress_spec = port; }
    action never_used() { }
    @hidden action hidden_helper() { }
    action marker() { global_mark(h.h.a); }
    action add_to(inout bit<8> x, bit<8> amount) { x = x + amount; }
    action drop() { mark_to_drop(s); }
    table t {
        key = { h.h.a : exact; }
        actions = { drop; add_to(h.h.a); }
    }
    apply {
        set_port(3);
        marker();
        hidden_helper();
        add_to(h.h.a, 1);
        t.apply();
    }
}
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t s) { apply { } }
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out p, in headers_t h) { apply { p.emit(h.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"""


def listed_actions(tmp_path: Path, program: str = PROGRAM) -> dict[str, list[tuple[str, int]]]:
    source = tmp_path / "called_actions.p4"
    source.write_text(program)
    info = build_p4info(compile_program(str(source)).control_plane)
    return {a.preamble.name: [(p.name, p.bitwidth) for p in a.params] for a in info.actions}


def test_directly_called_actions_are_listed_and_unused_ones_are_not(tmp_path: Path) -> None:
    actions = listed_actions(tmp_path)
    assert actions["I.set_port"] == []  # the call set_port(3) binds port
    assert actions["I.marker"] == []
    # called only from another action: inlined there, then unused (ONOS int.p4's P4Info)
    assert "global_mark" not in actions
    assert "I.never_used" not in actions
    assert "I.hidden_helper" not in actions


def test_a_table_action_keeps_the_parameters_its_entries_supply(tmp_path: Path) -> None:
    # add_to is called directly (both arguments) and used by t with x bound: the table's
    # view, the one a controller writes entries against, is the one listed.
    assert listed_actions(tmp_path)["I.add_to"] == [("amount", 8)]


def test_actions_are_listed_in_declaration_order(tmp_path: Path) -> None:
    # NoAction: t declares no default_action, so its default is an implicit NoAction()
    assert list(listed_actions(tmp_path)) == [
        "NoAction", "I.set_port", "I.marker", "I.add_to", "I.drop"]


@pytest.mark.parametrize("stop", ["exit", "return"])
def test_an_action_called_only_after_exit_or_return_is_still_listed(tmp_path: Path,
                                                                     stop: str) -> None:
    # p4c's sample global_action_after_exit.p4: `exit; do_action(h.eth_hdr);` and its
    # P4Info lists do_action, although the call never runs.
    program = PROGRAM.replace("action never_used() { }",
                              "action never_used() { }\n    action late() { }").replace(
        "t.apply();\n    }", f"t.apply();\n        {stop};\n        late();\n    }}")
    assert "late();" in program
    names = listed_actions(tmp_path, program)
    assert "I.late" in names
    assert "I.never_used" not in names
