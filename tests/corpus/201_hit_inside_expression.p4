// Corpus 201: t.apply().hit / .miss nested inside a larger expression
// A hit used as a function argument and a miss used as the condition of a ?: inside
// an arithmetic operand: each table applies exactly once, in evaluation order, and its
// result feeds the rest of the expression (as p4c's side-effect ordering arranges).
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header data_t {
    bit<8>  k;
    bit<8>  r1;
    bit<16> r2;
    bit<8>  r3;
}

struct headers_t {
    ethernet_t ethernet;
    data_t     data;
}

struct metadata_t { }

bit<8> pick(in bool b, in bit<8> yes, in bit<8> no) {
    return b ? yes : no;
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
    action set_r3(bit<8> v) {
        hdr.data.r3 = v;
    }
    table first {
        key = { hdr.data.k : exact @name("k"); }
        actions = { set_r3; NoAction; }
        default_action = NoAction();
    }
    table second {
        key = { hdr.data.k : exact @name("k"); }
        actions = { NoAction; }
        default_action = NoAction();
    }
    apply {
        std_meta.egress_spec = 2;
        if (hdr.data.isValid()) {
            hdr.data.r1 = pick(first.apply().hit, 8w0xAA, 8w0x55);
            hdr.data.r2 = 16w0x0100 + (second.apply().miss ? 16w1 : 16w2);
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
