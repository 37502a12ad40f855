// The reference guide's tensor operations, each in its functional and its
// _out form, called as a kernel author calls them; results packed by
// rows.h for run_api.py, which checks them against its own computation.
// `mask` says which rows to run (bit r: row r), so that the test decides
// what each dtype supports.
#include <stdint.h>
#include <torch/torch.h>
#include <q7/kernel.h>

#include "rows.h"

static bool on(int64_t mask, int r) { return (mask >> r) & 1; }

// abs ceil floor sin cos tan log log2 log10 exp: rows 2k (op) and 2k+1
// (op_out); bitwise_not, bitwise_not_out, bitwise_not(result, self): 20-22.
Q7_KERNEL torch::Tensor api_unary(const torch::Tensor &xin, int64_t dtype, int64_t mask) {
    torch::Tensor x = as_dtype(xin, dtype);
    Rows rows(23, x.numel());
    typedef torch::Tensor (*Fn)(const torch::Tensor &);
    typedef torch::Tensor &(*FnOut)(torch::Tensor &, const torch::Tensor &);
    static const Fn fns[10] = {torch::abs, torch::ceil, torch::floor, torch::sin, torch::cos,
                               torch::tan, torch::log, torch::log2, torch::log10, torch::exp};
    static const FnOut outs[10] = {torch::abs_out, torch::ceil_out, torch::floor_out, torch::sin_out,
                                   torch::cos_out, torch::tan_out, torch::log_out, torch::log2_out,
                                   torch::log10_out, torch::exp_out};
    for (int k = 0; k < 10; k++) {
        if (!on(mask, 2 * k)) {
            rows.skip();
            rows.skip();
            continue;
        }
        torch::Tensor r = fns[k](x);
        rows.add(r);
        torch::Tensor o = torch::empty(x.sizes(), r.scalar_type());
        torch::Tensor &same = outs[k](o, x);
        TORCH_CHECK(same.unsafeGetTensorImpl() == o.unsafeGetTensorImpl(), "_out returns its result");
        rows.add(o);
    }
    if (on(mask, 20)) {
        torch::Tensor r = torch::bitwise_not(x);
        rows.add(r);
        torch::Tensor o = torch::empty(x.sizes(), r.scalar_type());
        torch::bitwise_not_out(o, x);
        rows.add(o);
        torch::Tensor o2 = torch::zeros(x.sizes(), r.scalar_type());
        torch::bitwise_not(o2, x);
        rows.add(o2);
    }
    return rows.t;
}

// Rows (t: tensor a, b: tensor b, s: the Scalar): add(t,b,alpha) add_out
// add(t,s,alpha) add_out, the same for sub (4-7), mul (8-11) and div
// (12-15) without alpha; pow(t,s) pow_out pow(s,t) pow_out pow(t,b)
// pow_out (16-21); bitwise_and(t,b) _out (t,s) _out (s,t) _out (22-27);
// bitwise_or the same (28-33); add(t,b) and sub(t,s) with the default
// alpha (34, 35). `outdt` >= 0: the _out rows write into that dtype.
Q7_KERNEL torch::Tensor api_binary(const torch::Tensor &ain, const torch::Tensor &bin, const torch::Scalar &s,
                                   const torch::Scalar &alpha, int64_t da, int64_t db, int64_t mask,
                                   int64_t outdt) {
    torch::Tensor a = as_dtype(ain, da), b = as_dtype(bin, db);
    Rows rows(36, a.numel());
    auto out_like = [&](const torch::Tensor &r) {
        return torch::empty(a.sizes(), outdt >= 0 ? (torch::ScalarType)outdt : r.scalar_type());
    };
#define PAIR(row, call, call_out)                 \
    if (on(mask, row)) {                          \
        torch::Tensor r = call;                   \
        rows.add(r);                              \
        torch::Tensor o = out_like(r);            \
        call_out;                                 \
        rows.add(o);                              \
    } else {                                      \
        rows.skip();                              \
        rows.skip();                              \
    }
    PAIR(0, torch::add(a, b, alpha), torch::add_out(o, a, b, alpha))
    PAIR(2, torch::add(a, s, alpha), torch::add_out(o, a, s, alpha))
    PAIR(4, torch::sub(a, b, alpha), torch::sub_out(o, a, b, alpha))
    PAIR(6, torch::sub(a, s, alpha), torch::sub_out(o, a, s, alpha))
    PAIR(8, torch::mul(a, b), torch::mul_out(o, a, b))
    PAIR(10, torch::mul(a, s), torch::mul_out(o, a, s))
    PAIR(12, torch::div(a, b), torch::div_out(o, a, b))
    PAIR(14, torch::div(a, s), torch::div_out(o, a, s))
    PAIR(16, torch::pow(a, s), torch::pow_out(o, a, s))
    PAIR(18, torch::pow(s, a), torch::pow_out(o, s, a))
    PAIR(20, torch::pow(a, b), torch::pow_out(o, a, b))
    PAIR(22, torch::bitwise_and(a, b), torch::bitwise_and_out(o, a, b))
    PAIR(24, torch::bitwise_and(a, s), torch::bitwise_and_out(o, a, s))
    PAIR(26, torch::bitwise_and(s, a), torch::bitwise_and_out(o, s, a))
    PAIR(28, torch::bitwise_or(a, b), torch::bitwise_or_out(o, a, b))
    PAIR(30, torch::bitwise_or(a, s), torch::bitwise_or_out(o, a, s))
    PAIR(32, torch::bitwise_or(s, a), torch::bitwise_or_out(o, s, a))
#undef PAIR
    if (on(mask, 34))
        rows.add(torch::add(a, b));
    else
        rows.skip();
    if (on(mask, 35))
        rows.add(torch::sub(a, s));
    return rows.t;
}

