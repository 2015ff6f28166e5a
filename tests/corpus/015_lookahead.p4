// Corpus 015: lookahead<bit<8>>() chooses the next state without consuming the
// byte it looks at.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header small_t {
    bit<8> kind;
    bit<8> v;
}

header big_t {
    bit<8>  kind;
    bit<24> v;
}

struct headers_t {
    ethernet_t ethernet;
    small_t    small;
    big_t      big;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(pkt.lookahead<bit<8>>()) {
            0x01: parse_small;
            0x02: parse_big;
            default: accept;
        }
    }
    state parse_small {
        pkt.extract(hdr.small);
        transition accept;
    }
    state parse_big {
        pkt.extract(hdr.big);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 4;
        if (hdr.small.isValid()) {
            hdr.small.v = hdr.small.v + 1;
            std_meta.egress_spec = 2;
        }
        if (hdr.big.isValid()) {
            hdr.big.v = hdr.big.v + 1;
            std_meta.egress_spec = 3;
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
        pkt.emit(hdr.small);
        pkt.emit(hdr.big);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
