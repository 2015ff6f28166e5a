// Corpus 207: named arguments in any order: the V1Switch instantiation, an action and a
// function call, extern methods (register write/read, counter count) and mark_to_drop.
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
    bit<8> diff;
    bit<8> old;
}

struct headers_t {
    ethernet_t ethernet;
    data_t     data;
}

struct metadata_t { }

bit<8> minus(in bit<8> x, in bit<8> y) {
    return x - y;
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
    register<bit<8>>(32w4) last;
    counter(32w4, CounterType.packets) seen;

    action forward(bit<9> port, bit<8> tag) {
        std_meta.egress_spec = port;
        hdr.data.b = tag;
    }

    apply {
        if (!hdr.data.isValid()) {
            mark_to_drop(standard_metadata = std_meta);
            return;
        }
        hdr.data.diff = minus(y = hdr.data.b, x = hdr.data.a);
        last.read(index = 32w1, result = hdr.data.old);
        last.write(value = hdr.data.a, index = 32w1);
        seen.count(index = 32w2);
        forward(tag = 8w0x77, port = 9w2);
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

V1Switch(vr = NoVerify(), dep = DeparserImpl(), eg = EgressImpl(), p = ParserImpl(),
         ck = NoCompute(), ig = IngressImpl()) main;
