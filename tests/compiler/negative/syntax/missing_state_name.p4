#include <core.p4>
parser P(packet_in pkt) {
    state start {
        transition select(pkt.lookahead<bit<8>>()) {
            1: ;
        }
    }
}
