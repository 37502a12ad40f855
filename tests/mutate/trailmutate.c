/* tests/mutate/trailmutate: the trailer mutation harness.
 *
 *   trailmutate Q7CC WORKDIR BASE.ii SECRET FIFO
 *   trailmutate --op-file OUT.ii BASE.ii FILE
 *
 * Takes the trailer q7cc -E left at the end of BASE.ii and makes a fixed
 * table of crafted versions of it, as an attacker would: every string of
 * a finding and of an op through a table of hostile texts (escape
 * sequences, a forged "error:" line, SECRET, FIFO and /dev/zero as a
 * finding's file, with the "read by the analysis" flag set), line and
 * column extremes, results q7cc never writes, a toolchain word with an
 * escape, and bytes after the end line or the end line gone. Each is
 * compiled by `Q7CC -c mNNNN.ii -o mNNNN.o`. Then self-referencing
 * response files (@r holding "@r @r", two naming each other), each on the
 * compile of BASE.ii.
 *
 * Each compile must end within 20 s without a signal, with status 0 (and
 * its object) or 1 (and no object); a refusal of damage names mNNNN.ii
 * (a response file, its name); stderr never holds a control character,
 * nor SECRET's text. Two compiles at a time. Prints one line per wrong
 * outcome (per mutant with TRAILMUTATE_VERBOSE=1) and a summary; exit 0
 * when all are right. */
#include "modes.h"
#include "proc.h"
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SECRET_TEXT "q7-secret-line"

static const char *secret, *fifo;

/* What a string becomes; SECRET and FIFO are filled in at start. */
static const char *texts[] = {
	"\x1b[2J",         "\x1b]0;owned\x07", "\nq7cc: error: forged", "\r\x1b[1A", "\xc2\x9b" "31m",
	"\xff\xfe",        "",                 "/dev/zero",             NULL /* secret */,
	NULL /* fifo */,
};
#define NTEXTS (sizeof texts / sizeof texts[0])

/* The string fields: a finding's three, then the first op's. */
enum { D_FILE, D_RULE, D_MSG, O_NAME, O_QUALNAME, O_NS, O_RET_CTYPE, O_RET_NAME, O_FILE, NFIELDS };
static const char *const field_names[] = {"finding file", "finding rule", "finding message",
                                          "op name", "op qualname", "op ns", "op ret_ctype",
                                          "op ret_name", "op file"};

enum expect { ANY, REFUSED_II, REFUSED_RSP };

struct mutant {
	struct q7_strbuf desc;
	enum expect expect;
	bool rsp;          /* a response-file case: no .ii of its own */
	char *rsp_words;   /* its file's text */
	char *rsp_other;   /* a second response file's text ("" none) */
};

struct base {
	char *text;  /* the preprocessed text before the trailer */
	size_t text_len;
	struct q7_pp_trailer t;
};

static char **op_field(struct q7_op *op, int f)
{
	switch (f) {
	case O_NAME: return &op->name;
	case O_QUALNAME: return &op->qualname;
	case O_NS: return &op->ns;
	case O_RET_CTYPE: return &op->ret_ctype;
	case O_RET_NAME: return &op->ret_name;
	default: return &op->file;
	}
}

/* The trailer of mutant i into *out (text + trailer + tail); false past
 * the trailer mutants. */
