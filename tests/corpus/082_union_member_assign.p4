// Corpus 082: assigning a valid header to a header_union member makes that member valid
// with the copied fields and the other member invalid (P4_16 spec, "Header unions";
// BMv2 assign_header marks the destination valid, and a union keeps one valid member).
// kind 1 parses u.a and a separate b_t header `extra`, then copies extra into u.b.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header ctl_t {
    bit<8> kind;
    bit<8> res;
}

header a_t {
    bit<16> x;
}

header b_t {
    bit<32> y;
}

header_union u_t {
    a_t a;
    b_t b;
}

struct headers_t {
    ethernet_t ethernet;
    ctl_t      ctl;
    b_t        extra;
    u_t        u;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.ctl);
        pkt.extract(hdr.extra);
        transition select(hdr.ctl.kind) {
            1: parse_a;
            default: accept;
        }
    }
    state parse_a {
        pkt.extract(hdr.u.a);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        hdr.u.b = hdr.extra;
        hdr.extra.setInvalid();

        hdr.ctl.res = 0;
        if (hdr.u.a.isValid()) {
            hdr.ctl.res = hdr.ctl.res | 1;
        }
        if (hdr.u.b.isValid()) {
            hdr.ctl.res = hdr.ctl.res | 2;
        }
        if (hdr.u.isValid()) {
            hdr.ctl.res = hdr.ctl.res | 0x80;
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
        pkt.emit(hdr.ctl);
        pkt.emit(hdr.extra);
        pkt.emit(hdr.u);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
