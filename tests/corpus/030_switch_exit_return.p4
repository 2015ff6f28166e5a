// Corpus 030: control flow: switch on table.apply().action_run (with default),
// apply().hit and apply().miss, switch on a value with a shared label, return (leaves
// only the sub-control) and exit (leaves the whole ingress).
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header data_t {
    bit<8> k;
    bit<8> sel;
    bit<8> r;
    bit<8> t;
}

struct headers_t {
    ethernet_t ethernet;
    data_t     data;
}

struct metadata_t { }

control Marker(inout data_t d, inout standard_metadata_t sm) {
    apply {
        if (d.sel == 0xDD) {
            return;
        }
        if (d.sel == 0xEE) {
            sm.egress_spec = 5;
            exit;
        }
        d.r = d.r | 0x40;
    }
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.data);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    Marker() marker;

    action fwd(bit<8> v) {
        hdr.data.t = v;
    }
    action tag() {
    }
    /* Chooses the branch of the action_run switch. */
    table route {
        key = { hdr.data.k: exact; }
        actions = { fwd; tag; NoAction; }
        default_action = NoAction();
    }
    /* Tested with .hit. */
    table second {
        key = { hdr.data.k: exact; }
        actions = { NoAction; }
    }
    /* Tested with .miss. */
    table third {
        key = { hdr.data.k: exact; }
        actions = { NoAction; }
    }
    apply {
        switch (route.apply().action_run) {
            fwd: { hdr.data.r = hdr.data.r | 0x01; }
            tag: { hdr.data.r = hdr.data.r | 0x02; }
            default: { hdr.data.r = hdr.data.r | 0x04; }
        }
        if (second.apply().hit) {
            hdr.data.r = hdr.data.r | 0x10;
        }
        if (third.apply().miss) {
            hdr.data.r = hdr.data.r | 0x20;
        }
        switch (hdr.data.sel) {
            1: { std_meta.egress_spec = 2; }
            2:
            3: { std_meta.egress_spec = 3; }
            default: { std_meta.egress_spec = 4; }
        }
        marker.apply(hdr.data, std_meta);
        hdr.data.r = hdr.data.r | 0x80;
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
        pkt.emit(hdr.data);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
