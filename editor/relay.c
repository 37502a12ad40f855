/* q7cc-clangd's relay: see relay.h.
 *
 * Memory: the relay owns its documents, pending requests and the JSON
 * objects they hold (json-c references: json_object_put releases); the
 * messages read are freed once passed on. */
#include "relay.h"
#include "answers.h"
#include "ccdb.h"
#include "lintcmd.h"
#include "js.h"
#include "lint.h"
#include "proc.h"
#include "rpc.h"
#include "schema.h"
#include "srckind.h"
#include "tempfile.h"
#include "text.h"
#include "bytes.h"
#include "fdio.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_RESTARTS 5     /* clangd restarts within RESTART_WINDOW_MS */
#define RESTART_WINDOW_MS 60000
#define GOODBYE_MS 2000    /* what clangd gets to end after its stdin closed */
#define INIT_ID "q7cc-clangd:initialize" /* the id of a replayed initialize */
#define REFRESH_ID "q7cc-clangd:refresh"   /* of our workspace/codeLens/refresh */
/* How long a hover or code lens answer may wait for the schemas of a text
 * whose analysis is under way (it takes tens of milliseconds). */
#define HOLD_MS 1500
/* A request of the editor that clangd has not answered yet. */
struct pending {
	json_object *id, *params; /* the request's */
	char *method;
	json_object *held; /* clangd's hover answer, awaiting the schemas */
	long long until;   /* held (hover, code lens): when it goes as it is;
	                    * 0: not held */
};

struct relay {
	const struct q7_relay_opts *o;
	struct q7_rpc_in from_editor, from_clangd;
	struct q7_rpc_out to_editor, to_clangd;
	pid_t clangd;
	char *init;       /* the editor's initialize request, as sent */
	bool init_answered, initialized, shutdown, exiting;
	bool replaying;   /* a replayed initialize awaits its answer */
	bool lens_refresh; /* the editor takes workspace/codeLens/refresh */
	long long restarts[MAX_RESTARTS]; /* the last ones' times, a ring */
	size_t nrestarts;                 /* all of them */
	struct q7_doc *docs;
	size_t ndocs, docs_cap;
	struct pending *pend;
	size_t npend, pend_cap;
	struct q7_lint_job job;
	char *srcdir; /* where the editor's text goes for the analysis */
	char *q7cc;   /* the installed q7cc, which runs it */
};

/* ---- messages ---- */