static bool trailer_mutant(const struct base *b, size_t i, struct q7_strbuf *out, struct mutant *m)
{
	struct q7_op_table ops = {0};
	struct q7_diags ds = {0};
	for (size_t k = 0; k < b->t.ops.n; k++)
		q7_ops_add_copy(&ops, &b->t.ops.ops[k]);
	for (size_t k = 0; k < b->t.diags.n; k++) {
		const struct q7_diag *g = &b->t.diags.d[k];
		q7_diags_add(&ds, g->severity, g->file, g->line, g->col, g->rule, "%s", g->message);
	}
	/* A finding of its own, said to come from a file the analysis read. */
	q7_diags_add(&ds, Q7_SEV_WARNING, "k.cpp", 1, 1, "q7-return", "a finding");
	struct q7_diag *d = &ds.d[ds.n - 1];
	d->source_read = true;
	const char *toolchain = b->t.toolchain, *tail = "";
	int rc = b->t.rc;
	bool cut_end = false;
	bool ok = true;
	m->expect = ANY;
	if (i < NFIELDS * NTEXTS) {
		int f = (int)(i / NTEXTS);
		const char *text = texts[i % NTEXTS];
		char **s = f == D_FILE ? &d->file : f == D_RULE ? &d->rule : f == D_MSG ? &d->message
		                                                                        : op_field(&ops.ops[0], f);
		free(*s);
		*s = q7_xstrdup(text);
		if (f == D_FILE || f == D_RULE || f == D_MSG)
			d->line = 1;
		q7_sb_addf(&m->desc, "%s: text %zu", field_names[f], i % NTEXTS);
	} else if ((i -= NFIELDS * NTEXTS) < 9) {
		static const unsigned lines[] = {0, 2, 0xffffffffu};
		if (i < 3) {
			d->line = lines[i];
			d->file = (free(d->file), q7_xstrdup(secret));
			q7_sb_addf(&m->desc, "the secret at line %u", lines[i]);
		} else if (i < 5) {
			d->col = 0xffffffffu;
			d->severity = i == 3 ? Q7_SEV_NOTE : Q7_SEV_ERROR;
			q7_sb_addf(&m->desc, "severity %d, column extreme", (int)d->severity);
		} else {
			static const int rcs[] = {-1, -2, 1, 0x7fffffff};
			rc = rcs[i - 5];
			m->expect = REFUSED_II;
			q7_sb_addf(&m->desc, "result %d without an error", rc);
		}
	} else if ((i -= 9) < 6) {
		static const char *const tails[] = {"\n", " ", "\r\n", "x", NULL, "\x1b"};
		static const char *const toolchains[] = {"host", "host", "host", "host", "host", "ho\x1bst"};
		m->expect = REFUSED_II;
		if (i == 4) {
			cut_end = true;
			q7_sb_add(&m->desc, "end line gone");
		} else if (i == 5) {
			toolchain = toolchains[i];
			q7_sb_add(&m->desc, "an escape in the toolchain word");
		} else {
			tail = tails[i];
			q7_sb_addf(&m->desc, "tail %zu after the end line", i);
		}
	} else {
		ok = false;
	}
	if (ok) {
		q7_sb_addn(out, b->text, b->text_len);
		size_t start = out->len;
		q7_pp_trailer_text(toolchain, b->t.analysed, b->t.kernel_names.v, rc, &ops, &ds, out);
		if (cut_end)
			out->len = start + (out->len - start) - 23, out->s[out->len] = '\0';
		q7_sb_add(out, tail);
	}
	q7_ops_free(&ops);
	q7_diags_free(&ds);
	return ok;
}

/* Response-file mutant i (after the trailer mutants); false past them. */
static bool rsp_mutant(size_t i, size_t n, struct mutant *m)
{
	m->rsp = true;
	m->expect = REFUSED_RSP;
	char *self = q7_xasprintf("@r%04zu", n), *other = q7_xasprintf("@s%04zu", n);
	switch (i) {
	case 0: m->rsp_words = q7_xasprintf("%s %s", self, self); break;
	case 1: m->rsp_words = q7_xasprintf("%s %s %s %s", self, self, self, self); break;
	case 2: m->rsp_words = q7_xasprintf("-O2 %s -DX", self); break;
	case 3:
		m->rsp_words = q7_xstrdup(other);
		m->rsp_other = q7_xasprintf("%s %s", self, other);
		break;
	default: free(self); free(other); return false;
	}
	q7_sb_addf(&m->desc, "response file %zu", i);
	free(self);
	free(other);
	return true;
}

static int write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	bool ok = f && fwrite(data, 1, len, f) == len;
	if (f && fclose(f) != 0)
		ok = false;
	return ok ? 0 : -1;
}

static bool exists(const char *p)
{
	return access(p, F_OK) == 0;
}

