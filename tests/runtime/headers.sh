#!/bin/sh
# The kernel-author headers compile the example kernels with every compiler
# that meets them: the host's c++, clang++ (as the analysis parses), and the
# gnu profile's xtensa-lx106-elf-g++, which has no C++ library at all (so
# std::initializer_list comes from <torch/torch.h>). Warnings are errors.
set -eu
inc=$1 examples=$2
shift 2
status=0
for cxx in "$@"; do
	[ -n "$cxx" ] || continue
	command -v "$cxx" > /dev/null 2>&1 || { echo "$cxx: not found"; status=1; continue; }
	for f in "$examples"/ops/*.cpp "$examples"/neuron_sample/*.cpp "$examples"/guide/*.cpp; do
		if ! "$cxx" -std=c++14 -fsyntax-only -Wall -Wextra -Wshadow -Werror -I"$inc" "$f"; then
			echo "FAIL: $cxx $f"
			status=1
		fi
	done
done
exit $status
