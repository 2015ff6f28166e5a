// Corpus 039: apply().hit and switch on action_run
// `if (t.apply().hit)` / `else`, and `switch (u.apply().action_run)` with an action
// label and `default`; the second table's key is written by the first table's action.
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
    action set_b2(bit<8> v) { hdr.data.b2 = v; }
    action to_port(bit<9> port) { std_meta.egress_spec = port; }
    /* Rewrites b2 on a hit. */
    table t {
        key = { hdr.data.b1: exact; }
        actions = { set_b2; NoAction; }
        default_action = NoAction();
    }
    /* Chooses the port from b2. */
    table u {
        key = { hdr.data.b2: exact; }
        actions = { to_port; NoAction; }
        default_action = NoAction();
    }
    apply {
        if (!hdr.data.isValid()) {
            mark_to_drop(std_meta);
            exit;
        }
        if (t.apply().hit) {
            hdr.data.h1 = 0x0001;
        } else {
            hdr.data.h1 = 0x0002;
        }
        switch (u.apply().action_run) {
            to_port: {
                hdr.data.f1 = 0x11111111;
            }
            default: {
                std_meta.egress_spec = 1;
                hdr.data.f1 = 0x22222222;
            }
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
