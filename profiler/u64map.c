/* u64map.h: linear probing, a power-of-two table kept under half full. */
#include "bytes.h"
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

/* Strings: the FNV-1a hash of the text as the u64 key, the bucket a chain
 * of (id, string) pairs so that two strings with one hash stay apart. */
struct q7_strmap {
	struct q7_u64map *byhash; /* hash -> 1 + index of the chain's first entry */
	char **strs;
	size_t *next;             /* 1 + index of the next entry with the hash, 0: end */
	size_t n, cap;
};

struct q7_strmap *q7_strmap_new(void)
{
	struct q7_strmap *m = q7_xcalloc(1, sizeof *m);
	m->byhash = q7_u64map_new();
	return m;
}

void q7_strmap_free(struct q7_strmap *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++)
		free(m->strs[i]);
	free(m->strs);
	free(m->next);
	q7_u64map_free(m->byhash);
	free(m);
}

unsigned q7_strmap_intern(struct q7_strmap *m, const char *s, const char **stored)
{
	uint64_t h = q7_fnv1a64(Q7_FNV64_BASIS, s, strlen(s));
	bool made;
	uint64_t *head = q7_u64map_put(m->byhash, h, &made);
	for (size_t e = made ? 0 : (size_t)*head; e; e = m->next[e - 1]) {
		if (strcmp(m->strs[e - 1], s) == 0) {
			*stored = m->strs[e - 1];
			return (unsigned)(e - 1);
		}
	}
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		m->strs = q7_xrealloc(m->strs, m->cap * sizeof *m->strs);
		m->next = q7_xrealloc(m->next, m->cap * sizeof *m->next);
	}
	m->strs[m->n] = q7_xstrdup(s);
	m->next[m->n] = made ? 0 : (size_t)*head;
	*head = m->n + 1;
	*stored = m->strs[m->n];
	return (unsigned)m->n++;
}
