// The float16 GEMM without its output clamp (isa/gemm_half_avx512fp16.cc, unboundedClampFree):
// no activation ([lowest, max]) into a float16 output, or into an output only a residual ADD
// reads (`feedsAdd`, `residual`), skips the clamp. Against the same call with the bounds one
// step inside [lowest, max] (the clamp kept, no finite sum changed by it): bit for bit the same
// output for finite data, for +-inf inputs (+-max rounds to float16 +-inf) and through the
// narrow kernel's residual ADD; with a float32 output and no ADD the clamp stays (an infinite
// sum comes out as +-max). Both kernels (narrow, n <= 48, and 64-column tiles), short and long
// k (float16 carries and float32 sums). Skipped without AVX512-FP16 (or capped below it).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "cpu/kernels/gemm_half.h"
#include "cpu/kernels/isa/gemm_half_isa.h"
#include "float_kernel_check.h"
#include "half_bits.h"

namespace nn {
namespace conv {
namespace {

using kernel_check::randomVector;

struct Out {
  std::vector<uint16_t> h;
  std::vector<float> f;
};

// One gemmHalfPanels call over all rows and tiles; `inner`: bounds one float step inside.
Out run(const std::vector<float>& a, const PackedHalfWeights& w, const std::vector<float>& bias,
        uint32_t m, bool halfOut, bool feedsAdd, const std::vector<uint16_t>* residual,
        bool inner) {
  const uint32_t n = w.n, k = w.k;
  GemmHalfArgs g{};
  g.m = m;
  g.n = n;
  g.k = k;
  g.lda = k;
  g.a = a.data();
  g.packed = w.data.data();
  g.bias = bias.data();
  g.narrow = halfGemmNarrow(n);
  const float big = std::numeric_limits<float>::max();
  g.outputMin = inner ? std::nextafter(-big, 0.f) : -big;
  g.outputMax = inner ? std::nextafter(big, 0.f) : big;
  g.feedsAdd = feedsAdd;
  Out o;
  if (halfOut) {
    o.h.assign(static_cast<size_t>(m) * n, 0);
    g.ch = o.h.data();
  } else {
    o.f.assign(static_cast<size_t>(m) * n, 0.f);
    g.c = o.f.data();
  }
  if (residual != nullptr) {
    g.residual = true;
    g.resC = n;
    g.rh = residual->data();
    g.addMin = 0.f;  // RELU, as BlazeFace's ADDs
    g.addMax = big;
  }
  std::vector<uint32_t> scratch(halfGemmScratchElems(k, n, halfOut) + 64);
  const uint32_t tiles = g.narrow ? 1 : (n + kHalfTileN - 1) / kHalfTileN;
  isa_avx512fp16::gemmHalfPanels(g, 0, m, 0, tiles, scratch.data());
  return o;
}

TEST(HalfGemm, UnboundedClampLeftOutSameBits) {
  if (!halfGemmAvailable()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  std::mt19937 rng(71);
  const float inf = std::numeric_limits<float>::infinity();
  for (const uint32_t n : {28u, 40u, 72u, 96u}) {
    for (const uint32_t k : {24u, 42u, 88u, 160u}) {
      const uint32_t m = 37;
      auto a = randomVector(rng, static_cast<size_t>(m) * k);
      a[3 * k + 1] = inf;    // row 3: +inf wherever that weight is positive
      a[10 * k + 2] = -inf;  // row 10
      const auto weights = randomVector(rng, static_cast<size_t>(n) * k);
      const auto bias = randomVector(rng, n);
      PackedHalfWeights w;
      packHalfWeights(weights.data(), n, k, &w);
      const std::string what = "n " + std::to_string(n) + " k " + std::to_string(k);
      {  // float16 output: the clamp left out
        const Out free = run(a, w, bias, m, true, false, nullptr, false);
        const Out kept = run(a, w, bias, m, true, false, nullptr, true);
        EXPECT_EQ(free.h, kept.h) << what << " float16 output";
        bool infOut = false;
        for (uint32_t c = 0; c < n; ++c) infOut |= (free.h[3 * n + c] & 0x7FFF) == 0x7C00;
        EXPECT_TRUE(infOut) << what << " the +inf input reaches the output";
      }
      {  // float32 output read by an ADD: left out; finite sums unchanged
        const Out free = run(a, w, bias, m, false, true, nullptr, false);
        const Out kept = run(a, w, bias, m, false, true, nullptr, true);
        for (size_t i = 0; i < free.f.size(); ++i) {
          if (std::isinf(free.f[i])) continue;  // +-max where the clamp is kept
          ASSERT_EQ(std::memcmp(&free.f[i], &kept.f[i], sizeof(float)), 0) << what << " at " << i;
        }
      }
      {  // float32 output, no ADD: the clamp stays (+-max, never inf)
        const Out f = run(a, w, bias, m, false, false, nullptr, false);
        for (const float v : f.f) ASSERT_FALSE(std::isinf(v)) << what;
      }
      if (halfGemmNarrow(n)) {  // the narrow kernel's residual ADD (RELU) into float16
        std::vector<uint16_t> res(static_cast<size_t>(m) * n);
        const auto r = randomVector(rng, res.size());
        for (size_t i = 0; i < res.size(); ++i) res[i] = half_bits::narrow(r[i]);
        const Out free = run(a, w, bias, m, true, false, &res, false);
        const Out kept = run(a, w, bias, m, true, false, &res, true);
        EXPECT_EQ(free.h, kept.h) << what << " with the residual ADD";
      }
    }
  }
}

}  // namespace
}  // namespace conv
}  // namespace nn
