// Corpus 003: const declarations (typed, derived from other consts, local to a control)
// and typedef (of bit types and of another typedef) used for fields, params and locals.
#include <core.p4>
#include <v1model.p4>

typedef bit<48> mac_addr_t;
typedef bit<9>  port_t;
typedef port_t  egress_port_t;
typedef bit<16> word_t;

const egress_port_t OUT_PORT = 4;
const word_t BASE = 16w0x1000;
const word_t OFFSET = BASE + 16w0x0020;
const bit<8> SHIFT = 4;

header ethernet_t {
    mac_addr_t dst_addr;
    mac_addr_t src_addr;
    word_t     ether_type;
}

header data_t {
    word_t x;
    word_t y;
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

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    const mac_addr_t NEW_SRC = 48w0x0000000000AA;
    apply {
        egress_port_t port = OUT_PORT;
        std_meta.egress_spec = port;
        hdr.ethernet.src_addr = NEW_SRC;
        hdr.data.x = hdr.data.x + OFFSET;
        hdr.data.y = hdr.data.y << SHIFT;
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
