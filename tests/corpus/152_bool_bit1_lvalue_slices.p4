// Corpus 152: bool <-> bit<1> casts and assignments to slices of a field
// (bit<1>) true is 1 and (bool) 1w1 is true (P4_16 spec, explicit casts); assigning to
// f2[31:31], f2[15:8] or f2[0:0] changes only those bits, and f1[15:0] ++ f1[31:16]
// swaps the halves (spec, "bit slices" as l-values, concatenation).
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
        bit<1> nz = (bit<1>) (hdr.data.b1 != 0);
        bool odd = (bool) hdr.data.b2[0:0];
        hdr.data.f2[31:31] = nz;
        hdr.data.f2[0:0] = (bit<1>) odd;
        hdr.data.f2[15:8] = hdr.data.b1 ^ hdr.data.b2;
        if (odd && nz == 1) {
            hdr.data.h1 = 0xBEEF;
        }
        hdr.data.f1 = hdr.data.f1[15:0] ++ hdr.data.f1[31:16];
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