static void send_json(struct q7_rpc_out *out, json_object *msg)
{
	size_t len;
	const char *s = json_object_to_json_string_length(
	    msg, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
	q7_rpc_send(out, s, len);
}

/* A JSON-RPC message to out: its id (when non-NULL), its method (when
 * non-NULL) and key: val (when key is non-NULL; val is taken). */
static void send_msg(struct q7_rpc_out *out, json_object *id, const char *method,
                     const char *key, json_object *val)
{
	json_object *m = q7_js_object("jsonrpc", json_object_new_string("2.0"),
	                              "id", json_object_get(id),
	                              "method", method ? json_object_new_string(method) : NULL,
	                              key, val, NULL);
	send_json(out, m);
	json_object_put(m);
}

/* An error answer to the editor's request id. */
static void answer_error(struct relay *r, json_object *id, int code, const char *why)
{
	send_msg(&r->to_editor, id, NULL, "error",
	         q7_js_object("code", json_object_new_int(code), "message",
	                      json_object_new_string(why), NULL));
}

/* ---- documents ---- */

/* "file:///a%20b" -> "/a b"; NULL for another scheme. */
static char *uri_path(const char *uri)
{
	if (strncmp(uri, "file://", 7) != 0)
		return NULL;
	const char *p = uri + 7;
	struct q7_strbuf b = {0};
	for (; *p; p++) {
		unsigned v;
		if (*p == '%' && isxdigit((unsigned char)p[1]) && isxdigit((unsigned char)p[2]) &&
		    sscanf(p + 1, "%2x", &v) == 1) {
			q7_sb_addc(&b, (char)v);
			p += 2;
		} else {
			q7_sb_addc(&b, *p);
		}
	}
	return q7_sb_take(&b);
}

/* The document uri names. Clients and clangd spell one file's URI in
 * different ways (clangd's own encoding of "+" as %2B, a client's of
 * non-ASCII bytes, a linked folder): the same decoded path, or the same
 * file once links are resolved, is the same document. */
static struct q7_doc *find_doc(struct relay *r, const char *uri)
{
	for (size_t i = 0; uri && i < r->ndocs; i++)
		if (strcmp(r->docs[i].uri, uri) == 0)
			return &r->docs[i];
	char *path = uri ? uri_path(uri) : NULL, *real = NULL;
	struct q7_doc *found = NULL;
	for (size_t i = 0; path && i < r->ndocs && !found; i++)
		if (r->docs[i].path && strcmp(r->docs[i].path, path) == 0)
			found = &r->docs[i];
	if (!found && path && (real = realpath(path, NULL)))
		for (size_t i = 0; i < r->ndocs && !found; i++)
			if (r->docs[i].real && strcmp(r->docs[i].real, real) == 0)
				found = &r->docs[i];
	free(real);
	free(path);
	return found;
}

static void doc_free(struct q7_doc *d)
{
	free(d->uri);
	free(d->path);
	free(d->real);
	free(d->lang);
	free(d->text);
	json_object_put(d->q7);
	json_object_put(d->clangd);
	json_object_put(d->kernels);
	free(d->library);
	free(d->target);
}

/* The languageIds clients send for the C family (VS Code "cpp", Emacs's
 * eglot "c++", "c" for headers, ...). */
static bool c_family_id(const char *lang)
{
	static const char *const ids[] = {"cpp", "c++", "c", "cuda", "cuda-cpp", "objective-cpp",
	                                  "objcpp", "objective-c++"};
	for (size_t i = 0; lang && i < sizeof ids / sizeof *ids; i++)
		if (strcmp(lang, ids[i]) == 0)
			return true;
	return false;
}

/* C++, which the lint reads, by the file's extension (model/srckind's
 * table, the driver's); a header (.h) or a name of no known kind by a
 * C-family languageId; a C file never, whatever the client calls it. */
static bool is_cxx(const struct q7_doc *d)
{
	if (!d->path)
		return false;
	const char *ext = strrchr(q7_path_basename(d->path), '.');
	switch (q7_input_kind_of(d->path)) {
	case Q7_IN_CXX:
		return true;
	case Q7_IN_LINK: /* no extension the table knows */
		return c_family_id(d->lang) && (!d->lang || strcmp(d->lang, "c") != 0);
	default:
		return ext && strcmp(ext, ".h") == 0 && c_family_id(d->lang);
	}
}

/* Sends clangd's diagnostics of d with q7cc's after them. */
static void publish(struct relay *r, struct q7_doc *d)
{
	json_object *all = json_object_new_array();
	json_object *lists[] = {q7_js_array(d->clangd, "diagnostics"), d->q7};
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; lists[k] && i < json_object_array_length(lists[k]); i++) {
			json_object *one = json_object_array_get_idx(lists[k], i);
			/* Only clangd's objects; one mistake, one finding: clangd's
			 * error on the line. */
			if (k == 0 ? json_object_is_type(one, json_type_object)
			           : !q7_lint_shadowed(one, lists[0]))
				json_object_array_add(all, json_object_get(one));
		}
	json_object *params = q7_js_object("uri", json_object_new_string(d->uri),
	                                   "version", json_object_get(q7_js_get(d->clangd, "version")),
	                                   "diagnostics", all, NULL);
	send_msg(&r->to_editor, NULL, "textDocument/publishDiagnostics", "params", params);
}

/* ---- the analysis ---- */

static void cancel_job(struct relay *r, const char *uri)
{
	if (r->job.uri && (!uri || strcmp(r->job.uri, uri) == 0))
		q7_lint_cancel(&r->job);
}

/* Writes d's text where the analysis reads it; its path (registered as
 * a temporary until the job ends: lint.h), or NULL. */
static char *write_text(struct relay *r, const struct q7_doc *d)
{
	if (!r->srcdir) {
		r->srcdir = q7_path_join(q7_temp_dir(), "src");
		if (mkdir(r->srcdir, 0700) != 0 && errno != EEXIST)
			return NULL;
		q7_temp_register(r->srcdir);
	}
	char *path = q7_path_join(r->srcdir, q7_path_basename(d->path));
	const char *what;
	if (q7_outfile_write(path, d->text, d->len, 0600, &what) != 0) {
		free(path);
		return NULL;
	}
	q7_temp_register(path);
	return path;
}

/* The q7cc that q7cc-clangd is installed with: the only program the
 * analysis runs (docs/editors.md, "Which files are analysed"). */
static const char *own_q7cc(struct relay *r)
{
	if (!r->q7cc) {
		r->q7cc = q7_prefix_path("bin/q7cc");
		if (!q7_path_is_executable(r->q7cc))
			q7_warning("%s: cannot run q7cc: not found beside q7cc-clangd; files get "
			           "clangd's diagnostics only", r->q7cc);
	}
	return q7_path_is_executable(r->q7cc) ? r->q7cc : NULL;
}

