// Corpus 371: a header compared with the invalid-header literal: "h == {#}" holds iff h
// is invalid, "{#} != h" iff it is valid (either side, a cast "(T){#}", a local header
// never made valid, header stack elements, and the comparison's value kept in a bool).
#include <core.p4>
#include <v1model.p4>

header tag_t {
    bit<8> a;
    bit<8> b;
}

header opt_t {
    bit<8> p;
    bit<8> q;
}

header item_t { bit<8> v; }

struct headers_t {
    tag_t     tag;
    opt_t     opt;
    item_t[2] stk;
}

struct meta_t { bool none; }

parser TagParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.tag);
        transition select(hdr.tag.a) {
            1: parse_opt;
            2: parse_opt;
            default: accept;
        }
    }
    state parse_opt {
        pkt.extract(hdr.opt);
        transition select(hdr.tag.a) {
            2: parse_item;
            default: accept;
        }
    }
    state parse_item {
        pkt.extract(hdr.stk.next);
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Compare(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action classify() {
        meta.none = hdr.opt == {#};
    }
    apply {
        sm.egress_spec = 2;
        hdr.tag.b = 0;
        opt_t fresh;
        if (hdr.opt == {#}) { hdr.tag.b = hdr.tag.b | 0x01; }
        if ({#} != hdr.opt) { hdr.tag.b = hdr.tag.b | 0x02; }
        if ((opt_t){#} == hdr.opt) { hdr.tag.b = hdr.tag.b | 0x04; }
        if (fresh == {#}) { hdr.tag.b = hdr.tag.b | 0x08; }
        if (hdr.stk[0] != {#}) { hdr.tag.b = hdr.tag.b | 0x10; }
        if ({#} == hdr.stk[1]) { hdr.tag.b = hdr.tag.b | 0x20; }
        classify();
        if (meta.none) { hdr.tag.a = hdr.tag.a | 0x80; }
    }
}

control NoEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { }
}

control NoCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control TagDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.tag);
        pkt.emit(hdr.opt);
        pkt.emit(hdr.stk);
    }
}

V1Switch(TagParser(), NoVerify(), Compare(), NoEgress(), NoCompute(), TagDeparser()) main;
