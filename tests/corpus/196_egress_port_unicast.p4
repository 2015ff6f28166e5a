// Corpus 196: egress_port, egress_rid and instance_type in egress for unicast packets
// egress_port in egress is the port ingress put in egress_spec, including port 0 and the
// ingress port itself; egress_rid is 0 and instance_type 0 for unicast (simple_switch.md:
// egress_port, egress_rid); the assert/assume hold and log_msg prints.
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

struct metadata_t { }

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
    apply {
        if (hdr.data.isValid()) {
            std_meta.egress_spec = (bit<9>) hdr.data.b1;
        } else {
            mark_to_drop(std_meta);
        }
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {
    apply {
        assert(std_meta.instance_type == 0);
        assume(std_meta.egress_rid == 0);
        log_msg("unicast out of port {}", { std_meta.egress_port });
        hdr.data.f1 = (bit<32>) std_meta.instance_type;
        hdr.data.h1 = std_meta.egress_rid;
        hdr.data.b2 = (bit<8>) std_meta.egress_port;
    }
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