/* The library d's kernels go to, by its compile's CMake target: the
 * lib<target>.so the link names the namespace by (schema.h). */
static void set_library(struct q7_doc *d, const struct q7_ccmd *cmd)
{
	char *target = q7_ccmd_target(cmd);
	char *lib = target ? q7_xasprintf("lib%s.so", target) : NULL;
	free(d->library);
	d->library = lib ? q7_library_namespace(lib) : NULL;
	free(lib);
	free(d->target);
	d->target = target;
}

/* Adds the other sources of d's CMake target to the command argv (the
 * last q7_ccdb_find's database); false when it has none. */
static bool add_target_files(const struct q7_doc *d, struct q7_strvec *argv)
{
	struct q7_strvec files = {0};
	if (d->target)
		q7_ccdb_target_files(d->target, &files);
	size_t added = 0;
	for (size_t i = 0; i < files.n; i++)
		if (strcmp(files.v[i], d->path) != 0 && (!d->real || strcmp(files.v[i], d->real) != 0)) {
			q7_sv_add(argv, files.v[i]);
			added++;
		}
	q7_sv_free(&files);
	return added > 0;
}

/* Starts the analysis of d's text (one run gives its findings and its
 * kernels), or with whole, the link's checks of its NEURON_LIBRARY
 * requests against the other sources of its target (docs/editors.md,
 * "What is checked live"); false when d has none to have (no q7cc
 * compile command, no other sources) or it cannot start. */
static bool start_job(struct relay *r, struct q7_doc *d, bool whole)
{
	struct q7_ccmd cmd;
	/* The database names the file by its resolved path (ccdb.c). */
	if (!q7_ccdb_find(d->real ? d->real : d->path, r->o->ccdir, &cmd))
		return false;
	bool started = false;
	struct q7_strvec argv = {0};
	const char *q7cc = q7_ccmd_is_q7cc(&cmd) ? own_q7cc(r) : NULL;
	if (q7cc && (r->job.text = write_text(r, d))) {
		set_library(d, &cmd);
		char *dir = q7_path_dirname(d->path);
		q7_lintcmd_argv(&cmd, q7cc, whole ? "--q7-print-schema" : "--q7-lint", dir,
		                r->job.text, &argv);
		free(dir);
		r->job.target = whole;
		started = (!whole || add_target_files(d, &argv)) &&
		          q7_lint_start(&r->job, argv.v, cmd.dir);
	}
	if (started) {
		r->job.uri = q7_xstrdup(d->uri);
		r->job.version = d->version;
		r->job.started = q7_now_ms();
	} else {
		q7_lint_clear(&r->job); /* its text file removed */
	}
	q7_sv_free(&argv);
	q7_ccmd_free(&cmd);
	return started;
}

/* The finished job's results, for its document if it has not changed:
 * the findings, published, and the kernels, for hover and the lenses. */
static void job_done(struct relay *r)
{
	struct q7_doc *d = find_doc(r, r->job.uri);
	bool whole = false;
	if (d && d->version == r->job.version) {
		const char *out = r->job.out.s ? r->job.out.s : "", *path = r->job.text;
		struct q7_lint_src src = {.path = path, .text = d->text, .len = d->len, .uri = d->uri,
		                          .shown = d->path};
		if (r->job.target) {
			/* The link's checks: added to the lint's findings. */
			json_object *more = q7_lint_unresolved(out, &src, d->target);
			for (size_t i = 0; i < json_object_array_length(more); i++)
				json_object_array_add(d->q7, json_object_get(json_object_array_get_idx(more, i)));
			json_object_put(more);
			publish(r, d);
		} else {
			json_object_put(d->q7);
			d->q7 = q7_lint_diagnostics(out, &src);
			d->q7_version = d->version;
			publish(r, d);
			json_object *was = d->kernels, *id = json_object_new_string(REFRESH_ID);
			d->kernels = q7_lint_kernels(out, path, d->text, d->len);
			/* New schemas: an editor that can be told asks for the lenses again. */
			if (r->lens_refresh && (was ? !json_object_equal(was, d->kernels)
			                            : json_object_array_length(d->kernels) > 0))
				send_msg(&r->to_editor, id, "workspace/codeLens/refresh", NULL, NULL);
			json_object_put(id);
			json_object_put(was);
			d->requests = q7_lint_has_requests(out);
			whole = d->target && d->requests;
		}
	}
	q7_lint_clear(&r->job);
	if (whole)
		start_job(r, d, true);
}

