// y = x * scale + shift, then every element moved by `offset` and clamped
// from below at `floor`: a kernel with int64_t, double, float and Scalar
// parameters, as the developer guide recommends int64_t and double.
#include <stdint.h>
#include <torch/torch.h>
#include <q7/kernel.h>

Q7_KERNEL torch::Tensor affine(const torch::Tensor& x, int64_t offset, double scale,
                               float shift, const torch::Scalar& floor) {
    TORCH_CHECK(x.scalar_type() == torch::kFloat, "affine: x must be float32");
    torch::Tensor y = torch::empty(x.sizes(), torch::kFloat);
    const float* in = x.data_ptr<float>();
    float* out = y.data_ptr<float>();
    float lo = floor.toFloat();
    for (int64_t i = 0; i < x.numel(); i++) {
        float v = (float)(in[i] * scale) + shift + (float)offset;
        out[i] = v < lo ? lo : v;
    }
    return y;
}
