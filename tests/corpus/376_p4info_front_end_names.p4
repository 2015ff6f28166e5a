// Corpus 376: P4Info details p4c's front end and P4Runtime generator decide, met in
// public programs (ONOS, Stratum, up4, SONiC PINS, p4c's samples): a key without @name
// is named "hdr.eth.$valid$" for isValid() and by a field's own @name ("meta.tagged");
// an action only other actions call is inlined and not listed; a controller header's
// fields keep their @id and annotations; @pkginfo fills pkg_info; an unused action
// selector is still listed (with p4c's "unused instance" warning); a register of a
// serializable enum and a digest with enum and error members are typed by name;
// mark_to_drop() without argument gets p4c's deprecation warning.
#include <core.p4>
#include <v1model.p4>

enum bit<16> EthType { IPV4 = 0x0800, ARP = 0x0806 }
enum Color { RED, GREEN }

@controller_header("packet_in")
header packet_in_t {
    @id(1) bit<9> ingress_port;
    @id(2) @padding bit<7> pad;
}

header eth_t {
    bit<48> dst;
    bit<48> src;
    bit<16> type;
}

struct headers_t {
    packet_in_t pin;
    eth_t       eth;
}

struct learn_t {
    bit<48> src;
    bit<9>  port;
    Color   color;
    error   parse;
}

struct meta_t {
    @name("tagged") bit<8> label;
    learn_t learn;
}

parser EthParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Forward(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action_selector(HashAlgorithm.crc16, 32w16, 32w8) spare_selector;
    register<EthType>(32w4) last_type;

    action set_port(bit<9> port) { sm.egress_spec = port; }
    action mark(bit<8> v) { meta.label = v; }
    action mark_and_forward(bit<9> port) {
        mark(8w7);
        set_port(port);
    }
    action drop_old() { mark_to_drop(); }

    table fwd {
        key = {
            hdr.eth.isValid(): exact;
            meta.label: ternary;
            hdr.eth.type[7:0]: exact;
        }
        actions = { mark_and_forward; set_port; drop_old; }
        const entries = {
            (true, 8w0 &&& 8w0, 8w0x00): mark_and_forward(2);
            (true, _, 8w0x06): set_port(3);
        }
        default_action = drop_old();
    }

    apply {
        fwd.apply();
        last_type.write(32w0, (EthType)hdr.eth.type);
        hdr.eth.dst[7:0] = meta.label;
        meta.learn.src = hdr.eth.src;
        meta.learn.port = sm.ingress_port;
        meta.learn.color = Color.GREEN;
        meta.learn.parse = error.NoError;
        if (meta.label == 8w7) {
            digest<learn_t>(32w1, meta.learn);
        }
    }
}

control NoEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { }
}

control NoUpdate(inout headers_t hdr, inout meta_t meta) { apply { } }

control EthDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.pin);
        pkt.emit(hdr.eth);
    }
}

@pkginfo(name = "corpus376.p4", version = "1.0")
@pkginfo(organization = "p4sim corpus")
@brief("P4Info naming rules")
V1Switch(EthParser(), NoVerify(), Forward(), NoEgress(), NoUpdate(), EthDeparser()) main;
