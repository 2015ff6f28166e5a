// Corpus 323: a heavy-hitter filter in the style of p4-learning's count-min sketch
// exercises: three register rows indexed by different hashes (crc16, crc32, csum16) of the
// five-tuple count each flow's packets; the minimum is the estimate, and a flow above the
// threshold a keyless table gives is dropped (and counted) while others are forwarded.
#include <core.p4>
#include <v1model.p4>

#define SKETCH_WIDTH 1024

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

header l4_t {
    bit<16> src_port;
    bit<16> dst_port;
}

struct headers_t {
    ethernet_t ethernet;
    ipv4_t     ipv4;
    l4_t       l4;
}

struct sketch_meta_t {
    bit<32> index0;
    bit<32> index1;
    bit<32> index2;
    bit<32> value0;
    bit<32> value1;
    bit<32> value2;
    bit<32> estimate;
    bit<32> threshold;
}

struct metadata_t {
    sketch_meta_t sketch;
}

parser ParserImpl(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t stdmeta) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) {
            6: parse_l4;
            17: parse_l4;
            default: accept;
        }
    }

    state parse_l4 {
        packet.extract(hdr.l4);
        transition accept;
    }
}

control VerifyChecksumImpl(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control Sketch(inout headers_t hdr, inout sketch_meta_t sk) {
    register<bit<32>>(SKETCH_WIDTH) row0;
    register<bit<32>>(SKETCH_WIDTH) row1;
    register<bit<32>>(SKETCH_WIDTH) row2;

    action hash_indices() {
        hash(sk.index0, HashAlgorithm.crc16, 32w0,
             { hdr.ipv4.src_addr, hdr.ipv4.dst_addr, hdr.ipv4.protocol,
               hdr.l4.src_port, hdr.l4.dst_port }, 32w1024);
        hash(sk.index1, HashAlgorithm.crc32, 32w0,
             { hdr.ipv4.src_addr, hdr.ipv4.dst_addr, hdr.ipv4.protocol,
               hdr.l4.src_port, hdr.l4.dst_port }, 32w1024);
        hash(sk.index2, HashAlgorithm.csum16, 32w0,
             { hdr.ipv4.src_addr, hdr.ipv4.dst_addr, hdr.ipv4.protocol,
               hdr.l4.src_port, hdr.l4.dst_port }, 32w1024);
    }

    action update_rows() {
        row0.read(sk.value0, sk.index0);
        row1.read(sk.value1, sk.index1);
        row2.read(sk.value2, sk.index2);
        sk.value0 = sk.value0 + 1;
        sk.value1 = sk.value1 + 1;
        sk.value2 = sk.value2 + 1;
        row0.write(sk.index0, sk.value0);
        row1.write(sk.index1, sk.value1);
        row2.write(sk.index2, sk.value2);
    }

    apply {
        hash_indices();
        update_rows();
        sk.estimate = sk.value0;
        if (sk.value1 < sk.estimate) {
            sk.estimate = sk.value1;
        }
        if (sk.value2 < sk.estimate) {
            sk.estimate = sk.value2;
        }
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t stdmeta) {
    Sketch() sketch;
    counter(32w1, CounterType.packets) heavy_hitter_drops;

    action set_threshold(bit<32> threshold) {
        meta.sketch.threshold = threshold;
    }

    table threshold_config {
        actions = {
            set_threshold;
        }
        default_action = set_threshold(1000);
    }

    action forward(bit<9> port) {
        stdmeta.egress_spec = port;
    }

    action drop() {
        mark_to_drop(stdmeta);
    }

    table routes {
        key = {
            hdr.ipv4.dst_addr : lpm;
        }
        actions = {
            forward;
            drop;
        }
        const default_action = drop();
    }

    apply {
        if (hdr.l4.isValid()) {
            threshold_config.apply();
            sketch.apply(hdr, meta.sketch);
            if (meta.sketch.estimate > meta.sketch.threshold) {
                heavy_hitter_drops.count(0);
                drop();
                return;
            }
        }
        if (hdr.ipv4.isValid()) {
            routes.apply();
        } else {
            drop();
        }
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t stdmeta) {
    apply { }
}

control ComputeChecksumImpl(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control DeparserImpl(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.l4);
    }
}

V1Switch(ParserImpl(), VerifyChecksumImpl(), IngressImpl(), EgressImpl(),
         ComputeChecksumImpl(), DeparserImpl()) main;
