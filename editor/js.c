/* LSP's JSON shapes: see js.h. */
#include "js.h"

json_object *q7_js_get(json_object *o, const char *key)
{
	json_object *v;
	return o && json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, key, &v)
	               ? v
	               : NULL;
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

static json_object *position(unsigned line, unsigned character)
{
	json_object *p = json_object_new_object();
	json_object_object_add(p, "line", json_object_new_int((int)line));
	json_object_object_add(p, "character", json_object_new_int((int)character));
	return p;
}

json_object *q7_js_range(unsigned l1, unsigned c1, unsigned l2, unsigned c2)
{
	json_object *r = json_object_new_object();
	json_object_object_add(r, "start", position(l1, c1));
	json_object_object_add(r, "end", position(l2, c2));
	return r;
}
