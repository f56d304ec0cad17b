// The small-n layout's float32-sum form (isa::gemmHalfSmallNFloat, gemm_half_small_isa.h):
// float16 input, float32 or float16 output, k up to kHalfSmallWideMaxK, up to 96 columns in
// chunks of column groups. Against a double reference of the float16 inputs and the float32
// weights and bias within the error bound of its arithmetic (each lane's float16 sum at most 16
// terms, one float16 pair addition, then float32), with k and row counts off its quads, blocks
// and register blocks, words past the input that must not reach the sums, nothing written past
// the output; that halfGemmMixed takes it for its shapes (the same bits) and packs its layout
// only for them; and its residual ADD epilogue (halfGemmResidual with a float32 convolution
// output) bit for bit against the ADD's arithmetic on the convolution's own output. Only with
// AVX512-FP16 (not capped by NNAPI_CPU_ISA).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

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
constexpr float kSentinelF = -12345.f;
constexpr uint16_t kSentinelH = 0x7bcd;

using half_bits::narrow;
using half_bits::widen;

struct Case {
  uint32_t m, n, k;
  int32_t act;
};

std::string name(const Case& c) {
  return "m " + std::to_string(c.m) + " n " + std::to_string(c.n) + " k " + std::to_string(c.k) +
         " act " + std::to_string(c.act);
}

// Float16 input rows followed by float16 infinities (a word read past the input times a zero
// weight would be NaN); `a` gets the rounded values.
std::vector<uint16_t> halfInput(std::vector<float>& a) {
  std::vector<uint16_t> buffer(a.size() + 8, 0x7c00);
  for (size_t i = 0; i < a.size(); ++i) {
    buffer[i] = narrow(a[i]);
    a[i] = widen(buffer[i]);
  }
  return buffer;
}

// The kernel's arguments for all rows of case c (output pointers left null).
GemmHalfArgs wideArgs(const Case& c, const std::vector<uint16_t>& ah,
                      const std::vector<float>& bias, const conv::PackedHalfWeights& packed) {
  GemmHalfArgs g{};
  g.m = c.m;
  g.n = c.n;
  g.k = c.k;
  g.lda = c.k;
  g.ah = ah.data();
  g.bias = bias.data();
  g.small = packed.small.data();
  activationRangeFloat(c.act, &g.outputMin, &g.outputMax);
  return g;
}

// Runs the kernel directly on rows [0, m) (float32 output, or float16 where halfOut) and checks
// each output against the double reference.
void checkKernel(const Case& c, bool halfOut, uint32_t seed) {
  SCOPED_TRACE(name(c) + (halfOut ? " float16 out" : " float32 out"));
  std::vector<float> a = nntest::randomFloats(size_t{c.m} * c.k, seed, -2.f, 2.f);
  const std::vector<uint16_t> ah = halfInput(a);
  const std::vector<float> w = nntest::randomFloats(size_t{c.n} * c.k, seed + 1);
  const std::vector<float> bias = nntest::randomFloats(c.n, seed + 2);
  conv::PackedHalfWeights packed;
  conv::packHalfWeights(w.data(), c.n, c.k, &packed);
  ASSERT_FALSE(packed.small.empty());
  std::vector<float> outF(size_t{c.m} * c.n + kGuard, kSentinelF);
  std::vector<uint16_t> outH(size_t{c.m} * c.n + kGuard, kSentinelH);
  GemmHalfArgs g = wideArgs(c, ah, bias, packed);
  if (halfOut)
    g.ch = outH.data();
  else
    g.c = outF.data();
  isa_avx512fp16::gemmHalfSmallNFloat(g, 0, c.m);
  // Weights rounded to float16, at most 16 float16 roundings in a lane's chain and one in the
  // pair addition, each at most 2^-11 of M = |bias| + sum |a w|; one more for a float16 output.
  const double u = std::ldexp(1.0, -11);
  const double terms = (halfOut ? 20.0 : 19.0);
  for (uint32_t r = 0; r < c.m; ++r)
    for (uint32_t col = 0; col < c.n; ++col) {
      double s = bias[col], mag = std::fabs(bias[col]);
      for (uint32_t j = 0; j < c.k; ++j) {
        const double t = static_cast<double>(a[size_t{r} * c.k + j]) * w[size_t{col} * c.k + j];
        s += t;
        mag += std::fabs(t);
      }
      const double want = s < g.outputMin ? g.outputMin : (s > g.outputMax ? g.outputMax : s);
      const size_t i = size_t{r} * c.n + col;
      const double got = halfOut ? widen(outH[i]) : outF[i];
      ASSERT_NEAR(got, want, terms * u * mag) << "row " << r << " column " << col;
    }
  for (size_t i = size_t{c.m} * c.n; i < outF.size(); ++i) {
    ASSERT_EQ(outF[i], kSentinelF) << "written past the output at " << i;
    ASSERT_EQ(outH[i], kSentinelH) << "written past the output at " << i;
  }
}

