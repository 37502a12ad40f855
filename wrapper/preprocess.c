/* -E: preprocessed output that keeps its kernels in a trailing comment,
 * the trailer (docs/driver.md, "Preprocessed input"), which q7cc -c of
 * the text reads (wrapper/input.c). Its last line has a fixed size, so a
 * reader finds the trailer from the file's end without reading the text. */
#include "modes.h"
#include "proc.h"
#include "tempfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEAD "/* q7cc-preprocessed "
#define FORMAT 1
#define TAIL_LEN 23 /* the last line: "q7cc-end", a space, 10 digits, " *" "/" newline */
#define MAX_TRAILER (64u << 20)

void q7_pp_trailer_free(struct q7_pp_trailer *t)
{
	free(t->toolchain);
	q7_sv_free(&t->kernel_names);
	q7_ops_free(&t->ops);
	q7_diags_free(&t->diags);
	memset(t, 0, sizeof *t);
}

void q7_pp_trailer_text(const char *toolchain, bool analysed, char *const *kernel_names, int rc,
                        const struct q7_op_table *ops, const struct q7_diags *diags,
                        struct q7_strbuf *out)
{
	struct q7_strbuf data = {0};
	q7_analysis_result_put(&data, kernel_names, rc, ops, diags);
	size_t start = out->len;
	q7_sb_addf(out, HEAD "%d %s %s\n", FORMAT, toolchain, analysed ? "analysed" : "skipped");
	for (size_t i = 0; i < data.len; i++)
		q7_sb_addf(out, "%02x%s", (unsigned char)data.s[i],
		           i % 64 == 63 || i + 1 == data.len ? "\n" : "");
	q7_sb_addf(out, "q7cc-end %010zu */\n", out->len - start + TAIL_LEN);
	q7_sb_free(&data);
}

