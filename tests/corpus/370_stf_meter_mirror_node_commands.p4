// Corpus 370: the STF direct commands of p4c's current runner beyond add/expect:
// meter_set_rates / meter_array_set_rates (trTCM colours of a packets meter: GREEN 0,
// YELLOW 1, RED 2; an unconfigured cell is always GREEN), mirroring_delete (an I2E
// clone to a deleted session is not made) and mc_node_update (a group follows the new
// ports of its node).
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> ether_type;
}

header probe_t {
    bit<8> op;     // 1: meter cell `idx`; 2: clone to session 5; 3: multicast group 7
    bit<8> idx;
    bit<8> color;
    bit<8> tag;    // 0xC1 on the I2E clone
}

struct headers_t { ethernet_t eth; probe_t probe; }
struct metadata_t { }

parser ProbeParser(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        pkt.extract(hdr.probe);
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control ProbeIngress(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    meter(2, MeterType.packets) colours;

    apply {
        sm.egress_spec = 1;
        if (hdr.probe.op == 1) {
            bit<2> c;
            colours.execute_meter((bit<32>)hdr.probe.idx, c);
            hdr.probe.color = (bit<8>)c;
        } else if (hdr.probe.op == 2) {
            clone(CloneType.I2E, 5);
        } else if (hdr.probe.op == 3) {
            sm.mcast_grp = 7;
        }
    }
}

control ProbeEgress(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 1) {
            hdr.probe.tag = 0xC1;
        }
    }
}

control NoUpdate(inout headers_t hdr, inout metadata_t meta) { apply { } }

control ProbeDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.eth); pkt.emit(hdr.probe); }
}

V1Switch(ProbeParser(), NoVerify(), ProbeIngress(), ProbeEgress(), NoUpdate(),
         ProbeDeparser()) main;
