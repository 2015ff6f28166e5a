// IPv4 routing per partition, with multipath modes per (partition, protocol class)
// or per group, on an action selector.
#ifndef FABRIC_ROUTING_P4
#define FABRIC_ROUTING_P4

#include "../header.p4"

control Routing(inout headers_t hdr,
                inout fabric_metadata_t meta,
                inout standard_metadata_t std_meta) {
    // The selector only reduces meta.mp_select modulo the group size (identity
    // hash), so the mode chosen for the group decides what mp_select holds.
    action_selector(HashAlgorithm.identity, SELECTOR_MEMBERS, 16) multipath_selector;
    counter(MEMBER_COUNTERS, CounterType.packets_and_bytes) member_packets;
    counter(PARTITION_COUNT, CounterType.packets_and_bytes) ttl_expired;
    register<bit<16>>(GROUP_COUNT) round_robin_next;

    action set_group(group_id_t group) {
        meta.group_id = group;
    }

    /* (partition, IPv4 destination) longest-prefix match to a next-hop group;
       no match drops the packet. */
    table routes {
        key = {
            meta.partition:    exact @name("partition");
            hdr.ipv4.dst_addr: lpm   @name("ipv4_dst");
        }
        actions = { set_group; NoAction; }
        default_action = NoAction();
        size = ROUTES_SIZE;
    }

    action use_ecmp() {
        meta.mp_mode = MP_MODE_ECMP;
    }
    action use_entropy() {
        meta.mp_mode = MP_MODE_ENTROPY;
    }
    action use_round_robin() {
        meta.mp_mode = MP_MODE_ROUND_ROBIN;
    }

    /* How each group spreads packets over its members; groups with no entry
       use the 5-tuple hash (ECMP). */
    table multipath_modes {
        key = {
            meta.group_id: exact @name("group_id");
        }
        actions = { use_ecmp; use_entropy; use_round_robin; }
        default_action = use_ecmp();
        size = GROUP_COUNT;
    }

    /* Per (partition, protocol class) overrides of the group's mode, so that
       e.g. UEC sprays while RoCEv2 stays pinned per queue pair. No entry: the
       group's mode, except that RoCEv2 and TCP always use the 5-tuple hash
       (ECMP), so only an explicit entry ever reorders them. */
    table multipath_class_modes {
        key = {
            meta.partition: exact @name("partition");
            meta.mp_class:  exact @name("protocol_class");
        }
        actions = { use_ecmp; use_entropy; use_round_robin; @defaultonly NoAction; }
        default_action = NoAction();
        size = MP_CLASS_MODES_SIZE;
    }

    action forward(port_num_t port, mac_addr_t src_mac, mac_addr_t dst_mac,
                   bit<32> member_index) {
        std_meta.egress_spec = port;
        hdr.ethernet.src_addr = src_mac;
        hdr.ethernet.dst_addr = dst_mac;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
        member_packets.count(member_index);
    }
    action drop_packet() {
        mark_to_drop(std_meta);
        meta.dropped = true;
    }

    /* Group members (egress port and MAC rewrite), chosen by the selector from
       meta.mp_select; a single next hop is a table entry pointing at one member. */
    table next_hops {
        key = {
            meta.group_id:  exact    @name("group_id");
            meta.mp_select: selector @name("mp_select");
        }
        actions = { forward; drop_packet; }
        implementation = multipath_selector;
        size = NEXT_HOPS_SIZE;
    }

    apply {
        if (hdr.ipv4.ttl <= 1) {
            mark_to_drop(std_meta);
            meta.dropped = true;
            ttl_expired.count((bit<32>) meta.partition);
        } else if (routes.apply().hit) {
            if (hdr.udp.isValid()) {
                if (hdr.udp.dst_port == UDP_PORT_UEC) {
                    meta.mp_class = MP_CLASS_UEC;
                } else if (hdr.udp.dst_port == UDP_PORT_ROCEV2) {
                    meta.mp_class = MP_CLASS_ROCEV2;
                } else {
                    meta.mp_class = MP_CLASS_OTHER_UDP;
                }
            } else if (hdr.tcp.isValid()) {
                meta.mp_class = MP_CLASS_TCP;
            } else {
                meta.mp_class = MP_CLASS_OTHER;
            }
            if (!multipath_class_modes.apply().hit) {
                multipath_modes.apply();
                // A group's mode never moves a queue pair or a TCP flow.
                if (meta.mp_class == MP_CLASS_ROCEV2 || meta.mp_class == MP_CLASS_TCP) {
                    meta.mp_mode = MP_MODE_ECMP;
                }
            }
            if (meta.mp_mode == MP_MODE_ROUND_ROBIN) {
                round_robin_next.read(meta.mp_select, (bit<32>) meta.group_id);
                round_robin_next.write((bit<32>) meta.group_id, meta.mp_select + 1);
            } else if (meta.mp_mode == MP_MODE_ENTROPY
                       && (meta.mp_class == MP_CLASS_UEC || meta.mp_class == MP_CLASS_ROCEV2)) {
                // The UDP source port is the entropy of UEC (the EV) and RoCEv2.
                hash(meta.mp_select, HashAlgorithm.crc16, 16w0,
                     { hdr.udp.src_port }, 32w65536);
            } else {
                hash(meta.mp_select, HashAlgorithm.crc16, 16w0,
                     { hdr.ipv4.src_addr, hdr.ipv4.dst_addr, hdr.ipv4.protocol,
                       meta.l4_src_port, meta.l4_dst_port }, 32w65536);
            }
            if (!next_hops.apply().hit) {
                mark_to_drop(std_meta);
                meta.dropped = true;
            }
        } else {
            mark_to_drop(std_meta);
            meta.dropped = true;
        }
    }
}

#endif
