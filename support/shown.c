/* Text that came from a file (a trailer, a record, an archive member's
 * name, a diagnostic's path) as a terminal may show it: a control
 * character in it would move the cursor, clear the screen, retitle the
 * window or start a line that looks like the compiler's own "error:". */
#include "support.h"

#include <string.h>

size_t q7_utf8_len(const unsigned char *p)
{
	size_t n = p[0] >= 0xf0 && p[0] <= 0xf4   ? 4
	           : p[0] >= 0xe0 && p[0] <= 0xef ? 3
	           : p[0] >= 0xc2 && p[0] <= 0xdf ? 2
	                                          : 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] > 0x9f) ||
	    (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] > 0x8f))
		return 0;
	return n;
}

/* Appends s with every control character (C0 but a tab when keep_tabs,
 * DEL, C1) and byte that is not well-formed UTF-8 as \xNN; for XML also
 * U+FFFE and U+FFFF (no XML character) and its five markup characters as
 * entities. */
static void add_escaped(struct q7_strbuf *b, const char *s, bool keep_tabs, bool xml)
{
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t n = *p < 0x80 ? 1 : q7_utf8_len(p);
		bool control = n == 1 ? (*p < 0x20 && !(keep_tabs && *p == '\t')) || *p == 0x7f
		                      : n == 0 || (p[0] == 0xc2 && p[1] <= 0x9f) || /* C1 */
		                            (xml && p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe);
		const char *entity = !xml ? NULL
		                     : *p == '<'  ? "&lt;"
		                     : *p == '>'  ? "&gt;"
		                     : *p == '&'  ? "&amp;"
		                     : *p == '"'  ? "&quot;"
		                     : *p == '\'' ? "&apos;"
		                                  : NULL;
		if (entity) {
			q7_sb_add(b, entity);
			p++;
		} else if (control && n > 1) {
			for (size_t i = 0; i < n; i++)
				q7_sb_addf(b, "\\x%02x", p[i]);
			p += n;
		} else if (control) {
			/* \xNN, as q7_cxx_quote shows a record's bytes. */
			q7_sb_addf(b, "\\x%02x", *p);
			p++;
		} else {
			q7_sb_addn(b, (const char *)p, n);
			p += n;
		}
	}
}

void q7_sb_add_shown(struct q7_strbuf *b, const char *s, bool keep_tabs)
{
	add_escaped(b, s, keep_tabs, false);
}

void q7_sb_add_xml(struct q7_strbuf *b, const char *s)
{
	add_escaped(b, s, false, true);
}

void q7_sb_add_uri_path(struct q7_strbuf *b, const char *path)
{
	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("/-._~", *p))
			q7_sb_addc(b, (char)*p);
		else
			q7_sb_addf(b, "%%%02X", *p);
}

void q7_sb_add_json(struct q7_strbuf *b, const char *s)
{
	q7_sb_addc(b, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': q7_sb_add(b, "\\\""); break;
		case '\\': q7_sb_add(b, "\\\\"); break;
		case '\n': q7_sb_add(b, "\\n"); break;
		case '\t': q7_sb_add(b, "\\t"); break;
		case '\r': q7_sb_add(b, "\\r"); break;
		default: {
			/* Controls (C0, DEL, C1) as \u escapes, so none reaches a
			 * terminal raw; a byte that is not UTF-8 as the text \xNN
			 * (JSON strings are Unicode: a file name's raw byte made
			 * the document invalid). */
			size_t n = *p < 0x80 ? 1 : q7_utf8_len(p);
			if (n == 1 && (*p < 0x20 || *p == 0x7f)) {
				q7_sb_addf(b, "\\u%04x", *p);
			} else if (n == 2 && p[0] == 0xc2 && p[1] <= 0x9f) {
				q7_sb_addf(b, "\\u%04x", p[1]);
				p++;
			} else if (n == 0) {
				q7_sb_addf(b, "\\\\x%02x", *p);
			} else {
				q7_sb_addn(b, (const char *)p, n);
				p += n - 1;
			}
		}
		}
	}
	q7_sb_addc(b, '"');
}
