// Corpus 130: `t.apply().hit` and `u.apply().miss`
// `hit` is true when an entry matched, even one whose action is NoAction, and false
// when the default action ran, even a default that does something; `miss` is its
// negation (P4_16 spec, "Match-action unit invocation"; BMv2 docs/JSON_format.md
// "__HIT__"/"__MISS__" next tables).
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header data_t {
    bit<32> f1;
    bit<32> f2;
    bit<16> h1;
    bit<8>  b1;
    bit<8>  b2;
}

struct headers_t {
    ethernet_t ethernet;
    data_t     data;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x88b5: parse_data;
            default: accept;
        }
    }
    state parse_data {
        pkt.extract(hdr.data);
        transition accept;
    }
}

control VerifyImpl(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    action set_b2(bit<8> v) { hdr.data.b2 = v; }
    action set_h1(bit<16> v) { hdr.data.h1 = v; }
    /* Hit entries may run NoAction. */
    table t {
        key = { hdr.data.b1: exact; }
        actions = { set_b2; NoAction; }
        default_action = set_b2(0xEE);
    }
    /* A default that does something still counts as a miss. */
    table u {
        key = { hdr.data.b2: exact; }
        actions = { set_h1; NoAction; }
        default_action = set_h1(0xDDDD);
    }
    apply {
        std_meta.egress_spec = 2;
        if (!hdr.data.isValid()) {
            exit;
        }
        if (t.apply().hit) {
            hdr.data.f1 = 0x11111111;
        } else {
            hdr.data.f1 = 0x22222222;
        }
        if (u.apply().miss) {
            hdr.data.f2 = 0x33333333;
        }
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) { apply { } }

control ComputeImpl(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.data);
    }
}

V1Switch(ParserImpl(), VerifyImpl(), IngressImpl(), EgressImpl(), ComputeImpl(),
         DeparserImpl()) main;
