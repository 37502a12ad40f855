/* Compile commands for the editor's files: see ccdb.h. */
#include "ccdb.h"

#include "bytes.h"
#include "fdio.h"
#include "js.h"
#include "proc.h"

#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

void q7_shell_split(const char *s, struct q7_strvec *out)
{
	struct q7_strbuf w = {0};
	bool in_word = false;
	for (const char *p = s; *p; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n') {
			if (in_word)
				q7_sv_add(out, w.s ? w.s : "");
			w.len = 0;
			if (w.s)
				w.s[0] = '\0';
			in_word = false;
			continue;
		}
		in_word = true;
		if (*p == '\'') {
			const char *q = strchr(p + 1, '\'');
			size_t n = q ? (size_t)(q - p - 1) : strlen(p + 1);
			q7_sb_addn(&w, p + 1, n);
			p += n + (q ? 1 : 0);
		} else if (*p == '"') {
			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && p[1] && strchr("\"\\$`", p[1]))
					p++;
				q7_sb_addc(&w, *p);
			}
			if (!*p)
				break;
		} else if (*p == '\\' && p[1]) {
			q7_sb_addc(&w, *++p);
		} else {
			q7_sb_addc(&w, *p);
		}
	}
	if (in_word)
		q7_sv_add(out, w.s ? w.s : "");
	q7_sb_free(&w);
}

/* path made absolute against dir, "." and ".." left as they are: the
 * entry and the editor name the same file the same way once both are
 * resolved by realpath, which needs the file to exist. */
static char *resolve(const char *dir, const char *path)
{
	char *joined = q7_path_join(dir, path), *real = realpath(joined, NULL);
	if (!real)
		return joined;
	free(joined);
	return real;
}

/* The database last read, kept while its file is the same. A child
 * process reads it (json-c's tree of 100,000 entries takes 200 MB, and
 * every analysis forks this process: a fork walks all the memory a
 * process ever mapped) and writes into a memfd, which this process maps
 * apart from the children it forks (MADV_DONTFORK; no child touches it,
 * they only run q7cc): a header, the entries, their index by the hash of
 * their file's base name (open addressing; an entry's index + 1, 0 a free
 * slot: a lookup resolves only the entries of the file's name), and the
 * strings. */
struct entry {
	uint32_t dir, file; /* offsets of strings */
	uint32_t args;      /* of the first argument (a "command" split) */
	uint32_t nargs;     /* at least 1 */
};

struct head {
	char why[112]; /* empty, or why the database is not used */
	uint32_t n, nslot;
	uint64_t nstrs;
};

static struct {
	char *path;
	struct stat st;
	bool read; /* a database, read whole */
	void *map;
	size_t map_len;
	const struct entry *e;
	const uint32_t *slot;
	size_t nslot; /* a power of two, above twice the entries */
	const char *strs;
} last;

/* The databases already warned of (not used, unreadable): once each. */
static struct q7_strvec warned;

static void warn_once(const char *path, const char *why)
{
	if (q7_sv_has(&warned, path))
		return;
	q7_sv_add(&warned, path);
	q7_warning("%s: not used for q7cc's analysis: %s", path, why);
}

static uint64_t name_hash(const char *path)
{
	const char *base = q7_path_basename(path);
	return q7_fnv1a64(Q7_FNV64_BASIS, base, strlen(base));
}

static void drop_db(void)
{
	free(last.path);
	if (last.map)
		munmap(last.map, last.map_len);
	memset(&last, 0, sizeof last);
}

static const char *str(uint32_t at)
{
	return last.strs + at;
}

/* ---- in the child: the database read and laid out ---- */

struct layout {
	struct entry *e;
	size_t n;
	struct q7_strbuf strs;
	uint32_t *slot;
	size_t nslot;
};

static uint32_t keep(struct layout *l, const char *s)
{
	uint32_t at = (uint32_t)l->strs.len;
	q7_sb_addn(&l->strs, s, strlen(s) + 1);
	return at;
}

/* Copies entry o of the tree (its directory, file and command: its
 * "arguments", else its "command" split) into l; an entry without them
 * is left out. */
