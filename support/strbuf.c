/* Growable strings and string vectors, and shell quoting for -v / -###. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void q7_sb_addn(struct q7_strbuf *b, const char *s, size_t n)
{
	Q7_GROW(b->s, b->cap, b->len + n + 1);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void q7_sb_add(struct q7_strbuf *b, const char *s)
{
	q7_sb_addn(b, s, strlen(s));
}

void q7_sb_addc(struct q7_strbuf *b, char c)
{
	q7_sb_addn(b, &c, 1);
}

void q7_sb_vaddf(struct q7_strbuf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return;
	Q7_GROW(b->s, b->cap, b->len + (size_t)n + 1);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void q7_sb_addf(struct q7_strbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	q7_sb_vaddf(b, fmt, ap);
	va_end(ap);
}

char *q7_sb_take(struct q7_strbuf *b)
{
	char *s = b->s ? b->s : q7_xstrdup("");
	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

void q7_sb_free(struct q7_strbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

void q7_sv_add(struct q7_strvec *sv, const char *s)
{
	Q7_GROW(sv->v, sv->cap, sv->n + 2);
	sv->v[sv->n++] = q7_xstrdup(s);
	sv->v[sv->n] = NULL;
}

void q7_sv_addf(struct q7_strvec *sv, const char *fmt, ...)
{
	struct q7_strbuf b = {0};
	va_list ap;
	va_start(ap, fmt);
	q7_sb_vaddf(&b, fmt, ap);
	va_end(ap);
	q7_sv_add(sv, b.s ? b.s : "");
	q7_sb_free(&b);
}

void q7_sv_addv(struct q7_strvec *sv, const struct q7_strvec *from)
{
	for (size_t i = 0; i < from->n; i++)
		q7_sv_add(sv, from->v[i]);
}

bool q7_sv_has(const struct q7_strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (strcmp(sv->v[i], s) == 0)
			return true;
	return false;
}

void q7_sv_free(struct q7_strvec *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = sv->cap = 0;
}

void q7_sb_add_shell_quoted(struct q7_strbuf *b, const char *s)
{
	/* Only characters that need no quoting in a POSIX shell word. */
	if (*s && !s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	                       "0123456789@%+=:,./_-")]) {
		q7_sb_add(b, s);
		return;
	}
	q7_sb_addc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			q7_sb_add(b, "'\\''");
		else
			q7_sb_addc(b, *s);
	}
	q7_sb_addc(b, '\'');
}

char *q7_shell_join(char *const *argv)
{
	struct q7_strbuf b = {0};
	for (size_t i = 0; argv[i]; i++) {
		if (i)
			q7_sb_addc(&b, ' ');
		q7_sb_add_shell_quoted(&b, argv[i]);
	}
	return q7_sb_take(&b);
}