/* An analysis of d's text is due or under way. */
static bool analysing(const struct relay *r, const struct q7_doc *d)
{
	return d->due || (r->job.uri && strcmp(r->job.uri, d->uri) == 0);
}

/* Starts the analysis that is due, if none runs. */
static void schedule(struct relay *r, long long now)
{
	if (r->job.pid)
		return;
	for (size_t i = 0; i < r->ndocs; i++) {
		struct q7_doc *d = &r->docs[i];
		if (d->due && d->due <= now) {
			d->due = 0;
			if (start_job(r, d, false))
				return;
		}
	}
}

/* ---- clangd ---- */

static void set_nonblock(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

void q7_relay_clangd_argv(const struct q7_relay_opts *o, struct q7_strvec *argv)
{
	q7_sv_add(argv, o->clangd);
	char *q7 = q7_prefix_path("bin/q7cc*"), *xt = q7_prefix_path("bin/xt-clang++");
	q7_sv_addf(argv, "--query-driver=%s,%s", q7, xt);
	free(xt);
	free(q7);
	if (o->ccdir)
		q7_sv_addf(argv, "--compile-commands-dir=%s", o->ccdir);
	q7_sv_addv(argv, o->extra);
}

/* clangd with its stdin and stdout on one socket, ours the other end. */
static bool start_clangd(struct relay *r)
{
	int sv[2];
	r->clangd = 0;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		q7_error("cannot make a socket for clangd: %s", strerror(errno));
		return false;
	}
	struct q7_strvec argv = {0};
	q7_relay_clangd_argv(r->o, &argv);
	struct q7_proc_opts po = {.in = sv[1], .out = sv[1], .dies_with_us = true};
	pid_t pid = q7_proc_spawn(argv.v, &po);
	q7_sv_free(&argv);
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		return false;
	}
	r->clangd = pid;
	set_nonblock(sv[0]);
	r->to_clangd = (struct q7_rpc_out){.fd = sv[0]};
	r->from_clangd = (struct q7_rpc_in){.fd = sv[0]};
	return true;
}

/* Writes what o still holds, for at most ms: the last messages before
 * the relay ends. */
static void drain(struct q7_rpc_out *o, int ms)
{
	long long end = q7_now_ms() + ms;
	while (q7_rpc_pending(o) && q7_fd_wait(o->fd, POLLOUT, end) == 0)
		q7_rpc_flush(o);
}

/* Closes clangd's stdin, gives it GOODBYE_MS to end, then kills it. */
static void stop_clangd(struct relay *r)
{
	if (r->clangd <= 0)
		return;
	drain(&r->to_clangd, GOODBYE_MS);
	shutdown(r->to_clangd.fd, SHUT_WR);
	pid_t pid;
	if (q7_proc_wait_any(&r->clangd, 1, GOODBYE_MS / 1000.0, &pid, NULL) == Q7_PROC_TIMEOUT) {
		q7_proc_kill(r->clangd, SIGKILL);
		q7_proc_wait(r->clangd, NULL);
	}
	close(r->from_clangd.fd);
	q7_rpc_in_free(&r->from_clangd);
	q7_rpc_out_free(&r->to_clangd);
	r->clangd = 0;
}

/* clangd's initialize again, the editor's notification that followed it
 * and its open documents, once clangd answered (replay_rest). */
static void replay_init(struct relay *r)
{
	json_object *m = json_tokener_parse(r->init);
	if (!m)
		return;
	if (r->init_answered) {
		json_object_object_add(m, "id", json_object_new_string(INIT_ID));
		r->replaying = true;
	}
	send_json(&r->to_clangd, m);
	json_object_put(m);
}

static void replay_rest(struct relay *r)
{
	if (r->initialized)
		send_msg(&r->to_clangd, NULL, "initialized", "params", json_object_new_object());
	for (size_t i = 0; i < r->ndocs; i++) {
		struct q7_doc *d = &r->docs[i];
		json_object *td = q7_js_object(
		    "uri", json_object_new_string(d->uri),
		    "languageId", json_object_new_string(d->lang ? d->lang : ""),
		    "version", json_object_new_int64(d->version),
		    "text", json_object_new_string_len(d->text, (int)d->len), NULL);
		send_msg(&r->to_clangd, NULL, "textDocument/didOpen", "params",
		         q7_js_object("textDocument", td, NULL));
	}
}

static void drop_pending(struct relay *r, size_t i)
{
	json_object_put(r->pend[i].id);
	json_object_put(r->pend[i].params);
	free(r->pend[i].method);
	json_object_put(r->pend[i].held);
	r->pend[i] = r->pend[--r->npend];
}

