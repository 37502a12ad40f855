#!/bin/bash
# A link's outputs as one set (wrapper/outset.h, docs/driver.md "Outputs"):
# two links of one output never interleave and leave the whole set of one
# of them, byte for byte what a serial link gives; a relink that fails or
# is interrupted leaves none of the set; a link waiting for the lock stops
# at once; a killed link's leftovers neither block nor stay.
#   link_outputs.sh Q7CC WORKDIR CASE
# Cases (_mc: --q7-multicore):
#   with a slow linker that really links (the host profile, fake tools as
#   tests/support/slow_tools.sh has them): concurrent_links[_mc],
#   linker_messages_mc (eight linkers writing at once: whole lines),
#   relink_fails[_mc], relink_sigterm[_mc], lock_wait_sigterm,
#   lock_after_sigkill;
#   with the real gnu toolchain at full speed: gnu_concurrent_links[_mc],
#   gnu_relink_fails[_mc], special_outputs (a FIFO or a device as -o), and
#   make_concurrent (two `make -j2` at once in a CMake multicore build
#   folder, then `make`: up to date only when every output is there);
#   with the host toolchain: linked_outputs[_mc] (-o a link to a file, a
#   directory, nowhere, /dev/stdout, special files: link_outputs_linked.sh).
set -u
q7cc=$1 work=$2 case=$3
proj=$(cd "$(dirname "$0")/proj" && pwd)
. "$(dirname "$0")/../support/proc_lib.sh"
. "$(dirname "$0")/link_outputs_linked.sh"
. "$(dirname "$0")/../support/mtime_lib.sh"

MC=
case $case in *_mc) MC=--q7-multicore ;; esac
PROFILE=host
case $case in gnu_* | special_outputs | make_concurrent) PROFILE=gnu ;; esac
nimg=1
[ -n "$MC" ] && nimg=8

# fake_linker_head: a fake linker's first lines: $out is the -o word; a
# command that is not a link (-shared) goes to c++ at once.
fake_linker_head() {
	cat <<'SH'
#!/bin/sh
out= prev=
for a in "$@"; do
	[ "$prev" = -o ] && out=$a
	prev=$a
done
case " $* " in *" -shared "*) ;; *) exec c++ "$@" ;; esac
SH
}

# A slow linker that really links: a link (-shared) records its pid (it
# leads its process group), logs "start RUN NAME", sleeps DELAY seconds,
# runs the host's c++ and logs "end RUN NAME" (RUN names the q7cc run,
# NAME the image); with FAIL_ON set, the link of the image whose name
# ends so fails instead. Anything else goes to c++ at once.
slow_linker() {
	{ fake_linker_head; cat <<'SH'
echo $$ > "$PIDS/.link.$$"; mv "$PIDS/.link.$$" "$PIDS/link.$$.pid"
echo "start ${RUN:-?} ${out##*/}" >> "$LOG"
if [ -n "${FAIL_ON:-}" ]; then
	case $out in *"$FAIL_ON") echo "fake: $out: failed" >&2; exit 1 ;; esac
fi
# Another build rewriting an input while this one links.
[ -z "${TOUCH_INPUT:-}" ] || touch "$TOUCH_INPUT"
# A temporary of its own, as collect2's ccXXXXXX.res: removed when the
# link ends, left behind when a signal stops it (q7cc removes it).
tmpf=${TMPDIR:-/tmp}/fake.$$.res
: > "$tmpf"
sleep "${DELAY:-0}"
c++ "$@" || { rm -f "$tmpf"; exit 1; }
rm -f "$tmpf"
echo "end ${RUN:-?} ${out##*/}" >> "$LOG"
SH
	} > slowcxx
	chmod +x slowcxx
}

# ./qlink RUN OBJ: q7cc -v links OBJ as libk.so (through the slow linker
# when there is one), all images at once, its stderr in err.RUN. A script
# that execs q7cc, so that $! of a run in the background is q7cc's pid.
write_qlink() {
	local fake=
	[ -e slowcxx ] && fake="Q7CC_REAL_CXX=\"$PWD/slowcxx\""
	cat > qlink <<SH
#!/bin/sh
export RUN="\$1" LOG="$PWD/log" TMPDIR="$PWD/tmp" Q7CC_JOBS=8 $fake
exec "$q7cc" --q7-toolchain=$PROFILE $MC -v -shared "\$2" -o libk.so 2> "err.\$1" < /dev/null
SH
	chmod +x qlink
}