static void copy_entry(struct layout *l, json_object *o)
{
	const char *dir = q7_js_str(o, "directory", NULL), *file = q7_js_str(o, "file", NULL);
	json_object *a = q7_js_array(o, "arguments");
	struct q7_strvec argv = {0};
	for (size_t k = 0; a && k < json_object_array_length(a); k++) {
		const char *w = json_object_get_string(json_object_array_get_idx(a, k));
		q7_sv_add(&argv, w ? w : ""); /* null: an empty word */
	}
	if (!argv.n && q7_js_str(o, "command", NULL))
		q7_shell_split(q7_js_str(o, "command", NULL), &argv);
	if (dir && file && argv.n) {
		struct entry e = {.dir = keep(l, dir), .file = keep(l, file), .nargs = (uint32_t)argv.n};
		e.args = keep(l, argv.v[0]);
		for (size_t k = 1; k < argv.n; k++)
			keep(l, argv.v[k]);
		l->e[l->n++] = e;
	}
	q7_sv_free(&argv);
}

static void lay_out(struct layout *l, json_object *db)
{
	size_t n = json_object_array_length(db);
	l->e = q7_xcalloc(n ? n : 1, sizeof *l->e);
	for (size_t i = 0; i < n; i++)
		copy_entry(l, json_object_array_get_idx(db, i));
	for (l->nslot = 16; l->nslot < 2 * l->n + 1; l->nslot *= 2)
		;
	l->slot = q7_xcalloc(l->nslot, sizeof *l->slot);
	for (size_t i = 0; i < l->n; i++) {
		size_t s = (size_t)name_hash(l->strs.s + l->e[i].file) & (l->nslot - 1);
		while (l->slot[s])
			s = (s + 1) & (l->nslot - 1);
		l->slot[s] = (uint32_t)i + 1;
	}
}

/* The most of a database read (a million entries take about 300 MB). */
#define DB_MAX (1024u << 20)

/* The text of the database at path (st: what stat said of it), or NULL
 * with *why; *len its length. */
static char *db_text(const char *path, const struct stat *st, size_t *len, const char **why)
{
	int fd = q7_open_regular(path, why);
	struct stat now;
	char *text = NULL;
	bool more;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &now) != 0 || now.st_ino != st->st_ino || now.st_dev != st->st_dev ||
	    now.st_uid != st->st_uid || now.st_mode != st->st_mode)
		*why = "it changed while it was read";
	else if ((uint64_t)now.st_size > DB_MAX)
		*why = "it is over 1 GiB";
	else if (!(text = q7_read_upto(fd, (size_t)now.st_size, len, &more)))
		*why = strerror(errno);
	close(fd);
	return text;
}

/* The child's work: the database at path read, laid out and written to
 * fd. Its exit status: 0 when fd holds it (or why not, in its head). */
static int read_in_child(const char *path, const struct stat *st, int fd)
{
	const char *why = NULL;
	size_t len = 0;
	char *text = db_text(path, st, &len, &why);
	json_object *db = NULL;
	if (text) {
		json_tokener *tok = json_tokener_new();
		db = json_tokener_parse_ex(tok, text, (int)len);
		if (json_tokener_get_error(tok) != json_tokener_success ||
		    !json_object_is_type(db, json_type_array))
			why = "not a JSON array (or truncated)";
	}
	struct layout l = {0};
	if (!why)
		lay_out(&l, db);
	struct head h = {.n = (uint32_t)l.n, .nslot = (uint32_t)l.nslot, .nstrs = l.strs.len};
	snprintf(h.why, sizeof h.why, "%s", why ? why : "");
	bool ok = q7_write_all(fd, &h, sizeof h, -1) == 0 &&
	          q7_write_all(fd, l.e, l.n * sizeof *l.e, -1) == 0 &&
	          q7_write_all(fd, l.slot, l.nslot * sizeof *l.slot, -1) == 0 &&
	          q7_write_all(fd, l.strs.s, l.strs.len, -1) == 0;
	return ok ? 0 : 1;
}

/* ---- in the server ---- */

/* Maps what the child wrote to fd into last; false (*why) when it says
 * the database is not to be used. */
static bool map_db(int fd, const char **why)
{
	struct stat st;
	struct head h;
	if (fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof h ||
	    pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h) {
		*why = "it could not be read";
		return false;
	}
	h.why[sizeof h.why - 1] = '\0';
	size_t need = sizeof h + h.n * sizeof(struct entry) + h.nslot * sizeof(uint32_t) + h.nstrs;
	if (h.why[0] || (size_t)st.st_size != need || !h.nslot) {
		static char said[sizeof h.why];
		snprintf(said, sizeof said, "%s", h.why[0] ? h.why : "it could not be read");
		*why = said;
		return false;
	}
	void *m = mmap(NULL, need, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED) {
		*why = strerror(errno);
		return false;
	}
	madvise(m, need, MADV_DONTFORK);
	last.map = m;
	last.map_len = need;
	last.e = (const struct entry *)((char *)m + sizeof h);
	last.slot = (const uint32_t *)(last.e + h.n);
	last.nslot = h.nslot;
	last.strs = (const char *)(last.slot + h.nslot);
	return true;
}

