// Corpus 098: select on a tuple of an extracted field and a lookahead of the bytes not
// yet extracted (P4_16 spec, "select" and "Lookahead"; BMv2 JSON_format.md builds the key
// from "field" and "lookahead" parts). The looked-at byte is extracted afterwards, so it
// is emitted once.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header t_t {
    bit<8> t;
}

header n_t {
    bit<8> n;
    bit<8> path;
}

struct headers_t {
    ethernet_t ethernet;
    t_t        t;
    n_t        n;
}

struct metadata_t {
    bit<8> path;
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.t);
        transition select(hdr.t.t, pkt.lookahead<bit<8>>()) {
            (1, 1): p1;
            (1, _): p2;
            (_, 0xFF): p3;
            default: p4;
        }
    }
    state p1 {
        meta.path = 1;
        transition parse_n;
    }
    state p2 {
        meta.path = 2;
        transition parse_n;
    }
    state p3 {
        meta.path = 3;
        transition parse_n;
    }
    state p4 {
        meta.path = 4;
        transition parse_n;
    }
    state parse_n {
        pkt.extract(hdr.n);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        hdr.n.path = meta.path;
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
        pkt.emit(hdr.t);
        pkt.emit(hdr.n);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
