// The stem convolution of relaxed models (stem_half.cc): the float16 kernel
// (isa/stem_half_avx512fp16.cc) against a double reference of the float32 data, and the float32
// im2col GEMM with a float16 output. Shapes: the face and hand models' stems (3x3 / 5x5 stride
// 2, SAME padding on odd and even sizes), stride 1, 1..4 input channels, 8..32 output channels
// (vectors partly empty), windows of one row up to several kStemHalfKBlock blocks, two images,
// every fused activation, one and two threads, float16 and float32 outputs, and a NaN guard past
// the output. The float16 kernel's bound is the float16 GEMM's (gemm_half_test.cc): within
// (kStemHalfKBlock + 8) * 2^-11 of S = |bias| + sum |x w| per output, plus 2^-11 |want| for a
// float16 output. Offered only with AVX512-FP16, not below the `avx512fp16` NNAPI_CPU_ISA cap
// (ctest also runs this capped: then only the offer is checked).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cpu/isa.h"
#include "cpu/kernels/gemm_half.h"
#include "cpu/kernels/isa/stem_half_isa.h"
#include "cpu/kernels/stem_half.h"
#include "float_kernel_check.h"

namespace nn {
namespace conv {
namespace {

using kernel_check::randomVector;

constexpr size_t kGuard = 40;

TEST(HalfStem, OfferedOnlyWithAvx512Fp16) {
  EXPECT_EQ(halfStemShapePreferred(32, 3, 3, 3, 1, 1), halfGemmAvailable());
  EXPECT_FALSE(halfStemShapePreferred(32, 3, 1, 1, 1, 1));  // 1x1: the GEMM's
  EXPECT_FALSE(halfStemShapePreferred(32, 8, 3, 3, 1, 1));  // not a stem
  EXPECT_FALSE(halfStemShapePreferred(32, 3, 3, 3, 2, 2));  // dilated
  const char* cap = getenv("NNAPI_CPU_ISA");
  if (cap != nullptr) {
    for (const char* below : {"baseline", "sse2", "avx2", "avx512novnni", "avx512vnni"}) {
      if (std::strcmp(cap, below) == 0) {
        EXPECT_FALSE(halfStemShapePreferred(32, 3, 3, 3, 1, 1)) << "capped at " << cap;
      }
    }
  }
}

struct Case {
  uint32_t batches, inH, inW, inC, outC, filterH, filterW;
  int32_t stride, padTop, padLeft, padBottom, padRight, activation;
};

Geometry geometryOf(const Case& c) {
  Geometry g;
  g.batches = c.batches;
  g.inH = c.inH;
  g.inW = c.inW;
  g.inC = c.inC;
  g.outC = c.outC;
  g.filterH = c.filterH;
  g.filterW = c.filterW;
  g.p.strideH = g.p.strideW = c.stride;
  g.p.padTop = c.padTop;
  g.p.padLeft = c.padLeft;
  g.p.padBottom = c.padBottom;
  g.p.padRight = c.padRight;
  g.p.activation = c.activation;
  g.outH = (c.inH + c.padTop + c.padBottom - c.filterH) / c.stride + 1;
  g.outW = (c.inW + c.padLeft + c.padRight - c.filterW) / c.stride + 1;
  return g;
}

std::string nameOf(const Case& c) {
  return std::to_string(c.batches) + "x" + std::to_string(c.inH) + "x" + std::to_string(c.inW) +
         "x" + std::to_string(c.inC) + " " + std::to_string(c.filterH) + "x" +
         std::to_string(c.filterW) + "/" + std::to_string(c.stride) + " pad " +
         std::to_string(c.padTop) + "," + std::to_string(c.padLeft) + "," +
         std::to_string(c.padBottom) + "," + std::to_string(c.padRight) + " -> " +
         std::to_string(c.outC) + " act " + std::to_string(c.activation);
}

// want (clamped double sums) and scale S per output.
void reference(const Geometry& g, const std::vector<float>& in, const std::vector<float>& filter,
               const std::vector<float>& bias, std::vector<double>* want,
               std::vector<double>* scale) {
  float lo, hi;
  activationRangeFloat(g.p.activation, &lo, &hi);
  want->assign(static_cast<size_t>(g.batches) * g.outH * g.outW * g.outC, 0);
  scale->assign(want->size(), 0);
  for (uint32_t b = 0; b < g.batches; ++b)
    for (uint32_t oy = 0; oy < g.outH; ++oy)
      for (uint32_t ox = 0; ox < g.outW; ++ox)
        for (uint32_t o = 0; o < g.outC; ++o) {
          double s = bias[o], abs = std::fabs(s);
          for (uint32_t kh = 0; kh < g.filterH; ++kh)
            for (uint32_t kw = 0; kw < g.filterW; ++kw) {
              const int32_t y = static_cast<int32_t>(oy) * g.p.strideH - g.p.padTop + kh;
              const int32_t x = static_cast<int32_t>(ox) * g.p.strideW - g.p.padLeft + kw;
              if (y < 0 || x < 0 || y >= static_cast<int32_t>(g.inH) ||
                  x >= static_cast<int32_t>(g.inW))
                continue;
              for (uint32_t c = 0; c < g.inC; ++c) {
                const double t =
                    static_cast<double>(
                        in[((static_cast<size_t>(b) * g.inH + y) * g.inW + x) * g.inC + c]) *
                    filter[((static_cast<size_t>(o) * g.filterH + kh) * g.filterW + kw) * g.inC +
                           c];
                s += t;
                abs += std::fabs(t);
              }
            }
          const size_t i = ((static_cast<size_t>(b) * g.outH + oy) * g.outW + ox) * g.outC + o;
          (*want)[i] = std::fmin(hi, std::fmax(lo, s));
          (*scale)[i] = abs;
        }
}

// The float16 kernel, float16 or float32 output.
void checkHalfKernel(std::mt19937& rng, const Case& c, bool halfOut, ThreadPool* pool,
                     KernelScratch& ks) {
  const Geometry g = geometryOf(c);
  const auto in = randomVector(rng, static_cast<size_t>(g.batches) * g.inH * g.inW * g.inC);
  const auto filter =
      randomVector(rng, static_cast<size_t>(g.outC) * g.filterH * g.filterW * g.inC);
  const auto bias = randomVector(rng, g.outC);
  std::vector<double> want, scale;
  reference(g, in, filter, bias, &want, &scale);
  PackedHalfStem w;
  packHalfStem(filter.data(), g.outC, g.filterH, g.filterW, g.inC, &w);
  std::vector<float> got(want.size() + kGuard, NAN);
  if (halfOut) {
    std::vector<Half> h(got.size(), static_cast<Half>(NAN));
    halfStemConv(g, in.data(), w, bias.data(), h.data(), nullptr, pool, ks);
    for (size_t i = 0; i < h.size(); ++i) got[i] = static_cast<float>(h[i]);
  } else {
    halfStemConv(g, in.data(), w, bias.data(), nullptr, got.data(), pool, ks);
  }
  const std::string what = nameOf(c) + (halfOut ? " half out" : " float out") +
                           (pool != nullptr ? " 2 threads" : "");
  for (size_t i = 0; i < want.size(); ++i) {
    const double err = std::fabs(got[i] - want[i]);
    ASSERT_LE(err, (kStemHalfKBlock + 8) / 2048.0 * scale[i] +
                       (halfOut ? std::fabs(want[i]) / 2048 : 0) + 1e-6)
        << what << " at " << i << ": got " << got[i] << ", want " << want[i];
  }
  for (size_t i = want.size(); i < got.size(); ++i)
    ASSERT_TRUE(std::isnan(got[i])) << what << ": written past the output at " << i;
}

const Case kCases[] = {
    // face_detection_short_range / full_range, hand models (SAME: the extra row and column at
    // the bottom and right), smaller maps of the same windows.
    {1, 128, 128, 3, 24, 5, 5, 2, 1, 1, 2, 2, 1},
    {1, 192, 192, 3, 32, 3, 3, 2, 0, 0, 1, 1, 1},
    {1, 224, 224, 3, 24, 3, 3, 2, 0, 0, 1, 1, 3},
    {2, 17, 23, 3, 16, 3, 3, 2, 1, 1, 1, 1, 0},
    {1, 9, 40, 1, 8, 5, 5, 1, 2, 2, 2, 2, 2},
    {1, 12, 11, 4, 31, 7, 7, 2, 3, 3, 3, 3, 0},  // 28 taps a row: one row per block
    {1, 6, 7, 2, 9, 3, 2, 1, 0, 0, 0, 0, 1},     // no padding
    {2, 8, 8, 3, 32, 1, 3, 1, 0, 1, 0, 1, 3},    // one filter row
    {1, 5, 33, 3, 20, 4, 4, 3, 1, 2, 2, 1, 0},   // stride 3, uneven padding
};

TEST(HalfStem, MatchesDoubleReference) {
  if (!halfGemmAvailable()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  std::mt19937 rng(75);
  ThreadPool pool(2);
  KernelScratch ks;
  int i = 0;
  for (const Case& c : kCases)
    for (bool halfOut : {true, false})
      checkHalfKernel(rng, c, halfOut, (i++ % 3) ? &pool : nullptr, ks);
}

// The float32 im2col GEMM rounding its rows to float16 (more than 32 output channels with a
// float16 output): the float32 result rounded once, so within 2^-11 |want| plus float32's
// summation error.
TEST(HalfStem, Float32GemmHalfOutput) {
  if (!halfGemmAvailable()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  std::mt19937 rng(33);
  ThreadPool pool(2);
  KernelScratch ks;
  const Case cases[] = {{1, 64, 64, 3, 48, 3, 3, 2, 0, 0, 1, 1, 1},
                        {2, 19, 21, 3, 40, 5, 5, 2, 1, 1, 2, 2, 0}};
  for (const Case& c : cases) {
    const Geometry g = geometryOf(c);
    ASSERT_TRUE(stemGemmPreferred(g)) << nameOf(c);
    const auto in = randomVector(rng, static_cast<size_t>(g.batches) * g.inH * g.inW * g.inC);
    const uint32_t k = g.filterH * g.filterW * g.inC;
    const auto filter = randomVector(rng, static_cast<size_t>(g.outC) * k);
    const auto bias = randomVector(rng, g.outC);
    std::vector<double> want, scale;
    reference(g, in, filter, bias, &want, &scale);
    PackedFloatWeights w;
    packFloatWeights(filter.data(), g.outC, k, &w);
    std::vector<Half> h(want.size() + kGuard, static_cast<Half>(NAN));
    stemGemmHalfOut(g, in.data(), w, bias.data(), h.data(), &pool, ks);
    for (size_t i = 0; i < want.size(); ++i) {
      const double err = std::fabs(static_cast<double>(h[i]) - want[i]);
      ASSERT_LE(err, std::fabs(want[i]) / 2048 + 1e-5 * scale[i] + 1e-6)
          << nameOf(c) << " at " << i << ": got " << static_cast<float>(h[i]) << ", want "
          << want[i];
    }
    for (size_t i = want.size(); i < h.size(); ++i)
      ASSERT_TRUE(std::isnan(static_cast<float>(h[i]))) << nameOf(c) << ": past the output";
  }
}

}  // namespace
}  // namespace conv
}  // namespace nn
