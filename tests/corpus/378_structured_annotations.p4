// Corpus 378: structured annotations (@name[...]), as SONiC PINS writes them on its
// action selectors: P4Info carries them as typed values (structured_annotations:
// string, int64, bool, lists or key-value pairs), beside the unstructured ones,
// on tables, match fields, action references, actions and their parameters.
#include <core.p4>
#include <v1model.p4>

header eth_t { bit<48> dst; bit<48> src; bit<16> type; }
struct headers_t { eth_t eth; }
struct meta_t { }

parser parse(packet_in pkt, out headers_t hdr, inout meta_t meta,
             inout standard_metadata_t std) {
    state start { pkt.extract(hdr.eth); transition accept; }
}

control no_checksum(inout headers_t hdr, inout meta_t meta) { apply { } }

control ingress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t std) {
    @owner["l2", 1 + 1, true] @brief("send to a port")
    action forward(@refers_to[table = "ports", key = "id"] bit<9> port) {
        std.egress_spec = port;
    }
    action drop() { mark_to_drop(std); }
    @group_mode[action_selection_mode = "HASH", member_multiplier = 1, strict = false]
    @entry_restriction("hdr.eth.type != 0")
    @unsupported[]
    table l2 {
        key = { hdr.eth.dst : exact @format["MAC"]; }
        actions = { @proxy_replicas[2] forward; @defaultonly drop; }
        const default_action = drop();
        size = 64;
    }
    apply { l2.apply(); }
}

control egress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t std) {
    apply { }
}

control deparse(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.eth); } }

V1Switch(parse(), no_checksum(), ingress(), egress(), no_checksum(), deparse()) main;
