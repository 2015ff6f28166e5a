// Corpus 078: a header stack of size 1: after one extract, stack.last is element 0 and
// stack.lastIndex is 0 (P4_16 spec, "Header stacks"); a second extract(stack.next)
// overflows with StackOutOfBounds, and BMv2 still runs ingress with the element valid
// (simple_switch.md, "parser_error"). .size is 1.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header item_t {
    bit<8> v;
    bit<8> more;
}

header info_t {
    bit<8> last_index;
    bit<8> last_v;
    bit<8> size;
}

struct headers_t {
    ethernet_t ethernet;
    item_t[1]  items;
    info_t     info;
}

struct metadata_t {
    bit<32> last_index;
    bit<8>  last_v;
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        transition parse_item;
    }
    state parse_item {
        pkt.extract(hdr.items.next);
        meta.last_index = hdr.items.lastIndex;
        meta.last_v = hdr.items.last.v;
        transition select(hdr.items.last.more) {
            1: parse_item;
            default: accept;
        }
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
        hdr.info.setValid();
        hdr.info.last_index = (bit<8>) meta.last_index;
        hdr.info.last_v = meta.last_v;
        hdr.info.size = (bit<8>) hdr.items.size;
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
        pkt.emit(hdr.items);
        pkt.emit(hdr.info);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
