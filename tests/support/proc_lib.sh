# Sourced by the tests that run q7 tools against slow fake tools
# (tests/support/slow_tools.sh, tests/e2e/link_outputs.sh): a fresh
# WORKDIR with pids/ (each fake records its pid there) and tmp/ (TMPDIR),
# a trap that kills whatever a failed check leaves running, and the checks
# that processes and temporaries are gone. Expects $work; leaves the shell
# in it with PIDS exported.
rm -rf "$work"
mkdir -p "$work/pids" "$work/tmp"
cd "$work" || exit 1
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE Q7CC_SAVE_TEMPS Q7CC_EMU_JOBS || true
export PIDS=$PWD/pids

# Whatever a failed check leaves running is killed on the way out (a
# fake that records itself as link.PID.pid with its process group: it
# leads one, as q7cc starts it).
cleanup() {
	for f in "$PIDS"/*.pid; do
		[ -e "$f" ] && kill -KILL "$(cat "$f")" 2> /dev/null
	done
	for f in "$PIDS"/link.*.pid; do
		[ -e "$f" ] && kill -KILL -- "-$(cat "$f")" 2> /dev/null
	done
	[ -n "${bg:-}" ] && kill -KILL "$bg" 2> /dev/null
	return 0
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# alive PID: the process runs (a zombie does not).
alive() {
	local st
	case $1 in '' | *[!0-9]*) return 1 ;; esac
	st=$(sed 's/.*) //' "/proc/$1/stat" 2> /dev/null | cut -d' ' -f1) || return 1
	[ -n "$st" ] && [ "$st" != Z ]
}

# count: how many fakes recorded themselves.
count() { ls "$PIDS" | grep -c '\.pid$'; }

# await N: until N fakes have recorded themselves (60 s at most).
await() {
	for _ in $(seq 1200); do
		[ "$(count)" -ge "$1" ] && return 0
		sleep 0.05
	done
	fail "only $(count) of $1 fake processes started"
}

# none_left: every recorded process has ended (10 s at most, for the
# grandchildren, which nobody waits for, to die of their signal).
none_left() {
	local left
	for _ in $(seq 200); do
		left=
		for f in "$PIDS"/*.pid; do
			[ -e "$f" ] && alive "$(cat "$f")" && left="$left $(basename "$f" .pid)"
		done
		[ -z "$left" ] && return 0
		sleep 0.05
	done
	fail "still running:$left"
}

# ended PID: the status of the background job PID, which must end within
# 30 s (a fake tool left to itself takes 60).
ended() {
	for _ in $(seq 600); do
		alive "$1" || break
		sleep 0.05
	done
	alive "$1" && fail "still running 30 s after the signal"
	wait "$1"
}

no_temps() {
	[ -z "$(ls -A tmp)" ] || fail "temporary files left: $(ls -RA tmp)"
}

