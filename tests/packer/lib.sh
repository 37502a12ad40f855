# tests/packer/lib.sh: shared setup for the packer's shell tests.
# Usage: . lib.sh STAGE_BIN SRC_DIR LSP_DIR   (sets PACK, UTIL, T, X, LSP)
set -eu
STAGE_BIN=$1 SRC=$2 LSP=$3
PACK=$STAGE_BIN/q7-pkg-loadlib
PY=/usr/bin/python3; [ -x $PY ] || PY=python3
UTIL="$PY $SRC/elfutil.py"
X=xtensa-lx106-elf
T=$(mktemp -d "${TMPDIR:-/tmp}/q7-packer-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T"
fail() { echo "FAIL: $*" >&2; exit 1; }
# A tool a check needs is never skipped: missing, the test fails.
need() { command -v "$1" > /dev/null || fail "$1 not found: install the Debian package $2 (scripts/setup-deps)"; }

# The kernel-like source every Xtensa image is linked from: code, data,
# bss, a constructor, strings, and sections whose names end in another's
# (.clib.text/.text) so the name table merges suffixes.
write_kernel() {
	cat > k.cpp <<'CPP'
struct Acc { int v; Acc() : v(42) {} };
static Acc acc;
static int table[16] = {1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16};
int counter;
long long big[4];
__attribute__((section(".clib.text"))) int clib_fn(int x) { return x * 5 + 1; }
__attribute__((section(".clib.rodata"))) const int clib_tab[3] = {7, 8, 9};
extern "C" int helper(int x) { return table[x & 15] * 3 + counter + acc.v + clib_tab[x % 3]; }
extern "C" int _start(void *p) { counter++; big[1]++; return clib_fn(helper((int)(long)p)) + 7; }
const char msg[] = "hello packer";
extern "C" const char *get_msg(void) { return msg; }
CPP
}

# The vendor's steps of docs/vendor-flow.md's "Pack recipe" with GNU Xtensa binutils (overlay path):
# replay IN STRIPPED PACKED [-l]
replay() {
	in=$1 out=$2 packed=$3 lookup=${4:-}
	$X-strip "$in" -o r.s1
	set -- --remove-section=.xtensa.info --remove-section=.xt.lit --remove-section=.xt.prop \
		--remove-section=.interp --remove-section=.got.loc --remove-section=.got
	[ -n "$lookup" ] || set -- "$@" --remove-section=.hash --remove-section=.dynstr \
		--remove-section=.dynsym --remove-section=.rela.plt
	for s in $($X-objdump -h r.s1 | awk '$1 ~ /^[0-9]+$/ && $3 == "00000000" {print $2}'); do
		set -- "$@" --remove-section="$s"
	done
	$X-objcopy r.s1 r.paged "$@"
	$X-objcopy r.paged "$out"
	: > r.empty.s
	$X-as -o r.empty.o r.empty.s
	$X-objcopy r.empty.o r.flat.o --add-section libdata=r.paged --set-section-flags libdata=readonly,alloc
	printf '.section libdata,"a"\n.align 4\n' > r.shim.s
	$X-as -o r.shim.o r.shim.s
	printf 'SECTIONS\n{\n  .rodata : {  lib_func = . ;  *(libdata) }\n}\n' > r.ld
	$X-ld -r -T r.ld r.shim.o r.flat.o -o "$packed"
	rm -f r.s1 r.paged r.empty.s r.empty.o r.flat.o r.shim.s r.shim.o r.ld
}

# Two good images: xt.so (Xtensa ELF32, LSP cpu0) and host.so (host ELF64).
make_images() {
	write_kernel
	$X-g++ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -c k.cpp -o k.o
	$X-g++ -shared -nostdlib -Wl,-Bsymbolic -Wl,-T,"$LSP/lsp_fll_load_cpu0/ldscripts/elf32xtensa.x" \
		-o xt.so k.o -lgcc 2>/dev/null
	printf 'static int t[4] = {1,2,3,4};\nint q7_entry(void *p) { return t[(long)p & 3]; }\n' > h.c
	cc -shared -fPIC -O2 h.c -o host.so
}

# xtw.so: an Xtensa image whose dynamic relocations name symbols
# (fixture/bind.c with -Bsymbolic-functions): undefined weak GLOB_DAT and
# JMP_SLOT, the PLT's R_XTENSA_RTLD, a defined symbol's GLOB_DAT. Without
# -l the packer binds them all.
make_bind_image() {
	$X-gcc -std=c11 -Os -fpic -mlongcalls -shared -nostdlib -Wl,-Bsymbolic-functions \
		-Wl,--no-undefined -Wl,-T,"$LSP/lsp_fll_load_cpu0/ldscripts/elf32xtensa.x" \
		-o xtw.so "$SRC/fixture/bind.c" -lgcc 2>/dev/null
}
