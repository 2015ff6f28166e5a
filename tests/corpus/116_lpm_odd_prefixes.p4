// Corpus 116: lpm prefixes that do not end on a nibble or byte (/1, /9, /15)
// Only the top prefix-length bits of the key are compared (P4_16 spec, lpm): 0x1280/9
// covers 0x1280..0x12FF but not 0x127F, 0x1234/15 covers 0x1234..0x1235, 0x8000/1
// the upper half (BMv2 docs/JSON_format.md "lpm").
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
    action route(bit<8> tag, bit<9> port) {
        hdr.data.b1 = tag;
        std_meta.egress_spec = port;
    }
    /* Unaligned prefixes on h1. */
    table routes {
        key = { hdr.data.h1: lpm; }
        actions = { route; NoAction; }
        default_action = route(0xEE, 5);
    }
    apply {
        if (hdr.data.isValid()) {
            routes.apply();
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
