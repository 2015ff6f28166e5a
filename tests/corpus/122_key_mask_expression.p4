// Corpus 122: a table key written as `field & constant`
// The key `hdr.data.h1 & 0x0FF0` is matched exactly after masking, so the masked-out
// nibbles of h1 do not matter (P4_16 spec, key expressions; BMv2 docs/JSON_format.md:
// the key element's "mask"). An entry value is compared with the masked field.
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
    /* The middle byte of h1. */
    table by_mask {
        key = { hdr.data.h1 & 16w0x0FF0: exact @name("h1_mid"); }
        actions = { mark; NoAction; }
        default_action = mark(0xEE, 5);
    }
    apply {
        if (hdr.data.isValid()) {
            by_mask.apply();
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
