/* model/srckind: what kind of source a file name (or a -x language)
 * names: the one table the driver classifies its inputs by and the
 * language server decides what it lints by. */
#ifndef Q7_SRCKIND_H
#define Q7_SRCKIND_H

enum q7_input_kind {
	Q7_IN_NONE = 0,   /* an option unit */
	Q7_IN_CXX,        /* C++ source: analysed */
	Q7_IN_CXX_PP,     /* preprocessed C++ (.ii, -x c++-cpp-output): q7cc -E's
	                   * records and lint travel in it (wrapper/preprocess) */
	Q7_IN_C,          /* C source, preprocessed or not (.c, .i, -x c,
	                   * -x cpp-output): the toolchain's C compiler, no analysis */
	Q7_IN_OTHER_SRC,  /* assembler, a C header, ...: compiled, not analysed */
	Q7_IN_LINK,       /* object, archive, shared library, linker script */
};

/* The kind of path by its extension; Q7_IN_LINK for none the table knows. */
enum q7_input_kind q7_input_kind_of(const char *path);
/* The kind of a -x LANG language; otherwise for one the table lacks. */
enum q7_input_kind q7_input_kind_of_lang(const char *lang, enum q7_input_kind otherwise);

#endif
