// Corpus 023: tuple types: a tuple-typed local built from a list expression and
// passed as the data of the generic hash extern (identity algorithm).
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header data_t {
    bit<8>  a;
    bit<16> b;
    bit<32> h;
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
        tuple<bit<8>, bit<16>> t = { hdr.data.a, hdr.data.b };
        bit<32> h;
        hash(h, HashAlgorithm.identity, 32w0, t, 32w0x01000000);
        hdr.data.h = h;
        std_meta.egress_spec = 2;
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
