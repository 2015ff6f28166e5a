// modulo of a header field by a constant that is not a power of two: p4c computes % only at compile time
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; bit<16> c; }
struct hs_t { h_t h; h_t[2] st; }
struct m_t { bit<8> x; }
parser P(packet_in pk, out hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
  state start { pk.extract(hdr.h); transition accept; } }
control VC(inout hs_t hdr, inout m_t m) { apply {} }
control E(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) { apply {} }
control CC(inout hs_t hdr, inout m_t m) { apply {} }
control D(packet_out pk, in hs_t hdr) { apply { pk.emit(hdr.h); } }
control I(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
  apply { hdr.h.a = hdr.h.a % 3; } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
