#!/bin/sh
# e2e.packer.cli: the vendor's command line, table-driven: every spelling
# Getopt::Long allows, the names q7-pkg-loadlib / xt-pkg-loadlib / q7cc
# --q7-pkg-loadlib, and usage errors (exit 2).
. "$(dirname "$0")/lib.sh"
make_images
$PACK -o ref.o -s ref.so xt.so
n=0
# args | expected exit | what must then hold
while IFS='|' read -r args want post; do
	[ -n "$args$want" ] || continue
	rm -f out.o out.so
	rc=0
	eval "$PACK $args" > stdout 2> stderr || rc=$?
	[ "$rc" -eq "$want" ] || { cat stderr; fail "'$args': exit $rc, expected $want"; }
	[ -z "$post" ] || eval "$post" || { cat stderr; fail "'$args': $post"; }
	n=$((n + 1))
done <<'TABLE'
-o out.o -s out.so xt.so|0|cmp out.o ref.o && cmp out.so ref.so
-oout.o -sout.so xt.so|0|cmp out.o ref.o
--o=out.o --s=out.so xt.so|0|cmp out.so ref.so
-e lib_func --xtensa-core=ncore2gp --xtensa-system=/opt/x/config -o out.o xt.so|0|cmp out.o ref.o
--xtensa-core ncore2gp --xtensa-params /x -o out.o xt.so|0|cmp out.o ref.o
-xtensa-core=ncore2gp -o out.o xt.so|0|cmp out.o ref.o
-e my_sym -o out.o xt.so|0|[ "$($UTIL symbol out.o my_sym)" = "1 0 0 .rodata" ]
-v -o out.o xt.so|0|grep -q 'removing sections: .*\.xt\.prop' stderr
-l -s out.so xt.so|0|$UTIL has out.so .dynsym && [ ! -e out.o ]
-p 0x1000 -o out.o xt.so|0|[ -e out.o ]
--help|0|grep -q usage stdout

 	|2|grep -q 'no input image' stderr
xt.so|2|grep -q 'nothing to do' stderr
-o out.o xt.so host.so|2|[ ! -e out.o ]
-o out.o -q xt.so|2|grep -q 'unknown option -q' stderr
-p 3 -o out.o xt.so|2|[ ! -e out.o ]
-o|2|grep -q 'needs a value' stderr
TABLE
[ "$n" -eq 17 ] || fail "ran $n of the 17 cases"
# Its other names.
ln -s "$STAGE_BIN/q7cc" xt-pkg-loadlib
./xt-pkg-loadlib -o out.o xt.so && cmp out.o ref.o || fail "as xt-pkg-loadlib"
"$STAGE_BIN/q7cc" --q7-pkg-loadlib -o out2.o xt.so && cmp out2.o ref.o || fail "as q7cc --q7-pkg-loadlib"
echo "cli: $n cases ok"
