/* editor/js: the few shapes of LSP's JSON the relay reads and writes,
 * over json-c: members of objects, whatever their presence or type, and
 * ranges. */
#ifndef Q7_EDITOR_JS_H
#define Q7_EDITOR_JS_H

#include <json-c/json.h>
#include <stddef.h>

/* o's member key, or NULL (o NULL or no object, or no such member). */
json_object *q7_js_get(json_object *o, const char *key);
/* o's member key if it is an array, else NULL: json-c's array calls
 * abort on anything else, and clangd's or the editor's JSON may be
 * anything (docs/robustness.md). */
json_object *q7_js_array(json_object *o, const char *key);
/* o's member key if it is a string, else dflt. */
const char *q7_js_str(json_object *o, const char *key, const char *dflt);
/* o's member key as a number, 0 when absent or negative. */
unsigned q7_js_uint(json_object *o, const char *key);
/* A new object of the members key, value (taken; a NULL value leaves its
 * member out) ..., the list ended by a NULL key. */
json_object *q7_js_object(const char *key, ...);
/* A new LSP Range from (line, character) to (line, character). */
json_object *q7_js_range(unsigned l1, unsigned c1, unsigned l2, unsigned c2);
/* A new LSP Range of the identifier (else the one character) at byte
 * column col of line (both 1-based) of text[0..len); col 0: the line's
 * first character. */
json_object *q7_js_token_range(const char *text, size_t len, unsigned line, unsigned col);

#endif
