// Corpus 150: int<8> comparison, arithmetic shift right, sign extension, wrapping add
// int<W> values are two's complement: < and > compare signed, >> copies the sign bit,
// a cast to a wider int<> sign-extends, + wraps (P4_16 spec, "Operations on
// fixed-width signed integers"); the same bits compared as bit<8> order differently.
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
        int<8> a = (int<8>) hdr.data.b1;
        int<8> c = (int<8>) hdr.data.b2;
        bit<32> flags = 0;
        if (a < c) {
            flags = flags | 1;
        }
        if (a > c) {
            flags = flags | 2;
        }
        if (hdr.data.b1 < hdr.data.b2) {
            flags = flags | 4;
        }
        hdr.data.f2 = flags;
        hdr.data.h1 = (bit<16>) ((int<16>) a);
        hdr.data.b1 = (bit<8>) (a >> 2);
        hdr.data.b2 = (bit<8>) (a + c);
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
