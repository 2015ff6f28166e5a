"""UEC PDS layers: exact bytes and sizes of each header, dispatch on the type from UDP
port 4793, and the credit convention of CONTROL packets."""
import pytest
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import raw

from wire_formats.layers import (
    CC_TYPE_CREDIT,
    CC_TYPE_NSCC,
    CTL_CREDIT,
    CTL_CREDIT_REQUEST,
    PDS_ROD_CC_REQ,
    PDS_ROD_REQ,
    PDS_UUD_REQ,
    UDP_PORT_UEC,
    UecAck,
    UecAckCC,
    UecControl,
    UecNack,
    UecPds,
    UecRequest,
    UecRequestCC,
)


def test_request_bytes():
    req = UecRequest(next_hdr=1, retrans=1, syn=1, clear_psn_offset=0x10, psn=0x01020304,
                     spdcid=0x0A0B, dpdcid=0x0C0D)
    # type 2 | next header 1 | rsvd | retrans | ackreq | syn | rsvd
    assert raw(req).hex() == "1094" "0010" "01020304" "0a0b" "0c0d"


def test_request_cc_adds_ccc_id_and_credit_target():
    req = UecRequestCC(pds_type=PDS_ROD_CC_REQ, ccc_id=5, credit_target=0x010203)
    data = raw(req)
    assert len(data) == 16
    assert data[0] >> 3 == PDS_ROD_CC_REQ
    assert data[12:].hex() == "05010203"


def test_ack_bytes():
    ack = UecAck(ecn_marked=1, request=2, ack_psn_offset=1, cack_psn=100, spdcid=1, dpdcid=2)
    assert raw(ack).hex() == "3824" "0001" "00000064" "0001" "0002"


def test_ack_cc_with_credit_state():
    ack = UecAckCC(cc_type=CC_TYPE_CREDIT, sack_psn_offset=3, sack_bitmap=0x8000000000000001,
                   credit=0x000100, ooo_count=2)
    data = raw(ack)
    assert len(data) == 32
    assert data[12:16].hex() == "10000003"
    assert data[16:24].hex() == "8000000000000001"
    assert data[24:].hex() == "00010000" "0000" "0002"


def test_ack_cc_with_nscc_state():
    ack = UecAckCC(cc_type=CC_TYPE_NSCC, service_time=0x0102, restore_cwnd=1,
                   rcv_cwnd_pend=3, rcvd_bytes=0x040506, ooo_count=7)
    assert raw(ack)[24:].hex() == "0102" "83" "040506" "0007"


def test_nack_bytes():
    nack = UecNack(nack_code=1, nack_psn=5, spdcid=1, dpdcid=2)
    assert raw(nack).hex() == "5000" "0100" "00000005" "0001" "0002" "00000000"


def test_control_credit_bytes():
    ctl = UecControl(ctl_type=CTL_CREDIT, psn=1, spdcid=2, dpdcid=3, marked=1, credit=0x400)
    assert raw(ctl).hex() == "5b80" "0000" "00000001" "0002" "0003" "80000400"


@pytest.mark.parametrize("layer, cls", [
    (UecRequest(pds_type=PDS_ROD_REQ, psn=9), UecRequest),
    (UecRequestCC(credit_target=4), UecRequestCC),
    (UecAck(cack_psn=3), UecAck),
    (UecAckCC(cc_type=CC_TYPE_CREDIT, credit=8), UecAckCC),
    (UecNack(nack_psn=2), UecNack),
    (UecControl(ctl_type=CTL_CREDIT_REQUEST, credit=6), UecControl),
    (UecPds(pds_type=PDS_UUD_REQ), UecPds),
])
def test_udp_4793_dispatches_on_the_pds_type(layer, cls):
    pkt = Ether() / IP() / UDP(sport=40000, dport=UDP_PORT_UEC) / layer
    parsed = Ether(raw(pkt))
    pds = parsed[UDP].payload
    assert type(pds) is cls
    assert raw(pds) == raw(layer)
