# Sourced by the tests that change a source for make or ninja to rebuild
# (tests/e2e/link_outputs.sh, tests/e2e/package.sh); POSIX sh.
# newer_than DIR FILE...: touches each FILE until its mtime is later than
# that of every file under DIR (the build folder). The file system's clock
# moves in ticks, so a touch right after a build may get the very mtime
# the build's last output got, and make would call the target up to date;
# the loop ends within a tick, where a `sleep 1` waited a whole second.
newer_than() {
	_newer_dir=$1
	shift
	_newer_last=$(find "$_newer_dir" -type f -printf '%T@ %p\n' | sort -n | tail -n 1 |
		cut -d' ' -f2-)
	for _newer_f in "$@"; do
		touch "$_newer_f"
		while [ -n "$_newer_last" ] &&
			[ -z "$(find "$_newer_f" -newer "$_newer_last")" ]; do
			touch "$_newer_f"
		done
	done
}
