#!/bin/sh
# e2e.preprocess_stream: q7cc -E into a stream: a FIFO
# and a link to a pipe (-o /dev/stdout | ...) get the text with its
# trailer, so the compile that follows keeps the kernel; /dev/null gets
# the text alone (nobody reads the records).
#   preprocess_stream.sh Q7CC_HOST WORKDIR
set -eu
q7=$1 work=$2
. "$(dirname "$0")/one_kernel.sh"
has_kernel() { # TEXT: compiles to an object with k's record
	"$q7" -c "$1" -o "$1.o" || fail "compile of $1"
	"$q7" --q7-print-schema "$1.o" | grep -q '^k(Tensor x) -> Tensor$' ||
		fail "$1 lost the kernel: $(tail -c 100 "$1")"
}
mkfifo fifo
cat fifo > fifo.ii &
reader=$!
"$q7" -E k.cpp -o fifo || fail "-E -o FIFO"
wait "$reader"
has_kernel fifo.ii
"$q7" -E k.cpp -o /dev/stdout | cat > pipe.ii
has_kernel pipe.ii
"$q7" -E k.cpp -o /dev/null || fail "-E -o /dev/null"
echo "preprocess_stream: ok"
