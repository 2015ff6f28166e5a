// Corpus 100: a parser that instantiates another parser and calls it with apply() from a
// state (P4_16 spec, "Invoking sub-parsers"; p4c inlines it into the v1model parser).
// The sub-parser extracts into its out header and updates an inout counter; an error in
// the sub-parser (PacketTooShort) ends the whole parse, and BMv2 runs ingress.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header inner_t {
    bit<8>  tag;
    bit<16> v;
}

header count_t {
    bit<8> n;
}

struct headers_t {
    ethernet_t ethernet;
    inner_t    in1;
    inner_t    in2;
    count_t    count;
}

struct metadata_t {
    bit<8> n;
}

parser InnerParser(packet_in pkt, out inner_t h, inout bit<8> n) {
    state start {
        pkt.extract(h);
        n = n + 1;
        transition select(h.tag) {
            0: accept;
            default: bump;
        }
    }
    state bump {
        n = n + 0x10;
        transition accept;
    }
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    InnerParser() first;
    InnerParser() second;
    state start {
        pkt.extract(hdr.ethernet);
        first.apply(pkt, hdr.in1, meta.n);
        second.apply(pkt, hdr.in2, meta.n);
        pkt.extract(hdr.count);
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
        if (hdr.count.isValid()) {
            hdr.count.n = meta.n;
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
        pkt.emit(hdr.in1);
        pkt.emit(hdr.in2);
        pkt.emit(hdr.count);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
