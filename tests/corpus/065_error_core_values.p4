// Corpus 065: each core parser error BMv2 can raise, told apart in ingress: NoError,
// PacketTooShort, NoMatch, StackOutOfBounds, HeaderTooShort, ParserInvalidArgument
// (core.p4 error list; bm_sim/parser.cpp raises them; BMv2 has no ParserTimeout). v1model
// on BMv2 runs ingress after any of them (simple_switch.md, "parser_error").
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header ctl_t {
    bit<8> op;
    bit<8> arg;
}

header word_t {
    bit<32> w;
}

header item_t {
    bit<8> v;
}

header vbytes_t {
    varbit<16> data;
}

header vbits_t {
    varbit<16> data;
}

struct headers_t {
    ethernet_t ethernet;
    ctl_t      ctl;
    word_t     word;
    item_t[2]  items;
    vbytes_t   vbytes;
    vbits_t    vbits;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.ctl);
        transition select(hdr.ctl.op) {
            0: accept;
            1: parse_word;
            3: parse_items;
            4: parse_vbytes;
            6: parse_vbits;
        }
    }
    state parse_word {
        pkt.extract(hdr.word);
        transition accept;
    }
    state parse_items {
        pkt.extract(hdr.items.next);
        pkt.extract(hdr.items.next);
        pkt.extract(hdr.items.next);
        transition accept;
    }
    state parse_vbytes {
        pkt.extract(hdr.vbytes, (bit<32>) hdr.ctl.arg * 8);
        transition accept;
    }
    state parse_vbits {
        pkt.extract(hdr.vbits, (bit<32>) hdr.ctl.arg);
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
        pkt.emit(hdr.ctl);
        pkt.emit(hdr.word);
        pkt.emit(hdr.items);
        pkt.emit(hdr.vbytes);
        pkt.emit(hdr.vbits);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
