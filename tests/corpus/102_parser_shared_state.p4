// Corpus 102: two parser paths that meet in one shared state (a diamond): the shared
// state runs once on either path and sees the headers and metadata the path set (P4_16
// spec, "Parser states"; BMv2 JSON parse_states with two transitions to one state).
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header k_t {
    bit<8> k;
}

header a_t {
    bit<8> a;
}

header b_t {
    bit<16> b;
}

header c_t {
    bit<8> c;
    bit<8> via;
}

struct headers_t {
    ethernet_t ethernet;
    k_t        k;
    a_t        a;
    b_t        b;
    c_t        c;
}

struct metadata_t {
    bit<8> via;
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.k);
        transition select(hdr.k.k) {
            1: parse_a;
            2: parse_b;
            default: accept;
        }
    }
    state parse_a {
        pkt.extract(hdr.a);
        meta.via = 0xA;
        transition parse_c;
    }
    state parse_b {
        pkt.extract(hdr.b);
        meta.via = 0xB;
        transition parse_c;
    }
    state parse_c {
        pkt.extract(hdr.c);
        meta.via = meta.via + 0x10;
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        if (hdr.c.isValid()) {
            hdr.c.via = meta.via;
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
        pkt.emit(hdr.k);
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
        pkt.emit(hdr.c);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
