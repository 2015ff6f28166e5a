// Corpus 221: a generic function (T max<T>(in T a, in T b)) instantiated at two widths,
// with T inferred from the arguments and given explicitly, and a generic swap with
// inout parameters.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header data_t {
    bit<8>  a;
    bit<8>  b;
    bit<16> c;
    bit<16> d;
    bit<8>  max8;
    bit<16> max16;
    bit<8>  floor8;
}

struct headers_t {
    ethernet_t ethernet;
    data_t     data;
}

struct metadata_t { }

T max<T>(in T x, in T y) {
    return x > y ? x : y;
}

void swap<T>(inout T x, inout T y) {
    T t = x;
    x = y;
    y = t;
}

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
        hdr.data.max8 = max(hdr.data.a, hdr.data.b);
        hdr.data.max16 = max(hdr.data.c, hdr.data.d);
        hdr.data.floor8 = max<bit<8>>(hdr.data.a, 0x10);
        swap(hdr.data.c, hdr.data.d);
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
