// Corpus 218: a varbit field whose maximum width is above 2048 bits (p4c limits only
// fixed widths to 2048): extracted with a length from the packet and emitted back.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header len_t {
    bit<8> bytes;
}

header blob_t {
    varbit<4096> data;
}

header trailer_t {
    bit<8> marker;
}

struct headers_t {
    ethernet_t ethernet;
    len_t      len;
    blob_t     blob;
    trailer_t  trailer;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.len);
        pkt.extract(hdr.blob, (bit<32>) hdr.len.bytes * 8);
        pkt.extract(hdr.trailer);
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        hdr.trailer.marker = 0xEE;
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) { apply { } }

control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.len);
        pkt.emit(hdr.blob);
        pkt.emit(hdr.trailer);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
