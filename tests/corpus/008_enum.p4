// Corpus 008: a plain (non-serializable) enum as a local variable: assignment from
// members, and equality and inequality comparisons steering the packet.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

enum Direction { Up, Down, Stay }

header data_t {
    bit<8>  op;
    bit<16> value;
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
        pkt.extract(hdr.data);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        Direction d = Direction.Stay;
        if (hdr.data.op == 1) {
            d = Direction.Up;
        } else if (hdr.data.op == 2) {
            d = Direction.Down;
        }
        if (d == Direction.Up) {
            hdr.data.value = hdr.data.value + 1;
            std_meta.egress_spec = 2;
        } else if (d == Direction.Down) {
            hdr.data.value = hdr.data.value - 1;
            std_meta.egress_spec = 3;
        } else {
            std_meta.egress_spec = 4;
        }
        if (d != Direction.Stay) {
            hdr.data.op = 0;
        }
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {
    apply { }
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
