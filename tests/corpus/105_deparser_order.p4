// Corpus 105: the deparser writes headers in the order of its emit calls, not the parse
// order, and skips invalid ones (P4_16 spec, "emit"; BMv2 JSON_format.md "deparsers":
// an ordered list, invalid headers not written). A header set valid in ingress comes
// out at its emit position, before the payload.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header ctl_t {
    bit<8> op;
}

header a_t {
    bit<8> a;
}

header b_t {
    bit<8> b;
}

header c_t {
    bit<8> c;
}

struct headers_t {
    ethernet_t ethernet;
    ctl_t      ctl;
    a_t        a;
    b_t        b;
    c_t        c;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.ctl);
        pkt.extract(hdr.a);
        transition select(hdr.ctl.op) {
            0: accept;
            default: parse_bc;
        }
    }
    state parse_bc {
        pkt.extract(hdr.b);
        pkt.extract(hdr.c);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        if (hdr.ctl.op == 2) {
            hdr.b.setInvalid();
        } else if (hdr.ctl.op == 3) {
            hdr.a.setInvalid();
            hdr.c.setInvalid();
        }
        if (!hdr.c.isValid() && hdr.ctl.op == 0) {
            hdr.c.setValid();
            hdr.c.c = 0xCC;
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
        pkt.emit(hdr.c);
        pkt.emit(hdr.ctl);
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
