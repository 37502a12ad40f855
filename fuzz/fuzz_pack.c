/* fuzz/fuzz_pack: libFuzzer target for the packer's input side.
 *
 * Each input is taken as a linked image (checked, stripped and packed into
 * anonymous memory files, with and without -l and -p) and as a .q7.ops
 * payload. Nothing may crash, leak or read out of bounds; refusals are
 * fine. Build: clang -fsanitize=fuzzer,address (tests/packer/fuzz.sh, or
 * -DQ7CC_FUZZ=ON with CC=clang). */
#include "image.h"
#include "op.h"
#include "pack.h"
#include "record.h"
#include "support.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int sfd = -1, pfd = -1;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (sfd < 0) {
		q7_set_progname("fuzz_pack");
		sfd = memfd_create("fuzz-stripped", MFD_CLOEXEC);
		pfd = memfd_create("fuzz-packed", MFD_CLOEXEC);
		if (sfd < 0 || pfd < 0)
			abort();
	}
	/* libelf may convert headers in place; never in libFuzzer's buffer. */
	char *copy = malloc(size ? size : 1);
	memcpy(copy, data, size);
	struct q7_image im;
	/* The messages are built (and so fuzzed) but not printed. */
	struct q7_err err = Q7_ERR_GROWING;
	if (q7_image_open_memory(&im, copy, size, "fuzz", &err) == 0) {
		static const struct q7_pack_opts opts[] = {
			{.input = "fuzz", .symbol = "lib_func"},
			{.input = "fuzz", .symbol = "lib_func", .symlookup = true, .pagesize = 4096},
		};
		for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
			if (ftruncate(sfd, 0) != 0 || ftruncate(pfd, 0) != 0 || lseek(sfd, 0, SEEK_SET) != 0 ||
			    lseek(pfd, 0, SEEK_SET) != 0)
				abort();
			q7_pack_image_fds(&im, &opts[i], sfd, pfd, &err);
		}
		q7_image_close(&im);
	}
	struct q7_op_table ops = {0};
	q7_record_decode((const char *)data, size, "fuzz", &ops, &err);
	q7_err_free(&err);
	q7_ops_free(&ops);
	free(copy);
	return 0;
}
