/* Error messages: "<prog>: <message>", the form compilers use, so that
 * editors and CI logs read them like any other tool's. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>

static const char *progname = "q7cc";

void q7_set_progname(const char *name)
{
	progname = name;
}

const char *q7_progname(void)
{
	return progname;
}

static void vreport(const char *kind, const char *fmt, va_list ap)
{
	/* One fprintf per message keeps lines whole when the eight links of a
	 * multicore build report at once. */
	struct q7_strbuf msg = {0}, b = {0};
	q7_sb_vaddf(&msg, fmt, ap);
	q7_sb_addf(&b, "%s: %s", progname, kind);
	q7_sb_add_shown(&b, msg.s, false);
	q7_sb_addc(&b, '\n');
	fputs(b.s, stderr);
	q7_sb_free(&msg);
	q7_sb_free(&b);
}

void q7_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
}

void q7_warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void q7_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("note: ", fmt, ap);
	va_end(ap);
}

void q7_fatal(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
	exit(code);
}
