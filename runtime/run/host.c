/* q7_run_host: runs an op of a host-profile kernel library in this
 * process. The library is dlopen'ed (each distinct image once, privately:
 * RTLD_LOCAL), and each core's call runs on its own thread with a small
 * stack like a device core's, so kernels that need more take the runtime's
 * stack-switch path as they would on the device. Cores run one after
 * another over the same destination: SPMD kernels do not synchronise, so
 * any order is a valid schedule. Each call gets a fresh heap arena. */
#include "result.h"
#include "run.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "image.h"
#include "npy.h"
#include "support.h"

#define DEFAULT_HEAP (64u << 20)
#define CORE_STACK (256u << 10) /* the native stack of a core's call */

typedef int (*entry_fn)(struct q7_frame *);

struct core_call {
	entry_fn entry;
	struct q7_frame *frame;
	int rc;
};

static int host_write(int fd, const void *buf, uint32_t len)
{
	return (int)write(fd == 2 ? 2 : 1, buf, len);
}

static void *core_main(void *arg)
{
	struct core_call *c = arg;
	c->rc = c->entry(c->frame);
	return NULL;
}


static int run_core(entry_fn entry, struct q7_frame *f, struct q7_run_result *r)
{
	pthread_attr_t attr;
	pthread_t th;
	struct core_call call = {entry, f, -1};
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, CORE_STACK);
	int e = pthread_create(&th, &attr, core_main, &call);
	pthread_attr_destroy(&attr);
	if (e != 0) {
		q7_run_fail(r, "cannot start the core's thread: %s", strerror(e));
		return -1;
	}
	pthread_join(th, NULL);
	return 0;
}

/* dlopen needs a slash to take a path as a path. */
static void *open_image(const char *path, struct q7_run_result *r)
{
	char *p = strchr(path, '/') ? q7_xstrdup(path) : q7_xasprintf("./%s", path);
	void *h = dlopen(p, RTLD_NOW | RTLD_LOCAL);
	free(p);
	if (!h) {
		const char *why = dlerror();
		q7_run_fail(r, "%s: cannot load: %s%s", path, why ? why : "unknown error",
		     why && strstr(why, "ELF class") ? " (an Xtensa image? try --target=emulated)" : "");
	}
	return h;
}

static void fill_frame(struct q7_frame *f, const struct q7_run_request *req, unsigned core,
                       void *heap, size_t heap_size)
{
	memset(f, 0, sizeof *f);
	f->magic = Q7_FRAME_MAGIC;
	f->version = Q7_FRAME_VERSION;
	f->size = sizeof *f;
	f->nargs = req->nargs;
	snprintf(f->op, sizeof f->op, "%s", req->op);
	f->cpu_id = core;
	f->cpu_count = req->cores ? req->cores : 1;
	memcpy(f->args, req->args, sizeof f->args);
	f->dst = req->dst;
	f->heap_base = (uint64_t)(uintptr_t)heap;
	f->heap_size = heap_size;
	f->write_fn = (uint64_t)(uintptr_t)host_write;
}


int q7_run_host(const struct q7_run_request *req, struct q7_run_result *r)
{
	memset(r, 0, sizeof *r);
	unsigned cores = req->cores ? req->cores : 1;
	if (cores > 8) {
		q7_run_fail(r, "%u cores asked, at most 8", cores);
		return 1;
	}
	if (cores > 1 && req->dst.data == 0) {
		q7_run_fail(r, "%u cores need a destination tensor", cores);
		return 1;
	}
	struct q7_strvec paths = {0};
	char *err = NULL;
	if (q7_run_images(req->lib, cores, &paths, &err) != 0) {
		q7_run_fail(r, "%s", err);
		free(err);
		return 1;
	}
	size_t heap_size = req->heap_size ? req->heap_size : DEFAULT_HEAP;
	void *heap = NULL;
	struct q7_frame *f = q7_xcalloc(1, sizeof *f);
	void *handles[8] = {0};
	int rc = 1;
	if (posix_memalign(&heap, 64, heap_size) != 0) {
		q7_run_fail(r, "cannot allocate a heap arena of %zu bytes", heap_size);
		goto out;
	}
	for (unsigned core = 0; core < cores; core++) {
		handles[core] = open_image(paths.v[core], r);
		if (!handles[core])
			goto out;
		entry_fn entry;
		*(void **)&entry = dlsym(handles[core], "q7_entry");
		if (!entry) {
			q7_run_fail(r, "%s: not a q7cc kernel library (no q7_entry)", paths.v[core]);
			goto out;
		}
		fill_frame(f, req, core, heap, heap_size);
		if (run_core(entry, f, r) != 0)
			goto out;
		fflush(stdout);
		if (f->switched_stack)
			r->switched_stack = 1;
		if (f->status != Q7_STATUS_OK) {
			r->status = f->status;
			/* "core N: " fits: the frame's message is cut to make room. */
			int n = cores > 1 ? snprintf(r->message, sizeof r->message, "core %u: ", core) : 0;
			memcpy(r->message + n, f->message, sizeof r->message - (size_t)n - 1);
			r->message[sizeof r->message - 1] = 0;
			goto out;
		}
		if (core + 1 == cores && q7_run_take_output(f, (const unsigned char *)(uintptr_t)f->out.data, SIZE_MAX, r) != 0)
			goto out;
	}
	r->status = Q7_STATUS_OK;
	rc = 0;
out:
	/* dlclose in reverse; the same image opened twice is refcounted. */
	for (unsigned i = cores; i-- > 0;)
		if (handles[i])
			dlclose(handles[i]);
	free(heap);
	free(f);
	q7_sv_free(&paths);
	return rc;
}
