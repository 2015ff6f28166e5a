// An ingress control whose first two parameters swap the parser's header and metadata structs: V1Switch's H and M cannot stand for both (p4c: Cannot unify).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; }
struct H { h_t h; }
struct M { bit<8> m; }
parser P(packet_in p, out H h, inout M m, inout standard_metadata_t s) { state start { p.extract(h.h); transition accept; } }
control VC(inout H h, inout M m) { apply { } }
control I(inout M m, inout H h, inout standard_metadata_t s) { apply { } }
control E(inout H h, inout M m, inout standard_metadata_t s) { apply { } }
control D(packet_out p, in H h) { apply { p.emit(h.h); } }
V1Switch(P(), VC(), I(), E(), VC(), D()) main;
