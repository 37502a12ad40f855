/* tests/packer/recmutate: the record mutation harness.
 *
 *   recmutate Q7CC WORKDIR BASE.o [OTHER...]
 *
 * Takes the records of BASE.o (an object q7cc compiled), makes a fixed,
 * deterministic table of damaged versions of them, as a careless tool or
 * an attacker would (every string field of every op through a table of
 * hostile texts, re-encoded with a valid checksum; kinds, flags, sizes
 * and counts; the raw header, lengths, truncations and flipped bytes), puts
 * each into a copy of BASE.o and links it with OTHER... as
 * `Q7CC -shared mNNNN.o OTHER... -o libmNNNN.so`. Each link must either
 * succeed (all three outputs there), or fail with status 1, a message
 * that names mNNNN.o, and no output left. Never may a message come from
 * the wrapper (wrapper.cpp, wrapper.o: the compiler's or linker's
 * complaint about what a record made q7cc write), nor carry a control
 * character, nor may q7cc die by a signal.
 *
 * Links run two at a time (RECMUTATE_JOBS). Prints one line per wrong
 * outcome (per mutant with RECMUTATE_VERBOSE=1) and a summary; exit 0
 * when all are right. */
#include "op.h"
#include "proc.h"
#include "record.h"
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the mutant table ---- */

enum how { SET, APPEND, PREPEND, DOUBLE, CHOP, UPPER };

/* What a string field becomes. The first group is what a crafted object
 * would use to reach the preprocessor or the terminal; the second, text
 * that is valid C++ in the wrong place; the third, careless damage. */
static const struct {
	enum how how;
	const char *text;
} texts[] = {
	{APPEND, "\r#include </etc/hostname>"},
	{PREPEND, "%:include </etc/hostname>\r"},
	{APPEND, "\n#error injected"},
	{APPEND, "\\\n"},
	{APPEND, " /*"},
	{APPEND, " //"},
	{APPEND, "\v"},
	{APPEND, "\f"},
	{APPEND, "\x1b[2J"},
	{APPEND, "\xc2\x85"},
	{APPEND, "?" "?="},
	{APPEND, "; int x"},
	{SET, ""},
	{SET, "int"},
	{SET, "long"},
	{SET, "long long"},
	{SET, "float"},
	{SET, "at::Tensor"},
	{SET, "const at::Tensor &"},
	{SET, "const c10::Scalar &"},
	{SET, "std::vector<int>"},
	{SET, "int *"},
	{SET, "x"},
	{SET, "a_kernel_name_of_32_characters__"},
	{SET, "ops::x"},
	{PREPEND, "::"},
	{SET, "a b"},
	{DOUBLE, NULL},
	{CHOP, NULL},
	{UPPER, NULL},
};
#define NTEXTS (sizeof texts / sizeof texts[0])

/* The string fields of an op: six of its own, two per parameter. */
enum { F_NAME, F_QUALNAME, F_NS, F_RET_CTYPE, F_RET_NAME, F_FILE, F_OWN };
static const char *const field_names[] = {"name", "qualname", "ns", "ret_ctype", "ret_name", "file"};

static size_t nfields(const struct q7_op *op)
{
	return F_OWN + 2 * op->nparams;
}

static char **field(struct q7_op *op, size_t f)
{
	switch (f) {
	case F_NAME: return &op->name;
	case F_QUALNAME: return &op->qualname;
	case F_NS: return &op->ns;
	case F_RET_CTYPE: return &op->ret_ctype;
	case F_RET_NAME: return &op->ret_name;
	case F_FILE: return &op->file;
	}
	f -= F_OWN;
	return f % 2 ? &op->params[f / 2].ctype : &op->params[f / 2].name;
}

static char *field_desc(size_t f)
{
	if (f < F_OWN)
		return q7_xstrdup(field_names[f]);
	return q7_xasprintf("param %zu %s", (f - F_OWN) / 2 + 1, (f - F_OWN) % 2 ? "ctype" : "name");
}

static char *transform(const char *s, size_t t)
{
	switch (texts[t].how) {
	case SET: return q7_xstrdup(texts[t].text);
	case APPEND: return q7_xasprintf("%s%s", s, texts[t].text);
	case PREPEND: return q7_xasprintf("%s%s", texts[t].text, s);
	case DOUBLE: return q7_xasprintf("%s%s", s, s);
	case CHOP: return q7_xstrndup(s, *s ? strlen(s) - 1 : 0);
	case UPPER: {
		char *u = q7_xstrdup(s);
		for (char *p = u; *p; p++)
			if (*p >= 'a' && *p <= 'z')
				*p = (char)(*p - 'a' + 'A');
		return u;
	}
	}
	return q7_xstrdup(s);
}

