// Corpus 111: range match at its boundaries
// `range` const entries match lo <= key <= hi inclusive (P4_16 spec, match_kind range;
// BMv2 docs/JSON_format.md range tables): lo and hi match, lo-1 and hi+1 miss; a
// one-value range and a range ending at the field's maximum. Entries do not overlap.
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
    action mark(bit<8> tag, bit<9> port) {
        hdr.data.b1 = tag;
        std_meta.egress_spec = port;
    }
    /* Disjoint ranges on h1. */
    table by_range {
        key = { hdr.data.h1: range; }
        actions = { mark; NoAction; }
        default_action = mark(0xEE, 5);
        const entries = {
            16w0x0010 .. 16w0x001F : mark(1, 2);
            16w0x0020 .. 16w0x0020 : mark(2, 3);
            16w0x8000 .. 16w0xFFFF : mark(3, 4);
        }
    }
    apply {
        if (hdr.data.isValid()) {
            by_range.apply();
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
