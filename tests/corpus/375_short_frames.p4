// Corpus 375: frames shorter than an Ethernet header (14 bytes), in and out
// p4c's own STF tests send many such frames (2 to 13 bytes); no veth carries them, so
// a runner must give the switch pcap files (simple_switch --use-files), as p4c's does.
// A 2-byte header is parsed; a frame too short for it comes out marked on port 2.
#include <core.p4>
#include <v1model.p4>

header two_t {
    bit<8> a;
    bit<8> b;
}

struct headers_t {
    two_t two;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.two);
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        if (hdr.two.isValid()) {
            hdr.two.b = hdr.two.a + 1;
            std_meta.egress_spec = 1;
        } else {
            hdr.two.setValid();
            hdr.two.a = 0xee;
            hdr.two.b = (std_meta.parser_error == error.PacketTooShort) ? 8w0x01 : 8w0x00;
            std_meta.egress_spec = 2;
        }
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {
    apply { }
}

control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.two);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
