/* editor/text: the editor's text of a document and LSP positions in it.
 *
 * LSP positions count lines from 0 and characters in UTF-16 code units
 * by default, or in what the session agreed on (clangd's offsetEncoding:
 * UTF-8 bytes for Neovim, which offers it); q7cc's diagnostics count both
 * from 1, columns in bytes. */
#ifndef Q7_EDITOR_TEXT_H
#define Q7_EDITOR_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "support.h"

/* The encoding of characters in positions from now on: "utf-8",
 * "utf-16" (also for NULL or another name) or "utf-32". One per process:
 * q7cc-clangd serves one editor. */
void q7_text_set_encoding(const char *name);
/* The byte offset of (line, character) in text[0..len), clamped to the
 * line's end and to the text's end. */
size_t q7_text_offset(const char *text, size_t len, unsigned line, unsigned character);
/* The character of byte column col (1-based) of line (1-based). */
unsigned q7_text_character(const char *text, size_t len, unsigned line, unsigned col);
/* The length of the identifier (or else the one character) that
 * starts at byte column col of line: the range a diagnostic underlines. */
unsigned q7_text_token_width(const char *text, size_t len, unsigned line, unsigned col);
/* The LSP position (0-based line, UTF-16 character) of byte offset off. */
void q7_text_position(const char *text, size_t len, size_t off, unsigned *line,
                      unsigned *character);
/* The line of text (1-based, as it is in the editor) where the compiler's
 * place file:line:col is: q7cc reports the place that `#line N "name"`
 * and line markers (`# N "name"`) say, as compilers do, and the editor
 * shows the line itself. main: the name of the text's file before any of
 * them. Two lines may be one place (#line can repeat a number): the first
 * with the identifier want (non-NULL) at col is taken, else the first. 0
 * when no line of text is that place. */
unsigned q7_text_physical_line(const char *text, size_t len, const char *main, const char *file,
                               unsigned line, unsigned col, const char *want);
/* The name quoted after what in a finding's message ("parameter '",
 * "kernel '"), its last part after "::", into out[0..n); false when there
 * is none. */
bool q7_text_quoted(const char *message, const char *what, char *out, size_t n);
/* Whether c is part of an identifier (a letter, a digit, '_'). */
bool q7_text_is_word(char c);
/* Whether the identifier name is at byte offset at of text[0..len),
 * whole (no identifier's character on either side). */
bool q7_text_word_at(const char *text, size_t len, size_t at, const char *name);
/* Replaces [from, to) of t (len *len) with s; returns the new text. */
char *q7_text_splice(char *t, size_t *len, size_t from, size_t to, const char *s);

/* Whether text[0..len) has an #include "..." or <...> of the file name
 * (a base name): the name itself or a path that ends in /name. */
bool q7_text_includes(const char *text, size_t len, const char *name);

#endif
