// The small-n float16 1x1 kernel (isa/gemm_half_small_avx512fp16.cc, taken by
// conv::halfGemmMixed for float16 data both sides, n <= 48, k up to 64) against a double
// reference of the float16 inputs and the float32 weights and bias, within the float16 error
// bound of its arithmetic: column counts filling one to six groups of 8 in part or whole, k
// multiples of 4 and not (the last quad's words past k belong to the next row or to nothing:
// huge values there must not reach the sums), row counts off its 8- and 4-row blocks,
// activations, one and two threads; nothing written past the output. Then its residual ADD
// epilogue (gemm_half_residual.h's all-float16 form): against the ADD's arithmetic on the
// kernel's own convolution output bit for bit, shortcuts narrower than n (PAD channels), NaN
// kept. Only with AVX512-FP16 (not capped by NNAPI_CPU_ISA).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "cpu/isa.h"
#include "cpu/kernels/gemm_half.h"
#include "cpu/kernels/gemm_half_residual.h"
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
  // The input in a larger buffer whose words past the last row are float16 infinities: a read
  // of them times a zero weight would make NaN.
  std::vector<uint16_t> buffer(a.size() + 8, 0x7c00);
  uint16_t* ah = buffer.data();
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
  ASSERT_FALSE(packed.small.empty());
  conv::halfGemmMixed(m, nullptr, reinterpret_cast<const Half*>(ah), k, packed,
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
  for (uint32_t n : {8u, 1u, 3u, 12u, 16u, 24u, 28u, 36u, 42u, kHalfSmallMaxN})
    for (uint32_t k : {4u, 8u, 12u, 24u, 32u, 48u, kHalfSmallMaxK, 1u, 2u, 7u, 42u, 63u})
      for (uint32_t m : {1u, 4u, 5u, 8u, 9u, 17u, 100u})
        check(m, n, k, static_cast<int32_t>((m + n) % 4), nullptr, seed += 3);
  ThreadPool* two = ThreadPool::shared(2);
  check(9216 / 4 + 3, 8, 32, 1, two, seed += 3);
  check(2304 + 5, 12, 48, 0, two, seed += 3);
  check(4096 + 1, 28, 42, 1, two, seed += 3);
}

// Not in the small-n layout: n or k past its limits.
TEST(HalfGemm, SmallNLayoutOnlyForItsShapes) {
  const std::vector<float> w(size_t{64} * 65, 0.5f);
  conv::PackedHalfWeights p;
  conv::packHalfWeights(w.data(), kHalfSmallMaxN, kHalfSmallMaxK, &p);
  EXPECT_FALSE(p.small.empty());
  conv::packHalfWeights(w.data(), kHalfSmallMaxN + 1, kHalfSmallMaxK, &p);
  EXPECT_TRUE(p.small.empty());
  // Past the small-n kernel's k the layout serves its float32-sum form (gemm_half_wide_test.cc).
  EXPECT_FALSE(halfGemmSmallShape(kHalfSmallMaxN, kHalfSmallMaxK + 1));
}