# Two kernel objects (one.o, two.o: kernels one and two), and the sets a
# plain serial link of each gives, in serial/one and serial/two.
serial_sets() {
	for k in one two; do
		printf '#include <torch/torch.h>\n#include <q7/kernel.h>\n%s\n' \
			"Q7_KERNEL torch::Tensor $k(const torch::Tensor &x) { return x; }" > $k.cpp
		"$q7cc" --q7-toolchain=$PROFILE -c $k.cpp -o $k.o || fail "compile $k.cpp"
		mkdir -p serial/$k
		"$q7cc" --q7-toolchain=$PROFILE $MC -shared $k.o -o serial/$k/libk.so ||
			fail "the serial link of $k.o"
	done
	write_qlink
}

# set_names: the files of a link of libk.so, one a line.
set_names() {
	if [ -n "$MC" ]; then
		echo libk.so
		for i in 0 1 2 3 4 5 6 7; do
			printf 'libk_cpu%s.%s\n' $i packed.so $i so $i stripped.so
		done
	else
		printf 'libk.%s\n' packed.so so stripped.so
	fi | sort
}

# libk_here: every file here named after libk.so, hidden ones too.
libk_here() { ls -A | grep '^\.\?libk' | sort; }

# is_set WHO: here is exactly a serial link's set of WHO.o (nothing more,
# no lock file, no staging folder), byte for byte.
is_set() {
	[ "$(libk_here)" = "$(set_names)" ] || return 1
	for f in $(set_names); do
		cmp -s "$f" "serial/$1/$f" || return 1
	done
}

same_set() {
	is_set "$1" || fail "not the set of $1.o: $(libk_here | tr '\n' ' ')$(
		for f in $(set_names); do cmp -s "$f" "serial/$1/$f" || printf '; %s differs' "$f"; done)"
}

no_set() {
	[ -z "$(libk_here)" ] || fail "left of the set: $(libk_here | tr '\n' ' ')"
}

# await_lines PATTERN FILE [N]: until FILE has N lines (1) that match
# PATTERN (60 s at most).
await_lines() {
	for _ in $(seq 1200); do
		[ "$(grep -c "$1" "$2" 2> /dev/null)" -ge "${3:-1}" ] && return 0
		sleep 0.05
	done
	fail "no ${3:-1} '$1' in $2: $(cat "$2" 2> /dev/null)"
}

# term_stops PID ERRFILE: SIGTERM to the q7cc PID alone ends it, by
# SIGTERM, within 30 s.
term_stops() {
	kill -TERM "$1"
	ended "$1"
	local rc=$?
	bg=
	[ $rc = 143 ] || fail "status $rc, want 143 (died by SIGTERM): $(cat "$2")"
}

# relinks_fail SPEC...: after a good link of one.o, each relink "HOW OBJ
# [FAIL_ON]" fails with status 1 and leaves none of the set.
relinks_fail() {
	printf 'not an object\n' > bad.o
	head -c 300 one.o > cut.o
	printf '%s\n' '#include <torch/torch.h>' '#include <q7/kernel.h>' 'int nowhere(int);' \
		'Q7_KERNEL torch::Tensor u(const torch::Tensor &x, int n) { nowhere(n); return x; }' > u.cpp
	"$q7cc" --q7-toolchain=$PROFILE -c u.cpp -o u.o || fail "compile u.cpp"
	local how obj fail_on delay rc
	while read -r how obj fail_on delay; do
		[ -n "$how" ] || continue
		./qlink good one.o || fail "$how: the good link: $(cat err.good)"
		same_set one
		FAIL_ON=$fail_on DELAY=${delay:-0} ./qlink bad "$obj"
		rc=$?
		[ $rc = 1 ] || fail "$how: status $rc, want 1: $(cat err.bad)"
		no_set
		no_temps
	done
}

# link_a_killed: link A of one.o through the slow linker, killed outright
# (SIGKILL) once its image's link has started.
link_a_killed() {
	slow_linker
	serial_sets
	: > log
	DELAY=60 ./qlink A one.o &
	a=$!
	await_lines 'start A' log
	kill -KILL $a
	wait $a 2> /dev/null
}

