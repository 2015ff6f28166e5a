// Corpus 083: lookahead wider than 64 bits: lookahead<bit<72>>() into metadata, then its
// slices are used after the same bytes were extracted (P4_16 spec, "Lookahead"; BMv2
// reads lookahead of any width into a byte container, bm_sim/parser.cpp). A 72-bit look
// at a packet with fewer bytes left is PacketTooShort.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header d_t {
    bit<8>  first;
    bit<56> middle;
    bit<8>  last;
}

header res_t {
    bit<8> first_last;
    bit<8> top_nibbles;
}

struct headers_t {
    ethernet_t ethernet;
    d_t        d;
    res_t      res;
}

struct metadata_t {
    bit<72> peek;
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        meta.peek = pkt.lookahead<bit<72>>();
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
            hdr.res.setValid();
            hdr.res.first_last = meta.peek[71:64] ^ meta.peek[7:0];
            hdr.res.top_nibbles = meta.peek[71:68] ++ meta.peek[3:0];
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
        pkt.emit(hdr.d);
        pkt.emit(hdr.res);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
