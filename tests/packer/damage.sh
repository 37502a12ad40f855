#!/bin/sh
# e2e.packer.damage: the damaged-image corpus (made from good Xtensa ELF32 and
# host ELF64 images by mkcorpus.py, and from an Xtensa image whose
# relocations name symbols, for the bind-* kinds): every file gets exit 1,
# one message naming the file, and no output, not even a temporary.
# Usage: damage.sh STAGE_BIN SRC_DIR LSP_DIR [CORPUS_DIR]
. "$(dirname "$0")/lib.sh"
keep=${4:-}

make_images
make_bind_image
mkdir corpus out
$PY "$SRC/mkcorpus.py" xt.so corpus/xt > /dev/null
$PY "$SRC/mkcorpus.py" host.so corpus/host > /dev/null
$PY "$SRC/mkcorpus.py" xtw.so corpus/bind > /dev/null
[ "$(ls corpus/bind/bind-* | wc -l)" -eq 14 ] || fail "mkcorpus made $(ls corpus/bind/bind-* | wc -l) bind-* kinds, not 14"
mkdir corpus/misc
echo x > corpus/misc/text.so
n=0
for f in corpus/*/*; do
	rm -rf out/*
	rc=0
	$PACK -o out/p.so -s out/s.so "$f" > msg 2>&1 || rc=$?
	[ "$rc" -eq 1 ] || { cat msg; fail "$f: exit $rc, not 1"; }
	[ "$(wc -l < msg)" -eq 1 ] || { cat msg; fail "$f: expected one message"; }
	grep -q "^q7-pkg-loadlib: error: $f: " msg || { cat msg; fail "$f: message does not name the file"; }
	[ -z "$(ls -A out)" ] || fail "$f: left $(ls -A out)"
	n=$((n + 1))
done
# Not a file at all, and a symbol name the assembler would refuse.
for f in missing.so corpus; do
	if $PACK -o out/p.so "$f" 2> msg; then fail "$f accepted"; fi
	grep -q "^q7-pkg-loadlib: error: $f: " msg || { cat msg; fail "$f: message"; }
done
if $PACK -e 'bad name' -o out/p.so xt.so 2> msg; then fail "bad symbol accepted"; fi
[ -z "$(ls -A out)" ] || fail "bad symbol: output left"
# An output that cannot be written leaves nothing behind either.
if $PACK -o /nonexistent/dir/p.so -s out/s.so xt.so 2> msg; then fail "unwritable output accepted"; fi
[ -z "$(ls -A out)" ] || fail "unwritable -o: the -s output was left behind"
# The good images do pack.
for f in xt.so host.so xtw.so; do $PACK -o out/p.so -s out/s.so $f || fail "good image $f refused"; done
if [ -n "$keep" ]; then mkdir -p "$keep"; for d in corpus/*; do for f in $d/*; do cp "$f" "$keep/$(basename $d)-$(basename $f)"; done; done; cp xt.so host.so xtw.so "$keep"/; fi
echo "damage: $n damaged images refused cleanly"
