// Negative: lookahead of a header with a varbit field (its length is unknown)
#include <core.p4>
#include <v1model.p4>

header v_t {
    bit<8>     len;
    varbit<64> data;
}

struct headers_t { v_t v; }
struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        v_t peek = pkt.lookahead<v_t>();
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }
control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) { apply { } }
control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) { apply { } }
control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }
control DeparserImpl(packet_out pkt, in headers_t hdr) { apply { } }

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
