# Sourced by link_outputs.sh: -o as a link or a special file
# (wrapper/outset.h, docs/robustness.md "Outputs, for every tool"), the
# cases linked_outputs[_mc]. Each kind of -o, one link of one.o into it:
# - a link to a regular file: written through; the link stays a link, the
#   file it names gets the image (or manifest) and the whole set is beside
#   that file, byte for byte a serial link's; nothing beside the link;
# - a link to a directory: refused naming -o, nothing written anywhere;
# - a dangling link: replaced by the set (as every q7cc output replaces
#   one), its target never created;
# - a link to /proc/self/fd/1 (what /dev/stdout is) redirected to a file:
#   the file gets what -o of a file of that name gets; the link stays and
#   nothing appears beside either;
# - links to /dev/null, to a FIFO and to a device node: written into,
#   never replaced, nothing beside them.
# Expects serial_sets run (serial/one: the set of libk.so), $MC, $PROFILE.

# only_here NAMES: this folder holds exactly NAMES (besides the test's own
# files), hidden ones included.
only_here() {
	local got
	got=$(ls -A | grep -v -e '^one\.' -e '^two\.' -e '^serial$' -e '^tmp$' -e '^pids$' \
		-e '^qlink$' -e '^err' -e '^ref$' -e '^log$' -e '^got$' -e '^stage$' | tr '\n' ' ')
	[ "$got" = "${*:+$* }" ] || fail "$where: here: '$got', want '$*'"
}

# qlink_to OUT: the link of one.o into OUT, its stderr in err.
qlink_to() {
	TMPDIR=$PWD/tmp "$q7cc" --q7-toolchain=$PROFILE $MC -shared one.o -o "$1" 2> err < /dev/null
}

linked_outputs() {
	local where rc
	serial_sets

	where="a link to a regular file"
	mkdir stage
	echo old > stage/libk.so
	ln -s stage/libk.so libk.so
	qlink_to libk.so || fail "$where: $(cat err)"
	[ -L libk.so ] && [ "$(readlink libk.so)" = stage/libk.so ] || fail "$where: the link was replaced"
	ln -s ../serial stage/serial
	(cd stage && is_set one) || fail "$where: not the serial set beside the file: $(ls -A stage | tr '\n' ' ')"
	only_here libk.so
	no_temps
	# A relink through it, and a link of a link.
	ln -s libk.so libk2.so
	qlink_to libk2.so || fail "$where, twice: $(cat err)"
	[ -L libk2.so ] && [ -L libk.so ] || fail "$where, twice: a link was replaced"
	rm -rf stage libk.so libk2.so

	where="a link to a directory"
	mkdir stage
	ln -s stage libk.so
	qlink_to libk.so
	rc=$?
	[ $rc != 0 ] || fail "$where: status 0"
	grep -q "libk.so: cannot write: Is a directory" err || fail "$where: no message: $(cat err)"
	[ -L libk.so ] && [ -z "$(ls -A stage)" ] || fail "$where: something was written"
	only_here libk.so
	no_temps
	rm -rf stage libk.so

	# A link of the test's own as /dev/stdout is (to /proc/self/fd/1): a
	# q7cc that replaced the link would replace the system's /dev/stdout.
	where="a link to /proc/self/fd/1 (as /dev/stdout), redirected to a file"
	mkdir -p ref
	"$q7cc" --q7-toolchain=$PROFILE $MC -shared one.o -o ref/stdout || fail "$where: -o ref/stdout"
	ln -s /proc/self/fd/1 stdout
	qlink_to stdout > got || fail "$where: $(cat err)"
	cmp -s got ref/stdout || fail "$where: not what -o of a file gets"
	[ "$(readlink stdout)" = /proc/self/fd/1 ] || fail "$where: the link was replaced"
	only_here stdout
	no_temps
	rm -f got stdout

	# Multicore: the manifest's cases above; the rest takes the same
	# paths in the set for one image as for a manifest.
	[ -z "$MC" ] || return 0

	where="a dangling link"
	ln -s nowhere/libk.so libk.so
	qlink_to libk.so || fail "$where: $(cat err)"
	[ ! -L libk.so ] && [ ! -e nowhere ] || fail "$where: not replaced, or its target made"
	is_set one || fail "$where: not the serial set: $(libk_here | tr '\n' ' ')"
	rm -f libk*
	no_temps

	where="links to special files"
	mkfifo pipe || fail "mkfifo"
	mknod dev c 1 3 || fail "mknod (the suite runs as root)"
	ln -s /dev/null to_null
	ln -s pipe to_pipe
	ln -s dev to_dev
	cat to_pipe > got &
	bg=$!
	qlink_to to_pipe || fail "$where: the FIFO: $(cat err)"
	wait $bg
	bg=
	"$q7cc" --q7-toolchain=$PROFILE $MC -shared one.o -o ref/to_pipe || fail "$where: -o ref/to_pipe"
	cmp -s got ref/to_pipe || fail "$where: the FIFO did not get what -o of a file gets"
	rm -f got
	qlink_to to_null || fail "$where: /dev/null: $(cat err)"
	qlink_to to_dev || fail "$where: the device: $(cat err)"
	[ -L to_null ] && [ -L to_pipe ] && [ -L to_dev ] && [ -p pipe ] && [ -c dev ] && [ -c /dev/null ] ||
		fail "$where: a link or a special file was replaced"
	only_here dev pipe to_dev to_null to_pipe
	no_temps
}

