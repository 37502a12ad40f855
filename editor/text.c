/* Text and LSP positions: see text.h. */
#include "text.h"

#include <ctype.h>
#include <regex.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The offset where line (0-based) starts, or len. */
static size_t line_start(const char *text, size_t len, unsigned line)
{
	size_t off = 0;
	for (unsigned l = 0; l < line && off < len; l++) {
		const char *nl = memchr(text + off, '\n', len - off);
		off = nl ? (size_t)(nl - text) + 1 : len;
	}
	return off;
}

/* The session's position encoding (q7_text_set_encoding). */
static enum { UTF8, UTF16, UTF32 } encoding = UTF16;

void q7_text_set_encoding(const char *name)
{
	encoding = !name                        ? UTF16
	           : strcmp(name, "utf-8") == 0  ? UTF8
	           : strcmp(name, "utf-32") == 0 ? UTF32
	                                         : UTF16;
}

/* Whether c starts a character (is no UTF-8 continuation byte). */
static bool starts(unsigned char c)
{
	return (c & 0xc0) != 0x80;
}

/* The units byte c of UTF-8 text counts for: its own in UTF-8; the
 * character's that it starts in UTF-16 (2 for one of 4 bytes, beyond the
 * BMP) and UTF-32. */
static unsigned units(unsigned char c)
{
	if (encoding == UTF8)
		return 1;
	if (!starts(c))
		return 0;
	return encoding == UTF16 && c >= 0xf0 ? 2 : 1;
}

size_t q7_text_offset(const char *text, size_t len, unsigned line, unsigned character)
{
	size_t off = line_start(text, len, line);
	unsigned u = 0;
	while (off < len && text[off] != '\n' && u < character) {
		u += units((unsigned char)text[off++]);
		while (encoding != UTF8 && off < len && !starts((unsigned char)text[off]))
			off++;
	}
	return off;
}

unsigned q7_text_character(const char *text, size_t len, unsigned line, unsigned col)
{
	size_t off = line_start(text, len, line ? line - 1 : 0);
	unsigned u = 0;
	for (unsigned b = 1; b < col && off < len && text[off] != '\n'; b++, off++)
		u += units((unsigned char)text[off]);
	return u;
}

unsigned q7_text_token_width(const char *text, size_t len, unsigned line, unsigned col)
{
	size_t off = line_start(text, len, line ? line - 1 : 0) + (col ? col - 1 : 0);
	unsigned w = 0;
	while (off + w < len && q7_text_is_word(text[off + w]))
		w++;
	return w ? w : 1;
}

void q7_text_position(const char *text, size_t len, size_t off, unsigned *line,
                      unsigned *character)
{
	unsigned l = 0;
	size_t start = 0;
	for (size_t i = 0; i < off && i < len; i++)
		if (text[i] == '\n') {
			l++;
			start = i + 1;
		}
	*line = l;
	*character = q7_text_character(text, len, l + 1, (unsigned)(off - start) + 1);
}

/* The line [p, end) as a #line directive or a line marker: true, *n its
 * number and *name its file name (NULL when it names none; a new
 * string). */
static bool directive(const char *p, const char *end, unsigned long *n, char **name)
{
	static regex_t re;
	static int compiled = -1;
	if (compiled < 0)
		compiled = regcomp(&re, "^[ \t]*#[ \t]*(line[ \t]+)?([0-9]+)[ \t]*(\")?",
		                   REG_EXTENDED) == 0;
	regmatch_t m[4] = {{.rm_so = 0, .rm_eo = (regoff_t)(end - p)}};
	if (!compiled || regexec(&re, p, 4, m, REG_STARTEND) != 0)
		return false;
	*n = 0;
	for (const char *d = p + m[2].rm_so; d < p + m[2].rm_eo; d++)
		*n = *n < 100000000 ? *n * 10 + (unsigned long)(*d - '0') : *n;
	*name = NULL;
	if (m[3].rm_so >= 0) {
		struct q7_strbuf b = {0};
		for (p += m[3].rm_eo; p < end && *p != '"'; p++) {
			if (*p == '\\' && p + 1 < end)
				p++;
			q7_sb_addc(&b, *p);
		}
		*name = q7_sb_take(&b);
	}
	return true;
}

bool q7_text_is_word(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

bool q7_text_word_at(const char *text, size_t len, size_t at, const char *name)
{
	size_t n = strlen(name);
	return at + n <= len && strncmp(text + at, name, n) == 0 &&
	       (at + n == len || !q7_text_is_word(text[at + n])) &&
	       (at == 0 || !q7_text_is_word(text[at - 1]));
}

unsigned q7_text_physical_line(const char *text, size_t len, const char *main, const char *file,
                               unsigned line, unsigned col, const char *want)
{
	char *name = q7_xstrdup(main);
	unsigned long presumed = 1;
	unsigned found = 0, first = 0, phys = 1;
	for (size_t off = 0; off <= len && !found; phys++) {
		const char *p = text + off, *nl = memchr(p, '\n', len - off);
		const char *end = nl ? nl : text + len;
		unsigned long n;
		char *named;
		if (directive(p, end, &n, &named)) {
			presumed = n; /* the number of the line after it */
			if (named) {
				free(name);
				name = named;
			}
		} else {
			bool here = presumed == line && strcmp(name, file) == 0;
			if (here && !first)
				first = phys;
			if (here && (!want || (col && q7_text_word_at(p, (size_t)(end - p), col - 1, want))))
				found = phys;
			presumed++;
		}
		if (!nl)
			break;
		off = (size_t)(nl - text) + 1;
	}
	free(name);
	return found ? found : first;
}

bool q7_text_quoted(const char *message, const char *what, char *out, size_t n)
{
	const char *p = strstr(message, what), *end;
	if (!p || !(end = strchr(p += strlen(what), '\'')))
		return false;
	for (const char *c = p; c + 1 < end; c++)
		if (c[0] == ':' && c[1] == ':')
			p = c + 2;
	if ((size_t)(end - p) >= n || end == p)
		return false;
	memcpy(out, p, (size_t)(end - p));
	out[end - p] = '\0';
	return true;
}

char *q7_text_splice(char *t, size_t *len, size_t from, size_t to, const char *s)
{
	size_t n = strlen(s), tail = *len - to;
	char *out = q7_xmalloc(from + n + tail + 1);
	memcpy(out, t, from);
	memcpy(out + from, s, n);
	memcpy(out + from + n, t + to, tail);
	*len = from + n + tail;
	out[*len] = '\0';
	free(t);
	return out;
}

bool q7_text_includes(const char *text, size_t len, const char *name)
{
	static regex_t re;
	static int compiled = -1;
	if (compiled < 0)
		compiled = regcomp(&re, "^[ \t]*#[ \t]*include[ \t]*(\"[^\"\n]*\"|<[^>\n]*>)",
		                   REG_EXTENDED | REG_NEWLINE) == 0;
	size_t n = strlen(name);
	regmatch_t m[2] = {{.rm_so = 0, .rm_eo = (regoff_t)len}};
	for (int flags = REG_STARTEND; n && compiled && regexec(&re, text, 2, m, flags) == 0;
	     flags |= REG_NOTBOL) {
		/* The name between the quotes, or a path ending in /name. */
		const char *in = text + m[1].rm_so + 1;
		size_t got = (size_t)(m[1].rm_eo - m[1].rm_so) - 2;
		if (got >= n && strncmp(in + got - n, name, n) == 0 && (got == n || in[got - n - 1] == '/'))
			return true;
		m[0] = (regmatch_t){.rm_so = m[0].rm_eo, .rm_eo = (regoff_t)len};
	}
	return false;
}
