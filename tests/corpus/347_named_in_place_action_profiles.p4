// Corpus 347: action profiles constructed in place in the implementation property and
// named there with @name. p4c names such a profile exactly as the annotation says ("ap",
// "ap_ws": no control prefix) while the tables keep their qualified names; the selector
// also carries @max_group_size. The tables miss (no members are added): the packet goes
// out of port 2 unchanged.
#include <core.p4>
#include <v1model.p4>

header flow_t {
    bit<16> id;
    bit<16> hash;
}

struct headers_t { flow_t f; }
struct meta_t { bit<32> hash1; }

parser FlowParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.f);
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Steer(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action drop() { mark_to_drop(sm); }
    action to_port(bit<9> port) { sm.egress_spec = port; }

    // Indirect: entries point at members of the profile "ap".
    table indirect {
        key = { hdr.f.id: exact; }
        actions = { drop; to_port; NoAction; }
        @name("ap") implementation = action_profile(32w128);
    }

    // Grouped: a member of a group of "ap_ws" is picked by the flow hash.
    table indirect_ws {
        key = {
            hdr.f.id: exact;
            meta.hash1: selector;
        }
        actions = { drop; to_port; NoAction; }
        @name("ap_ws") @max_group_size(200)
        implementation = action_selector(HashAlgorithm.identity, 32w1024, 32w10);
    }

    apply {
        sm.egress_spec = 2;
        meta.hash1 = (bit<32>)hdr.f.hash;
        indirect.apply();
        indirect_ws.apply();
    }
}

control NoEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { }
}

control NoCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control FlowDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.f); }
}

V1Switch(FlowParser(), NoVerify(), Steer(), NoEgress(), NoCompute(), FlowDeparser()) main;