TEST(HalfGemm, WideWithinFloat16BoundOfFloat32) {
  if (!conv::halfGemmAvailable()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  uint32_t seed = 1300;
  // Column groups of 8 filled in part or whole (1..6 groups; 72..96 in two chunks), k within
  // one block of 64, across blocks, off the quads, up to the limit.
  for (uint32_t n : {16u, 1u, 7u, 24u, 40u, 48u, 72u, 80u, 96u})
    for (uint32_t k : {64u, 1u, 6u, 24u, 65u, 96u, 144u, 255u, 288u, kHalfSmallWideMaxK})
      for (uint32_t m : {1u, 2u, 5u, 8u, 11u, 30u}) {
        if (!halfGemmSmallWidePreferred(n, k)) continue;
        checkKernel({m, n, k, static_cast<int32_t>((m + k) % 4)}, (m + n) % 2 == 0, seed += 3);
      }
  checkKernel({196, 48, 288, 0}, false, seed += 3);
  checkKernel({196, 80, 480, 1}, true, seed += 3);
}

// halfGemmMixed takes the kernel for float16 input where halfGemmSmallWidePreferred (the same
// bits as the kernel called directly, one and two threads), and packs the layout only where
// some kernel reads it.
TEST(HalfGemm, WideTakenForItsShapes) {
  if (!conv::halfGemmAvailable()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  uint32_t seed = 1700;
  const Case cases[] = {{3136, 16, 96, 0}, {784, 24, 144, 3}, {196, 48, 288, 1},
                        {196, 80, 480, 0}, {2304, 16, 48, 1}};
  for (const Case& c : cases)
    for (int threads : {1, 2}) {
      SCOPED_TRACE(name(c) + " threads " + std::to_string(threads));
      ASSERT_TRUE(halfGemmSmallWidePreferred(c.n, c.k));
      std::vector<float> a = nntest::randomFloats(size_t{c.m} * c.k, seed += 3, -2.f, 2.f);
      const std::vector<uint16_t> ah = halfInput(a);
      const std::vector<float> w = nntest::randomFloats(size_t{c.n} * c.k, seed + 1);
      const std::vector<float> bias = nntest::randomFloats(c.n, seed + 2);
      conv::PackedHalfWeights packed;
      conv::packHalfWeights(w.data(), c.n, c.k, &packed);
      std::vector<float> viaDriver(size_t{c.m} * c.n), direct(size_t{c.m} * c.n);
      conv::KernelScratch ks;
      conv::halfGemmMixed(c.m, nullptr, reinterpret_cast<const Half*>(ah.data()), c.k, packed,
                          bias.data(), c.act, viaDriver.data(), nullptr,
                          threads > 1 ? ThreadPool::shared(threads) : nullptr, ks);
      GemmHalfArgs g = wideArgs(c, ah, bias, packed);
      g.c = direct.data();
      isa_avx512fp16::gemmHalfSmallNFloat(g, 0, c.m);
      for (size_t i = 0; i < direct.size(); ++i)
        ASSERT_EQ(viaDriver[i], direct[i]) << "element " << i;
    }
  const std::vector<float> w(size_t{97} * 513, 0.25f);
  conv::PackedHalfWeights p;
  for (const auto& nk : {std::pair<uint32_t, uint32_t>{48, kHalfSmallWideMaxK}, {80, 128},
                         {96, 256}}) {
    conv::packHalfWeights(w.data(), nk.first, nk.second, &p);
    EXPECT_FALSE(p.small.empty()) << nk.first << " x " << nk.second;
  }
  for (const auto& nk : {std::pair<uint32_t, uint32_t>{48, kHalfSmallWideMaxK + 1}, {64, 256},
                         {80, 127}, {97, 256}}) {
    conv::packHalfWeights(w.data(), nk.first, nk.second, &p);
    EXPECT_TRUE(p.small.empty()) << nk.first << " x " << nk.second;
  }
}

// The residual ADD in the kernel's epilogue (halfGemmResidual, float16 input, float32
// convolution output) against the kernel's convolution alone (halfGemmMixed, float32 output)
// followed by the ADD's arithmetic (float32 sum of the output and the shortcut, clamp, rounded
// once for a float16 output): the same bits, with float32 and float16 shortcuts and outputs,
// shortcuts narrower than n (their missing channels +0), NaN, infinities and overflow.
void checkResidual(const Case& c, uint32_t resC, int32_t addAct, bool resHalf, bool outHalf,
                   ThreadPool* pool, uint32_t seed) {
  SCOPED_TRACE(name(c) + " resC " + std::to_string(resC) + " add act " + std::to_string(addAct) +
               (resHalf ? " res f16" : " res f32") + (outHalf ? " out f16" : " out f32") +
               " threads " + std::to_string(pool ? pool->numThreads() : 1));
  std::vector<float> a = nntest::randomFloats(size_t{c.m} * c.k, seed, -2.f, 2.f);
  const std::vector<uint16_t> ah = halfInput(a);
  std::vector<float> r = nntest::randomFloats(size_t{c.m} * resC, seed + 3, -4.f, 4.f);
  for (size_t i = 0; i < r.size(); i += 97)
    r[i] = i % 3 == 0 ? NAN : (i % 3 == 1 ? INFINITY : 3.3e38f);
  std::vector<uint16_t> rh(r.size());
  for (size_t i = 0; i < r.size(); ++i) {
    rh[i] = narrow(r[i]);
    if (resHalf) r[i] = widen(rh[i]);
  }
  const std::vector<float> w = nntest::randomFloats(size_t{c.n} * c.k, seed + 1);
  const std::vector<float> bias = nntest::randomFloats(c.n, seed + 2);
  conv::PackedHalfWeights packed;
  conv::packHalfWeights(w.data(), c.n, c.k, &packed);
  conv::KernelScratch ks;
  std::vector<float> convOut(size_t{c.m} * c.n);
  conv::halfGemmMixed(c.m, nullptr, reinterpret_cast<const Half*>(ah.data()), c.k, packed,
                      bias.data(), c.act, convOut.data(), nullptr, pool, ks);
  conv::HalfGemmResidual f;
  f.m = c.m;
  f.ah = reinterpret_cast<const Half*>(ah.data());
  f.weights = &packed;
  f.bias = bias.data();
  f.convActivation = c.act;
  f.convHalfOut = false;
  if (resHalf)
    f.resH = reinterpret_cast<const Half*>(rh.data());
  else
    f.res = r.data();
  f.resC = resC;
  f.addActivation = addAct;
  std::vector<float> outF(size_t{c.m} * c.n + kGuard, kSentinelF);
  std::vector<uint16_t> outH(size_t{c.m} * c.n + kGuard, kSentinelH);
  if (outHalf)
    f.outH = reinterpret_cast<Half*>(outH.data());
  else
    f.out = outF.data();
  conv::halfGemmResidual(f, pool, ks);
  float lo = 0, hi = 0;
  activationRangeFloat(addAct, &lo, &hi);
  for (uint32_t row = 0; row < c.m; ++row)
    for (uint32_t col = 0; col < c.n; ++col) {
      const size_t i = size_t{row} * c.n + col;
      const float s = convOut[i] + (col < resC ? r[size_t{row} * resC + col] : 0.f);
      const float want = std::isnan(s) ? s : std::fmin(hi, std::fmax(lo, s));
      const float got = outHalf ? widen(outH[i]) : outF[i];
      if (std::isnan(want)) {
        ASSERT_TRUE(std::isnan(got)) << "row " << row << " col " << col;
      } else if (outHalf) {
        ASSERT_EQ(outH[i], narrow(want)) << "row " << row << " col " << col;
      } else {
        ASSERT_EQ(got, want) << "row " << row << " col " << col;
      }
    }
  for (size_t i = size_t{c.m} * c.n; i < outF.size(); ++i) {
    ASSERT_EQ(outF[i], kSentinelF) << "written past the output at " << i;
    ASSERT_EQ(outH[i], kSentinelH) << "written past the output at " << i;
  }
}

TEST(HalfGemm, WideResidualSameBitsAsAddApart) {
  if (!conv::halfGemmAvailable()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  uint32_t seed = 2100;
  // The landmark models' residual projections (96 -> 16, 144 -> 24, 288 -> 48, 480 -> 80), a
  // shortcut narrower than n, rows off the blocks, every activation on both sides.
  const uint32_t shapes[][3] = {{16, 96, 16}, {24, 144, 24}, {48, 288, 48}, {80, 480, 80},
                                {40, 240, 32}, {16, 64, 9},  {5, 7, 5}};
  uint32_t i = 0;
  for (const auto& s : shapes)
    for (uint32_t m : {1u, 3u, 8u, 13u, 60u})
      for (int32_t act : {0, 1, 2, 3}) {
        ++i;
        checkResidual({m, s[0], s[1], act}, s[2], (act + 1) % 4, i % 2 == 0, i % 3 == 0, nullptr,
                      seed += 5);
      }
  ThreadPool* two = ThreadPool::shared(2);
  checkResidual({3136, 16, 96, 0}, 16, 0, false, false, two, seed += 5);
  checkResidual({784 + 3, 24, 144, 0}, 24, 1, true, true, two, seed += 5);
  checkResidual({196, 80, 480, 0}, 80, 0, false, true, two, seed += 5);
}

}  // namespace
}  // namespace nn
