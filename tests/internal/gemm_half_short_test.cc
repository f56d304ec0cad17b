// The float16 GEMM's short form (isa/gemm_half_avx512fp16.cc, blockShortHalf): k within four
// blocks of kHalfKBlock terms and a float16 output, where the blocks' sums are carried in
// float16 and the bias, rounded to float16, is added in float16. Against a double reference of
// the unrounded float32 data: each output within (kHalfKBlock + 8) * 2^-11 of
// S = |bias| + sum |a w| (inputs rounded, each block's terms summed in float16, up to three
// float16 carries, the bias rounded and added: the general form's bound, gemm_half_test.cc)
// plus the output's own rounding (2^-11 of |want|), and with one block (k <= kHalfKBlock)
// within (k + 2) * 2^-11 of S; over each product the root mean square error within 2^-9 of
// the root mean square S; biases that float16 cannot represent; every fused activation (the clamp in float16);
// column counts filling one or two 32-lane vectors of a 64-column tile partly; float32 and
// float16 inputs; one and two threads; nothing written past the output. Skipped without
// AVX512-FP16 (or capped below it by NNAPI_CPU_ISA).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "cpu/kernels/gemm_half.h"
#include "cpu/kernels/isa/gemm_half_isa.h"
#include "float_kernel_check.h"

namespace nn {
namespace conv {
namespace {

using kernel_check::randomVector;

TEST(HalfGemm, ShortKFloat16OutputMatchesDoubleReference) {
  if (!halfGemmAvailable()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  std::mt19937 rng(16);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  // More than kHalfNarrowMaxN columns (the 64-column tiles): 49..200.
  static const uint32_t kOut[] = {49, 63, 64, 65, 96, 97, 128, 144, 200};
  ThreadPool pool(2);
  KernelScratch ks;
  for (int iter = 0; iter < 120; ++iter) {
    const uint32_t m = static_cast<uint32_t>(iter < 4 ? 2000 + iter : pick(1, 300));
    const uint32_t k = static_cast<uint32_t>(
        iter % 2 ? pick(1, static_cast<int>(kHalfKBlock)) : pick(1, 4 * static_cast<int>(kHalfKBlock)));
    const uint32_t n = kOut[pick(0, 8)];
    const int32_t activation = pick(0, 3);
    const bool halfIn = iter % 2 == 0;
    const auto a = randomVector(rng, static_cast<size_t>(m) * k);
    const auto weights = randomVector(rng, static_cast<size_t>(n) * k);
    std::vector<float> bias = randomVector(rng, n);
    // Off the float16 grid: 1 + 2^-13 rounds to 1.
    for (uint32_t c = 0; c < n; c += 3) bias[c] = (c % 2 ? -1.f : 1.f) * (1.f + 1.f / 8192);
    float lo, hi;
    activationRangeFloat(activation, &lo, &hi);
    PackedHalfWeights w;
    packHalfWeights(weights.data(), n, k, &w);
    std::vector<Half> ah(halfIn ? a.size() : 0);
    for (size_t i = 0; i < ah.size(); ++i) ah[i] = static_cast<Half>(a[i]);
    const size_t count = static_cast<size_t>(m) * n;
    std::vector<Half> ch(count + 64, static_cast<Half>(NAN));
    halfGemmMixed(m, halfIn ? nullptr : a.data(), halfIn ? ah.data() : nullptr, k, w, bias.data(),
                  activation, nullptr, ch.data(), iter % 3 == 0 ? nullptr : &pool, ks);
    const std::string what = "m" + std::to_string(m) + " k" + std::to_string(k) + " n" +
                             std::to_string(n) + " act " + std::to_string(activation) +
                             (halfIn ? " half in" : "");
    double err2 = 0, scale2 = 0;
    for (uint32_t r = 0; r < m; ++r)
      for (uint32_t c = 0; c < n; ++c) {
        double s = bias[c], abs = std::fabs(s);
        for (uint32_t i = 0; i < k; ++i) {
          const double t = static_cast<double>(a[static_cast<size_t>(r) * k + i]) *
                           weights[static_cast<size_t>(c) * k + i];
          s += t;
          abs += std::fabs(t);
        }
        const double want = std::fmin(hi, std::fmax(lo, s));
        const double got = static_cast<double>(ch[static_cast<size_t>(r) * n + c]);
        const double err = std::fabs(got - want);
        const uint32_t terms = k <= kHalfKBlock ? k + 2 : kHalfKBlock + 8;
        ASSERT_LE(err, terms / 2048.0 * abs + std::fabs(want) / 2048 + 1e-6)
            << what << " at row " << r << " column " << c << ": got " << got << ", want " << want;
        ASSERT_GE(got, lo) << what;
        ASSERT_LE(got, hi) << what;
        err2 += err * err;
        scale2 += abs * abs;
      }
    EXPECT_LE(std::sqrt(err2), std::sqrt(scale2) / 512) << what << ": root mean square error";
    for (size_t i = count; i < ch.size(); ++i)
      ASSERT_TRUE(std::isnan(static_cast<float>(ch[i]))) << what << ": written past the output";
  }
}

}  // namespace
}  // namespace conv
}  // namespace nn
