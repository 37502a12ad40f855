/* emu_main.c: runs the table test (../sf_table.c) with the operations as
 * plain C operators, so on the lx106 every one goes through a libgcc helper
 * of libq7softfp.a, and prints the checksum through QEMU semihosting:
 *   q7sf table N checksum 0xXXXXXXXX
 * N is Q7SF_EMU_RANDOM (the host prints the same with
 * `check_softfp checksum N`). */
#include "semihost.h"
#include "sf_table.h"

#ifndef Q7SF_EMU_RANDOM
#define Q7SF_EMU_RANDOM 600
#endif

void emu_main(void);

/* Decimal without division: subtract powers of ten. */
static int put_uint(char *p, unsigned v)
{
    static const unsigned pow10[] = { 1000000000u, 100000000u, 10000000u, 1000000u,
                                      100000u, 10000u, 1000u, 100u, 10u, 1u };
    int i, n = 0;
    for (i = 0; i < 10; i++) {
        char d = '0';
        while (v >= pow10[i]) {
            v -= pow10[i];
            d++;
        }
        if (d != '0' || n || i == 9)
            p[n++] = d;
    }
    return n;
}

void emu_main(void)
{
    static char line[64];
    uint32_t sum = q7sf_table_run(Q7SF_EMU_RANDOM);
    int i, n = sim_put_str(line, "q7sf table ");
    n += put_uint(line + n, Q7SF_EMU_RANDOM);
    n += sim_put_str(line + n, " checksum 0x");
    for (i = 0; i < 8; i++)
        line[n++] = "0123456789abcdef"[(sum >> (28 - 4 * i)) & 15];
    line[n++] = '\n';
    sim_write(line, n);
    sim_exit(0);
}