/* The editor's requests that wait for clangd (none held) get an error:
 * all, or all but the initialize (a restarted clangd answers it). */
static void fail_pending(struct relay *r, const char *why, bool all)
{
	for (size_t i = r->npend; i-- > 0;)
		if (!r->pend[i].until && (all || strcmp(r->pend[i].method, "initialize") != 0)) {
			answer_error(r, r->pend[i].id, -32603, why);
			drop_pending(r, i);
		}
}

/* clangd has ended: what it owed the editor gets an error, and it starts
 * again unless it ended too often. */
static void clangd_ended(struct relay *r)
{
	stop_clangd(r);
	if (r->exiting)
		return;
	long long now = q7_now_ms();
	size_t recent = 0;
	for (size_t i = 0; i < MAX_RESTARTS; i++) /* 0: no restart yet */
		recent += r->restarts[i] && now - r->restarts[i] < RESTART_WINDOW_MS;
	fail_pending(r, "clangd ended; q7cc-clangd started it again", false);
	if (recent >= MAX_RESTARTS) {
		q7_error("clangd ended %d times within a minute; not starting it again",
		         MAX_RESTARTS);
		/* Nothing will answer them now, the initialize either. */
		fail_pending(r, "clangd is not running", true);
		return;
	}
	q7_warning("clangd ended; starting it again");
	r->restarts[r->nrestarts++ % MAX_RESTARTS] = now; /* the oldest replaced */
	if (start_clangd(r) && r->init)
		replay_init(r);
}

/* ---- from the editor ---- */

static void did_open(struct relay *r, json_object *params)
{
	json_object *td = q7_js_get(params, "textDocument");
	const char *uri = q7_js_str(td, "uri", NULL), *text = q7_js_str(td, "text", NULL);
	if (!uri || !text || find_doc(r, uri))
		return;
	Q7_GROW(r->docs, r->docs_cap, r->ndocs + 1);
	struct q7_doc *d = &r->docs[r->ndocs++];
	memset(d, 0, sizeof *d);
	d->uri = q7_xstrdup(uri);
	d->path = uri_path(uri);
	d->real = d->path ? realpath(d->path, NULL) : NULL;
	const char *lang = q7_js_str(td, "languageId", NULL);
	d->lang = lang ? q7_xstrdup(lang) : NULL;
	d->version = json_object_get_int64(q7_js_get(td, "version"));
	d->len = (size_t)json_object_get_string_len(q7_js_get(td, "text"));
	d->text = q7_xstrndup(text, d->len);
	d->due = is_cxx(d) ? q7_now_ms() : 0;
}

static void did_change(struct relay *r, json_object *params)
{
	json_object *td = q7_js_get(params, "textDocument");
	struct q7_doc *d = find_doc(r, q7_js_str(td, "uri", NULL));
	json_object *changes = q7_js_array(params, "contentChanges");
	if (!d || !changes)
		return;
	for (size_t i = 0; i < json_object_array_length(changes); i++) {
		json_object *c = json_object_array_get_idx(changes, i), *range = q7_js_get(c, "range");
		const char *text = q7_js_str(c, "text", NULL);
		if (!text)
			continue;
		size_t from = range ? q7_doc_offset(d, q7_js_get(range, "start")) : 0;
		size_t to = range ? q7_doc_offset(d, q7_js_get(range, "end")) : d->len;
		if (to < from)
			to = from;
		d->text = q7_text_splice(d->text, &d->len, from, to, text);
	}
	d->version = json_object_get_int64(q7_js_get(td, "version"));
	cancel_job(r, d->uri);
	/* A change after a quiet spell is analysed at once; one of a burst
	 * (within debounce_ms of the last) waits for debounce_ms of quiet. */
	long long now = q7_now_ms();
	if (is_cxx(d))
		d->due = now - d->changed >= r->o->debounce_ms ? now : now + r->o->debounce_ms;
	d->changed = now;
}

static void did_close(struct relay *r, json_object *params)
{
	struct q7_doc *d = find_doc(r, q7_js_str(q7_js_get(params, "textDocument"), "uri", NULL));
	if (!d)
		return;
	cancel_job(r, d->uri);
	doc_free(d);
	*d = r->docs[--r->ndocs];
}

/* A file saved (a header, say): the open documents that include it by
 * its name are analysed again, as their text has not changed but what
 * they read has, and so are those with m.defs of a target, whose
 * compute functions it may define (docs/editors.md, "When"). */
