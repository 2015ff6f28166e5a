"""The reference STF tests (checked on real BMv2 with p4c's JSON) pass on the p4sim
switch with the JSON our compiler produces."""
from __future__ import annotations

import pytest

from be_helpers import REFERENCE
from p4sim.stf.cli import run_stf_test


@pytest.mark.parametrize("name", ["l3_lpm", "replication", "stack_and_queues"])
def test_reference_stf_passes_with_our_json(name):
    result = run_stf_test(str(REFERENCE / "p4" / f"{name}.p4"),
                          str(REFERENCE / "stf" / f"{name}.stf"), "p4sim")
    assert result.passed, result.report
