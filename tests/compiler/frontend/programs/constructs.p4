// Every construct the front end must accept, in one v1model program (syntax only: it
// need not type-check). Used by the round-trip test.
#include <core.p4>
#include <v1model.p4>

#define WIDTH 16
#define DOUBLE(x) ((x) * 2)
#if WIDTH > 8 && defined(DOUBLE)
const bit<WIDTH> BIG = 16w0xFFFF;
#else
#error "WIDTH must be larger than 8"
#endif

const int<8> NEG = -4s3;
const bit<32> MILLION = 1_000_000;
const bit<8> OCT = 0o17;
const bit<8> BIN = 8w0b1010_1010;
const bool FLAG = true;
const bit<(WIDTH + 1)> WIDE = DOUBLE(3);
typedef bit<48> mac_t;
type bit<32> ip_t;
error { CustomError, OtherError }
match_kind { my_kind }

enum Color { Red, Green, Blue }
enum bit<8> Proto { TCP = 6, UDP = 17, }

header eth_t {
    mac_t dst;
    mac_t src;
    @name("etherType") bit<16> type_;
}
header opt_t {
    bit<8> len;
    varbit<320> data;
}
header small_t { bit<8> v; }
header_union ip_u { small_t a; eth_t b; }
struct pair_t<T> { T first; T second; }
struct headers_t {
    eth_t eth;
    opt_t opt;
    small_t[4] stack;
    ip_u u;
}
struct meta_t {
    @field_list(1, 2) bit<8> passes;
    tuple<bit<8>, bool> tup;
    int<16> signed_v;
    Color c;
}

extern Virtual {
    Virtual();
    Virtual(bit<8> seed);
    abstract bit<16> f(in bit<16> ix);
    void run<T>(in T x);
    bit<16> get();
}
extern T pick<T>(in T a, in T b);
extern void sink(in bit<8> x, @optional in bit<8> y);

bit<8> max8(in bit<8> a, in bit<8> b) {
    return a > b ? a : b;
}

action top_level_action(inout bit<8> x) { x = x + 1; }

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    value_set<bit<16>>(4) vs;
    value_set<tuple<bit<8>, bit<8>>>(2) vs2;
    bit<8> counter = 0;
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.type_, sm.ingress_port) {
            (0x0800 &&& 0xFF00, _): parse_opt;
            (vs, 1 .. 5): parse_stack;
            (16w0x86dd, default): reject;
            default: accept;
        }
    }
    state parse_opt {
        pkt.extract(hdr.opt, (bit<32>)(pkt.lookahead<bit<8>>() << 3));
        pkt.advance(8);
        verify(hdr.opt.len < 40, error.CustomError);
        transition parse_stack;
    }
    state parse_stack {
        pkt.extract(hdr.stack.next);
        counter = counter + 1;
        if (hdr.stack.last.v == 0) {
            counter = 0;
        }
        transition select(hdr.stack.lastIndex) {
            3: accept;
            _: parse_stack;
        }
    }
}

control Pipe(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm)(bit<8> param) {
    register<bit<32>, bit<8>>(256) regs;
    counter<bit<32>>(64, CounterType.packets) pkts;
    direct_counter(CounterType.bytes) dc;
    direct_meter<bit<2>>(MeterType.packets) dm;
    action_profile(128) ap;
    action_selector(HashAlgorithm.crc32, 64, 14) sel;
    Virtual() v = {
        bit<16> f(in bit<16> ix) { return ix + 1; }
    };
    bit<16> tmp;
    const bit<8> LOCAL = 3;

    action drop() { mark_to_drop(sm); }
    action set(bit<9> port, mac_t mac) {
        sm.egress_spec = port;
        hdr.eth.dst = mac;
        dm.read(meta.passes[1:0]);
    }
    @name("ingress.fwd") table fwd {
        key = {
            hdr.eth.dst: exact @name("dst");
            hdr.eth.src: ternary;
            hdr.eth.type_: range;
            meta.passes: optional;
            sm.ingress_port: lpm;
            hdr.eth.isValid(): exact;
        }
        actions = {
            set;
            @defaultonly drop;
            @tableonly top_level_action;
            .NoAction;
        }
        const default_action = drop();
        const entries = {
            priority = 10: (48w1, 48w0 &&& 48w0, 1 .. 100, _, _, true): set(1, 2);
            (_, _, _, _, _, default): drop();
            const priority = 1: (1, 2, 3, 4, 5, false): set(port = 9w3, mac = 0);
        }
        size = 1024;
        counters = dc;
        meters = dm;
        support_timeout = true;
        implementation = action_profile(32);
        my_property = 1 + 2;
    }
    table with_sel {
        key = { hdr.eth.dst: selector; }
        actions = { set; }
        implementation = sel;
        default_action = set(0, 0);
    }
    apply {
        bit<8> a = 1;
        bit<16> b = 16w0;
        int<8> s = -1;
        bool ok = !FLAG || (a == 2 && b != 3);
        a = a |+| 2;
        a = a |-| 3;
        b = a ++ a;
        b = b << 2 + 1;
        b = (b >> 1) & 0xff ^ 0x0f | 0x1;
        a = b[7:0];
        a = ~a % 3 * 2 / 1 - 1;
        s = (int<8>)a;
        tmp = (bit<16>)(a + 1) + (bit<16>)LOCAL;
        meta.c = Color.Red;
        meta.tup = {8w1, true};
        pair_t<bit<8>> pr = {first = 1, second = 2};
        pr = (pair_t<bit<8>>){first = 3, second = 4};
        hdr.stack.push_front(1);
        hdr.stack.pop_front(2);
        hdr.stack[0].setValid();
        hdr.stack[a].setInvalid();
        hdr.u.a.v = (bit<8>)hdr.stack.size;
        regs.read(result = meta.passes, index = 8w0);
        regs.write(8w1, 32w5);
        pkts.count(32w7);
        hash(b, HashAlgorithm.crc16, 16w0, {hdr.eth.dst, a}, 16w1024);
        random(a, 0, 255);
        digest<pair_t<bit<8>>>(1, pr);
        clone(CloneType.I2E, 32w5);
        clone_preserving_field_list(CloneType.E2E, 6, 1);
        resubmit_preserving_field_list(1);
        recirculate_preserving_field_list(2);
        truncate(64);
        assert(a != 0);
        assume(b == 0);
        log_msg("a={} b={}", {a, b});
        log_msg("plain");
        top_level_action(a);
        if (fwd.apply().hit) {
            exit;
        } else if (fwd.apply().miss) {
            a = 0;
        } else {
            return;
        }
        switch (fwd.apply().action_run) {
            set:
            drop: { a = 1; }
            default: { }
        }
        switch (a) {
            1: { b = 1; }
            2: 
            3: { b = 2; }
        }
        @atomic {
            ;
        }
        {
            const bit<8> inner = max8(a, 2);
            a = inner > 1 ? inner : pick<bit<8>>(inner, 3);
        }
        a = (Proto.TCP == (Proto)a) ? 1 : 0;
        meta.signed_v = -16s1;
        sink(y = 1, x = 2);
        sink(1, _);
    }
}

control Empty<H>(inout H h) { apply { } }

control Deparse(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr);
    }
}

@pkginfo(arch = "v1model", version = "1.0")
package MyPkg<H>(Empty<H> e);

V1Switch(P(), VerifyNo(), Pipe(8w1), EgressNo(), ComputeNo(), Deparse()) main;