static void did_save(struct relay *r, json_object *params)
{
	const char *uri = q7_js_str(q7_js_get(params, "textDocument"), "uri", NULL);
	char *path = uri ? uri_path(uri) : NULL;
	const struct q7_doc *saved = find_doc(r, uri);
	long long now = q7_now_ms();
	for (size_t i = 0; path && i < r->ndocs; i++) {
		struct q7_doc *d = &r->docs[i];
		/* An m.def's compute function may be in the saved file. */
		bool reads = q7_text_includes(d->text, d->len, q7_path_basename(path)) ||
		             (d->requests && d->target);
		if (d != saved && is_cxx(d) && reads) {
			cancel_job(r, d->uri);
			d->due = now;
		}
	}
	free(path);
}

/* A message of the editor's that is not passed on: one over Q7_RPC_MAX
 * bytes (raw its stand-in, rpc.h), one that is not UTF-8 (clangd drops
 * it unanswered), or one that is no JSON-RPC 2.0 request, notification
 * or answer (clangd 14 ends on it, and again on each replay of such an
 * initialize). A request gets an error answer (code), so that nothing
 * waits for it; what was refused is named in the log. */
static void refuse(struct relay *r, const char *raw, int code, const char *why)
{
	json_object *m = json_tokener_parse(raw);
	const char *method = q7_js_str(m, "method", NULL);
	json_object *id = q7_js_get(m, "id");
	if (id && method)
		answer_error(r, id, code, why);
	q7_error("%s from the editor: %s; not passed on", method ? method : "a message", why);
	json_object_put(m);
}

/* A message of the editor: noted, then passed to clangd as it came. */
static void from_editor(struct relay *r, const char *raw, size_t len)
{
	size_t too_big = r->from_editor.too_big;
	if (too_big) {
		char *why = q7_xasprintf("the message is %zu bytes, over q7cc-clangd's limit of %u MiB",
		                         too_big, Q7_RPC_MAX >> 20);
		refuse(r, raw, -32600, why);
		free(why);
		return;
	}
	if (!q7_rpc_utf8(raw, len)) {
		refuse(r, raw, -32700, "the message is not UTF-8, as JSON-RPC's must be");
		return;
	}
	json_object *m = json_tokener_parse(raw);
	const char *method = q7_js_str(m, "method", NULL);
	json_object *id = q7_js_get(m, "id"), *params = q7_js_get(m, "params");
	if (strcmp(q7_js_str(m, "jsonrpc", ""), "2.0") != 0 || (!method && !id)) {
		refuse(r, raw, -32600, "not a JSON-RPC 2.0 request, notification or answer");
		json_object_put(m);
		return;
	}
	bool pass = r->clangd > 0, lens = method && strcmp(method, "textDocument/codeLens") == 0;
	if (method && strcmp(method, "initialize") == 0) {
		free(r->init);
		r->init = q7_xstrdup(raw);
		json_object *ws = q7_js_get(q7_js_get(params, "capabilities"), "workspace");
		r->lens_refresh = json_object_get_boolean(
		    q7_js_get(q7_js_get(ws, "codeLens"), "refreshSupport"));
	} else if (method && strcmp(method, "initialized") == 0) {
		r->initialized = true;
	} else if (method && strcmp(method, "textDocument/didOpen") == 0) {
		did_open(r, params);
	} else if (method && strcmp(method, "textDocument/didChange") == 0) {
		did_change(r, params);
	} else if (method && strcmp(method, "textDocument/didClose") == 0) {
		did_close(r, params);
	} else if (method && strcmp(method, "textDocument/didSave") == 0) {
		did_save(r, params);
	} else if (method && strcmp(method, "shutdown") == 0) {
		r->shutdown = true;
	} else if (method && strcmp(method, "exit") == 0) {
		r->exiting = true;
	} else if (!method && strcmp(q7_js_str(m, "id", ""), REFRESH_ID) == 0) {
		pass = false; /* the answer to our refresh: not clangd's */
	}
	if (method && id && !pass && !lens) {
		answer_error(r, id, -32603, "clangd is not running (it ended too often)");
	} else if (method && id) {
		Q7_GROW(r->pend, r->pend_cap, r->npend + 1);
		r->pend[r->npend++] = (struct pending){
		    .id = json_object_get(id), .params = json_object_get(params),
		    .method = q7_xstrdup(method),
		    /* The relay's own: clangd 14 has no code lenses. */
		    .until = lens ? q7_now_ms() + HOLD_MS : 0};
		pass = pass && !lens;
	}
	json_object_put(m);
	if (pass)
		q7_rpc_send(&r->to_clangd, raw, len);
}

/* ---- from clangd ---- */

static const char *pending_uri(const struct pending *p)
{
	return q7_js_str(q7_js_get(p->params, "textDocument"), "uri", NULL);
}

