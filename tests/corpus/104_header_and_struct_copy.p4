// Corpus 104: whole-header assignment between two instances of one header type copies
// fields and validity, so an invalid source invalidates the destination (P4_16 spec,
// header assignment; BMv2 assign_header, bm_sim core primitives); a struct assignment
// copies every field of the struct.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header ctl_t {
    bit<8> op;
    bit<8> p;
    bit<8> q;
}

header v_t {
    bit<16> v;
}

struct pair_t {
    bit<8> p;
    bit<8> q;
}

struct headers_t {
    ethernet_t ethernet;
    ctl_t      ctl;
    v_t        a;
    v_t        b;
}

struct metadata_t {
    pair_t first;
    pair_t second;
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.ctl);
        transition select(hdr.ctl.op) {
            1: parse_a;
            2: parse_b;
            default: parse_both;
        }
    }
    state parse_a {
        pkt.extract(hdr.a);
        transition accept;
    }
    state parse_b {
        pkt.extract(hdr.b);
        transition accept;
    }
    state parse_both {
        pkt.extract(hdr.a);
        pkt.extract(hdr.b);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        meta.first.p = hdr.ctl.q;
        meta.first.q = hdr.ctl.p;
        meta.second = meta.first;
        hdr.ctl.p = meta.second.p;
        hdr.ctl.q = meta.second.q;
        hdr.b = hdr.a;
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
        pkt.emit(hdr.ctl);
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
