// AI-fabric data plane on v1model: partitions (tagged between switches, a queue
// class each), IPv4 routing with per-group multipath (ECMP, UEC entropy
// spraying, round-robin, weighted), ECN marking, UEC packet trimming, UEC
// feedback in a queue class of its own, receiver-driven credit marking and
// INT-MD v2.1 with Telemetry Report v2.0.
// Every feature is configured through P4Runtime and does nothing until
// configured. See p4src/README.md.
#include <core.p4>
#include <v1model.p4>

#include "include/define.p4"
#include "include/size.p4"
#include "include/header.p4"
#include "include/parser.p4"
#include "include/checksum.p4"
#include "include/control/port_state.p4"
#include "include/control/packet_io.p4"
#include "include/control/partition.p4"
#include "include/control/partition_tag.p4"
#include "include/control/routing.p4"
#include "include/control/trimming.p4"
#include "include/control/credit.p4"
#include "include/control/ecn.p4"
#include "include/control/feedback.p4"
#include "include/control/int_main.p4"

control FabricIngress(inout headers_t hdr,
                      inout fabric_metadata_t meta,
                      inout standard_metadata_t std_meta) {
    counter(PORT_COUNT, CounterType.packets_and_bytes) port_rx;
    counter(PORT_COUNT, CounterType.packets) parser_errors;
    counter(PARTITION_COUNT, CounterType.packets_and_bytes) partition_drops;

    PartitionIngress() partition;
    PacketIoIngress() packet_io;
    Routing() routing;
    CreditMarking() credit_marking;
    TrimDecision() trimming;
    FeedbackQueue() feedback;

    apply {
        port_rx.count((bit<32>) std_meta.ingress_port);
        if (hdr.packet_out.isValid()) {
            // From the controller: straight out of the requested port.
            std_meta.egress_spec = hdr.packet_out.egress_port;
            hdr.packet_out.setInvalid();
            meta.from_cpu = true;
            exit;
        }
        if (std_meta.parser_error != error.NoError) {
            mark_to_drop(std_meta);
            parser_errors.count((bit<32>) std_meta.ingress_port);
            exit;
        }
        partition.apply(hdr, meta, std_meta);
        if (meta.dropped) {
            // A border port's unmapped tag: counted there, given no partition.
            exit;
        }
        packet_io.apply(hdr, meta, std_meta);
        if (meta.punt_reason == 0) {
            if (hdr.ipv4.isValid()) {
                routing.apply(hdr, meta, std_meta);
            } else {
                mark_to_drop(std_meta);
                meta.dropped = true;
            }
            if (!meta.dropped) {
                feedback.apply(hdr, meta, std_meta);
                credit_marking.apply(hdr, meta, std_meta);
                trimming.apply(hdr, meta, std_meta);
            } else {
                partition_drops.count((bit<32>) meta.partition);
            }
        }
    }
}

control FabricEgress(inout headers_t hdr,
                     inout fabric_metadata_t meta,
                     inout standard_metadata_t std_meta) {
    counter(PORT_COUNT, CounterType.packets_and_bytes) port_tx;

    PacketIoEgress() packet_io;
    RecordPortState() port_state;
    PartitionEgress() partition_check;
    PartitionTag() partition_tag;
    EcnMarking() ecn;
    TrimApply() trim;
    FeedbackCount() feedback_count;
    IntEgress() int_egress;

    apply {
        // INT handles both sink packets and their report copies; one call site
        // so that its tables are applied from one place only.
        bool run_int = false;
        if (std_meta.egress_port != CPU_PORT) {
            // Every packet out of a port's queues, report copies and the
            // controller's packets too, for the data queue's depth: any of them
            // may be the last one out of it.
            port_state.apply(meta, std_meta);
        }
        if (std_meta.instance_type == INSTANCE_EGRESS_CLONE) {
            run_int = true;
        } else if (std_meta.egress_port == CPU_PORT) {
            packet_io.apply(hdr, meta, std_meta);
        } else if (!meta.from_cpu) {
            partition_check.apply(hdr, meta, std_meta);
            if (!meta.dropped) {
                partition_tag.apply(hdr, meta, std_meta);
                ecn.apply(hdr, meta, std_meta);
                feedback_count.apply(hdr, std_meta);
                if (meta.trim) {
                    trim.apply(hdr, meta, std_meta);
                } else {
                    run_int = true;
                }
            }
        }
        if (run_int) {
            int_egress.apply(hdr, meta, std_meta);
        }
        if (!meta.dropped) {
            port_tx.count((bit<32>) std_meta.egress_port);
        }
    }
}

V1Switch(FabricParser(),
         FabricVerifyChecksum(),
         FabricIngress(),
         FabricEgress(),
         FabricComputeChecksum(),
         FabricDeparser()) main;
