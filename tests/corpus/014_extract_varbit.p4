// Corpus 014: extract of a header with a varbit field, its length in bits computed
// from a preceding length byte; re-emitted at its extracted length. An option longer
// than the varbit maximum is a parser error and the packet is dropped.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header optlen_t {
    bit<8> len;   // option bytes that follow
}

header option_t {
    varbit<64> data;
}

header tail_t {
    bit<16> value;
}

struct headers_t {
    ethernet_t ethernet;
    optlen_t   optlen;
    option_t   option;
    tail_t     tail;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.optlen);
        pkt.extract(hdr.option, (bit<32>) hdr.optlen.len * 8);
        pkt.extract(hdr.tail);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        if (std_meta.parser_error != error.NoError) {
            mark_to_drop(std_meta);
        } else {
            std_meta.egress_spec = 2;
            hdr.tail.value = hdr.tail.value + 1;
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
        pkt.emit(hdr.optlen);
        pkt.emit(hdr.option);
        pkt.emit(hdr.tail);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
