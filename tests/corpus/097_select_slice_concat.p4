// Corpus 097: select on an expression built from slices and concatenation,
// a[3:0] ++ b[7:4] (an 8-bit key made of two nibbles of different fields; P4_16 spec,
// "Bit-slices" and "Concatenation"). Bits outside the slices must not affect the
// choice.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header d_t {
    bit<8> a;
    bit<8> b;
    bit<8> path;
}

struct headers_t {
    ethernet_t ethernet;
    d_t        d;
}

struct metadata_t {
    bit<8> path;
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.d);
        transition select(hdr.d.a[3:0] ++ hdr.d.b[7:4]) {
            0x5A: p1;
            0xA5: p2;
            default: p3;
        }
    }
    state p1 {
        meta.path = 1;
        transition accept;
    }
    state p2 {
        meta.path = 2;
        transition accept;
    }
    state p3 {
        meta.path = 3;
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        hdr.d.path = meta.path;
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
        pkt.emit(hdr.d);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
