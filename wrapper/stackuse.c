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

/* GCC 10 or later (-fcallgraph-info), not clang (no call graph file), by
 * the compiler's own macros (sysinfo: probed once per compiler, cached). */
static bool gcc_with_callgraph(struct q7_drv *d)
{
	struct q7_analysis_opts o = {0};
	q7_drv_sysinfo(d, &o);
	int major = 0;
	bool clang = false;
	for (size_t i = 0; i < d->sys.predefines.n; i++) {
		const char *m = d->sys.predefines.v[i];
		if (strncmp(m, "__GNUC__=", 9) == 0)
			major = atoi(m + 9);
		clang |= strncmp(m, "__clang__=", 10) == 0;
	}
	return major >= 10 && !clang;
}

bool q7_stack_measures(struct q7_drv *d, enum q7_use use, struct q7_strvec *extra)
{
	/* gnu: Debian's cross GCC (12), never probed for it, so that a file
	 * without kernels costs no probe. host: only files that use q7cc,
	 * whose command is q7cc's anyway and whose analysis asks the compiler
	 * for its macros all the same; any compiler may be the host's. */
	bool measures = d->tc.kind == Q7_TOOLCHAIN_GNU ||
	                (d->tc.kind == Q7_TOOLCHAIN_HOST && use == Q7_USE_Q7 && gcc_with_callgraph(d));
	if (measures) {
		q7_sv_add(extra, "-fstack-usage");
		q7_sv_add(extra, "-fcallgraph-info=su");
	}
	return measures;
}

int q7_stack_keep(const char *obj, bool attach)
{
	char *ci = q7_obj_aux_name(obj, ".ci"), *su = q7_obj_aux_name(obj, ".su");
	int rc = 0;
	char *text = attach ? q7_read_file(ci, NULL) : NULL;
	if (text) {
		size_t len;
		char *payload = q7_stack_from_callgraph(text, &len);
		struct q7_err err = Q7_ERR_GROWING;
		if (len && (rc = q7_section_attach(obj, Q7_STACK_SECTION, payload, len, &err)) != 0)
			q7_err_print(&err);
		free(payload);
		free(text);
	}
	remove(ci);
	remove(su);
	free(ci);
	free(su);
	return rc;
}