case $case in
concurrent_links | concurrent_links_mc)
	# Two links of one output at once, with different objects: the second
	# waits for the first (its links start after the first's end), and
	# the outputs are then the whole set of the second, as a serial link
	# gives it. Rounds, each over the last one's set.
	slow_linker
	serial_sets
	for round in 1 2 3; do
		: > log
		DELAY=1 ./qlink A one.o &
		a=$!
		await_lines "^start A" log # A holds the lock: its links run
		DELAY=1 ./qlink B two.o &
		b=$!
		wait $a || fail "round $round: link A: $(cat err.A)"
		wait $b || fail "round $round: link B: $(cat err.B)"
		[ "$(grep -c '^end ' log)" = $((2 * nimg)) ] || fail "round $round: links missing: $(cat log)"
		order=$(cut -d' ' -f2 log | uniq | tr -d '\n')
		case $order in
		AB) winner=two ;;
		BA) winner=one ;;
		*) fail "round $round: the two links interleaved: $(cat log)" ;;
		esac
		cat err.A err.B | grep -q 'waiting for another link of libk.so' ||
			fail "round $round: neither said it waited"
		same_set $winner
	done
	no_temps
	;;
gnu_concurrent_links | gnu_concurrent_links_mc)
	# The same with the real toolchain at full speed, started together,
	# many times: always the whole set of one of them, never a mix.
	serial_sets
	for round in $(seq 12); do
		./qlink A one.o &
		a=$!
		./qlink B two.o &
		b=$!
		wait $a || fail "round $round: link A: $(cat err.A)"
		wait $b || fail "round $round: link B: $(cat err.B)"
		is_set one || is_set two || same_set two
	done
	no_temps
	;;
relink_fails | relink_fails_mc)
	# A relink that fails (one image's link, an object that is no object,
	# a symbol nobody defines) leaves none of the set: the previous
	# build's images, twins and manifest go too.
	slow_linker
	serial_sets
	last=libk.so
	[ -n "$MC" ] && last=_cpu3.so
	relinks_fail <<-EOF
		one_image_fails one.o $last
		not_an_object bad.o
		undefined_symbol u.o
	EOF
	# The other images' links, stopped while the failed one ends, leave
	# their own temporaries; none stays (no_temps in relinks_fail).
	if [ -n "$MC" ]; then
		relinks_fail <<-EOF
			others_stopped one.o $last 30
		EOF
	fi
	;;
input_changes | input_changes_mc)
	# An input that another build rewrites while this link reads it (two
	# makes in one folder: CMake's archive rule writes the archive again
	# in place): the link fails naming it and leaves none of the set, and
	# the next link gives the whole set.
	slow_linker
	serial_sets
	./qlink good one.o || fail "the good link: $(cat err.good)"
	same_set one
	TOUCH_INPUT=$PWD/one.o ./qlink bad one.o
	rc=$?
	[ $rc = 1 ] || fail "status $rc, want 1: $(cat err.bad)"
	grep -q "q7cc: error: one.o: changed while it was linked" err.bad ||
		fail "no message naming one.o: $(cat err.bad)"
	no_set
	no_temps
	./qlink good one.o || fail "the link after: $(cat err.good)"
	same_set one
	;;
gnu_relink_fails | gnu_relink_fails_mc)
	# The same with the real toolchain (a cut object, a symbol nobody
	# defines); and a -g link over a release set keeps no stripped or
	# packed image of the old build beside its own.
	serial_sets
	relinks_fail <<-EOF
		cut_object cut.o
		undefined_symbol u.o
	EOF
	./qlink good one.o || fail "the good link: $(cat err.good)"
	"$q7cc" --q7-toolchain=gnu $MC -g -shared one.o -o libk.so || fail "the -g link"
	[ "$(libk_here)" = "$(set_names | grep -v -e stripped -e packed)" ] ||
		fail "-g over a release set: $(libk_here | tr '\n' ' ')"
	;;
