// Corpus 149: shifts by run-time amounts up to and past the width; / and % by 2^k
// Shifting a bit<W> value by W or more gives 0 (P4_16 spec, shifts: "shifting by an
// amount greater than or equal to the width produces 0"); >> is logical for bit<W>;
// unsigned division and modulo by a power-of-two constant (spec: `/`, `%` on bit<W>).
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
        bit<8> s = hdr.data.b2;
        hdr.data.b1 = x << s;
        hdr.data.b2 = x >> s;
        hdr.data.h1 = hdr.data.h1 >> 15;
        bit<32> q = hdr.data.f2 / 32w8;
        bit<32> r = hdr.data.f2 % 32w16;
        hdr.data.f2 = q;
        hdr.data.f1 = r;
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
