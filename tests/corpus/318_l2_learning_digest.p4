// Corpus 318: an L2 learning switch in the style of p4-learning's l2_learning exercise:
// an unknown source MAC (smac table miss) is reported to the controller with a digest of
// (MAC, ingress port); known destinations are forwarded by the dmac table, unknown ones
// flooded through a per-ingress-port multicast group; egress prunes the ingress port.
#include <core.p4>
#include <v1model.p4>

typedef bit<48> mac_t;
typedef bit<9>  port_t;

header ethernet_t {
    mac_t   dst_addr;
    mac_t   src_addr;
    bit<16> ether_type;
}

struct learn_t {
    mac_t  src_addr;
    port_t ingress_port;
}

struct headers_t {
    ethernet_t ethernet;
}

struct metadata_t {
    learn_t learn;
}

parser ParserImpl(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t stdmeta) {
    state start {
        packet.extract(hdr.ethernet);
        transition accept;
    }
}

control VerifyChecksumImpl(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t stdmeta) {
    action drop() {
        mark_to_drop(stdmeta);
    }

    action mac_learn() {
        meta.learn.src_addr = hdr.ethernet.src_addr;
        meta.learn.ingress_port = stdmeta.ingress_port;
        digest<learn_t>(1, meta.learn);
    }

    table smac {
        key = {
            hdr.ethernet.src_addr : exact;
        }
        actions = {
            mac_learn;
            NoAction;
        }
        size = 256;
        default_action = mac_learn;
    }

    action forward(port_t egress_port) {
        stdmeta.egress_spec = egress_port;
    }

    table dmac {
        key = {
            hdr.ethernet.dst_addr : exact;
        }
        actions = {
            forward;
            NoAction;
        }
        size = 256;
        default_action = NoAction;
    }

    action set_mcast_grp(bit<16> mcast_grp) {
        stdmeta.mcast_grp = mcast_grp;
    }

    table broadcast {
        key = {
            stdmeta.ingress_port : exact;
        }
        actions = {
            set_mcast_grp;
            NoAction;
        }
        size = 32;
        default_action = NoAction;
    }

    apply {
        smac.apply();
        if (dmac.apply().hit) {
            // known destination
        } else {
            broadcast.apply();
        }
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t stdmeta) {
    apply {
        // No reflection out of the port the frame came in on.
        if (stdmeta.egress_port == stdmeta.ingress_port) {
            mark_to_drop(stdmeta);
        }
    }
}

control ComputeChecksumImpl(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control DeparserImpl(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
    }
}

V1Switch(ParserImpl(), VerifyChecksumImpl(), IngressImpl(), EgressImpl(),
         ComputeChecksumImpl(), DeparserImpl()) main;
