#!/bin/sh
# Compiles each golden wrapper with a kernels file that defines what it
# declares, for the host (c++) and, when there, for Xtensa (the gnu
# profile's flags), so the forward declarations are checked against real
# definitions: a mismatch leaves an undefined symbol, found with nm.
set -eu
dir=$1 inc=$2 cxx=$3 xgxx=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for g in "$dir"/golden/*.cpp; do
	name=$(basename "$g" .cpp)
	kern="$dir/kernels/$name.cpp"
	[ -f "$kern" ] || { echo "no kernels file for $name"; status=1; continue; }
	for target in host xtensa; do
		if [ $target = host ]; then
			cc=$cxx; flags="-std=c++14 -fPIC -Wall -Wextra -Werror"
		else
			[ -n "$xgxx" ] || continue
			cc=$xgxx; flags="-std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -Wextra -Werror"
		fi
		$cc $flags -I"$inc" -c "$g" -o "$tmp/w.o"
		$cc $flags -I"$inc" -c "$kern" -o "$tmp/k.o"
		# every kernel the wrapper calls is defined by the kernels file
		nm "$tmp/w.o" | awk '$1 == "U" {print $2}' | sort > "$tmp/undef"
		nm "$tmp/k.o" | awk '$2 == "T" {print $3}' | sort > "$tmp/def"
		missing=$(grep -v -e '^customop_' -e '^_Z[0-9]*customop_' "$tmp/undef" |
			grep -v -e switch_stack_or_call_wrapper -e switchBack -e switched_stack \
			     -e q7rt_ -e _GLOBAL_OFFSET_TABLE_ -e __stack_chk |
			comm -23 - "$tmp/def" || true)
		if [ -n "$missing" ]; then
			echo "$name ($target): the wrapper needs symbols the kernels do not define:"
			echo "$missing"
			status=1
		fi
	done
done
exit $status
