// Corpus 372: a header union compared with the invalid-header literal: "u == {#}" holds
// iff no member of u is valid (P4_16 "header unions"), "{#} != u" iff one is.
#include <core.p4>
#include <v1model.p4>

header tag_t {
    bit<8> a;
    bit<8> b;
}

header v4_t { bit<16> w; }
header v6_t { bit<32> d; }

header_union addr_u {
    v4_t v4;
    v6_t v6;
}

struct headers_t {
    tag_t  tag;
    addr_u addr;
}

struct meta_t { bit<8> unused; }

parser TagParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.tag);
        transition select(hdr.tag.a) {
            4: parse_v4;
            6: parse_v6;
            default: accept;
        }
    }
    state parse_v4 {
        pkt.extract(hdr.addr.v4);
        transition accept;
    }
    state parse_v6 {
        pkt.extract(hdr.addr.v6);
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Compare(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.tag.b = 0;
        if (hdr.addr == {#}) { hdr.tag.b = hdr.tag.b | 0x01; }
        if ({#} != hdr.addr) { hdr.tag.b = hdr.tag.b | 0x02; }
        if (hdr.addr.v6 == {#}) { hdr.tag.b = hdr.tag.b | 0x04; }
    }
}

control NoEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { }
}

control NoCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control TagDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.tag);
        pkt.emit(hdr.addr);
    }
}

V1Switch(TagParser(), NoVerify(), Compare(), NoEgress(), NoCompute(), TagDeparser()) main;
