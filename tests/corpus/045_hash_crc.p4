// Corpus 045: hash() with crc16 and crc32
// The v1model `hash` extern over a field list with HashAlgorithm.crc16 and crc32
// (BMv2's definitions: CRC-16/ARC and the IEEE CRC-32), result = base + (hash % max),
// with a max that keeps the whole hash and one that does not.
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
        hash(hdr.data.h1, HashAlgorithm.crc16, 16w0, { hdr.data.f1 }, 32w65536);
        hash(hdr.data.f2, HashAlgorithm.crc32, 32w0, { hdr.data.f1 }, 64w4294967296);
        bit<16> bucket;
        hash(bucket, HashAlgorithm.crc16, 16w5, { hdr.data.f1 }, 32w1000);
        hdr.data.b1 = bucket[7:0];
        hdr.data.b2 = bucket[15:8];
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
