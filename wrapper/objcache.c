/* The dispatch wrapper object's cache (objcache.h). */
#include "cachefile.h"
#include "objcache.h"
#include "tempfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define ENTRY_MAGIC "q7cc-wrapper-cache 1\n"
/* Past this many entries a store removes the least recently used down
 * to half of it: a few hundred KiB per project, a few projects' worth. */
#define MAX_ENTRIES 128
/* An entry larger than this is a miss (a dispatch wrapper object is ~100 KiB). */
#define MAX_ENTRY_BYTES (64u << 20)

/* What the compiler reads besides its command line and the headers. */
static const char *const compiler_env[] = {
	"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "GCC_EXEC_PREFIX", "COMPILER_PATH",
	"SOURCE_DATE_EPOCH", "GCC_COMPARE_DEBUG", NULL,
};

static void add_file_id(struct q7_strbuf *b, const struct stat *st)
{
	q7_sb_addf(b, "%lld %lld.%09ld %llu", (long long)st->st_size, (long long)st->st_mtim.tv_sec,
	           st->st_mtim.tv_nsec, (unsigned long long)st->st_ino);
}

void q7_objcache_init(struct q7_objcache *c, const char *text, size_t len, char *const *cmd,
                      const char *src, const char *obj, const char *dep)
{
	*c = (struct q7_objcache){.src = src, .obj = obj, .dep = q7_xstrdup(dep)};
	const char *off = getenv("Q7CC_WRAPPER_CACHE");
	if (!text || (off && strcmp(off, "0") == 0))
		return; /* no text: a dry run */
	char *dir = q7_cache_dir("wrapper");
	char *cxx = q7_path_search(cmd[0], NULL);
	struct stat st;
	char cwd[4096];
	if (!dir || !cxx || stat(cxx, &st) != 0 || !getcwd(cwd, sizeof cwd)) {
		free(dir);
		free(cxx);
		return;
	}
	struct q7_strbuf *k = &c->key;
	q7_sb_addf(k, "compiler %s ", cxx);
	add_file_id(k, &st);
	q7_sb_addf(k, "\ncwd %s\n", cwd);
	for (const char *const *e = compiler_env; *e; e++) {
		const char *v = getenv(*e);
		if (v)
			q7_sb_addf(k, "env %s=%s\n", *e, v);
	}
	/* The temporaries' names change with every link; the object is the
	 * same without them (a -g object names wrapper.cpp's path, which is
	 * gone after the link anyway). */
	for (size_t i = 0; cmd[i]; i++) {
		const char *a = cmd[i];
		q7_sb_addf(k, "arg %s\n", strcmp(a, src) == 0 ? "@SRC" : strcmp(a, obj) == 0 ? "@OBJ" : a);
	}
	q7_sb_addf(k, "text %zu\n", len);
	q7_sb_addn(k, text, len);
	char name[33];
	q7_cache_key(k->s, k->len, name);
	c->entry = q7_xasprintf("%s/%s.o", dir, name);
	free(dir);
	free(cxx);
}

/* ---- reading an entry ------------------------------------------------------ */

/* The line at *p (without its '\n'), advancing past it; NULL at the end. */
static const char *line(const char **p, const char *end, size_t *n)
{
	const char *s = *p;
	const char *nl = s < end ? memchr(s, '\n', (size_t)(end - s)) : NULL;
	if (!nl)
		return NULL;
	*n = (size_t)(nl - s);
	*p = nl + 1;
	return s;
}

static bool header_unchanged(const char *rec, size_t n)
{
	/* "<size> <sec>.<nsec> <ino> <path>" */
	char *r = q7_xasprintf("%.*s", (int)n, rec);
	char *path = r;
	for (int f = 0; f < 3 && path; f++) {
		path = strchr(path, ' ');
		if (path)
			path++;
	}
	bool same = false;
	struct stat st;
	if (path && stat(path, &st) == 0) {
		struct q7_strbuf id = {0};
		add_file_id(&id, &st);
		same = (size_t)(path - r) == id.len + 1 && memcmp(r, id.s, id.len) == 0;
		q7_sb_free(&id);
	}
	free(r);
	return same;
}

