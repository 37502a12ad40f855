/* editor/js: the few shapes of LSP's JSON the relay reads and writes,
 * over json-c: members of objects, whatever their presence or type, and
 * ranges. */
#ifndef Q7_EDITOR_JS_H
#define Q7_EDITOR_JS_H

#include <json-c/json.h>

/* o's member key, or NULL (o NULL or no object, or no such member). */
json_object *q7_js_get(json_object *o, const char *key);
/* o's member key if it is a string, else dflt. */
const char *q7_js_str(json_object *o, const char *key, const char *dflt);
/* o's member key as a number, 0 when absent or negative. */
unsigned q7_js_uint(json_object *o, const char *key);
/* A new LSP Range from (line, character) to (line, character). */
json_object *q7_js_range(unsigned l1, unsigned c1, unsigned l2, unsigned c2);

#endif
