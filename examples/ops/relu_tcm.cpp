// ReLU through the fast local memory, like the public Neuron tcm sample:
// each core takes its share of the flattened tensor, copies it into a tcm
// buffer in chunks, works there, and writes the chunk back into the shared
// output tensor (get_dst_tensor), so the same code runs on 1 or 8 cores.
#include <stdint.h>
#include <stdlib.h>
#include <torch/torch.h>
#include <neuron/neuron-utils.hpp>
#include <q7/kernel.h>

Q7_KERNEL torch::Tensor relu_tcm(const torch::Tensor& t_in) {
    size_t num_elem = t_in.numel();
    torch::Tensor t_out = get_dst_tensor();

    uint32_t cpu_id = get_cpu_id();
    uint32_t cpu_count = get_cpu_count();
    uint32_t partition = num_elem / cpu_count;
    uint32_t start = partition * cpu_id;
    if (cpu_id == cpu_count - 1) {
        partition = num_elem - partition * (cpu_count - 1);
    }

    static constexpr size_t buffer_size = 1024;
    float *tcm_buffer = (float *)torch::neuron::tcm_malloc(sizeof(float) * buffer_size);
    if (tcm_buffer != nullptr) {
        auto t_in_tcm_acc = t_in.tcm_accessor();
        auto t_out_tcm_acc = t_out.tcm_accessor();
        for (size_t i = 0; i < partition; i += buffer_size) {
            size_t remaining = partition - i;
            size_t copy_size = (remaining > buffer_size) ? buffer_size : remaining;
            t_in_tcm_acc.tensor_to_tcm<float>(tcm_buffer, start + i, copy_size);
            for (size_t j = 0; j < copy_size; j++) {
                tcm_buffer[j] = tcm_buffer[j] > 0.0f ? tcm_buffer[j] : 0.0f;
            }
            t_out_tcm_acc.tcm_to_tensor<float>(tcm_buffer, start + i, copy_size);
        }
    }
    torch::neuron::tcm_free(tcm_buffer);
    return t_out;
}
