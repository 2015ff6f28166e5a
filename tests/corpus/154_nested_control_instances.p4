// Corpus 154: one control instantiated twice, with constructor and direction params
// Each instance has its own table (`IngressImpl.first.inner_t`, `...second.inner_t`)
// and its own constructor value k; `in` is copied in, `out` and `inout` copied back
// at the end of apply (P4_16 spec, "Calling convention", "Constructor parameters").
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

control Inner(in bit<8> a, out bit<8> twice, inout bit<16> acc)(bit<16> k) {
    action bump(bit<16> v) { acc = acc + v; }
    /* Keyed on the `in` parameter. */
    table inner_t {
        key = { a: exact; }
        actions = { bump; NoAction; }
        default_action = NoAction();
    }
    apply {
        twice = a + a;
        acc = acc + k;
        inner_t.apply();
    }
}

control VerifyImpl(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    Inner(16w0x0001) first;
    Inner(16w0x0100) second;
    apply {
        if (!hdr.data.isValid()) {
            mark_to_drop(std_meta);
            exit;
        }
        first.apply(hdr.data.b1, hdr.data.b2, hdr.data.h1);
        bit<8> result;
        second.apply(hdr.data.b2, result, hdr.data.h1);
        hdr.data.b1 = result;
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
