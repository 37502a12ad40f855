/* analysis/json: q7cc's JSON documents, built as json-c trees and printed
 * in the layout of GCC's -fdiagnostics-format=json (", " between members
 * and elements, ": " after a key, no other space), since q7cc merges its
 * objects into the compiler's array (docs/lint-rules.md). json-c's own
 * printer has no such layout, and it passes a byte that is not UTF-8
 * through (an invalid document) and DEL and C1 controls raw: strings go
 * through q7_sb_add_json instead. */
#include "analysis.h"
#include "internal.h"

#include <json-c/json.h>

static void add(struct q7_strbuf *b, struct json_object *o);

static void add_object(struct q7_strbuf *b, struct json_object *o)
{
	const char *sep = "";
	q7_sb_addc(b, '{');
	json_object_object_foreach(o, key, v) {
		q7_sb_add(b, sep);
		sep = ", ";
		q7_sb_add_json(b, key);
		q7_sb_add(b, ": ");
		add(b, v);
	}
	q7_sb_addc(b, '}');
}

static void add(struct q7_strbuf *b, struct json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_object: add_object(b, o); break;
	case json_type_array:
		q7_sb_addc(b, '[');
		for (size_t i = 0; i < json_object_array_length(o); i++) {
			q7_sb_add(b, i ? ", " : "");
			add(b, json_object_array_get_idx(o, i));
		}
		q7_sb_addc(b, ']');
		break;
	case json_type_string: q7_sb_add_json(b, json_object_get_string(o)); break;
	default: /* numbers, true, false, null */
		q7_sb_add(b, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	}
}

void q7_json_print(struct json_object *o, FILE *out)
{
	struct q7_strbuf b = {0};
	add(&b, o);
	q7_sb_addc(&b, '\n');
	fwrite(b.s, 1, b.len, out);
	q7_sb_free(&b);
}

static struct json_object *put(struct json_object *parent, const char *key,
                               struct json_object *v)
{
	if (parent && key)
		json_object_object_add(parent, key, v);
	else if (parent)
		json_object_array_add(parent, v);
	return v;
}

struct json_object *q7_json_obj(struct json_object *parent, const char *key)
{
	return put(parent, key, json_object_new_object());
}

struct json_object *q7_json_arr(struct json_object *parent, const char *key)
{
	return put(parent, key, json_object_new_array());
}

void q7_json_str(struct json_object *o, const char *key, const char *s)
{
	put(o, key, json_object_new_string(s ? s : ""));
}

void q7_json_int(struct json_object *o, const char *key, long long v)
{
	put(o, key, json_object_new_int64(v));
}

void q7_json_bool(struct json_object *o, const char *key, bool v)
{
	put(o, key, json_object_new_boolean(v));
}
