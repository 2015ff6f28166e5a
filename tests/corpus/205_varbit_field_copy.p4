// Corpus 205: assigning one varbit field to another copies its data and its length
// The second option takes the first one's bytes and size (BMv2's assign_VL), so the
// deparser emits it with the new length.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header len_t {
    bit<8> n1;
    bit<8> n2;
}

header opt_t {
    varbit<32> data;
}

struct headers_t {
    ethernet_t ethernet;
    len_t      len;
    opt_t      first;
    opt_t      second;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x88b5: parse_options;
            default: accept;
        }
    }
    state parse_options {
        pkt.extract(hdr.len);
        pkt.extract(hdr.first, (bit<32>)hdr.len.n1 * 8);
        pkt.extract(hdr.second, (bit<32>)hdr.len.n2 * 8);
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        if (hdr.second.isValid()) {
            hdr.second.data = hdr.first.data;
            hdr.len.n2 = hdr.len.n1;
        }
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) { apply { } }

control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.len);
        pkt.emit(hdr.first);
        pkt.emit(hdr.second);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
