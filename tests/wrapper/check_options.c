/* The option tables (sorted, lookups, and every option the suites use is
 * in them), warning spellings, what analysis gets of a command line, @file
 * response files, input kinds, and the parsers of the real compiler's
 * -E -v and -dM output. */
#include "cmdline.h"
#include "options.h"
#include "toolchain.h"
#include "sysinfo.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void check_sorted(const struct q7_option *t, size_t n)
{
	for (size_t i = 1; i < n; i++)
		ck_assert_msg(strcmp(t[i - 1].name, t[i].name) < 0, "table not sorted at %s / %s",
		              t[i - 1].name, t[i].name);
}

START_TEST(test_table_sorted)
{
	size_t n;
	const struct q7_option *t = q7_option_table(&n);
	ck_assert_uint_gt(n, 50);
	check_sorted(t, n);
	t = q7_ld_word_table(&n);
	ck_assert_uint_gt(n, 50);
	check_sorted(t, n);
	/* ld words carry a stage, nothing else the driver reads. */
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(t[i].flags & (Q7_OPT_LD_RESOLVE | Q7_OPT_LD_IMAGE), "%s", t[i].name);
}
END_TEST

/* The option q7_option_find gives for arg: its name, or NULL; and the
 * argument glued on. */
static void expect(const char *arg, const char *name, const char *value)
{
	const char *v = "unset";
	const struct q7_option *o = q7_option_find(arg, &v);
	if (!name) {
		ck_assert_msg(!o, "%s: found %s", arg, o ? o->name : "");
		return;
	}
	ck_assert_msg(o && strcmp(o->name, name) == 0, "%s: found %s, want %s", arg,
	              o ? o->name : "nothing", name);
	if (value)
		ck_assert_msg(v && strcmp(v, value) == 0, "%s: value %s, want %s", arg,
		              v ? v : "NULL", value);
	else
		ck_assert_msg(!v, "%s: value %s, want none", arg, v);
}

START_TEST(test_lookup)
{
	expect("-Wl,-soname,x", "-Wl,", "-soname,x");
	expect("-Wall", "-W", "all");
	expect("-include-pch", "-include-pch", NULL);
	expect("-includefoo.h", "-include", "foo.h");
	expect("-I", "-I", NULL); /* the next word */
	expect("-O", "-O", "");
	expect("-stdlib=libc++-e", "-stdlib=", "libc++-e");
	expect("-std=c++17", "-std=", "c++17");
	expect("-print-file-name=libc.a", "-print-", "file-name=libc.a");
	expect("--output=o.o", "--output", "o.o");
	expect("--output=", "--output", "");
	expect("--output", "--output", NULL);
	expect("--help", "--help", NULL);
	expect("--help=warnings", "--help", "warnings");
	expect("-fdiagnostics-color=always", "-fdiagnostics-color", "always");
	expect("-fPIC", "-f", "PIC"); /* forwarded: a code generation flag */
	expect("-flto=auto", "-flto", "=auto");
	expect("-mtext-section-literals", "-mtext-section-literals", NULL);
	expect("--q7-toolchain=gnu", "--q7-toolchain=", "gnu");
	expect("--no-such-option", NULL, NULL);
	expect("--versionx", NULL, NULL);
	expect("--output-x", NULL, NULL);
	const char *v;
	ck_assert(q7_option_find("--q7-toolchain=gnu", &v)->flags & Q7_OPT_Q7);
	ck_assert_int_eq(q7_option_find("--version", &v)->id, Q7_ID_VERSION);
	ck_assert(q7_option_find("-include-pch", &v)->flags == Q7_OPT_SEP); /* not for libclang */
	/* ld's words: their own namespace (-E, -x, -S mean something else). */
	ck_assert(q7_ld_word_find("-E", &v)->flags & Q7_OPT_LD_IMAGE);
	ck_assert_str_eq(q7_ld_word_find("-Map=a.map", &v)->name, "-Map");
	ck_assert_str_eq(v, "a.map");
	ck_assert_str_eq(q7_ld_word_find("--defsym=a=b", &v)->name, "--defsym");
	ck_assert_str_eq(v, "a=b");
	ck_assert_ptr_null(q7_ld_word_find("--wrap=malloc", &v));
	ck_assert_ptr_null(q7_ld_word_find("-fPIC", &v));
}
END_TEST

