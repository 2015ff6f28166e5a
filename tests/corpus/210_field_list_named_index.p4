// Corpus 210: @field_list indexes given as a named constant and as a serializable
// enum member (as p4c's own samples write them); resubmit_preserving_field_list with
// the enum member keeps exactly the fields of that list.
#include <core.p4>
#include <v1model.p4>

const bit<8> MIRROR_LIST = 2;

enum bit<8> FieldLists {
    none   = 0,
    resub  = 1
}

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header data_t {
    bit<8> kept;
    bit<8> lost;
    bit<8> pass;
}

struct headers_t {
    ethernet_t ethernet;
    data_t     data;
}

struct metadata_t {
    @field_list(FieldLists.resub)
    bit<8> passes;
    @field_list(MIRROR_LIST)
    bit<8> mirrored_only;
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
        if (!hdr.data.isValid()) {
            mark_to_drop(std_meta);
            exit;
        }
        if (std_meta.instance_type == 6) {
            hdr.data.kept = meta.passes;
            hdr.data.lost = meta.mirrored_only;
            hdr.data.pass = 2;
            std_meta.egress_spec = 2;
        } else {
            meta.passes = 0x42;
            meta.mirrored_only = 0x77;
            resubmit_preserving_field_list(FieldLists.resub);
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
