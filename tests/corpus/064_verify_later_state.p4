// Corpus 064: verify() in a second parser state: metadata assigned before the failure
// keeps its value, statements and states after it do not run (P4_16 spec, "verify" and
// parser errors). BMv2 passes the packet to ingress with the user error in
// parser_error (simple_switch.md, "parser_error"); ingress writes the stage reached.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

error {
    TooLong
}

header data_t {
    bit<8> len;
    bit<8> stage;
}

header body_t {
    bit<8> b;
}

struct headers_t {
    ethernet_t ethernet;
    data_t     data;
    body_t     body;
}

struct metadata_t {
    bit<8> stage;
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.data);
        meta.stage = 1;
        transition check;
    }
    state check {
        verify(hdr.data.len <= 4, error.TooLong);
        meta.stage = 2;
        transition select(hdr.data.len) {
            0: accept;
            default: parse_body;
        }
    }
    state parse_body {
        pkt.extract(hdr.body);
        meta.stage = 3;
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        if (std_meta.parser_error == error.TooLong) {
            hdr.ethernet.src_addr = 0xE;
        }
        hdr.data.stage = meta.stage;
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
        pkt.emit(hdr.body);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
