// Corpus 073: a parser loop that extracts stack elements until lookahead<bit<8>>() sees a
// zero terminator (lookahead does not consume; P4_16 spec, "Lookahead"); the terminator
// is then extracted into its own header. A fourth element overflows tag_t[3]:
// StackOutOfBounds, ingress still runs on BMv2 (simple_switch.md, "parser_error").
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header tag_t {
    bit<8> v;
}

header term_t {
    bit<8> count;
}

struct headers_t {
    ethernet_t ethernet;
    tag_t[3]   tags;
    term_t     term;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        transition parse_loop;
    }
    state parse_loop {
        transition select(pkt.lookahead<bit<8>>()) {
            0: parse_term;
            default: parse_tag;
        }
    }
    state parse_tag {
        pkt.extract(hdr.tags.next);
        transition parse_loop;
    }
    state parse_term {
        pkt.extract(hdr.term);
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
        bit<8> n = 0;
        if (hdr.tags[0].isValid()) {
            n = n + 1;
        }
        if (hdr.tags[1].isValid()) {
            n = n + 1;
        }
        if (hdr.tags[2].isValid()) {
            n = n + 1;
        }
        if (hdr.term.isValid()) {
            hdr.term.count = n;
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
        pkt.emit(hdr.tags);
        pkt.emit(hdr.term);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
