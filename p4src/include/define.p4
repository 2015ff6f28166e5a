// Types and protocol constants shared by every control of the fabric pipeline.
#ifndef FABRIC_DEFINE_P4
#define FABRIC_DEFINE_P4

typedef bit<9>  port_num_t;
typedef bit<48> mac_addr_t;
typedef bit<32> ipv4_addr_t;
typedef bit<16> l4_port_t;
typedef bit<12> vlan_id_t;
typedef bit<8>  partition_id_t;
typedef bit<16> group_id_t;
typedef bit<32> node_id_t;
typedef bit<6>  dscp_t;
typedef bit<32> queue_depth_t;
typedef bit<32> clone_session_t;

const port_num_t CPU_PORT = 255;

const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<16> ETHERTYPE_VLAN = 0x8100;
const bit<8>  IP_PROTO_TCP = 6;
const bit<8>  IP_PROTO_UDP = 17;
const bit<2>  ECN_CE = 3;

// UEC transport over UDP, and the PDS packet types the switch acts on.
const l4_port_t UDP_PORT_UEC = 4793;
const bit<5> PDS_TYPE_RUD_REQ = 2;
const bit<5> PDS_TYPE_ROD_REQ = 3;
const bit<5> PDS_TYPE_RUDI_REQ = 4;
const bit<5> PDS_TYPE_UUD_REQ = 6;
const bit<5> PDS_TYPE_CONTROL = 11;
const bit<5> PDS_TYPE_RUD_CC_REQ = 13;
const bit<5> PDS_TYPE_ROD_CC_REQ = 14;
const bit<4> PDS_CTL_CREDIT = 7;

// Multipath modes, chosen per (partition, protocol class), else per group.
const bit<2> MP_MODE_ECMP = 0;
const bit<2> MP_MODE_ENTROPY = 1;
const bit<2> MP_MODE_ROUND_ROBIN = 2;

// RoCEv2 over UDP; its entropy (one per queue pair) is the UDP source port.
const l4_port_t UDP_PORT_ROCEV2 = 4791;
// Protocol classes keying multipath_class_modes (control/controller/program.py).
const bit<3> MP_CLASS_OTHER = 0;
const bit<3> MP_CLASS_UEC = 1;
const bit<3> MP_CLASS_ROCEV2 = 2;
const bit<3> MP_CLASS_TCP = 3;
const bit<3> MP_CLASS_OTHER_UDP = 4;

// Reasons carried in the packet_in header.
const bit<8> PUNT_REASON_ACL = 1;

// INT-MD v2.1 over TCP/UDP.
// A TCP/UDP packet whose DSCP equals INT_DSCP under INT_DSCP_MASK carries an INT
// shim after its L4 header (the spec lets a domain signal INT by a DSCP value or
// bit). Fixed at compile time, not a parser value set, because BMv2's P4Runtime
// server cannot write value sets; override with -DINT_DSCP=... -DINT_DSCP_MASK=...
#ifndef INT_DSCP
#define INT_DSCP 0x17
#endif
#ifndef INT_DSCP_MASK
#define INT_DSCP_MASK 0x3f
#endif
const bit<4>  INT_TYPE_MD = 1;
const bit<4>  INT_VERSION = 2;
const bit<8>  INT_MD_HEADER_WORDS = 3;
// Instruction bitmap: bit 0 is the most significant bit of the 16-bit field.
const bit<16> INT_BIT_NODE_ID = 0x8000;
const bit<16> INT_BIT_L1_PORTS = 0x4000;
const bit<16> INT_BIT_HOP_LATENCY = 0x2000;
const bit<16> INT_BIT_QUEUE = 0x1000;
const bit<16> INT_BIT_INGRESS_TS = 0x0800;
const bit<16> INT_BIT_EGRESS_TS = 0x0400;
const bit<16> INT_BIT_L2_PORTS = 0x0200;
const bit<16> INT_BIT_TX_UTIL = 0x0100;
const bit<16> INT_BIT_BUFFER = 0x0080;
const bit<32> INT_UNAVAILABLE = 0xffffffff;

// Telemetry Report v2.0.
const bit<4> REPORT_VERSION = 2;
const bit<4> REPORT_TYPE_INT = 1;
const bit<4> REPORT_INNER_IPV4 = 4;
// Bytes before the inner packet in a report: Ethernet, IPv4, UDP, group (8),
// individual (4) and INT report main contents (8). The sink's own metadata
// travels in the embedded INT stack, so RepMdBits and MD Length are 0.
const bit<16> REPORT_FIXED_BYTES = 62;
const bit<16> REPORT_INT_MAIN_BYTES = 8;
// Report Length is 8 bits of words: main contents plus inner packet fit 1020 B.
const bit<16> REPORT_INNER_MAX_BYTES = 1012;
// IPv4 Don't Fragment: the spec asks for DF or non-repeating IDs on reports.
const bit<3> IPV4_FLAGS_DF = 2;
// Report suppression: buckets of the sink's hop latency (us) and queue depth
// (packets) start at these steps and grow fourfold.
const bit<32> REPORT_LATENCY_STEP = 4096;
const bit<32> REPORT_QUEUE_STEP = 4;

// v1model instance types.
const bit<32> INSTANCE_EGRESS_CLONE = 2;

// Field list preserved from a sink packet into its telemetry report copy.
const bit<8> FIELD_LIST_INT_REPORT = 1;

// Meter colours.
const bit<2> METER_RED = 2;

#endif
