// Corpus 148: unsigned +, -, * and unary minus wrap modulo 2^width
// bit<W> arithmetic is modulo 2^W: overflow and underflow wrap, a product keeps its low
// W bits and -x is 2^W - x (P4_16 spec, "Operations on fixed-width bit types"; BMv2
// computes with big integers and truncates to the destination's width).
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
    apply {
        if (!hdr.data.isValid()) {
            mark_to_drop(std_meta);
            exit;
        }
        bit<8> x = hdr.data.b1;
        bit<8> y = hdr.data.b2;
        hdr.data.b1 = x + y;
        hdr.data.b2 = x - y;
        hdr.data.h1 = hdr.data.h1 * 16w3;
        hdr.data.f2 = hdr.data.f1 * hdr.data.f2;
        hdr.data.f1 = -hdr.data.f1;
        std_meta.egress_spec = 2;
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
