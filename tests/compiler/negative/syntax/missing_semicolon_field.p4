header h_t {
    bit<8> a
}
