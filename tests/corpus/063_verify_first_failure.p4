// Corpus 063: two verify() calls in one state: the first false one ends parsing with its
// error (P4_16 spec, "verify"), so a later verify and the extract after them never run.
// On BMv2 ingress sees that error in parser_error; the header not extracted stays invalid
// and its bytes are payload (simple_switch.md, "parser_error"; bm_sim/parser.cpp).
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

error {
    ZeroA,
    ZeroB
}

header data_t {
    bit<8> a;
    bit<8> b;
}

header tail_t {
    bit<8> t;
}

struct headers_t {
    ethernet_t ethernet;
    data_t     data;
    tail_t     tail;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.data);
        verify(hdr.data.a != 0, error.ZeroA);
        verify(hdr.data.b != 0, error.ZeroB);
        pkt.extract(hdr.tail);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        if (std_meta.parser_error == error.NoError) {
            hdr.ethernet.src_addr = 0;
        } else if (std_meta.parser_error == error.ZeroA) {
            hdr.ethernet.src_addr = 0xA;
        } else if (std_meta.parser_error == error.ZeroB) {
            hdr.ethernet.src_addr = 0xB;
        } else {
            hdr.ethernet.src_addr = 0xFF;
        }
        if (hdr.tail.isValid()) {
            hdr.tail.t = 0x77;
        }
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
        pkt.emit(hdr.tail);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
