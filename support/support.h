/* support: small shared pieces every component uses.
 *
 * Owns: allocation that cannot fail (q7 exits on OOM), the growing array,
 * the growable string and string vector, the program-name-prefixed error printer and the error
 * carrier of code that must not print, path helpers,
 * and where q7cc's own files live. Nothing here knows about compilers.
 *
 * Memory: q7_strbuf and q7_strvec own their storage; q7_*_free releases it.
 * Strings returned by q7_xstrdup/q7_xasprintf/q7_path_* are the caller's. */
#ifndef Q7_SUPPORT_H
#define Q7_SUPPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#if defined(__GNUC__)
#define Q7_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define Q7_NORETURN __attribute__((noreturn))
#else
#define Q7_PRINTF(f, a)
#define Q7_NORETURN
#endif

/* Exit codes of q7cc's own failures, apart from the compiler's (1) and from
 * death by signal (128+N). */
enum {
	Q7_EXIT_ERROR = 1,     /* bad input: a diagnostic was printed */
	Q7_EXIT_USAGE = 2,     /* bad command line */
	Q7_EXIT_TOOL = 69,     /* a tool q7cc needs is missing (EX_UNAVAILABLE) */
	Q7_EXIT_INTERNAL = 70, /* q7cc itself failed (EX_SOFTWARE) */
	Q7_EXIT_IO = 74,       /* could not read or write a file (EX_IOERR) */
};

void *q7_xmalloc(size_t n);
void *q7_xcalloc(size_t n, size_t size);
void *q7_xrealloc(void *p, size_t n);
/* A growing array: v (NULL at first) of *cap elements (0 at first) of
 * size bytes each, reallocated when it holds fewer than need, its
 * capacity doubled (from 8) until it holds them. A byte size past SIZE_MAX
 * is out of memory, as q7_xrealloc's. Returns v, which may have moved. */
void *q7_xgrow(void *v, size_t *cap, size_t need, size_t size);
/* Room for need elements in the array v of capacity cap (a size_t). v is
 * evaluated twice: Q7_GROW(t->v, t->cap, t->n + 1); t->v[t->n++] = x; */
#define Q7_GROW(v, cap, need) ((v) = q7_xgrow((v), &(cap), (need), sizeof *(v)))
/* tsearch(3) that cannot fail: the tree's node of key, added when new. */
void *q7_xtsearch(const void *key, void **root, int (*cmp)(const void *, const void *));
char *q7_xstrdup(const char *s);
char *q7_xstrndup(const char *s, size_t n);
char *q7_xasprintf(const char *fmt, ...) Q7_PRINTF(1, 2);

/* The name errors are prefixed with ("q7cc", "q7-pkg-loadlib", ...). */
void q7_set_progname(const char *name);
const char *q7_progname(void);
/* "<prog>: <message>\n" on stderr; the message as q7_sb_add_shown shows
 * it (a name from a file cannot forge a line or move the cursor). */
void q7_error(const char *fmt, ...) Q7_PRINTF(1, 2);
void q7_warning(const char *fmt, ...) Q7_PRINTF(1, 2);
void q7_note(const char *fmt, ...) Q7_PRINTF(1, 2);
Q7_NORETURN void q7_fatal(int code, const char *fmt, ...) Q7_PRINTF(2, 3);

/* The error of code that must not print (a loader, a library, a parser
 * of untrusted bytes): one message, "<file>: <what>: <why>" as q7_error
 * would print it after the program's name, written into a buffer its
 * caller owns and prints or passes on. A NULL carrier or an array carrier
 * of no bytes drops the message.
 *
 * Two forms: over a char array (Q7_ERR_OF), the message cut to fit; or
 * growing (Q7_ERR_GROWING), for messages that quote paths or names of any
 * length: each set allocates the whole message (msg, NULL before the
 * first), replacing an earlier one, and q7_err_free releases it. */
struct q7_err {
	char *msg;
	size_t size;
	bool grow; /* growing: msg is allocated to fit; size is its bytes */
};
/* A carrier over a char array. */
#define Q7_ERR_OF(array) ((struct q7_err){.msg = (array), .size = sizeof(array)})
/* A growing carrier, no message yet; q7_err_free it after use. */
#define Q7_ERR_GROWING ((struct q7_err){.msg = NULL, .size = 0, .grow = true})
/* The same as a function, for C++ (the bridge), which has no compound
 * literals. */
