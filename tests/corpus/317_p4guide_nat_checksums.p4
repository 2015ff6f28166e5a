// Corpus 317: a source NAT in the style of p4-guide's checksum demos: outgoing TCP and UDP
// flows get a public address and port from an exact-match table, replies are translated
// back; the IPv4 header checksum is verified and recomputed and the TCP and UDP checksums
// are recomputed over the pseudo header and the payload (update_checksum_with_payload);
// a UDP checksum of zero stays zero.
#include <core.p4>
#include <v1model.p4>

const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<8>  PROTO_TCP = 6;
const bit<8>  PROTO_UDP = 17;

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header ipv4_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  diffserv;
    bit<16> total_len;
    bit<16> identification;
    bit<3>  flags;
    bit<13> frag_offset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdr_checksum;
    bit<32> src_addr;
    bit<32> dst_addr;
}

header tcp_t {
    bit<16> src_port;
    bit<16> dst_port;
    bit<32> seq_no;
    bit<32> ack_no;
    bit<4>  data_offset;
    bit<4>  res;
    bit<8>  flags;
    bit<16> window;
    bit<16> checksum;
    bit<16> urgent_ptr;
}

header udp_t {
    bit<16> src_port;
    bit<16> dst_port;
    bit<16> length_;
    bit<16> checksum;
}

struct headers_t {
    ethernet_t ethernet;
    ipv4_t     ipv4;
    tcp_t      tcp;
    udp_t      udp;
}

struct metadata_t {
    bit<16> l4_src_port;
    bit<16> l4_dst_port;
    bit<16> l4_len;
    bool    udp_checksum_used;
}

parser ParserImpl(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t stdmeta) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        meta.l4_len = hdr.ipv4.total_len - (((bit<16>) hdr.ipv4.ihl) << 2);
        transition select(hdr.ipv4.protocol) {
            PROTO_TCP: parse_tcp;
            PROTO_UDP: parse_udp;
            default: accept;
        }
    }

    state parse_tcp {
        packet.extract(hdr.tcp);
        meta.l4_src_port = hdr.tcp.src_port;
        meta.l4_dst_port = hdr.tcp.dst_port;
        transition accept;
    }

    state parse_udp {
        packet.extract(hdr.udp);
        meta.l4_src_port = hdr.udp.src_port;
        meta.l4_dst_port = hdr.udp.dst_port;
        meta.udp_checksum_used = hdr.udp.checksum != 0;
        transition accept;
    }
}

control VerifyChecksumImpl(inout headers_t hdr, inout metadata_t meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.total_len,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset,
              hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t stdmeta) {
    action drop() {
        mark_to_drop(stdmeta);
    }

    @hidden
    action set_l4_src(bit<16> port) {
        if (hdr.tcp.isValid()) {
            hdr.tcp.src_port = port;
        } else {
            hdr.udp.src_port = port;
        }
    }

    @hidden
    action set_l4_dst(bit<16> port) {
        if (hdr.tcp.isValid()) {
            hdr.tcp.dst_port = port;
        } else {
            hdr.udp.dst_port = port;
        }
    }

    action snat(bit<32> public_addr, bit<16> public_port) {
        hdr.ipv4.src_addr = public_addr;
        set_l4_src(public_port);
    }

    action dnat(bit<32> private_addr, bit<16> private_port) {
        hdr.ipv4.dst_addr = private_addr;
        set_l4_dst(private_port);
    }

    table nat_out {
        key = {
            hdr.ipv4.src_addr   : exact @name("private_addr");
            meta.l4_src_port    : exact @name("private_port");
            hdr.ipv4.protocol   : exact @name("proto");
        }
        actions = {
            snat;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
    }

    table nat_in {
        key = {
            hdr.ipv4.dst_addr   : exact @name("public_addr");
            meta.l4_dst_port    : exact @name("public_port");
            hdr.ipv4.protocol   : exact @name("proto");
        }
        actions = {
            dnat;
            @defaultonly drop;
        }
        const default_action = drop();
    }

    action forward(bit<9> port) {
        stdmeta.egress_spec = port;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }

    table routes {
        key = {
            hdr.ipv4.dst_addr : lpm @name("dst");
        }
        actions = {
            forward;
            drop;
        }
        const default_action = drop();
    }

    apply {
        if (!hdr.ipv4.isValid() || stdmeta.checksum_error == 1) {
            drop();
            return;
        }
        // Port 1 faces the private side.
        if (stdmeta.ingress_port == 1) {
            nat_out.apply();
        } else {
            nat_in.apply();
        }
        routes.apply();
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t stdmeta) {
    apply { }
}

control ComputeChecksumImpl(inout headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.total_len,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset,
              hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
        update_checksum_with_payload(hdr.tcp.isValid(),
            { hdr.ipv4.src_addr, hdr.ipv4.dst_addr, 8w0, hdr.ipv4.protocol, meta.l4_len,
              hdr.tcp.src_port, hdr.tcp.dst_port, hdr.tcp.seq_no, hdr.tcp.ack_no,
              hdr.tcp.data_offset, hdr.tcp.res, hdr.tcp.flags, hdr.tcp.window,
              hdr.tcp.urgent_ptr },
            hdr.tcp.checksum, HashAlgorithm.csum16);
        update_checksum_with_payload(hdr.udp.isValid() && meta.udp_checksum_used,
            { hdr.ipv4.src_addr, hdr.ipv4.dst_addr, 8w0, hdr.ipv4.protocol, meta.l4_len,
              hdr.udp.src_port, hdr.udp.dst_port, hdr.udp.length_ },
            hdr.udp.checksum, HashAlgorithm.csum16);
    }
}

control DeparserImpl(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.tcp);
        packet.emit(hdr.udp);
    }
}

V1Switch(ParserImpl(), VerifyChecksumImpl(), IngressImpl(), EgressImpl(),
         ComputeChecksumImpl(), DeparserImpl()) main;
