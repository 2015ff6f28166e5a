// Corpus 004: `type` declarations (new types over bit<N>) used as header fields and
// locals, with the explicit casts P4 requires to and from the underlying type.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

type bit<16> flow_id_t;
type bit<9>  out_port_t;

const out_port_t MATCH_PORT = (out_port_t) 9w2;
const out_port_t OTHER_PORT = (out_port_t) 9w3;

header data_t {
    flow_id_t id;
    bit<16>   v;
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
        pkt.extract(hdr.data);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        bit<16> raw = (bit<16>) hdr.data.id;
        out_port_t port = OTHER_PORT;
        if (raw == 7) {
            port = MATCH_PORT;
        }
        hdr.data.id = (flow_id_t) hdr.data.v;
        hdr.data.v = raw + 1;
        std_meta.egress_spec = (bit<9>) port;
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

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
