control C() {
    apply {
        exit;
