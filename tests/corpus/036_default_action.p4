// Corpus 036: default actions and setdefault
// Default actions with arguments: one table keeps the default_action written in the
// program, the other has it replaced at run time by STF `setdefault`.
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
    action set_b1(bit<8> v) { hdr.data.b1 = v; }
    action set_b2(bit<8> v, bit<9> port) {
        hdr.data.b2 = v;
        std_meta.egress_spec = port;
    }
    /* Keeps its compiled-in default. */
    table keep_default {
        key = { hdr.data.f1: exact; }
        actions = { set_b1; }
        default_action = set_b1(0xAA);
    }
    /* Its default is replaced by the control plane. */
    table change_default {
        key = { hdr.data.f2: exact; }
        actions = { set_b2; }
        default_action = set_b2(0x11, 1);
    }
    apply {
        if (hdr.data.isValid()) {
            keep_default.apply();
            change_default.apply();
        }
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {
    apply { }
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
