// Corpus 046: hash() with identity, csum16, xor16 and crc16_custom
// The v1model `hash` extern with HashAlgorithm.identity (the input bytes as a
// number), csum16 (the Internet checksum), xor16 (XOR of 16-bit words) and
// crc16_custom (left at BMv2's default parameters, i.e. CRC-16/ARC like crc16), over a
// two-field list.
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
        bit<32> ident;
        bit<16> csum;
        bit<16> xored;
        bit<16> custom;
        hash(ident, HashAlgorithm.identity, 32w0, { hdr.data.f1 }, 64w4294967296);
        hash(csum, HashAlgorithm.csum16, 16w0, { hdr.data.f1, hdr.data.f2 }, 32w65536);
        hash(xored, HashAlgorithm.xor16, 16w0, { hdr.data.f1, hdr.data.f2 }, 32w65536);
        hash(custom, HashAlgorithm.crc16_custom, 16w0, { hdr.data.f1, hdr.data.f2 }, 32w65536);
        hdr.ethernet.src_addr = ident ++ csum;
        hdr.data.h1 = xored;
        hdr.data.b1 = custom[15:8];
        hdr.data.b2 = custom[7:0];
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
