// Corpus 119: optional keys added at run time, with priorities
// An `optional` key either equals one value or is left out (a wildcard); a table with
// optional keys orders entries by priority like a ternary one (v1model.p4 `optional`
// match_kind; P4Runtime spec "Optional match"). STF omits a key to wildcard it.
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
    /* b1 and/or b2, each either exact or absent. */
    table classify {
        key = {
            hdr.data.b1: optional;
            hdr.data.b2: optional;
        }
        actions = { mark; NoAction; }
        default_action = mark(0xEEEE, 5);
    }
    apply {
        if (hdr.data.isValid()) {
            classify.apply();
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
