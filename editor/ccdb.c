/* Compile commands for the editor's files: see ccdb.h. */
#include "ccdb.h"

#include <json-c/json.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
	char *joined = path[0] == '/' ? q7_xstrdup(path) : q7_path_join(dir, path);
	char real[PATH_MAX];
	if (realpath(joined, real)) {
		free(joined);
		return q7_xstrdup(real);
	}
	return joined;
}

/* The entry of db for path: true and cmd filled. */
static bool entry_of(json_object *db, const char *path, struct q7_ccmd *cmd)
{
	if (!json_object_is_type(db, json_type_array))
		return false;
	size_t n = json_object_array_length(db);
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(db, i), *dir, *file, *args;
		if (!json_object_object_get_ex(e, "directory", &dir) ||
		    !json_object_object_get_ex(e, "file", &file) ||
		    !json_object_is_type(dir, json_type_string) ||
		    !json_object_is_type(file, json_type_string))
			continue;
		char *abs = resolve(json_object_get_string(dir), json_object_get_string(file));
		bool same = strcmp(abs, path) == 0;
		free(abs);
		if (!same)
			continue;
		struct q7_strvec argv = {0};
		if (json_object_object_get_ex(e, "arguments", &args) &&
		    json_object_is_type(args, json_type_array)) {
			for (size_t k = 0; k < json_object_array_length(args); k++)
				q7_sv_add(&argv, json_object_get_string(json_object_array_get_idx(args, k)));
		} else if (json_object_object_get_ex(e, "command", &args) &&
		           json_object_is_type(args, json_type_string)) {
			q7_shell_split(json_object_get_string(args), &argv);
		}
		if (!argv.n) {
			q7_sv_free(&argv);
			continue;
		}
		cmd->argv = argv;
		cmd->dir = q7_xstrdup(json_object_get_string(dir));
		cmd->file = q7_xstrdup(json_object_get_string(file));
		return true;
	}
	return false;
}

/* The database last read, kept while its file is the same (a project's
 * may hold thousands of entries, and it is looked up at every change). */
static struct {
	char *path;
	struct stat st;
	json_object *db;
} last;

static json_object *read_db(const char *path, const struct stat *st)
{
	if (last.path && strcmp(last.path, path) == 0 && last.st.st_ino == st->st_ino &&
	    last.st.st_dev == st->st_dev && last.st.st_size == st->st_size &&
	    last.st.st_mtim.tv_sec == st->st_mtim.tv_sec &&
	    last.st.st_mtim.tv_nsec == st->st_mtim.tv_nsec)
		return last.db;
	free(last.path);
	json_object_put(last.db);
	last.path = q7_xstrdup(path);
	last.st = *st;
	last.db = json_object_from_file(path);
	return last.db;
}

/* Looks in dir/compile_commands.json: 1 found, 0 a database without the
 * file (clangd stops at the first database too), -1 no database. */
static int look(const char *dir, const char *path, struct q7_ccmd *cmd)
{
	char *db_path = q7_path_join(dir, "compile_commands.json");
	struct stat st;
	int found = -1;
	if (stat(db_path, &st) == 0 && S_ISREG(st.st_mode)) {
		json_object *db = read_db(db_path, &st);
		found = db && entry_of(db, path, cmd) ? 1 : 0;
	}
	free(db_path);
	return found;
}

void q7_ccdb_forget(void)
{
	free(last.path);
	json_object_put(last.db);
	memset(&last, 0, sizeof last);
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

/* Options of a compile that name its outputs or the compile itself, and
 * whether they take the next word. */
static const struct {
	const char *name;
	bool next;
} dropped[] = {
	{"-c", false}, {"-o", true}, {"-MD", false}, {"-MMD", false}, {"-MF", true},
	{"-MT", true}, {"-MQ", true}, {"-M", false}, {"-MM", false}, {"-MP", false},
};

void q7_ccmd_lint_argv(const struct q7_ccmd *cmd, const char *mode, const char *orig_dir,
                       const char *text, struct q7_strvec *out)
{
	char *src = resolve(cmd->dir, cmd->file);
	q7_sv_add(out, cmd->argv.v[0]);
	for (size_t i = 1; i < cmd->argv.n; i++) {
		const char *a = cmd->argv.v[i];
		bool skip = strcmp(a, cmd->file) == 0;
		if (!skip && a[0] != '-') {
			char *abs = resolve(cmd->dir, a);
			skip = strcmp(abs, src) == 0;
			free(abs);
		}
		for (size_t k = 0; k < sizeof dropped / sizeof *dropped && !skip; k++) {
			size_t n = strlen(dropped[k].name);
			if (strcmp(a, dropped[k].name) == 0) {
				skip = true;
				i += dropped[k].next;
			} else if (dropped[k].next && strncmp(a, dropped[k].name, n) == 0) {
				skip = true; /* the joined form: -ofile, -MFfile */
			}
		}
		if (!skip)
			q7_sv_add(out, a);
	}
	q7_sv_add(out, mode);
	q7_sv_add(out, "--q7-format=json");
	/* Its "..." includes: the editor's text is in a folder of its own. */
	q7_sv_add(out, "-iquote");
	q7_sv_add(out, orig_dir);
	q7_sv_add(out, text);
	free(src);
}

void q7_ccmd_free(struct q7_ccmd *cmd)
{
	q7_sv_free(&cmd->argv);
	free(cmd->dir);
	free(cmd->file);
	memset(cmd, 0, sizeof *cmd);
}
