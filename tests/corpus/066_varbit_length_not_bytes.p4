// Corpus 066: varbit extract whose length in bits is not a multiple of 8. BMv2 fails the
// extract with ParserInvalidArgument before looking at the packet size or the maximum
// (bm_sim/parser.cpp, extract_VL); the header stays invalid and ingress runs
// (simple_switch.md, "parser_error"). Lengths 0, 8 and 24 bits extract fine.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header len_t {
    bit<8> bits;
}

header opt_t {
    varbit<32> data;
}

header tail_t {
    bit<8> t;
}

struct headers_t {
    ethernet_t ethernet;
    len_t      len;
    opt_t      opt;
    tail_t     tail;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.len);
        pkt.extract(hdr.opt, (bit<32>) hdr.len.bits);
        pkt.extract(hdr.tail);
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
        if (hdr.tail.isValid()) {
            hdr.tail.t = hdr.tail.t + 1;
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
        pkt.emit(hdr.opt);
        pkt.emit(hdr.tail);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
