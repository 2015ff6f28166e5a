// Negative: a program that declares its own V1Switch package, with other parameters
#include <core.p4>
control Ingress(inout bit<8> x);
package V1Switch(Ingress ig);
control C(inout bit<8> x) { apply { x = x + 1; } }
V1Switch(C()) main;
