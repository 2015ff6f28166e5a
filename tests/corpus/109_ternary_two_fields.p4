// Corpus 109: ternary table keyed on two fields, an omitted key is a wildcard
// Each entry gives a mask per field (an STF key left out matches anything, as a
// P4Runtime ternary field left out of the entry does); the highest-priority entry
// matching on both fields wins, a miss runs the default (P4Runtime spec, ternary match).
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
    /* Masks on b1 and b2 together. */
    table classify {
        key = {
            hdr.data.b1: ternary;
            hdr.data.b2: ternary;
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