// The residual ADD in the small-n kernel's epilogue (halfGemmResidual, all tensors float16)
// against the kernel's convolution alone (halfGemmMixed) followed by the float16 ADD's
// arithmetic (widen, add in float32, clamp, round once): the same bits.
void checkResidual(uint32_t m, uint32_t n, uint32_t k, uint32_t resC, int32_t convAct,
                   int32_t addAct, ThreadPool* pool, uint32_t seed) {
  SCOPED_TRACE("m " + std::to_string(m) + " n " + std::to_string(n) + " k " + std::to_string(k) +
               " resC " + std::to_string(resC) + " acts " + std::to_string(convAct) + "/" +
               std::to_string(addAct) + " threads " +
               std::to_string(pool ? pool->numThreads() : 1));
  const std::vector<float> a = nntest::randomFloats(size_t{m} * k, seed, -2.f, 2.f);
  std::vector<float> r = nntest::randomFloats(size_t{m} * resC, seed + 3, -4.f, 4.f);
  // Some NaN and infinite shortcuts, and one large enough for the sum to overflow.
  for (size_t i = 0; i < r.size(); i += 97) r[i] = i % 3 == 0 ? NAN : (i % 3 == 1 ? INFINITY : 65000.f);
  std::vector<uint16_t> ah(a.size()), rh(r.size());
  for (size_t i = 0; i < a.size(); ++i) ah[i] = narrow(a[i]);
  for (size_t i = 0; i < r.size(); ++i) rh[i] = narrow(r[i]);
  const std::vector<float> w = nntest::randomFloats(size_t{n} * k, seed + 1);
  const std::vector<float> bias = nntest::randomFloats(n, seed + 2);
  conv::PackedHalfWeights packed;
  conv::packHalfWeights(w.data(), n, k, &packed);
  conv::KernelScratch ks;
  std::vector<uint16_t> conv(size_t{m} * n);
  conv::halfGemmMixed(m, nullptr, reinterpret_cast<const Half*>(ah.data()), k, packed,
                      bias.data(), convAct, nullptr, reinterpret_cast<Half*>(conv.data()), pool,
                      ks);
  conv::HalfGemmResidual f;
  f.m = m;
  f.ah = reinterpret_cast<const Half*>(ah.data());
  f.weights = &packed;
  f.bias = bias.data();
  f.convActivation = convAct;
  f.convHalfOut = true;
  f.resH = reinterpret_cast<const Half*>(rh.data());
  f.resC = resC;
  f.addActivation = addAct;
  std::vector<uint16_t> out(size_t{m} * n + kGuard, kSentinel);
  f.outH = reinterpret_cast<Half*>(out.data());
  conv::halfGemmResidual(f, pool, ks);
  float lo = 0, hi = 0;
  activationRangeFloat(addAct, &lo, &hi);
  for (uint32_t row = 0; row < m; ++row)
    for (uint32_t c = 0; c < n; ++c) {
      const float s = widen(conv[size_t{row} * n + c]) +
                      (c < resC ? widen(rh[size_t{row} * resC + c]) : 0.f);
      const uint16_t want = narrow(std::isnan(s) ? s : std::fmin(hi, std::fmax(lo, s)));
      const uint16_t got = out[size_t{row} * n + c];
      const bool nan = (want & 0x7c00) == 0x7c00 && (want & 0x3ff) != 0;
      if (nan)
        ASSERT_TRUE((got & 0x7c00) == 0x7c00 && (got & 0x3ff) != 0) << "row " << row << " col " << c;
      else
        ASSERT_EQ(got, want) << "row " << row << " col " << c << ": " << widen(got) << " vs "
                             << widen(want);
    }
  for (size_t i = size_t{m} * n; i < out.size(); ++i)
    ASSERT_EQ(out[i], kSentinel) << "written past the output at " << i;
}

TEST(HalfGemm, SmallNResidualSameBitsAsAddApart) {
  if (!conv::halfGemmAvailable()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  uint32_t seed = 900;
  // BlazeFace's layers (24 -> 24, 24 -> 28 with a PAD-widened shortcut, 36 -> 42 ...), rows off
  // the blocks, every activation on both sides.
  const uint32_t shapes[][3] = {{24, 24, 24}, {28, 24, 24}, {32, 28, 28}, {42, 36, 36},
                                {48, 42, 42}, {8, 8, 3},    {17, 5, 17},  {40, 64, 1}};
  for (const auto& s : shapes)
    for (uint32_t m : {1u, 3u, 4u, 9u, 64u})
      for (int32_t act : {0, 1, 2, 3})
        checkResidual(m, s[0], s[1], s[2], act, (act + 1) % 4, nullptr, seed += 5);
  ThreadPool* two = ThreadPool::shared(2);
  checkResidual(4096, 28, 24, 24, 0, 1, two, seed += 5);
  checkResidual(1024 + 3, 42, 36, 36, 1, 1, two, seed += 5);
}

}  // namespace
}  // namespace nn