/* Judges a finished compile; prints why when wrong. */
static bool judge(size_t n, const struct mutant *m, int code)
{
	char *obj = q7_xasprintf("m%04zu.o", n), *errp = q7_xasprintf("m%04zu.err", n);
	char *ii = q7_xasprintf("m%04zu.ii", n), *rsp = q7_xasprintf("r%04zu", n);
	size_t len = 0;
	char *err = q7_read_file(errp, &len);
	const char *why = NULL;
	if (!err)
		why = "no stderr";
	else if (code == Q7_PROC_TIMEOUT)
		why = "no end within 20 s";
	else if (code != 0 && code != 1)
		why = "a status other than 0 and 1";
	else if (code == 0 && !exists(obj))
		why = "success without the object";
	else if (code != 0 && exists(obj))
		why = "a failure that left the object";
	else if (m->expect != ANY && code == 0)
		why = "damage accepted";
	else if (m->expect == REFUSED_II && !strstr(err, ii))
		why = "a refusal that does not name the text";
	else if (m->expect == REFUSED_RSP && !strstr(err, "too many @-files"))
		why = "a self-referencing response file without GCC's message";
	else if (strstr(err, SECRET_TEXT))
		why = "the secret file's text on stderr";
	for (size_t k = 0; err && !why && k < len; k++) {
		unsigned char c = (unsigned char)err[k], next = (unsigned char)err[k + 1];
		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f ||
		    (c == 0xc2 && next >= 0x80 && next <= 0x9f))
			why = "a control character on stderr";
	}
	if (why)
		printf("WRONG m%04zu (%s): %s; status %d; stderr:\n%s\n", n, m->desc.s, why, code,
		       err ? err : "");
	else if (getenv("TRAILMUTATE_VERBOSE"))
		printf("m%04zu (%s): status %d %.*s\n", n, m->desc.s, code, (int)strcspn(err, "\n"), err);
	if (!why) {
		unlink(obj);
		unlink(errp);
		unlink(ii);
		unlink(rsp);
	}
	free(obj);
	free(errp);
	free(ii);
	free(rsp);
	free(err);
	return !why;
}

