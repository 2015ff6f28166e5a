// Corpus 144: a register read-modify-written across packets, seen in the packets
// Each packet adds b2 to cell b1 of a bit<32> register and carries the new sum in f2;
// cells start at 0 and are independent (v1model.p4 `register` read/write; BMv2
// docs/simple_switch.md registers keep state between packets).
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

control VerifyImpl(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    register<bit<32>>(32w4) sums;
    apply {
        if (!hdr.data.isValid()) {
            mark_to_drop(std_meta);
            exit;
        }
        bit<32> index = (bit<32>) hdr.data.b1[1:0];
        bit<32> sum;
        sums.read(sum, index);
        sum = sum + (bit<32>) hdr.data.b2;
        sums.write(index, sum);
        hdr.data.f2 = sum;
        std_meta.egress_spec = 2;
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) { apply { } }

control ComputeImpl(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.data);
    }
}

V1Switch(ParserImpl(), VerifyImpl(), IngressImpl(), EgressImpl(), ComputeImpl(),
         DeparserImpl()) main;
