// Golden 02: const entries on lpm/ternary/range/optional keys with explicit
// priorities, @defaultonly/@tableonly, a const default action with arguments.
#include <core.p4>
#include <v1model.p4>

header ipv4_t {
    bit<8>  tos;
    bit<8>  proto;
    bit<16> port;
    bit<32> dst;
}

struct headers_t { ipv4_t ipv4; }
struct metadata_t { bit<8> klass; }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    action set_class(bit<8> klass) { meta.klass = klass; }
    action to_port(bit<9> port) { std_meta.egress_spec = port; }
    /* Traffic classes by ternary ToS, port range and optional protocol. */
    table classify {
        key = {
            hdr.ipv4.tos: ternary;
            hdr.ipv4.port: range;
            hdr.ipv4.proto: optional;
        }
        actions = { set_class; @defaultonly NoAction; }
        const default_action = set_class(7);
        const entries = {
            priority = 10: (0x10 &&& 0xf0, 1 .. 1023, 6): set_class(1);
            priority = 20: (_, _, 17): set_class(2);
        }
    }
    /* Routes with a pre-installed default route. */
    table route {
        key = { hdr.ipv4.dst: lpm; }
        actions = { @tableonly to_port; NoAction; }
        entries = {
            0x0a000000 &&& 0xff000000: to_port(1);
        }
    }
    apply {
        classify.apply();
        route.apply();
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) { apply { } }

control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.ipv4); }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
