// Corpus 217: a struct inside a header: its members are parsed, emitted and matched
// in place; the struct is read and written as a whole and member by member.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

struct flow_t {
    bit<8>  proto;
    bit<16> port;
}

header probe_t {
    bit<8> version;
    flow_t flow;
    flow_t reply;
}

struct headers_t {
    ethernet_t ethernet;
    probe_t    probe;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.probe);
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    action forward(bit<9> port) {
        std_meta.egress_spec = port;
    }
    action drop() {
        mark_to_drop(std_meta);
    }

    table by_proto {
        key = {
            hdr.probe.flow.proto : exact;
        }
        actions = { forward; drop; }
        default_action = drop();
    }

    apply {
        flow_t f = hdr.probe.flow;
        hdr.probe.reply = f;
        hdr.probe.reply.port = f.port + 1;
        by_proto.apply();
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) { apply { } }

control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.probe);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
