/* unit.editor: q7cc-clangd's pieces that need no clangd: the LSP framing,
 * compile commands split and turned into the lint's command line, LSP
 * positions (UTF-16) in the editor's text, q7cc's JSON turned into LSP
 * diagnostics and kernels, and the quick fixes' edits. */
#include "ccdb.h"
#include "fix.h"
#include "lint.h"
#include "lintcmd.h"
#include "rpc.h"
#include "text.h"

#include <check.h>
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *joined(const struct q7_strvec *v)
{
	struct q7_strbuf b = {0};
	for (size_t i = 0; i < v->n; i++)
		q7_sb_addf(&b, "%s[%s]", i ? " " : "", v->v[i]);
	return q7_sb_take(&b);
}

START_TEST(shell_split)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
	    {"g++ -c a.cpp", "[g++] [-c] [a.cpp]"},
	    {"  g++\t-DX='a b'  ", "[g++] [-DX=a b]"},
	    {"cc -DS=\"say \\\"hi\\\" \\\\ $\" x", "[cc] [-DS=say \"hi\" \\ $] [x]"},
	    {"cc -I/a\\ b ''", "[cc] [-I/a b] []"},
	    {"cc \"-DA=\"'1'", "[cc] [-DA=1]"},
	    {"", ""},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct q7_strvec v = {0};
		q7_shell_split(cases[i].in, &v);
		char *got = joined(&v);
		ck_assert_msg(strcmp(got, cases[i].out) == 0, "%s: got %s", cases[i].in, got);
		free(got);
		q7_sv_free(&v);
	}
}
END_TEST

