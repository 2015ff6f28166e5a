// Corpus 222: static_assert's bool result initializing constants (as core.p4 documents:
// it is checked while compiling and its value is true), used in a condition.
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

const bit<16> ETHERTYPE_PROBE = 0x88B5;
const bool version_ok = static_assert(__v1model_version >= 20180101,
                                      "needs v1model 20180101 or later");
const bool probe_ok = static_assert(ETHERTYPE_PROBE != 0);

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
    apply {
        std_meta.egress_spec = 2;
        if (version_ok && probe_ok && hdr.ethernet.ether_type == ETHERTYPE_PROBE) {
            hdr.ethernet.src_addr = 0xAAAAAAAAAAAA;
        }
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
