// Corpus 132: a table in the egress control keyed on egress_port
// Egress sees standard_metadata.egress_port, the port the ingress chose through
// egress_spec (BMv2 docs/simple_switch.md, standard metadata), and may match on it;
// the egress table rewrites the source MAC per output port.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header data_t {
    bit<32> f1;
    bit<32> f2;
    bit<16> h1;
    bit<8>  b1;
    bit<8>  b2;
}

struct headers_t {
    ethernet_t ethernet;
    data_t     data;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x88b5: parse_data;
            default: accept;
        }
    }
    state parse_data {
        pkt.extract(hdr.data);
        transition accept;
    }
}

control VerifyImpl(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    action to_port(bit<9> port) { std_meta.egress_spec = port; }
    /* Ingress chooses the port from b1. */
    table choose {
        key = { hdr.data.b1: exact; }
        actions = { to_port; NoAction; }
        default_action = to_port(5);
    }
    apply {
        if (hdr.data.isValid()) {
            choose.apply();
        } else {
            std_meta.egress_spec = 4;
        }
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {
    action smac(bit<48> mac) { hdr.ethernet.src_addr = mac; }
    /* Per-port source MAC. */
    table port_mac {
        key = { std_meta.egress_port: exact; }
        actions = { smac; NoAction; }
        default_action = smac(0xEEEEEEEEEEEE);
    }
    apply {
        port_mac.apply();
    }
}

control ComputeImpl(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.data);
    }
}

V1Switch(ParserImpl(), VerifyImpl(), IngressImpl(), EgressImpl(), ComputeImpl(),
         DeparserImpl()) main;
