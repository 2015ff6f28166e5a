// A C/JavaScript habit: P4 functions have no keyword.
function bit<8> double(in bit<8> x) {
    return x + x;
}
