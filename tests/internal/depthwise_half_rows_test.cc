// The float16 depthwise convolution by channel group (depthwise_half_rows.h,
// isa/depthwise_half_rows_avx512fp16.cc): bit-identical with the row kernel
// (isa/depthwise_half_avx512fp16.cc, checked against a double reference in gemm_half_test.cc)
// over random geometries (3x3 and 5x5 at strides 1 and 2, every run length 1..16 and rows cut
// into several runs, any padding including windows wholly in it, channel counts off the 32-lane
// vector, any row and group range), nothing written past the output or outside the given rows
// and groups; and through halfDepthwise, one and two threads (channel and row splits), the
// narrow MediaPipe shapes against a float32 reference within float16's bound. Skipped without
// AVX512-FP16 (or capped below it by NNAPI_CPU_ISA).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cpu/kernels/depthwise_half_rows.h"
#include "cpu/kernels/gemm_half.h"
#include "cpu/kernels/isa/gemm_half_isa.h"
#include "float_kernel_check.h"

namespace nn {
namespace conv {
namespace {

using kernel_check::randomVector;

constexpr uint16_t kNanBits = 0x7E00;

Geometry geometry(uint32_t batches, uint32_t inH, uint32_t inW, uint32_t C, uint32_t f,
                  int32_t stride, int32_t padTop, int32_t padLeft, int32_t padBottom,
                  int32_t padRight, int32_t activation) {
  Geometry g;
  g.batches = batches;
  g.inH = inH;
  g.inW = inW;
  g.inC = g.outC = C;
  g.filterH = g.filterW = f;
  g.p.strideH = g.p.strideW = stride;
  g.p.dilationH = g.p.dilationW = 1;
  g.p.padTop = padTop;
  g.p.padLeft = padLeft;
  g.p.padBottom = padBottom;
  g.p.padRight = padRight;
  g.p.activation = activation;
  g.outH = static_cast<uint32_t>((static_cast<int64_t>(inH) + padTop + padBottom - f) / stride + 1);
  g.outW = static_cast<uint32_t>((static_cast<int64_t>(inW) + padLeft + padRight - f) / stride + 1);
  return g;
}

std::vector<uint16_t> halfBits(const std::vector<float>& v) {
  std::vector<uint16_t> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    const Half h = static_cast<Half>(v[i]);
    std::memcpy(&out[i], &h, sizeof(uint16_t));
  }
  return out;
}

TEST(HalfDepthwise, ByChannelGroupMatchesRowKernelBits) {
  if (!halfGemmAvailable()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  std::mt19937 rng(11);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  static const uint32_t kChannels[] = {16, 24, 31, 32, 33, 64, 72, 100, 144};
  for (int iter = 0; iter < 400; ++iter) {
    const uint32_t f = pick(0, 1) ? 3u : 5u;
    const int32_t stride = pick(1, 2);
    const uint32_t C = kChannels[pick(0, 8)];
    // Output widths 1..40: single runs of every length and rows of two or three runs.
    const uint32_t inW = static_cast<uint32_t>(pick(1, 40)), inH = static_cast<uint32_t>(pick(1, 12));
    const int32_t pt = pick(0, 3), pl = pick(0, 3), pb = pick(0, 3), pr = pick(0, 3);
    if (static_cast<int64_t>(inH) + pt + pb < f || static_cast<int64_t>(inW) + pl + pr < f) continue;
    const Geometry g = geometry(static_cast<uint32_t>(pick(1, 2)), inH, inW, C, f, stride, pt, pl,
                                pb, pr, pick(0, 3));
    const std::string what = std::to_string(g.batches) + "x" + std::to_string(inH) + "x" +
                             std::to_string(inW) + "x" + std::to_string(C) + " f" +
                             std::to_string(f) + " s" + std::to_string(stride) + " pad " +
                             std::to_string(pt) + "," + std::to_string(pl) + "," +
                             std::to_string(pb) + "," + std::to_string(pr);
    const uint32_t taps = f * f;
    const auto in = halfBits(randomVector(rng, static_cast<size_t>(g.batches) * inH * inW * C));
    PackedHalfDepthwise w;
    const auto filter = randomVector(rng, static_cast<size_t>(taps) * C);
    const auto bias = randomVector(rng, C);
    packHalfDepthwise(filter.data(), bias.data(), taps, C, &w);
    DepthwiseHalfArgs a{};
    a.inH = inH;
    a.inW = inW;
    a.channels = C;
    a.outH = g.outH;
    a.outW = g.outW;
    a.filterH = a.filterW = f;
    a.strideH = a.strideW = stride;
    a.padTop = pt;
    a.padLeft = pl;
    a.dilationH = a.dilationW = 1;
    a.in = in.data();
    a.filter = w.filter.data();
    a.bias = w.bias.data();
    activationRangeFloat(g.p.activation, &a.outputMin, &a.outputMax);
    const size_t rows = static_cast<size_t>(g.batches) * g.outH;
    const size_t rowElems = static_cast<size_t>(g.outW) * C, count = rows * rowElems;
    std::vector<uint16_t> want(count + 64, kNanBits), got(count + 64, kNanBits);
    a.out = want.data();
    isa_avx512fp16::depthwiseHalfRows(a, 0, static_cast<uint32_t>(rows));
    // A sub-box of rows and 32-channel groups: only it is written.
    const uint32_t groups = (C + 31) / 32;
    const uint32_t r0 = static_cast<uint32_t>(pick(0, static_cast<int>(rows) - 1));
    const uint32_t r1 = static_cast<uint32_t>(pick(static_cast<int>(r0) + 1, static_cast<int>(rows)));
    const uint32_t g0 = static_cast<uint32_t>(pick(0, static_cast<int>(groups) - 1));
    const uint32_t g1 = static_cast<uint32_t>(pick(static_cast<int>(g0) + 1, static_cast<int>(groups)));
    a.out = got.data();
    isa_avx512fp16::depthwiseHalfChannelRows(a, r0, r1, g0, g1);
    for (size_t i = 0; i < count + 64; ++i) {
      const size_t row = i / rowElems, c = i % C;
      const bool inside = i < count && row >= r0 && row < r1 && c >= 32 * g0 && c < 32 * g1;
      ASSERT_EQ(got[i], inside ? want[i] : kNanBits)
          << what << " rows " << r0 << ".." << r1 << " groups " << g0 << ".." << g1
          << ": element " << i << (inside ? "" : " (outside the box)");
    }
  }
}

// Through halfDepthwise on the narrow maps of hand_landmark_full/lite (7x7 and 14x14, 3x3 and 5x5,
// stride 1 and 2 down to 7x7), one and two threads: each output within (taps + 4) * 2^-11 of
// S = |bias| + sum |x w| of the float32 result (as gemm_half_test.cc's depthwise bound).
TEST(HalfDepthwise, ByChannelGroupNarrowMapsMatchFloat32) {
  if (!halfGemmAvailable()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  std::mt19937 rng(12);
  ThreadPool pool(2);
  const Geometry shapes[] = {geometry(1, 7, 7, 1152, 5, 1, 2, 2, 2, 2, 0),
                             geometry(1, 7, 7, 672, 3, 1, 1, 1, 1, 1, 3),
                             geometry(1, 14, 14, 672, 5, 1, 2, 2, 2, 2, 3),
                             geometry(1, 14, 14, 288, 3, 1, 1, 1, 1, 1, 1),
                             geometry(1, 14, 14, 672, 5, 2, 1, 1, 2, 2, 3),
                             geometry(2, 9, 9, 100, 3, 1, 1, 1, 1, 1, 0)};
  for (const Geometry& g : shapes) {
    ASSERT_TRUE(halfDepthwiseChannelRowsPreferred(g)) << g.inH << "x" << g.inW << "x" << g.inC;
    const uint32_t C = g.inC, taps = g.filterH * g.filterW;
    const auto in = randomVector(rng, static_cast<size_t>(g.batches) * g.inH * g.inW * C);
    const auto filter = randomVector(rng, static_cast<size_t>(taps) * C);
    const auto bias = randomVector(rng, C);
    std::vector<Half> inH(in.size());
    for (size_t i = 0; i < in.size(); ++i) inH[i] = static_cast<Half>(in[i]);
    PackedHalfDepthwise w;
    packHalfDepthwise(filter.data(), bias.data(), taps, C, &w);
    float lo, hi;
    activationRangeFloat(g.p.activation, &lo, &hi);
    const size_t count = static_cast<size_t>(g.batches) * g.outH * g.outW * C;
    for (ThreadPool* p : {static_cast<ThreadPool*>(nullptr), &pool}) {
      std::vector<Half> out(count + 64, static_cast<Half>(NAN));
      halfDepthwise(g, inH.data(), w, out.data(), nullptr, p);
      const std::string what = std::to_string(g.inH) + "x" + std::to_string(g.inW) + "x" +
                               std::to_string(C) + " f" + std::to_string(g.filterW) + " s" +
                               std::to_string(g.p.strideW) + (p ? " 2 threads" : " 1 thread");
      for (uint32_t b = 0; b < g.batches; ++b)
        for (uint32_t oh = 0; oh < g.outH; ++oh)
          for (uint32_t ow = 0; ow < g.outW; ++ow)
            for (uint32_t c = 0; c < C; ++c) {
              double s = bias[c], abs = std::fabs(s);
              for (uint32_t kh = 0; kh < g.filterH; ++kh)
                for (uint32_t kw = 0; kw < g.filterW; ++kw) {
                  const int64_t ih = static_cast<int64_t>(oh) * g.p.strideH - g.p.padTop + kh;
                  const int64_t iw = static_cast<int64_t>(ow) * g.p.strideW - g.p.padLeft + kw;
                  if (ih < 0 || iw < 0 || ih >= g.inH || iw >= g.inW) continue;
                  const double t =
                      static_cast<double>(
                          in[((static_cast<size_t>(b) * g.inH + ih) * g.inW + iw) * C + c]) *
                      filter[(static_cast<size_t>(kh) * g.filterW + kw) * C + c];
                  s += t;
                  abs += std::fabs(t);
                }
              const double want = std::fmin(hi, std::fmax(lo, s));
              const size_t at = ((static_cast<size_t>(b) * g.outH + oh) * g.outW + ow) * C + c;
              ASSERT_LE(std::fabs(static_cast<double>(out[at]) - want),
                        (taps + 4) / 2048.0 * abs + 1e-6)
                  << what << " at b" << b << " y" << oh << " x" << ow << " c" << c;
            }
      for (size_t i = count; i < count + 64; ++i)
        ASSERT_TRUE(std::isnan(static_cast<float>(out[i]))) << what << ": written past the output";
    }
  }
}

}  // namespace
}  // namespace conv
}  // namespace nn