START_TEST(test_wflags)
{
	static const struct {
		const char *arg;
		int kind;
		bool no, error, q7;
		const char *name;
	} cases[] = {
		{"-w", Q7_W_NONE, false, false, false, NULL},
		{"-Werror", Q7_W_ERRORS, false, false, false, NULL},
		{"-Wno-error", Q7_W_NO_ERRORS, false, false, false, NULL},
		{"-Wall", Q7_W_NAME, false, false, false, "all"},
		{"-Wq7-inline", Q7_W_NAME, false, false, true, "q7-inline"},
		{"-Wno-q7-inline", Q7_W_NAME, true, false, true, "q7-inline"},
		{"-Werror=q7-inline", Q7_W_NAME, false, true, true, "q7-inline"},
		{"-Wno-error=q7-inline", Q7_W_NAME, true, true, true, "q7-inline"},
		{"-Werror=unused", Q7_W_NAME, false, true, false, "unused"},
		{"-Wq7", Q7_W_NAME, false, false, false, "q7"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct q7_wflag w;
		q7_wflag_parse(cases[i].arg, &w);
		ck_assert_msg((int)w.kind == cases[i].kind && w.no == cases[i].no &&
		                  w.error == cases[i].error && w.q7 == cases[i].q7,
		              "%s", cases[i].arg);
		if (cases[i].name)
			ck_assert_str_eq(w.name, cases[i].name);
	}
}
END_TEST

/* What analysis's libclang gets of a compile line: the flags that shape
 * the parse (Q7_OPT_PARSE), in place, with the toolchain's own; never the
 * GCC-only ones, the dependency output, -o, -c or -x. */
START_TEST(test_analysis_args)
{
	static const struct {
		const char *argv[24];
		const char *want;
	} cases[] = {
		{{"-mlongcalls", "-mcoproc", "-fno-jump-tables", "-Os", "-fpic", "-MMD", "-MP", "-MF",
		  "k.d", "-c", "-o", "k.o", "-stdlib=libc++-e", "-D", "Q7_TEST_FLAG=1", "-Werror",
		  "k.cpp", NULL},
		 "-std=c++14 -Os -D Q7_TEST_FLAG=1 -I/q7/include"},
		{{"-x", "c++", "k.cu", "-isystem", "/s", "-Ia", "-iquote", "q", "-std=gnu++17",
		  "-include", "pre.h", "-include-pch", "pre.pch", "-undef", "-Wp,-DX", "-fexceptions",
		  "-funsigned-char", "-pthread", "--define-macro=Y", "-DZ", "-c", NULL},
		 "-std=c++14 -std=gnu++17 -include pre.h -fexceptions -funsigned-char -pthread "
		 "--define-macro=Y -DZ -isystem /s -Ia -iquote q -I/q7/include"},
	};
	struct q7_toolchain p = {.kind = Q7_TOOLCHAIN_GNU, .name = "gnu", .cxx = (char *)"g++",
	                       .q7_include = (char *)"/q7/include"};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t n = 0;
		while (cases[i].argv[n])
			n++;
		struct q7_inv inv;
		ck_assert_int_eq(q7_inv_parse(&inv, (char **)cases[i].argv, n), 0);
		struct q7_strvec args = {0};
		q7_cmd_analysis_args(&p, &inv, &args);
		char *got = q7_shell_join(args.v);
		ck_assert_str_eq(got, cases[i].want);
		free(got);
		q7_sv_free(&args);
		q7_inv_free(&inv);
	}
}
END_TEST

/* ---- every option the suites use is in the tables ------------------------ */

/* Spellings the suites use to check what happens to an option q7cc does
 * not know: forwarded untouched; the split link's fallback. */
static const char *const unknown_on_purpose[] = {"--weird-option", "--wrap=malloc",
                                                 "--wrap=nothing", NULL};

static bool on_purpose(const char *w)
{
	for (size_t i = 0; unknown_on_purpose[i]; i++)
		if (strcmp(w, unknown_on_purpose[i]) == 0)
			return true;
	return false;
}

