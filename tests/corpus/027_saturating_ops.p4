// Corpus 027: saturating addition and subtraction (|+| and |-|) on unsigned bit<8>
// and signed int<8>, clamping at each type's limits.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header data_t {
    bit<8> a;
    bit<8> b;
    bit<8> usum;
    bit<8> udiff;
    int<8> sa;
    int<8> sb;
    int<8> ssum;
    int<8> sdiff;
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
        pkt.extract(hdr.data);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        hdr.data.usum = hdr.data.a |+| hdr.data.b;
        hdr.data.udiff = hdr.data.a |-| hdr.data.b;
        hdr.data.ssum = hdr.data.sa |+| hdr.data.sb;
        hdr.data.sdiff = hdr.data.sa |-| hdr.data.sb;
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
        pkt.emit(hdr.data);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
