"""tools/wireshark/p4fabric.lua decodes the fabric's headers as tshark sees them.

Packets are built with wire_formats/layers.py (and the collector's synthetic reports),
written to a pcap, dissected by the real tshark with the Lua script loaded, and each
decoded field (PDML ``show``, and the value name in ``showname``) is compared with what
was built. One test dissects the pcap a real p4sim-switch wrote with ``--pcap`` while it
ran build/fabric.json (programmed over P4Runtime) as an INT source and sink.

tshark is required: these tests fail when it is missing (Debian: apt-get install
--no-install-recommends tshark).
"""
from __future__ import annotations

import os
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Packet
from control.collector.conformance import check_datagram
from control.collector.synthetic import build_report
from wire_formats.layers import (CC_TYPE_CREDIT, CC_TYPE_NSCC, CTL_CREDIT, DSCP_INT, INT_ALL_SUPPORTED,
                            INT_BIT_HOP_LATENCY, INT_BIT_L1_PORTS, INT_UNAVAILABLE, NACK_TRIMMED,
                            REPORT_INNER_IPV4, REPORT_MD_DROP_REASON, REPORT_UDP_PORT, UDP_PORT_UEC,
                            IntHop, IntMD, IntReport, IntShim, ReportGroup, ReportIndividual,
                            UecAckCC, UecControl, UecNack, UecRequest, UecRequestCC, int_hop_words)
from control.p4rt.client import SwitchConnection
from control.p4rt.entities import INSERT, MODIFY, P4Names, clone_session, load_p4info, pre_update, update
from lab.namespace import Netns, can_run
from lab.packet_socket import receive
from p4sim.switch.pcap import PcapWriter

ROOT = Path(__file__).resolve().parents[2]
LUA = ROOT / "tools/wireshark/p4fabric.lua"
ETH = Ether(src="00:00:0a:00:01:01", dst="00:aa:00:00:00:01")
HOPS = [IntHop(node_id=0x30 - i, ingress_port=1 + i, egress_port=5 + i, hop_latency=700 + i,
               queue_id=i, queue_occupancy=40 + i, ingress_ts=(1 << 40) + i,
               egress_ts=(1 << 40) + 900 + i)
        for i in range(3)]  # newest first, as on the wire


def tshark_binary() -> str:
    path = shutil.which("tshark")
    assert path, ("tshark is not installed: DEBIAN_FRONTEND=noninteractive apt-get install -y -q "
                  "--no-install-recommends tshark")
    return path


@dataclass
class Dissected:
    """One frame's PDML: every field's (show, showname) in tree order, by name."""

    fields: dict[str, list[tuple[str, str]]] = field(default_factory=dict)

    def shows(self, name: str) -> list[str]:
        return [show for show, _ in self.fields.get(name, [])]

    def hex(self, name: str) -> list[str]:
        """Byte fields' values as plain hex (PDML separates the bytes with colons)."""
        return [show.replace(":", "") for show in self.shows(name)]

    def ints(self, name: str) -> list[int]:
        return [int(show, 0) for show in self.shows(name)]

    def one(self, name: str) -> int:
        values = self.ints(name)
        assert len(values) == 1, f"{name}: {values}"
        return values[0]

    def name_of(self, name: str) -> str:
        """The showname of the only occurrence of ``name``."""
        entries = self.fields.get(name, [])
        assert len(entries) == 1, f"{name}: {entries}"
        return entries[0][1]


