// Corpus 139: hash() with crc16_custom and crc32_custom, never reconfigured
// Until the control plane sets their parameters, BMv2's custom CRCs use crc16's and
// crc32's (polynomial 0x8005 / 0x04C11DB7, reflected; behavioral-model calculations.cpp
// crc_custom_init), so they equal CRC-16/ARC and the IEEE CRC-32; base 10, max 50.
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
        bit<16> c16;
        bit<32> c32;
        bit<8> bucket;
        hash(c16, HashAlgorithm.crc16_custom, 16w0, { hdr.data.f1, hdr.data.h1 }, 32w65536);
        hash(c32, HashAlgorithm.crc32_custom, 32w0, { hdr.data.f1, hdr.data.h1 }, 64w4294967296);
        hash(bucket, HashAlgorithm.crc16_custom, 8w10, { hdr.data.f1, hdr.data.h1 }, 32w50);
        hdr.data.f2 = c32;
        hdr.ethernet.src_addr = (bit<48>) c16;
        hdr.data.b2 = bucket;
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