static void missing(struct q7_strvec *out, const char *where, const char *what, const char *w)
{
	if (!on_purpose(w))
		q7_sv_addf(out, "%s: %s %s", where, what, w);
}

/* The words of one -Wl, (or -Xlinker) in ld's table. */
static void check_ld_words(const char *where, const char *list, struct q7_strvec *out)
{
	char *copy = q7_xstrdup(list);
	bool skip = false;
	for (char *save = NULL, *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (skip || w[0] != '-') { /* an argument, or an input */
			skip = false;
			continue;
		}
		const char *v;
		const struct q7_option *o = q7_ld_word_find(w, &v);
		if (!o)
			missing(out, where, "linker word", w);
		skip = o && !v && (o->flags & Q7_OPT_SEP);
	}
	free(copy);
}

/* One q7cc command line (without q7cc itself). */
static void check_words(const char *where, char **w, size_t n, struct q7_strvec *out)
{
	for (size_t i = 0; i < n; i++) {
		if (w[i][0] != '-' || !w[i][1])
			continue; /* an input, "-", or a shell variable */
		if (strcmp(w[i], "--") == 0)
			return;
		const char *v;
		const struct q7_option *o = q7_option_find(w[i], &v);
		if (!o) {
			missing(out, where, "option", w[i]);
			continue;
		}
		if (strcmp(o->name, "-Wl,") == 0)
			check_ld_words(where, v, out);
		if (!v && (o->flags & Q7_OPT_SEP) && i + 1 < n) {
			if (strcmp(o->name, "-Xlinker") == 0)
				check_ld_words(where, w[i + 1], out);
			i++;
		}
	}
}

/* The argv arrays of argv_cases.h: lines " {"...", ..., NULL},". */
static void scan_argv_cases(const char *path, struct q7_strvec *out, size_t *lines)
{
	char *text = q7_read_file(path, NULL);
	ck_assert_msg(text, "%s", path);
	char *save = NULL;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (!strstr(l, "NULL}") || !strstr(l, "{\""))
			continue;
		struct q7_strvec words = {0};
		for (const char *p = strstr(l, "{\""); (p = strchr(p, '"'));) {
			struct q7_strbuf b = {0};
			q7_sb_add(&b, "");
			for (p++; *p && *p != '"'; p++)
				q7_sb_addc(&b, *p == '\\' && p[1] ? *++p : *p);
			q7_sv_add(&words, b.s);
			q7_sb_free(&b);
			p += *p == '"';
		}
		check_words(path, words.v, words.n, out);
		q7_sv_free(&words);
		++*lines;
	}
	free(text);
}

/* A shell line's words, quotes removed; $( and ) and operators split. */
static void shell_words(const char *l, struct q7_strvec *out)
{
	struct q7_strbuf b = {0};
	bool in = false;
	char q = 0;
	for (const char *p = l;; p++) {
		bool end = !*p || (!q && (*p == ' ' || *p == '\t' || *p == ')' || *p == '|' ||
		                          *p == ';' || *p == '&' || *p == '>' || *p == '<'));
		if (!end && !q && p[0] == '$' && p[1] == '(') {
			end = true;
			p++;
		}
		if (end) {
			if (in)
				q7_sv_add(out, b.s ? b.s : "");
			q7_sb_free(&b);
			in = false;
			if (*p && *p != ' ' && *p != '\t' && *p != '(')
				q7_sv_add(out, "|"); /* an operator: the command ends */
			if (!*p)
				return;
			continue;
		}
		in = true;
		if (q && *p == q)
			q = 0;
		else if (!q && (*p == '"' || *p == '\''))
			q = *p;
		else if (*p == '\\' && p[1] && q != '\'')
			q7_sb_addc(&b, *++p);
		else
			q7_sb_addc(&b, *p);
	}
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n >= t && strcmp(s + n - t, tail) == 0;
}

/* The q7cc command lines of a shell script: the words after q7cc (named
 * by a path or variable ending in q7cc, $Q7CC, or xt-clang++), to the end
 * of the command. Continued lines are joined. */
