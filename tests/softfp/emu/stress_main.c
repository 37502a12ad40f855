/* stress_main.c: sf_stress.c on the emulated lx106, its operations as plain
 * C operators (so calls of the helpers of libq7softfp.a and libgcc), and
 * the checksums through QEMU semihosting:
 *   q7sf f32 N add 0x... sub 0x... mul 0x... div 0x...
 * N is Q7SF_STRESS_N; `check_softfp stress N` prints the host's line. */
#include "semihost.h"
#include "sf_stress.h"

#ifndef Q7SF_STRESS_N
#define Q7SF_STRESS_N 1000
#endif

void emu_main(void);

static int put_hex(char *p, uint32_t v)
{
    int i;
    p[0] = '0';
    p[1] = 'x';
    for (i = 0; i < 8; i++)
        p[2 + i] = "0123456789abcdef"[(v >> (28 - 4 * i)) & 15];
    return 10;
}

void emu_main(void)
{
    static const char *const names[Q7SF_STRESS_OPS] = { " add ", " sub ", " mul ", " div " };
    static char line[128];
    uint32_t sums[Q7SF_STRESS_OPS];
    unsigned k, v = Q7SF_STRESS_N, pow10 = 1000000000u;
    int n = sim_put_str(line, "q7sf f32 "), started = 0;
    q7sf_stress_run(&q7sf_f32_c_ops, Q7SF_STRESS_N, sums);
    for (; pow10; pow10 /= 10u) {
        char d = (char)('0' + v / pow10 % 10u);
        if (d != '0' || started || pow10 == 1u) {
            line[n++] = d;
            started = 1;
        }
    }
    for (k = 0; k < Q7SF_STRESS_OPS; k++) {
        n += sim_put_str(line + n, names[k]);
        n += put_hex(line + n, sums[k]);
    }
    line[n++] = '\n';
    sim_write(line, n);
    sim_exit(0);
}
