// Corpus 319: controller packet I/O in the style of p4-guide's PSA/v1model packet-in and
// packet-out demos: a packet_out header with an opcode (send to a port as given, or
// submit to the pipeline as if it came in on a port) and a packet_in header with the
// ingress port, a punt reason (serializable enums) and a copy of a metadata field;
// punting by a ternary ACL and on IPv4 TTL expiry, a unicast L2 table otherwise.
#include <core.p4>
#include <v1model.p4>

#define CPU_PORT 64

enum bit<8> ControllerOpcode_t {
    NO_OP                   = 0,
    SEND_TO_PORT_IN_OPERAND = 1,
    PROCESS_AS_FROM_PORT    = 2
}

enum bit<8> PuntReason_t {
    UNRECOGNIZED_OPCODE = 1,
    ACL_PUNT            = 2,
    TTL_EXPIRED         = 3
}

@controller_header("packet_out")
header packet_out_header_t {
    ControllerOpcode_t opcode;
    bit<7>             reserved1;
    bit<9>             operand0;
}

@controller_header("packet_in")
header packet_in_header_t {
    bit<7>       pad0;
    bit<9>       input_port;
    PuntReason_t punt_reason;
    bit<8>       vlan_pcp;
}

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header ipv4_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  diffserv;
    bit<16> total_len;
    bit<16> identification;
    bit<3>  flags;
    bit<13> frag_offset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdr_checksum;
    bit<32> src_addr;
    bit<32> dst_addr;
}

struct headers_t {
    packet_in_header_t  packet_in;
    packet_out_header_t packet_out;
    ethernet_t          ethernet;
    ipv4_t              ipv4;
}

struct metadata_t {
    bit<9> effective_port;
    bool   punt;
    PuntReason_t punt_reason;
}

parser ParserImpl(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t stdmeta) {
    state start {
        meta.effective_port = stdmeta.ingress_port;
        transition select(stdmeta.ingress_port) {
            CPU_PORT: parse_packet_out;
            default: parse_ethernet;
        }
    }

    state parse_packet_out {
        packet.extract(hdr.packet_out);
        transition parse_ethernet;
    }

    state parse_ethernet {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition accept;
    }
}

control VerifyChecksumImpl(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t stdmeta) {
    action punt(PuntReason_t reason) {
        meta.punt = true;
        meta.punt_reason = reason;
        stdmeta.egress_spec = CPU_PORT;
    }

    action acl_punt() {
        punt(PuntReason_t.ACL_PUNT);
    }

    action acl_drop() {
        mark_to_drop(stdmeta);
    }

    table acl {
        key = {
            meta.effective_port    : ternary @name("in_port");
            hdr.ethernet.dst_addr  : ternary @name("dst_mac");
            hdr.ethernet.ether_type : ternary @name("ether_type");
        }
        actions = {
            acl_punt;
            acl_drop;
            NoAction;
        }
        const default_action = NoAction();
    }

    action l2_forward(bit<9> port) {
        stdmeta.egress_spec = port;
    }

    table l2 {
        key = {
            hdr.ethernet.dst_addr : exact @name("dst_mac");
        }
        actions = {
            l2_forward;
            @defaultonly acl_drop;
        }
        const default_action = acl_drop();
    }

    apply {
        meta.punt = false;
        meta.punt_reason = PuntReason_t.UNRECOGNIZED_OPCODE;
        if (hdr.packet_out.isValid()) {
            if (hdr.packet_out.opcode == ControllerOpcode_t.SEND_TO_PORT_IN_OPERAND) {
                stdmeta.egress_spec = hdr.packet_out.operand0;
                hdr.packet_out.setInvalid();
                return;
            } else if (hdr.packet_out.opcode == ControllerOpcode_t.PROCESS_AS_FROM_PORT) {
                meta.effective_port = hdr.packet_out.operand0;
                hdr.packet_out.setInvalid();
            } else {
                punt(PuntReason_t.UNRECOGNIZED_OPCODE);
                hdr.packet_out.setInvalid();
                return;
            }
        }
        l2.apply();
        if (hdr.ipv4.isValid() && hdr.ipv4.ttl <= 1) {
            punt(PuntReason_t.TTL_EXPIRED);
        }
        acl.apply();
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t stdmeta) {
    apply {
        if (stdmeta.egress_port == CPU_PORT && meta.punt) {
            hdr.packet_in.setValid();
            hdr.packet_in.pad0 = 0;
            hdr.packet_in.input_port = meta.effective_port;
            hdr.packet_in.punt_reason = meta.punt_reason;
            hdr.packet_in.vlan_pcp = 0;
        }
    }
}

control ComputeChecksumImpl(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control DeparserImpl(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.packet_in);
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
    }
}

V1Switch(ParserImpl(), VerifyChecksumImpl(), IngressImpl(), EgressImpl(),
         ComputeChecksumImpl(), DeparserImpl()) main;
