// Negative: an enum member that does not exist, in a control nothing instantiates
#include <v1model.p4>
struct H { } struct M { }
parser P(packet_in p, out H h, inout M m, inout standard_metadata_t s) { state start { transition accept; } }
control C(inout H h, inout M m) { apply { } }
control I(inout H h, inout M m, inout standard_metadata_t s) { apply { } }
control D(packet_out p, in H h) { apply { } }
control Bad(inout bit<8> x) { apply { if (HashAlgorithm.md5 == HashAlgorithm.crc16) { x = 1; } } }
V1Switch(P(), C(), I(), I(), C(), D()) main;
