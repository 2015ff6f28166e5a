// Corpus 135: hash() with crc32, a base and a max that are not powers of two
// v1model.p4: the result is base + (hash % max), in [base, base + max - 1]; with max
// 2^32 the whole IEEE CRC-32 is kept. The field list ends in a 4-bit field, padded
// with zeros to a byte (behavioral-model calculations.cpp, BufBuilder).
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

struct metadata_t {
    bit<4> m4;
}

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
        meta.m4 = hdr.data.b2[3:0];
        bit<16> ranged;
        bit<32> full;
        bit<16> high;
        hash(ranged, HashAlgorithm.crc32, 16w100, { hdr.data.f1, meta.m4 }, 32w1000);
        hash(full, HashAlgorithm.crc32, 32w0, { hdr.data.f1, meta.m4 }, 64w4294967296);
        hash(high, HashAlgorithm.crc32, 16w0xFFF0, { hdr.data.f1, meta.m4 }, 32w7);
        hdr.data.h1 = ranged;
        hdr.data.f2 = full;
        hdr.ethernet.src_addr = (bit<48>) high;
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
