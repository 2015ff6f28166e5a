// Corpus 026: arithmetic, bitwise, comparison and logical operators on bit<8>:
// + - * & | ^ ~ unary minus, == != < > <= >=, && || !.
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
    bit<8> sum;
    bit<8> diff;
    bit<8> prod;
    bit<8> and_r;
    bit<8> or_r;
    bit<8> xor_r;
    bit<8> not_a;
    bit<8> neg_a;
    bit<8> flags;
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
        bit<8> a = hdr.data.a;
        bit<8> b = hdr.data.b;
        std_meta.egress_spec = 2;
        hdr.data.sum = a + b;
        hdr.data.diff = a - b;
        hdr.data.prod = a * b;
        hdr.data.and_r = a & b;
        hdr.data.or_r = a | b;
        hdr.data.xor_r = a ^ b;
        hdr.data.not_a = ~a;
        hdr.data.neg_a = -a;
        bit<8> flags = 0;
        if (a == b) { flags = flags | 0x01; }
        if (a != b) { flags = flags | 0x02; }
        if (a < b) { flags = flags | 0x04; }
        if (a > b) { flags = flags | 0x08; }
        if (a <= b) { flags = flags | 0x10; }
        if (a >= b) { flags = flags | 0x20; }
        if (a > 0 && b > 0) { flags = flags | 0x40; }
        if (!(a > 0) || b == 0) { flags = flags | 0x80; }
        hdr.data.flags = flags;
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