/* An ELF relocatable object (ET_REL in either byte order). */
static bool is_object(const unsigned char *b, size_t n)
{
	if (n < 52 || memcmp(b, "\177ELF", 4) != 0)
		return false;
	unsigned type = b[5] == 2 ? (unsigned)b[16] << 8 | b[17] : (unsigned)b[17] << 8 | b[16];
	return type == 1;
}

bool q7_objcache_fetch(struct q7_objcache *c)
{
	if (!c->entry)
		return false;
	size_t size;
	char *all = q7_cache_read(c->entry, MAX_ENTRY_BYTES, &size);
	if (!all)
		return false;
	const char *p = all, *end = all + size, *s;
	size_t n;
	bool ok = size > strlen(ENTRY_MAGIC) && memcmp(p, ENTRY_MAGIC, strlen(ENTRY_MAGIC)) == 0;
	p += ok ? strlen(ENTRY_MAGIC) : 0;
	/* The key, whole: a hash collision is a miss. */
	ok = ok && (size_t)(end - p) >= c->key.len + 1 && memcmp(p, c->key.s, c->key.len) == 0 &&
	     p[c->key.len] == '\n';
	p += ok ? c->key.len + 1 : 0;
	unsigned long nh = 0;
	ok = ok && (s = line(&p, end, &n)) && sscanf(s, "headers %lu", &nh) == 1;
	for (unsigned long i = 0; ok && i < nh; i++)
		ok = (s = line(&p, end, &n)) && header_unchanged(s, n);
	unsigned long long olen = 0;
	ok = ok && (s = line(&p, end, &n)) && sscanf(s, "object %llu", &olen) == 1 &&
	     olen == (unsigned long long)(end - p) && is_object((const unsigned char *)p, olen);
	if (ok && q7_outfile_write(c->obj, p, olen, 0644, &s) != 0)
		ok = false;
	if (ok)
		utimensat(AT_FDCWD, c->entry, NULL, AT_SYMLINK_NOFOLLOW); /* recently used */
	free(all);
	return ok;
}

/* ---- storing ---------------------------------------------------------------- */

