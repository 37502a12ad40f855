/* packer/pack: xt-pkg-loadlib in-process: strip a linked image, drop the
 * sections the loader does not want, save the stripped image, and wrap it
 * as a relocatable object whose .rodata holds it under a global symbol. */
#ifndef Q7_PACK_H
#define Q7_PACK_H

#include <stdbool.h>

struct q7_err;
struct q7_strvec;

struct q7_pack_opts {
	const char *input;    /* the linked image (<base>.so) */
	const char *output;   /* -o: the packed object, NULL for none */
	const char *stripped; /* -s: the stripped image, NULL for none */
	const char *symbol;   /* -e: default "lib_func" */
	unsigned long pagesize; /* -p: 0 takes the overlay path */
	bool symlookup;       /* -l: keep .hash .dynstr .dynsym .rela.plt */
	/* -v: what was done, one line each ("<file>: removing sections:
	 * ..."), appended for the caller to show; NULL for none. */
	struct q7_strvec *notes;
	/* How messages name output and stripped (NULL: as they are): a
	 * caller that writes them to a staging folder names the files the
	 * user asked for (q7cc's link, wrapper/outset.h). */
	const char *output_name, *stripped_name;
};

/* 0, or -1 with "<file>: <reason>" in err (the packer prints nothing; its
 * tools do); no output is left behind on failure. */
int q7_pack(const struct q7_pack_opts *o, struct q7_err *err);

/* q7_pack on an image already opened and checked (packer/image.h), for
 * the fuzz target and tests. Same result and messages as q7_pack. */
struct q7_image;
int q7_pack_image(const struct q7_image *im, const struct q7_pack_opts *o, struct q7_err *err);
/* The same into descriptors (empty, read-write) instead of named files;
 * packed_fd -1 skips the packed object. o->output/stripped only name the
 * outputs in messages. */
int q7_pack_image_fds(const struct q7_image *im, const struct q7_pack_opts *o, int stripped_fd,
                      int packed_fd, struct q7_err *err);

/* The q7-pkg-loadlib / xt-pkg-loadlib command line. */
int q7_pkg_loadlib_main(int argc, char **argv);

#endif
