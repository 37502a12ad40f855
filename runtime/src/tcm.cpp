/* The 16 KiB tcm pool (torch::neuron::tcm_malloc/tcm_free), which the
 * streaming accessors share: docs/runtime.md, "The tcm pool". It comes
 * from the call's heap arena at its first use. */
#include "rt.h"

namespace {

const uint32_t ALIGN = 16;

bool pool_ready()
{
	if (q7rt.tcm_base)
		return true;
	q7rt.tcm_base = static_cast<char *>(q7rt_arena_alloc(&q7rt.heap, Q7RT_TCM_SIZE, 64));
	return q7rt.tcm_base != nullptr;
}

} // namespace

extern "C" void *q7rt_tcm_malloc(size_t bytes)
{
	if (!q7rt.frame || bytes == 0 || bytes > Q7RT_TCM_SIZE || !pool_ready())
		return nullptr;
	if (q7rt.tcm_n == Q7RT_TCM_BLOCKS)
		return nullptr;
	uint32_t size = ((uint32_t)bytes + ALIGN - 1) & ~(ALIGN - 1);
	uint32_t at = 0;
	unsigned i = 0;
	for (; i < q7rt.tcm_n; i++) {
		if (q7rt.tcm_blocks[i].offset - at >= size)
			break;
		at = q7rt.tcm_blocks[i].offset + q7rt.tcm_blocks[i].size;
	}
	if (i == q7rt.tcm_n && Q7RT_TCM_SIZE - at < size)
		return nullptr;
	for (unsigned k = q7rt.tcm_n; k > i; k--)
		q7rt.tcm_blocks[k] = q7rt.tcm_blocks[k - 1];
	q7rt.tcm_blocks[i].offset = at;
	q7rt.tcm_blocks[i].size = size;
	q7rt.tcm_blocks[i].bytes = (uint32_t)bytes;
	q7rt.tcm_n++;
	return q7rt.tcm_base + at;
}

extern "C" void q7rt_tcm_free(void *p)
{
	if (!p)
		return;
	char *c = static_cast<char *>(p);
	for (unsigned i = 0; q7rt.tcm_base && i < q7rt.tcm_n; i++) {
		if (q7rt.tcm_base + q7rt.tcm_blocks[i].offset != c)
			continue;
		for (unsigned k = i + 1; k < q7rt.tcm_n; k++)
			q7rt.tcm_blocks[k - 1] = q7rt.tcm_blocks[k];
		q7rt.tcm_n--;
		return;
	}
	q7rt_fail("tcm_free: %p is not a live tcm_malloc block", p);
}

int q7rt_tcm_room(const void *p, size_t *room)
{
	const char *c = static_cast<const char *>(p);
	if (!q7rt.tcm_base || c < q7rt.tcm_base || c >= q7rt.tcm_base + Q7RT_TCM_SIZE)
		return 0;
	uint32_t off = (uint32_t)(c - q7rt.tcm_base);
	for (unsigned i = 0; i < q7rt.tcm_n; i++) {
		uint32_t start = q7rt.tcm_blocks[i].offset;
		if (off >= start && off < start + q7rt.tcm_blocks[i].size) {
			uint32_t end = start + q7rt.tcm_blocks[i].bytes;
			*room = off < end ? end - off : 0;
			return 1;
		}
	}
	return -1;
}
