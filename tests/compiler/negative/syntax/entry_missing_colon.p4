control C(in bit<8> k) {
    action a() { }
    table t {
        key = { k: exact; }
        actions = { a; }
        const entries = {
            1 a();
        }
    }
    apply { t.apply(); }
}
