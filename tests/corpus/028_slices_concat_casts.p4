// Corpus 028: bit slices (read and as an assignment target), concatenation (++),
// width and sign casts, logical shifts and the arithmetic right shift of int<8>.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header data_t {
    bit<16> a;
    bit<8>  b;
    bit<32> c;
    bit<8>  slice;
    bit<24> concat;
    bit<16> narrowed;
    bit<8>  shifted_right;
    bit<32> shifted_left;
    bit<8>  arith_shift;
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
        hdr.data.slice = hdr.data.a[11:4];
        hdr.data.concat = hdr.data.a ++ hdr.data.b;
        hdr.data.narrowed = (bit<16>) hdr.data.c;
        hdr.data.shifted_right = (bit<8>) (hdr.data.a >> 12);
        hdr.data.shifted_left = hdr.data.c << 4;
        hdr.data.arith_shift = (bit<8>) (((int<8>) hdr.data.b) >> 1);
        hdr.data.a[3:0] = 0xF;
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
