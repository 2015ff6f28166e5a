// Corpus 208: a string literal spanning several lines in an annotation, as SAI P4
// writes its @entry_restriction constraints; the table works as usual.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

struct headers_t {
    ethernet_t ethernet;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
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

    @entry_restriction("
        // only IPv4 and ARP frames may be steered
        ether_type == 0x0800 || ether_type == 0x0806;
    ")
    table steer {
        key = {
            hdr.ethernet.ether_type : exact @name("ether_type");
        }
        actions = { forward; drop; }
        default_action = drop();
    }

    apply {
        steer.apply();
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) { apply { } }

control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