START_TEST(lint_argv)
{
	/* The entry names the file as src/k.cpp from the project's folder, the
	 * command as ../src/k.cpp from the build folder: the same file. */
	char root[] = "/tmp/q7-check-editor-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(root));
	char *b = q7_path_join(root, "b"), *src = q7_path_join(root, "src"),
	     *k = q7_path_join(src, "k.cpp");
	ck_assert(mkdir(b, 0700) == 0 && mkdir(src, 0700) == 0);
	FILE *f = fopen(k, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	struct q7_ccmd c = {0};
	q7_shell_split("/p/bin/q7cc-gnu -O2 -DN=1 -MD -MT k.o -MF k.d -c ../src/k.cpp -o k.o "
	               "-Iinc -ofoo.o",
	               &c.argv);
	c.dir = b;
	c.file = k;
	ck_assert(q7_ccmd_is_q7cc(&c));
	struct q7_strvec out = {0};
	q7_lintcmd_argv(&c, "/own/bin/q7cc", "--q7-lint", "/src", "/tmp/t/k.cpp", &out);
	char *got = joined(&out);
	ck_assert_str_eq(got, "[/own/bin/q7cc] [--q7-toolchain=gnu] [--q7-lint] [--q7-format=json] "
	                      "[-O2] [-DN=1] [-Iinc] [-iquote] [/src] [/tmp/t/k.cpp]");
	free(got);
	q7_sv_free(&out);
	q7_sv_free(&c.argv);
	q7_shell_split("/usr/bin/g++ -c k.cpp", &c.argv);
	ck_assert(!q7_ccmd_is_q7cc(&c));
	q7_sv_free(&c.argv);
	/* xt-clang++ is q7cc when it is a link to the q7cc executable. */
	char *q7 = q7_path_join(b, "q7cc"), *xt = q7_path_join(b, "xt-clang++");
	f = fopen(q7, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	ck_assert_int_eq(symlink("q7cc", xt), 0);
	q7_shell_split("./xt-clang++ -c ../src/k.cpp", &c.argv);
	ck_assert(q7_ccmd_is_q7cc(&c));
	unlink(xt);
	f = fopen(xt, "w"); /* the vendor's own */
	ck_assert_ptr_nonnull(f);
	fclose(f);
	ck_assert(!q7_ccmd_is_q7cc(&c));
	q7_sv_free(&c.argv);
	unlink(xt);
	unlink(q7);
	free(xt);
	free(q7);
	unlink(k);
	rmdir(src);
	rmdir(b);
	rmdir(root);
	free(k);
	free(src);
	free(b);
}
END_TEST

/* The project's flags that reach q7cc: those that shape the parse and the
 * lint, never a program, a plugin, a mode or an output (lintcmd.h). */
START_TEST(lint_flags)
{
	static const struct {
		const char *command, *kept;
	} cases[] = {
	    {"./q7cc-pwn -c k.cpp", ""},
	    {"q7cc-host-g++ -c k.cpp", "[--q7-toolchain=host]"},
	    {"q7cc-evil -fplugin=./p.so -fpass-plugin=./p.so -Xclang -load -Xclang ./p.so -c k.cpp",
	     ""},
	    {"q7cc -B ./bin -B./bin -wrapper ./w -specs=./s -no-integrated-as -fuse-ld=./ld k.cpp",
	     ""},
	    {"q7cc @flags.rsp -E -M -S --version --help -### -v -print-prog-name=cc1 -dumpspecs k.cpp",
	     ""},
	    {"q7cc --q7-pack --q7-emit-wrapper=/etc/x --q7-format=text --q7-toolchain=../x "
	     "--q7-lint --q7-print-schema --q7-help k.cpp",
	     ""},
	    {"q7cc -Wl,-plugin,./p.so -Wp,-load -Wa,x -W -Xlinker x -mllvm -load=./p.so -x c k.cpp",
	     ""},
	    {"q7cc -D -E -I -fplugin=x.so -I", ""},
	    {"q7cc -include-pch p.pch -DA", "[-DA]"},
	    {"q7cc --q7-toolchain=xt --q7-kernel=f --q7-multicore -Werror -Wno-q7-inline -w k.cpp",
	     "[--q7-toolchain=xt] [--q7-kernel=f] [--q7-multicore] [-Werror] [-Wno-q7-inline] [-w]"},
	    {"q7cc -D X=1 -DY -U Z -I inc -Iinc2 -isystem /s -iquote q -include pre.h -imacros m.h "
	     "--sysroot=/r -std=c++17 -O -Os -fno-rtti -fms-extensions -pthread -x c++ -xc++ k.cpp",
	     "[-D] [X=1] [-DY] [-U] [Z] [-I] [inc] [-Iinc2] [-isystem] [/s] [-iquote] [q] "
	     "[-include] [pre.h] [-imacros] [m.h] [--sysroot=/r] [-std=c++17] [-O] [-Os] "
	     "[-fno-rtti] [-fms-extensions] [-pthread] [-x] [c++] [-xc++]"},
	    {"q7cc -o -DX -MF -Ifoo -c k.cpp -DZ", "[-DZ]"},
	    /* read by the driver's own table (model/options.h): every option
	     * that takes the next word leaves with it, -MJ and -mllvm too */
	    {"q7cc -MJ -DX -mllvm -DY -MQ -DZ -T -DW -dumpdir -DV -c k.cpp -DU", "[-DU]"},
	    {"q7cc --language c++ --language=c -Wno-c99-designator k.cpp", "[--language] [c++]"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct q7_ccmd c = {.dir = "/p", .file = "k.cpp"};
		q7_shell_split(cases[i].command, &c.argv);
		struct q7_strvec out = {0};
		q7_lintcmd_argv(&c, "/own/bin/q7cc", "--q7-lint", "/src", "/t/k.cpp", &out);
		ck_assert_str_eq(out.v[0], "/own/bin/q7cc");
		/* The toolchain of the name, and what the project's command gave
		 * between ours. */
		bool named = strncmp(out.v[1], "--q7-toolchain=", 15) == 0;
		ck_assert_str_eq(out.v[named + 1], "--q7-lint");
		ck_assert_str_eq(out.v[named + 2], "--q7-format=json");
		struct q7_strvec mid = {0};
		if (named)
			q7_sv_add(&mid, out.v[1]);
		for (size_t k = named + 3; k + 3 < out.n; k++)
			q7_sv_add(&mid, out.v[k]);
		char *got = joined(&mid);
		ck_assert_msg(strcmp(got, cases[i].kept) == 0, "%s: got %s", cases[i].command, got);
		ck_assert_str_eq(out.v[out.n - 1], "/t/k.cpp");
		free(got);
		q7_sv_free(&mid);
		q7_sv_free(&out);
		q7_sv_free(&c.argv);
	}
}
END_TEST

static void write_text_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* Found as clangd finds it (here in a build/ folder above the file), read
 * again when the file changes, and a database without the file ends the
 * search. */
START_TEST(ccdb_find)
{
	char root[] = "/tmp/q7-check-ccdb-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(root));
	char *src = q7_path_join(root, "src"), *build = q7_path_join(root, "build");
	char *k = q7_path_join(src, "k.cpp"), *db = q7_path_join(build, "compile_commands.json");
	ck_assert(mkdir(src, 0700) == 0 && mkdir(build, 0700) == 0);
	write_text_file(k, "");
	char *json = q7_xasprintf("[{\"directory\": \"%s\", \"file\": \"../src/k.cpp\", "
	                          "\"arguments\": [\"/opt/q7/bin/q7cc-gnu\", \"-DX=1\", \"-c\", "
	                          "\"../src/k.cpp\"]}]",
	                          build);
	write_text_file(db, json);
	free(json);
	struct q7_ccmd c;
	ck_assert(q7_ccdb_find(k, NULL, &c));
	ck_assert(q7_ccmd_is_q7cc(&c));
	ck_assert_str_eq(c.argv.v[1], "-DX=1");
	ck_assert_str_eq(c.dir, build);
	q7_ccmd_free(&c);
	json = q7_xasprintf("[{\"directory\": \"%s\", \"file\": \"%s\", \"command\": "
	                    "\"/usr/bin/g++ -c '%s'\"}]",
	                    build, k, k);
	write_text_file(db, json);
	free(json);
	ck_assert(q7_ccdb_find(k, NULL, &c));
	ck_assert(!q7_ccmd_is_q7cc(&c));
	ck_assert_str_eq(c.argv.v[2], k);
	q7_ccmd_free(&c);
	write_text_file(db, "[]");
	ck_assert(!q7_ccdb_find(k, NULL, &c));
	ck_assert(!q7_ccdb_find(k, src, &c)); /* --compile-commands-dir: that folder only */
	q7_ccdb_forget();
	unlink(db);
	unlink(k);
	rmdir(src);
	rmdir(build);
	rmdir(root);
	free(db);
	free(k);
	free(build);
	free(src);
}
END_TEST

/* The CMake target of a compile, by its output's path. */
START_TEST(ccmd_target)
{
	static const struct {
		const char *cmd, *target;
	} cases[] = {
	    {"q7cc -c k.cpp -o CMakeFiles/myops.dir/src/k.cpp.o", "myops"},
	    {"q7cc -oops/CMakeFiles/my_ops.dir/k.cpp.o -c k.cpp", "my_ops"},
	    {"q7cc -c k.cpp -o /b/CMakeFiles/a.dir/x/CMakeFiles/b.dir/k.o", "b"},
	    {"q7cc -c k.cpp -o k.o", NULL},
	    {"q7cc -c k.cpp -o NotCMakeFiles/x.dir/k.o", NULL},
	    {"q7cc -c k.cpp -o CMakeFiles/.dir/k.o", NULL},
	    {"q7cc -c k.cpp", NULL},
	    {"q7cc -c k.cpp -o", NULL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct q7_ccmd c = {0};
		q7_shell_split(cases[i].cmd, &c.argv);
		char *t = q7_ccmd_target(&c);
		ck_assert_msg(cases[i].target ? t && strcmp(t, cases[i].target) == 0 : !t, "%s: %s",
		              cases[i].cmd, t ? t : "(none)");
		free(t);
		q7_ccmd_free(&c);
	}
}
END_TEST

/* Which texts include a header by its name (a saved header's includers). */
START_TEST(includes)
{
	const char *t = "// #include \"c.h\"\n  #  include <q7/k.h>\n#include \"../b.hpp\" // x\n"
	                "#include \"xk.h\"\n#include \"d.h";
	size_t len = strlen(t);
	ck_assert(q7_text_includes(t, len, "k.h"));
	ck_assert(q7_text_includes(t, len, "b.hpp"));
	ck_assert(q7_text_includes(t, len, "xk.h"));
	ck_assert(!q7_text_includes(t, len, "c.h")); /* in a comment */
	ck_assert(!q7_text_includes(t, len, "d.h")); /* not closed */
	ck_assert(!q7_text_includes(t, len, "b.h"));
	ck_assert(!q7_text_includes(t, len, ""));
}
END_TEST

/* A database is used only when it and its folder are the editor's user's
 * or root's and writable by no other user but in a sticky folder (a
 * shared /tmp); many entries of one name are told apart by folder. */
START_TEST(ccdb_trust)
{
	char root[] = "/tmp/q7-check-trust-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(root));
	ck_assert_int_eq(chmod(root, 01777), 0);
	char *p = q7_path_join(root, "p"), *k = q7_path_join(p, "k.cpp");
	char *db = q7_path_join(root, "compile_commands.json");
	ck_assert_int_eq(mkdir(p, 0755), 0);
	write_text_file(k, "");
	struct q7_strbuf j = {0};
	q7_sb_add(&j, "[");
	for (int i = 0; i < 3000; i++) /* the same name in other folders */
		q7_sb_addf(&j, "{\"directory\": \"%s/d%d\", \"file\": \"k.cpp\", \"command\": "
		           "\"q7cc -DN=%d -c k.cpp\"},", root, i, i);
	q7_sb_addf(&j, "{\"directory\": \"%s\", \"file\": \"p/k.cpp\", \"command\": "
	           "\"q7cc -DN=mine -c p/k.cpp\"}]", root);
	write_text_file(db, j.s);
	q7_sb_free(&j);
	ck_assert_int_eq(chmod(db, 0644), 0);
	struct q7_ccmd c;
	ck_assert(q7_ccdb_find(k, NULL, &c)); /* root's, in a sticky folder */
	ck_assert_str_eq(c.argv.v[1], "-DN=mine");
	q7_ccmd_free(&c);
	ck_assert_int_eq(chown(db, 65534, 65534), 0); /* another user's in /tmp */
	ck_assert(!q7_ccdb_find(k, NULL, &c));
	ck_assert_int_eq(chown(db, 0, 0), 0);
	ck_assert_int_eq(chmod(db, 0666), 0); /* anyone may write it */
	ck_assert(!q7_ccdb_find(k, NULL, &c));
	ck_assert_int_eq(chmod(db, 0644), 0);
	ck_assert_int_eq(chmod(root, 0777), 0); /* anyone may replace it */
	ck_assert(!q7_ccdb_find(k, NULL, &c));
	ck_assert_int_eq(chmod(root, 0755), 0);
	ck_assert_int_eq(chown(root, 65534, 65534), 0); /* in another user's folder */
	ck_assert(!q7_ccdb_find(k, NULL, &c));
	ck_assert_int_eq(chown(root, 0, 0), 0);
	ck_assert(q7_ccdb_find(k, NULL, &c));
	q7_ccmd_free(&c);
	q7_ccdb_forget();
	unlink(db);
	unlink(k);
	rmdir(p);
	rmdir(root);
	free(db);
	free(k);
	free(p);
}
END_TEST

START_TEST(positions)
{
	/* "ü" is 2 bytes, 1 UTF-16 unit; the emoji 4 bytes, 2 units. */
	const char *t = "ab\n\xc3\xbc\xf0\x9f\x98\x80x_y z\n";
	size_t len = strlen(t);
	ck_assert_uint_eq(q7_text_offset(t, len, 0, 1), 1);
	ck_assert_uint_eq(q7_text_offset(t, len, 1, 0), 3);
	ck_assert_uint_eq(q7_text_offset(t, len, 1, 1), 5);
	ck_assert_uint_eq(q7_text_offset(t, len, 1, 3), 9);
	ck_assert_uint_eq(q7_text_offset(t, len, 1, 99), 14); /* clamped to the line */
	ck_assert_uint_eq(q7_text_offset(t, len, 9, 0), len);
	ck_assert_uint_eq(q7_text_character(t, len, 2, 7), 3); /* byte column of 'x' */
	ck_assert_uint_eq(q7_text_token_width(t, len, 2, 7), 3); /* x_y */
	ck_assert_uint_eq(q7_text_token_width(t, len, 2, 10), 1); /* a blank */
	char *s = q7_xstrdup("hello world");
	size_t n = strlen(s);
	s = q7_text_splice(s, &n, 6, 11, "there!");
	ck_assert_str_eq(s, "hello there!");
	ck_assert_uint_eq(n, 12);
	free(s);
	unsigned line, ch;
	q7_text_position(t, len, 9, &line, &ch); /* the 'x' after the emoji */
	ck_assert_uint_eq(line, 1);
	ck_assert_uint_eq(ch, 3);
	/* Neovim agrees on UTF-8 with clangd: bytes; UTF-32: characters. */
	q7_text_set_encoding("utf-8");
	ck_assert_uint_eq(q7_text_offset(t, len, 1, 6), 9);
	ck_assert_uint_eq(q7_text_character(t, len, 2, 7), 6);
	q7_text_set_encoding("utf-32");
	ck_assert_uint_eq(q7_text_offset(t, len, 1, 2), 9);
	ck_assert_uint_eq(q7_text_character(t, len, 2, 7), 2);
	q7_text_set_encoding(NULL);
	ck_assert_uint_eq(q7_text_character(t, len, 2, 7), 3);
}
END_TEST

START_TEST(framing)
{
	int p[2];
	ck_assert_int_eq(pipe2(p, O_NONBLOCK), 0);
	struct q7_rpc_out o = {.fd = p[1]};
	q7_rpc_send(&o, "{\"a\":1}", 7);
	const char raw[] = "content-length:  2\r\nContent-Type: x\r\n\r\n[]Content-Length: 3\r\n\r\n{}";
	ck_assert_int_eq(write(p[1], raw, sizeof raw - 1), (ssize_t)sizeof raw - 1);
	struct q7_rpc_in in = {.fd = p[0]};
	ck_assert(q7_rpc_fill(&in));
	size_t len;
	char *m = q7_rpc_next(&in, &len);
	ck_assert_str_eq(m, "{\"a\":1}");
	free(m);
	m = q7_rpc_next(&in, &len);
	ck_assert_str_eq(m, "[]");
	free(m);
	ck_assert_ptr_null(q7_rpc_next(&in, &len)); /* one byte short */
	ck_assert_int_eq(write(p[1], " ", 1), 1);
	ck_assert(q7_rpc_fill(&in));
	m = q7_rpc_next(&in, &len);
	ck_assert_str_eq(m, "{} ");
	free(m);
	ck_assert(!in.eof);
	ck_assert_int_eq(write(p[1], "Content-Length: x\r\n\r\n", 21), 21);
	q7_rpc_fill(&in);
	ck_assert_ptr_null(q7_rpc_next(&in, &len));
	ck_assert(in.eof); /* a stream that cannot be followed */
	close(p[1]);
	ck_assert(!q7_rpc_fill(&in));
	q7_rpc_in_free(&in);
	q7_rpc_out_free(&o);
	close(p[0]);
}
END_TEST

/* Writes all n bytes of s to the non-blocking fd, filling in from the
 * other end as the pipe fills, and returns the messages seen on the way
 * (joined by "|") and the most the reader's buffer held. */
static char *stream(int fd, const char *s, size_t n, struct q7_rpc_in *in, size_t *most)
{
	struct q7_strbuf got = {0};
	for (size_t off = 0; off < n || in->buf.len > in->off;) {
		ssize_t w = off < n ? write(fd, s + off, n - off) : 0;
		off += w > 0 ? (size_t)w : 0;
		q7_rpc_fill(in);
		if (in->buf.cap > *most)
			*most = in->buf.cap;
		size_t len;
		for (char *m; (m = q7_rpc_next(in, &len)); free(m))
			q7_sb_addf(&got, "%s%s%s", got.len ? "|" : "", in->too_big ? "over:" : "", m);
		if (off == n && w <= 0 && !in->skip && in->buf.len == in->off)
			break;
	}
	return q7_sb_take(&got);
}

/* A message over the limit is passed over as it comes, never held; its
 * top-level id and method are found wherever they are (after a long
 * "params", beside nested ones); the next message is read as before. */
START_TEST(framing_too_big)
{
	int p[2];
	ck_assert_int_eq(pipe2(p, O_NONBLOCK), 0);
	size_t text = Q7_RPC_MAX + 100;
	struct q7_strbuf m = {0};
	q7_sb_add(&m, "{\"params\":{\"id\":1,\"text\":\"");
	char chunk[1000];
	memset(chunk, 'x', sizeof chunk);
	memcpy(chunk, "\\\"", 2); /* with escaped quotes here and there */
	for (size_t i = 0; i < text; i += sizeof chunk)
		q7_sb_addn(&m, chunk, sizeof chunk);
	q7_sb_add(&m, "\\\"\"},\"id\": \"a\\\"b\", \"method\" : \"textDocument/hover\"}");
	char *framed = q7_xasprintf("Content-Length: %zu\r\n\r\n", m.len);
	struct q7_strbuf all = {0};
	q7_sb_add(&all, framed);
	q7_sb_addn(&all, m.s, m.len);
	q7_sb_add(&all, "Content-Length: 2\r\n\r\n{}");
	struct q7_rpc_in in = {.fd = p[0]};
	size_t most = 0;
	char *got = stream(p[1], all.s, all.len, &in, &most);
	ck_assert_str_eq(got, "over:{\"id\":\"a\\\"b\",\"method\":\"textDocument/hover\"}|{}");
	ck_assert_msg(most < (16u << 20), "the reader held %zu bytes", most);
	ck_assert(!in.eof);
	free(got);
	free(framed);
	q7_sb_free(&all);
	q7_sb_free(&m);
	q7_rpc_in_free(&in);
	close(p[0]);
	close(p[1]);
	ck_assert(q7_rpc_utf8("a\xc3\xbc\xf0\x9f\x98\x80", 7));
	ck_assert(!q7_rpc_utf8("a\xc3", 2));
	ck_assert(!q7_rpc_utf8("\xff", 1));
	ck_assert(!q7_rpc_utf8("\xed\xa0\x80", 3)); /* a surrogate */
	ck_assert(!q7_rpc_utf8("\xc0\xaf", 2));     /* overlong */
}
END_TEST

/* The queue for a peer holds what it has not read, however far behind it
 * reads; one that leaves max bytes unread is given up on. */
START_TEST(queue_bounded)
{
	int p[2];
	ck_assert_int_eq(pipe2(p, O_NONBLOCK), 0);
	struct q7_rpc_out o = {.fd = p[1], .max = 8u << 20};
	char *body = q7_xmalloc(100000);
	memset(body, 'x', 100000);
	char sink[65536];
	size_t sent = 0, most = 0;
	for (int i = 0; i < 400; i++) { /* 40 MB, read a little slower than sent */
		q7_rpc_send(&o, body, 100000);
		sent += 100000;
		for (int k = 0; k < 1 + (i % 2); k++) {
			if (read(p[0], sink, sizeof sink) < 0)
				break;
			q7_rpc_flush(&o);
		}
		if (o.q.cap > most)
			most = o.q.cap;
		ck_assert(!o.full);
	}
	ck_assert_msg(most < (8u << 20), "the queue grew to %zu bytes", most);
	while (!o.full) /* a peer that no longer reads */
		q7_rpc_send(&o, body, 100000);
	ck_assert(o.broken && !q7_rpc_pending(&o));
	free(body);
	q7_rpc_out_free(&o);
	close(p[0]);
	close(p[1]);
}
END_TEST

/* One diagnostic of q7cc's JSON (--q7-lint --q7-format=json). */
#define DIAG(file, line, col, sev, rule, msg)                                                \
	"{\"file\": \"" file "\", \"line\": " #line ", \"column\": " #col ", \"severity\": \"" sev \
	"\", \"rule\": \"" rule "\", \"message\": \"" msg "\"}"
#define FINDING(line, col, rule, msg) DIAG("/t/k.cpp", line, col, "error", rule, msg)

/* q7cc's JSON of /t/k.cpp (the editor's text, shown as /src/k.cpp) as
 * LSP diagnostics. */
static json_object *lint_diags(const char *json, const char *text)
{
	struct q7_lint_src src = {"/t/k.cpp", text, strlen(text), "file:///src/k.cpp", "/src/k.cpp"};
	return q7_lint_diagnostics(json, &src);
}

/* A duplicate kernel: the temporary's name is the editor's, and the
 * other place (the note) relatedInformation, in the text or elsewhere. */
START_TEST(related)
{
	const char *text = "x\nQ7_KERNEL T scale(T x);\nQ7_KERNEL T scale(T x, T y);\n";
	const char *json = "{\"diagnostics\": [" DIAG("/t/k.cpp", 3, 13, "error", "q7-duplicate-kernel",
	                                           "kernel 'b::scale' has the same name as kernel "
	                                           "'a::scale' at /t/k.cpp:2") "," DIAG("/t/k.cpp", 2, 13,
	                   "note", "", "the other 'scale' is here") "," DIAG("/o/a b.cpp", 7, 2, "note",
	                   "", "in /t/k.cpp too") "]}";
	json_object *a = lint_diags(json, text);
	ck_assert_uint_eq(json_object_array_length(a), 1);
	const char *got = json_object_to_json_string_ext(json_object_array_get_idx(a, 0),
	                                                 JSON_C_TO_STRING_PLAIN |
	                                                     JSON_C_TO_STRING_NOSLASHESCAPE);
	ck_assert_msg(strstr(got, "at /src/k.cpp:2\"") && !strstr(got, "/t/k.cpp"), "%s", got);
	ck_assert_msg(strstr(got, "\"relatedInformation\":[{\"location\":{\"uri\":\"file:///src/"
	                          "k.cpp\",\"range\":{\"start\":{\"line\":1,\"character\":12}"),
	              "%s", got);
	ck_assert_msg(strstr(got, "{\"location\":{\"uri\":\"file:///o/a%20b.cpp\",\"range\":{"
	                          "\"start\":{\"line\":6,\"character\":1}") &&
	                  strstr(got, "\"message\":\"in /src/k.cpp too\""),
	              "%s", got);
	json_object_put(a);
}
END_TEST

START_TEST(diagnostics)
{
	const char *text = "// x\nQ7_KERNEL torch::Tensor f(float *by);\n";
	const char *json =
	    "{\"diagnostics\": [\n"
	    "  {\"file\": \"/t/k.cpp\", \"line\": 2, \"column\": 34, \"severity\": \"error\", "
	    "\"rule\": \"q7-unsupported-param\", \"message\": \"m\"},\n"
	    "  {\"file\": \"/t/k.cpp\", \"line\": 1, \"column\": 1, \"severity\": \"error\", "
	    "\"rule\": \"\", \"message\": \"libclang's own\"},\n"
	    "  {\"file\": \"/t/k.h\", \"line\": 2, \"column\": 1, \"severity\": \"warning\", "
	    "\"rule\": \"q7-profile-kind\", \"message\": \"a header's\"}\n]}\n";
	json_object *a = lint_diags(json, text);
	ck_assert_uint_eq(json_object_array_length(a), 1);
	const char *got = json_object_to_json_string_ext(json_object_array_get_idx(a, 0),
	                                                 JSON_C_TO_STRING_PLAIN |
	                                                     JSON_C_TO_STRING_NOSLASHESCAPE);
	ck_assert_msg(strstr(got, "\"range\":{\"start\":{\"line\":1,\"character\":33},"
	                          "\"end\":{\"line\":1,\"character\":35}},\"severity\":1,"
	                          "\"code\":\"q7-unsupported-param\",\"codeDescription\":{\"href\":"
	                          "\"file://") &&
	                  strstr(got, "/share/q7cc/doc/lint-rules.md#rules\"},\"source\":\"q7cc\","
	                              "\"message\":\"m\"}"),
	              "%s", got);
	json_object_put(a);
	a = lint_diags("not json", text);
	ck_assert_uint_eq(json_object_array_length(a), 0);
	json_object_put(a);
	a = q7_lint_kernels("{\"ops\": [{\"name\": \"f\", \"namespace\": \"\", \"schema\": "
	                    "\"f(float by) -> Tensor\", \"file\": \"/t/k.cpp\", \"line\": 2, "
	                    "\"column\": 25, \"by_name_only\": false}, {\"name\": \"g\", \"file\": "
	                    "\"/t/k.cpp\", \"by_name_only\": true}]}",
	                    "/t/k.cpp", text, strlen(text));
	ck_assert_uint_eq(json_object_array_length(a), 1);
	json_object_put(a);
}
END_TEST

/* A half-written line: clangd's error (or libclang's own) on it, no q7
 * finding beside it; an invalid declaration goes in a text with errors. */
START_TEST(consequences)
{
	const char *text = "// x\nQ7_KERNEL torch::Tensor f(float *by, in\nQ7_KERNEL T g(float *to);\n";
	const char *json = "{\"diagnostics\": [" FINDING(2, 34, "q7-unsupported-param", "on the line")
	    "," FINDING(2, 39, "", "unknown type name 'in'") "," FINDING(
	        3, 15, "q7-invalid-declaration", "invalid") "," FINDING(3, 22, "q7-unsupported-param",
	                                                                "kept") "]}";
	json_object *a = lint_diags(json, text);
	ck_assert_uint_eq(json_object_array_length(a), 1);
	json_object *kept = json_object_array_get_idx(a, 0);
	ck_assert_str_eq(json_object_get_string(json_object_object_get(kept, "message")), "kept");
	/* clangd's error over lines 2-3 (0-based 1-2) shadows it; a warning
	 * or an error on another line does not. */
	json_object *clangd = json_tokener_parse(
	    "[{\"severity\": 2, \"range\": {\"start\": {\"line\": 2}, \"end\": {\"line\": 2}}},"
	    " {\"severity\": 1, \"range\": {\"start\": {\"line\": 5}, \"end\": {\"line\": 6}}}]");
	ck_assert(!q7_lint_shadowed(kept, clangd));
	ck_assert(!q7_lint_shadowed(kept, NULL));
	json_object_array_add(clangd, json_tokener_parse(
	    "{\"severity\": 1, \"range\": {\"start\": {\"line\": 1}, \"end\": {\"line\": 2}}}"));
	ck_assert(q7_lint_shadowed(kept, clangd));
	json_object_put(clangd);
	json_object_put(a);
	/* No name where the finding is: no fix (never "pass '' by value"). */
	struct q7_fix fix;
	const char *t = "T f(float *, int);";
	ck_assert(!q7_fix_find("q7-unsupported-param", "parameter '1' of kernel 'f' has type 'x'", t,
	                       strlen(t), 10, &fix));
}
END_TEST

/* #line and line markers: the compiler's place back to the text's line. */
START_TEST(physical_lines)
{
	const char *t = "a\n#line 100\nb\n# 7 \"other.cpp\" 1\nc\n  #  line 3 \"/t/k.cpp\"\nd\n";
	size_t len = strlen(t);
	ck_assert_uint_eq(q7_text_physical_line(t, len, "/t/k.cpp", "/t/k.cpp", 1, 1, NULL), 1);
	ck_assert_uint_eq(q7_text_physical_line(t, len, "/t/k.cpp", "/t/k.cpp", 100, 1, NULL), 3);
	ck_assert_uint_eq(q7_text_physical_line(t, len, "/t/k.cpp", "other.cpp", 7, 1, NULL), 5);
	ck_assert_uint_eq(q7_text_physical_line(t, len, "/t/k.cpp", "/t/k.cpp", 3, 1, NULL), 7);
	ck_assert_uint_eq(q7_text_physical_line(t, len, "/t/k.cpp", "/t/k.cpp", 2, 1, NULL), 0);
	ck_assert_uint_eq(q7_text_physical_line(t, len, "/t/k.cpp", "/t/k.h", 1, 1, NULL), 0);
	/* One place twice (#line repeats 3): the line with the name at col. */
	const char *twice = "x\nvoid g(float *by);\n#line 2\nT f(float *by);\n";
	ck_assert_uint_eq(q7_text_physical_line(twice, strlen(twice), "m", "m", 2, 12, "by"), 4);
	ck_assert_uint_eq(q7_text_physical_line(twice, strlen(twice), "m", "m", 2, 12, NULL), 2);
	const char *plain = "x\ny\n";
	ck_assert_uint_eq(q7_text_physical_line(plain, 4, "/t/k.cpp", "/t/k.cpp", 2, 1, NULL), 2);
	/* A finding after #line goes on the text's line, and one that #line
	 * names another file by is the text's too. */
	const char *k = "#line 50\nQ7_KERNEL torch::Tensor f(float *by);\n";
	const char *json = "{\"diagnostics\": [{\"file\": \"/t/k.cpp\", \"line\": 50, \"column\": 35, "
	                   "\"severity\": \"error\", \"rule\": \"q7-unsupported-param\", \"message\": "
	                   "\"m\"}]}";
	json_object *a = lint_diags(json, k);
	ck_assert_uint_eq(json_object_array_length(a), 1);
	json_object *start = json_object_object_get(
	    json_object_object_get(json_object_array_get_idx(a, 0), "range"), "start");
	ck_assert_int_eq(json_object_get_int(json_object_object_get(start, "line")), 1);
	json_object_put(a);
}
END_TEST

START_TEST(fixes)
{
	static const struct {
		const char *rule, *text, *at; /* at: the name the finding is on */
		const char *kernel;           /* the kernel its message names */
		const char *fixed;
	} cases[] = {
	    {"q7-unsupported-param", "T f(const Tensor &x, float *by);", "by)", "f",
	     "T f(const Tensor &x, float by);"},
	    {"q7-unsupported-param", "T f(float*  by);", "by)", "f", "T f(float  by);"},
	    {"q7-unsupported-param", "T f(int a,\n torch::Tensor &x);", "x)", "f",
	     "T f(int a,\n const torch::Tensor &x);"},
	    {"q7-unsupported-param", "T f(at::Scalar& s);", "s)", "f", "T f(const at::Scalar& s);"},
	    {"q7-unsupported-param", "T f(std::map<int, int> m, double &d);", "d)", "f",
	     "T f(std::map<int, int> m, double d);"},
	    {"q7-unsupported-param", "T f(const Tensor &x);", "x)", "f", NULL},
	    {"q7-unsupported-param", "T f(Tensor &&x);", "x)", "f", NULL},
	    {"q7-unsupported-param", "T f(float **p);", "p)", "f", NULL},
	    {"q7-unsupported-param", "T f(std::vector<int> v);", "v)", "f", NULL},
	    /* A place that is not the named kernel's parameter (a #line the
	     * editor could not follow): no edit of another function. */
	    {"q7-unsupported-param", "T g(float *by);\nT f(float *by);", "by);\nT f", "f", NULL},
	    {"q7-unsupported-param", "T f(float *to, float *by);", "to,", "f",
	     "T f(float to, float *by);"},
	    {"q7-unsupported-param", "T f(int (*cb)(int), float *by);", "by)", "f",
	     "T f(int (*cb)(int), float by);"},
	    /* Types the table does not know, and what is after the name:
	     * no fix that would leave a finding (or not compile). */
	    {"q7-unsupported-param", "T f(unsigned &u);", "u)", "f", NULL},
	    {"q7-unsupported-param", "T f(int8_t *p);", "p)", "f", NULL},
	    {"q7-unsupported-param", "T f(float a[4]);", "a[", "f", NULL},
	    {"q7-unsupported-param", "T f(float (&a)[4]);", "a)", "f", NULL},
	    {"q7-unsupported-param", "T f(const TensorOptions &o);", "o)", "f", NULL},
	    {"q7-unsupported-param", "T f(TensorOptions &o);", "o)", "f", NULL},
	    {"q7-unsupported-param", "T f(std::array<float, 4> &a);", "a)", "f", NULL},
	    {"q7-unsupported-param", "T f(float *by = nullptr);", "by =", "f", NULL},
	    {"q7-unsupported-param", "T f(const float *c);", "c)", "f", "T f(const float c);"},
	    {"q7-unsupported-param", "T f(T x, /* s */ float // t\n *b);", "b)", "f",
	     "T f(T x, /* s */ float // t\n b);"},
	    {"q7-unsupported-param", "T f(long  long &n);", "n)", "f", "T f(long  long n);"},
	    {"q7-internal-linkage", "Q7_KERNEL static torch::Tensor b(T x);", "b(", "b",
	     "Q7_KERNEL torch::Tensor b(T x);"},
	    {"q7-internal-linkage", "x;\nstatic\tQ7_KERNEL T c(T x);", "c(", "c",
	     "x;\nQ7_KERNEL T c(T x);"},
	    {"q7-internal-linkage", "static T h(T x);\nQ7_KERNEL T c(T x);", "h(", "c", NULL},
	    {"q7-internal-linkage", "namespace { Q7_KERNEL T c(T x); }", "c(", "c", NULL},
	    {"q7-internal-linkage", "static_t T c(T x);", "c(", "c", NULL},
	    {"q7-inline", "inline Q7_KERNEL T g(T x) { return x; }", "g(", "g",
	     "Q7_KERNEL T g(T x) { return x; }"},
	    {"q7-inline", "constexpr Q7_KERNEL T g(T x);", "g(", "g", NULL},
	    {"q7-template", "template <class X> T f(T x);", "f(", "f", NULL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const char *t = cases[i].text;
		size_t at = (size_t)(strstr(t, cases[i].at) - t), n = 0;
		while (t[at + n] == '_' || isalnum((unsigned char)t[at + n]))
			n++;
		char *msg = strcmp(cases[i].rule, "q7-unsupported-param") == 0
		                ? q7_xasprintf("parameter '%.*s' of kernel 'ns::%s' has type 'x'", (int)n,
		                               t + at, cases[i].kernel)
		                : q7_xasprintf("kernel 'ns::%s' is static", cases[i].kernel);
		struct q7_fix fix;
		bool found = q7_fix_find(cases[i].rule, msg, t, strlen(t), at, &fix);
		free(msg);
		ck_assert_msg(found == (cases[i].fixed != NULL), "%s: found %d", t, found);
		if (!found)
			continue;
		char *s = q7_xstrdup(t);
		size_t len = strlen(s);
		s = q7_text_splice(s, &len, fix.from, fix.to, fix.with);
		ck_assert_msg(strcmp(s, cases[i].fixed) == 0, "%s: got %s", t, s);
		ck_assert(strncmp(fix.title, "q7cc: ", 6) == 0);
		/* A double or bool may be no kind of the toolchain: not preferred. */
		ck_assert(fix.preferred == !strstr(t, "double"));
		free(s);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("editor");
	TCase *tc = tcase_create("editor");
	tcase_add_test(tc, shell_split);
	tcase_add_test(tc, lint_argv);
	tcase_add_test(tc, lint_flags);
	tcase_add_test(tc, ccdb_find);
	tcase_add_test(tc, ccmd_target);
	tcase_add_test(tc, includes);
	tcase_add_test(tc, ccdb_trust);
	tcase_add_test(tc, positions);
	tcase_add_test(tc, framing);
	tcase_add_test(tc, framing_too_big);
	tcase_add_test(tc, queue_bounded);
	tcase_add_test(tc, diagnostics);
	tcase_add_test(tc, consequences);
	tcase_add_test(tc, related);
	tcase_add_test(tc, fixes);
	tcase_add_test(tc, physical_lines);
	suite_add_tcase(s, tc);
	SRunner *r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? 1 : 0;
}
