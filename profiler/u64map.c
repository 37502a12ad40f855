/* u64map.h: linear probing, a power-of-two table kept under half full. */
#include "u64map.h"

#include <stdlib.h>
#include <string.h>

#include "support.h"

struct q7_u64map {
	uint64_t *keys, *vals;
	unsigned char *used;
	size_t cap, n;
};

static size_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (size_t)k;
}

struct q7_u64map *q7_u64map_new(void)
{
	struct q7_u64map *m = q7_xcalloc(1, sizeof *m);
	m->cap = 64;
	m->keys = q7_xcalloc(m->cap, sizeof *m->keys);
	m->vals = q7_xcalloc(m->cap, sizeof *m->vals);
	m->used = q7_xcalloc(m->cap, 1);
	return m;
}

void q7_u64map_free(struct q7_u64map *m)
{
	if (!m)
		return;
	free(m->keys);
	free(m->vals);
	free(m->used);
	free(m);
}

static size_t slot(const struct q7_u64map *m, uint64_t key)
{
	size_t i = mix(key) & (m->cap - 1);
	while (m->used[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void grow(struct q7_u64map *m)
{
	struct q7_u64map old = *m;
	m->cap *= 2;
	m->keys = q7_xcalloc(m->cap, sizeof *m->keys);
	m->vals = q7_xcalloc(m->cap, sizeof *m->vals);
	m->used = q7_xcalloc(m->cap, 1);
	for (size_t i = 0; i < old.cap; i++) {
		if (!old.used[i])
			continue;
		size_t j = slot(m, old.keys[i]);
		m->used[j] = 1;
		m->keys[j] = old.keys[i];
		m->vals[j] = old.vals[i];
	}
	free(old.keys);
	free(old.vals);
	free(old.used);
}

uint64_t *q7_u64map_put(struct q7_u64map *m, uint64_t key, bool *made)
{
	if (2 * (m->n + 1) > m->cap)
		grow(m);
	size_t i = slot(m, key);
	*made = !m->used[i];
	if (*made) {
		m->used[i] = 1;
		m->keys[i] = key;
		m->vals[i] = 0;
		m->n++;
	}
	return &m->vals[i];
}
