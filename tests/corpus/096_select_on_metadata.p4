// Corpus 096: select on a metadata field computed in the parser from two header fields
// (P4_16 spec: a select key is any expression; p4c puts the value in a field BMv2 keys
// on, JSON_format.md "transition_key"). The sum wraps in 8 bits.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header d_t {
    bit<8> x;
    bit<8> y;
    bit<8> path;
}

struct headers_t {
    ethernet_t ethernet;
    d_t        d;
}

struct metadata_t {
    bit<8> sum;
    bit<8> path;
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.d);
        meta.sum = hdr.d.x + hdr.d.y;
        transition select(meta.sum) {
            0: p_zero;
            0x10: p_sixteen;
            default: p_other;
        }
    }
    state p_zero {
        meta.path = 1;
        transition accept;
    }
    state p_sixteen {
        meta.path = 2;
        transition accept;
    }
    state p_other {
        meta.path = 3;
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
