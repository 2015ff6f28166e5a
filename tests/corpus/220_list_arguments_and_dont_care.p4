// Corpus 220: list expressions as `in` arguments (to a struct and a tuple parameter)
// and `_` (don't care) for `out` arguments whose values are not wanted.
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
    bit<8> pair_sum;
    bit<8> tuple_sum;
    bit<8> lo;
}

struct headers_t {
    ethernet_t ethernet;
    data_t     data;
}

struct metadata_t { }

struct pair_t {
    bit<8> x;
    bit<8> y;
}

bit<8> add_pair(in pair_t p) {
    return p.x + p.y;
}

bit<8> add_tuple(in tuple<bit<8>, bit<8>> t) {
    return t[0] + t[1];
}

void split(in bit<8> v, out bit<8> hi, out bit<8> lo) {
    hi = v >> 4;
    lo = v & 0x0F;
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
        hdr.data.pair_sum = add_pair({ hdr.data.a, hdr.data.b });
        hdr.data.tuple_sum = add_tuple({ hdr.data.a, 8w1 });
        split(hdr.data.b, _, hdr.data.lo);
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
