/* Invocations as CMake (Makefile and Ninja generators), Make and users
 * issue them, with the exact child commands q7cc -### prints for them.
 * @GXX@/@CXX@: the real compiler, @GCC@/@CC@: its C compiler, @P@: q7cc's
 * prefix, @TMP@: -###'s
 * placeholder temporary directory. */
static const struct argv_case cases[] = {
	{"make_cmake_release", "gnu", Q7_MODE_COMPILE,
	 {"-O3", "-DNDEBUG", "-MD", "-MT", "CMakeFiles/k.dir/relu.cpp.o", "-MF", "CMakeFiles/k.dir/relu.cpp.o.d", "-o", "CMakeFiles/k.dir/relu.cpp.o", "-c", "/src/relu.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -O3 -DNDEBUG -MD -MT CMakeFiles/k.dir/relu.cpp.o -MF CMakeFiles/k.dir/relu.cpp.o.d -I@P@/include/q7cc -c -o CMakeFiles/k.dir/relu.cpp.o /src/relu.cpp\n"},
	{"make_cmake_defs", "gnu", Q7_MODE_COMPILE,
	 {"-DKDEF=1", "-I/src/include", "-isystem", "/opt/sys", "-O2", "-g", "-DNDEBUG", "-std=gnu++14", "-MD", "-MT", "o.o", "-MF", "o.o.d", "-o", "o.o", "-c", "/src/a.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -DKDEF=1 -O2 -g -DNDEBUG -std=gnu++14 -MD -MT o.o -MF o.o.d -I/src/include -isystem /opt/sys -I@P@/include/q7cc -c -o o.o /src/a.cpp\n"},
	{"make_space_include", "gnu", Q7_MODE_COMPILE,
	 {"-I/my src/inc", "-o", "CMakeFiles/k.dir/a.cpp.o", "-c", "/my src/a.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall '-I/my src/inc' -I@P@/include/q7cc -c -o CMakeFiles/k.dir/a.cpp.o '/my src/a.cpp'\n"},
	{"make_quote_path", "gnu", Q7_MODE_COMPILE,
	 {"-o", "/tmp/it's/a.o", "-c", "/tmp/it's/a.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o '/tmp/it'\\''s/a.o' '/tmp/it'\\''s/a.cpp'\n"},
	{"make_dollar_path", "gnu", Q7_MODE_COMPILE,
	 {"-o", "/tmp/$HOME/a.o", "-c", "/tmp/$HOME/a.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o '/tmp/$HOME/a.o' '/tmp/$HOME/a.cpp'\n"},
	{"make_fpic", "gnu", Q7_MODE_COMPILE,
	 {"-fPIC", "-o", "o.o", "-c", "a.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -fPIC -I@P@/include/q7cc -c -o o.o a.cpp\n"},
	{"ninja_cmake", "gnu", Q7_MODE_COMPILE,
	 {"-DFOO", "-O3", "-DNDEBUG", "-MD", "-MT", "CMakeFiles/k.dir/a.cpp.o", "-MF", "CMakeFiles/k.dir/a.cpp.o.d", "-o", "CMakeFiles/k.dir/a.cpp.o", "-c", "/src/a.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -DFOO -O3 -DNDEBUG -MD -MT CMakeFiles/k.dir/a.cpp.o -MF CMakeFiles/k.dir/a.cpp.o.d -I@P@/include/q7cc -c -o CMakeFiles/k.dir/a.cpp.o /src/a.cpp\n"},
	{"ninja_color", "gnu", Q7_MODE_COMPILE,
	 {"-fdiagnostics-color=always", "-MD", "-MT", "a.o", "-MF", "a.o.d", "-o", "a.o", "-c", "a.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -fdiagnostics-color=always -MD -MT a.o -MF a.o.d -I@P@/include/q7cc -c -o a.o a.cpp\n"},
	{"make_implicit", "gnu", Q7_MODE_COMPILE,
	 {"-O2", "-Wall", "-c", "-o", "relu.o", "relu.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -O2 -Wall -I@P@/include/q7cc -c -o relu.o relu.cpp\n"},
	{"make_no_output", "gnu", Q7_MODE_COMPILE,
	 {"-O2", "-c", "relu.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -O2 -I@P@/include/q7cc -c -o relu.o relu.cpp\n"},
	{"make_link_exe", "gnu", Q7_MODE_LINK_EXE,
	 {"relu.o", "main.o", "-o", "app", NULL},
	 "@GXX@ relu.o main.o -o app -nostartfiles -nodefaultlibs -Wl,--entry=main -Wl,--start-group -lc -lm -ldummyhost @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"},
	{"make_shared", "gnu", Q7_MODE_LINK_SHARED,
	 {"-shared", "-o", "libops.so", "relu.o", NULL},
	 "# q7cc: collect records from 1 input\n"
	 "# q7cc: merge records\n"
	 "# q7cc: codegen @TMP@/wrapper.cpp\n"
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o @TMP@/wrapper.o @TMP@/wrapper.cpp\n"
	 "@GXX@ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined -Wl,--no-warn-rwx-segments -Wl,-T,@P@/share/q7cc/lsp/lsp_fll_load_cpu_single/ldscripts/elf32xtensa.x -L@P@/lib/q7cc/xtensa/lsp -o .libops.so.XXXXXX/libops.so relu.o @TMP@/wrapper.o -Wl,--start-group @P@/lib/q7cc/xtensa/libq7rt.a -lm -lc @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"
	 "# q7cc: pack libops.so -> libops.stripped.so libops.packed.so\n"
	 "# q7cc: commit libops.so and 2 more files from .libops.so.XXXXXX\n"},
	{"cmake_shared_release", "gnu", Q7_MODE_LINK_SHARED,
	 {"-fPIC", "-O3", "-DNDEBUG", "-shared", "-Wl,-soname,libops.so", "-o", "libops.so", "CMakeFiles/ops.dir/relu.cpp.o", NULL},
	 "# q7cc: collect records from 1 input\n"
	 "# q7cc: merge records\n"
	 "# q7cc: codegen @TMP@/wrapper.cpp\n"
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -fPIC -O3 -DNDEBUG -I@P@/include/q7cc -c -o @TMP@/wrapper.o @TMP@/wrapper.cpp\n"
	 "@GXX@ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined -Wl,--no-warn-rwx-segments -Wl,-T,@P@/share/q7cc/lsp/lsp_fll_load_cpu_single/ldscripts/elf32xtensa.x -L@P@/lib/q7cc/xtensa/lsp -fPIC -O3 -DNDEBUG -o .libops.so.XXXXXX/libops.so -Wl,-soname,libops.so CMakeFiles/ops.dir/relu.cpp.o @TMP@/wrapper.o -Wl,--start-group @P@/lib/q7cc/xtensa/libq7rt.a -lm -lc @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"
	 "# q7cc: pack libops.so -> libops.stripped.so libops.packed.so\n"
	 "# q7cc: commit libops.so and 2 more files from .libops.so.XXXXXX\n"},
	{"cmake_shared_debug", "gnu", Q7_MODE_LINK_SHARED,
	 {"-fPIC", "-O2", "-g", "-DNDEBUG", "-shared", "-Wl,-soname,libops.so", "-o", "libops.so", "x.o", NULL},
	 "# q7cc: collect records from 1 input\n"
	 "# q7cc: merge records\n"
	 "# q7cc: codegen @TMP@/wrapper.cpp\n"
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -fPIC -O2 -g -DNDEBUG -I@P@/include/q7cc -c -o @TMP@/wrapper.o @TMP@/wrapper.cpp\n"
	 "@GXX@ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined -Wl,--no-warn-rwx-segments -Wl,-T,@P@/share/q7cc/lsp/lsp_fll_load_cpu_single/ldscripts/elf32xtensa.x -L@P@/lib/q7cc/xtensa/lsp -fPIC -O2 -g -DNDEBUG -o .libops.so.XXXXXX/libops.so -Wl,-soname,libops.so x.o @TMP@/wrapper.o -Wl,--start-group @P@/lib/q7cc/xtensa/libq7rt.a -lm -lc @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"
	 "# q7cc: commit libops.so from .libops.so.XXXXXX\n"},
	{"cmake_shared_debug_pack", "gnu", Q7_MODE_LINK_SHARED,
	 {"-fPIC", "-O2", "-g", "--q7-pack", "-shared", "-o", "libops.so", "x.o", NULL},
	 "# q7cc: collect records from 1 input\n"
	 "# q7cc: merge records\n"
	 "# q7cc: codegen @TMP@/wrapper.cpp\n"
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -fPIC -O2 -g -I@P@/include/q7cc -c -o @TMP@/wrapper.o @TMP@/wrapper.cpp\n"
	 "@GXX@ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined -Wl,--no-warn-rwx-segments -Wl,-T,@P@/share/q7cc/lsp/lsp_fll_load_cpu_single/ldscripts/elf32xtensa.x -L@P@/lib/q7cc/xtensa/lsp -fPIC -O2 -g -o .libops.so.XXXXXX/libops.so x.o @TMP@/wrapper.o -Wl,--start-group @P@/lib/q7cc/xtensa/libq7rt.a -lm -lc @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"
	 "# q7cc: pack libops.so -> libops.stripped.so libops.packed.so\n"
	 "# q7cc: commit libops.so and 2 more files from .libops.so.XXXXXX\n"},
	{"cmake_compiler_id", "gnu", Q7_MODE_LINK_EXE,
	 {"CMakeCXXCompilerId.cpp", NULL},
	 "@GXX@ CMakeCXXCompilerId.cpp -nostartfiles -nodefaultlibs -Wl,--entry=main -Wl,--start-group -lc -lm -ldummyhost @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"},
	{"cmake_abi_compile", "gnu", Q7_MODE_COMPILE,
	 {"-v", "-o", "CMakeFiles/cmTC_1.dir/CMakeCXXCompilerABI.cpp.o", "-c", "/usr/share/cmake-3.25/Modules/CMakeCXXCompilerABI.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -v -I@P@/include/q7cc -c -o CMakeFiles/cmTC_1.dir/CMakeCXXCompilerABI.cpp.o /usr/share/cmake-3.25/Modules/CMakeCXXCompilerABI.cpp\n"},
	{"cmake_abi_link", "gnu", Q7_MODE_LINK_EXE,
	 {"-v", "CMakeFiles/cmTC_1.dir/CMakeCXXCompilerABI.cpp.o", "-o", "cmTC_1", NULL},
	 "@GXX@ -v CMakeFiles/cmTC_1.dir/CMakeCXXCompilerABI.cpp.o -o cmTC_1 -nostartfiles -nodefaultlibs -Wl,--entry=main -Wl,--start-group -lc -lm -ldummyhost @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"},
	{"info_version", "gnu", Q7_MODE_INFO,
	 {"--version", NULL},
	 "@GXX@ --version\n"},
	{"info_dumpmachine", "gnu", Q7_MODE_INFO,
	 {"-dumpmachine", NULL},
	 "@GXX@ -dumpmachine\n"},
	{"info_dumpversion", "gnu", Q7_MODE_INFO,
	 {"-dumpversion", NULL},
	 "@GXX@ -dumpversion\n"},
	{"info_print_search", "gnu", Q7_MODE_INFO,
	 {"-print-search-dirs", NULL},
	 "@GXX@ -print-search-dirs\n"},
	{"info_print_file", "gnu", Q7_MODE_INFO,
	 {"-print-file-name=libc.a", NULL},
	 "@GXX@ -print-file-name=libc.a\n"},
	{"info_bare_v", "gnu", Q7_MODE_INFO,
	 {"-v", NULL},
	 "@GXX@ -v\n"},
	{"info_nothing", "gnu", Q7_MODE_INFO,
	 {NULL},
	 "@GXX@\n"},
	{"info_help", "gnu", Q7_MODE_INFO,
	 {"--help", NULL},
	 "@GXX@ --help\n"},
	{"pre_E", "gnu", Q7_MODE_PREPROCESS,
	 {"-E", "a.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -E -I@P@/include/q7cc a.cpp\n"},
	{"pre_E_output", "host", Q7_MODE_PREPROCESS,
	 {"-E", "-DX=1", "a.cpp", "-o", "a.ii", NULL},
	 "@CXX@ -E -DX=1 -o a.ii a.cpp\n"},
	/* Standard input, unread under -###, may have kernels (editors ask
	 * with `-E -x c++ - -v`): the host toolchain's q7cc flags, its folder
	 * after every other (docs/driver.md, "Pass-through"). */
	{"pre_E_stdin_host", "host", Q7_MODE_PREPROCESS,
	 {"-E", "-x", "c++", "-isystem", "/opt/torch/include", "-", NULL},
	 "@CXX@ -std=c++14 -fPIC -E -x c++ -isystem /opt/torch/include -idirafter @P@/include/q7cc -\n"
	 "# q7cc: analyze <stdin>\n"
	 "# q7cc: append the records and lint of <stdin> to the output\n"},
	{"pre_E_stdin", "gnu", Q7_MODE_PREPROCESS,
	 {"-E", "-x", "c++", "-", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -E -x c++ -I@P@/include/q7cc -\n"
	 "# q7cc: analyze <stdin>\n"
	 "# q7cc: append the records and lint of <stdin> to the output\n"},
	{"pre_E_two_sources", "gnu", Q7_MODE_PREPROCESS,
	 {"-E", "a.cpp", "b.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -E -I@P@/include/q7cc a.cpp b.cpp\n"},
	{"compile_ii", "gnu", Q7_MODE_COMPILE,
	 {"-c", "/tmp/distccd_1.ii", "-o", "/tmp/distccd_2.o", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o /tmp/distccd_2.o /tmp/distccd_1.ii\n"},
	{"compile_cpp_output", "host", Q7_MODE_COMPILE,
	 {"-c", "-x", "c++-cpp-output", "k.txt", "-o", "k.o", NULL},
	 "@CXX@ -x c++-cpp-output -c -o k.o k.txt\n"},
	{"compile_stdin", "host", Q7_MODE_COMPILE,
	 {"-c", "-x", "c++", "-", "-o", "k.o", NULL},
	 "@CXX@ -std=c++14 -fPIC -x c++ -idirafter @P@/include/q7cc -c -o k.o -\n"
	 "# q7cc: analyze <stdin>\n"
	 "# q7cc: attach records to k.o\n"},
	{"pre_dM", "gnu", Q7_MODE_PREPROCESS,
	 {"-E", "-dM", "-x", "c++", "/dev/null", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -E -dM -x c++ -I@P@/include/q7cc /dev/null\n"},
	{"pre_M", "gnu", Q7_MODE_PREPROCESS,
	 {"-M", "a.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -M -I@P@/include/q7cc a.cpp\n"},
	{"pre_MM", "gnu", Q7_MODE_PREPROCESS,
	 {"-MM", "-I/inc", "a.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -MM -I/inc -I@P@/include/q7cc a.cpp\n"},
	{"syntax_only", "gnu", Q7_MODE_SYNTAX,
	 {"-fsyntax-only", "-DX", "a.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -fsyntax-only -DX -I@P@/include/q7cc a.cpp\n"},
	{"assemble", "gnu", Q7_MODE_ASSEMBLE,
	 {"-S", "-o", "a.s", "a.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -S -o a.s -I@P@/include/q7cc a.cpp\n"},
	{"q7_warnings", "gnu", Q7_MODE_COMPILE,
	 {"-c", "a.cpp", "-Wq7-foo", "-Wno-q7-bar", "-Werror=q7-baz", "-Wall", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -Wall -I@P@/include/q7cc -c -o a.o a.cpp\n"},
	{"q7_kernel_flag", "gnu", Q7_MODE_COMPILE,
	 {"-c", "a.cpp", "--q7-kernel=relu", "-o", "a.o", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o a.o a.cpp\n"},
	{"lang_x", "gnu", Q7_MODE_COMPILE,
	 {"-c", "-x", "c++", "kernel.cu", "-o", "k.o", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -x c++ -I@P@/include/q7cc -c -o k.o kernel.cu\n"},
	{"two_sources", "gnu", Q7_MODE_COMPILE,
	 {"-c", "a.cpp", "b.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o a.o a.cpp\n"
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o b.o b.cpp\n"},
	{"dashdash", "gnu", Q7_MODE_COMPILE,
	 {"-c", "-o", "w.o", "--", "-weird.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o w.o ./-weird.cpp\n"},
	{"lsp_in_compile", "gnu", Q7_MODE_COMPILE,
	 {"-c", "a.cpp", "-mlsp=/x", "-o", "a.o", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o a.o a.cpp\n"},
	{"vendor_flags_gnu", "gnu", Q7_MODE_COMPILE,
	 {"-c", "a.cpp", "-stdlib=libc++-e", "-mcoproc", "--xtensa-core=ncore2gp", "--xtensa-system=/sys", "-Wno-c99-designator", "-mlongcalls", "-o", "a.o", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -mlongcalls -I@P@/include/q7cc -c -o a.o a.cpp\n"},
	{"vendor_flags_host", "host", Q7_MODE_COMPILE,
	 {"-c", "a.cpp", "-stdlib=libc++-e", "-mcoproc", "--xtensa-core=ncore2gp", "--xtensa-system=/sys", "-Wno-c99-designator", "-mlongcalls", "-o", "a.o", NULL},
	 "@CXX@ -c -o a.o a.cpp\n"},
	{"host_cmake", "host", Q7_MODE_COMPILE,
	 {"-DFOO", "-I/src/inc", "-O3", "-DNDEBUG", "-fPIC", "-MD", "-MT", "a.o", "-MF", "a.o.d", "-o", "a.o", "-c", "/src/a.cpp", NULL},
	 "@CXX@ -DFOO -O3 -DNDEBUG -fPIC -MD -MT a.o -MF a.o.d -I/src/inc -c -o a.o /src/a.cpp\n"},
	{"host_shared", "host", Q7_MODE_LINK_SHARED,
	 {"-fPIC", "-O3", "-DNDEBUG", "-shared", "-Wl,-soname,libops.so", "-o", "libops.so", "relu.o", NULL},
	 "# q7cc: collect records from 1 input\n"
	 "# q7cc: merge records\n"
	 "# q7cc: codegen @TMP@/wrapper.cpp\n"
	 "@CXX@ -std=c++14 -fPIC -fPIC -O3 -DNDEBUG -idirafter @P@/include/q7cc -c -o @TMP@/wrapper.o @TMP@/wrapper.cpp\n"
	 "@CXX@ -shared -Wl,--no-undefined -fPIC -O3 -DNDEBUG -o .libops.so.XXXXXX/libops.so -Wl,-soname,libops.so relu.o @TMP@/wrapper.o @P@/lib/q7cc/host/libq7rt.a\n"
	 "# q7cc: pack libops.so -> libops.stripped.so libops.packed.so\n"
	 "# q7cc: commit libops.so and 2 more files from .libops.so.XXXXXX\n"},
	/* libtool's C++ link: -nostdlib with the compiler's own libraries
	 * named before the runtime, which then needs them after it. */
	{"host_libtool_nostdlib", "host", Q7_MODE_LINK_SHARED,
	 {"-shared", "-nostdlib", "/crti.o", "relu.o", "-lstdc++", "-lm", "-lc", "-lgcc_s", "/crtn.o", "-o", "libops.so.0.0.0", NULL},
	 "# q7cc: collect records from 3 inputs\n"
	 "# q7cc: merge records\n"
	 "# q7cc: codegen @TMP@/wrapper.cpp\n"
	 "@CXX@ -std=c++14 -fPIC -idirafter @P@/include/q7cc -c -o @TMP@/wrapper.o @TMP@/wrapper.cpp\n"
	 "@CXX@ -shared -Wl,--no-undefined -nostdlib -o .libops.so.0.0.0.XXXXXX/libops.so.0.0.0 /crti.o relu.o @TMP@/wrapper.o -lstdc++ -lm -lc -lgcc_s /crtn.o @P@/lib/q7cc/host/libq7rt.a -lstdc++ -lm -lc\n"
	 "# q7cc: pack libops.so.0.0.0 -> libops.so.0.0.0.stripped.so libops.so.0.0.0.packed.so\n"
	 "# q7cc: commit libops.so.0.0.0 and 2 more files from .libops.so.0.0.0.XXXXXX\n"},
	{"host_multicore", "host", Q7_MODE_LINK_SHARED,
	 {"--q7-multicore", "-shared", "-o", "libops.so", "relu.o", NULL},
	 "# q7cc: collect records from 1 input\n"
	 "# q7cc: merge records\n"
	 "# q7cc: codegen @TMP@/wrapper.cpp\n"
	 "@CXX@ -std=c++14 -fPIC -idirafter @P@/include/q7cc -c -o @TMP@/wrapper.o @TMP@/wrapper.cpp\n"
	 "@CXX@ -shared -Wl,--no-undefined -o .libops.so.XXXXXX/libops_cpu0.so relu.o @TMP@/wrapper.o @P@/lib/q7cc/host/libq7rt.a\n"
	 "@CXX@ -shared -Wl,--no-undefined -o .libops.so.XXXXXX/libops_cpu1.so relu.o @TMP@/wrapper.o @P@/lib/q7cc/host/libq7rt.a\n"
	 "@CXX@ -shared -Wl,--no-undefined -o .libops.so.XXXXXX/libops_cpu2.so relu.o @TMP@/wrapper.o @P@/lib/q7cc/host/libq7rt.a\n"
	 "@CXX@ -shared -Wl,--no-undefined -o .libops.so.XXXXXX/libops_cpu3.so relu.o @TMP@/wrapper.o @P@/lib/q7cc/host/libq7rt.a\n"
	 "@CXX@ -shared -Wl,--no-undefined -o .libops.so.XXXXXX/libops_cpu4.so relu.o @TMP@/wrapper.o @P@/lib/q7cc/host/libq7rt.a\n"
	 "@CXX@ -shared -Wl,--no-undefined -o .libops.so.XXXXXX/libops_cpu5.so relu.o @TMP@/wrapper.o @P@/lib/q7cc/host/libq7rt.a\n"
	 "@CXX@ -shared -Wl,--no-undefined -o .libops.so.XXXXXX/libops_cpu6.so relu.o @TMP@/wrapper.o @P@/lib/q7cc/host/libq7rt.a\n"
	 "@CXX@ -shared -Wl,--no-undefined -o .libops.so.XXXXXX/libops_cpu7.so relu.o @TMP@/wrapper.o @P@/lib/q7cc/host/libq7rt.a\n"
	 "# q7cc: pack libops_cpu0.so -> libops_cpu0.stripped.so libops_cpu0.packed.so\n"
	 "# q7cc: pack libops_cpu1.so -> libops_cpu1.stripped.so libops_cpu1.packed.so\n"
	 "# q7cc: pack libops_cpu2.so -> libops_cpu2.stripped.so libops_cpu2.packed.so\n"
	 "# q7cc: pack libops_cpu3.so -> libops_cpu3.stripped.so libops_cpu3.packed.so\n"
	 "# q7cc: pack libops_cpu4.so -> libops_cpu4.stripped.so libops_cpu4.packed.so\n"
	 "# q7cc: pack libops_cpu5.so -> libops_cpu5.stripped.so libops_cpu5.packed.so\n"
	 "# q7cc: pack libops_cpu6.so -> libops_cpu6.stripped.so libops_cpu6.packed.so\n"
	 "# q7cc: pack libops_cpu7.so -> libops_cpu7.stripped.so libops_cpu7.packed.so\n"
	 "# q7cc: write manifest libops.so\n"
	 "# q7cc: commit libops.so and 24 more files from .libops.so.XXXXXX\n"},
	{"gnu_multicore", "gnu", Q7_MODE_LINK_SHARED,
	 {"--q7-multicore", "-shared", "-o", "out/libops.so", "relu.o", NULL},
	 "# q7cc: collect records from 1 input\n"
	 "# q7cc: merge records\n"
	 "# q7cc: codegen @TMP@/wrapper.cpp\n"
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o @TMP@/wrapper.o @TMP@/wrapper.cpp\n"
	 "@GXX@ -r -nostdlib -Wl,-u,_start -L@P@/lib/q7cc/xtensa/lsp -o @TMP@/resolved.o relu.o -Wl,--start-group @P@/lib/q7cc/xtensa/libq7rt.a -lm -lc @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu0/ldscripts/elf32xtensa.x -o out/.libops.so.XXXXXX/libops_cpu0.so @TMP@/resolved.o @TMP@/wrapper.o\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu1/ldscripts/elf32xtensa.x -o out/.libops.so.XXXXXX/libops_cpu1.so @TMP@/resolved.o @TMP@/wrapper.o\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu2/ldscripts/elf32xtensa.x -o out/.libops.so.XXXXXX/libops_cpu2.so @TMP@/resolved.o @TMP@/wrapper.o\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu3/ldscripts/elf32xtensa.x -o out/.libops.so.XXXXXX/libops_cpu3.so @TMP@/resolved.o @TMP@/wrapper.o\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu4/ldscripts/elf32xtensa.x -o out/.libops.so.XXXXXX/libops_cpu4.so @TMP@/resolved.o @TMP@/wrapper.o\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu5/ldscripts/elf32xtensa.x -o out/.libops.so.XXXXXX/libops_cpu5.so @TMP@/resolved.o @TMP@/wrapper.o\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu6/ldscripts/elf32xtensa.x -o out/.libops.so.XXXXXX/libops_cpu6.so @TMP@/resolved.o @TMP@/wrapper.o\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu7/ldscripts/elf32xtensa.x -o out/.libops.so.XXXXXX/libops_cpu7.so @TMP@/resolved.o @TMP@/wrapper.o\n"
	 "# q7cc: pack out/libops_cpu0.so -> out/libops_cpu0.stripped.so out/libops_cpu0.packed.so\n"
	 "# q7cc: pack out/libops_cpu1.so -> out/libops_cpu1.stripped.so out/libops_cpu1.packed.so\n"
	 "# q7cc: pack out/libops_cpu2.so -> out/libops_cpu2.stripped.so out/libops_cpu2.packed.so\n"
	 "# q7cc: pack out/libops_cpu3.so -> out/libops_cpu3.stripped.so out/libops_cpu3.packed.so\n"
	 "# q7cc: pack out/libops_cpu4.so -> out/libops_cpu4.stripped.so out/libops_cpu4.packed.so\n"
	 "# q7cc: pack out/libops_cpu5.so -> out/libops_cpu5.stripped.so out/libops_cpu5.packed.so\n"
	 "# q7cc: pack out/libops_cpu6.so -> out/libops_cpu6.stripped.so out/libops_cpu6.packed.so\n"
	 "# q7cc: pack out/libops_cpu7.so -> out/libops_cpu7.stripped.so out/libops_cpu7.packed.so\n"
	 "# q7cc: write manifest out/libops.so\n"
	 "# q7cc: commit out/libops.so and 24 more files from out/.libops.so.XXXXXX\n"},
	{"gnu_multicore_cmake", "gnu", Q7_MODE_LINK_SHARED,
	 {"-fPIC", "-O3", "-DNDEBUG", "--q7-multicore", "-shared", "-Wl,-soname,libops.so", "-o", "libops.so", "CMakeFiles/ops.dir/relu.cpp.o", NULL},
	 "# q7cc: collect records from 1 input\n"
	 "# q7cc: merge records\n"
	 "# q7cc: codegen @TMP@/wrapper.cpp\n"
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -fPIC -O3 -DNDEBUG -I@P@/include/q7cc -c -o @TMP@/wrapper.o @TMP@/wrapper.cpp\n"
	 "@GXX@ -r -nostdlib -Wl,-u,_start -L@P@/lib/q7cc/xtensa/lsp -o @TMP@/resolved.o CMakeFiles/ops.dir/relu.cpp.o -Wl,--start-group @P@/lib/q7cc/xtensa/libq7rt.a -lm -lc @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu0/ldscripts/elf32xtensa.x -soname libops.so -o .libops.so.XXXXXX/libops_cpu0.so @TMP@/resolved.o @TMP@/wrapper.o\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu1/ldscripts/elf32xtensa.x -soname libops.so -o .libops.so.XXXXXX/libops_cpu1.so @TMP@/resolved.o @TMP@/wrapper.o\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu2/ldscripts/elf32xtensa.x -soname libops.so -o .libops.so.XXXXXX/libops_cpu2.so @TMP@/resolved.o @TMP@/wrapper.o\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu3/ldscripts/elf32xtensa.x -soname libops.so -o .libops.so.XXXXXX/libops_cpu3.so @TMP@/resolved.o @TMP@/wrapper.o\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu4/ldscripts/elf32xtensa.x -soname libops.so -o .libops.so.XXXXXX/libops_cpu4.so @TMP@/resolved.o @TMP@/wrapper.o\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu5/ldscripts/elf32xtensa.x -soname libops.so -o .libops.so.XXXXXX/libops_cpu5.so @TMP@/resolved.o @TMP@/wrapper.o\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu6/ldscripts/elf32xtensa.x -soname libops.so -o .libops.so.XXXXXX/libops_cpu6.so @TMP@/resolved.o @TMP@/wrapper.o\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu7/ldscripts/elf32xtensa.x -soname libops.so -o .libops.so.XXXXXX/libops_cpu7.so @TMP@/resolved.o @TMP@/wrapper.o\n"
	 "# q7cc: pack libops_cpu0.so -> libops_cpu0.stripped.so libops_cpu0.packed.so\n"
	 "# q7cc: pack libops_cpu1.so -> libops_cpu1.stripped.so libops_cpu1.packed.so\n"
	 "# q7cc: pack libops_cpu2.so -> libops_cpu2.stripped.so libops_cpu2.packed.so\n"
	 "# q7cc: pack libops_cpu3.so -> libops_cpu3.stripped.so libops_cpu3.packed.so\n"
	 "# q7cc: pack libops_cpu4.so -> libops_cpu4.stripped.so libops_cpu4.packed.so\n"
	 "# q7cc: pack libops_cpu5.so -> libops_cpu5.stripped.so libops_cpu5.packed.so\n"
	 "# q7cc: pack libops_cpu6.so -> libops_cpu6.stripped.so libops_cpu6.packed.so\n"
	 "# q7cc: pack libops_cpu7.so -> libops_cpu7.stripped.so libops_cpu7.packed.so\n"
	 "# q7cc: write manifest libops.so\n"
	 "# q7cc: commit libops.so and 24 more files from .libops.so.XXXXXX\n"},
	{"gnu_multicore_archives", "gnu", Q7_MODE_LINK_SHARED,
	 {"--q7-multicore", "-shared", "-Wl,--gc-sections,-Map=ops.map", "-o", "libops.so", "relu.o", "-Wl,--whole-archive", "libk.a", "-Wl,--no-whole-archive", "-L/opt/lib", "-lmine", NULL},
	 "# q7cc: collect records from 2 inputs\n"
	 "# q7cc: merge records\n"
	 "# q7cc: codegen @TMP@/wrapper.cpp\n"
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o @TMP@/wrapper.o @TMP@/wrapper.cpp\n"
	 "@GXX@ -r -nostdlib -Wl,-u,_start -L@P@/lib/q7cc/xtensa/lsp -L/opt/lib -o @TMP@/resolved.o relu.o -Xlinker --whole-archive @TMP@/wrapper.o libk.a -Xlinker --no-whole-archive -lmine -Wl,--start-group @P@/lib/q7cc/xtensa/libq7rt.a -lm -lc @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu0/ldscripts/elf32xtensa.x --gc-sections -Map=ops.map -o .libops.so.XXXXXX/libops_cpu0.so @TMP@/resolved.o\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu1/ldscripts/elf32xtensa.x --gc-sections -Map=ops.map -o .libops.so.XXXXXX/libops_cpu1.so @TMP@/resolved.o\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu2/ldscripts/elf32xtensa.x --gc-sections -Map=ops.map -o .libops.so.XXXXXX/libops_cpu2.so @TMP@/resolved.o\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu3/ldscripts/elf32xtensa.x --gc-sections -Map=ops.map -o .libops.so.XXXXXX/libops_cpu3.so @TMP@/resolved.o\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu4/ldscripts/elf32xtensa.x --gc-sections -Map=ops.map -o .libops.so.XXXXXX/libops_cpu4.so @TMP@/resolved.o\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu5/ldscripts/elf32xtensa.x --gc-sections -Map=ops.map -o .libops.so.XXXXXX/libops_cpu5.so @TMP@/resolved.o\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu6/ldscripts/elf32xtensa.x --gc-sections -Map=ops.map -o .libops.so.XXXXXX/libops_cpu6.so @TMP@/resolved.o\n"
	 "@LD@ -shared -Bsymbolic --no-undefined --no-warn-rwx-segments -T @P@/share/q7cc/lsp/lsp_fll_load_cpu7/ldscripts/elf32xtensa.x --gc-sections -Map=ops.map -o .libops.so.XXXXXX/libops_cpu7.so @TMP@/resolved.o\n"
	 "# q7cc: pack libops_cpu0.so -> libops_cpu0.stripped.so libops_cpu0.packed.so\n"
	 "# q7cc: pack libops_cpu1.so -> libops_cpu1.stripped.so libops_cpu1.packed.so\n"
	 "# q7cc: pack libops_cpu2.so -> libops_cpu2.stripped.so libops_cpu2.packed.so\n"
	 "# q7cc: pack libops_cpu3.so -> libops_cpu3.stripped.so libops_cpu3.packed.so\n"
	 "# q7cc: pack libops_cpu4.so -> libops_cpu4.stripped.so libops_cpu4.packed.so\n"
	 "# q7cc: pack libops_cpu5.so -> libops_cpu5.stripped.so libops_cpu5.packed.so\n"
	 "# q7cc: pack libops_cpu6.so -> libops_cpu6.stripped.so libops_cpu6.packed.so\n"
	 "# q7cc: pack libops_cpu7.so -> libops_cpu7.stripped.so libops_cpu7.packed.so\n"
	 "# q7cc: write manifest libops.so\n"
	 "# q7cc: commit libops.so and 24 more files from .libops.so.XXXXXX\n"},
	/* A linker option the split link does not know: the eight full links. */
	{"gnu_multicore_unknown_ld", "gnu", Q7_MODE_LINK_SHARED,
	 {"--q7-multicore", "-shared", "-o", "libops.so", "relu.o", "-Wl,--wrap=malloc", NULL},
	 "# q7cc: collect records from 1 input\n"
	 "# q7cc: merge records\n"
	 "# q7cc: codegen @TMP@/wrapper.cpp\n"
	 "# q7cc: eight full links: linker option --wrap=malloc: not one the split link knows\n"
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o @TMP@/wrapper.o @TMP@/wrapper.cpp\n"
	 "@GXX@ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined -Wl,--no-warn-rwx-segments -Wl,-T,@P@/share/q7cc/lsp/lsp_fll_load_cpu0/ldscripts/elf32xtensa.x -L@P@/lib/q7cc/xtensa/lsp -o .libops.so.XXXXXX/libops_cpu0.so relu.o -Wl,--wrap=malloc @TMP@/wrapper.o -Wl,--start-group @P@/lib/q7cc/xtensa/libq7rt.a -lm -lc @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"
	 "@GXX@ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined -Wl,--no-warn-rwx-segments -Wl,-T,@P@/share/q7cc/lsp/lsp_fll_load_cpu1/ldscripts/elf32xtensa.x -L@P@/lib/q7cc/xtensa/lsp -o .libops.so.XXXXXX/libops_cpu1.so relu.o -Wl,--wrap=malloc @TMP@/wrapper.o -Wl,--start-group @P@/lib/q7cc/xtensa/libq7rt.a -lm -lc @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"
	 "@GXX@ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined -Wl,--no-warn-rwx-segments -Wl,-T,@P@/share/q7cc/lsp/lsp_fll_load_cpu2/ldscripts/elf32xtensa.x -L@P@/lib/q7cc/xtensa/lsp -o .libops.so.XXXXXX/libops_cpu2.so relu.o -Wl,--wrap=malloc @TMP@/wrapper.o -Wl,--start-group @P@/lib/q7cc/xtensa/libq7rt.a -lm -lc @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"
	 "@GXX@ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined -Wl,--no-warn-rwx-segments -Wl,-T,@P@/share/q7cc/lsp/lsp_fll_load_cpu3/ldscripts/elf32xtensa.x -L@P@/lib/q7cc/xtensa/lsp -o .libops.so.XXXXXX/libops_cpu3.so relu.o -Wl,--wrap=malloc @TMP@/wrapper.o -Wl,--start-group @P@/lib/q7cc/xtensa/libq7rt.a -lm -lc @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"
	 "@GXX@ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined -Wl,--no-warn-rwx-segments -Wl,-T,@P@/share/q7cc/lsp/lsp_fll_load_cpu4/ldscripts/elf32xtensa.x -L@P@/lib/q7cc/xtensa/lsp -o .libops.so.XXXXXX/libops_cpu4.so relu.o -Wl,--wrap=malloc @TMP@/wrapper.o -Wl,--start-group @P@/lib/q7cc/xtensa/libq7rt.a -lm -lc @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"
	 "@GXX@ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined -Wl,--no-warn-rwx-segments -Wl,-T,@P@/share/q7cc/lsp/lsp_fll_load_cpu5/ldscripts/elf32xtensa.x -L@P@/lib/q7cc/xtensa/lsp -o .libops.so.XXXXXX/libops_cpu5.so relu.o -Wl,--wrap=malloc @TMP@/wrapper.o -Wl,--start-group @P@/lib/q7cc/xtensa/libq7rt.a -lm -lc @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"
	 "@GXX@ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined -Wl,--no-warn-rwx-segments -Wl,-T,@P@/share/q7cc/lsp/lsp_fll_load_cpu6/ldscripts/elf32xtensa.x -L@P@/lib/q7cc/xtensa/lsp -o .libops.so.XXXXXX/libops_cpu6.so relu.o -Wl,--wrap=malloc @TMP@/wrapper.o -Wl,--start-group @P@/lib/q7cc/xtensa/libq7rt.a -lm -lc @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"
	 "@GXX@ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined -Wl,--no-warn-rwx-segments -Wl,-T,@P@/share/q7cc/lsp/lsp_fll_load_cpu7/ldscripts/elf32xtensa.x -L@P@/lib/q7cc/xtensa/lsp -o .libops.so.XXXXXX/libops_cpu7.so relu.o -Wl,--wrap=malloc @TMP@/wrapper.o -Wl,--start-group @P@/lib/q7cc/xtensa/libq7rt.a -lm -lc @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"
	 "# q7cc: pack libops_cpu0.so -> libops_cpu0.stripped.so libops_cpu0.packed.so\n"
	 "# q7cc: pack libops_cpu1.so -> libops_cpu1.stripped.so libops_cpu1.packed.so\n"
	 "# q7cc: pack libops_cpu2.so -> libops_cpu2.stripped.so libops_cpu2.packed.so\n"
	 "# q7cc: pack libops_cpu3.so -> libops_cpu3.stripped.so libops_cpu3.packed.so\n"
	 "# q7cc: pack libops_cpu4.so -> libops_cpu4.stripped.so libops_cpu4.packed.so\n"
	 "# q7cc: pack libops_cpu5.so -> libops_cpu5.stripped.so libops_cpu5.packed.so\n"
	 "# q7cc: pack libops_cpu6.so -> libops_cpu6.stripped.so libops_cpu6.packed.so\n"
	 "# q7cc: pack libops_cpu7.so -> libops_cpu7.stripped.so libops_cpu7.packed.so\n"
	 "# q7cc: write manifest libops.so\n"
	 "# q7cc: commit libops.so and 24 more files from .libops.so.XXXXXX\n"},
	{"xlinker", "gnu", Q7_MODE_LINK_SHARED,
	 {"-Xlinker", "-soname", "-Xlinker", "libx.so", "-shared", "-o", "libx.so", "a.o", NULL},
	 "# q7cc: collect records from 1 input\n"
	 "# q7cc: merge records\n"
	 "# q7cc: codegen @TMP@/wrapper.cpp\n"
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o @TMP@/wrapper.o @TMP@/wrapper.cpp\n"
	 "@GXX@ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined -Wl,--no-warn-rwx-segments -Wl,-T,@P@/share/q7cc/lsp/lsp_fll_load_cpu_single/ldscripts/elf32xtensa.x -L@P@/lib/q7cc/xtensa/lsp -o .libx.so.XXXXXX/libx.so -Xlinker -soname -Xlinker libx.so a.o @TMP@/wrapper.o -Wl,--start-group @P@/lib/q7cc/xtensa/libq7rt.a -lm -lc @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"
	 "# q7cc: pack libx.so -> libx.stripped.so libx.packed.so\n"
	 "# q7cc: commit libx.so and 2 more files from .libx.so.XXXXXX\n"},
	{"libs_and_dirs", "gnu", Q7_MODE_LINK_SHARED,
	 {"-shared", "-o", "libx.so", "a.o", "-L/opt/lib", "-lfoo", NULL},
	 "# q7cc: collect records from 1 input\n"
	 "# q7cc: merge records\n"
	 "# q7cc: codegen @TMP@/wrapper.cpp\n"
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o @TMP@/wrapper.o @TMP@/wrapper.cpp\n"
	 "@GXX@ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined -Wl,--no-warn-rwx-segments -Wl,-T,@P@/share/q7cc/lsp/lsp_fll_load_cpu_single/ldscripts/elf32xtensa.x -L@P@/lib/q7cc/xtensa/lsp -L/opt/lib -o .libx.so.XXXXXX/libx.so a.o @TMP@/wrapper.o -lfoo -Wl,--start-group @P@/lib/q7cc/xtensa/libq7rt.a -lm -lc @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"
	 "# q7cc: pack libx.so -> libx.stripped.so libx.packed.so\n"
	 "# q7cc: commit libx.so and 2 more files from .libx.so.XXXXXX\n"},
	{"emit_wrapper", "gnu", Q7_MODE_LINK_SHARED,
	 {"-shared", "-o", "libx.so", "a.o", "--q7-emit-wrapper=w.cpp", NULL},
	 "# q7cc: collect records from 1 input\n"
	 "# q7cc: merge records\n"
	 "# q7cc: codegen @TMP@/wrapper.cpp\n"
	 "# q7cc: write w.cpp\n"
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o @TMP@/wrapper.o @TMP@/wrapper.cpp\n"
	 "@GXX@ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined -Wl,--no-warn-rwx-segments -Wl,-T,@P@/share/q7cc/lsp/lsp_fll_load_cpu_single/ldscripts/elf32xtensa.x -L@P@/lib/q7cc/xtensa/lsp -o .libx.so.XXXXXX/libx.so a.o @TMP@/wrapper.o -Wl,--start-group @P@/lib/q7cc/xtensa/libq7rt.a -lm -lc @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"
	 "# q7cc: pack libx.so -> libx.stripped.so libx.packed.so\n"
	 "# q7cc: commit libx.so and 2 more files from .libx.so.XXXXXX\n"},
	{"xt_user_flags", "xt", Q7_MODE_COMPILE,
	 {"-DX", "-I/u/inc", "-O2", "-c", "a.cpp", "-o", "a.o", NULL},
	 "xt-clang++ -g -std=c++14 -stdlib=libc++-e -fno-jump-tables -Os -Wall -Werror -Wno-c99-designator -mcoproc -MMD -MP -fpic -mlongcalls -c --xtensa-core=ncore2gp --xtensa-system=/opt/aws/neuron/gpsimd/tools/ncore2gp/config -DX -O2 -I/opt/nc -I/opt/nc/torch/include -I/opt/nc/c10/include -I/u/inc -I@P@/include/q7cc -o a.o a.cpp\n"},
	{"make_cppflags", "gnu", Q7_MODE_COMPILE,
	 {"-I.", "-DDEBUG=1", "-g", "-c", "k.cpp", "-o", "k.o", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -DDEBUG=1 -g -I. -I@P@/include/q7cc -c -o k.o k.cpp\n"},
	{"std_override", "gnu", Q7_MODE_COMPILE,
	 {"-std=c++17", "-c", "a.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -std=c++17 -I@P@/include/q7cc -c -o a.o a.cpp\n"},
	{"include_file", "gnu", Q7_MODE_COMPILE,
	 {"-include", "config.h", "-c", "a.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -include config.h -I@P@/include/q7cc -c -o a.o a.cpp\n"},
	{"iquote", "gnu", Q7_MODE_COMPILE,
	 {"-iquote", "inc", "-c", "a.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -iquote inc -I@P@/include/q7cc -c -o a.o a.cpp\n"},
	{"I_separate", "gnu", Q7_MODE_COMPILE,
	 {"-I", "inc dir", "-c", "a.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I 'inc dir' -I@P@/include/q7cc -c -o a.o a.cpp\n"},
	{"o_joined", "gnu", Q7_MODE_COMPILE,
	 {"-c", "a.cpp", "-oa.o", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o a.o a.cpp\n"},
	{"define_space", "gnu", Q7_MODE_COMPILE,
	 {"-Dname=a b", "-c", "a.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall '-Dname=a b' -I@P@/include/q7cc -c -o a.o a.cpp\n"},
	{"define_quotes", "gnu", Q7_MODE_COMPILE,
	 {"-DSTR=\"x y\"", "-c", "a.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall '-DSTR=\"x y\"' -I@P@/include/q7cc -c -o a.o a.cpp\n"},
	{"pthread", "gnu", Q7_MODE_COMPILE,
	 {"-pthread", "-c", "a.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -pthread -I@P@/include/q7cc -c -o a.o a.cpp\n"},
	{"exe_with_lsp", "gnu", Q7_MODE_LINK_EXE,
	 {"a.o", "-mlsp=/x", "-o", "app", NULL},
	 "@GXX@ a.o -Wl,-T,/x/ldscripts/elf32xtensa.x -o app -nostartfiles -nodefaultlibs -Wl,--start-group -lc -lm -ldummyhost @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"},
	{"wl_gc", "gnu", Q7_MODE_LINK_SHARED,
	 {"-Wl,--gc-sections", "-shared", "-o", "l.so", "a.o", NULL},
	 "# q7cc: collect records from 1 input\n"
	 "# q7cc: merge records\n"
	 "# q7cc: codegen @TMP@/wrapper.cpp\n"
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o @TMP@/wrapper.o @TMP@/wrapper.cpp\n"
	 "@GXX@ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined -Wl,--no-warn-rwx-segments -Wl,-T,@P@/share/q7cc/lsp/lsp_fll_load_cpu_single/ldscripts/elf32xtensa.x -L@P@/lib/q7cc/xtensa/lsp -o .l.so.XXXXXX/l.so -Wl,--gc-sections a.o @TMP@/wrapper.o -Wl,--start-group @P@/lib/q7cc/xtensa/libq7rt.a -lm -lc @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"
	 "# q7cc: pack l.so -> l.stripped.so l.packed.so\n"
	 "# q7cc: commit l.so and 2 more files from .l.so.XXXXXX\n"},
	/* C: the toolchain's C compiler, without -std=c++14 (g++ would take a.c
	 * for C++). */
	{"c_source", "gnu", Q7_MODE_COMPILE,
	 {"-c", "a.c", NULL},
	 "@GCC@ -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o a.o a.c\n"},
	{"c_source_cmake", "gnu", Q7_MODE_COMPILE,
	 {"-O3", "-DNDEBUG", "-std=gnu11", "-MD", "-MT", "CMakeFiles/k.dir/h.c.o", "-MF", "CMakeFiles/k.dir/h.c.o.d", "-o", "CMakeFiles/k.dir/h.c.o", "-c", "/src/h.c", NULL},
	 "@GCC@ -Os -fpic -mlongcalls -fno-jump-tables -Wall -O3 -DNDEBUG -std=gnu11 -MD -MT CMakeFiles/k.dir/h.c.o -MF CMakeFiles/k.dir/h.c.o.d -I@P@/include/q7cc -c -o CMakeFiles/k.dir/h.c.o /src/h.c\n"},
	{"c_source_host", "host", Q7_MODE_COMPILE,
	 {"-c", "h.c", "-o", "h.o", NULL},
	 "@CC@ -c -o h.o h.c\n"},
	{"c_preprocessed", "gnu", Q7_MODE_COMPILE,
	 {"-c", "h.i", NULL},
	 "@GCC@ -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o h.o h.i\n"},
	{"c_x_lang", "host", Q7_MODE_COMPILE,
	 {"-x", "c", "-c", "h.txt", "-o", "h.o", NULL},
	 "@CC@ -x c -c -o h.o h.txt\n"},
	{"c_and_cpp", "gnu", Q7_MODE_COMPILE,
	 {"-c", "h.c", "a.cpp", NULL},
	 "@GCC@ -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o h.o h.c\n"
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o a.o a.cpp\n"},
	/* CMake's C compiler checks (CC=q7cc): the id source is linked by the
	 * C compiler, which must not define __cplusplus. */
	{"c_cmake_compiler_id", "gnu", Q7_MODE_LINK_EXE,
	 {"CMakeCCompilerId.c", NULL},
	 "@GCC@ CMakeCCompilerId.c -nostartfiles -nodefaultlibs -Wl,--entry=main -Wl,--start-group -lc -lm -ldummyhost @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"},
	{"c_cmake_abi_compile", "gnu", Q7_MODE_COMPILE,
	 {"-v", "-o", "CMakeFiles/cmTC_2.dir/CMakeCCompilerABI.c.o", "-c", "/usr/share/cmake-3.25/Modules/CMakeCCompilerABI.c", NULL},
	 "@GCC@ -Os -fpic -mlongcalls -fno-jump-tables -Wall -v -I@P@/include/q7cc -c -o CMakeFiles/cmTC_2.dir/CMakeCCompilerABI.c.o /usr/share/cmake-3.25/Modules/CMakeCCompilerABI.c\n"},
	{"c_pre_E", "gnu", Q7_MODE_PREPROCESS,
	 {"-E", "h.c", NULL},
	 "@GCC@ -Os -fpic -mlongcalls -fno-jump-tables -Wall -E -I@P@/include/q7cc h.c\n"},
	{"c_syntax_only", "host", Q7_MODE_SYNTAX,
	 {"-fsyntax-only", "h.c", NULL},
	 "@CC@ -fsyntax-only h.c\n"},
	{"c_source_on_link", "gnu", Q7_MODE_LINK_SHARED,
	 {"-shared", "relu.cpp", "h.c", "-o", "libops.so", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o @TMP@/1-relu.cpp.o relu.cpp\n"
	 "@GCC@ -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o @TMP@/2-h.c.o h.c\n"
	 "# q7cc: collect records from 2 inputs\n"
	 "# q7cc: merge records\n"
	 "# q7cc: codegen @TMP@/wrapper.cpp\n"
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o @TMP@/wrapper.o @TMP@/wrapper.cpp\n"
	 "@GXX@ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined -Wl,--no-warn-rwx-segments -Wl,-T,@P@/share/q7cc/lsp/lsp_fll_load_cpu_single/ldscripts/elf32xtensa.x -L@P@/lib/q7cc/xtensa/lsp -o .libops.so.XXXXXX/libops.so @TMP@/1-relu.cpp.o @TMP@/2-h.c.o @TMP@/wrapper.o -Wl,--start-group @P@/lib/q7cc/xtensa/libq7rt.a -lm -lc @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"
	 "# q7cc: pack libops.so -> libops.stripped.so libops.packed.so\n"
	 "# q7cc: commit libops.so and 2 more files from .libops.so.XXXXXX\n"},
	{"asm_source", "gnu", Q7_MODE_COMPILE,
	 {"-c", "a.S", "-o", "a.o", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o a.o a.S\n"},
	{"schema_obj", "gnu", Q7_MODE_SCHEMA,
	 {"--q7-print-schema", "a.o", NULL},
	 "# q7cc: read records from a.o\n"},
	{"lint_src", "gnu", Q7_MODE_LINT,
	 {"--q7-lint", "a.cpp", NULL},
	 ""},
	{"source_on_link", "gnu", Q7_MODE_LINK_SHARED,
	 {"-shared", "relu.cpp", "-o", "libops.so", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o @TMP@/1-relu.cpp.o relu.cpp\n"
	 "# q7cc: collect records from 1 input\n"
	 "# q7cc: merge records\n"
	 "# q7cc: codegen @TMP@/wrapper.cpp\n"
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o @TMP@/wrapper.o @TMP@/wrapper.cpp\n"
	 "@GXX@ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined -Wl,--no-warn-rwx-segments -Wl,-T,@P@/share/q7cc/lsp/lsp_fll_load_cpu_single/ldscripts/elf32xtensa.x -L@P@/lib/q7cc/xtensa/lsp -o .libops.so.XXXXXX/libops.so @TMP@/1-relu.cpp.o @TMP@/wrapper.o -Wl,--start-group @P@/lib/q7cc/xtensa/libq7rt.a -lm -lc @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"
	 "# q7cc: pack libops.so -> libops.stripped.so libops.packed.so\n"
	 "# q7cc: commit libops.so and 2 more files from .libops.so.XXXXXX\n"},
	{"rpath_space", "gnu", Q7_MODE_LINK_SHARED,
	 {"-shared", "-o", "l.so", "a.o", "-Wl,-rpath,/my lib", NULL},
	 "# q7cc: collect records from 1 input\n"
	 "# q7cc: merge records\n"
	 "# q7cc: codegen @TMP@/wrapper.cpp\n"
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o @TMP@/wrapper.o @TMP@/wrapper.cpp\n"
	 "@GXX@ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined -Wl,--no-warn-rwx-segments -Wl,-T,@P@/share/q7cc/lsp/lsp_fll_load_cpu_single/ldscripts/elf32xtensa.x -L@P@/lib/q7cc/xtensa/lsp -o .l.so.XXXXXX/l.so a.o '-Wl,-rpath,/my lib' @TMP@/wrapper.o -Wl,--start-group @P@/lib/q7cc/xtensa/libq7rt.a -lm -lc @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"
	 "# q7cc: pack l.so -> l.stripped.so l.packed.so\n"
	 "# q7cc: commit l.so and 2 more files from .l.so.XXXXXX\n"},
	{"unknown_opt", "gnu", Q7_MODE_COMPILE,
	 {"-fsome-future-flag", "--weird-option", "-c", "a.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -fsome-future-flag --weird-option -I@P@/include/q7cc -c -o a.o a.cpp\n"},
	{"dollar_define", "gnu", Q7_MODE_COMPILE,
	 {"-DV=$(X)", "-c", "a.cpp", NULL},
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall '-DV=$(X)' -I@P@/include/q7cc -c -o a.o a.cpp\n"},
	{"archive_link", "gnu", Q7_MODE_LINK_SHARED,
	 {"-shared", "-o", "libops.so", "a.o", "libk.a", NULL},
	 "# q7cc: collect records from 2 inputs\n"
	 "# q7cc: merge records\n"
	 "# q7cc: codegen @TMP@/wrapper.cpp\n"
	 "@GXX@ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -I@P@/include/q7cc -c -o @TMP@/wrapper.o @TMP@/wrapper.cpp\n"
	 "@GXX@ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined -Wl,--no-warn-rwx-segments -Wl,-T,@P@/share/q7cc/lsp/lsp_fll_load_cpu_single/ldscripts/elf32xtensa.x -L@P@/lib/q7cc/xtensa/lsp -o .libops.so.XXXXXX/libops.so a.o @TMP@/wrapper.o libk.a -Wl,--start-group @P@/lib/q7cc/xtensa/libq7rt.a -lm -lc @P@/lib/q7cc/xtensa/libq7softfp.a -lgcc -Wl,--end-group\n"
	 "# q7cc: pack libops.so -> libops.stripped.so libops.packed.so\n"
	 "# q7cc: commit libops.so and 2 more files from .libops.so.XXXXXX\n"},
};