// clamp, clamp_out.
Q7_KERNEL torch::Tensor api_clamp(const torch::Tensor &xin, const torch::Scalar &lo, const torch::Scalar &hi,
                                  int64_t dtype) {
    torch::Tensor x = as_dtype(xin, dtype);
    Rows rows(2, x.numel());
    torch::Tensor r = torch::clamp(x, lo, hi);
    rows.add(r);
    torch::Tensor o = torch::empty(x.sizes(), x.scalar_type());
    torch::clamp_out(o, x, lo, hi);
    rows.add(o);
    return rows.t;
}

// The factories and fill_, each with another spelling of the options:
// zeros, ones, full, eye, empty (then fill_), fill_ of zeros; full and
// zeros with sizes from a braced list of size_t and from IntArrayRef;
// ones with another tensor's options().
Q7_KERNEL torch::Tensor api_factories(int64_t dtype, const torch::Scalar &value, int64_t n, int64_t m) {
    torch::ScalarType st = (torch::ScalarType)dtype;
    Rows rows(9, n * m);
    rows.add(torch::zeros({n, m}, st));
    rows.add(torch::ones({n, m}, torch::TensorOptions().dtype(st)));
    rows.add(torch::full({n, m}, value, c10::TensorOptions(st)));
    rows.add(torch::eye(n, m, torch::dtype(st)));
    torch::Tensor e = torch::empty({n, m}, at::TensorOptions(st));
    torch::Tensor &same = e.fill_(value);
    TORCH_CHECK(same.unsafeGetTensorImpl() == e.unsafeGetTensorImpl(), "fill_ returns its tensor");
    rows.add(e);
    const torch::Tensor z = torch::zeros({n, m}, st);
    z.fill_(value); // fill_ is const, as documented
    rows.add(z);
    size_t un = (size_t)n, um = (size_t)m;
    rows.add(torch::full({un * um}, value, st));
    rows.add(torch::full(z.sizes(), value, st));
    rows.add(torch::ones(z.sizes(), z.options()));
    return rows.t;
}

// Misuse the runtime reports by name, one per `which`. a and b: float64,
// [2, 3] and [3, 2].
Q7_KERNEL torch::Tensor api_errors(const torch::Tensor &a64, const torch::Tensor &b64, int64_t which) {
    torch::Tensor r = torch::zeros({1}, torch::kFloat);
    torch::Tensor a = as_dtype(a64, 6), b = as_dtype(b64, 6), ai = as_dtype(a64, 3);
    torch::Tensor bo = torch::zeros(a.sizes(), torch::kBool);
    switch (which) {
    case 0: return torch::add(a, b);                      // shapes differ
    case 1: torch::mul_out(r, a, a); break;               // result shape
    case 2: return torch::bitwise_and(a, a);              // float operands
    case 3: torch::add_out(ai, a, a); break;              // float into int32
    case 4: return torch::pow(ai, -1);                    // int ** negative
    case 5: return torch::add(ai, ai, 1.5);               // float alpha, int operands
    case 6: return torch::sub(bo, bo);                    // bool minus bool
    case 7: return torch::zeros({2}, torch::TensorOptions()); // no dtype
    case 8: return torch::sin(a64);                       // float64 transcendental
    case 9: return torch::abs(bo);                        // abs of bool
    case 10: return torch::eye(-1, 2, torch::kFloat);     // negative size
    case 11: return torch::bitwise_not(a);                // float operand
    case 12: return torch::exp(torch::Tensor());          // undefined tensor
    case 13: torch::div_out(r, a, b); break;              // operands differ (with out)
    case 14: return torch::clamp(bo, 0, 1);               // clamp of bool
    case 15: torch::bitwise_or_out(bo, ai, 3); break;     // int32 into bool
    default: break;
    }
    return r;
}
