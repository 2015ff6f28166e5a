// Corpus 213: minSizeInBits() and minSizeInBytes() of headers are compile-time
// constants: they initialize a local constant and take part in expressions.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header sizes_t {
    bit<16> eth_bits;
    bit<16> eth_bytes;
    bit<16> total_bytes;
}

struct headers_t {
    ethernet_t ethernet;
    sizes_t    sizes;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.sizes);
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        const bit<16> ETH_BITS = hdr.ethernet.minSizeInBits();
        hdr.sizes.eth_bits = ETH_BITS;
        hdr.sizes.eth_bytes = (bit<16>) hdr.ethernet.minSizeInBytes();
        hdr.sizes.total_bytes = hdr.ethernet.minSizeInBytes() + hdr.sizes.minSizeInBytes();
        std_meta.egress_spec = 2;
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) { apply { } }

control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.sizes);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
