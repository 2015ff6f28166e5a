// Corpus 060: exit, return and mark_to_drop
// `exit` in the apply block and inside an action (ingress ends, egress still runs),
// `return` from the apply block, mark_to_drop (drops only because egress_spec becomes
// the drop port: a later egress_spec assignment undoes it).
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header data_t {
    bit<32> f1;
    bit<32> f2;
    bit<16> h1;
    bit<8>  b1;
    bit<8>  b2;
}

struct headers_t {
    ethernet_t ethernet;
    data_t     data;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x88b5: parse_data;
            default: accept;
        }
    }
    state parse_data {
        pkt.extract(hdr.data);
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    action drop_and_exit() {
        mark_to_drop(std_meta);
        exit;
    }
    apply {
        if (!hdr.data.isValid()) {
            mark_to_drop(std_meta);
            exit;
        }
        std_meta.egress_spec = 2;
        if (hdr.data.b1 == 1) {
            hdr.data.b2 = 0x11;
            exit;
        }
        if (hdr.data.b1 == 2) {
            drop_and_exit();
        }
        if (hdr.data.b1 == 3) {
            hdr.data.b2 = 0x33;
            return;
        }
        if (hdr.data.b1 == 4) {
            mark_to_drop(std_meta);
            std_meta.egress_spec = 5;
        }
        hdr.data.h1 = 0xEEEE;
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {
    apply {
        if (hdr.data.isValid()) {
            hdr.data.f2 = 0x000000E0;
        }
    }
}

control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.data);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
