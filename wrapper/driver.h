/* wrapper: the compiler driver. Owns the argv model and its option table,
 * the toolchains, the plan of steps for each mode (compile,
 * preprocess, syntax-only, link, pass-through), which children run when
 * (support/proc.h runs them), -### and -v, and masquerading as xt-clang++. */
#ifndef Q7_DRIVER_H
#define Q7_DRIVER_H

int q7_driver_main(int argc, char **argv);

#endif