static pid_t start(const char *q7cc, const char *base_ii, size_t n, const struct mutant *m)
{
	char *obj = q7_xasprintf("m%04zu.o", n), *errp = q7_xasprintf("m%04zu.err", n);
	char *ii = q7_xasprintf("m%04zu.ii", n), *at = q7_xasprintf("@r%04zu", n);
	char *argv[] = {(char *)q7cc, "-c", m->rsp ? (char *)base_ii : ii, "-o", obj, at, NULL};
	if (!m->rsp)
		argv[5] = NULL;
	int fd = open(errp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	struct q7_proc_opts o = {.err = fd, .out = Q7_PROC_NULL, .in = Q7_PROC_NULL, .quiet = true};
	pid_t pid = fd < 0 ? -1 : q7_proc_spawn(argv, &o);
	if (fd >= 0)
		close(fd);
	free(obj);
	free(errp);
	free(ii);
	free(at);
	return pid;
}

/* trailmutate --op-file OUT.ii BASE.ii FILE: BASE.ii with every op of its
 * trailer placed in FILE (line 1), for a link whose message places a
 * kernel there (before: the link printed that file's lines). */
static int op_file(const char *out, const char *base_ii, const char *file)
{
	struct q7_pp_trailer t;
	size_t len;
	char *text = q7_read_file(base_ii, &len);
	if (!text || len < 23 || q7_pp_trailer_read(base_ii, base_ii, &t) != 1)
		return 2;
	for (size_t i = 0; i < t.ops.n; i++) {
		free(t.ops.ops[i].file);
		t.ops.ops[i].file = q7_xstrdup(file);
		t.ops.ops[i].line = 1;
		t.ops.ops[i].col = 1;
	}
	struct q7_strbuf b = {0};
	q7_sb_addn(&b, text, len - strtoul(text + len - 23 + 9, NULL, 10));
	q7_pp_trailer_text(t.toolchain, t.analysed, t.kernel_names.v, t.rc, &t.ops, &t.diags, &b);
	int rc = write_file(out, b.s, b.len) == 0 ? 0 : 2;
	q7_sb_free(&b);
	q7_pp_trailer_free(&t);
	free(text);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "--op-file") == 0)
		return op_file(argv[2], argv[3], argv[4]);
	if (argc != 6) {
		fprintf(stderr, "usage: trailmutate Q7CC WORKDIR BASE.ii SECRET FIFO\n");
		return 2;
	}
	const char *q7cc = argv[1];
	secret = argv[4];
	fifo = argv[5];
	texts[NTEXTS - 2] = secret;
	texts[NTEXTS - 1] = fifo;
	char *base_ii = realpath(argv[3], NULL);
	struct base b = {0};
	size_t len;
	b.text = base_ii ? q7_read_file(base_ii, &len) : NULL;
	if (!b.text || len < 23 || q7_pp_trailer_read(base_ii, base_ii, &b.t) != 1) {
		fprintf(stderr, "trailmutate: %s: no trailer to start from\n", argv[3]);
		return 2;
	}
	b.text_len = len - strtoul(b.text + len - 23 + 9, NULL, 10);
	if (chdir(argv[2]) != 0) {
		perror(argv[2]);
		return 2;
	}
	q7_proc_signals_install();
	size_t total = 0, wrong = 0, refused = 0;
	struct {
		pid_t pid;
		size_t n;
		struct mutant m;
	} run[2];
	int nrun = 0;
	bool more = true;
	for (size_t n = 0; more || nrun;) {
		if (more) {
			struct mutant m = {0};
			struct q7_strbuf text = {0};
			size_t nt = NFIELDS * NTEXTS + 9 + 6;
			if (n < nt)
				more = trailer_mutant(&b, n, &text, &m);
			else
				more = rsp_mutant(n - nt, n, &m);
			if (more) {
				char *ii = q7_xasprintf("m%04zu.ii", n), *r = q7_xasprintf("r%04zu", n),
				     *s = q7_xasprintf("s%04zu", n);
				bool ok = m.rsp ? write_file(r, m.rsp_words, strlen(m.rsp_words)) == 0 &&
				                          (!m.rsp_other ||
				                           write_file(s, m.rsp_other, strlen(m.rsp_other)) == 0)
				                : write_file(ii, text.s, text.len) == 0;
				pid_t pid = ok ? start(q7cc, base_ii, n, &m) : -1;
				if (pid < 0) {
					printf("WRONG m%04zu: cannot start: %s\n", n, strerror(errno));
					wrong++;
				} else {
					run[nrun].pid = pid;
					run[nrun].n = n;
					run[nrun++].m = m;
					m = (struct mutant){0};
				}
				free(ii);
				free(r);
				free(s);
				total++;
				n++;
			}
			q7_sb_free(&text);
			q7_sb_free(&m.desc);
			free(m.rsp_words);
			free(m.rsp_other);
		}
		while (nrun == 2 || (!more && nrun > 0)) {
			pid_t done = -1;
			int code = q7_proc_wait_any(NULL, 0, 20.0, &done, NULL);
			if (code == Q7_PROC_TIMEOUT) {
				for (int k = 0; k < nrun; k++) {
					q7_proc_kill(run[k].pid, SIGKILL);
					q7_proc_wait(run[k].pid, NULL);
					wrong += !judge(run[k].n, &run[k].m, Q7_PROC_TIMEOUT);
					q7_sb_free(&run[k].m.desc);
				}
				nrun = 0;
				break;
			}
			for (int k = 0; k < nrun; k++) {
				if (run[k].pid != done)
					continue;
				bool right = judge(run[k].n, &run[k].m, code);
				wrong += !right;
				refused += right && code != 0;
				q7_sb_free(&run[k].m.desc);
				run[k] = run[--nrun];
				break;
			}
		}
	}
	printf("trailmutate: %zu mutants: %zu compiled, %zu refused, %zu wrong\n", total,
	       total - refused - wrong, refused, wrong);
	q7_pp_trailer_free(&b.t);
	free(b.text);
	free(base_ii);
	return wrong ? 1 : 0;
}