static const unsigned stacks[] = {0, 1, 4096, 4194304, 4194305, 0x80000000u, 0xffffffffu};
#define NSTACKS (sizeof stacks / sizeof stacks[0])

/* How many numeric and flag changes op has: ret kinds, each parameter's
 * kinds, stack sizes, and five more. */
static size_t number_changes(const struct q7_op *op)
{
	return 10 + 9 * op->nparams + NSTACKS + 5;
}

/* Numeric or flag change n (< number_changes) of op. */
static void number_change(struct q7_op *op, size_t n, struct q7_strbuf *desc)
{
	if (n < 10) {
		op->ret = (enum q7_kind)(n < 9 ? n : 255);
		q7_sb_addf(desc, "ret kind %d", (int)op->ret);
		return;
	}
	n -= 10;
	if (n < 9 * op->nparams) {
		op->params[n / 9].kind = (enum q7_kind)(n % 9);
		q7_sb_addf(desc, "param %zu kind %zu", n / 9 + 1, n % 9);
		return;
	}
	n -= 9 * op->nparams;
	if (n < NSTACKS) {
		op->stack_size = stacks[n];
		q7_sb_addf(desc, "stack %u", stacks[n]);
		return;
	}
	switch (n - NSTACKS) {
	case 0: op->defined = !op->defined; q7_sb_add(desc, "defined flipped"); break;
	case 1: op->by_name_only = !op->by_name_only; q7_sb_add(desc, "request flipped"); break;
	case 2: op->line = 0xffffffffu; op->col = 0; q7_sb_add(desc, "line/col extreme"); break;
	case 3:
		if (op->nparams) {
			op->nparams--;
			free(op->params[op->nparams].name);
			free(op->params[op->nparams].ctype);
			q7_sb_add(desc, "last param dropped");
		} else {
			op->col = 0xffffffffu;
			q7_sb_add(desc, "col extreme");
		}
		break;
	default:
		op->params = q7_xrealloc(op->params, (op->nparams + 1) * sizeof *op->params);
		op->params[op->nparams++] = (struct q7_param){Q7_KIND_INT, q7_xstrdup("extra"),
		                                               q7_xstrdup("int")};
		q7_sb_add(desc, "param added");
		break;
	}
}

