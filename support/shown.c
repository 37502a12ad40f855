/* Text that came from a file (a trailer, a record, an archive member's
 * name, a diagnostic's path) as a terminal may show it: a control
 * character in it would move the cursor, clear the screen, retitle the
 * window or start a line that looks like the compiler's own "error:". */
#include "support.h"

/* The length of the well-formed UTF-8 sequence at p (2 to 4 bytes), or 0. */
static size_t utf8_len(const unsigned char *p)
{
	size_t n = p[0] >= 0xf0 && p[0] <= 0xf4   ? 4
	           : p[0] >= 0xe0 && p[0] <= 0xef ? 3
	           : p[0] >= 0xc2 && p[0] <= 0xdf ? 2
	                                          : 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

void q7_sb_add_shown(struct q7_strbuf *b, const char *s, bool keep_tabs)
{
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t n = *p < 0x80 ? 1 : utf8_len(p);
		bool control = n == 1 ? (*p < 0x20 && !(keep_tabs && *p == '\t')) || *p == 0x7f
		                      : n == 0 || (p[0] == 0xc2 && p[1] <= 0x9f); /* C1 */
		if (control) {
			/* \xNN, as q7_cxx_quote shows a record's bytes. */
			q7_sb_addf(b, "\\x%02x", *p);
			p++;
		} else {
			q7_sb_addn(b, (const char *)p, n);
			p += n;
		}
	}
}
