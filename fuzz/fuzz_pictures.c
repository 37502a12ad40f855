/* fuzz/fuzz_pictures: libFuzzer target for the pictures' readers and
 * writers (docs/robustness.md, "The pictures' readers").
 *
 * Each input is taken as a linked image (the memory map as text and SVG,
 * and its symbols named at addresses across it into a profile) and as
 * folded text (read into a profile); every profile is written as folded
 * text and as a flame graph. Nothing may crash, leak, read out of bounds
 * or take unbounded time; refusals are fine. Build: clang
 * -fsanitize=fuzzer,address (tests/memmap/fuzz.sh). */
#include "elf_syms.h"
#include "flamegraph.h"
#include "insn_profile.h"
#include "memory_map.h"
#include "support.h"
#include "syms_profile.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fd = -1;
static char path[64];

/* Both writers on p; what they give is dropped. */
static void write_both(struct q7_prof *p)
{
	free(q7_prof_folded(p));
	free(q7_flamegraph_svg(p, "fuzz"));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fd < 0) {
		q7_set_progname("fuzz_pictures");
		fd = memfd_create("fuzz-image", MFD_CLOEXEC);
		if (fd < 0)
			abort();
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	char err[512];
	struct q7_core_map m;
	if (q7_core_map_load(path, -2, &m, &Q7_ERR_OF(err)) == 0) {
		free(q7_memory_map_text(&m, 1));
		free(q7_memory_map_svg(&m, 1, "fuzz"));
		q7_core_map_free(&m);
	}
	struct q7_syms syms;
	if (q7_syms_load(path, 0, &syms, &Q7_ERR_OF(err)) == 0) {
		struct q7_prof p;
		syms_profile(&p, &syms);
		write_both(&p);
		q7_prof_free(&p);
		q7_syms_free(&syms);
	}
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	struct q7_prof p;
	q7_prof_init(&p);
	if (q7_prof_add_folded(&p, Q7_PROF_ROOT, text, "fuzz", &Q7_ERR_OF(err)) == 0)
		write_both(&p);
	q7_prof_free(&p);
	free(text);
	return 0;
}
