// Corpus 076: emitting a header stack emits its valid elements in index order and skips
// invalid ones, wherever they are (P4_16 spec, "emit" of a header stack; BMv2 deparser
// emits only valid headers, JSON_format.md "deparsers"). ctl.op names the element to
// setInvalid().
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
        if (hdr.ctl.op == 0) {
            hdr.tags[0].setInvalid();
        } else if (hdr.ctl.op == 1) {
            hdr.tags[1].setInvalid();
        } else if (hdr.ctl.op == 2) {
            hdr.tags[2].setInvalid();
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
