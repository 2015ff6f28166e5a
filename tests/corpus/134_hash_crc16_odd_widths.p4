// Corpus 134: hash() with crc16 over fields of odd widths (9, 3, 12 and 4 bits)
// BMv2 packs the field list bit by bit, most significant first, and pads the last
// byte with zeros before hashing (behavioral-model src/bm_sim/calculations.cpp,
// BufBuilder); crc16 is CRC-16/ARC. v1model.p4: result = base + hash % max.
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
    bit<9>  m9;
    bit<3>  m3;
    bit<12> m12;
    bit<4>  m4;
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
        meta.m9 = (bit<9>) hdr.data.h1;
        meta.m3 = hdr.data.b1[2:0];
        meta.m12 = hdr.data.f1[11:0];
        meta.m4 = hdr.data.b2[3:0];
        bit<16> r;
        hash(r, HashAlgorithm.crc16, 16w0, { meta.m9, meta.m3, meta.m12, meta.m4 }, 32w65536);
        hdr.data.f2 = (bit<32>) r;
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