relink_sigterm | relink_sigterm_mc)
	# SIGTERM to q7cc alone while it relinks: it dies by SIGTERM, every
	# link stops, and none of the set is left, old or new.
	slow_linker
	serial_sets
	./qlink good one.o || fail "the good link: $(cat err.good)"
	same_set one
	: > log
	DELAY=60 ./qlink A two.o &
	bg=$!
	await_lines '^start' log $nimg
	term_stops $bg err.A
	grep -q '^end' log && fail "a stopped link finished: $(cat log)"
	none_left
	no_temps
	# Only the lock file may stay (removing it from a signal handler could
	# come after another link took the next one); it holds nothing, and
	# the next link takes it at once and removes it.
	[ "$(libk_here)" = .libk.so.lock ] || fail "left of the set: $(libk_here | tr '\n' ' ')"
	flock -n .libk.so.lock true || fail "the lock is still held"
	./qlink good one.o || fail "the link after: $(cat err.good)"
	grep -q 'waiting for another link' err.good && fail "the link after waited"
	same_set one
	;;
lock_wait_sigterm)
	# A link waiting for another link of the same output is stopped by
	# SIGTERM: it dies at once, touching nothing; the first completes.
	slow_linker
	serial_sets
	: > log
	DELAY=3 ./qlink A one.o &
	a=$!
	await_lines 'start A' log
	./qlink B two.o &
	bg=$!
	await_lines 'waiting for another link' err.B
	term_stops $bg err.B
	grep -q '^end A' log && fail "A ended before B was stopped: too slow a machine? $(cat log)"
	wait $a || fail "link A: $(cat err.A)"
	grep -q ' B ' log && fail "B linked: $(cat log)"
	same_set one
	no_temps
	;;
lock_after_sigkill)
	# A link killed outright (SIGKILL) while it holds the lock: the next
	# link neither waits for it nor keeps its lock file or staging folder.
	link_a_killed
	ls -A | grep -q '^\.libk\.so\.lock$' || fail "no lock file left by A"
	DELAY=0 ./qlink B two.o &
	bg=$!
	ended $bg || fail "link B after A was killed: $(cat err.B)"
	bg=
	grep -q 'waiting for another link' err.B && fail "B waited for a dead link"
	same_set two
	;;
linker_messages_mc)
	# Eight links at once, each linker writing its line in two pieces:
	# every line reaches q7cc's stderr whole, in one piece; when they all
	# fail, the first failure's line is shown whole and the others'
	# (stopped) are dropped, and q7cc's own message starts a line.
	serial_sets
	{ fake_linker_head; cat <<'SH'
printf 'chatty-ld: %s: first half, ' "${out##*/}" >&2
sleep 0.3
printf 'second half\n' >&2
[ -z "${FAIL_ALL:-}" ] || exit 1
exec c++ "$@"
SH
	} > chattycxx
	chmod +x chattycxx
	Q7CC_JOBS=8 Q7CC_REAL_CXX=$PWD/chattycxx "$q7cc" --q7-toolchain=$PROFILE $MC -shared one.o \
		-o libk.so 2> err.warn || fail "the link with linker messages: $(cat err.warn)"
	n=$(grep -c '^chatty-ld: libk_cpu[0-7]\.so: first half, second half$' err.warn)
	[ "$n" = 8 ] || fail "want 8 whole linker lines, got $n: $(cat err.warn)"
	[ "$(grep -c . err.warn)" = 8 ] || fail "lines beyond the linkers': $(cat err.warn)"
	same_set one
	Q7CC_JOBS=8 FAIL_ALL=1 Q7CC_REAL_CXX=$PWD/chattycxx "$q7cc" --q7-toolchain=$PROFILE $MC \
		-shared two.o -o libk.so 2> err.fail && fail "the failing link succeeded"
	n=$(grep -c '^chatty-ld: libk_cpu[0-7]\.so: first half, second half$' err.fail)
	[ "$n" = 1 ] || fail "want the first failure's line alone, got $n: $(cat err.fail)"
	grep -v '^chatty-ld: libk_cpu[0-7]\.so: first half, second half$' err.fail | grep -q 'chatty' &&
		fail "a stopped linker's half line: $(cat err.fail)"
	[ -z "$(libk_here)" ] || fail "the failed link left $(libk_here | tr '\n' ' ')"
	;;
