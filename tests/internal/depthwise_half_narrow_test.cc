// The narrow-channel float16 depthwise kernel (cpu/kernels/depthwise_half_narrow.h,
// isa/depthwise_half_narrow_avx512fp16.cc) against a double reference of the float16 input and
// the float32 filter and bias, within the float16 error bound of its arithmetic: every channel
// count it takes (4..15, so 2 to 8 pixels per vector and partly empty vectors), rows narrower
// and wider than its register blocks, paddings that put whole groups or single pixels outside
// the input, filters 3x3, 5x5 and 1x3, both output types, activations, one and two threads
// (through the driver); nothing is written past the output. Only with AVX512-FP16 (not capped
// by NNAPI_CPU_ISA); otherwise the shape rule's offer is checked.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "cpu/isa.h"
#include "cpu/kernels/depthwise_half_narrow.h"
#include "cpu/kernels/gemm_half.h"
#include "cpu/thread_pool.h"
#include "half_bits.h"
#include "spec/ops/common.h"
#include "test_util.h"

namespace nn {
namespace {

constexpr size_t kGuard = 64;
constexpr uint16_t kSentinel = 0x7bcd;

using half_bits::narrow;
using half_bits::widen;

struct Case {
  uint32_t h, w, c, fh, fw;
  int32_t padTop, padBottom, padLeft, padRight;
  int32_t act;
  bool floatOut;
};

void check(const Case& t, ThreadPool* pool, uint32_t seed) {
  SCOPED_TRACE(std::to_string(t.h) + "x" + std::to_string(t.w) + "x" + std::to_string(t.c) +
               " filter " + std::to_string(t.fh) + "x" + std::to_string(t.fw) + " pads " +
               std::to_string(t.padTop) + "," + std::to_string(t.padBottom) + "," +
               std::to_string(t.padLeft) + "," + std::to_string(t.padRight) + " act " +
               std::to_string(t.act) + (t.floatOut ? " float32 out" : " float16 out") +
               " threads " + std::to_string(pool ? pool->numThreads() : 1));
  const uint32_t batches = 2;
  const uint32_t outH = t.h + t.padTop + t.padBottom - t.fh + 1;
  const uint32_t outW = t.w + t.padLeft + t.padRight - t.fw + 1;
  std::vector<float> x = nntest::randomFloats(size_t{batches} * t.h * t.w * t.c, seed, -2.f, 2.f);
  std::vector<uint16_t> xh(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    xh[i] = narrow(x[i]);
    x[i] = widen(xh[i]);
  }
  const uint32_t taps = t.fh * t.fw;
  const std::vector<float> filter = nntest::randomFloats(size_t{taps} * t.c, seed + 1);
  const std::vector<float> bias = nntest::randomFloats(t.c, seed + 2);
  conv::PackedHalfDepthwise packed;
  conv::packHalfDepthwise(filter.data(), bias.data(), taps, t.c, &packed);
  conv::Geometry g;
  g.batches = batches;
  g.inH = t.h;
  g.inW = t.w;
  g.inC = g.outC = t.c;
  g.outH = outH;
  g.outW = outW;
  g.filterH = t.fh;
  g.filterW = t.fw;
  g.p.padTop = t.padTop;
  g.p.padBottom = t.padBottom;
  g.p.padLeft = t.padLeft;
  g.p.padRight = t.padRight;
  g.p.activation = t.act;
  ASSERT_TRUE(conv::halfDepthwiseNarrowPreferred(g));
  const size_t count = size_t{batches} * outH * outW * t.c;
  std::vector<uint16_t> outH16(count + kGuard, kSentinel);
  std::vector<float> outF(count + kGuard, -77.f);
  conv::halfDepthwise(g, reinterpret_cast<const Half*>(xh.data()), packed,
                      t.floatOut ? nullptr : reinterpret_cast<Half*>(outH16.data()),
                      t.floatOut ? outF.data() : nullptr, pool);
  float lo = 0, hi = 0;
  activationRangeFloat(t.act, &lo, &hi);
  // Error bound: the filter and bias rounded to float16 (2^-11 relative each), up to taps + 1
  // float16 sums of magnitude at most M = |bias| + sum |x w|, the result rounded once more.
  const double u = std::ldexp(1.0, -11);
  for (uint32_t b = 0; b < batches; ++b)
    for (uint32_t oy = 0; oy < outH; ++oy)
      for (uint32_t ox = 0; ox < outW; ++ox)
        for (uint32_t c = 0; c < t.c; ++c) {
          double s = bias[c], mag = std::fabs(bias[c]);
          for (uint32_t ky = 0; ky < t.fh; ++ky)
            for (uint32_t kx = 0; kx < t.fw; ++kx) {
              const int32_t iy = static_cast<int32_t>(oy + ky) - t.padTop;
              const int32_t ix = static_cast<int32_t>(ox + kx) - t.padLeft;
              if (iy < 0 || ix < 0 || iy >= static_cast<int32_t>(t.h) ||
                  ix >= static_cast<int32_t>(t.w))
                continue;
              const double v = static_cast<double>(
                                   x[((size_t{b} * t.h + iy) * t.w + ix) * t.c + c]) *
                               filter[size_t{ky * t.fw + kx} * t.c + c];
              s += v;
              mag += std::fabs(v);
            }
          const double want = s < lo ? lo : (s > hi ? hi : s);
          const size_t at = ((size_t{b} * outH + oy) * outW + ox) * t.c + c;
          const float got = t.floatOut ? outF[at] : widen(outH16[at]);
          ASSERT_NEAR(got, want, (taps + 4.0) * u * mag + 1e-6)
              << "batch " << b << " pixel " << oy << "," << ox << " channel " << c;
        }
  for (size_t i = count; i < count + kGuard; ++i) {
    ASSERT_EQ(outH16[i], kSentinel) << "written past the output at " << i;
    ASSERT_EQ(outF[i], -77.f) << "written past the output at " << i;
  }
}

TEST(HalfDepthwise, NarrowShapeRule) {
  EXPECT_TRUE(conv::halfDepthwiseNarrowShape(8, 3, 3, 1, 1, 1, 1));
  EXPECT_TRUE(conv::halfDepthwiseNarrowShape(4, 7, 7, 1, 1, 1, 1));
  EXPECT_FALSE(conv::halfDepthwiseNarrowShape(3, 3, 3, 1, 1, 1, 1));
  EXPECT_FALSE(conv::halfDepthwiseNarrowShape(16, 3, 3, 1, 1, 1, 1));
  EXPECT_FALSE(conv::halfDepthwiseNarrowShape(8, 3, 3, 2, 2, 1, 1));
  EXPECT_FALSE(conv::halfDepthwiseNarrowShape(8, 3, 3, 1, 1, 2, 2));
  EXPECT_FALSE(conv::halfDepthwiseNarrowShape(8, 9, 9, 1, 1, 1, 1));
}

TEST(HalfDepthwise, NarrowChannelsWithinFloat16BoundOfFloat32) {
  if (!conv::halfGemmAvailable()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  uint32_t seed = 100;
  // face_detection_full_range's layers (SAME 3x3) in small, every channel count.
  for (uint32_t c = kHalfDwNarrowMinChannels; c <= kHalfDwNarrowMaxChannels; ++c)
    check({7, 45, c, 3, 3, 1, 1, 1, 1, 0, (c % 2) == 0}, nullptr, seed += 3);
  // Widths around the blocks (1 pixel to several 8-group blocks), paddings, filters, outputs.
  for (uint32_t w : {1u, 2u, 3u, 5u, 9u, 17u, 33u, 70u}) {
    check({4, w, 8, 3, 3, 1, 1, 1, 1, 3, false}, nullptr, seed += 3);
    check({5, w, 12, 3, 3, 0, 2, 2, 0, 1, true}, nullptr, seed += 3);
    check({6, w + 4, 5, 5, 5, 2, 2, 2, 2, 2, false}, nullptr, seed += 3);
    check({3, w + 2, 15, 1, 3, 0, 0, 0, 0, 0, true}, nullptr, seed += 3);
  }
  // Two threads over rows.
  ThreadPool* two = ThreadPool::shared(2);
  check({96, 96, 8, 3, 3, 1, 1, 1, 1, 0, true}, two, seed += 3);
  check({48, 48, 12, 3, 3, 1, 1, 1, 1, 1, false}, two, seed += 3);
}

}  // namespace
}  // namespace nn
