/* <neuron/neuron-utils.hpp>: what a kernel asks about where it runs: its
 * core and how many run the op, the destination shared by all of them, the
 * tcm pool (docs/runtime.md, "What kernels get"). */
#ifndef Q7_NEURON_UTILS_HPP
#define Q7_NEURON_UTILS_HPP

#include <torch/torch.h>

inline uint32_t get_cpu_id() { return q7rt_cpu_id(); }
inline uint32_t get_cpu_count() { return q7rt_cpu_count(); }
inline torch::Tensor get_dst_tensor() { return torch::Tensor(q7rt_dst_tensor()); }

namespace torch {
namespace neuron {
constexpr size_t TCM_POOL_SIZE = 16 * 1024;
inline void *tcm_malloc(size_t bytes) { return q7rt_tcm_malloc(bytes); }
inline void tcm_free(void *p) { q7rt_tcm_free(p); }
} // namespace neuron
} // namespace torch

#endif