void q7_objcache_parse_deps(const char *text, struct q7_strvec *out)
{
	/* Skip the target up to its unescaped ':' followed by a blank. */
	const char *p = text;
	while (*p && !(*p == ':' && (p[1] == ' ' || p[1] == '\t' || p[1] == '\n' || !p[1]))) {
		if (*p == '\\' && p[1])
			p++;
		p++;
	}
	if (*p)
		p++;
	struct q7_strbuf w = {0};
	for (;;) {
		char ch = *p;
		bool blank = ch == ' ' || ch == '\t' || ch == '\n' || ch == '\0';
		if (ch == '\\' && p[1] == '\n') { /* continuation */
			p += 2;
			blank = true;
			ch = ' ';
		} else if (ch == '\\' && (p[1] == ' ' || p[1] == '#' || p[1] == '\\')) {
			q7_sb_addc(&w, p[1]);
			p += 2;
			continue;
		} else if (ch == '$' && p[1] == '$') {
			q7_sb_addc(&w, '$');
			p += 2;
			continue;
		}
		if (blank) {
			if (w.len)
				q7_sv_add(out, w.s);
			w.len = 0;
			if (w.s)
				w.s[0] = '\0';
			/* GCC's -MP adds phony rules after a blank line: only the
			 * first rule names the headers. */
			if (ch == '\0' || (ch == '\n' && p[1] == '\n'))
				break;
			p++;
			continue;
		}
		q7_sb_addc(&w, ch);
		p++;
	}
	q7_sb_free(&w);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Removes the least recently used entries past MAX_ENTRIES. */
static void prune(const char *dir)
{
	DIR *dp = opendir(dir);
	if (!dp)
		return;
	struct q7_strvec used = {0}; /* "<mtime, fixed width> <path>": in order as text */
	struct dirent *e;
	time_t now = time(NULL);
	while ((e = readdir(dp))) {
		size_t l = strlen(e->d_name);
		struct stat st;
		if (fstatat(dirfd(dp), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		/* A store killed outright (SIGKILL) leaves its temporary
		 * (cachefile.c): gone once an hour old. */
		if (strncmp(e->d_name, ".entry.", 7) == 0 && now - st.st_mtime > 3600)
			unlinkat(dirfd(dp), e->d_name, 0);
		if (l == 34 && strcmp(e->d_name + 32, ".o") == 0)
			q7_sv_addf(&used, "%020lld.%09ld %s/%s", (long long)st.st_mtim.tv_sec,
			           st.st_mtim.tv_nsec, dir, e->d_name);
	}
	closedir(dp);
	if (used.n > MAX_ENTRIES) {
		qsort(used.v, used.n, sizeof *used.v, cmp_str);
		for (size_t i = 0; i < used.n - MAX_ENTRIES / 2; i++)
			unlink(strchr(used.v[i], ' ') + 1);
	}
	q7_sv_free(&used);
}

void q7_objcache_store(struct q7_objcache *c)
{
	if (!c->entry)
		return;
	size_t olen;
	char *obj = q7_read_file(c->obj, &olen);
	char *deps = q7_read_file(c->dep, NULL);
	if (!obj || !deps || !is_object((unsigned char *)obj, olen)) {
		free(obj);
		free(deps); /* no dependencies written: nothing to check a hit by */
		return;
	}
	struct q7_strvec hs = {0};
	q7_objcache_parse_deps(deps, &hs);
	struct q7_strbuf hl = {0};
	size_t nh = 0;
	bool ok = true;
	for (size_t i = 0; ok && i < hs.n; i++) {
		struct stat st;
		if (strcmp(hs.v[i], c->src) == 0)
			continue; /* its text is in the key */
		ok = stat(hs.v[i], &st) == 0;
		if (ok) {
			add_file_id(&hl, &st);
			q7_sb_addf(&hl, " %s\n", hs.v[i]);
			nh++;
		}
	}
	struct q7_strbuf b = {0};
	q7_sb_add(&b, ENTRY_MAGIC);
	q7_sb_addn(&b, c->key.s, c->key.len);
	q7_sb_addf(&b, "\nheaders %zu\n", nh);
	if (hl.len)
		q7_sb_addn(&b, hl.s, hl.len);
	q7_sb_free(&hl);
	q7_sb_addf(&b, "object %zu\n", olen);
	q7_sb_addn(&b, obj, olen);
	if (ok && q7_cache_write(c->entry, b.s, b.len) == 0) {
		char *dir = q7_path_dirname(c->entry);
		prune(dir);
		free(dir);
	}
	q7_sb_free(&b);
	q7_sv_free(&hs);
	free(obj);
	free(deps);
}

/* The environment's own SUNPRO_DEPENDENCIES, put back after the compile. */
static char *env_saved;
static bool env_set;

void q7_objcache_env(const struct q7_objcache *c)
{
	if (!c->entry)
		return;
	const char *old = getenv("SUNPRO_DEPENDENCIES");
	free(env_saved);
	env_saved = old ? q7_xstrdup(old) : NULL;
	/* "FILE TARGET": GCC and clang write every header there, system ones
	 * too, unless the command asks for dependencies itself (xt's -MMD
	 * writes the same file, beside the object). */
	char *v = q7_xasprintf("%s %s", c->dep, c->obj);
	setenv("SUNPRO_DEPENDENCIES", v, 1);
	free(v);
	env_set = true;
}

void q7_objcache_env_done(void)
{
	if (!env_set)
		return;
	if (env_saved)
		setenv("SUNPRO_DEPENDENCIES", env_saved, 1);
	else
		unsetenv("SUNPRO_DEPENDENCIES");
	env_set = false;
}

void q7_objcache_free(struct q7_objcache *c)
{
	free(c->entry);
	free(c->dep);
	q7_sb_free(&c->key);
	memset(c, 0, sizeof *c);
}