static inline struct q7_err q7_err_growing(void)
{
	struct q7_err e = {NULL, 0, true};
	return e;
}
/* Sets e's message to "<file>: " then fmt's text, or fmt's text alone when
 * file is NULL; on an array carrier cut to fit, always NUL-terminated; on
 * a growing one whole. */
void q7_err_set(struct q7_err *e, const char *file, const char *fmt, ...) Q7_PRINTF(3, 4);
void q7_err_vset(struct q7_err *e, const char *file, const char *fmt, va_list ap);
/* Empties e's message. */
void q7_err_clear(struct q7_err *e);
/* Releases a growing carrier's message (msg NULL again); nothing for an
 * array carrier or NULL. */
void q7_err_free(struct q7_err *e);
/* e's message, or "" when there is none (NULL, or growing before a set). */
const char *q7_err_text(const struct q7_err *e);
/* At a tool's top: prints e's message as q7_error does, when it has one,
 * then releases a growing carrier (q7_err_free). */
void q7_err_print(struct q7_err *e);

/* A growable NUL-terminated string. Zero-initialise, then append. */
struct q7_strbuf {
	char *s;
	size_t len, cap;
};
void q7_sb_add(struct q7_strbuf *b, const char *s);
void q7_sb_addn(struct q7_strbuf *b, const char *s, size_t n);
void q7_sb_addc(struct q7_strbuf *b, char c);
void q7_sb_addf(struct q7_strbuf *b, const char *fmt, ...) Q7_PRINTF(2, 3);
void q7_sb_vaddf(struct q7_strbuf *b, const char *fmt, va_list ap);
/* Hands the string to the caller and resets b. Never NULL. */
char *q7_sb_take(struct q7_strbuf *b);
void q7_sb_free(struct q7_strbuf *b);
/* Appends s, text from a file, as a terminal may show it: every control
 * character (C0 but a tab when keep_tabs, DEL, C1) and every byte that is
 * not well-formed UTF-8 as \\xNN; the rest as it is. */
void q7_sb_add_shown(struct q7_strbuf *b, const char *s, bool keep_tabs);
/* Appends s, text from a file, as XML character data or an attribute
 * value: as q7_sb_add_shown (tabs too), and < > & " ' as entities, so that
 * any name gives a well-formed SVG. */
void q7_sb_add_xml(struct q7_strbuf *b, const char *s);
/* Appends path as a URI's path: every byte but RFC 3986's unreserved
 * ones and '/' percent-encoded. */
void q7_sb_add_uri_path(struct q7_strbuf *b, const char *path);
/* Appends s as a JSON string, quoted: control characters (C0, DEL, C1)
 * as \u escapes, a byte that is not UTF-8 as the text \xNN, so that any
 * name gives valid JSON. */
void q7_sb_add_json(struct q7_strbuf *b, const char *s);
/* The length of the well-formed UTF-8 sequence of 2 to 4 bytes at p (no
 * overlong form, surrogate or code point past U+10FFFF: what strict
 * decoders, XML parsers among them, refuse), or 0. */
size_t q7_utf8_len(const unsigned char *p);

/* A NULL-terminated vector of owned strings (an argv). Zero-initialise. */
struct q7_strvec {
	char **v;
	size_t n, cap;
};
void q7_sv_add(struct q7_strvec *sv, const char *s);
void q7_sv_addf(struct q7_strvec *sv, const char *fmt, ...) Q7_PRINTF(2, 3);
void q7_sv_addv(struct q7_strvec *sv, const struct q7_strvec *from);
/* True when s is one of sv's strings. */
bool q7_sv_has(const struct q7_strvec *sv, const char *s);
void q7_sv_free(struct q7_strvec *sv);

/* Appends s to b quoted for a POSIX shell, only where it needs quoting, so
 * that a printed command can be pasted back. */
