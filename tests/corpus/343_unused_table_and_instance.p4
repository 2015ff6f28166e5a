// Corpus 343: declarations nothing uses, which p4c's front end reports and removes
// (expected p4c warnings, 3: "Table spare_routes is not used; removing", "spare_bytes:
// unused instance", "spare_index: unused instance"); an @noWarn("unused") instance
// and a control nobody instantiates (with its own table) give no warning. The used
// table forwards by destination MAC and counts per port.
#include <core.p4>
#include <v1model.p4>
header eth_t { bit<48> d; bit<48> s; bit<16> t; }
struct headers_t { eth_t eth; }
struct meta_t { bit<8> unused_flag; }
counter(8, CounterType.packets) spare_index;
parser P(packet_in p, out headers_t h, inout meta_t m, inout standard_metadata_t s) {
    state start { p.extract(h.eth); transition accept; }
}
control V(inout headers_t h, inout meta_t m) { apply { } }
control NeverInstantiated(inout headers_t h) {
    table orphan { key = { h.eth.t: exact; } actions = { NoAction; } }
    apply { orphan.apply(); }
}
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t s) {
    counter(512, CounterType.packets) port_packets;
    counter(512, CounterType.bytes) spare_bytes;
    @noWarn("unused") register<bit<32>>(16) reserved;
    action forward(bit<9> port) {
        s.egress_spec = port;
        port_packets.count((bit<32>)port);
    }
    action drop() { mark_to_drop(s); }
    table l2 {
        key = { h.eth.d: exact; }
        actions = { forward; drop; }
        default_action = drop();
        const entries = {
            0x000000000001: forward(1);
            0x000000000002: forward(2);
        }
    }
    table spare_routes {
        key = { h.eth.t: exact; }
        actions = { forward; drop; }
        default_action = drop();
    }
    apply { l2.apply(); }
}
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t s) { apply { } }
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out p, in headers_t h) { apply { p.emit(h.eth); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
