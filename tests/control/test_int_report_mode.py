"""The policy's int.report_mode reaches the sinks: read from the policy file (default
"changes", a wrong value refused with its field), and programmed by the controller as
the default action of the report-mode table of every switch that sends reports."""
from pathlib import Path

import pytest

from control.controller.int_report_mode import (LATENCY_STEP_US, QUEUE_STEP_PACKETS,
                                                REPORT_MODE_TABLE, report_mode_action)
from control.controller.program import FabricPlan, switch_items
from control.errors import ConfigError
from control.p4rt.entities import P4Names, load_p4info
from control.policy import load_policy
from control.routing import compute_routes
from control.topology import load_topology

ROOT = Path(__file__).resolve().parents[2]
P4INFO = ROOT / "build" / "fabric.p4info.txtpb"
DEFINES = ROOT / "p4src" / "include" / "define.p4"


def _policy(tmp_path: Path, mode_line: str):
    topo = load_topology(str(ROOT / "topologies/two_leaves.toml"))
    text = (ROOT / "topologies/two_leaves.policy.toml").read_text()
    text = text.replace("[int]\n", f"[int]\n{mode_line}\n", 1)
    path = tmp_path / "policy.toml"
    path.write_text(text)
    return topo, load_policy(str(path), topo)


def test_mode_defaults_to_changes_and_reads_every_packet(tmp_path):
    assert _policy(tmp_path, "")[1].int.report_mode == "changes"
    assert _policy(tmp_path, 'report_mode = "every_packet"')[1].int.report_mode == "every_packet"


def test_a_wrong_mode_is_refused_with_its_field(tmp_path):
    with pytest.raises(ConfigError, match="int.report_mode.*'always' is not one of"):
        _policy(tmp_path, 'report_mode = "always"')


def test_controller_programs_the_mode_on_reporting_switches(tmp_path):
    if not P4INFO.exists():
        pytest.fail(f"{P4INFO} is missing: run `make build` first")
    names = P4Names(load_p4info(str(P4INFO)))
    table_id = names.id("tables", REPORT_MODE_TABLE)
    for mode in ("changes", "every_packet"):
        topo, policy = _policy(tmp_path, f'report_mode = "{mode}"')
        plan = FabricPlan(topo, policy)
        routes = compute_routes(topo, destinations=plan.destinations)
        for switch in ("leaf1", "leaf2"):
            entries = [it.entity.table_entry for it in switch_items(names, plan, switch, routes)
                       if it.entity.WhichOneof("entity") == "table_entry"
                       and it.entity.table_entry.table_id == table_id]
            assert len(entries) == 1 and entries[0].is_default_action
            action, params = report_mode_action(mode)
            assert entries[0].action.action.action_id == names.id("actions", action)
            assert len(entries[0].action.action.params) == len(params)


def test_controller_defaults_are_the_pipeline_defaults():
    text = DEFINES.read_text()
    assert f"REPORT_LATENCY_STEP = {LATENCY_STEP_US};" in text
    assert f"REPORT_QUEUE_STEP = {QUEUE_STEP_PACKETS};" in text
    with pytest.raises(ValueError, match="not one of changes, every_packet"):
        report_mode_action("sometimes")
