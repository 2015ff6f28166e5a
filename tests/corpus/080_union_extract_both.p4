// Corpus 080: extracting into a second member of a header_union invalidates the member
// extracted before (P4_16 spec, "Header unions": at most one member is valid; BMv2
// HeaderUnion marks the others invalid when one becomes valid). The first member's bytes
// were consumed by the parser, so they are gone from the emitted packet.
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
    u_t        u;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.ctl);
        transition select(hdr.ctl.kind) {
            1: parse_a;
            3: parse_a_then_b;
            4: parse_b_then_a;
            default: accept;
        }
    }
    state parse_a {
        pkt.extract(hdr.u.a);
        transition accept;
    }
    state parse_a_then_b {
        pkt.extract(hdr.u.a);
        pkt.extract(hdr.u.b);
        transition accept;
    }
    state parse_b_then_a {
        pkt.extract(hdr.u.b);
        pkt.extract(hdr.u.a);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;

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
        pkt.emit(hdr.u);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
