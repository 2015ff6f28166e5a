// Corpus 093: select on a tuple of three fields with don't-care (_) components and
// default; cases are tried in order and the first match wins (P4_16 spec, "select
// expressions"). BMv2 matches the concatenated key against value/mask pairs in order
// (JSON_format.md, parser "transitions").
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header d_t {
    bit<8>  a;
    bit<4>  b;
    bit<4>  c;
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
        transition select(hdr.d.a, hdr.d.b, hdr.d.c) {
            (1, 2, 3): p1;
            (1, _, 3): p2;
            (_, 2, _): p3;
            (1, _, _): p4;
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
