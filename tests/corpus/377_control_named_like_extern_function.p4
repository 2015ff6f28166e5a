// Corpus 377: controls named verify_checksum and compute_checksum, like v1model's extern
// functions (as p4c's own samples and P4_14 translations name them). p4c tells a control
// from the extern function by the call's arguments: `verify_checksum()` in main is the
// control's constructor, `verify_checksum(cond, data, sum, algo)` inside it the extern.
#include <core.p4>
#include <v1model.p4>

header ipv4_t {
    bit<4> version; bit<4> ihl; bit<8> diffserv; bit<16> total_len;
    bit<16> identification; bit<3> flags; bit<13> frag_offset;
    bit<8> ttl; bit<8> protocol; bit<16> hdr_checksum;
    bit<32> src_addr; bit<32> dst_addr;
}

struct headers_t { ipv4_t ipv4; }
struct meta_t { }

parser parse(packet_in pkt, out headers_t hdr, inout meta_t meta,
             inout standard_metadata_t std) {
    state start { pkt.extract(hdr.ipv4); transition accept; }
}

control verify_checksum(inout headers_t hdr, inout meta_t meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.total_len,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset,
              hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control ingress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t std) {
    apply {
        if (std.checksum_error == 1) {
            std.egress_spec = 2;  // a bad checksum: port 2, TTL kept, sum recomputed
        } else {
            std.egress_spec = 1;
            hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
        }
    }
}

control egress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t std) {
    apply { }
}

control compute_checksum(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid() && hdr.ipv4.ttl != 0,
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.total_len,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset,
              hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control deparse(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.ipv4); }
}

V1Switch(parse(), verify_checksum(), ingress(), egress(), compute_checksum(),
         deparse()) main;
