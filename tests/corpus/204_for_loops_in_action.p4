// Corpus 204: 'for' loops in an action, with continue, break, nesting and several
// initializer/update clauses
// BMv2 runs them as _jump/_jump_if_zero primitives: the test at the top, continue to the
// updates, break to the end; each loop variable lives in the loop's own scope.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header data_t {
    bit<8> n;
    bit<8> sum_odd;
    bit<8> first_big;
    bit<8> pairs;
    bit<8> meet;
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
        transition select(hdr.ethernet.ether_type) {
            0x88b5: parse_data;
            default: accept;
        }
    }
    state parse_data {
        pkt.extract(hdr.data);
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    action count_loops() {
        hdr.data.sum_odd = 0;
        for (bit<8> i = 0; i < hdr.data.n; i = i + 1) {
            if ((i & 1) == 0) {
                continue;
            }
            hdr.data.sum_odd = hdr.data.sum_odd + i;
        }
        hdr.data.first_big = 0xFF;
        for (bit<8> j = 0; j < 16; j = j + 1) {
            if (j * j > hdr.data.n) {
                hdr.data.first_big = j;
                break;
            }
        }
        hdr.data.pairs = 0;
        for (bit<8> a = 0; a < 4; a = a + 1) {
            for (bit<8> b = a + 1; b < 4; b = b + 1) {
                hdr.data.pairs = hdr.data.pairs + 1;
            }
        }
        hdr.data.meet = 0;
        for (bit<8> x = 0, bit<8> y = 10; x < y; x = x + 1, y = y - 1) {
            hdr.data.meet = hdr.data.meet + 1;
        }
    }
    apply {
        std_meta.egress_spec = 2;
        if (hdr.data.isValid()) {
            count_loops();
        }
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) { apply { } }

control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.data);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
