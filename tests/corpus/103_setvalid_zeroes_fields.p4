// Corpus 103: setValid() on an invalid header zeroes its fields on BMv2 (p4c compiles it
// to the add_header primitive, which resets an invalid header before marking it valid:
// simple_switch primitives.cpp; the P4_16 spec leaves the values unspecified), while
// setValid() on a header that is already valid keeps its fields.
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

header x_t {
    bit<16> a;
    bit<8>  b;
}

struct headers_t {
    ethernet_t ethernet;
    ctl_t      ctl;
    x_t        x;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.ctl);
        transition select(hdr.ctl.op) {
            3: accept;
            default: parse_x;
        }
    }
    state parse_x {
        pkt.extract(hdr.x);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        if (hdr.ctl.op == 1) {
            hdr.x.setInvalid();
            hdr.x.setValid();
        } else if (hdr.ctl.op == 2) {
            hdr.x.setValid();
        } else if (hdr.ctl.op == 3) {
            hdr.x.setValid();
            hdr.x.b = 0x5B;
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
        pkt.emit(hdr.x);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
