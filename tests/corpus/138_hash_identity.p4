// Corpus 138: hash() with identity over short and long inputs
// identity returns the first (at most) 8 bytes of the input as a big-endian number,
// so a 10-byte list keeps f1 ++ f2 and drops h1 (behavioral-model calculations.cpp,
// identity); result = base + value % max (v1model.p4), here the low 32 or 16 bits.
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
        bit<32> long_in;
        bit<16> short_in;
        bit<16> mac_low;
        hash(long_in, HashAlgorithm.identity, 32w0, { hdr.data.f1, hdr.data.f2, hdr.data.h1 }, 64w4294967296);
        hash(short_in, HashAlgorithm.identity, 16w0, { hdr.data.b1, hdr.data.b2 }, 32w65536);
        hash(mac_low, HashAlgorithm.identity, 16w0, { hdr.ethernet.src_addr }, 32w65536);
        hdr.data.f2 = long_in;
        hdr.data.h1 = short_in;
        hdr.ethernet.dst_addr = (bit<48>) mac_low;
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
