// No kernel here: a helper whose 80 KiB frame a kernel of another file
// reaches through its call.
#include <stdint.h>
float smooth(const float *x, int64_t n) {
    float window[20480];
    for (int64_t i = 0; i < n && i < 16; i++)
        window[(i * 977) % 20480] = x[i];
    float s = 0;
    for (int64_t i = 0; i < n && i < 16; i++)
        s += window[(i * 977) % 20480];
    return s;
}
