// Corpus 346: one control instance handed to two others through constructor
// parameters of a control type (in the style of p4c's own samples): the inner control
// and its counter exist once, are applied twice per packet, and the enclosing control
// is applied directly by its type name. P4Info lists one counter,
// "Ingress.Stages.shared.hits" (p4c: the direct call instantiates Stages under its name).
#include <core.p4>
#include <v1model.p4>

header word_t {
    bit<16> x;
    bit<16> y;
}

struct headers_t { word_t w; }
struct meta_t { }

control Stage(inout bit<16> x);

// Counts each value it sees, then increments it.
control Bump(inout bit<16> x) {
    counter(8, CounterType.packets) hits;
    apply {
        hits.count((bit<32>)x[2:0]);
        x = x + 1;
    }
}

control Doubler(inout bit<16> x)(Stage next) {
    apply {
        x = x << 1;
        next.apply(x);
    }
}

control Octupler(inout bit<16> x)(Stage next) {
    apply {
        x = x << 3;
        next.apply(x);
    }
}

control Stages(inout bit<16> x) {
    Bump() shared;
    Doubler(shared) first;
    Octupler(shared) second;
    apply {
        first.apply(x);
        second.apply(x);
    }
}

parser WordParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.w);
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ingress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        Stages.apply(hdr.w.x);
    }
}

control NoEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { }
}

control NoCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control WordDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.w); }
}

V1Switch(WordParser(), NoVerify(), Ingress(), NoEgress(), NoCompute(), WordDeparser()) main;
