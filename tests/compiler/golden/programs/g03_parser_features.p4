// Golden 03: header stacks, varbit extract, lookahead, advance, verify, select on
// tuples with masks, ranges and a value set; deparsing a stack.
#include <core.p4>
#include <v1model.p4>

header tag_t {
    bit<8> kind;
    bit<8> len;
}

header opt_t {
    bit<8>       opt_len;
    varbit<256>  data;
}

header label_t {
    bit<20> label;
    bit<3>  tc;
    bit<1>  bos;
    bit<8>  ttl;
}

struct headers_t {
    tag_t      tag;
    opt_t      opt;
    label_t[3] labels;
}

struct metadata_t { bit<8> peek; }

error { BadLength }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    value_set<bit<8>>(8) special_kinds;

    state start {
        meta.peek = pkt.lookahead<bit<8>>();
        transition select(meta.peek, std_meta.ingress_port) {
            (0x01 &&& 0x0f, _): parse_tag;
            (0x20 .. 0x23, 9w1): skip;
            default: accept;
        }
    }
    state skip {
        pkt.advance(16);
        transition accept;
    }
    state parse_tag {
        pkt.extract(hdr.tag);
        verify(hdr.tag.len <= 32, error.BadLength);
        transition select(hdr.tag.kind) {
            special_kinds: parse_labels;
            0x11: parse_opt;
            default: accept;
        }
    }
    state parse_opt {
        pkt.extract(hdr.opt, (bit<32>) hdr.tag.len << 3);
        transition accept;
    }
    state parse_labels {
        pkt.extract(hdr.labels.next);
        transition select(hdr.labels.last.bos) {
            1: accept;
            default: parse_labels;
        }
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 1;
        if (hdr.labels[0].isValid()) {
            hdr.labels[0].ttl = hdr.labels[0].ttl - 1;
            hdr.labels.pop_front(1);
        }
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) { apply { } }

control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.tag);
        pkt.emit(hdr.opt);
        pkt.emit(hdr.labels);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