static uint32_t get32(const unsigned char *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void set32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* A crafter recomputes the checksum (FNV-1a-32 of the body). */
static void reseal(unsigned char *p, size_t len)
{
	if (len < 20)
		return;
	uint32_t blen = get32(p + 12), h = 2166136261u;
	for (size_t i = 20; i < 20 + (size_t)blen && i < len; i++)
		h = (h ^ p[i]) * 16777619u;
	set32(p + 16, h);
}

/* Raw changes of the payload, by number; false past the last. The
 * deterministic "random" positions come from a fixed LCG. */
static bool raw_change(const char *base, size_t blen, size_t n, char **out, size_t *olen,
                       struct q7_strbuf *desc)
{
	unsigned char *p = q7_xmalloc(2 * blen + 8);
	memcpy(p, base, blen);
	size_t len = blen;
	bool seal = true;
	static const struct {
		size_t at;
		int delta;
		const char *what;
	} fields[] = {{4, 1, "version+1"}, {4, -1, "version-1"}, {4, -2, "version-2"},
	              {4, 252, "version 255"}, {6, 1, "header size+1"}, {8, 1, "count+1"},
	              {8, -1, "count-1"}, {12, 1, "body length+1"}, {12, -1, "body length-1"},
	              {20, 1, "op length+1"}, {20, -1, "op length-1"}, {24, 1, "name length+1"},
	              {24, -1, "name length-1"}, {24, 0x10000, "name length+64Ki"}};
	const size_t nf = sizeof fields / sizeof fields[0];
	if (n < nf) {
		size_t at = fields[n].at;
		if (at == 4 || at == 6)
			p[at] = (unsigned char)(p[at] + fields[n].delta);
		else
			set32(p + at, get32(p + at) + (uint32_t)fields[n].delta);
		q7_sb_add(desc, fields[n].what);
	} else if ((n -= nf) < 40) { /* cut at 40 places */
		len = blen * n / 40;
		seal = false;
		q7_sb_addf(desc, "cut to %zu bytes", len);
	} else if ((n -= 40) < 40) { /* a byte flipped, checksum left: caught by it */
		size_t at = (size_t)((n * 2654435761u) % blen);
		p[at] ^= (unsigned char)(1u << (n % 8));
		seal = false;
		q7_sb_addf(desc, "bit %zu of byte %zu flipped", n % 8, at);
	} else if ((n -= 40) < 60) { /* a byte of the body changed, checksum redone */
		size_t at = 20 + (size_t)((n * 40503u + 7) % (blen - 20));
		p[at] = (unsigned char)(p[at] + 1 + n % 254);
		q7_sb_addf(desc, "body byte %zu changed, resealed", at);
	} else if ((n -= 60) < 4) {
		switch (n) {
		case 0: /* ld -r: the same record twice */
			memcpy(p + blen, base, blen);
			len = 2 * blen;
			q7_sb_add(desc, "record twice");
			break;
		case 1: /* linker padding between two */
			memset(p + blen, 0, 3);
			memcpy(p + blen + 3, base, blen);
			len = 2 * blen + 3;
			q7_sb_add(desc, "record, padding, record");
			break;
		case 2: /* garbage after */
			memcpy(p + blen, "Q7OPjunk", 8);
			len = blen + 8;
			q7_sb_add(desc, "trailing junk");
			break;
		case 3:
			memset(p, 0, blen);
			q7_sb_add(desc, "all zero");
			break;
		}
		seal = false;
	} else {
		free(p);
		return false;
	}
	if (seal)
		reseal(p, len);
	*out = (char *)p;
	*olen = len;
	return true;
}

/* Mutant number i as a payload and a description; false past the end. */
static bool make_mutant(const struct q7_op_table *base, const char *raw, size_t rawlen, size_t i,
                        char **payload, size_t *len, struct q7_strbuf *desc)
{
	for (size_t j = 0; j < base->n; j++) {
		size_t nf = nfields(&base->ops[j]) * NTEXTS;
		if (i < nf) {
			struct q7_op_table t = {0};
			for (size_t k = 0; k < base->n; k++)
				q7_ops_add_copy(&t, &base->ops[k]);
			char **f = field(&t.ops[j], i / NTEXTS);
			char *was = *f;
			*f = transform(was, i % NTEXTS);
			free(was);
			char *fd = field_desc(i / NTEXTS);
			q7_sb_addf(desc, "op %zu %s: text %zu", j + 1, fd, i % NTEXTS);
			free(fd);
			*payload = q7_record_encode(&t, len);
			q7_ops_free(&t);
			return true;
		}
		i -= nf;
	}
	for (size_t j = 0; j < base->n; j++) {
		size_t n = number_changes(&base->ops[j]);
		if (i < n) {
			struct q7_op_table t = {0};
			for (size_t k = 0; k < base->n; k++)
				q7_ops_add_copy(&t, &base->ops[k]);
			number_change(&t.ops[j], i, desc);
			q7_sb_addf(desc, " (op %zu)", j + 1);
			*payload = q7_record_encode(&t, len);
			q7_ops_free(&t);
			return true;
		}
		i -= n;
	}
	return raw_change(raw, rawlen, i, payload, len, desc);
}

/* ---- running and judging the links ---- */

struct job {
	pid_t pid;
	size_t i;
	char *desc;
};

static int jobs(void)
{
	const char *e = getenv("RECMUTATE_JOBS");
	int n = e ? atoi(e) : 2;
	return n < 1 ? 1 : n > 8 ? 8 : n;
}

static char *path_of(const char *dir, size_t i, const char *what)
{
	return q7_xasprintf("%s/%s%04zu%s", dir, *what == '.' ? "m" : "libm", i, what);
}

static bool exists(const char *p)
{
	return access(p, F_OK) == 0;
}

/* Judges a finished link; prints why when wrong. */
static bool judge(const char *dir, size_t i, const char *desc, int code, size_t *linked)
{
	char *obj = path_of(dir, i, ".o"), *err_path = path_of(dir, i, ".err");
	char *outs[3] = {path_of(dir, i, ".so"), path_of(dir, i, ".stripped.so"),
	                 path_of(dir, i, ".packed.so")};
	size_t len = 0;
	char *err = q7_read_file(err_path, &len);
	const char *why = NULL;
	bool all = exists(outs[0]) && exists(outs[1]) && exists(outs[2]);
	bool any = exists(outs[0]) || exists(outs[1]) || exists(outs[2]);
	char *name = q7_xasprintf("m%04zu.o", i);
	if (!err)
		why = "no stderr";
	else if (strstr(err, "wrapper.cpp") || strstr(err, "wrapper.o"))
		why = "a message about the wrapper";
	else if (code == 0 && !all)
		why = "success without its outputs";
	else if (code != 0 && code != 1)
		why = "exit status other than 0 and 1";
	else if (code != 0 && !strstr(err, name))
		why = "a failure that does not name the object";
	else if (code != 0 && any)
		why = "a failure that left an output";
	for (size_t k = 0; err && !why && k < len; k++) {
		unsigned char c = (unsigned char)err[k], next = (unsigned char)err[k + 1];
		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f ||
		    (c == 0xc2 && next >= 0x80 && next <= 0x9f))
			why = "a control character in a message";
	}
	if (why)
		printf("WRONG m%04zu (%s): %s; status %d; stderr:\n%s\n", i, desc, why, code,
		       err ? err : "");
	else if (code == 0)
		(*linked)++;
	if (!why && getenv("RECMUTATE_VERBOSE"))
		printf("m%04zu (%s): %s%.*s\n", i, desc, code ? "refused: " : "linked",
		       code ? (int)strcspn(err, "\n") : 0, err);
	if (!why) { /* the wrong ones stay for a look */
		unlink(obj);
		unlink(err_path);
		for (int k = 0; k < 3; k++)
			unlink(outs[k]);
	}
	for (int k = 0; k < 3; k++)
		free(outs[k]);
	free(name);
	free(err);
	free(obj);
	free(err_path);
	return !why;
}

