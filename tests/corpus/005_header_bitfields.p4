// Corpus 005: header with fields that are not byte aligned (3, 5, 12, 4, 1 and 7 bits):
// extraction, arithmetic that wraps at the field width, and re-emission.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header odd_t {
    bit<3>  a;
    bit<5>  b;
    bit<12> c;
    bit<4>  d;
    bit<1>  e;
    bit<7>  f;
}

struct headers_t {
    ethernet_t ethernet;
    odd_t      odd;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.odd);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        hdr.odd.a = hdr.odd.a + 1;
        hdr.odd.b = hdr.odd.b ^ 0x1F;
        hdr.odd.c = hdr.odd.c + 0x100;
        hdr.odd.d = 0;
        hdr.odd.e = ~hdr.odd.e;
        hdr.odd.f = hdr.odd.f - 1;
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {
    apply { }
}

control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.odd);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