def dissect(pcap: Path, *options: str, cut_inner: bool = False) -> list[Dissected]:
    """tshark's PDML for every frame of ``pcap``, with the Lua script loaded.
    ``cut_inner``: reports carry cut-short inner packets, which Wireshark's own UDP
    dissector calls malformed (a Lua sub-buffer cannot claim more bytes than it has)."""
    done = subprocess.run([tshark_binary(), "-X", f"lua_script:{LUA}", *options, "-r", str(pcap),
                           "-T", "pdml"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "Lua" not in done.stderr, done.stderr  # a script error is reported, not raised
    frames = []
    for packet in ET.fromstring(done.stdout).iter("packet"):
        frame = Dissected()
        for node in packet.iter():
            if node.tag in ("field", "proto") and node.get("name"):
                frame.fields.setdefault(node.get("name"), []).append(
                    (node.get("show", ""), node.get("showname", "")))
        # A script error or an out-of-bounds read shows in the tree, not in tshark's status.
        bad = {"_ws.lua.error"} if cut_inner else {"_ws.lua.error", "_ws.malformed"}
        assert not bad & frame.fields.keys(), frame.fields.get("_ws.expert.message")
        frames.append(frame)
    return frames


def dissect_packets(tmp_path: Path, packets: list[Packet | bytes], *options: str,
                    cut_inner: bool = False) -> list[Dissected]:
    pcap = tmp_path / "built.pcap"
    writer = PcapWriter(pcap)
    for packet in packets:
        writer.write(bytes(packet))
    writer.close()
    frames = dissect(pcap, *options, cut_inner=cut_inner)
    assert len(frames) == len(packets)
    return frames


def uec(payload: Packet, tos: int = 0, sport: int = 50001) -> Packet:
    return ETH / IP(src="10.0.1.1", dst="10.0.2.1", tos=tos) / UDP(sport=sport, dport=UDP_PORT_UEC) / payload


def int_packet(hops: list[IntHop], instructions: int = INT_ALL_SUPPORTED, dport: int = UDP_PORT_UEC,
               tail: Packet | bytes = b"data") -> Packet:
    words = [w for hop in hops for w in int_hop_words(instructions, hop)]
    return (ETH / IP(src="10.0.1.1", dst="10.0.2.1", tos=DSCP_INT << 2) / UDP(sport=50002, dport=dport)
            / IntShim(dscp=0x0A) / IntMD(remaining_hop_cnt=5, instruction_mask=instructions,
                                         domain_id=7, stack=words) / tail)


def test_lua_script_loads_for_this_user():
    """tshark may refuse user Lua scripts when run as root (init.lua's
    run_user_scripts_when_superuser): the protocols must be registered anyway."""
    done = subprocess.run([tshark_binary(), "-G", "protocols", "-X", f"lua_script:{LUA}"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    filters = {line.split("\t")[2] for line in done.stdout.splitlines() if line.count("\t") == 2}
    assert {"uec", "int", "intrep"} <= filters, f"uid {os.geteuid()}: {done.stderr}"


def test_uec_request_ack_cc_nack_and_credit(tmp_path):
    frames = dissect_packets(tmp_path, [
        uec(UecRequest(psn=77, spdcid=11, dpdcid=12, ackreq=1, clear_psn_offset=3) / b"payload"),
        uec(UecAckCC(cack_psn=100, ack_psn_offset=4, spdcid=12, dpdcid=11, ecn_marked=1,
                     sack_psn_offset=2, sack_bitmap=(1 << 63) | 0b101, cc_type=CC_TYPE_CREDIT,
                     credit=4096, ooo_count=3)),
        uec(UecAckCC(cack_psn=0xFFFFFFFF, sack_psn_offset=1, sack_bitmap=0b11, cc_type=CC_TYPE_NSCC,
                     service_time=250, restore_cwnd=1, rcv_cwnd_pend=9, rcvd_bytes=123456)),
        uec(UecNack(nack_psn=55, nack_code=NACK_TRIMMED, spdcid=12, dpdcid=11, nack_payload=0xCAFE)),
        uec(UecControl(ctl_type=CTL_CREDIT, psn=9, spdcid=3, dpdcid=4, credit=65536, marked=1)),
        uec(UecRequestCC(pds_type=14, psn=5, ccc_id=2, credit_target=1 << 20)),
    ])
    req, ack, nscc, nack, credit, rod_cc = frames

    assert req.one("uec.pds.type") == 2 and "RUD_REQ" in req.name_of("uec.pds.type")
    assert (req.one("uec.pds.psn"), req.one("uec.pds.spdcid"), req.one("uec.pds.dpdcid")) == (77, 11, 12)
    assert req.one("uec.pds.clear_psn_offset") == 3
    assert (req.one("uec.pds.flags.ackreq"), req.one("uec.pds.flags.syn")) == (1, 0)
    assert req.hex("data.data") == [b"payload".hex()]

    assert "ACK_CC" in ack.name_of("uec.pds.type")
    assert (ack.one("uec.pds.cack_psn"), ack.one("uec.pds.ack_psn_offset")) == (100, 4)
    assert ack.one("uec.pds.flags.ecn_marked") == 1
    assert ack.one("uec.pds.sack_bitmap") == (1 << 63) | 0b101
    assert ack.one("uec.pds.sack_psn_offset") == 2
    assert ack.one("uec.pds.cc_type") == CC_TYPE_CREDIT and "CREDIT" in ack.name_of("uec.pds.cc_type")
    assert (ack.one("uec.pds.credit"), ack.one("uec.pds.ooo_count")) == (4096, 3)
    # Bit i of the bitmap (least significant first) acknowledges CACK PSN + offset + i.
    assert ack.ints("uec.pds.sack_psn") == [102, 104, 165]
    assert ack.ints("uec.pds.service_time") == []

    assert "NSCC" in nscc.name_of("uec.pds.cc_type")
    assert nscc.one("uec.pds.service_time") == 250 and nscc.one("uec.pds.restore_cwnd") == 1
    assert (nscc.one("uec.pds.rcv_cwnd_pend"), nscc.one("uec.pds.rcvd_bytes")) == (9, 123456)
    assert nscc.ints("uec.pds.sack_psn") == [0, 1]  # PSNs wrap at 2^32

    assert "NACK" in nack.name_of("uec.pds.type")
    assert nack.one("uec.pds.nack_code") == NACK_TRIMMED and "TRIMMED" in nack.name_of("uec.pds.nack_code")
    assert (nack.one("uec.pds.nack_psn"), nack.one("uec.pds.nack_payload")) == (55, 0xCAFE)

    assert "CONTROL" in credit.name_of("uec.pds.type")
    assert credit.one("uec.pds.ctl_type") == CTL_CREDIT and "CREDIT" in credit.name_of("uec.pds.ctl_type")
    assert (credit.one("uec.pds.psn"), credit.one("uec.pds.credit")) == (9, 65536)
    assert credit.one("uec.pds.credit_marked") == 1
    assert credit.ints("uec.pds.next_hdr") == []

    assert "ROD_CC_REQ" in rod_cc.name_of("uec.pds.type")
    assert (rod_cc.one("uec.pds.ccc_id"), rod_cc.one("uec.pds.credit_target")) == (2, 1 << 20)


def test_trimmed_pds_header_is_decoded_as_far_as_present(tmp_path):
    whole = bytes(uec(UecRequest(psn=0x01020304, spdcid=9)))
    # A switch left 8 bytes of the 12-byte header (IPv4 and UDP lengths say so).
    cut = bytearray(whole[:14 + 20 + 8 + 8])
    struct.pack_into(">H", cut, 16, 20 + 8 + 8)
    struct.pack_into(">H", cut, 38, 8 + 8)
    (frame,) = dissect_packets(tmp_path, [cut])
    assert frame.one("uec.pds.psn") == 0x01020304
    assert frame.ints("uec.pds.spdcid") == []
    assert "uec.truncated" in frame.fields


def test_int_md_with_three_hops(tmp_path):
    plain_dscp = uec(UecRequest(psn=1), tos=DSCP_INT << 2)  # INT DSCP, but no shim: not INT
    frames = dissect_packets(tmp_path, [int_packet(HOPS, tail=UecRequest(psn=8, spdcid=5) / b"abc"),
                                        int_packet(HOPS[:1], dport=5000), plain_dscp])
    pkt, other_port, not_int = frames
    assert pkt.one("int.shim.type") == 1 and "INT-MD" in pkt.name_of("int.shim.type")
    assert pkt.one("int.shim.npt") == 0
    assert pkt.one("int.shim.length") == 3 + 9 * len(HOPS)
    assert pkt.one("int.shim.dscp") == 0x0A
    assert pkt.one("int.md.version") == 2
    assert pkt.one("int.md.hop_ml") == 9 and pkt.one("int.md.remaining_hop_cnt") == 5
    assert pkt.one("int.md.domain_id") == 7
    assert pkt.one("int.md.instructions") == INT_ALL_SUPPORTED
    assert ("(node_id, l1_ports, hop_latency, queue, ingress_ts, egress_ts, tx_util)"
            in pkt.name_of("int.md.instructions"))
    assert (pkt.one("int.md.instr.node_id"), pkt.one("int.md.instr.l2_ports")) == (1, 0)
    assert pkt.one("int.md.hops") == 3
    assert pkt.ints("int.hop.index") == [0, 1, 2]
    for name in ("node_id", "ingress_port", "egress_port", "hop_latency", "queue_id",
                 "queue_occupancy", "ingress_ts", "egress_ts"):
        assert pkt.ints(f"int.hop.{name}") == [getattr(h, name) for h in HOPS], name
    assert pkt.ints("int.hop.tx_util") == [INT_UNAVAILABLE] * 3
    assert all("unavailable" in showname for _, showname in pkt.fields["int.hop.tx_util"])
    assert pkt.ints("int.hop.l2_ingress_port") == []
    # After the stack, the UEC header of the packet INT rides on.
    assert (pkt.one("uec.pds.psn"), pkt.one("uec.pds.spdcid")) == (8, 5)

    assert other_port.ints("int.hop.node_id") == [HOPS[0].node_id]  # found by DSCP, not port
    assert other_port.hex("data.data") == [b"data".hex()]
    assert not_int.ints("int.shim.type") == [] and not_int.one("uec.pds.psn") == 1


def test_int_dscp_is_a_preference(tmp_path):
    """A build with another INT_DSCP: INT is decoded once the preference says so."""
    pkt = int_packet(HOPS[:2])
    pkt[IP].tos = 0x20 << 2
    assert dissect_packets(tmp_path, [pkt])[0].ints("int.hop.node_id") == []
    (frame,) = dissect_packets(tmp_path, [pkt], "-o", "int.dscp:32")
    assert frame.ints("int.hop.node_id") == [HOPS[0].node_id, HOPS[1].node_id]


def test_int_over_tcp_is_found_by_its_dscp(tmp_path):
    words = int_hop_words(INT_ALL_SUPPORTED, HOPS[0])
    pkt = (ETH / IP(tos=DSCP_INT << 2) / TCP(sport=1234, dport=5201, flags="A")
           / IntShim(dscp=0) / IntMD(instruction_mask=INT_ALL_SUPPORTED, stack=words) / b"tcpdata")
    (frame,) = dissect_packets(tmp_path, [pkt])
    assert frame.ints("int.hop.node_id") == [HOPS[0].node_id]


def test_report_carrying_an_int_packet(tmp_path):
    payload = build_report(HOPS, seq=42, instructions=INT_ALL_SUPPORTED, psn=12, hw_id=5, domain_id=7)
    assert len(check_datagram(payload, {DSCP_INT})) == 1  # a conformant report
    pkt = (Ether() / IP(src="192.168.100.1", dst="192.168.100.2")
           / UDP(sport=40000, dport=REPORT_UDP_PORT) / payload)
    (frame,) = dissect_packets(tmp_path, [pkt])
    assert frame.one("intrep.version") == 2 and frame.one("intrep.hw_id") == 5
    assert frame.one("intrep.seq") == 42 and frame.one("intrep.node_id") == HOPS[0].node_id
    assert frame.one("intrep.rep_type") == 1 and "INT" in frame.name_of("intrep.rep_type")
    assert frame.one("intrep.in_type") == REPORT_INNER_IPV4 and "IPv4" in frame.name_of("intrep.in_type")
    assert frame.one("intrep.report_length") == (len(payload) - 12) // 4
    assert frame.one("intrep.md_length") == 0 and frame.one("intrep.rep_md_bits") == 0
    assert (frame.one("intrep.d"), frame.one("intrep.f")) == (0, 1)
    assert frame.one("intrep.domain_id") == 7
    # The inner packet goes to Wireshark's own IPv4 dissector, then to INT and UEC.
    assert frame.shows("ip.dst") == ["192.168.100.2", "10.0.2.1"]
    assert frame.ints("int.hop.node_id") == [h.node_id for h in HOPS]
    assert frame.ints("int.hop.egress_ts") == [h.egress_ts for h in HOPS]
    assert frame.one("uec.pds.psn") == 12


def test_report_with_a_cut_short_inner_packet(tmp_path):
    """Reports end the inner packet where the sink's inner_bytes says: INT is whole,
    the UEC header decoded as far as present."""
    inner_headers = 20 + 8 + 16 + 4 * 9 * len(HOPS)
    payload = build_report(HOPS, seq=7, instructions=INT_ALL_SUPPORTED, psn=99,
                           inner_bytes=inner_headers + 8)  # PDS prologue, offset and PSN
    assert len(check_datagram(payload, {DSCP_INT})) == 1
    pkt = Ether() / IP() / UDP(sport=40000, dport=REPORT_UDP_PORT) / payload
    (frame,) = dissect_packets(tmp_path, [pkt], cut_inner=True)
    assert frame.one("intrep.seq") == 7
    assert frame.ints("int.hop.node_id") == [h.node_id for h in HOPS]
    assert frame.one("uec.pds.psn") == 99 and frame.ints("uec.pds.spdcid") == []
    assert "uec.truncated" in frame.fields


def test_report_with_rep_md_bits_and_domain_specific_metadata(tmp_path):
    """The reporting node's own metadata per RepMdBits, then DS metadata, then a
    second individual report (Inner Only, IPv4)."""
    bits = INT_BIT_L1_PORTS | INT_BIT_HOP_LATENCY | REPORT_MD_DROP_REASON
    own = [(3 << 16) | 4, 999, (6 << 24) | (0x21 << 16)]  # ports, latency, queue 6 + drop 0x21
    ds_word = 0xDEADBEEF
    inner = bytes(IP(src="10.0.1.1", dst="10.0.2.1") / UDP(sport=50003, dport=UDP_PORT_UEC)
                  / UecRequest(psn=31))
    inner_only = bytes(ReportIndividual(rep_type=0, in_type=REPORT_INNER_IPV4, md_length=0) / inner)
    payload = bytes(ReportGroup(node_id=9, seq_no=0x3FFFFF)
                    / ReportIndividual(in_type=REPORT_INNER_IPV4, d=1, q=1)
                    / IntReport(rep_md_bits=bits, domain_id=0x0101, ds_md_bits=0x8000,
                                metadata=[*own, ds_word]) / inner) + inner_only
    assert len(check_datagram(payload, {DSCP_INT})) == 2
    pkt = Ether() / IP() / UDP(sport=40000, dport=REPORT_UDP_PORT) / payload
    (frame,) = dissect_packets(tmp_path, [pkt])
    assert frame.one("intrep.seq") == 0x3FFFFF
    assert frame.ints("intrep.report_index") == [0, 1]
    assert frame.ints("intrep.rep_type") == [1, 0]
    assert frame.ints("intrep.md_length") == [4, 0]
    assert (frame.ints("intrep.d"), frame.ints("intrep.q")) == ([1, 0], [1, 0])
    assert frame.one("intrep.rep_md_bits") == bits
    assert "(l1_ports, hop_latency, drop_reason)" in frame.name_of("intrep.rep_md_bits")
    assert frame.one("intrep.rep_md_bits.hop_latency") == 1 and frame.one("intrep.rep_md_bits.queue") == 0
    assert (frame.one("intrep.md.ingress_port"), frame.one("intrep.md.egress_port")) == (3, 4)
    assert frame.one("intrep.md.hop_latency") == 999
    assert (frame.one("intrep.md.queue_id"), frame.one("intrep.md.drop_reason")) == (6, 0x21)
    assert (frame.one("intrep.ds_md_bits"), frame.one("intrep.domain_id")) == (0x8000, 0x0101)
    assert frame.hex("intrep.ds_md") == [struct.pack(">I", ds_word).hex()]
    assert frame.ints("uec.pds.psn") == [31, 31]  # both inner packets decoded


# ---------------------------------------------------------------- a real switch's capture
P4INFO = ROOT / "build/fabric.p4info.txtpb"
FABRIC_JSON = ROOT / "build/fabric.json"
GRPC_PORT = 9559
ROUTER_MAC = "00:aa:00:00:00:01"
HOST_MAC = "00:00:0a:00:02:01"
COLLECTOR_MAC = "00:00:00:00:c0:11"
NODE_ID = 0x0A0B0C0D
REPORT_SESSION = 100
HOST_PORT, COLLECTOR_PORT = 2, 4


def _program(address: str) -> None:
    """One switch that is INT source and sink for 10.0.2.1 (behind port 2), with reports
    to a collector behind port 4: the INT setup of control/demo.py, without spraying."""
    p4info = load_p4info(str(P4INFO))
    names = P4Names(p4info)
    conn = SwitchConnection(address, device_id=0, election_id=1)
    conn.connect(timeout=60)  # generous: a loaded 2-core machine
    with conn:
        conn.set_pipeline(p4info, FABRIC_JSON.read_bytes())
        conn.write([update(INSERT, action_profile_member=names.member(
            "FabricIngress.routing.multipath_selector", 1, "FabricIngress.routing.forward",
            {"port": HOST_PORT, "src_mac": ROUTER_MAC, "dst_mac": HOST_MAC, "member_index": HOST_PORT}))])
        conn.write([
            update(INSERT, table_entry=names.table_entry(
                "FabricIngress.routing.next_hops", {"group_id": 1}, member_id=1)),
            update(INSERT, table_entry=names.table_entry(
                "FabricIngress.routing.routes", {"partition": 0, "ipv4_dst": "10.0.2.0/24"},
                "FabricIngress.routing.set_group", {"group": 1})),
            update(MODIFY, table_entry=names.default_entry(
                "FabricEgress.int_egress.int_node", "FabricEgress.int_egress.set_int_node",
                {"node_id": NODE_ID, "int_dscp": DSCP_INT})),
            update(INSERT, table_entry=names.table_entry(
                "FabricEgress.int_egress.int_source.int_watchlist",
                {"ipv4_dst": "10.0.2.1&&&255.255.255.255"}, "FabricEgress.int_egress.int_source.start_int",
                {"instructions": INT_ALL_SUPPORTED, "hop_budget": 4, "domain_id": 1}, priority=10)),
            update(INSERT, table_entry=names.table_entry(
                "FabricEgress.int_egress.int_sink.int_sink_ports", {"egress_port": HOST_PORT},
                "FabricEgress.int_egress.int_sink.set_int_sink", {"report_session": REPORT_SESSION})),
            update(MODIFY, table_entry=names.default_entry(
                "FabricEgress.int_egress.int_report.report_encap",
                "FabricEgress.int_egress.int_report.set_report_encap",
                {"src_mac": ROUTER_MAC, "dst_mac": COLLECTOR_MAC, "src_ip": "192.168.100.1",
                 "collector_ip": "192.168.100.2", "src_port": 40000,
                 "collector_port": REPORT_UDP_PORT, "hw_id": 3, "inner_bytes": 256})),
        ])
        conn.write([pre_update(INSERT, clone_session(REPORT_SESSION, COLLECTOR_PORT))])


def test_capture_of_a_real_switch_run(tmp_path):
    tshark_binary()
    # Missing prerequisites fail the test: `make test` runs as root after `make build`.
    assert can_run(), "needs root and ip netns"
    assert FABRIC_JSON.exists() and P4INFO.exists(), "build/fabric.* missing: run `make build`"
    pcaps = tmp_path / "pcap"
    psn = 4242
    sent = (Ether(src="00:00:0a:00:01:01", dst=ROUTER_MAC) / IP(src="10.0.1.1", dst="10.0.2.1")
            / UDP(sport=51000, dport=UDP_PORT_UEC, chksum=0) / UecRequest(psn=psn, spdcid=21, dpdcid=22)
            / (b"p" * 32))
    with Netns(f"wsd{os.getpid()}", [1, HOST_PORT, COLLECTOR_PORT]) as ns:
        switch = ns.start_switch(["--no-p4", "-i", "1@s1", "-i", f"{HOST_PORT}@s{HOST_PORT}",
                                  "-i", f"{COLLECTOR_PORT}@s{COLLECTOR_PORT}", "--pcap", str(pcaps),
                                  "--", "--grpc-server-addr", f"127.0.0.1:{GRPC_PORT}", "--cpu-port", "255"])
        _program(ns.forward_tcp(GRPC_PORT).address)
        host, collector = ns.host_socket(HOST_PORT), ns.host_socket(COLLECTOR_PORT)
        ns.host_socket(1).send(bytes(sent))
        assert len(receive(host, 1, 20)) == 1, switch.stderr[-2000:]
        assert len(receive(collector, 1, 20)) == 1, switch.stderr[-2000:]
        status, err = switch.terminate()  # closes (and so completes) its pcap files
        assert status == 0, err[-2000:]
    delivered = dissect(pcaps / f"s{HOST_PORT}_out.pcap")
    reports = dissect(pcaps / f"s{COLLECTOR_PORT}_out.pcap")
    assert len(delivered) == 1 and len(reports) == 1
    # The sink stripped INT before delivering: a plain UEC request.
    assert delivered[0].one("uec.pds.psn") == psn and delivered[0].ints("int.shim.type") == []
    report = reports[0]
    assert report.one("intrep.node_id") == NODE_ID and report.one("intrep.hw_id") == 3
    assert report.one("intrep.seq") == 0 and "IPv4" in report.name_of("intrep.in_type")
    # The embedded packet: this switch's single hop, then the UEC header.
    assert report.ints("int.hop.node_id") == [NODE_ID]
    assert (report.one("int.hop.ingress_port"), report.one("int.hop.egress_port")) == (1, HOST_PORT)
    assert report.one("int.md.instructions") == INT_ALL_SUPPORTED
    assert (report.one("uec.pds.psn"), report.one("uec.pds.spdcid"),
            report.one("uec.pds.dpdcid")) == (psn, 21, 22)
