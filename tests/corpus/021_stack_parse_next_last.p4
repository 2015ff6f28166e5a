// Corpus 021: header stack in the parser: extract(stack.next) in a loop, stack.last
// in a select, stack.lastIndex; overflowing the stack is StackOutOfBounds.
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

header summary_t {
    bit<8> count;
    bit<8> last_v;
}

struct headers_t {
    ethernet_t ethernet;
    item_t[4]  items;
    summary_t  summary;
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
        transition select(hdr.items.last.more) {
            1: parse_item;
            default: done;
        }
    }
    state done {
        meta.last_index = hdr.items.lastIndex;
        meta.last_v = hdr.items.last.v;
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        if (std_meta.parser_error != error.NoError) {
            mark_to_drop(std_meta);
            return;
        }
        std_meta.egress_spec = 2;
        hdr.summary.setValid();
        hdr.summary.count = (bit<8>) meta.last_index + 1;
        hdr.summary.last_v = meta.last_v;
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
        pkt.emit(hdr.summary);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
