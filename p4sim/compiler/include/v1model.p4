/*
 * p4sim's declaration of the v1model architecture (BMv2 simple_switch).
 * Written for p4sim; it declares the same types, externs, functions and package as the
 * v1model.p4 shipped with p4c (versions 20180101 and 20200408), so programs compile
 * unchanged with either compiler and p4sim's output addresses the same BMv2 objects.
 */
/* p4c's include guard: programs test it with #ifdef */
#ifndef _V1_MODEL_P4_
#define _V1_MODEL_P4_

#include <core.p4>

/* p4c's default: programs written for 20200408 define V1MODEL_VERSION before including */
#ifndef V1MODEL_VERSION
#define V1MODEL_VERSION 20180101
#endif

/* Match kinds v1model adds to core's exact/ternary/lpm. */
match_kind {
    range,     /* lo <= field <= hi */
    optional,  /* exact, or any value */
    selector   /* input of an action selector's hash */
}

const bit<32> __v1model_version = V1MODEL_VERSION;

/* Declared from version 20200408 on, as p4c does: older programs declare their own. */
#if V1MODEL_VERSION >= 20200408
typedef bit<9>  PortId_t;
typedef bit<16> MulticastGroup_t;
typedef bit<16> ReplicationId_t;
typedef bit<32> CloneSessionId_t;
#endif

/*
 * Per-packet metadata of simple_switch. @alias names the BMv2 intrinsic field each one
 * is bound to; the field order is the BMv2 header layout and must not change.
 */
@metadata @name("standard_metadata")
struct standard_metadata_t {
    bit<9>  ingress_port;
    bit<9>  egress_spec;       /* set by ingress: the output port */
    bit<9>  egress_port;       /* read in egress: the actual output port */
    bit<32> instance_type;     /* normal, clone, resubmit, recirculate, replication */
    bit<32> packet_length;
    @alias("queueing_metadata.enq_timestamp")  bit<32> enq_timestamp;
    @alias("queueing_metadata.enq_qdepth")     bit<19> enq_qdepth;
    @alias("queueing_metadata.deq_timedelta")  bit<32> deq_timedelta;
    @alias("queueing_metadata.deq_qdepth")     bit<19> deq_qdepth;
    @alias("intrinsic_metadata.ingress_global_timestamp") bit<48> ingress_global_timestamp;
    @alias("intrinsic_metadata.egress_global_timestamp")  bit<48> egress_global_timestamp;
    @alias("intrinsic_metadata.mcast_grp")     bit<16> mcast_grp;
    @alias("intrinsic_metadata.egress_rid")    bit<16> egress_rid;
    bit<1>  checksum_error;    /* set when verify_checksum found a bad checksum */
    error   parser_error;      /* the error the parser stopped with */
    @alias("intrinsic_metadata.priority")      bit<3>  priority;
}

enum CounterType {
    packets,
    bytes,
    packets_and_bytes
}

enum MeterType {
    packets,
    bytes
}

/* An array of packet and/or byte counters, indexed by I. */
extern counter<I> {
    counter(bit<32> size, CounterType type);
    void count(in I index);
}

/* One counter per entry of the table it is attached to (table property 'counters'). */
extern direct_counter {
    direct_counter(CounterType type);
    void count();
}

#define V1MODEL_METER_COLOR_GREEN  0
#define V1MODEL_METER_COLOR_YELLOW 1
#define V1MODEL_METER_COLOR_RED    2

/* An array of two-rate three-color meters; the result is a V1MODEL_METER_COLOR_*. */
extern meter<I> {
    meter(bit<32> size, MeterType type);
    void execute_meter<T>(in I index, out T result);
}

/* One meter per entry of the table it is attached to (table property 'meters'). */
extern direct_meter<T> {
    direct_meter(MeterType type);
    void read(out T result);
}

/* An array of state cells of type T, indexed by I. */
extern register<T, I> {
    register(bit<32> size);
    @noSideEffects
    void read(out T result, in I index);
    void write(in I index, in T value);
}

/* Table property 'implementation': action data shared between entries. */
extern action_profile {
    action_profile(bit<32> size);
}

/* A random value in [lo, hi]. */
extern void random<T>(out T result, in T lo, in T hi);

/* Send data to the controller on the digest channel. */
extern void digest<T>(in bit<32> receiver, in T data);

