// Golden 04: action profile, action selector, direct counter, direct meter,
// indexed counter/meter/register, support_timeout, @id and @brief annotations.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<32> a;
    bit<32> b;
    bit<16> c;
}

struct headers_t { h_t h; }
struct metadata_t {
    bit<2>  color;
    bit<32> count;
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    action_profile(128) nexthops;
    action_selector(HashAlgorithm.crc32, 256, 14) ecmp;
    direct_counter(CounterType.packets_and_bytes) flow_counter;
    direct_meter<bit<2>>(MeterType.bytes) flow_meter;
    @id(0x12000001) counter(32, CounterType.bytes) port_bytes;
    meter(32, MeterType.packets) port_meter;
    register<bit<32>>(32) last_seen;

    action set_port(bit<9> port) { std_meta.egress_spec = port; }
    action metered() {
        flow_meter.read(meta.color);
        flow_counter.count();
    }
    action account(bit<32> index) {
        port_bytes.count(index);
        port_meter.execute_meter(index, meta.color);
        last_seen.read(meta.count, index);
        last_seen.write(index, meta.count + 1);
    }

    @brief("Next hop by destination")
    table nexthop {
        key = { hdr.h.a: exact; }
        actions = { set_port; }
        implementation = nexthops;
    }
    table multipath {
        key = { hdr.h.b: lpm; hdr.h.a: selector; hdr.h.c: selector; }
        actions = { set_port; NoAction; }
        implementation = ecmp;
        size = 512;
    }
    table flows {
        key = { hdr.h.a: exact; hdr.h.b: exact; }
        actions = { metered; NoAction; }
        counters = flow_counter;
        meters = flow_meter;
        support_timeout = true;
        default_action = NoAction();
    }
    table accounting {
        key = { std_meta.ingress_port: exact; }
        actions = { account; }
        default_action = account(0);
    }
    apply {
        if (!nexthop.apply().hit) {
            multipath.apply();
        }
        flows.apply();
        accounting.apply();
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) { apply { } }

control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
