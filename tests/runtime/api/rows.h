// Test scaffolding for the API kernels: results packed as rows of an int64
// tensor, so that one run returns many results of different dtypes and
// shapes, bit for bit:
//   row = [dtype code, ndim, size 0..7, raw bits of element 0, 1, ...]
// with -1 as the dtype of a row that was not run. The bits of an element
// are its bytes zero-extended (float32 as its 32 bits, float16 as 16, ...),
// so host and device results compare exactly. And inputs in any dtype,
// made from a float64 or int64 tensor without using the ops under test.
#ifndef API_ROWS_H
#define API_ROWS_H

#include <stdint.h>
#include <string.h>
#include <torch/torch.h>

static const int64_t HEADER = 10;

struct Rows {
    torch::Tensor t;
    int64_t width;
    int64_t next;
    Rows(int64_t rows, int64_t n) : t(torch::full({rows, HEADER + n}, -1, torch::kLong)), width(HEADER + n), next(0) {}
    int64_t *row(int64_t r) { return t.data_ptr<int64_t>() + r * width; }
    // The next row: r's dtype, shape and elements (in flat order).
    void add(const torch::Tensor &r) {
        int64_t *p = row(next++);
        p[0] = (int64_t)r.scalar_type();
        p[1] = r.dim();
        for (int64_t d = 0; d < r.dim(); d++)
            p[2 + d] = r.size(d);
        int64_t n = r.numel();
        size_t es = r.element_size();
        TORCH_CHECK(n <= width - HEADER, "a result of ", n, " elements in rows of ", width - HEADER);
        const char *src = static_cast<const char *>(r.data_ptr());
        for (int64_t i = 0; i < n; i++) {
            uint64_t bits = 0;
            memcpy(&bits, src + i * es, es);
            p[HEADER + i] = (int64_t)bits;
        }
    }
    void skip() { next++; }
};

// x (float64 or int64, contiguous) converted to dtype, element by element.
inline torch::Tensor as_dtype(const torch::Tensor &x, int64_t dtype) {
    torch::ScalarType st = (torch::ScalarType)dtype;
    torch::Tensor y = torch::empty(x.sizes(), st);
    int64_t n = x.numel();
    bool fl = x.scalar_type() == torch::kDouble;
    const double *d = fl ? x.data_ptr<double>() : nullptr;
    const int64_t *l = fl ? nullptr : x.data_ptr<int64_t>();
    void *out = y.data_ptr();
    for (int64_t i = 0; i < n; i++) {
        double v = fl ? d[i] : (double)l[i];
        int64_t k = fl ? 0 : l[i]; // integer dtypes come from int64 inputs
        switch (st) {
        case torch::kFloat: static_cast<float *>(out)[i] = (float)v; break;
        case torch::kDouble: static_cast<double *>(out)[i] = v; break;
        case torch::kHalf: static_cast<c10::Half *>(out)[i] = c10::Half((float)v); break;
        case torch::kBFloat16: static_cast<c10::BFloat16 *>(out)[i] = c10::BFloat16((float)v); break;
        case torch::kByte: static_cast<uint8_t *>(out)[i] = (uint8_t)k; break;
        case torch::kChar: static_cast<int8_t *>(out)[i] = (int8_t)k; break;
        case torch::kShort: static_cast<int16_t *>(out)[i] = (int16_t)k; break;
        case torch::kInt: static_cast<int32_t *>(out)[i] = (int32_t)k; break;
        case torch::kLong: static_cast<int64_t *>(out)[i] = k; break;
        case torch::kBool: static_cast<bool *>(out)[i] = fl ? v != 0.0 : k != 0; break;
        default: TORCH_CHECK(false, "as_dtype: dtype ", dtype);
        }
    }
    return y;
}

#endif
