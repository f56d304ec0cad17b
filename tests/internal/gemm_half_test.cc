// The float16 GEMM of relaxed 1x1 convolutions (gemm_half.cc,
// isa/gemm_half_avx512fp16.cc) against a double reference of the unrounded float32 data: rows,
// k and output columns not multiples of the 4/8-row, 32-term or 64-column blocks, k past the
// row-block size, every fused activation, with and without bias, one and two threads (split by
// weight tiles and by rows), NaN guard past the output. The error bound is float16's: each
// output within (kHalfKBlock + 8) * 2^-11 of S = |bias| + sum_k |a_k w_k| (the worst case of
// rounding both inputs and summing kHalfKBlock terms in float16, more than the float32 sums
// add), and over a whole
// product the root mean square error within 2^-9 of the root mean square S (typical errors
// are ~2^-12 S; a wrong index or a lost block gives errors of order S). The relaxed tolerance of
// the conformance vectors (5 * 2^-10 of |want|) is not a bound for random data whose sums
// cancel (|want| << S); nnapi-cts checks it on the vectors. Offered only with AVX512-FP16 and
// not below the `avx512fp16` NNAPI_CPU_ISA cap; ctest also runs it capped (then only the offer
// is checked).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cpu/isa.h"
#include "cpu/kernels/gemm_half.h"
#include "cpu/kernels/isa/gemm_half_isa.h"
#include "float_kernel_check.h"