/* Sends the held answers whose schemas are in, or whose time is up. */
static void release_held(struct relay *r, long long now)
{
	for (size_t i = r->npend; i-- > 0;) {
		struct pending *p = &r->pend[i];
		if (!p->until)
			continue;
		struct q7_doc *d = find_doc(r, pending_uri(p));
		if (d && analysing(r, d) && now < p->until)
			continue;
		if (!p->held) { /* a code lens request */
			struct q7_doc none = {0};
			send_msg(&r->to_editor, p->id, NULL, "result", q7_answer_lenses(d ? d : &none));
		} else {
			if (d)
				q7_answer_hover(d, p->params, p->held);
			send_json(&r->to_editor, p->held);
		}
		drop_pending(r, i);
	}
}

/* Adds to clangd's answer m to the editor's request p; true when m was
 * sent (or held) here. */
static bool add_to(struct relay *r, struct pending *p, json_object *m)
{
	struct q7_doc *d = find_doc(r, pending_uri(p));
	if (strcmp(p->method, "initialize") == 0) {
		r->init_answered = true;
		json_object *result = q7_js_get(m, "result");
		json_object *caps = q7_js_get(result, "capabilities");
		/* LSP 3.17's positionEncoding, or clangd's own offsetEncoding. */
		const char *enc = q7_js_str(caps, "positionEncoding", NULL);
		q7_text_set_encoding(enc ? enc : q7_js_str(result, "offsetEncoding", NULL));
		if (!caps || q7_js_get(caps, "codeLensProvider"))
			return false;
		json_object_object_add(caps, "codeLensProvider",
		                       q7_js_object("resolveProvider", json_object_new_boolean(0), NULL));
	} else if (strcmp(p->method, "textDocument/hover") == 0 && d) {
		if (analysing(r, d)) {
			p->held = json_object_get(m);
			p->until = q7_now_ms() + HOLD_MS;
			return true;
		}
		if (!q7_answer_hover(d, p->params, m))
			return false;
	} else if (strcmp(p->method, "textDocument/codeAction") == 0 && d) {
		q7_answer_actions(d, p->params, m);
	} else {
		return false;
	}
	send_json(&r->to_editor, m);
	return true;
}

/* clangd's message over Q7_RPC_MAX bytes (raw its stand-in): not passed
 * on; the editor's request it answers gets an error instead. */
static void clangd_too_big(struct relay *r, const char *raw)
{
	json_object *m = json_tokener_parse(raw);
	json_object *id = q7_js_get(m, "method") ? NULL : q7_js_get(m, "id");
	char *why = q7_xasprintf("clangd's message is %zu bytes, over q7cc-clangd's limit of %u MiB",
	                         r->from_clangd.too_big, Q7_RPC_MAX >> 20);
	for (size_t i = 0; id && i < r->npend; i++)
		if (json_object_equal(r->pend[i].id, id) && !r->pend[i].until) {
			answer_error(r, id, -32603, why);
			drop_pending(r, i);
			break;
		}
	q7_error("%s; not passed on", why);
	free(why);
	json_object_put(m);
}

static void from_clangd(struct relay *r, const char *raw, size_t len)
{
	if (r->from_clangd.too_big) {
		clangd_too_big(r, raw);
		return;
	}
	json_object *m = json_tokener_parse(raw);
	const char *method = q7_js_str(m, "method", NULL);
	json_object *id = q7_js_get(m, "id");
	bool sent = false;
	if (method && strcmp(method, "textDocument/publishDiagnostics") == 0) {
		json_object *params = q7_js_get(m, "params");
		struct q7_doc *d = find_doc(r, q7_js_str(params, "uri", NULL));
		if (d) {
			json_object_put(d->clangd);
			d->clangd = json_object_get(params);
			publish(r, d);
			sent = true;
		}
	} else if (!method && id) {
		if (r->replaying && strcmp(q7_js_str(m, "id", ""), INIT_ID) == 0) {
			r->replaying = false;
			replay_rest(r);
			sent = true;
		}
		for (size_t i = 0; i < r->npend && !sent; i++) {
			if (!json_object_equal(r->pend[i].id, id))
				continue;
			sent = add_to(r, &r->pend[i], m);
			if (!r->pend[i].until)
				drop_pending(r, i);
			break;
		}
	}
	if (!sent)
		q7_rpc_send(&r->to_editor, raw, len);
	json_object_put(m);
}

/* ---- the loop ---- */

