#!/bin/sh
# e2e.man_pages: each installed program's manual page lists every option
# its --help lists (the page is made from --help: docs/man/README.md);
# every --q7- option of q7cc's option table and every q7cc subcommand is
# in q7cc --q7-help; each program answers --version; the user docs are
# staged where messages cite them (share/doc/q7cc).
#   man_pages.sh STAGE_BIN MAN_DIR SOURCE_DIR
set -eu
bin=$1 mandir=$2 src=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v man > /dev/null || fail "man not found (the Debian package man-db)"
for row in q7cc:q7cc:--q7-help q7-run:q7-run:--help q7-prelink:q7-prelink:--help \
	q7-pkg-loadlib:q7-pkg-loadlib:--help q7cc-clangd:q7cc-clangd:--help; do
	page=${row%%:*} rest=${row#*:}
	tool=${rest%%:*} help=${rest#*:}
	"$bin/$tool" "$help" > help.txt || fail "$tool $help: status $?"
	# the rows under Options: each spelling's name ("--target" of "--target=host|emulated")
	opts=$(sed -n '/^Options:$/,/^$/p' help.txt | grep -E '^  -' |
		sed -E 's/^  //; s/  +.*//' | tr ',' '\n' | sed -E 's/^ //; s/[= ].*//' | sort -u)
	[ -n "$opts" ] || fail "$tool $help lists no options: $(cat help.txt)"
	MANWIDTH=200 man -l "$mandir/$page.1" > page.txt 2> /dev/null || fail "man -l $page.1"
	for o in $opts; do
		grep -qF -- "$o" page.txt || fail "$page.1 lacks $o, which $tool $help lists"
	done
	echo "$page: $(echo "$opts" | wc -l) options, all in the page"
done
MANWIDTH=200 man -l "$mandir/q7-run.1" 2> /dev/null | grep -qF -- --sanitize || fail "q7-run.1 lacks --sanitize"
# q7cc's own options, from the option table and the subcommands
"$bin/q7cc" --q7-help > help.txt
for o in $(grep -oE '\{"--q7-[a-z-]+' "$src/wrapper/options.c" "$src/main/main.c" | sed 's/.*{"//' | sort -u); do
	grep -qF -- "  $o" help.txt || fail "q7cc --q7-help lacks $o"
done
grep -qF -- '--q7-memory-map' help.txt || fail "q7cc --q7-help lacks --q7-memory-map"
# --version
for t in q7-run q7-prelink q7-pkg-loadlib xt-pkg-loadlib; do
	v=$("$bin/$t" --version) || fail "$t --version: status $?"
	echo "$v" | grep -qE "^$t \(q7cc\) [0-9]+\.[0-9]+" || fail "$t --version: '$v'"
done
"$bin/q7cc-icecc-env" --version | grep -qE '^q7cc-icecc-env \(q7cc\) [0-9]' ||
	fail "q7cc-icecc-env --version"
"$bin/q7cc-icecc-env" --help | grep -q '^usage: q7cc-icecc-env gnu|host \[DIR\]' ||
	fail "q7cc-icecc-env --help"
"$bin/q7cc-clangd" --q7-version | grep -qE '^q7cc-clangd \(q7cc\) ' || fail "q7cc-clangd --q7-version"
"$bin/q7cc" --q7-memory-map --version | grep -qE '\(q7cc\) [0-9]' || fail "--q7-memory-map --version"
# the user docs where q7_doc_path finds them
for p in "$src"/docs/*.md; do
	cmp -s "$p" "$bin/../share/doc/q7cc/$(basename "$p")" || fail "$(basename "$p") not staged"
done
echo "man_pages: ok"
