/* wrapper/sysinfo: what the real compiler knows that libclang must be told
 * to parse like it: its own include directories (from -E -v) and its
 * target's predefined macros (from -dM -E).
 *
 * Owns: probing the compiler, and its entry in q7cc's cache folder
 * (cachefile.h), keyed by the compiler and the probe's flags; an
 * unwritable cache only costs the probe again. */
#ifndef Q7_SYSINFO_H
#define Q7_SYSINFO_H

#include "toolchain.h"
#include "support.h"

struct q7_sysinfo {
	struct q7_strvec includes;   /* directories, in search order */
	struct q7_strvec predefines; /* "NAME=VALUE" */
};

struct q7_drv;
/* Fills si (empty lists when the compiler cannot be probed); the probes
 * are d's queries (q7_step_query: shown under -v). 0, or -1 after
 * printing why; si is usable either way. */
int q7_sysinfo_get(const struct q7_drv *d, const struct q7_toolchain *p, struct q7_sysinfo *si);
void q7_sysinfo_free(struct q7_sysinfo *si);

/* The parsers, for tests: the -E -v stderr text and the -dM -E text. */
void q7_sysinfo_parse_includes(const char *text, struct q7_strvec *out);
void q7_sysinfo_parse_macros(const char *text, struct q7_strvec *out);

#endif
