/* bench.c: cost of each arithmetic helper on the emulated lx106, run by
 * bench/softfp/run under qemu-system-xtensa -icount, where CCOUNT counts
 * executed instructions at a fixed rate. For each operation it times
 * REPS x N operations over N operand pairs in kernel-like ranges and prints
 * "name ccount"; "calib" is a loop of known length and "loop" the same
 * loop around an integer xor, both for the script to scale and subtract. */
#include <stdint.h>

#include "semihost.h"

#define N 64
#define REPS 16

void emu_main(void);

static uint32_t ccount(void)
{
    uint32_t c;
    __asm__ volatile("rsr.ccount %0" : "=a"(c));
    return c;
}

static void report(const char *name, uint32_t cycles)
{
    static char line[64];
    int n = 0, i;
    while (name[n]) {
        line[n] = name[n];
        n++;
    }
    line[n++] = ' ';
    for (i = 0; i < 8; i++)
        line[n++] = "0123456789abcdef"[(cycles >> (28 - 4 * i)) & 15];
    line[n++] = '\n';
    sim_write(line, n);
}

static volatile float fa[N], fb[N], fr[N];
static volatile double da[N], db[N], dr[N];
static volatile int32_t ia[N], ib[N], ir[N];
static volatile uint32_t ua[N], ub[N], ur[N];
static volatile int64_t la[N], lb[N], lr[N];
static volatile uint64_t qa[N], qb[N], qr[N];

static uint32_t rng = 0x9e3779b9u;
static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* Magnitudes between about 2^-10 and 2^10, either sign: what kernels see. */
static void fill(void)
{
    int i;
    for (i = 0; i < N; i++) {
        union { float f; uint32_t u; } f1, f2;
        union { double f; uint64_t u; } d1, d2;
        f1.u = (next() & 0x807fffffu) | ((117u + next() % 21u) << 23);
        f2.u = (next() & 0x807fffffu) | ((117u + next() % 21u) << 23);
        d1.u = ((uint64_t)(next() & 0x800fffffu) << 32 | next()) | ((uint64_t)(1013u + next() % 21u) << 52);
        d2.u = ((uint64_t)(next() & 0x800fffffu) << 32 | next()) | ((uint64_t)(1013u + next() % 21u) << 52);
        fa[i] = f1.f; fb[i] = f2.f;
        da[i] = d1.f; db[i] = d2.f;
        ia[i] = (int32_t)next(); ib[i] = (int32_t)(next() >> (next() % 31u)) | 1;
        ua[i] = next(); ub[i] = (next() >> (next() % 31u)) | 1;
        la[i] = (int64_t)((uint64_t)next() << 32 | next());
        lb[i] = (int64_t)(((uint64_t)next() << 32 | next()) >> (next() % 63u)) | 1;
        qa[i] = (uint64_t)next() << 32 | next();
        qb[i] = (((uint64_t)next() << 32 | next()) >> (next() % 63u)) | 1;
    }
}

#define BENCH(name, stmt)                                   \
    do {                                                    \
        int r, i;                                           \
        uint32_t t0 = ccount();                             \
        for (r = 0; r < REPS; r++)                          \
            for (i = 0; i < N; i++) {                       \
                stmt;                                       \
            }                                               \
        report(name, ccount() - t0);                        \
    } while (0)

void emu_main(void)
{
    uint32_t t0 = ccount();
    /* 20000 iterations of addi + bnez: 40000 instructions (+2). */
    __asm__ volatile("movi a8, 20000\n1: addi a8, a8, -1\n bnez a8, 1b" ::: "a8");
    report("calib", ccount() - t0);
    fill();
    BENCH("loop", ir[i] = ia[i] ^ ib[i]);
    BENCH("f32_add", fr[i] = fa[i] + fb[i]);
    BENCH("f32_sub", fr[i] = fa[i] - fb[i]);
    BENCH("f32_mul", fr[i] = fa[i] * fb[i]);
    BENCH("f32_div", fr[i] = fa[i] / fb[i]);
    BENCH("f32_lt", ir[i] = fa[i] < fb[i]);
    BENCH("f32_to_i32", ir[i] = (int32_t)fa[i]);
    BENCH("f32_to_u32", ur[i] = (uint32_t)fa[i]);
    BENCH("i32_to_f32", fr[i] = (float)ia[i]);
    BENCH("u32_to_f32", fr[i] = (float)ua[i]);
    BENCH("f32_to_f64", dr[i] = (double)fa[i]);
    BENCH("f64_to_f32", fr[i] = (float)da[i]);
    BENCH("f64_add", dr[i] = da[i] + db[i]);
    BENCH("f64_sub", dr[i] = da[i] - db[i]);
    BENCH("f64_mul", dr[i] = da[i] * db[i]);
    BENCH("f64_div", dr[i] = da[i] / db[i]);
    BENCH("f64_to_i32", ir[i] = (int32_t)da[i]);
    BENCH("f64_to_u32", ur[i] = (uint32_t)da[i]);
    BENCH("i32_to_f64", dr[i] = (double)ia[i]);
    BENCH("u32_to_f64", dr[i] = (double)ua[i]);
    BENCH("i32_div", ir[i] = ia[i] / ib[i]);
    BENCH("i32_mod", ir[i] = ia[i] % ib[i]);
    BENCH("u32_div", ur[i] = ua[i] / ub[i]);
    BENCH("u32_mod", ur[i] = ua[i] % ub[i]);
    BENCH("i64_div", lr[i] = la[i] / lb[i]);
    BENCH("i64_mod", lr[i] = la[i] % lb[i]);
    BENCH("u64_div", qr[i] = qa[i] / qb[i]);
    BENCH("u64_mod", qr[i] = qa[i] % qb[i]);
    BENCH("i64_mul", lr[i] = la[i] * lb[i]);
    sim_exit(0);
}
