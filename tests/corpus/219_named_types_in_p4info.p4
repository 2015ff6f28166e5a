// Corpus 219: named types the control plane sees: a `type` as a table key and an
// action parameter (P4Info type_name, type_info.new_types) and a serializable enum in
// packet-in metadata and an action parameter (type_info.serializable_enums).
#include <core.p4>
#include <v1model.p4>

type bit<9> port_id_t;

enum bit<8> punt_reason_t {
    MISS   = 1,
    POLICY = 2
}

@controller_header("packet_in")
header packet_in_t {
    port_id_t     ingress_port;
    punt_reason_t reason;
    bit<7>        pad;
}

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

struct headers_t {
    packet_in_t packet_in;
    ethernet_t  ethernet;
}

struct metadata_t {
    port_id_t in_port;
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        meta.in_port = (port_id_t) std_meta.ingress_port;
        pkt.extract(hdr.ethernet);
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    action forward(port_id_t port) {
        std_meta.egress_spec = (bit<9>) port;
    }
    action punt(punt_reason_t reason) {
        std_meta.egress_spec = 9w4;
        hdr.packet_in.setValid();
        hdr.packet_in.ingress_port = meta.in_port;
        hdr.packet_in.reason = reason;
        hdr.packet_in.pad = 0;
    }

    table by_port {
        key = {
            meta.in_port : exact @name("in_port");
        }
        actions = { forward; punt; }
        default_action = punt(punt_reason_t.MISS);
    }

    apply {
        by_port.apply();
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) { apply { } }

control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.packet_in);
        pkt.emit(hdr.ethernet);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
