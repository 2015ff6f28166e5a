control C() {
    apply {
        bit<8 x = 1;
    }
}
