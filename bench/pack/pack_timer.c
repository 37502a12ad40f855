/* bench/pack/pack_timer: times one in-process q7_pack() call, which is what
 * q7cc pays after each link (the driver calls the library; no process).
 *   pack_timer IMAGE PACKED STRIPPED  ->  "<wall ms> <cpu ms>" on stdout */
#include "pack.h"
#include "support.h"

#include <stdio.h>
#include <time.h>

static double ms(clockid_t c)
{
	struct timespec t;
	clock_gettime(c, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: pack_timer IMAGE PACKED STRIPPED\n");
		return 2;
	}
	q7_set_progname("pack_timer");
	struct q7_pack_opts o = {.input = argv[1], .output = argv[2], .stripped = argv[3],
	                         .symbol = "lib_func"};
	double w = ms(CLOCK_MONOTONIC), c = ms(CLOCK_PROCESS_CPUTIME_ID);
	struct q7_err err = Q7_ERR_GROWING;
	int rc = q7_pack(&o, &err) != 0;
	q7_err_print(&err);
	double cw = ms(CLOCK_MONOTONIC) - w, cc = ms(CLOCK_PROCESS_CPUTIME_ID) - c;
	printf("%.3f %.3f\n", cw, cc);
	return rc;
}