/* ---- reading -------------------------------------------------------------- */

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Whether a well-formed trailer says only what q7cc -E writes: a failed
 * analysis (q7_analyze's -1, the only failure -E writes) with the errors
 * that say why. (Its ops were read as a record is: parse.) Else why is
 * appended to. */
static bool trailer_ok(const struct q7_pp_trailer *t, struct q7_strbuf *why)
{
	size_t errors = 0;
	for (size_t i = 0; i < t->diags.n; i++)
		errors += t->diags.d[i].severity == Q7_SEV_ERROR;
	if (t->rc != 0 && t->rc != Q7_ANALYZE_PARSE_ERROR)
		q7_sb_addf(why, "analysis result %d is none q7cc writes", t->rc);
	else if (t->rc != 0 && errors == 0)
		q7_sb_add(why, "a failed analysis without an error that says why");
	return why->len == 0;
}

/* Parses the trailer text t (n bytes, from "/ *" to the end); its ops are
 * read as docs/driver.md, "Preprocessed input", says. 0, or -1 (with why
 * appended to when the record is damaged, or is not what q7cc -E writes). */
static int parse(const char *t, size_t n, struct q7_pp_trailer *out, struct q7_strbuf *why)
{
	const char *end = t + n - TAIL_LEN;
	const char *p = t + strlen(HEAD);
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	if (!nl)
		return -1;
	char *head = q7_xstrndup(p, (size_t)(nl - p));
	char toolchain[16], state[16];
	int format;
	int got = sscanf(head, "%d %15s %15s", &format, toolchain, state);
	free(head);
	if (got != 3 || format != FORMAT)
		return -1;
	struct q7_strbuf data = {0};
	int rc = 0;
	for (p = nl + 1; p < end && rc == 0; p++) {
		if (*p == '\n')
			continue;
		int hi = hexval(p[0]), lo = p + 1 < end ? hexval(p[1]) : -1;
		if (hi < 0 || lo < 0)
			rc = -1;
		else
			q7_sb_addc(&data, (char)(hi << 4 | lo));
		p++;
	}
	if (rc == 0)
		rc = q7_analysis_result_read(data.s ? data.s : "", data.len, &out->kernel_names,
		                             &out->rc, &out->ops, &out->diags, why);
	q7_sb_free(&data);
	if (rc == 0 && !trailer_ok(out, why))
		rc = -1;
	/* The compile of this text reads no source but it: no line of a
	 * file a finding names is shown. */
	for (size_t i = 0; rc == 0 && i < out->diags.n; i++)
		out->diags.d[i].source_read = false;
	if (rc == 0) {
		out->toolchain = q7_xstrdup(toolchain);
		out->analysed = strcmp(state, "analysed") == 0;
	}
	return rc;
}

/* Whether the file has a line that starts a trailer anywhere: then the
 * text is q7cc -E's, and a tail that does not end it (a byte added after
 * the end line, the end line gone) is damage, never text of another
 * preprocessor that lost its kernels. Read in pieces: the text may be
 * large, and it is read at all only when its end is not a trailer's. */
static bool has_head(int fd, off_t size)
{
	enum { CHUNK = 1 << 20 };
	const size_t hl = strlen(HEAD);
	char *buf = q7_xmalloc(CHUNK + hl + 1);
	bool found = false;
	size_t kept = 1; /* a line starts the file */
	buf[0] = '\n';
	for (off_t at = 0; at < size && !found;) {
		ssize_t got = pread(fd, buf + kept, CHUNK, at);
		if (got <= 0)
			break;
		at += got;
		size_t n = kept + (size_t)got;
		for (const char *p = buf; !found && (p = memchr(p, '\n', n - (size_t)(p - buf)));
		     p++)
			found = (size_t)(p + 1 - buf) + hl <= n && memcmp(p + 1, HEAD, hl) == 0;
		/* A head across two pieces: keep the last bytes. */
		kept = n < hl + 1 ? n : hl + 1;
		memmove(buf, buf + n - kept, kept);
	}
	free(buf);
	return found;
}

int q7_pp_trailer_read(const char *path, const char *name, struct q7_pp_trailer *t)
{
	memset(t, 0, sizeof *t);
	const char *no;
	int fd = q7_open_regular(path, &no);
	if (fd < 0)
		return 0; /* the compiler says why it cannot read it */
	int rc = 0;
	char tail[TAIL_LEN + 1];
	char *text = NULL;
	struct q7_strbuf why = {0};
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		goto out;
	char *digits_end;
	if (st.st_size < TAIL_LEN || pread(fd, tail, TAIL_LEN, st.st_size - TAIL_LEN) != TAIL_LEN ||
	    (tail[TAIL_LEN] = '\0', strncmp(tail, "q7cc-end ", 9) != 0) ||
	    strcmp(tail + 19, " */\n") != 0) {
		if (has_head(fd, st.st_size)) {
			q7_sb_add(&why, "text follows them, or their end line is missing");
			rc = -1;
		}
		goto out;
	}
	errno = 0;
	unsigned long long size = strtoull(tail + 9, &digits_end, 10);
	/* From here on the file says it is q7cc's: whatever is wrong is damage. */
	rc = -1;
	if (errno || digits_end != tail + 19 || size > (unsigned long long)st.st_size ||
	    size > MAX_TRAILER || size < strlen(HEAD) + TAIL_LEN)
		goto out;
	text = q7_xmalloc((size_t)size);
	if (pread(fd, text, (size_t)size, st.st_size - (off_t)size) != (ssize_t)size ||
	    memcmp(text, HEAD, strlen(HEAD)) != 0 || parse(text, (size_t)size, t, &why) != 0) {
		q7_pp_trailer_free(t);
		goto out;
	}
	rc = 1;
out:
	if (rc < 0 && why.len)
		q7_error("%s: the records q7cc -E left in it are damaged: %s: preprocess the source "
		         "again",
		         name, why.s);
	else if (rc < 0)
		q7_error("%s: the records q7cc -E left at its end are damaged (or from another "
		         "version of q7cc): preprocess the source again",
		         name);
	q7_sb_free(&why);
	free(text);
	close(fd);
	return rc;
}

/* ---- q7cc -E -------------------------------------------------------------- */

/* The one C++ source of an -E that writes preprocessed text (not -M,
 * -MM, -dM), or NULL: then q7cc only forwards. */
static const struct q7_unit *trailer_source(const struct q7_inv *inv)
{
	const struct q7_unit *src = NULL;
	bool text = false;
	for (size_t i = 0; i < inv->n; i++) {
		const struct q7_unit *u = &inv->u[i];
		const char *w = u->tok[0];
		if (u->input && u->input != Q7_IN_LINK) {
			if (src)
				return NULL;
			src = u;
		} else if (!u->input && (strcmp(w, "-E") == 0 || strcmp(w, "--preprocess") == 0)) {
			text = true;
		} else if (!u->input &&
		           (strcmp(w, "-M") == 0 || strcmp(w, "-MM") == 0 ||
		            (strncmp(w, "-d", 2) == 0 && strchr(w + 2, 'M')))) {
			return NULL;
		}
	}
	return text && src && (src->input == Q7_IN_CXX || src->input == Q7_IN_CXX_PP) ? src : NULL;
}

/* Appends text to the output: the file -o names, else stdout. */
static int append(const char *out, const struct q7_strbuf *text)
{
	FILE *f = out ? fopen(out, "ab") : stdout;
	bool ok = f && fwrite(text->s, 1, text->len, f) == text->len;
	if (f)
		ok &= out ? fclose(f) == 0 : fflush(f) == 0;
	if (!ok)
		q7_error("%s: cannot append q7cc's records: %s", out ? out : "standard output",
		         strerror(errno));
	return ok ? 0 : -1;
}

/* Whether the preprocessed text written to out (NULL: stdout, read again
 * through /proc when it is a file) is known to end in a newline; else the
 * trailer starts with one, which costs an empty line at worst. */
static bool ends_in_newline(const char *out)
{
	int fd = open(out ? out : "/proc/self/fd/1", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct stat st;
	char c = 0;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0 ||
	    pread(fd, &c, 1, st.st_size - 1) != 1)
		c = 0;
	close(fd);
	return c == '\n';
}

/* Appends the trailer of in's analysis (arc, analysed, ops, diags) to out
 * (NULL: stdout). 0, or an exit code. */
static int write_trailer(struct q7_drv *d, const struct q7_input *in, const char *out, int arc,
                         bool analysed, const struct q7_op_table *ops,
                         const struct q7_diags *diags)
{
	struct q7_strbuf text = {0};
	char *const *names = in->from_q7cc ? in->pp.kernel_names.v : d->inv.kernels.v;
	if (!ends_in_newline(out))
		q7_sb_addc(&text, '\n');
	q7_pp_trailer_text(d->tc.name, analysed, names, arc, ops, diags, &text);
	q7_step_note(d, "append %zu record%s and %zu finding%s of %s", ops->n,
	             ops->n == 1 ? "" : "s", diags->n, diags->n == 1 ? "" : "s", in->name);
	int rc = append(out, &text) ? Q7_EXIT_IO : 0;
	q7_sb_free(&text);
	return rc;
}

/* Whether path is /dev/null (after links): text for nobody. */
static bool is_dev_null(const char *path)
{
	struct stat st, null;
	return stat(path, &st) == 0 && stat("/dev/null", &null) == 0 && S_ISCHR(st.st_mode) &&
	       st.st_rdev == null.st_rdev;
}

/* cmd's -o FILE (or -oFILE) made -o to. */
static void redirect_output(struct q7_strvec *cmd, const char *from, const char *to)
{
	for (size_t i = 0; i < cmd->n; i++) {
		if (strcmp(cmd->v[i], "-o") == 0 && i + 1 < cmd->n && strcmp(cmd->v[i + 1], from) == 0) {
			free(cmd->v[i + 1]);
			cmd->v[i + 1] = q7_xstrdup(to);
		} else if (strncmp(cmd->v[i], "-o", 2) == 0 && strcmp(cmd->v[i] + 2, from) == 0) {
			free(cmd->v[i]);
			cmd->v[i] = q7_xasprintf("-o%s", to);
		}
	}
}

/* The text and its trailer, written at last into the stream the user
 * named (a FIFO, a device, a link to a pipe): the compiler closes what it
 * writes, and a reader would see its end before the trailer. */
static int copy_to_stream(const char *text, const char *out)
{
	size_t len;
	char *bytes = q7_read_file(text, &len);
	const char *what = "cannot read the preprocessed text";
	int rc = bytes ? q7_outfile_write(out, bytes, len, 0666, &what) : -1;
	if (rc != 0)
		q7_error("%s: %s: %s", out, what, strerror(errno));
	free(bytes);
	return rc ? Q7_EXIT_IO : 0;
}

/* Runs the preprocessor (cmd) writing out (NULL: stdout) while q7cc
 * analyses in, then appends the trailer. Returns an exit code. */
static int run_with_trailer(struct q7_drv *d, struct q7_input *in, char *const *cmd,
                            const char *out)
{
	/* Text another preprocessor made stays as it is: q7cc -c warns. */
	bool records = in->kind == Q7_IN_CXX || in->from_q7cc;
	struct q7_op_table ops = {0};
	struct q7_diags diags = {0};
	bool analysed = false;
	int arc = 0, rc;
	/* As a compile's: it dies with q7cc, never writing -o after a SIGKILL. */
	struct q7_proc_opts po = {.name = q7_path_basename(d->tc.cxx), .dies_with_us = true,
	                          .tmpdir = d->dry ? NULL : q7_temp_tool_dir()}; /* as a compile's */
	pid_t pid = q7_step_start(d, cmd, &po);
	if (pid < 0) {
		rc = Q7_EXIT_TOOL;
	} else {
		if (out && !d->dry)
			q7_output_track(out);
		/* Overlaps with the preprocessor's run, as -c's with the compile. */
		if (records)
			arc = q7_input_analyse(d, in, NULL, &ops, &diags, &analysed);
		rc = q7_step_wait(pid);
	}
	if (d->dry) {
		if (records)
			q7_step_note(d, "append the records and lint of %s to %s", in->name,
			             out ? out : "the output");
	} else if (rc == 0 && records) {
		/* Q7_ANALYZE_UNAVAILABLE was printed: a compile of this text could
		 * not have its records either. */
		rc = arc == Q7_ANALYZE_UNAVAILABLE
		             ? Q7_EXIT_ERROR
		             : write_trailer(d, in, out, arc, analysed, &ops, &diags);
	}
	q7_ops_free(&ops);
	q7_diags_free(&diags);
	return rc;
}

int q7_mode_preprocess(struct q7_drv *d)
{
	const struct q7_inv *inv = &d->inv;
	const struct q7_unit *src = trailer_source(inv);
	const char *out = inv->output && strcmp(inv->output, "-") != 0 ? inv->output : NULL;
	struct q7_input in = {0};
	int rc = src ? q7_input_open(d, src->tok[0], src->input, &in) : 0;
	if (rc)
		return rc;
	/* A source that does not use q7cc is the preprocessor's text alone,
	 * with no trailer (docs/driver.md, "Pass-through"). */
	enum q7_use use = src ? q7_input_use(d, &in, false) : q7_drv_line_use(d);
	if (use != Q7_USE_Q7)
		src = NULL;
	struct q7_strvec cmd = {0};
	q7_cmd_forward(&d->tc, inv, use, &cmd);
	/* Preprocessed text for nobody (-o /dev/null) needs no records; text
	 * for a stream is made in a temporary and copied there with them. */
	const char *stream = NULL;
	char *staged = NULL;
	if (src && out && q7_path_exists(out) && !q7_output_is_file(out) && !is_dev_null(out) &&
	    !d->dry) {
		stream = out;
		staged = q7_drv_temp_path(d, "stream.ii");
		redirect_output(&cmd, out, staged);
		out = staged;
	}
	if (!src || (out && q7_path_exists(out) && !q7_output_is_file(out))) {
		rc = q7_step_run(d, cmd.v, NULL);
	} else {
		rc = run_with_trailer(d, &in, cmd.v, out);
		if (stream && rc == 0)
			rc = copy_to_stream(staged, stream);
		if (out && !d->dry && !stream) {
			if (rc)
				q7_output_remove(out);
			q7_temp_forget(out);
		}
	}
	free(staged);
	q7_input_close(&in);
	q7_sv_free(&cmd);
	return rc;
}
