/* run: q7-run, the command line that loads a kernel library built by
 * q7cc and runs one op on the host or on an emulated Xtensa core, through
 * the run engine (engine.h, the API both it and the PyTorch bridge use). */
#ifndef Q7_RUN_H
#define Q7_RUN_H

/* The q7-run command line (run.c says what it takes). */
int q7_run_main(int argc, char **argv);

#endif
