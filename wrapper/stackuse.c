/* The kernel's stack at the build (docs/driver.md): a compile whose object
 * q7cc writes in its own temporary folder runs with GCC's -fstack-usage
 * -fcallgraph-info=su, so GCC's .su and .ci files land there too, beside
 * the object, never in the user's folders; q7cc keeps of the .ci each
 * function's frame and calls in the object (.q7.stack, analysis/stack.c)
 * and removes both files. The link holds each kernel against the core's
 * stack. */
#include "modes.h"
#include "record.h"
#include "tempfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool q7_stack_measures(const struct q7_drv *d, enum q7_use use)
{
	/* GCC only (clang has no call graph file); the host profile only for
	 * files that use q7cc, whose command is q7cc's anyway. */
	if (q7_profile_clang_style(&d->prof))
		return false;
	return d->prof.kind == Q7_PROFILE_GNU || (d->prof.kind == Q7_PROFILE_HOST && use == Q7_USE_Q7);
}

void q7_stack_flags(struct q7_strvec *extra)
{
	q7_sv_add(extra, "-fstack-usage");
	q7_sv_add(extra, "-fcallgraph-info=su");
}

/* GCC's name for an auxiliary output of the object obj: obj without its
 * last suffix, then ext ("dir/k.cpp.o" -> "dir/k.cpp.ci"). */
static char *aux_name(const char *obj, const char *ext)
{
	const char *base = q7_path_basename(obj), *dot = strrchr(base, '.');
	size_t n = dot && dot != base ? (size_t)(dot - obj) : strlen(obj);
	return q7_xasprintf("%.*s%s", (int)n, obj, ext);
}

int q7_stack_keep(const char *obj, bool attach)
{
	char *ci = aux_name(obj, ".ci"), *su = aux_name(obj, ".su");
	int rc = 0;
	char *text = attach ? q7_read_file(ci, NULL) : NULL;
	if (text) {
		size_t len;
		char *payload = q7_stack_from_callgraph(text, &len);
		if (len)
			rc = q7_section_attach(obj, Q7_STACK_SECTION, payload, len);
		free(payload);
		free(text);
	}
	remove(ci);
	remove(su);
	free(ci);
	free(su);
	return rc;
}
