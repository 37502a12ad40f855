/* probe_threads: the host library check's probe in a multithreaded caller
 * (docs/runtime.md, "The run engine"). Three threads load and unload
 * IDLE.so in a loop, as the PyTorch bridge's process may, while the main
 * thread checks LIB.so N times through q7_host_elf_check, the prefix set
 * to PREFIX as the bridge sets it. Every check must pass: the probe runs
 * in PREFIX's q7-run, a fresh process, which no other thread's hold on
 * the loader's lock can reach (a fork of this process could be left
 * waiting for it and refuse LIB.so after 10 s). Exit 0, or 1 naming the
 * first check that failed and why.
 *
 *   probe_threads LIB.so IDLE.so N PREFIX */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "host_elf.h"
#include "support.h"

enum { LOADERS = 3 };

static atomic_bool done;

static void *load_loop(void *lib)
{
	while (!atomic_load(&done)) {
		void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
		if (h)
			dlclose(h);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: probe_threads LIB.so IDLE.so N PREFIX\n");
		return 2;
	}
	q7_set_prefix(argv[4]);
	pthread_t t[LOADERS];
	for (int i = 0; i < LOADERS; i++)
		pthread_create(&t[i], NULL, load_loop, argv[2]);
	int n = atoi(argv[3]), failed = -1;
	char msg[512] = "";
	for (int i = 0; i < n && failed < 0; i++) {
		if (q7_host_elf_check(argv[1], &Q7_ERR_OF(msg)) != 0)
			failed = i;
	}
	atomic_store(&done, true);
	for (int i = 0; i < LOADERS; i++)
		pthread_join(t[i], NULL);
	if (failed >= 0) {
		fprintf(stderr, "FAIL: check %d of %d: %s\n", failed + 1, n, msg);
		return 1;
	}
	printf("%d checks passed\n", n);
	return 0;
}
