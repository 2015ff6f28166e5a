// Corpus 002: preprocessing conditionals: #if with arithmetic and defined(), #ifdef,
// #ifndef, #elif, #else, nested conditionals. Only the selected branches compile.
#include <core.p4>
#include <v1model.p4>

#define VERSION 3
#define FEATURE_TAG

#if VERSION >= 3 && defined(FEATURE_TAG)
#define TAG_VALUE 0x33
#elif VERSION == 2
#define TAG_VALUE 0x22
#else
#define TAG_VALUE 0x11
#endif

#ifdef FEATURE_MISSING
#error "FEATURE_MISSING must not be defined"
#endif

#ifndef OUT_PORT
#define OUT_PORT 3
#endif

#if VERSION == 1
this line is not P4 and must be skipped
#elif VERSION == 3
#  if 0
also skipped
#  else
#define MARK 0xAB
#  endif
#else
#define MARK 0x00
#endif

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header tag_t {
    bit<8> tag;
    bit<8> mark;
}

struct headers_t {
    ethernet_t ethernet;
    tag_t      tag;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.tag);
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = OUT_PORT;
        hdr.tag.tag = TAG_VALUE;
#ifdef MARK
        hdr.tag.mark = MARK;
#endif
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {
    apply { }
}

control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.tag);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
