// Corpus 215: == and != on headers (validity and fields) and on structs, including a
// struct compared with a typed struct expression.
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
    bit<8> same_hdr;
    bit<8> same_pair;
    bit<8> not_21;
}

struct pair_t {
    bit<8> x;
    bit<8> y;
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

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        ethernet_t copy = hdr.ethernet;
        copy.ether_type = 0x88B5;
        hdr.data.same_hdr = (copy == hdr.ethernet) ? 8w1 : 8w0;
        pair_t p = { hdr.data.a, hdr.data.b };
        pair_t q = { hdr.data.b, hdr.data.a };
        hdr.data.same_pair = (p == q) ? 8w1 : 8w0;
        hdr.data.not_21 = (p != (pair_t){ x = 2, y = 1 }) ? 8w1 : 8w0;
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) { apply { } }

control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.data);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
