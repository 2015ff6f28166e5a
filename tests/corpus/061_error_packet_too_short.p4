// Corpus 061: PacketTooShort: a packet that ends inside a header. BMv2 (v1model) does not
// drop on a parser error: it stops parsing, sets standard_metadata.parser_error and runs
// ingress (simple_switch.md, "parser_error"; bm_sim/parser.cpp); the header that did not
// fit stays invalid and its partial bytes are payload, emitted after the valid headers.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header data_t {
    bit<32> v;
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
        if (hdr.data.isValid()) {
            hdr.data.v = hdr.data.v + 1;
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
        pkt.emit(hdr.data);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
