/* A command line too long for the kernel (E2BIG: a CMake link of
 * thousands of objects, which reached q7cc as a response file) goes to
 * the tool as a response file again: GCC's driver, GNU ld and ar, clang
 * and the vendor's tools all read @file as libiberty's buildargv splits
 * it, so every word is written with its blanks, quotes and backslashes
 * escaped. */
#include "proc.h"
#include "support.h"
#include "tempfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *q7_response_file(char *const *words)
{
	static unsigned serial;
	char *path = q7_xasprintf("%s/args.%u.rsp", q7_temp_dir(), serial++);
	FILE *f = fopen(path, "wb");
	if (!f) {
		int e = errno;
		free(path);
		errno = e;
		return NULL;
	}
	q7_temp_register(path);
	for (char *const *w = words; *w; w++) {
		if (!**w)
			fputs("\"\"", f);
		for (const char *c = *w; *c; c++) {
			if (strchr(" \t\n\r\f\v'\"\\", *c))
				fputc('\\', f);
			fputc(*c, f);
		}
		fputc('\n', f);
	}
	if (fclose(f) != 0) {
		int e = errno;
		free(path);
		errno = e;
		return NULL;
	}
	return path;
}
