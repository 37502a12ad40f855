#!/bin/sh
# e2e.thin_archive: kernels in a thin archive (ar rcT: the members stay in
# their files, the archive names them) are linked with their wrapper, as
# from an ordinary archive; a member file gone is an error naming the
# archive and the member (before: they were dropped unsaid).
#   thin_archive.sh Q7CC_HOST WORKDIR
set -eu
q7=$1 work=$2
. "$(dirname "$0")/one_kernel.sh"
mkdir sub
cp k.cpp sub/a_member_name_longer_than_sixteen.cpp
"$q7" -fPIC -c sub/a_member_name_longer_than_sixteen.cpp -o sub/a_member_name_longer_than_sixteen.o ||
	fail "compile"
ar rcT libk.a sub/a_member_name_longer_than_sixteen.o
[ "$(head -c 7 libk.a)" = '!<thin>' ] || fail "ar rcT made no thin archive"
"$q7" --q7-print-schema libk.a | grep -q '^k(Tensor x) -> Tensor$' || fail "no schema from the thin archive"
"$q7" -shared libk.a -o libk.so || fail "the link"
"$(dirname "$q7")/q7-run" --list libk.so | grep -q 'k(Tensor x) -> Tensor' || fail "libk.so lacks k"
rm sub/a_member_name_longer_than_sixteen.o
if "$q7" -shared libk.a -o libgone.so 2> gone.err; then fail "a link with a member gone"; fi
grep -q 'libk.a(sub/a_member_name_longer_than_sixteen.o)' gone.err || { cat gone.err; fail "gone.err"; }
[ ! -e libgone.so ] || fail "an output from a failed link"
echo "thin_archive: ok"
