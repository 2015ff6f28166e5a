// Corpus 110: a table mixing an exact and a ternary key
// With any ternary key the table is a ternary table (entries carry priorities, BMv2
// docs/JSON_format.md "match_type"), but the exact field must still be equal: an entry
// for another b1 never matches, however high its priority.
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
        hdr.data.b2 = tag;
        std_meta.egress_spec = port;
    }
    /* b1 exact, h1 masked. */
    table classify {
        key = {
            hdr.data.b1: exact;
            hdr.data.h1: ternary;
        }
        actions = { mark; NoAction; }
        default_action = mark(0xEE, 5);
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