enum HashAlgorithm {
    crc32,
    crc32_custom,
    crc16,
    crc16_custom,
    random,
    identity,
    csum16,
    xor16
}

/* Mark the packet to be dropped at the end of the current pipeline. */
@deprecated("Please use mark_to_drop(standard_metadata) instead.")
extern void mark_to_drop();
@pure
extern void mark_to_drop(inout standard_metadata_t standard_metadata);

/* result = base + (hash of data) mod max (or base when max is 0). */
@pure
extern void hash<O, T, D, M>(out O result, in HashAlgorithm algo, in T base, in D data, in M max);

/* Table property 'implementation': an action profile whose groups pick a member by hash. */
extern action_selector {
    action_selector(HashAlgorithm algorithm, bit<32> size, bit<32> outputWidth);
}

enum CloneType {
    I2E,  /* ingress to egress */
    E2E   /* egress to egress */
}

@deprecated("Please use verify_checksum/update_checksum instead.")
extern Checksum16 {
    Checksum16();
    bit<16> get<D>(in D data);
}

/* Check the checksum of data; on mismatch standard_metadata.checksum_error becomes 1. */
extern void verify_checksum<T, O>(in bool condition, in T data, in O checksum, HashAlgorithm algo);

/* Store the checksum of data into checksum. */
@pure
extern void update_checksum<T, O>(in bool condition, in T data, inout O checksum, HashAlgorithm algo);

/* As verify_checksum, with the unparsed payload appended to data. */
extern void verify_checksum_with_payload<T, O>(in bool condition, in T data, in O checksum, HashAlgorithm algo);

/* As update_checksum, with the unparsed payload appended to data. */
@noSideEffects
extern void update_checksum_with_payload<T, O>(in bool condition, in T data, inout O checksum, HashAlgorithm algo);

/* Clone the packet to the session's port(s) at the end of the current pipeline. */
extern void clone(in CloneType type, in bit<32> session);

/* Deprecated: resubmit / recirculate / clone carrying a struct of fields. */
@deprecated("Please use 'resubmit_preserving_field_list' instead")
extern void resubmit<T>(in T data);
@deprecated("Please use 'recirculate_preserving_field_list' instead")
extern void recirculate<T>(in T data);
@deprecated("Please use 'clone' or 'clone_preserving_field_list' instead")
extern void clone3<T>(in CloneType type, in bit<32> session, in T data);

/* Send the packet back to the start of ingress; metadata fields tagged
   @field_list(index) keep their values. */
extern void resubmit_preserving_field_list(bit<8> index);

/* Send the deparsed packet back to the parser; @field_list(index) fields are kept. */
extern void recirculate_preserving_field_list(bit<8> index);

/* Clone, keeping the metadata fields tagged @field_list(index) in the clone. */
extern void clone_preserving_field_list(in CloneType type, in bit<32> session, bit<8> index);

/* Send at most length bytes of the packet. */
extern void truncate(in bit<32> length);

/* Stop with an error when check is false (when assertions are enabled in the target). */
extern void assert(in bool check);

/* Like assert, for formal tools; checked the same way by BMv2. */
extern void assume(in bool check);

/* Print to the target's log; "{}" in msg is replaced by the elements of data. */
extern void log_msg(string msg);
extern void log_msg<T>(string msg, in T data);

/* The six programmable blocks of v1model, in pipeline order. */
parser Parser<H, M>(packet_in b,
                    out H parsedHdr,
                    inout M meta,
                    inout standard_metadata_t standard_metadata);

control VerifyChecksum<H, M>(inout H hdr, inout M meta);

@pipeline
control Ingress<H, M>(inout H hdr,
                      inout M meta,
                      inout standard_metadata_t standard_metadata);

@pipeline
control Egress<H, M>(inout H hdr,
                     inout M meta,
                     inout standard_metadata_t standard_metadata);

control ComputeChecksum<H, M>(inout H hdr, inout M meta);

@deparser
control Deparser<H>(packet_out b, in H hdr);

package V1Switch<H, M>(Parser<H, M> p,
                       VerifyChecksum<H, M> vr,
                       Ingress<H, M> ig,
                       Egress<H, M> eg,
                       ComputeChecksum<H, M> ck,
                       Deparser<H> dep);

#endif  /* _V1_MODEL_P4_ */
