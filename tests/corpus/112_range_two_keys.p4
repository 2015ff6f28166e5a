// Corpus 112: a table with two range keys
// An entry matches when both keys fall in their ranges (P4_16 spec, match_kind range);
// the const entries are disjoint, so no priority question arises; a key in range on
// one field only misses (BMv2 docs/JSON_format.md, range tables).
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
    action mark(bit<16> tag, bit<9> port) {
        hdr.data.h1 = tag;
        std_meta.egress_spec = port;
    }
    /* A grid of (b1, b2) ranges. */
    table grid {
        key = {
            hdr.data.b1: range;
            hdr.data.b2: range;
        }
        actions = { mark; NoAction; }
        default_action = mark(0xEEEE, 5);
        const entries = {
            (8w0 .. 8w9, 8w0 .. 8w9) : mark(1, 2);
            (8w0 .. 8w9, 8w10 .. 8w255) : mark(2, 3);
            (8w10 .. 8w19, 8w0 .. 8w255) : mark(3, 4);
        }
    }
    apply {
        if (hdr.data.isValid()) {
            grid.apply();
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
