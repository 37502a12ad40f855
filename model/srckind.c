/* Source kinds by extension and by -x language: see srckind.h. */
#include "srckind.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "support.h"

/* The one table of source kinds: by extension, and by -x LANG. C,
 * preprocessed or not, goes to the toolchain's C compiler (which tells the
 * two apart by the extension or -x); everything else to its C++ driver,
 * which would take .c and .i for C++. */
static const struct {
	const char *ext;  /* NULL: by -x only */
	const char *lang; /* NULL: by extension only */
	enum q7_input_kind kind;
} kinds[] = {
	{".cpp", "c++", Q7_IN_CXX}, {".cc", NULL, Q7_IN_CXX}, {".cxx", NULL, Q7_IN_CXX},
	{".c++", NULL, Q7_IN_CXX}, {".cp", NULL, Q7_IN_CXX}, {".C", NULL, Q7_IN_CXX},
	{".CPP", NULL, Q7_IN_CXX}, {".hpp", NULL, Q7_IN_CXX}, {".hh", NULL, Q7_IN_CXX},
	{".hxx", NULL, Q7_IN_CXX}, {".H", NULL, Q7_IN_CXX},
	{".ii", "c++-cpp-output", Q7_IN_CXX_PP},
	{".c", "c", Q7_IN_C}, {".i", "cpp-output", Q7_IN_C},
	{".s", NULL, Q7_IN_OTHER_SRC}, {".S", NULL, Q7_IN_OTHER_SRC}, {".sx", NULL, Q7_IN_OTHER_SRC},
	{".m", NULL, Q7_IN_OTHER_SRC}, {".mm", NULL, Q7_IN_OTHER_SRC}, {".h", NULL, Q7_IN_OTHER_SRC},
};

/* The table's kind for an extension (by_lang false) or a -x language;
 * otherwise: none of the table's. */
static enum q7_input_kind kind_in_table(const char *word, bool by_lang, enum q7_input_kind otherwise)
{
	for (size_t i = 0; word && i < sizeof kinds / sizeof kinds[0]; i++) {
		const char *key = by_lang ? kinds[i].lang : kinds[i].ext;
		if (key && strcmp(word, key) == 0)
			return kinds[i].kind;
	}
	return otherwise;
}

enum q7_input_kind q7_input_kind_of(const char *path)
{
	return kind_in_table(strrchr(q7_path_basename(path), '.'), false, Q7_IN_LINK);
}

enum q7_input_kind q7_input_kind_of_lang(const char *lang, enum q7_input_kind otherwise)
{
	return kind_in_table(lang, true, otherwise);
}
