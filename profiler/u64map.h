/* A small open-addressing hash map for the instruction profile: 64-bit
 * key -> 64-bit value (translated blocks by host address, a frame's child
 * by parent and name).
 *
 * Memory: a map owns its table; q7_u64map_free. */
#ifndef Q7_U64MAP_H
#define Q7_U64MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct q7_u64map;

struct q7_u64map *q7_u64map_new(void);
void q7_u64map_free(struct q7_u64map *m);
/* The value slot of key, made 0-valued when absent (*made set true). The
 * pointer lives until the next put. */
uint64_t *q7_u64map_put(struct q7_u64map *m, uint64_t key, bool *made);

#endif
