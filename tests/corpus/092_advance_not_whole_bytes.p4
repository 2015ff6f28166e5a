// Corpus 092: advance() by a run-time number of bits that is not a multiple of 8 fails
// with ParserInvalidArgument on BMv2 (bm_sim/parser.cpp, ParserOpAdvance: "advance bits
// amount must be a multiple of 8"), before any skipping; ingress runs with that error
// (simple_switch.md, "parser_error"). len.n counts nibbles to skip.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header len_t {
    bit<8> n;
}

header d_t {
    bit<8> d;
}

struct headers_t {
    ethernet_t ethernet;
    len_t      len;
    d_t        d;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.len);
        pkt.advance((bit<32>) hdr.len.n * 4);
        pkt.extract(hdr.d);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        if (std_meta.parser_error == error.NoError) {
            hdr.ethernet.src_addr = 0;
        } else if (std_meta.parser_error == error.PacketTooShort) {
            hdr.ethernet.src_addr = 1;
        } else if (std_meta.parser_error == error.NoMatch) {
            hdr.ethernet.src_addr = 2;
        } else if (std_meta.parser_error == error.StackOutOfBounds) {
            hdr.ethernet.src_addr = 3;
        } else if (std_meta.parser_error == error.HeaderTooShort) {
            hdr.ethernet.src_addr = 4;
        } else if (std_meta.parser_error == error.ParserTimeout) {
            hdr.ethernet.src_addr = 5;
        } else if (std_meta.parser_error == error.ParserInvalidArgument) {
            hdr.ethernet.src_addr = 6;
        } else {
            hdr.ethernet.src_addr = 0xFF;
        }
        if (hdr.d.isValid()) {
            hdr.d.d = 0x77;
        }
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
        pkt.emit(hdr.len);
        pkt.emit(hdr.d);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
