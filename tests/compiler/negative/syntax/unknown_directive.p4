#include <core.p4>
#frobnicate 3
