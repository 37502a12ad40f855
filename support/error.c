/* Error messages: "<prog>: <message>", the form compilers use, so that
 * editors and CI logs read them like any other tool's; and the carrier
 * that brings "<file>: <what>: <why>" from code that must not print to
 * the code that prints it. */
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

void q7_err_vset(struct q7_err *e, const char *file, const char *fmt, va_list ap)
{
	if (e && e->grow) {
		/* Built whole before the old message goes: fmt's arguments may
		 * quote it. */
		struct q7_strbuf b = {0};
		if (file)
			q7_sb_addf(&b, "%s: ", file);
		q7_sb_vaddf(&b, fmt, ap);
		if (!b.s)
			b.s = q7_xstrdup("");
		free(e->msg);
		e->msg = b.s;
		e->size = b.len + 1;
		return;
	}
	if (!e || !e->msg || !e->size)
		return;
	size_t n = 0;
	if (file) {
		int k = snprintf(e->msg, e->size, "%s: ", file);
		if (k < 0 || (size_t)k >= e->size)
			return; /* snprintf cut the name and terminated it */
		n = (size_t)k;
	}
	vsnprintf(e->msg + n, e->size - n, fmt, ap);
}

void q7_err_set(struct q7_err *e, const char *file, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	q7_err_vset(e, file, fmt, ap);
	va_end(ap);
}

void q7_err_clear(struct q7_err *e)
{
	if (e && e->msg && e->size)
		e->msg[0] = 0;
}

void q7_err_free(struct q7_err *e)
{
	if (e && e->grow) {
		free(e->msg);
		e->msg = NULL;
		e->size = 0;
	}
}

const char *q7_err_text(const struct q7_err *e)
{
	return e && e->msg && (e->grow || e->size) ? e->msg : "";
}

void q7_err_print(struct q7_err *e)
{
	if (*q7_err_text(e))
		q7_error("%s", q7_err_text(e));
	q7_err_free(e);
}
