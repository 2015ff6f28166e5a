// Corpus 075: pop_front(count) in a control shifts the whole stack down by count and
// leaves the last count elements invalid (P4_16 spec, "Header stacks"; BMv2 built with
// P4_16 stacks, the default of its configure). Popping more than are valid, or the whole
// size, leaves nothing to emit.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header ctl_t {
    bit<8> op;
    bit<8> n;
}

header tag_t {
    bit<8> v;
}

struct headers_t {
    ethernet_t ethernet;
    ctl_t      ctl;
    tag_t[3]   tags;
}

struct metadata_t {
    bit<8> remaining;
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.ctl);
        meta.remaining = hdr.ctl.n;
        transition select(meta.remaining) {
            0: accept;
            default: parse_tag;
        }
    }
    state parse_tag {
        pkt.extract(hdr.tags.next);
        meta.remaining = meta.remaining - 1;
        transition select(meta.remaining) {
            0: accept;
            default: parse_tag;
        }
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        if (hdr.ctl.op == 1) {
            hdr.tags.pop_front(2);
        } else if (hdr.ctl.op == 2) {
            hdr.tags.pop_front(3);
        } else if (hdr.ctl.op == 3) {
            hdr.tags.pop_front(1);
            hdr.tags[2].setValid();
            hdr.tags[2].v = 0xDD;
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
        pkt.emit(hdr.tags);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