namespace nn {
namespace conv {
namespace {

using kernel_check::randomVector;

constexpr size_t kGuard = 80;

TEST(HalfGemm, OfferedOnlyWithAvx512Fp16) {
  EXPECT_EQ(halfGemmAvailable(), cpuFeatures().avx512fp16 && isaLevel() >= IsaLevel::kAvx512);
  const char* cap = getenv("NNAPI_CPU_ISA");
  if (cap != nullptr) {
    for (const char* below : {"baseline", "sse2", "avx2", "avx512novnni", "avx512vnni"}) {
      if (std::strcmp(cap, below) == 0) {
        EXPECT_FALSE(halfGemmAvailable()) << "capped at " << cap;
      }
    }
  }
}

// want = clamp(bias + sum in double), got from halfGemmFloat; float16's error bounds (above).
void check(std::mt19937& rng, uint32_t m, uint32_t k, uint32_t n, int32_t activation,
           bool withBias, ThreadPool* pool, KernelScratch& ks, const std::string& what) {
  const auto a = randomVector(rng, static_cast<size_t>(m) * k);
  const auto weights = randomVector(rng, static_cast<size_t>(n) * k);
  const auto bias = randomVector(rng, n);
  float lo, hi;
  activationRangeFloat(activation, &lo, &hi);
  std::vector<double> want(static_cast<size_t>(m) * n), scale(want.size());
  for (uint32_t r = 0; r < m; ++r)
    for (uint32_t c = 0; c < n; ++c) {
      double s = withBias ? bias[c] : 0.0, abs = std::fabs(s);
      for (uint32_t i = 0; i < k; ++i) {
        const double t = static_cast<double>(a[static_cast<size_t>(r) * k + i]) *
                         weights[static_cast<size_t>(c) * k + i];
        s += t;
        abs += std::fabs(t);
      }
      want[static_cast<size_t>(r) * n + c] = std::fmin(hi, std::fmax(lo, s));
      scale[static_cast<size_t>(r) * n + c] = abs;
    }
  std::vector<float> got(want.size() + kGuard, NAN);
  PackedHalfWeights w;
  packHalfWeights(weights.data(), n, k, &w);
  halfGemmFloat(m, a.data(), k, w, withBias ? bias.data() : nullptr, activation, got.data(), pool,
                ks);
  double err2 = 0, scale2 = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const double err = std::fabs(got[i] - want[i]);
    ASSERT_LE(err, (kHalfKBlock + 8) / 2048.0 * scale[i] + 1e-6)
        << what << " at " << i << ": got " << got[i] << ", want " << want[i];
    err2 += err * err;
    scale2 += scale[i] * scale[i];
  }
  EXPECT_LE(std::sqrt(err2), std::sqrt(scale2) / 512) << what << ": root mean square error";
  for (size_t i = want.size(); i < got.size(); ++i)
    ASSERT_TRUE(std::isnan(got[i])) << what << ": written past the output at " << i;
}

TEST(HalfGemm, MatchesDoubleReference) {
  if (!halfGemmAvailable()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  std::mt19937 rng(2026);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  static const int kOut[] = {1, 3, 8, 15, 16, 17, 24, 31, 32, 33, 48, 63, 64, 65, 80, 96, 97,
                             127, 128, 130, 200};
  ThreadPool pool(2);
  KernelScratch ks;
  for (int iter = 0; iter < 200; ++iter) {
    const uint32_t m = static_cast<uint32_t>(pick(1, 300));
    // Mostly small k; sometimes past the row-block size (64K elements / k rows).
    const uint32_t k = static_cast<uint32_t>(pick(0, 5) == 0 ? pick(300, 2500) : pick(1, 200));
    const uint32_t n = static_cast<uint32_t>(kOut[pick(0, 20)]);
    const int32_t activation = pick(0, 3);
    const bool withBias = pick(0, 3) != 0;
    check(rng, m, k, n, activation, withBias, iter % 2 ? &pool : nullptr, ks,
          "m" + std::to_string(m) + " k" + std::to_string(k) + " n" + std::to_string(n) +
              " act " + std::to_string(activation) + (withBias ? "" : " no bias") +
              (iter % 2 ? " 2 threads" : " 1 thread"));
  }
}

// Large enough to be split over two threads both ways (by weight tiles, by rows).
TEST(HalfGemm, ThreadSplits) {
  if (!halfGemmAvailable()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  std::mt19937 rng(11);
  ThreadPool pool(2);
  KernelScratch ks;
  const uint32_t shapes[][3] = {{128, 272, 1632}, {128, 1632, 272}, {512, 160, 48},
                                {1568, 24, 144}, {49, 1152, 192}, {18, 96, 77}};
  for (const auto& s : shapes)
    check(rng, s[0], s[1], s[2], /*RELU6*/ 3, true, &pool, ks,
          std::to_string(s[0]) + "x" + std::to_string(s[1]) + "->" + std::to_string(s[2]));
}

// The arithmetic really is float16 (an input 1 + 2^-12 rounds to 1), and the sums of
// kHalfKBlock terms are added up in float32: 4096 ones sum to 4096 (in float16 alone the
// running sum would stop at 2048, where 2048 + 1 rounds back to 2048).
TEST(HalfGemm, Float16ProductsFloat32Sums) {
  if (!halfGemmAvailable()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  KernelScratch ks;
  PackedHalfWeights w;
  const float one = 1.f, notHalf = 1.f + 1.f / 4096;
  packHalfWeights(&one, 1, 1, &w);
  float out[2] = {NAN, NAN};
  halfGemmFloat(1, &notHalf, 1, w, nullptr, 0, out, nullptr, ks);
  EXPECT_EQ(out[0], 1.f);
  EXPECT_TRUE(std::isnan(out[1]));
  // k = 0: the clamped bias.
  const float bias[2] = {2.5f, -1.f};
  PackedHalfWeights none;
  packHalfWeights(static_cast<const float*>(nullptr), 2, 0, &none);
  float biasOut[3] = {NAN, NAN, NAN};
  halfGemmFloat(1, nullptr, 0, none, bias, /*RELU*/ 1, biasOut, nullptr, ks);
  EXPECT_EQ(biasOut[0], 2.5f);
  EXPECT_EQ(biasOut[1], 0.f);
  EXPECT_TRUE(std::isnan(biasOut[2]));
  const uint32_t k = 4096;
  std::vector<float> ones(k, 1.f);
  packHalfWeights(ones.data(), 1, k, &w);
  halfGemmFloat(1, ones.data(), k, w, nullptr, 0, out, nullptr, ks);
  EXPECT_EQ(out[0], 4096.f);
}

}  // namespace
}  // namespace conv
}  // namespace nn
