// Corpus 013: several parser states chained by select with default, so that which
// headers are valid depends on the path taken.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header a_t {
    bit<8> next;
    bit<8> mark;
}

header b_t {
    bit<8> mark;
}

struct headers_t {
    ethernet_t ethernet;
    a_t        a;
    b_t        b;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x1234: parse_a;
            0x5678: parse_b;
            default: accept;
        }
    }
    state parse_a {
        pkt.extract(hdr.a);
        transition select(hdr.a.next) {
            1: parse_b;
            default: accept;
        }
    }
    state parse_b {
        pkt.extract(hdr.b);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        if (hdr.a.isValid()) {
            hdr.a.mark = 0xAA;
        }
        if (hdr.b.isValid()) {
            hdr.b.mark = 0xBB;
        }
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {
    apply { }
}

control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
