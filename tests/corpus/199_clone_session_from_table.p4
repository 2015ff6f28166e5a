// Corpus 199: clone(I2E) with the session id taken from a table entry's action data
// The session parameter of clone is a run-time value (v1model.p4: clone(in CloneType,
// in bit<32> session)); each entry picks a mirroring session and so a port, a table miss
// makes no clone.
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
    action do_clone(bit<32> session) {
        clone(CloneType.I2E, session);
    }
    table clone_sel {
        key = { hdr.data.b1 : exact @name("b1"); }
        actions = { do_clone; NoAction; }
        default_action = NoAction();
    }
    apply {
        std_meta.egress_spec = 2;
        if (hdr.data.isValid()) {
            clone_sel.apply();
        }
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {
    apply {
        if (hdr.data.isValid()) {
            hdr.data.b2 = (bit<8>) std_meta.instance_type;
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
