#!/bin/sh
# e2e.response_files: response files.
# A link whose words are too many for the kernel (a CMake link of
# thousands of objects, given to q7cc as @file) reaches the compiler as a
# response file and links; a response file that names itself stops at
# once with GCC's "too many @-files", as GCC does.
#   response_files.sh Q7CC_HOST WORKDIR
set -eu
q7=$1 work=$2
. "$(dirname "$0")/one_kernel.sh"
: > e.cpp
"$q7" -c k.cpp -o k.o || fail "compile k.cpp"
"$q7" -c e.cpp -o e.o || fail "compile e.cpp"
# One empty object, named 1,100 times by a 2,000-character path: 2.2 MB
# of words, over the kernel's 2 MiB for a command line (the bytes matter,
# not the count: a 10,000-object link of short names takes the same path).
d=.
for i in 1 2 3 4 5 6 7 8; do
	d=$d/$(printf 'd%.0s' $(seq 249))$i
done
mkdir -p "$d"
cp e.o "$d/e.o"
i=0
while [ $i -lt 1100 ]; do
	echo "$d/e.o"
	i=$((i + 1))
done > objs.rsp
[ "$(wc -c < objs.rsp)" -gt 2200000 ] || fail "objs.rsp is too short to need a response file"
"$q7" -shared k.o @objs.rsp -o libk.so 2> link.err || { cat link.err; fail "the long link"; }
[ -s libk.so ] || fail "no libk.so"
"$(dirname "$q7")/q7-run" --list libk.so | grep -q 'k(Tensor x) -> Tensor' || fail "libk.so lacks k"
# A response file that names itself: an error at once, not a hang.
printf '@r @r @r @r\n' > r
set +e
timeout 20 "$q7" -c k.cpp -o self.o @r 2> self.err
rc=$?
set -e
[ "$rc" = 1 ] || { cat self.err; fail "a self-referencing response file: status $rc"; }
grep -q "r: too many @-files encountered" self.err || { cat self.err; fail "self.err"; }
[ ! -e self.o ] || fail "an object from a refused command line"
echo "response files: ok"