static void scan_shell(const char *path, struct q7_strvec *out, size_t *lines)
{
	char *text = q7_read_file(path, NULL);
	ck_assert_msg(text, "%s", path);
	struct q7_strbuf line = {0};
	for (char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		bool more = n && p[n - 1] == '\\';
		q7_sb_addn(&line, p, more ? n - 1 : n);
		p += n + (p[n] == '\n');
		if (more && *p)
			continue;
		struct q7_strvec w = {0};
		shell_words(line.s ? line.s : "", &w);
		for (size_t i = 0; i < w.n; i++) {
			const char *c = w.v[i];
			if (strchr(c, '=') || !(ends_with(c, "/q7cc") || strcmp(c, "$q7cc") == 0 ||
			                        strcmp(c, "$Q7CC") == 0 || ends_with(c, "xt-clang++")))
				continue;
			size_t e = i + 1;
			while (e < w.n && strcmp(w.v[e], "|") != 0)
				e++;
			/* q7cc --q7-run ...: another tool's line (main.c). */
			bool tool = e > i + 1 && (strcmp(w.v[i + 1], "--q7-pkg-loadlib") == 0 ||
			                          strcmp(w.v[i + 1], "--q7-run") == 0 ||
			                          strcmp(w.v[i + 1], "--q7-prelink") == 0 ||
			                          strcmp(w.v[i + 1], "--q7-memory-map") == 0);
			if (!tool) {
				check_words(path, w.v + i + 1, e - i - 1, out);
				++*lines;
			}
			i = e;
		}
		q7_sv_free(&w);
		q7_sb_free(&line);
	}
	free(text);
}

START_TEST(test_suites_options)
{
	struct q7_strvec out = {0};
	size_t lines = 0;
	scan_argv_cases(Q7_SOURCE_DIR "/tests/wrapper/argv_cases.h", &out, &lines);
	ck_assert_uint_ge(lines, 60);
	size_t cases = lines;
	static const char *const dirs[] = {"wrapper", "e2e", "analysis", "packer", "runtime",
	                                   "valgrind", "lsp", "codegen", NULL};
	for (size_t d = 0; dirs[d]; d++) {
		char *dir = q7_xasprintf("%s/tests/%s", Q7_SOURCE_DIR, dirs[d]);
		DIR *dp = opendir(dir);
		ck_assert_msg(dp, "%s", dir);
		for (struct dirent *e; (e = readdir(dp));) {
			if (!ends_with(e->d_name, ".sh"))
				continue;
			char *f = q7_path_join(dir, e->d_name);
			scan_shell(f, &out, &lines);
			free(f);
		}
		closedir(dp);
		free(dir);
	}
	/* behaviour.sh alone has dozens of q7cc lines. */
	ck_assert_uint_ge(lines - cases, 60);
	struct q7_strbuf msg = {0};
	for (size_t i = 0; i < out.n; i++)
		q7_sb_addf(&msg, "\n  %s", out.v[i]);
	ck_assert_msg(out.n == 0, "not in the option tables:%s", msg.s);
	q7_sb_free(&msg);
	q7_sv_free(&out);
}
END_TEST

