"""fabric.p4 compiles with our compiler, without warnings, and exposes the P4Runtime
names that the controller, the PTF tests and p4src/README.md rely on."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
from google.protobuf import text_format
from p4.config.v1 import p4info_pb2

from control.controller.int_dscp import IntDscpError, check_int_dscp, parsed_int_dscp
from wire_formats.layers import DSCP_INT, DSCP_INT_MASK
from p4sim.compiler.frontend import parse_program

FABRIC = Path(__file__).resolve().parents[2] / "p4src" / "fabric.p4"

TABLES = {
    "FabricIngress.partition.partitions",
    "FabricIngress.packet_io.punt_rules",
    "FabricIngress.routing.routes",
    "FabricIngress.routing.multipath_modes",
    "FabricIngress.routing.multipath_class_modes",
    "FabricIngress.routing.next_hops",
    "FabricIngress.credit_marking.credit_bands",
    "FabricIngress.trimming.trim_thresholds",
    "FabricIngress.trimming.trim_classes",
    "FabricEgress.partition_check.port_partitions",
    "FabricEgress.ecn.ecn_thresholds",
    "FabricEgress.int_egress.int_node",
    "FabricEgress.int_egress.int_source.int_watchlist",
    "FabricEgress.int_egress.int_sink.int_sink_ports",
    "FabricEgress.int_egress.int_report.report_encap",
}
COUNTERS = {
    "FabricIngress.port_rx",
    "FabricEgress.port_tx",
    "FabricIngress.partition_drops",
    "FabricEgress.partition_check.cross_partition_drops",
    "FabricIngress.routing.member_packets",
    "FabricIngress.routing.ttl_expired",
    "FabricIngress.trimming.trimmed_packets",
    "FabricEgress.trim.trimmed_by_queue",
    "FabricIngress.credit_marking.credits_marked",
    "FabricIngress.credit_marking.credits_dropped",
    "FabricEgress.int_egress.int_report.int_reports",
}


def test_front_end_parses_fabric():
    program = parse_program(str(FABRIC))
    assert program.declarations


def compiler_command() -> list[str]:
    """The compiler the Makefile selected (TARGET=p4sim: p4sim-compile; TARGET=bmv2:
    p4c-bm2-ss), so the same test checks whichever toolchain is in use."""
    chosen = os.environ.get("P4C")
    if chosen:
        return [chosen]
    return [sys.executable, "-m", "p4sim.compiler.cli"]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    out = tmp_path_factory.mktemp("fabric")
    json_path, p4info_path = out / "fabric.json", out / "fabric.p4info.txtpb"
    proc = subprocess.run(
        [*compiler_command(), "--arch", "v1model", "-o", str(json_path),
         "--p4runtime-files", str(p4info_path), str(FABRIC)],
        capture_output=True, text=True, timeout=600)
    return proc, json_path, p4info_path


def test_compiles_without_warnings(compiled):
    proc, json_path, _ = compiled
    assert proc.returncode == 0, proc.stderr
    # p4c 1.2.4.8 warns about default actions of every action-selector table ("... due
    # to action profiles"; p4sim-compile: "... with an action profile or selector");
    # nothing else may warn.
    warnings = [line for line in proc.stderr.splitlines() if "warning" in line.lower()
                and not ("default" in line and "action profile" in line)]
    assert not warnings, proc.stderr
    assert json_path.stat().st_size > 0


def test_p4info_names_the_configurable_objects(compiled):
    proc, _, p4info_path = compiled
    assert proc.returncode == 0, proc.stderr
    info = text_format.Parse(p4info_path.read_text(), p4info_pb2.P4Info())
    tables = {t.preamble.name for t in info.tables}
    assert TABLES <= tables
    assert COUNTERS <= {c.preamble.name for c in info.counters}
    assert {"FabricIngress.routing.multipath_selector"} <= {
        p.preamble.name for p in info.action_profiles}
    assert {"FabricIngress.credit_marking.credit_rate",
            "FabricIngress.trimming.data_rate"} <= {m.preamble.name for m in info.meters}
    # BMv2's P4Runtime server cannot write parser value sets: INT is recognised by a
    # compile-time DSCP instead, so nothing the fabric needs may be a value set.
    assert not info.value_sets
    headers = {h.preamble.name for h in info.controller_packet_metadata}
    assert headers == {"packet_in", "packet_out"}


def test_int_is_parsed_by_the_compile_time_dscp(compiled):
    proc, json_path, _ = compiled
    assert proc.returncode == 0, proc.stderr
    config = json_path.read_bytes()
    assert parsed_int_dscp(config) == (DSCP_INT, DSCP_INT_MASK)
    check_int_dscp(config, DSCP_INT)
    with pytest.raises(IntDscpError, match=r"0x18 is not parsed as INT .* -DINT_DSCP=0x18"):
        check_int_dscp(config, 0x18, where=str(json_path))


def test_int_dscp_is_a_compile_time_define(tmp_path):
    """-DINT_DSCP moves what the parser treats as INT (and the controller reads it)."""
    json_path = tmp_path / "fabric.json"
    proc = subprocess.run(
        [*compiler_command(), "--arch", "v1model", "-DINT_DSCP=0x20", "-DINT_DSCP_MASK=0x20",
         "-o", str(json_path), "--p4runtime-files", str(tmp_path / "fabric.p4info.txtpb"),
         str(FABRIC)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert parsed_int_dscp(json_path.read_bytes()) == (0x20, 0x20)
    check_int_dscp(json_path.read_bytes(), 0x3F)   # any DSCP with bit 0x20 set
    with pytest.raises(IntDscpError):
        check_int_dscp(json_path.read_bytes(), DSCP_INT)
