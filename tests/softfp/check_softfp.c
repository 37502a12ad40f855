/* check_softfp.c: runs one soft-float suite, named on the command line, so
 * CTest can run the suites side by side; `checksum N` verifies the table
 * test of N random cases on the host and prints its checksum alone, and
 * `stress N` the stress sequence's line (sf_stress.h), for the runs on the
 * emulated core to match (tests/softfp/emu). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sf_ref.h"

static const struct {
    const char *name;
    Suite *(*make)(void);
} suites[] = {
    { "float", sf_suite_float },
    { "double", sf_suite_double },
    { "conv", sf_suite_conv },
    { "int", sf_suite_int },
    { "table", sf_suite_table },
    { "stress", sf_suite_stress },
};

int main(int argc, char **argv)
{
    size_t i;
    if (argc == 3 && strcmp(argv[1], "checksum") == 0) {
        uint32_t folded;
        int ok = sf_table_verify((unsigned)strtoul(argv[2], NULL, 0), &folded);
        printf("0x%08x\n", folded);
        return ok ? 0 : 1;
    }
    if (argc == 3 && strcmp(argv[1], "stress") == 0) {
        sf_stress_print((unsigned)strtoul(argv[2], NULL, 0));
        return 0;
    }
    for (i = 0; i < sizeof suites / sizeof suites[0]; i++) {
        if (argc == 2 && strcmp(argv[1], suites[i].name) == 0) {
            SRunner *sr = srunner_create(suites[i].make());
            int failed;
            srunner_run_all(sr, CK_NORMAL);
            failed = srunner_ntests_failed(sr);
            srunner_free(sr);
            return failed ? 1 : 0;
        }
    }
    fprintf(stderr, "usage: %s float|double|conv|int|table|stress | checksum N | stress N\n", argv[0]);
    return 2;
}