static void relay_free(struct relay *r)
{
	q7_lint_cancel(&r->job);
	q7_sb_free(&r->job.out);
	for (size_t i = 0; i < r->ndocs; i++)
		doc_free(&r->docs[i]);
	free(r->docs);
	while (r->npend)
		drop_pending(r, 0);
	free(r->pend);
	free(r->init);
	free(r->srcdir);
	free(r->q7cc);
	q7_ccdb_forget();
	q7_rpc_in_free(&r->from_editor);
	q7_rpc_out_free(&r->to_editor);
}

/* Lowers *timeout (ms, -1: none) to the wait from now until at. */
static void sooner(int *timeout, long long at, long long now)
{
	long long wait = at > now ? at - now : 0;
	if (*timeout < 0 || wait < *timeout)
		*timeout = (int)wait;
}

/* How long the loop may wait for its descriptors (-1: for ever): until
 * the analysis's limit, a held answer's time, an analysis due. */
static int next_timeout(const struct relay *r, long long now)
{
	int timeout = -1;
	if (r->job.pid)
		sooner(&timeout, r->job.started + r->o->limit_ms, now);
	for (size_t i = 0; i < r->npend; i++)
		if (r->pend[i].until)
			sooner(&timeout, r->pend[i].until, now);
	for (size_t i = 0; i < r->ndocs && !r->job.pid; i++)
		if (r->docs[i].due)
			sooner(&timeout, r->docs[i].due, now);
	return timeout;
}

int q7_relay_run(const struct q7_relay_opts *o)
{
	struct relay r = {.o = o, .job = {.fd = -1}};
	r.from_editor.fd = 0;
	r.to_editor.fd = 1;
	set_nonblock(0);
	set_nonblock(1);
	signal(SIGPIPE, SIG_IGN);
	if (!start_clangd(&r))
		return Q7_EXIT_TOOL;
	while (!r.exiting && !r.from_editor.eof && !r.to_editor.broken) {
		long long now = q7_now_ms();
		if (r.job.pid && now - r.job.started >= o->limit_ms) {
			char *path = uri_path(r.job.uri);
			q7_warning("%s: q7cc's analysis took over %d ms: ended", path ? path : r.job.uri,
			           o->limit_ms);
			free(path);
			q7_lint_cancel(&r.job);
		}
		schedule(&r, now);
		release_held(&r, now);
		int timeout = next_timeout(&r, now);
		struct pollfd p[5] = {
		    {.fd = 0, .events = POLLIN},
		    {.fd = q7_rpc_pending(&r.to_editor) ? 1 : -1, .events = POLLOUT},
		    {.fd = r.clangd > 0 ? r.from_clangd.fd : -1, .events = POLLIN},
		    {.fd = r.clangd > 0 && q7_rpc_pending(&r.to_clangd) ? r.to_clangd.fd : -1,
		     .events = POLLOUT},
		    {.fd = r.job.pid ? r.job.fd : -1, .events = POLLIN},
		};
		if (poll(p, 5, timeout) < 0 && errno != EINTR) {
			q7_error("poll: %s", strerror(errno));
			break;
		}
		if (p[1].revents)
			q7_rpc_flush(&r.to_editor);
		pid_t clangd = r.clangd;
		if (p[3].revents && !q7_rpc_flush(&r.to_clangd))
			clangd_ended(&r);
		if (p[4].revents && !q7_lint_read(&r.job))
			job_done(&r);
		if (p[2].revents && r.clangd == clangd) {
			bool open = q7_rpc_fill(&r.from_clangd);
			size_t len;
			for (char *msg; (msg = q7_rpc_next(&r.from_clangd, &len)); free(msg))
				from_clangd(&r, msg, len);
			if (!open || r.from_clangd.eof)
				clangd_ended(&r);
		}
		if (p[0].revents) {
			q7_rpc_fill(&r.from_editor);
			size_t len;
			for (char *msg; !r.exiting && (msg = q7_rpc_next(&r.from_editor, &len)); free(msg))
				from_editor(&r, msg, len);
		}
		if (r.clangd > 0 && r.to_clangd.full) {
			q7_warning("clangd has left %u MiB of messages unread; starting it again",
			           Q7_RPC_QUEUE_MAX >> 20);
			clangd_ended(&r);
		}
	}
	if (r.to_editor.full)
		q7_error("the editor has left %u MiB of messages unread; ending", Q7_RPC_QUEUE_MAX >> 20);
	if (r.from_editor.damaged)
		q7_error("a message from the editor: a header without a valid Content-Length, past "
		         "which its messages cannot be followed; ending");
	stop_clangd(&r);
	drain(&r.to_editor, GOODBYE_MS);
	int rc = r.exiting && r.shutdown ? 0 : 1;
	relay_free(&r);
	return rc;
}