/* Reads the database at path (st: what stat said of it) into last. */
static void parse_db(const char *path, const struct stat *st)
{
	const char *why = "it could not be read (no child process)";
	int fd = memfd_create("q7cc-clangd-ccdb", MFD_CLOEXEC);
	pid_t pid = fd >= 0 ? q7_proc_fork() : -1;
	if (pid == 0)
		_exit(read_in_child(path, st, fd));
	if (pid > 0 && q7_proc_wait(pid, NULL) == 0)
		last.read = map_db(fd, &why);
	if (fd >= 0)
		close(fd);
	if (!last.read)
		warn_once(path, why);
}

/* Whether the entry's dir/file is path (as given, or real: its realpath). */
static bool same_file(const char *dir, const char *file, const char *path, const char *real)
{
	char *joined = q7_path_join(dir, file);
	bool same = strcmp(joined, path) == 0 || (real && strcmp(joined, real) == 0);
	if (!same) {
		char *abs = resolve(dir, file);
		same = strcmp(abs, path) == 0 || (real && strcmp(abs, real) == 0);
		free(abs);
	}
	free(joined);
	return same;
}

/* The command of e into cmd (empty). */
static void entry_command(const struct entry *e, struct q7_ccmd *cmd)
{
	const char *a = str(e->args);
	for (uint32_t k = 0; k < e->nargs; k++, a += strlen(a) + 1)
		q7_sv_add(&cmd->argv, a);
	cmd->dir = q7_xstrdup(str(e->dir));
	cmd->file = q7_xstrdup(str(e->file));
}

/* The entry of the database read for path, by the name name: true and
 * cmd filled. */
static bool entry_by_name(const char *name, const char *path, const char *real,
                          struct q7_ccmd *cmd)
{
	const char *base = q7_path_basename(name);
	for (size_t s = (size_t)name_hash(name) & (last.nslot - 1); last.slot[s];
	     s = (s + 1) & (last.nslot - 1)) {
		const struct entry *e = &last.e[last.slot[s] - 1];
		const char *dir = str(e->dir), *file = str(e->file);
		if (strcmp(q7_path_basename(file), base) == 0 && same_file(dir, file, path, real)) {
			entry_command(e, cmd);
			return true;
		}
	}
	return false;
}

static bool entry_of(const char *path, struct q7_ccmd *cmd)
{
	if (!last.nslot)
		return false;
	char buf[PATH_MAX];
	const char *real = realpath(path, buf);
	return entry_by_name(path, path, real, cmd) ||
	       (real && strcmp(q7_path_basename(real), q7_path_basename(path)) != 0 &&
	        entry_by_name(real, path, real, cmd));
}

static bool read_db(const char *path, const struct stat *st)
{
	if (last.path && strcmp(last.path, path) == 0 && last.st.st_ino == st->st_ino &&
	    last.st.st_dev == st->st_dev && last.st.st_size == st->st_size &&
	    memcmp(&last.st.st_mtim, &st->st_mtim, sizeof st->st_mtim) == 0 &&
	    memcmp(&last.st.st_ctim, &st->st_ctim, sizeof st->st_ctim) == 0)
		return last.read;
	drop_db();
	last.path = q7_xstrdup(path);
	last.st = *st;
	parse_db(path, st);
	return last.read;
}

/* Why the database file (st) in dir is not to be trusted (its flags
 * would reach q7cc: docs/editors.md, "Which files are analysed"), or NULL. */
static const char *distrust(const char *dir, const struct stat *st, char *why, size_t n)
{
	struct stat d;
	uid_t me = geteuid();
	if (stat(dir, &d) != 0)
		snprintf(why, n, "its folder cannot be examined: %s", strerror(errno));
	else if (d.st_uid != me && d.st_uid != 0)
		snprintf(why, n, "its folder is another user's (uid %u)", (unsigned)d.st_uid);
	else if ((d.st_mode & (S_IWGRP | S_IWOTH)) && !(d.st_mode & S_ISVTX))
		snprintf(why, n, "its folder is writable by other users (mode %04o)",
		         (unsigned)(d.st_mode & 07777));
	else if (st->st_uid != me && st->st_uid != 0)
		snprintf(why, n, "it is another user's (uid %u)", (unsigned)st->st_uid);
	else if (st->st_mode & (S_IWGRP | S_IWOTH))
		snprintf(why, n, "it is writable by other users (mode %04o)",
		         (unsigned)(st->st_mode & 07777));
	else
		return NULL;
	return why;
}