static char *write_tmp(const char *text)
{
	char *path = q7_xstrdup("/tmp/q7cc-test-rsp.XXXXXX");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

START_TEST(test_response_files)
{
	char *inner = write_tmp("-DINNER 'it''s'\n");
	char *text = q7_xasprintf("-c \"a b.cpp\" -o 'o $x.o'\n-DQ=\\\"q\\\" @%s \"\"", inner);
	char *outer = write_tmp(text);
	char *at = q7_xasprintf("@%s", outer);
	char *argv[] = {"-O2", at, "@/nonexistent/file", NULL};
	struct q7_strvec out = {0};
	q7_expand_response_files(3, argv, &out);
	const char *want[] = {"-O2", "-c", "a b.cpp", "-o", "o $x.o", "-DQ=\"q\"", "-DINNER",
	                      "its", "", "@/nonexistent/file"};
	ck_assert_uint_eq(out.n, sizeof want / sizeof want[0]);
	for (size_t i = 0; i < out.n; i++)
		ck_assert_str_eq(out.v[i], want[i]);
	q7_sv_free(&out);
	unlink(inner);
	unlink(outer);
	free(inner);
	free(outer);
	free(text);
	free(at);
}
END_TEST

START_TEST(test_units)
{
	char *argv[] = {"-I", "inc", "-DX", "-x", "c++", "k.cu", "-x", "none", "b.o",
	                "-Wl,-z,now", "-o", "out", "-c", NULL};
	struct q7_inv inv;
	ck_assert_int_eq(q7_inv_parse(&inv, argv, 13), 0);
	ck_assert_int_eq(inv.mode, Q7_MODE_COMPILE);
	ck_assert_uint_eq(inv.n, 9);
	ck_assert_int_eq(inv.u[0].ntok, 2);
	ck_assert_str_eq(inv.u[0].value, "inc");
	ck_assert_str_eq(inv.u[1].value, "X");
	ck_assert_int_eq(inv.u[3].input, Q7_IN_CXX);  /* k.cu under -x c++ */
	ck_assert_int_eq(inv.u[5].input, Q7_IN_LINK); /* b.o after -x none */
	ck_assert_str_eq(inv.output, "out");
	ck_assert_uint_eq(inv.nsources, 1);
	q7_inv_free(&inv);
}
END_TEST

START_TEST(test_flags_of_invocation)
{
	char *argv[] = {"-shared", "-g", "--q7-multicore", "--q7-kernel=a", "--q7-kernel=b,ns::c",
	                "-fno-color-diagnostics", "x.o", "-###", "-v", NULL};
	struct q7_inv inv;
	ck_assert_int_eq(q7_inv_parse(&inv, argv, 9), 0);
	ck_assert_int_eq(inv.mode, Q7_MODE_LINK_SHARED);
	ck_assert(inv.debug && inv.multicore && inv.dry_run && inv.verbose);
	ck_assert_int_eq(inv.color, 0);
	ck_assert_uint_eq(inv.kernels.n, 3);
	ck_assert_str_eq(inv.kernels.v[2], "ns::c");
	q7_inv_free(&inv);
	char *empty[] = {"-c", "a.cpp", "--q7-kernel=a,", NULL};
	ck_assert_int_eq(q7_inv_parse(&inv, empty, 3), Q7_EXIT_USAGE);
	q7_inv_free(&inv);
	char *color[] = {"-fdiagnostics-color=always", "-c", "a.cpp", NULL};
	ck_assert_int_eq(q7_inv_parse(&inv, color, 3), 0);
	ck_assert_int_eq(inv.color, 1);
	q7_inv_free(&inv);
	char *argv2[] = {"-g0", "x.o", "--q7-format=yaml", NULL};
	ck_assert_int_eq(q7_inv_parse(&inv, argv2, 3), Q7_EXIT_USAGE);
	q7_inv_free(&inv);
	char *argv3[] = {"-g", "-g0", "x.o", NULL};
	ck_assert_int_eq(q7_inv_parse(&inv, argv3, 3), 0);
	ck_assert(!inv.debug);
	ck_assert_int_eq(inv.mode, Q7_MODE_LINK_EXE);
	q7_inv_free(&inv);
}
END_TEST

START_TEST(test_input_kinds)
{
	ck_assert_int_eq(q7_input_kind_of("a/b.cpp"), Q7_IN_CXX);
	ck_assert_int_eq(q7_input_kind_of("b.cc"), Q7_IN_CXX);
	ck_assert_int_eq(q7_input_kind_of("b.C"), Q7_IN_CXX);
	ck_assert_int_eq(q7_input_kind_of("b.c"), Q7_IN_C);
	ck_assert_int_eq(q7_input_kind_of("b.S"), Q7_IN_OTHER_SRC);
	ck_assert_int_eq(q7_input_kind_of("libx.a"), Q7_IN_LINK);
	ck_assert_int_eq(q7_input_kind_of("x.o"), Q7_IN_LINK);
	ck_assert_int_eq(q7_input_kind_of("dir.d/noext"), Q7_IN_LINK);
	/* Preprocessed C++: q7cc -E's records travel in it. */
	ck_assert_int_eq(q7_input_kind_of("/tmp/distccd_x.ii"), Q7_IN_CXX_PP);
	ck_assert_int_eq(q7_input_kind_of("k.i"), Q7_IN_C); /* preprocessed C: the C compiler */
	/* -x and standard input. */
	char *argv[] = {"-c", "-x", "c++-cpp-output", "k.txt", "-", "-x", "c++", "-", "-x",
	                "none", "-", "k.ii", NULL};
	struct q7_inv inv;
	ck_assert_int_eq(q7_inv_parse(&inv, argv, 12), 0);
	ck_assert_int_eq(inv.u[2].input, Q7_IN_CXX_PP);
	ck_assert_int_eq(inv.u[3].input, Q7_IN_CXX_PP);
	ck_assert_int_eq(inv.u[5].input, Q7_IN_CXX);
	ck_assert_int_eq(inv.u[7].input, Q7_IN_OTHER_SRC); /* "-" needs -x, as in gcc */
	ck_assert_int_eq(inv.u[8].input, Q7_IN_CXX_PP);
	q7_inv_free(&inv);
	/* C by -x, preprocessed or not; the other languages are compiled only. */
	char *c[] = {"-c", "-x", "c", "h.txt", "-x", "cpp-output", "h.pre", "-x", "assembler", "a.c",
	             NULL};
	ck_assert_int_eq(q7_inv_parse(&inv, c, 10), 0);
	ck_assert_int_eq(inv.u[2].input, Q7_IN_C);
	ck_assert_int_eq(inv.u[4].input, Q7_IN_C);
	ck_assert_int_eq(inv.u[6].input, Q7_IN_OTHER_SRC);
	q7_inv_free(&inv);
	/* icecream's remote compile: -fpreprocessed makes C++ input preprocessed. */
	char *ice[] = {"-x", "c++", "-O2", "-fpreprocessed", "-pipe", "-", "-o", "k.o", "-c", NULL};
	ck_assert_int_eq(q7_inv_parse(&inv, ice, 9), 0);
	ck_assert_int_eq(inv.u[4].input, Q7_IN_CXX_PP);
	q7_inv_free(&inv);
}
END_TEST

START_TEST(test_sysinfo_includes)
{
	const char *text =
		"ignoring nonexistent directory \"/x\"\n"
		"#include \"...\" search starts here:\n"
		" /quote/only\n"
		"#include <...> search starts here:\n"
		" /usr/lib/gcc/xtensa-lx106-elf/12.2.0/include\n"
		" /usr/lib/xtensa-lx106-elf/include\n"
		" /Library/Frameworks (framework directory)\n"
		"End of search list.\n"
		" /after/end\n";
	struct q7_strvec v = {0};
	q7_sysinfo_parse_includes(text, &v);
	ck_assert_uint_eq(v.n, 3);
	ck_assert_str_eq(v.v[0], "/usr/lib/gcc/xtensa-lx106-elf/12.2.0/include");
	ck_assert_str_eq(v.v[2], "/Library/Frameworks");
	q7_sv_free(&v);
}
END_TEST

START_TEST(test_sysinfo_macros)
{
	const char *text = "#define __xtensa__ 1\n#define __SIZEOF_LONG__ 4\n"
	                   "#define __cplusplus 201402L\n#define __cpp_rtti 199711L\n"
	                   "#define F(a, b) ((a) + (b))\n#define EMPTY\n";
	struct q7_strvec v = {0};
	q7_sysinfo_parse_macros(text, &v);
	ck_assert_uint_eq(v.n, 4);
	ck_assert_str_eq(v.v[0], "__xtensa__=1");
	ck_assert_str_eq(v.v[1], "__SIZEOF_LONG__=4");
	ck_assert_str_eq(v.v[2], "F(a, b)=((a) + (b))");
	ck_assert_str_eq(v.v[3], "EMPTY=");
	q7_sv_free(&v);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("wrapper_options");
	TCase *t = tcase_create("core");
	tcase_add_test(t, test_table_sorted);
	tcase_add_test(t, test_lookup);
	tcase_add_test(t, test_wflags);
	tcase_add_test(t, test_analysis_args);
	tcase_add_test(t, test_suites_options);
	tcase_add_test(t, test_response_files);
	tcase_add_test(t, test_units);
	tcase_add_test(t, test_flags_of_invocation);
	tcase_add_test(t, test_input_kinds);
	tcase_add_test(t, test_sysinfo_includes);
	tcase_add_test(t, test_sysinfo_macros);
	suite_add_tcase(s, t);
	SRunner *r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? 1 : 0;
}
