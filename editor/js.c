/* LSP's JSON shapes: see js.h. */
#include "js.h"
#include "text.h"

#include <stdarg.h>

json_object *q7_js_get(json_object *o, const char *key)
{
	json_object *v;
	return o && json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, key, &v)
	               ? v
	               : NULL;
}

json_object *q7_js_array(json_object *o, const char *key)
{
	json_object *v = q7_js_get(o, key);
	return json_object_is_type(v, json_type_array) ? v : NULL;
}

const char *q7_js_str(json_object *o, const char *key, const char *dflt)
{
	json_object *v = q7_js_get(o, key);
	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : dflt;
}

unsigned q7_js_uint(json_object *o, const char *key)
{
	int v = json_object_get_int(q7_js_get(o, key));
	return v > 0 ? (unsigned)v : 0;
}

json_object *q7_js_object(const char *key, ...)
{
	json_object *o = json_object_new_object();
	va_list ap;
	va_start(ap, key);
	for (; key; key = va_arg(ap, const char *)) {
		json_object *v = va_arg(ap, json_object *);
		if (v)
			json_object_object_add(o, key, v);
	}
	va_end(ap);
	return o;
}

static json_object *position(unsigned line, unsigned character)
{
	return q7_js_object("line", json_object_new_int((int)line), "character",
	                    json_object_new_int((int)character), NULL);
}

json_object *q7_js_range(unsigned l1, unsigned c1, unsigned l2, unsigned c2)
{
	return q7_js_object("start", position(l1, c1), "end", position(l2, c2), NULL);
}

json_object *q7_js_token_range(const char *text, size_t len, unsigned line, unsigned col)
{
	unsigned ch = q7_text_character(text, len, line, col ? col : 1);
	unsigned w = col ? q7_text_token_width(text, len, line, col) : 1;
	return q7_js_range(line - 1, ch, line - 1, ch + w);
}
