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
// With `halfIn` / `halfOut` the data on that side is float16 (halfGemmMixed, the relaxed
// models' float16 temporaries): the input then rounded before the call (within the bound, which
// already counts rounding it), the output rounded once more (2^-11 of |want| added).
void check(std::mt19937& rng, uint32_t m, uint32_t k, uint32_t n, int32_t activation,
           bool withBias, ThreadPool* pool, KernelScratch& ks, const std::string& what,
           bool halfIn = false, bool halfOut = false) {
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
  if (!halfIn && !halfOut) {
    halfGemmFloat(m, a.data(), k, w, withBias ? bias.data() : nullptr, activation, got.data(),
                  pool, ks);
  } else {
    std::vector<Half> ah(halfIn ? a.size() : 0);
    for (size_t i = 0; i < ah.size(); ++i) ah[i] = static_cast<Half>(a[i]);
    std::vector<Half> ch(halfOut ? got.size() : 0, static_cast<Half>(NAN));
    halfGemmMixed(m, halfIn ? nullptr : a.data(), halfIn ? ah.data() : nullptr, k, w,
                  withBias ? bias.data() : nullptr, activation, halfOut ? nullptr : got.data(),
                  halfOut ? ch.data() : nullptr, pool, ks);
    for (size_t i = 0; i < ch.size(); ++i) got[i] = static_cast<float>(ch[i]);
  }
  double err2 = 0, scale2 = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const double err = std::fabs(got[i] - want[i]);
    ASSERT_LE(err, (kHalfKBlock + 8) / 2048.0 * scale[i] + (halfOut ? std::fabs(want[i]) / 2048 : 0) + 1e-6)
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

// The same with float16 data on either or both sides.
TEST(HalfGemm, Float16DataMatchesDoubleReference) {
  if (!halfGemmAvailable()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  std::mt19937 rng(77);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  static const int kOut[] = {1, 8, 17, 32, 33, 48, 64, 65, 96, 130, 200};
  ThreadPool pool(2);
  KernelScratch ks;
  for (int iter = 0; iter < 150; ++iter) {
    const uint32_t m = static_cast<uint32_t>(pick(1, 300));
    // Past one block of kHalfKBlock terms too (the float16 output then keeps float32 sums).
    const uint32_t k = static_cast<uint32_t>(pick(0, 5) == 0 ? pick(300, 2500) : pick(1, 200));
    const uint32_t n = static_cast<uint32_t>(kOut[pick(0, 10)]);
    const int32_t activation = pick(0, 3);
    const bool halfIn = iter % 3 != 1, halfOut = iter % 3 != 0;
    check(rng, m, k, n, activation, true, iter % 2 ? &pool : nullptr, ks,
          "m" + std::to_string(m) + " k" + std::to_string(k) + " n" + std::to_string(n) +
              " act " + std::to_string(activation) + (halfIn ? " half in" : "") +
              (halfOut ? " half out" : ""),
          halfIn, halfOut);
  }
  // Split over two threads by rows and by weight tiles, float16 both sides.
  const uint32_t shapes[][3] = {{1568, 24, 144}, {128, 272, 1632}, {3136, 144, 48}};
  for (const auto& sh : shapes)
    check(rng, sh[0], sh[1], sh[2], 3, true, &pool, ks, "split " + std::to_string(sh[0]), true,
          true);
}

// The narrow kernel (up to kHalfNarrowMaxN output columns: 4-row groups times 8-column groups
// in one vector): every column count 1..48 (groups 1..6, the last one partly empty), row counts
// that leave 1, 2 or 3 rows in the last 4-row group and register blocks of every size, k within
// one kHalfKBlock block and across several, float32 and float16 data on either side, and the
// hand models' projections split over two threads by rows.
TEST(HalfGemm, NarrowColumnsMatchDoubleReference) {
  if (!halfGemmAvailable()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  static_assert(kHalfNarrowMaxN == 48, "the column counts below cover 1..48");
  std::mt19937 rng(48);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  ThreadPool pool(2);
  KernelScratch ks;
  for (uint32_t n = 1; n <= kHalfNarrowMaxN; ++n) {
    for (int rep = 0; rep < 3; ++rep) {
      const uint32_t m = static_cast<uint32_t>(rep == 0 ? pick(1, 7) : pick(8, 130));
      const uint32_t k = static_cast<uint32_t>(rep == 2 ? pick(33, 300) : pick(0, 40));
      const int32_t activation = pick(0, 3);
      const bool halfIn = pick(0, 2) == 0, halfOut = pick(0, 2) == 0;
      check(rng, m, k, n, activation, rep != 1, rep == 2 ? &pool : nullptr, ks,
            "narrow m" + std::to_string(m) + " k" + std::to_string(k) + " n" +
                std::to_string(n) + " act " + std::to_string(activation) +
                (halfIn ? " half in" : "") + (halfOut ? " half out" : ""),
            halfIn, halfOut);
    }
  }
  const uint32_t shapes[][3] = {{3136, 144, 24}, {12544, 24, 16}, {784, 240, 40}, {3136, 64, 24}};
  for (const auto& sh : shapes)
    for (int halfData = 0; halfData < 2; ++halfData)
      check(rng, sh[0], sh[1], sh[2], 0, true, &pool, ks,
            "narrow " + std::to_string(sh[0]) + "x" + std::to_string(sh[1]) + "->" +
                std::to_string(sh[2]),
            halfData != 0, halfData != 0);
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

// Row blocks taken last first (lastBlockFirst, set by the driver for expansions with over 1 MB
// of output) give the same bits as in order, written only within the call's rows: the 64-column
// and narrow kernels, float32 and float16 data on either side (the short-k float16 carries
// included), row ranges starting and ending off the block boundaries.
TEST(HalfGemm, LastBlockFirstSameBits) {
  if (!halfGemmAvailable()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  std::mt19937 rng(23);
  struct Shape {
    uint32_t m, k, n, rowBegin, rowEnd;
    bool halfIn, halfOut;
  };
  const Shape shapes[] = {{12544, 16, 64, 0, 12544, false, true},
                          {7000, 24, 96, 5, 6999, true, true},
                          {5000, 200, 80, 3, 4997, true, false},
                          {6000, 16, 24, 1, 5999, false, false},
                          {4000, 64, 40, 0, 4000, true, true},
                          {300, 16, 64, 17, 18, false, true}};
  for (const Shape& s : shapes) {
    const std::string text = std::to_string(s.m) + "x" + std::to_string(s.k) + "->" +
                             std::to_string(s.n) + " rows " + std::to_string(s.rowBegin) + ".." +
                             std::to_string(s.rowEnd) + (s.halfIn ? " f16 in" : "") +
                             (s.halfOut ? " f16 out" : "");
    const auto a = randomVector(rng, static_cast<size_t>(s.m) * s.k);
    std::vector<uint16_t> ah(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
      const Half h = static_cast<Half>(a[i]);
      std::memcpy(&ah[i], &h, sizeof(uint16_t));
    }
    const auto filter = randomVector(rng, static_cast<size_t>(s.n) * s.k);
    const auto bias = randomVector(rng, s.n);
    PackedHalfWeights w;
    packHalfWeights(filter.data(), s.n, s.k, &w);
    const size_t count = static_cast<size_t>(s.m) * s.n;
    std::vector<uint32_t> scratch(halfGemmScratchElems(s.k, s.n, s.halfOut));
    GemmHalfArgs args{};
    args.m = s.m;
    args.n = s.n;
    args.k = s.k;
    args.lda = s.k;
    args.a = s.halfIn ? nullptr : a.data();
    args.ah = s.halfIn ? ah.data() : nullptr;
    args.packed = w.data.data();
    args.bias = bias.data();
    args.outputMin = -1.0f;
    args.outputMax = 1.0f;
    args.narrow = halfGemmNarrow(s.n);
    const uint32_t tiles = (s.n + kHalfTileN - 1) / kHalfTileN;
    // Float32 outputs start as NaN, float16 ones as 0xFFFF (a NaN): untouched past the rows.
    std::vector<float> c[2];
    std::vector<uint16_t> ch[2];
    for (int order = 0; order < 2; ++order) {
      c[order].assign(count + kGuard, NAN);
      ch[order].assign(count + kGuard, 0xFFFF);
      args.c = s.halfOut ? nullptr : c[order].data();
      args.ch = s.halfOut ? ch[order].data() : nullptr;
      args.lastBlockFirst = order == 1;
      isa_avx512fp16::gemmHalfPanels(args, s.rowBegin, s.rowEnd, 0, tiles, scratch.data());
    }
    for (size_t i = 0; i < count + kGuard; ++i) {
      const size_t row = i / s.n;
      const bool inRange = i < count && row >= s.rowBegin && row < s.rowEnd;
      if (s.halfOut) {
        ASSERT_EQ(ch[1][i] == 0xFFFF, !inRange) << text << " element " << i;
        ASSERT_EQ(ch[0][i], ch[1][i]) << text << " element " << i;
      } else {
        ASSERT_EQ(std::isnan(c[1][i]), !inRange) << text << " element " << i;
        if (inRange) {
          ASSERT_EQ(c[0][i], c[1][i]) << text << " element " << i;
        }
      }
    }
  }
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

// ---- the float16 depthwise convolution ----------------------------------------------------

// One geometry against a double reference of the float32 data: each output within
// (taps + 4) * 2^-11 of S = |bias| + sum |x w| (inputs, weights and bias rounded, each of the
// taps summed in float16, the result rounded), with a float32 output (summed in float32)
// within 3 * 2^-11 of S, and nothing written past the output.
void checkDepthwise(std::mt19937& rng, const Geometry& g, bool floatOut, ThreadPool* pool,
                    const std::string& what) {
  const uint32_t C = g.inC, taps = g.filterH * g.filterW;
  const auto in = randomVector(rng, static_cast<size_t>(g.batches) * g.inH * g.inW * C);
  const auto filter = randomVector(rng, static_cast<size_t>(taps) * C);
  const auto bias = randomVector(rng, C);
  float lo, hi;
  activationRangeFloat(g.p.activation, &lo, &hi);
  const size_t outCount = static_cast<size_t>(g.batches) * g.outH * g.outW * C;
  std::vector<Half> inH(in.size());
  for (size_t i = 0; i < in.size(); ++i) inH[i] = static_cast<Half>(in[i]);
  PackedHalfDepthwise w;
  packHalfDepthwise(filter.data(), bias.data(), taps, C, &w);
  std::vector<Half> outH(floatOut ? 0 : outCount + kGuard, static_cast<Half>(NAN));
  std::vector<float> outF(floatOut ? outCount + kGuard : 0, NAN);
  halfDepthwise(g, inH.data(), w, floatOut ? nullptr : outH.data(),
                floatOut ? outF.data() : nullptr, pool);
  for (uint32_t b = 0; b < g.batches; ++b)
    for (uint32_t oh = 0; oh < g.outH; ++oh)
      for (uint32_t ow = 0; ow < g.outW; ++ow)
        for (uint32_t c = 0; c < C; ++c) {
          double s = bias[c], abs = std::fabs(s);
          for (uint32_t kh = 0; kh < g.filterH; ++kh)
            for (uint32_t kw = 0; kw < g.filterW; ++kw) {
              const int64_t ih = static_cast<int64_t>(oh) * g.p.strideH - g.p.padTop +
                                 static_cast<int64_t>(kh) * g.p.dilationH;
              const int64_t iw = static_cast<int64_t>(ow) * g.p.strideW - g.p.padLeft +
                                 static_cast<int64_t>(kw) * g.p.dilationW;
              if (ih < 0 || iw < 0 || ih >= g.inH || iw >= g.inW) continue;
              const double t =
                  static_cast<double>(in[((static_cast<size_t>(b) * g.inH + ih) * g.inW + iw) * C + c]) *
                  filter[(static_cast<size_t>(kh) * g.filterW + kw) * C + c];
              s += t;
              abs += std::fabs(t);
            }
          const double want = std::fmin(hi, std::fmax(lo, s));
          const size_t at = ((static_cast<size_t>(b) * g.outH + oh) * g.outW + ow) * C + c;
          const double got = floatOut ? outF[at] : static_cast<double>(outH[at]);
          // A float32 output is summed in float32: only the rounding of the input, the
          // weight and the bias (2^-11 each) remains, far below a float16 sum's bound.
          const double bound = floatOut ? 3 / 2048.0 * abs + 1e-6 : (taps + 4) / 2048.0 * abs + 1e-6;
          ASSERT_LE(std::fabs(got - want), bound)
              << what << " at b" << b << " y" << oh << " x" << ow << " c" << c << ": got " << got
              << ", want " << want;
        }
  for (size_t i = outCount; i < outCount + kGuard; ++i)
    ASSERT_TRUE(floatOut ? std::isnan(outF[i]) : std::isnan(static_cast<float>(outH[i])))
        << what << ": written past the output at " << i;
}

Geometry depthwiseGeometry(uint32_t batches, uint32_t inH, uint32_t inW, uint32_t C,
                           uint32_t filterH, uint32_t filterW, int32_t stride, int32_t dilation,
                           int32_t padTop, int32_t padLeft, int32_t padBottom, int32_t padRight,
                           int32_t activation) {
  Geometry g;
  g.batches = batches;
  g.inH = inH;
  g.inW = inW;
  g.inC = g.outC = C;
  g.filterH = filterH;
  g.filterW = filterW;
  g.p.strideH = g.p.strideW = stride;
  g.p.dilationH = g.p.dilationW = dilation;
  g.p.padTop = padTop;
  g.p.padLeft = padLeft;
  g.p.padBottom = padBottom;
  g.p.padRight = padRight;
  g.p.activation = activation;
  const int64_t spanH = static_cast<int64_t>(filterH - 1) * dilation + 1;
  const int64_t spanW = static_cast<int64_t>(filterW - 1) * dilation + 1;
  g.outH = static_cast<uint32_t>((inH + padTop + padBottom - spanH) / stride + 1);
  g.outW = static_cast<uint32_t>((inW + padLeft + padRight - spanW) / stride + 1);
  return g;
}

// Random geometries: 3x3 and 5x5 at strides 1 and 2 (the register-blocked row path where eight
// output columns fit inside the row, the per-pixel path at the edges and elsewhere), other
// filter sizes, strides and dilations, channel counts off the 32-lane and 4-vector blocks,
// windows wholly in the padding, both output types, one and two threads.
TEST(HalfDepthwise, MatchesDoubleReference) {
  if (!halfGemmAvailable()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  std::mt19937 rng(5);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  static const uint32_t kChannels[] = {16, 17, 24, 32, 33, 48, 64, 96, 100, 129, 144, 200};
  ThreadPool pool(2);
  for (int iter = 0; iter < 300; ++iter) {
    const bool common = iter % 4 != 3;
    const uint32_t f = common ? (pick(0, 1) ? 3u : 5u) : static_cast<uint32_t>(pick(1, 4));
    const uint32_t fw = common ? f : static_cast<uint32_t>(pick(1, 5));
    const int32_t stride = common ? pick(1, 2) : pick(1, 3);
    const int32_t dilation = common ? 1 : pick(1, 2);
    const uint32_t C = kChannels[pick(0, 11)];
    const uint32_t inH = static_cast<uint32_t>(pick(1, 24)), inW = static_cast<uint32_t>(pick(1, 40));
    const int32_t pt = pick(0, 3), pl = pick(0, 3), pb = pick(0, 3), pr = pick(0, 3);
    if (static_cast<int64_t>(inH) + pt + pb < static_cast<int64_t>(f - 1) * dilation + 1 ||
        static_cast<int64_t>(inW) + pl + pr < static_cast<int64_t>(fw - 1) * dilation + 1)
      continue;
    const Geometry g = depthwiseGeometry(static_cast<uint32_t>(pick(1, 2)), inH, inW, C, f, fw,
                                         stride, dilation, pt, pl, pb, pr, pick(0, 3));
    const bool floatOut = iter % 5 == 0;
    checkDepthwise(rng, g, floatOut, iter % 2 ? &pool : nullptr,
                   std::to_string(g.batches) + "x" + std::to_string(inH) + "x" +
                       std::to_string(inW) + "x" + std::to_string(C) + " f" + std::to_string(f) +
                       "x" + std::to_string(fw) + " s" + std::to_string(stride) + " d" +
                       std::to_string(dilation) + " pad " + std::to_string(pt) + "," +
                       std::to_string(pl) + "," + std::to_string(pb) + "," + std::to_string(pr) +
                       (floatOut ? " float out" : ""));
  }
  // The MediaPipe shapes, large enough to be split over two threads.
  checkDepthwise(rng, depthwiseGeometry(1, 56, 56, 144, 3, 3, 1, 1, 1, 1, 1, 1, 3), false, &pool,
                 "56x56x144 3x3");
  checkDepthwise(rng, depthwiseGeometry(1, 28, 28, 240, 5, 5, 2, 1, 1, 1, 2, 2, 3), false, &pool,
                 "28x28x240 5x5 s2");
}

}  // namespace
}  // namespace conv
}  // namespace nn
