"""fabricctl refuses an INT policy whose DSCP the compiled fabric does not parse as INT
(the INT DSCP is fixed at compile time), before it touches any switch."""
from __future__ import annotations

import json
import tomllib
from pathlib import Path

from control import fabricctl

ROOT = Path(__file__).resolve().parents[2]
TOPOLOGY = ROOT / "topologies/two_leaves.toml"
POLICY = ROOT / "topologies/two_leaves.policy.toml"


def test_run_refuses_an_int_dscp_the_build_does_not_parse(tmp_path, capsys):
    document = tomllib.loads(POLICY.read_text())
    document["int"]["dscp"] = 0x18
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps(document))
    device = tmp_path / "fabric.json"   # only the parser matters: INT_DSCP 0x17 / 0x3f
    device.write_text(json.dumps({
        "header_types": [{"name": "ipv4_t", "fields": [["dscp", 6, False]]}],
        "headers": [{"name": "ipv4", "header_type": "ipv4_t"}],
        "parsers": [{"parse_states": [{
            "name": "check_int", "transition_key": [{"type": "field", "value": ["ipv4", "dscp"]}],
            "transitions": [{"type": "hexstr", "value": "0x17", "mask": "0x3f",
                             "next_state": "check_int_shim"}]}]}]}))
    p4info = tmp_path / "fabric.p4info.txtpb"
    p4info.write_text("")
    status = fabricctl.main(["run", "--topology", str(TOPOLOGY), "--policy", str(policy),
                             "--p4info", str(p4info), "--json", str(device), "--once"])
    assert status == 2
    err = capsys.readouterr().err
    assert f"{policy}: int.dscp: INT DSCP 0x18 is not parsed as INT by {device}" in err
    assert "-DINT_DSCP=0x18" in err
