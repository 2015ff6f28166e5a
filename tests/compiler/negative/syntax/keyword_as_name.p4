control C() {
    apply {
        bit<8> table = 1;
    }
}
