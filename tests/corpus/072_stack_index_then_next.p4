// Corpus 072: extract into a stack element by constant index does not move nextIndex
// (P4_16 spec, "Header stacks": only extract(stack.next) advances it), so a later
// extract(stack.next) still fills element 0. Extracting s[1] then s.next puts the first
// bytes in s[1] and the second in s[0]; emitting the stack writes s[0] first.
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

struct headers_t {
    ethernet_t ethernet;
    tag_t[3]   tags;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.tags[1]);
        pkt.extract(hdr.tags.next);
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
        if (hdr.tags[2].isValid()) {
            hdr.ethernet.ether_type = 0xBAD2;
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
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
