#define TARGET_WIDTH 4
#if TARGET_WIDTH < 8
#error "width too small"
#endif
