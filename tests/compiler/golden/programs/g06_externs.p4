// Golden 06: checksums with payload, hash, digest, clone/resubmit/recirculate with
// @field_list, truncate, random, assert/assume, log_msg, @controller_header,
// serializable enums, header unions, slices, casts and concatenation.
#include <core.p4>
#include <v1model.p4>

enum bit<8> Kind { A = 1, B = 2 }

@controller_header("packet_in")
header cpu_in_t {
    bit<9> port;
    bit<7> pad;
}

header ipv4_t {
    bit<8>  ttl;
    bit<8>  proto;
    bit<16> csum;
    bit<32> src;
    bit<32> dst;
}

header v4_t { bit<32> addr; }
header v6_t { bit<128> addr; }
header_union ip_u { v4_t v4; v6_t v6; }

struct learn_t {
    bit<32> src;
    bit<9>  port;
}

struct headers_t {
    cpu_in_t cpu_in;
    ipv4_t   ipv4;
    ip_u     ip;
}

struct metadata_t {
    @field_list(1, 2)
    bit<16> hash;
    @field_list(2)
    bit<8>  rnd;
    Kind    kind;
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.proto) {
            4: parse_v4;
            default: accept;
        }
    }
    state parse_v4 {
        pkt.extract(hdr.ip.v4);
        transition accept;
    }
}

control VerifyImpl(inout headers_t hdr, inout metadata_t meta) {
    apply {
        verify_checksum_with_payload(hdr.ipv4.isValid(),
            { hdr.ipv4.ttl, hdr.ipv4.proto, hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.csum, HashAlgorithm.csum16);
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        hash(meta.hash, HashAlgorithm.crc16, 16w0, { hdr.ipv4.src, hdr.ipv4.dst }, 16w1024);
        random(meta.rnd, 0, 255);
        meta.kind = (Kind) hdr.ipv4.proto;
        if (meta.kind == Kind.A) {
            digest<learn_t>(1, { hdr.ipv4.src, std_meta.ingress_port });
        }
        bit<16> mixed = hdr.ipv4.src[15:8] ++ hdr.ipv4.dst[7:0];
        hdr.ipv4.csum[3:0] = mixed[3:0];
        assert(hdr.ipv4.ttl != 0);
        assume(std_meta.ingress_port != 511);
        log_msg("ttl={} mixed={}", { hdr.ipv4.ttl, mixed });
        if (hdr.ip.isValid()) {
            hdr.ip.v4.addr = (bit<32>) (int<32>) -1;
        }
        if (hdr.ipv4.proto == 0xfe) {
            clone_preserving_field_list(CloneType.I2E, 100, 1);
        } else if (hdr.ipv4.proto == 0xfd) {
            resubmit_preserving_field_list(2);
        }
        std_meta.egress_spec = 2;
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {
    apply {
        if (std_meta.instance_type == 1) {
            hdr.cpu_in.setValid();
            hdr.cpu_in.port = std_meta.ingress_port;
            truncate(64);
        }
        if (hdr.ipv4.ttl == 1) {
            recirculate_preserving_field_list(1);
        }
    }
}

control ComputeImpl(inout headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.ttl, hdr.ipv4.proto, hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.csum, HashAlgorithm.csum16);
    }
}

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.cpu_in);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.ip);
    }
}

V1Switch(ParserImpl(), VerifyImpl(), IngressImpl(), EgressImpl(), ComputeImpl(),
         DeparserImpl()) main;
