// Corpus 068: an IPv4-options-like header: fixed kind and length bytes, then a varbit
// whose size is computed from the length byte read with lookahead before the extract
// (P4_16 spec, "Variable width extraction"). The header is re-emitted at its parsed size
// (BMv2 JSON_format.md: varbit fields are '*' and emitted at their current length).
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header opt_t {
    bit<8>      kind;
    bit<8>      len;    // whole option, kind and len included
    varbit<256> data;
}

header tail_t {
    bit<8> t;
}

struct headers_t {
    ethernet_t ethernet;
    opt_t      opt;
    tail_t     tail;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        transition parse_opt;
    }
    state parse_opt {
        bit<16> head = pkt.lookahead<bit<16>>();
        pkt.extract(hdr.opt, (bit<32>) (head[7:0] - 2) * 8);
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
            hdr.tail.t = hdr.opt.len;
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
        pkt.emit(hdr.opt);
        pkt.emit(hdr.tail);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
