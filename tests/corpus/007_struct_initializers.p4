// Corpus 007: structs: nested struct metadata, whole-struct copies, a list
// initializer and a struct initializer ({ field = value, ... }) assigned to structs.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header data_t {
    bit<16> a;
    bit<16> b;
    bit<8>  tag;
}

struct headers_t {
    ethernet_t ethernet;
    data_t     data;
}

struct pair_t {
    bit<16> first;
    bit<16> second;
}

struct inner_t {
    pair_t pair;
    bit<8> tag;
}

struct metadata_t {
    pair_t  p;
    inner_t inner;
}

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
        meta.p = { hdr.data.a, hdr.data.b };
        meta.inner.pair = { first = meta.p.second, second = meta.p.first };
        meta.inner.tag = hdr.data.tag + 1;
        inner_t copy = meta.inner;
        hdr.data.a = copy.pair.first;
        hdr.data.b = copy.pair.second;
        hdr.data.tag = copy.tag;
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
