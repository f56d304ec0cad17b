// The small-n float16 1x1 kernel (isa/gemm_half_small_avx512fp16.cc, taken by
// conv::halfGemmMixed for float16 data both sides, n <= 16, k a multiple of 4 up to 64)
// against a double reference of the float16 inputs and the float32 weights and bias, within
// the float16 error bound of its arithmetic: column counts filling one or two groups of 8 in
// part or whole, every k it takes, row counts off its 8-row blocks, activations, one and two
// threads; nothing written past the output. Only with AVX512-FP16 (not capped by
// NNAPI_CPU_ISA).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "cpu/isa.h"
#include "cpu/kernels/gemm_half.h"
#include "cpu/kernels/isa/gemm_half_small_isa.h"
#include "cpu/thread_pool.h"
#include "half_bits.h"
#include "spec/ops/common.h"
#include "test_util.h"

namespace nn {
namespace {

constexpr size_t kGuard = 40;
constexpr uint16_t kSentinel = 0x7bcd;

using half_bits::narrow;
using half_bits::widen;

void check(uint32_t m, uint32_t n, uint32_t k, int32_t act, ThreadPool* pool, uint32_t seed) {
  SCOPED_TRACE("m " + std::to_string(m) + " n " + std::to_string(n) + " k " + std::to_string(k) +
               " act " + std::to_string(act) + " threads " +
               std::to_string(pool ? pool->numThreads() : 1));
  std::vector<float> a = nntest::randomFloats(size_t{m} * k, seed, -2.f, 2.f);
  std::vector<uint16_t> ah(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    ah[i] = narrow(a[i]);
    a[i] = widen(ah[i]);
  }
  const std::vector<float> w = nntest::randomFloats(size_t{n} * k, seed + 1);
  const std::vector<float> bias = nntest::randomFloats(n, seed + 2);
  conv::PackedHalfWeights packed;
  conv::packHalfWeights(w.data(), n, k, &packed);
  std::vector<uint16_t> out(size_t{m} * n + kGuard, kSentinel);
  conv::KernelScratch ks;
  conv::halfGemmMixed(m, nullptr, reinterpret_cast<const Half*>(ah.data()), k, packed,
                      bias.data(), act, nullptr, reinterpret_cast<Half*>(out.data()), pool, ks);
  float lo = 0, hi = 0;
  activationRangeFloat(act, &lo, &hi);
  // Error bound: weights and bias rounded to float16, k + 3 float16 sums of magnitude at most
  // M = |bias| + sum |a w|, the result rounded: (k + 6) * 2^-11 * M.
  const double u = std::ldexp(1.0, -11);
  for (uint32_t r = 0; r < m; ++r)
    for (uint32_t c = 0; c < n; ++c) {
      double s = bias[c], mag = std::fabs(bias[c]);
      for (uint32_t j = 0; j < k; ++j) {
        const double t = static_cast<double>(a[size_t{r} * k + j]) * w[size_t{c} * k + j];
        s += t;
        mag += std::fabs(t);
      }
      const double want = s < lo ? lo : (s > hi ? hi : s);
      ASSERT_NEAR(widen(out[size_t{r} * n + c]), want, (k + 6.0) * u * mag)
          << "row " << r << " column " << c;
    }
  for (size_t i = size_t{m} * n; i < out.size(); ++i)
    ASSERT_EQ(out[i], kSentinel) << "written past the output at " << i;
}

TEST(HalfGemm, SmallNWithinFloat16BoundOfFloat32) {
  if (!conv::halfGemmAvailable()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  uint32_t seed = 300;
  for (uint32_t n : {8u, 1u, 3u, 12u, 16u})
    for (uint32_t k : {4u, 8u, 12u, 32u, 48u, kHalfSmallMaxK})
      for (uint32_t m : {1u, 5u, 8u, 9u, 17u, 100u})
        check(m, n, k, static_cast<int32_t>((m + n) % 4), nullptr, seed += 3);
  ThreadPool* two = ThreadPool::shared(2);
  check(9216 / 4 + 3, 8, 32, 1, two, seed += 3);
  check(2304 + 5, 12, 48, 0, two, seed += 3);
}

}  // namespace
}  // namespace nn
