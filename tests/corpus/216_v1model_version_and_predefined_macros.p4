// Corpus 216: what p4c's preprocessor and v1model.p4 provide: __p4c__ and
// __TARGET_BMV2__ are predefined, the include guards _CORE_P4_ and _V1_MODEL_P4_ are
// set, and the default V1MODEL_VERSION (20180101) leaves PortId_t to the program.
#include <core.p4>
#include <v1model.p4>

#if !defined(_CORE_P4_) || !defined(_V1_MODEL_P4_)
#error "core.p4 and v1model.p4 define their include guards"
#endif

#if V1MODEL_VERSION >= 20200408
#error "the default v1model version is 20180101"
#endif

typedef bit<9> PortId_t;

#if defined(__p4c__) && defined(__TARGET_BMV2__)
const PortId_t OUT_PORT = 3;
#else
const PortId_t OUT_PORT = 4;
#endif

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
    apply {
        std_meta.egress_spec = OUT_PORT;
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
