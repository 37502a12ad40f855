/* The table of run targets (target.h). A new target: its file (a row and
 * its functions, like target_emulated.c) and one line here. */
#include "target.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define MAX_TARGETS 8

static const struct q7_target *rows[MAX_TARGETS] = {
	&q7_target_host, /* the first: the default */
	&q7_target_emulated,
};
static size_t nrows = 2;

static pthread_mutex_t proc_lock = PTHREAD_MUTEX_INITIALIZER;

void q7_target_proc_lock(void) { pthread_mutex_lock(&proc_lock); }

void q7_target_proc_unlock(void) { pthread_mutex_unlock(&proc_lock); }

const struct q7_target *q7_target_at(size_t i) { return i < nrows ? rows[i] : NULL; }

const struct q7_target *q7_target_find(const char *name)
{
	if (!name)
		return rows[0];
	for (size_t i = 0; i < nrows; i++)
		if (strcmp(rows[i]->name, name) == 0)
			return rows[i];
	return NULL;
}

void q7_target_names(char *buf, size_t n, const char *sep)
{
	size_t len = 0;
	buf[0] = 0;
	for (size_t i = 0; i < nrows && len < n; i++) {
		const char *before = i == 0 ? "" : sep ? sep : i + 1 == nrows ? " or " : ", ";
		int w = snprintf(buf + len, n - len, "%s%s", before, rows[i]->name);
		len += w > 0 ? (size_t)w : 0;
	}
}

int q7_target_register(const struct q7_target *t)
{
	if (nrows == MAX_TARGETS || q7_target_find(t->name))
		return -1;
	rows[nrows++] = t;
	return 0;
}
