// Corpus 058: saturating arithmetic
// `|+|` and `|-|` on unsigned bit<N> (clamped to 0 .. 2^N-1) and on signed int<N>
// (clamped to -2^(N-1) .. 2^(N-1)-1), with and without saturation happening.
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

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        if (!hdr.data.isValid()) {
            mark_to_drop(std_meta);
            exit;
        }
        hdr.data.b1 = hdr.data.b1 |+| hdr.data.b2;
        hdr.data.b2 = hdr.data.b2 |-| 8w150;
        int<16> v = (int<16>) hdr.data.h1;
        v = v |+| 16s1000;
        hdr.data.h1 = (bit<16>) v;
        int<32> w = (int<32>) hdr.data.f1;
        w = w |-| 32s100;
        hdr.data.f1 = (bit<32>) w;
        hdr.data.f2 = hdr.data.f2 |+| 32w1;
        std_meta.egress_spec = 2;
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {
    apply { }
}

control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.data);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
