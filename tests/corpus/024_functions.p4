// Corpus 024: functions (declared as `ReturnType name(params) { ... }`): a
// value-returning function with an early return, a void function with inout
// parameters, and a function calling another.
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
    bit<16> m;
    bit<8>  c;
    bit<8>  d;
}

struct headers_t {
    ethernet_t ethernet;
    data_t     data;
}

struct metadata_t { }

bit<16> max16(in bit<16> x, in bit<16> y) {
    if (x > y) {
        return x;
    }
    return y;
}

bit<16> max3(in bit<16> x, in bit<16> y, in bit<16> z) {
    return max16(max16(x, y), z);
}

void swap8(inout bit<8> x, inout bit<8> y) {
    bit<8> t = x;
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

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        hdr.data.m = max3(hdr.data.a, hdr.data.b, 16w0x0100);
        swap8(hdr.data.c, hdr.data.d);
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
