// Corpus 202: a control applied directly by its type name, and a control instance
// passed as a constructor argument to a control-typed parameter
// 'Scale.apply(...)' needs no instance declaration (the compiler makes one);
// 'Stepper(one) stepper' hands the instance 'one' to Stepper, which applies it.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header data_t {
    bit<8> a;
    bit<8> b;
}

struct headers_t {
    ethernet_t ethernet;
    data_t     data;
}

struct metadata_t { }

control adder_t(inout bit<8> v);

control AddOne(inout bit<8> v) {
    apply {
        v = v + 1;
    }
}

control Stepper(inout bit<8> v)(adder_t step) {
    apply {
        step.apply(v);
        v = v ^ 8w0x80;
    }
}

control Scale(inout bit<8> v) {
    apply {
        v = v << 1;
    }
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

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    AddOne() one;
    Stepper(one) stepper;
    apply {
        std_meta.egress_spec = 2;
        if (hdr.data.isValid()) {
            stepper.apply(hdr.data.a);
            Scale.apply(hdr.data.b);
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