/* Looks in dir/compile_commands.json: 1 found, 0 a database without the
 * file or one not to be used (clangd stops at the first database too), -1
 * no database. */
static int look(const char *dir, const char *path, struct q7_ccmd *cmd)
{
	char *db_path = q7_path_join(dir, "compile_commands.json");
	struct stat st;
	char why[128];
	int found = -1;
	if (stat(db_path, &st) == 0 && S_ISREG(st.st_mode)) {
		found = 0;
		if (distrust(dir, &st, why, sizeof why))
			warn_once(db_path, why);
		else if (read_db(db_path, &st) && entry_of(path, cmd))
			found = 1;
	}
	free(db_path);
	return found;
}

void q7_ccdb_forget(void)
{
	drop_db();
	q7_sv_free(&warned);
}

bool q7_ccdb_find(const char *path, const char *ccdir, struct q7_ccmd *cmd)
{
	memset(cmd, 0, sizeof *cmd);
	if (ccdir)
		return look(ccdir, path, cmd) == 1;
	char *dir = q7_path_dirname(path);
	int found = -1;
	while (found < 0) {
		found = look(dir, path, cmd);
		if (found < 0) {
			char *build = q7_path_join(dir, "build");
			found = look(build, path, cmd);
			free(build);
		}
		if (found >= 0 || strcmp(dir, "/") == 0 || strcmp(dir, ".") == 0)
			break;
		char *up = q7_path_dirname(dir);
		free(dir);
		dir = up;
	}
	free(dir);
	return found == 1;
}

bool q7_ccmd_is_q7cc(const struct q7_ccmd *cmd)
{
	const char *cc = cmd->argv.v[0], *base = q7_path_basename(cc);
	if (strncmp(base, "q7cc", 4) == 0)
		return strcmp(base, "q7cc-icecc-env") != 0;
	/* Another name (xt-clang++, q7cc's masquerade) of the q7cc executable. */
	char *path = strchr(cc, '/') ? resolve(cmd->dir, cc) : q7_path_search(cc, NULL);
	bool q7 = path && strcmp(q7_path_basename(path), "q7cc") == 0;
	free(path);
	return q7;
}

char *q7_ccmd_target(const struct q7_ccmd *cmd)
{
	const char *out = NULL;
	for (size_t i = 1; i < cmd->argv.n; i++) {
		const char *a = cmd->argv.v[i];
		if (strcmp(a, "-o") == 0 && i + 1 < cmd->argv.n)
			out = cmd->argv.v[++i];
		else if (strncmp(a, "-o", 2) == 0 && a[2])
			out = a + 2;
	}
	/* The last CMakeFiles/<target>.dir/ of the output's path. */
	const char *hit = NULL;
	for (const char *p = out; p && (p = strstr(p, "CMakeFiles/")); p++)
		if (p == out || p[-1] == '/')
			hit = p + strlen("CMakeFiles/");
	const char *dir = hit ? strstr(hit, ".dir/") : NULL;
	if (!dir || dir == hit || memchr(hit, '/', (size_t)(dir - hit)))
		return NULL;
	return q7_xstrndup(hit, (size_t)(dir - hit));
}

void q7_ccdb_target_files(const char *target, struct q7_strvec *out)
{
	for (size_t s = 0; s < last.nslot; s++) {
		struct q7_ccmd cmd = {0};
		if (!last.slot[s])
			continue;
		entry_command(&last.e[last.slot[s] - 1], &cmd);
		char *t = q7_ccmd_target(&cmd);
		if (t && strcmp(t, target) == 0 && q7_ccmd_is_q7cc(&cmd)) {
			char *f = resolve(cmd.dir, cmd.file);
			if (!q7_sv_has(out, f))
				q7_sv_add(out, f);
			free(f);
		}
		free(t);
		q7_ccmd_free(&cmd);
	}
}

void q7_ccmd_free(struct q7_ccmd *cmd)
{
	q7_sv_free(&cmd->argv);
	free(cmd->dir);
	free(cmd->file);
	memset(cmd, 0, sizeof *cmd);
}
