// Corpus 094: overlapping masked select cases on one 16-bit field: the first case that
// matches wins even when a later one is more specific (P4_16 spec, "select
// expressions"; BMv2 tries transitions in JSON order). An exact value listed after a
// mask that covers it is never reached.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header d_t {
    bit<16> k;
    bit<8>  path;
}

struct headers_t {
    ethernet_t ethernet;
    d_t        d;
}

struct metadata_t {
    bit<8> path;
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.d);
        transition select(hdr.d.k) {
            0x0A00 &&& 0xFF00: p1;
            0x0A0B: p2;
            0x000B &&& 0x00FF: p3;
            0x0000 &&& 0x8000: p4;
            default: p5;
        }
    }
    state p1 {
        meta.path = 1;
        transition accept;
    }
    state p2 {
        meta.path = 2;
        transition accept;
    }
    state p3 {
        meta.path = 3;
        transition accept;
    }
    state p4 {
        meta.path = 4;
        transition accept;
    }
    state p5 {
        meta.path = 5;
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        hdr.d.path = meta.path;
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
        pkt.emit(hdr.d);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
