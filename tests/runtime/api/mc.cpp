// A multicore library (compiled and linked with --q7-multicore): each core
// prints a line, and negates its part of x into the shared output through
// the TCM accessors, the only ones the guide allows with several cores.
#include <stdint.h>
#include <stdio.h>
#include <torch/torch.h>
#include <neuron/neuron-utils.hpp>
#include <q7/kernel.h>

Q7_KERNEL torch::Tensor api_mc_printf(const torch::Tensor &x) {
    torch::Tensor out = get_dst_tensor();
    uint32_t id = get_cpu_id(), cores = get_cpu_count();
    size_t n = (size_t)x.numel(), part = (n + cores - 1) / cores;
    size_t start = part * id < n ? part * id : n;
    size_t count = start + part <= n ? part : n - start;
    printf("core %u of %u: elements %u to %u\n", (unsigned)id, (unsigned)cores, (unsigned)start,
           (unsigned)(start + count));
    float *buf = (float *)torch::neuron::tcm_malloc(sizeof(float) * (count ? count : 1));
    TORCH_CHECK(buf != nullptr, "tcm_malloc of ", count, " floats");
    auto in = x.tcm_accessor();
    auto o = out.tcm_accessor();
    in.tensor_to_tcm<float>(buf, start, count);
    for (size_t i = 0; i < count; i++)
        buf[i] = -buf[i];
    o.tcm_to_tensor<float>(buf, start, count);
    torch::neuron::tcm_free(buf);
    return out;
}
