const int WIDTH = 12;
header h_t {
    bit<WIDTH> field;
}