static int copy_file(const char *from, const char *to)
{
	size_t len;
	char *data = q7_read_file(from, &len);
	FILE *f = data ? fopen(to, "wb") : NULL;
	bool ok = f && fwrite(data, 1, len, f) == len;
	if (f && fclose(f) != 0)
		ok = false;
	free(data);
	return ok ? 0 : -1;
}

static pid_t start_link(char **argv_tail, int ntail, const char *q7cc, const char *dir, size_t i)
{
	char *obj = path_of(dir, i, ".o"), *out = path_of(dir, i, ".so");
	char *err_path = path_of(dir, i, ".err");
	struct q7_strvec argv = {0};
	q7_sv_add(&argv, q7cc);
	q7_sv_add(&argv, "-shared");
	q7_sv_add(&argv, obj);
	for (int k = 0; k < ntail; k++)
		q7_sv_add(&argv, argv_tail[k]);
	q7_sv_add(&argv, "-o");
	q7_sv_add(&argv, out);
	int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	struct q7_proc_opts o = {.in = Q7_PROC_NULL, .out = Q7_PROC_NULL, .err = fd, .quiet = true};
	pid_t pid = fd >= 0 ? q7_proc_spawn(argv.v, &o) : -1;
	if (fd >= 0)
		close(fd);
	q7_sv_free(&argv);
	free(obj);
	free(out);
	free(err_path);
	return pid;
}

int main(int argc, char **argv)
{
	q7_set_progname("recmutate");
	if (argc < 4) {
		fprintf(stderr, "usage: recmutate Q7CC WORKDIR BASE.o [OTHER...]\n");
		return 2;
	}
	const char *q7cc = argv[1], *dir = argv[2], *base_obj = argv[3];
	struct q7_op_table base = {0};
	if (q7_record_read(base_obj, &base, NULL) != 0 || base.n == 0) {
		fprintf(stderr, "recmutate: %s: no records to mutate\n", base_obj);
		return 1;
	}
	size_t rawlen;
	char *raw = q7_record_encode(&base, &rawlen);
	int njobs = jobs();
	struct job running[8];
	int nrun = 0;
	size_t total = 0, wrong = 0, linked = 0;
	for (size_t i = 0;; i++) {
		char *payload = NULL;
		size_t len = 0;
		struct q7_strbuf desc = {0};
		bool more = make_mutant(&base, raw, rawlen, i, &payload, &len, &desc);
		pid_t pid = -1;
		if (more) {
			char *obj = path_of(dir, i, ".o");
			if (copy_file(base_obj, obj) != 0 ||
			    q7_section_attach(obj, Q7_RECORD_SECTION, payload, len, NULL) != 0) {
				printf("WRONG m%04zu (%s): cannot make the object\n", i, desc.s);
				wrong++;
			} else {
				pid = start_link(argv + 4, argc - 4, q7cc, dir, i);
				if (pid < 0) {
					printf("WRONG m%04zu: cannot run %s: %s\n", i, q7cc, strerror(errno));
					wrong++;
				}
			}
			free(obj);
			free(payload);
			total++;
		}
		if (pid > 0)
			running[nrun++] = (struct job){pid, i, q7_sb_take(&desc)};
		q7_sb_free(&desc);
		while (nrun == njobs || (!more && nrun > 0)) {
			pid_t done;
			int code = q7_proc_wait_any(NULL, 0, -1, &done, NULL);
			for (int k = 0; k < nrun; k++) {
				if (running[k].pid != done)
					continue;
				wrong += !judge(dir, running[k].i, running[k].desc, code, &linked);
				free(running[k].desc);
				running[k] = running[--nrun];
				break;
			}
		}
		if (!more)
			break;
	}
	printf("recmutate: %zu mutants of %zu op(s): %zu linked, %zu refused naming the object, "
	       "%zu wrong\n",
	       total, base.n, linked, total - linked - wrong, wrong);
	free(raw);
	q7_ops_free(&base);
	return wrong ? 1 : 0;
}
