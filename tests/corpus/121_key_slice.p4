// Corpus 121: a table key that is a bit slice of a field
// The key `hdr.data.f1[15:8]` is 8 bits wide; only those bits of f1 take part in the
// match (P4_16 spec, table keys are expressions; BMv2 docs/JSON_format.md: a key
// element may carry a "mask"). Same byte value elsewhere in f1 is a miss.
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
    /* Only byte 2 of f1. */
    table by_slice {
        key = { hdr.data.f1[15:8]: exact @name("f1_mid"); }
        actions = { mark; NoAction; }
        default_action = mark(0xEE, 5);
    }
    apply {
        if (hdr.data.isValid()) {
            by_slice.apply();
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
