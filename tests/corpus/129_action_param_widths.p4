// Corpus 129: action parameters of 1, 9, 48 and 128 bits
// Action data of each width arrives unchanged from the control plane (P4Runtime spec:
// params are bytestrings of the declared bitwidth; BMv2 docs/JSON_format.md
// "runtime_data"); the 128-bit one is written to f1/f2 through slices, a 9-bit one to h1.
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

struct metadata_t {
    bit<128> wide;
}

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
    action set_all(bit<1> flag, bit<9> tag9, bit<9> port, bit<48> mac, bit<128> big) {
        hdr.data.b1 = (bit<8>) flag;
        hdr.data.h1 = (bit<16>) tag9;
        std_meta.egress_spec = port;
        hdr.ethernet.src_addr = mac;
        meta.wide = big;
    }
    /* One entry carries all four widths. */
    table t {
        key = { hdr.data.b2: exact; }
        actions = { set_all; NoAction; }
        default_action = NoAction();
    }
    apply {
        meta.wide = 0;
        std_meta.egress_spec = 5;
        if (hdr.data.isValid()) {
            t.apply();
            hdr.data.f1 = meta.wide[127:96];
            hdr.data.f2 = meta.wide[31:0];
        }
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
