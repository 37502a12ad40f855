// The C++ standard headers on the device (q7cc's own on the gnu profile,
// libstdc++ on the host), used as kernels commonly use them. Only results
// that are exact on every target: host and device must agree bit for bit.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iterator>
#include <limits>
#include <numeric>
#include <type_traits>
#include <utility>
#include <torch/torch.h>
#include <q7/kernel.h>

#include "rows.h"

static_assert(std::is_same<std::make_unsigned<int16_t>::type, uint16_t>::value, "make_unsigned");
static_assert(std::is_trivially_copyable<std::array<float, 4>>::value, "array is trivial");
static_assert(std::numeric_limits<int32_t>::digits == 31, "digits");
static_assert(std::is_floating_point<decltype(std::sqrt(2.0f))>::value, "sqrt(float)");

// x: float32 [n], n <= 256, no NaN. Rows: 0 x sorted (std::sort on a
// std::array); 1 (int32) the stable order of x's indices by floor(x) mod 5;
// 2 (float64) scalars from <algorithm>, <numeric>, <cmath>, <limits>;
// 3 (int64) integers from the same and <utility>, <iterator>.
Q7_KERNEL torch::Tensor api_cxx(const torch::Tensor &x) {
    int64_t n = x.numel();
    TORCH_CHECK(n > 0 && n <= 256, "1 to 256 elements, not ", n);
    Rows rows(4, n < 24 ? 24 : n);
    const float *in = x.data_ptr<float>();
    std::array<float, 256> a;
    std::copy(in, in + n, a.begin());
    std::sort(a.begin(), a.begin() + n);
    torch::Tensor sorted = torch::empty({n}, torch::kFloat);
    std::memcpy(sorted.data_ptr<float>(), a.data(), sizeof(float) * (size_t)n);
    rows.add(sorted);

    std::pair<int, int> keyed[256];
    for (int64_t i = 0; i < n; i++)
        keyed[i] = std::make_pair(((int)std::floor(in[i]) % 5 + 5) % 5, (int)i);
    std::stable_sort(keyed, keyed + n, [](const std::pair<int, int> &p, const std::pair<int, int> &q) {
        return p.first < q.first;
    });
    torch::Tensor order = torch::empty({n}, torch::kInt);
    std::transform(keyed, keyed + n, order.data_ptr<int32_t>(), [](const std::pair<int, int> &p) { return p.second; });
    rows.add(order);

    std::array<float, 256> b;
    std::copy(in, in + n, b.begin());
    std::nth_element(b.begin(), b.begin() + n / 2, b.begin() + n, std::greater<float>());
    std::array<double, 16> d = {{
        *std::min_element(in, in + n),
        *std::max_element(in, in + n),
        std::accumulate(in, in + n, 0.0, [](double s, float v) { return s + (double)v; }) == 0.0 ? 0.0 : 1.0,
        (double)b[(size_t)(n / 2)],
        (double)(std::lower_bound(a.begin(), a.begin() + n, 0.0f) - a.begin()),
        (double)std::count_if(in, in + n, [](float v) { return v > 0; }),
        (double)std::numeric_limits<float>::max(),
        (double)std::numeric_limits<float>::lowest(),
        (double)std::numeric_limits<float>::epsilon(),
        (double)std::numeric_limits<float>::infinity(),
        std::floor(-2.5) + std::ceil(2.25) + std::fabs(-1.5) + std::sqrt(16.0),
        (double)std::abs(-3) + std::fmax(1.0, 2.0) + std::trunc(-7.9),
        (double)(std::isnan(std::numeric_limits<double>::quiet_NaN()) + 2 * std::signbit(-0.0) + 4 * std::isinf(std::numeric_limits<float>::infinity())),
        std::pow(2.0, 10.0) + std::ldexp(1.0, -3),
        (double)(std::numeric_limits<double>::denorm_min() == 4.9406564584124654e-324),
        std::max({1.5, -2.0, 0.25}),
    }};
    torch::Tensor dt = torch::empty({16}, torch::kDouble);
    std::copy(d.begin(), d.end(), dt.data_ptr<double>());
    rows.add(dt);

    int perm[4] = {1, 2, 3, 4}, count = 0;
    do
        count++;
    while (std::next_permutation(perm, perm + 4));
    int seq[10];
    std::iota(std::begin(seq), std::end(seq), 1);
    int partial[10];
    std::partial_sum(seq, seq + 10, partial);
    int swapped_a = 1, swapped_b = 2;
    std::swap(swapped_a, swapped_b);
    int old = std::exchange(swapped_a, 9);
    int rev[5] = {1, 2, 3, 4, 5};
    std::reverse(rev, rev + 5);
    std::rotate(rev, rev + 2, rev + 5);
    std::array<int64_t, 16> k = {{
        std::numeric_limits<int64_t>::min(),
        std::numeric_limits<int64_t>::max(),
        std::numeric_limits<uint8_t>::max(),
        std::numeric_limits<float>::digits,
        count,
        std::accumulate(seq, seq + 10, 0),
        partial[9],
        old * 10 + swapped_a,
        rev[0] * 10000 + rev[1] * 1000 + rev[2] * 100 + rev[3] * 10 + rev[4],
        (int64_t)std::make_index_sequence<7>::size(),
        (int64_t)std::tuple_size<std::array<int, 3>>::value,
        std::distance(std::begin(seq), std::end(seq)),
        std::inner_product(seq, seq + 3, seq, 0),
        std::count(rev, rev + 5, 3),
        std::is_sorted(a.begin(), a.begin() + n) ? 1 : 0,
        std::binary_search(seq, seq + 10, 7) ? 1 : 0,
    }};
    torch::Tensor kt = torch::empty({16}, torch::kLong);
    std::copy(k.begin(), k.end(), kt.data_ptr<int64_t>());
    rows.add(kt);
    return rows.t;
}
