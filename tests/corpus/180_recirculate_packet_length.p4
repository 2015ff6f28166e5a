// Corpus 180: standard_metadata.packet_length after recirculation is the deparsed length
// Egress removes the data header before recirculating, so the recirculated packet is 12 bytes
// shorter and packet_length in its ingress says so (simple_switch.md: packet_length; the
// recirculated packet is the one "constructed by the deparser").
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
    @field_list(1)
    bit<8> passes;
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
    apply {
        if (std_meta.instance_type == 4) {
            hdr.ethernet.dst_addr = (bit<48>) std_meta.packet_length;
        } else {
            hdr.ethernet.src_addr = (bit<48>) std_meta.packet_length;
        }
        std_meta.egress_spec = 2;
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {
    apply {
        if (meta.passes == 0 && hdr.data.isValid() && hdr.data.b1 == 1) {
            meta.passes = 1;
            hdr.data.setInvalid();
            hdr.ethernet.ether_type = 0x0800;
            recirculate_preserving_field_list(1);
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
