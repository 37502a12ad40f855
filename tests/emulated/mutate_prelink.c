/* Mutation test of the prelinker: random byte edits and cuts of good
 * images (fixed seeds, so runs repeat). Whatever it accepts must come out
 * as a self-consistent loadable image (q7_prelinked_check), placed where it
 * was asked; whatever it refuses must say why, naming the file. Worth most
 * under Q7CC_SANITIZE=ON, where any out-of-bounds read is fatal.
 * argv: images (.packed.so / .stripped.so). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prelink.h"
#include "support.h"

#define ROUNDS 20000

static unsigned long long state = 88172645463325252ull;

static unsigned rnd(unsigned n)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (unsigned)(state % n);
}

int main(int argc, char **argv)
{
	int bad = 0;
	for (int a = 1; a < argc; a++) {
		size_t n;
		unsigned char *good = (unsigned char *)q7_read_file(argv[a], &n);
		if (!good || n < 64) {
			fprintf(stderr, "mutate_prelink: %s: cannot read\n", argv[a]);
			return 2;
		}
		unsigned char *c = q7_xmalloc(n);
		unsigned accepted = 0;
		for (unsigned round = 0; round < ROUNDS; round++) {
			memcpy(c, good, n);
			unsigned edits = 1 + rnd(4);
			for (unsigned e = 0; e < edits; e++) {
				/* Half the edits in the first 512 bytes: the headers. */
				size_t at = rnd(2) ? rnd((unsigned)(n < 512 ? n : 512)) : rnd((unsigned)n);
				c[at] = rnd(3) == 0 ? 0xff : (unsigned char)rnd(256);
			}
			size_t len = rnd(8) == 0 ? rnd((unsigned)n) : n;
			struct q7_prelink_opts o = {.symbol = "lib_func", .core = (int)rnd(9) - 1,
			                            .have_base = rnd(2), .base = 0x60100000u};
			struct q7_prelinked pl;
			char err[Q7_PL_ERR_SIZE];
			if (q7_prelink_memory(&o, c, len, "mutant", &pl, &Q7_ERR_OF(err)) != 0) {
				if (strncmp(err, "mutant: ", 8) != 0 || strlen(err) < 12) {
					fprintf(stderr, "round %u: refusal without a reason: '%s'\n", round, err);
					bad = 1;
				}
				continue;
			}
			accepted++;
			struct q7_pl_header h;
			const char *why;
			if (q7_prelinked_check(pl.bytes, pl.size, &h, &why) != 0) {
				fprintf(stderr, "round %u: accepted, but the output is bad: %s\n", round, why);
				bad = 1;
			} else if (o.have_base && h.base != o.base) {
				fprintf(stderr, "round %u: placed at 0x%x, asked 0x%x\n", round, h.base, o.base);
				bad = 1;
			}
			q7_prelinked_free(&pl);
		}
		printf("%s: %u of %u mutants accepted, every one consistent\n", argv[a], accepted,
		       ROUNDS);
		free(c);
		free(good);
	}
	return bad;
}
