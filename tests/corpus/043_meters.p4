// Corpus 043: indexed and direct meters
// An indexed `meter` (execute_meter) and a `direct_meter` read in a table action.
// Meters with no rates configured mark every packet GREEN (0), as on BMv2; the colour
// bytes start at 0xFF in the packet so the write is visible.
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

struct metadata_t {
    bit<2> port_color;
    bit<2> flow_color;
}

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
    meter(32w4, MeterType.packets) rate_limit;
    direct_meter<bit<2>>(MeterType.bytes) flow_meter;
    action record_color() { flow_meter.read(meta.flow_color); }
    /* Metered per entry. */
    table flows {
        key = { hdr.data.f1: exact; }
        actions = { record_color; NoAction; }
        default_action = NoAction();
        meters = flow_meter;
    }
    apply {
        if (!hdr.data.isValid()) {
            mark_to_drop(std_meta);
            exit;
        }
        meta.flow_color = 3;
        rate_limit.execute_meter((bit<32>) hdr.data.b1, meta.port_color);
        flows.apply();
        hdr.data.b1 = (bit<8>) meta.port_color;
        hdr.data.b2 = (bit<8>) meta.flow_color;
        std_meta.egress_spec = 2;
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
