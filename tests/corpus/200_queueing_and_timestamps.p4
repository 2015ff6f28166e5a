// Corpus 200: queueing metadata and global timestamps in egress (values wildcarded)
// enq_timestamp, enq_qdepth, deq_timedelta, deq_qdepth and the timestamps vary, so the STF
// wildcards them; egress_global_timestamp is never before ingress_global_timestamp (one
// microsecond clock, simple_switch.md: queueing_metadata, intrinsic_metadata).
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header data_t {
    bit<32> f1;
    bit<32> f2;
    bit<16> h1;
    bit<8>  b1;
    bit<8>  b2;
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
    apply {
        std_meta.egress_spec = 2;
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {
    apply {
        if (hdr.data.isValid()) {
            hdr.ethernet.src_addr = std_meta.ingress_global_timestamp;
            hdr.data.f1 = std_meta.enq_timestamp;
            hdr.data.f2 = std_meta.deq_timedelta;
            hdr.data.h1 = std_meta.deq_qdepth[15:0];
            bool in_order = std_meta.egress_global_timestamp >= std_meta.ingress_global_timestamp;
            hdr.data.b1 = in_order ? 8w1 : 8w0;
            hdr.data.b2 = std_meta.enq_qdepth[7:0];
        }
    }
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
