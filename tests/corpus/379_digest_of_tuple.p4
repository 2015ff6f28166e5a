// Corpus 379: digests of tuples, as p4c's own samples write them:
// digest<tuple<bit<48>, bit<9>>>(...) and digest(r, {list}) with the type inferred.
// A tuple has no name: p4c's P4Info calls these digests digest_0 and digest_1 and
// lists the elements' types in type_spec.tuple (as its issue430-1-bmv2 output shows).
#include <core.p4>
#include <v1model.p4>

header eth_t { bit<48> dst; bit<48> src; bit<16> type; }
struct headers_t { eth_t eth; }
struct meta_t { }

parser parse(packet_in pkt, out headers_t hdr, inout meta_t meta,
             inout standard_metadata_t std) {
    state start { pkt.extract(hdr.eth); transition accept; }
}

control no_checksum(inout headers_t hdr, inout meta_t meta) { apply { } }

control ingress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t std) {
    apply {
        digest<tuple<bit<48>, bit<9>>>(1, { hdr.eth.src, std.ingress_port });
        if (hdr.eth.type == 0x0800) {
            digest(2, { hdr.eth.type });
        }
        std.egress_spec = 2;
    }
}

control egress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t std) {
    apply { }
}

control deparse(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.eth); } }

V1Switch(parse(), no_checksum(), ingress(), egress(), no_checksum(), deparse()) main;
