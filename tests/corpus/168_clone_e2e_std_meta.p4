// Corpus 168: standard_metadata in egress for an E2E clone
// The E2E clone's egress_port is its session's port, its packet_length the original's, its
// instance_type 2 (simple_switch.md after-egress pseudocode: the clone's egress_port comes from
// the session; standard metadata initialised as for any packet starting egress).
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

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {
    apply {
        if (hdr.data.isValid()) {
            if (std_meta.instance_type == 0 && hdr.data.b1 == 1) {
                clone(CloneType.E2E, 32w7);
            }
            hdr.data.f1 = std_meta.packet_length;
            hdr.data.h1 = (bit<16>) std_meta.egress_port;
            hdr.data.b2 = (bit<8>) std_meta.instance_type;
        }
    }
}

control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.data);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
