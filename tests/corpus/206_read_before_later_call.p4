// Corpus 206: a value read earlier in an expression is not changed by a later call
// P4 evaluates left to right: in '{ a, bump(a) }' and 'b + bump(b)' the first read
// sees the old value even though bump() changes it through its inout parameter.
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
    bit<8> r1;
    bit<8> r2;
    bit<8> r3;
}

struct headers_t {
    ethernet_t ethernet;
    data_t     data;
}

struct pair_t {
    bit<8> x;
    bit<8> y;
}

struct metadata_t { }

bit<8> bump(inout bit<8> v) {
    v = v + 1;
    return v;
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x88b5: parse_data;
            default: accept;
        }
    }
    state parse_data {
        pkt.extract(hdr.data);
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        if (hdr.data.isValid()) {
            pair_t p = { hdr.data.a, bump(hdr.data.a) };
            hdr.data.r1 = p.x;
            hdr.data.r2 = p.y;
            hdr.data.r3 = hdr.data.b + bump(hdr.data.b);
        }
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
