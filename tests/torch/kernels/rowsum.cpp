// rowsum.cpp: y[i] = scale * (x[i][0] + x[i][1] + ...), x 2-D float32
// (the quickstart's kernel), for test_first_mistakes.py.
#include <torch/torch.h>
#include <q7/kernel.h>

Q7_KERNEL torch::Tensor row_sums(const torch::Tensor &x, float scale) {
    torch::Tensor y = torch::empty({x.size(0)}, torch::kFloat);
    auto in = x.accessor<float, 2>();
    auto out = y.accessor<float, 1>();
    for (int64_t i = 0; i < x.size(0); i++) {
        float sum = 0;
        for (int64_t j = 0; j < x.size(1); j++)
            sum += in[i][j];
        out[i] = scale * sum;
    }
    return y;
}