# full_disk: a disk that holds the linked image but not its stripped
# twin (a tmpfs of the image's size and 16 KiB, in a mount namespace of
# its own, so that nothing outlives the test): status 1, the message names
# the twin by the name the user knows, not the staging folder's, and
# nothing is left on the disk.
full_disk() {
	serial_sets
	local size=$(($(stat -c %s serial/one/libk.so) + 16384))
	mkdir disk
	unshare -m sh -c "mount -t tmpfs -o size=$size tmpfs disk || exit 99
		TMPDIR=$PWD/tmp \"$q7cc\" --q7-toolchain=$PROFILE -shared one.o -o disk/libk.so 2> err
		echo \$? > rc
		ls -A disk > left" < /dev/null
	[ "$(cat rc)" = 1 ] || fail "status $(cat rc), want 1: $(cat err)"
	grep -q "^q7cc: error: disk/libk.stripped.so: writing the stripped image: No space left on device$" err ||
		fail "the message does not name disk/libk.stripped.so: $(cat err)"
	[ -z "$(cat left)" ] || fail "left on the full disk: $(cat left)"
	no_temps
}

# stale_temps: a link killed outright (SIGKILL) leaves its q7cc.XXXXXX in
# $TMPDIR; the next run that makes one removes it once it is a minute old
# (its mtime set back here) and nobody holds its owner lock. Not removed:
# the same when a process still holds the lock (a live run), or when the
# folder has no lock file (Q7CC_SAVE_TEMPS keeps it), or is fresh, or its
# lock is not a regular file (a FIFO planted there hung every run).
stale_temps() {
	link_a_killed
	kill -KILL -- "-$(cat "$PIDS"/link.*.pid)" 2> /dev/null
	local killed
	killed=$(ls tmp | grep '^q7cc\.')
	[ -n "$killed" ] && [ -e "tmp/$killed/.owner.lock" ] || fail "no q7cc.* with a lock left by the killed link: $(ls -A tmp)"
	# A live run's folder (its lock held), a kept one, and a fresh one.
	mkdir tmp/q7cc.livexx tmp/q7cc.keptxx tmp/q7cc.freshx tmp/q7cc.fifoxx
	mkfifo tmp/q7cc.fifoxx/.owner.lock
	: > tmp/q7cc.livexx/.owner.lock
	: > tmp/q7cc.freshx/.owner.lock
	exec 9< tmp/q7cc.livexx/.owner.lock
	flock -n 9 || fail "cannot lock q7cc.livexx"
	touch -d '2 minutes ago' "tmp/$killed" tmp/q7cc.livexx tmp/q7cc.keptxx tmp/q7cc.fifoxx
	timeout 30 ./qlink good one.o || fail "the link after (124: it hung): $(cat err.good)"
	exec 9<&-
	[ ! -e "tmp/$killed" ] || fail "the killed link's $killed is still there"
	[ "$(ls tmp | tr '\n' ' ')" = "q7cc.fifoxx q7cc.freshx q7cc.keptxx q7cc.livexx " ] ||
		fail "removed more, or less: $(ls tmp | tr '\n' ' ')"
}
