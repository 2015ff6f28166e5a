#include <core.p4>
parser P(packet_in pkt) {
    state start {
        transition accept;
        pkt.advance(8);
    }
}