special_outputs)
	# -o a FIFO or a device: written into, never replaced, and nothing
	# appears beside it. Single core: the image; multicore: the manifest.
	serial_sets
	mkfifo pipe || fail "mkfifo"
	mknod null c 1 3 || fail "mknod (the suite runs as root)"
	for mc in "" --q7-multicore; do
		cat pipe > got &
		bg=$!
		"$q7cc" --q7-toolchain=gnu $mc -shared one.o -o pipe 2> err || fail "-o pipe $mc: $(cat err)"
		wait $bg
		bg=
		# What a link into a file of that name gives (the name is the ops'
		# namespace).
		mkdir -p ref
		"$q7cc" --q7-toolchain=gnu $mc -shared one.o -o ref/pipe || fail "-o ref/pipe $mc"
		cmp -s got ref/pipe || fail "the FIFO did not get what -o of a file gets $mc"
		"$q7cc" --q7-toolchain=gnu $mc -shared one.o -o null 2> err || fail "-o null $mc: $(cat err)"
		[ -p pipe ] && [ -c null ] || fail "$mc: a special file was replaced"
		left=$(ls -A | grep -e '^\.\?pipe' -e '^\.\?null' | tr '\n' ' ')
		[ "$left" = "null pipe " ] || fail "$mc: written beside: $left"
	done
	no_temps
	;;
make_concurrent)
	# Two `make -j2` at once in one CMake build folder with a multicore
	# library, rounds of them, and one interrupted mid-link: afterwards
	# `make` says up to date only when every output is there, and the
	# outputs are then what a serial build gives.
	cp -r "$proj" src
	export Q7_TOOLCHAIN=gnu
	CXX="$q7cc" cmake -S src -B b -G "Unix Makefiles" -DE2E_SHARED=ON -DE2E_MULTICORE=ON \
		-DCMAKE_BUILD_TYPE=Release > configure.log 2>&1 || { cat configure.log; fail "configure"; }
	make -C b > serial.log 2>&1 || { cat serial.log; fail "the serial build"; }
	mkdir ref
	(cd b && cp libops*.so ../ref/) || fail "no outputs"
	[ "$(ls ref | wc -l)" = 28 ] || fail "not 3 + 25 outputs: $(ls ref)"
	# outputs_whole WHEN: every output there, as the serial build's, and
	# no lock file or staging folder left.
	outputs_whole() {
		for f in ref/*; do
			cmp -s "$f" "b/${f#ref/}" || fail "$1: b/${f#ref/} missing or not the serial build's"
		done
		left=$(ls -A b | grep '^\.lib')
		[ -z "$left" ] || fail "$1: left in the build folder: $left"
	}
	# up_to_date WHEN: `make` links nothing only when every output is
	# there; then everything is whole.
	up_to_date() {
		local linked=no
		[ -e b/libopsmc.so ] && [ "$(ls b/libopsmc_cpu*.so | wc -l)" -lt 24 ] &&
			linked=incomplete
		make -C b > again.log 2>&1 || { cat again.log; fail "$1: make"; }
		grep -q 'Linking CXX shared library libopsmc.so' again.log && linked=yes
		[ $linked = incomplete ] && fail "$1: make said up to date over an incomplete set"
		outputs_whole "$1"
	}
	for round in 1 2 3 4; do
		newer_than b src/add.cpp src/relu.cpp
		make -C b -j2 > m1.log 2>&1 &
		m1=$!
		make -C b -j2 > m2.log 2>&1 &
		m2=$!
		wait $m1
		wait $m2
		up_to_date "round $round"
	done
	# Interrupted while it links the multicore library (^C reaches the
	# whole process group, as from a terminal).
	newer_than b src/add.cpp
	set -m
	make -C b -j2 > int.log 2>&1 &
	mk=$!
	set +m
	for _ in $(seq 1500); do
		ls -A b | grep -q '^\.libopsmc\.so\.' && break
		sleep 0.02
	done
	kill -INT -- -$mk 2> /dev/null
	wait $mk
	[ ! -e b/libopsmc.so ] || [ "$(ls b/libopsmc_cpu*.so | wc -l)" = 24 ] ||
		fail "an interrupted link left a manifest over an incomplete set"
	up_to_date "after an interrupt"
	;;
linked_outputs | linked_outputs_mc)
	linked_outputs
	;;
full_disk)
	full_disk
	;;
stale_temps)
	stale_temps
	;;
*)
	fail "unknown case $case"
	;;
esac
echo "ok: $case"
