// Corpus 025: actions: a top-level action and control-local actions called directly
// with arguments, and a table action whose directional parameter is bound in the
// table's action list while its directionless parameter comes from the entry.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header data_t {
    bit<8>  k;
    bit<16> a;
    bit<16> b;
}

struct headers_t {
    ethernet_t ethernet;
    data_t     data;
}

struct metadata_t { }

action set_port(inout standard_metadata_t sm, bit<9> port) {
    sm.egress_spec = port;
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
    action bump() {
        hdr.data.a = hdr.data.a + 1;
    }
    action add_to(inout bit<16> x, bit<16> amount) {
        x = x + amount;
    }
    /* Adds an entry-given amount to field b. */
    table adjust {
        key = { hdr.data.k: exact; }
        actions = { add_to(hdr.data.b); NoAction; }
        default_action = NoAction();
    }
    apply {
        set_port(std_meta, 2);
        bump();
        add_to(hdr.data.a, 16w0x0100);
        adjust.apply();
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