void q7_sb_add_shell_quoted(struct q7_strbuf *b, const char *s);
/* One command line, shell-quoted, no newline. Caller frees. */
char *q7_shell_join(char *const *argv);

/* Paths. All return new strings. */
char *q7_path_dirname(const char *path);
const char *q7_path_basename(const char *path); /* points into path */
char *q7_path_join(const char *dir, const char *name);
/* "dir/base.so" -> "dir/base" when path ends in ext, else a copy. */
char *q7_path_strip_ext(const char *path, const char *ext);
bool q7_path_exists(const char *path);
bool q7_path_is_executable(const char *path);
/* Searches PATH (or path_env when non-NULL) for an executable. */
char *q7_path_search(const char *name, const char *path_env);

/* Reads a whole file of q7cc's own (a temporary, a capture of a tool's
 * output); a file anyone else names goes through q7_read_regular.
 * Returns NULL and sets errno on failure. */
char *q7_read_file(const char *path, size_t *len);
/* Opens path for reading only when it is a regular file (after links) or
 * /dev/null (which reads as an empty one),
 * without waiting on a FIFO or reading a device: the fd (blocking,
 * close-on-exec), or -1 with *why saying why (strerror, or "not a regular
 * file (a FIFO, a device or a folder)", errno EINVAL). What every reader of images,
 * manifests and profiles opens its input with. */
int q7_open_regular(const char *path, const char **why);
/* Reads at most max bytes of fd into a new buffer, NUL-terminated: *len
 * bytes, and *more true when the file holds more. NULL on a read error
 * (errno set). */
char *q7_read_upto(int fd, size_t max, size_t *len, bool *more);
/* The one rule for reading a file a user, a project, a compile command or
 * an include names (docs/robustness.md, "Special files"): its whole text
 * when it is a regular file (after links) of at most max bytes, checked
 * before the first byte is read (q7_open_regular) and read no further
 * than max + 1 bytes; NUL-terminated, *len bytes. Else NULL, *why saying
 * why for "<file>: cannot read: <why>" and errno set: strerror(errno), the
 * special-file reason (EINVAL), or "larger than N bytes" (EFBIG, also for
 * a file that grows past max while it is read). The bounds of q7cc's
 * readers follow. */
char *q7_read_regular(const char *path, size_t max, size_t *len, const char **why);
#define Q7_READ_TEXT_MAX ((size_t)256 << 20)   /* a source or header the pre-scan reads */
#define Q7_READ_ARGS_MAX ((size_t)64 << 20)    /* a response file, a .schemas file */
#define Q7_READ_IMAGE_MAX ((size_t)256 << 20)  /* a device image, packed or prelinked */
#define Q7_READ_HOSTLIB_MAX ((size_t)1 << 30)  /* a host kernel library */
#define Q7_READ_NPY_MAX ((size_t)16 << 30)     /* a tensor: the isolated host's reserve */

/* q7cc's own directory layout: <prefix>/bin, <prefix>/include/q7cc,
 * <prefix>/lib/q7cc, <prefix>/share/q7cc, as the build's GNUInstallDirs
 * name them (bin, include, lib or lib64 or lib/<multiarch>, share: the
 * definitions Q7CC_BINDIR, ... that support/CMakeLists.txt passes). The
 * prefix is found from the running executable (/proc/self/exe), so the
 * build tree's stage/, an installed tree and a moved copy of it work the
 * same; Q7CC_PREFIX overrides it. */
const char *q7_prefix(void);
/* Sets the prefix: for q7cc's code in a library that another program
 * loads (the PyTorch bridge), which knows where it is installed. */
void q7_set_prefix(const char *dir);
/* "<prefix>/<rel>", rel written in the default layout ("lib/q7cc/...",
 * "share/q7cc/...", "include/...", "bin/..."), mapped to the build's. */
char *q7_prefix_path(const char *rel);
/* The installed user page ("runtime.md": docs/<page> of the source
 * tree, installed as <prefix>/share/doc/q7cc/<page>), for messages that
 * send a user to it. */
char *q7_doc_path(const char *page);
/* argv[0], for finding the prefix where /proc is not mounted (a chroot). */
void q7_set_self_argv0(const char *argv0);

#endif
