// Corpus 099: a parser loop that accumulates in metadata: each TLV element adds 1 to a
// count and its value to a sum, until a zero type byte seen by lookahead. BMv2
// simple_switch resets metadata to 0 for each packet it receives (simple_switch.cpp,
// receive: phv->reset_metadata()), so counts do not carry over between packets.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header tlv_t {
    bit<8> type;
    bit<8> val;
}

header end_t {
    bit<8> zero;
    bit<8> count;
    bit<8> sum;
}

struct headers_t {
    ethernet_t ethernet;
    tlv_t[4]   tlvs;
    end_t      end;
}

struct metadata_t {
    bit<8> count;
    bit<8> sum;
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        transition parse_loop;
    }
    state parse_loop {
        transition select(pkt.lookahead<bit<8>>()) {
            0: parse_end;
            default: parse_tlv;
        }
    }
    state parse_tlv {
        pkt.extract(hdr.tlvs.next);
        meta.count = meta.count + 1;
        meta.sum = meta.sum + hdr.tlvs.last.val;
        transition parse_loop;
    }
    state parse_end {
        pkt.extract(hdr.end);
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
        hdr.end.count = meta.count;
        hdr.end.sum = meta.sum;
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
        pkt.emit(hdr.tlvs);
        pkt.emit(hdr.end);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
