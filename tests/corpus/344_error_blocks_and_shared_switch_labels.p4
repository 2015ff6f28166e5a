// Corpus 344: constructs that look like duplicates to a naive checker and are legal P4:
// the error type extended by two separate declarations, an action_run switch whose
// two labels share one body (then a final default), two parameter lists and an
// action that exits, beside a parser and a control nobody instantiates that reuse
// names declared elsewhere (local names are per block).
#include <core.p4>
#include <v1model.p4>

error { BadTag }
error { TooLong }

header tag_t {
    bit<8> tag;
    bit<8> len;
    bit<8> mark;
    bit<8> path;
}

struct headers_t { tag_t t; }
struct meta_t { bit<8> spare; }

parser TagParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.t);
        verify(hdr.t.tag != 0xee, error.BadTag);
        verify(hdr.t.len < 200, error.TooLong);
        transition accept;
    }
}

// Never instantiated: its state and local names repeat those of the used blocks.
parser SpareParser(packet_in pkt, out headers_t hdr)(bit<8> limit) {
    state start { pkt.extract(hdr.t); transition next; }
    state next { transition accept; }
}

control NoVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Classify(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action mark_a() { hdr.t.mark = 0xa1; }
    action mark_b() { hdr.t.mark = 0xb2; }
    action stop() { exit; }

    // Classifies by tag: two marking actions, one that ends ingress early.
    table classify {
        key = { hdr.t.tag: exact @name("tag"); }
        actions = { mark_a; mark_b; stop; NoAction; }
        const entries = {
            1 : mark_a();
            2 : mark_b();
            3 : stop();
        }
        default_action = NoAction();
    }

    apply {
        sm.egress_spec = 2;
        if (sm.parser_error == error.BadTag) {
            hdr.t.mark = 0xee;
            sm.egress_spec = 3;
            exit;
        }
        if (sm.parser_error == error.TooLong) {
            hdr.t.mark = 0x55;
            sm.egress_spec = 4;
            exit;
        }
        switch (classify.apply().action_run) {
            mark_a:
            mark_b: { hdr.t.path = 0x11; }
            default: { hdr.t.path = 0x22; }
        }
    }
}

// Never instantiated either: it declares actions named like Classify's.
control SpareControl(inout headers_t hdr) {
    action mark_a() { hdr.t.mark = 1; }
    action stop() { exit; }
    apply { mark_a(); stop(); }
}

control NoEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { }
}

control NoCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control TagDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.t); }
}

V1Switch(TagParser(), NoVerify(), Classify(), NoEgress(), NoCompute(), TagDeparser()) main;
