// The float16 storage kernels of ADD and MAX_POOL_2D (cpu/kernels/eltwise_half.h,
// isa/eltwise_half_avx512fp16.cc) against scalar references computed from the same float16
// values: both are exact (an ADD widens its inputs, adds in float32 and rounds once, the
// reference kernel's arithmetic for float16 data; max and the activation clamps are exact in
// float16), so the results must be equal bit for bit, for every input / output type form,
// every fused activation, NaN and infinities included, lengths and channel counts off the
// 16- and 32-lane vectors, and nothing may be written past the output. Only with AVX512-FP16
// (not capped by NNAPI_CPU_ISA); otherwise only the offer is checked.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "cpu/isa.h"
#include "cpu/kernels/eltwise_half.h"
#include "cpu/kernels/gemm_half.h"
#include "cpu/kernels/isa/eltwise_half_isa.h"
#include "half_bits.h"
#include "spec/ops/common.h"

namespace nn {
namespace {

constexpr size_t kGuard = 40;

using half_bits::bitsOf;
using half_bits::halfOf;
using half_bits::narrow;
using half_bits::widen;
uint32_t bitsOfFloat(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
// Equal, or both NaN (the NaN payload is not specified).
bool sameFloat(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || bitsOfFloat(a) == bitsOfFloat(b);
}
bool sameHalf(uint16_t a, uint16_t b) {
  const bool na = (a & 0x7c00) == 0x7c00 && (a & 0x3ff) != 0;
  const bool nb = (b & 0x7c00) == 0x7c00 && (b & 0x3ff) != 0;
  return (na && nb) || a == b;
}

// Values in [-8, 8] (sums reach the RELU1 / RELU6 bounds and cancel), with some NaN and
// infinities, and large values whose float16 sum overflows.
std::vector<float> values(std::mt19937& rng, size_t n) {
  std::uniform_real_distribution<float> d(-8.f, 8.f);
  std::uniform_int_distribution<int> special(0, 60);
  std::vector<float> v(n);
  for (float& x : v) {
    switch (special(rng)) {
      case 0: x = std::numeric_limits<float>::quiet_NaN(); break;
      case 1: x = std::numeric_limits<float>::infinity(); break;
      case 2: x = -std::numeric_limits<float>::infinity(); break;
      case 3: x = 60000.f; break;
      default: x = d(rng);
    }
  }
  return v;
}

TEST(HalfOps, OfferedOnlyWithAvx512Fp16) {
  EXPECT_EQ(half_ops::available(), conv::halfGemmAvailable());
  EXPECT_EQ(half_ops::available(), cpuFeatures().avx512fp16 && isaLevel() >= IsaLevel::kAvx512);
}

// Every form (each input float16 or float32, the output float16 or float32) and activation.
TEST(HalfOps, AddMatchesScalarReferenceBitwise) {
  if (!half_ops::available()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  std::mt19937 rng(11);
  for (size_t n : {1u, 7u, 15u, 16u, 17u, 31u, 32u, 33u, 100u, 1000u, 4099u}) {
    for (int form = 0; form < 8; ++form) {
      for (int32_t act = 0; act <= 3; ++act) {
        const bool ah = form & 4, bh = form & 2, oh = form & 1;
        const std::vector<float> a0 = values(rng, n), b0 = values(rng, n);
        std::vector<uint16_t> aH(n), bH(n);
        std::vector<float> aF(n), bF(n);
        for (size_t i = 0; i < n; ++i) {
          aH[i] = narrow(a0[i]);
          bH[i] = narrow(b0[i]);
          // A float32 input keeps its float32 value (not rounded to float16).
          aF[i] = a0[i];
          bF[i] = b0[i];
        }
        std::vector<uint16_t> outH(n + kGuard, 0x7e00);
        std::vector<float> outF(n + kGuard, std::numeric_limits<float>::quiet_NaN());
        AddHalfArgs args{};
        if (ah) args.ah = aH.data(); else args.af = aF.data();
        if (bh) args.bh = bH.data(); else args.bf = bF.data();
        if (oh) args.oh = outH.data(); else args.of = outF.data();
        activationRangeFloat(act, &args.outputMin, &args.outputMax);
        // Two pieces, as the thread pool splits it.
        isa_avx512fp16::addHalf(args, 0, n / 2);
        isa_avx512fp16::addHalf(args, n / 2, n);
        const std::string what = "n " + std::to_string(n) + " form " + std::to_string(form) +
                                 " act " + std::to_string(act);
        for (size_t i = 0; i < n; ++i) {
          const float x = ah ? widen(aH[i]) : aF[i], y = bh ? widen(bH[i]) : bF[i];
          float s = x + y;
          if (!std::isnan(s)) s = std::fmin(std::fmax(s, args.outputMin), args.outputMax);
          if (oh) {
            ASSERT_TRUE(sameHalf(outH[i], narrow(s)))
                << what << " at " << i << ": " << x << " + " << y << " gave " << widen(outH[i]);
          } else {
            ASSERT_TRUE(sameFloat(outF[i], s))
                << what << " at " << i << ": " << x << " + " << y << " gave " << outF[i];
          }
        }
        for (size_t i = n; i < n + kGuard; ++i) {
          ASSERT_EQ(outH[i], 0x7e00) << what << ": written past the output at " << i;
          ASSERT_TRUE(std::isnan(outF[i])) << what << ": written past the output at " << i;
        }
      }
    }
  }
}

// Random NHWC geometries: windows 1..3 x 1..3 (2x2 in every fourth), strides 1..3, padding
// (windows reaching into it, and some wholly in it), channel counts off the 32-lane vector,
// rows split in two pieces.
TEST(HalfOps, MaxPoolMatchesScalarReferenceBitwise) {
  if (!half_ops::available()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  std::mt19937 rng(12);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  static const uint32_t kChannels[] = {1, 8, 16, 28, 31, 32, 33, 48, 64, 100};
  for (int iter = 0; iter < 300; ++iter) {
    MaxPoolHalfArgs a{};
    const uint32_t batches = static_cast<uint32_t>(pick(1, 2));
    a.inH = static_cast<uint32_t>(pick(1, 12));
    a.inW = static_cast<uint32_t>(pick(1, 12));
    a.channels = kChannels[pick(0, 9)];
    a.filterH = static_cast<uint32_t>(pick(1, 3));
    a.filterW = static_cast<uint32_t>(pick(1, 3));
    if (iter % 4 == 0) a.filterH = a.filterW = 2;  // the unrolled 2x2 form, at every stride
    a.strideH = pick(1, 3);
    a.strideW = pick(1, 3);
    a.padTop = pick(0, 3);
    a.padLeft = pick(0, 3);
    const int32_t padBottom = pick(0, 2), padRight = pick(0, 2);
    const int64_t spanH = static_cast<int64_t>(a.inH) + a.padTop + padBottom - a.filterH;
    const int64_t spanW = static_cast<int64_t>(a.inW) + a.padLeft + padRight - a.filterW;
    if (spanH < 0 || spanW < 0) continue;
    a.outH = static_cast<uint32_t>(spanH / a.strideH + 1);
    a.outW = static_cast<uint32_t>(spanW / a.strideW + 1);
    const int32_t act = pick(0, 3);
    activationRangeFloat(act, &a.outputMin, &a.outputMax);
    const size_t inCount = static_cast<size_t>(batches) * a.inH * a.inW * a.channels;
    const size_t outCount = static_cast<size_t>(batches) * a.outH * a.outW * a.channels;
    const std::vector<float> v = values(rng, inCount);
    std::vector<uint16_t> in(inCount), out(outCount + kGuard, 0x7e00);
    for (size_t i = 0; i < inCount; ++i) in[i] = narrow(v[i]);
    a.in = in.data();
    a.out = out.data();
    const uint32_t rows = batches * a.outH;
    isa_avx512fp16::maxPoolHalfRows(a, 0, rows / 2);
    isa_avx512fp16::maxPoolHalfRows(a, rows / 2, rows);
    const std::string what = std::to_string(batches) + "x" + std::to_string(a.inH) + "x" +
                             std::to_string(a.inW) + "x" + std::to_string(a.channels) + " f" +
                             std::to_string(a.filterH) + "x" + std::to_string(a.filterW) + " s" +
                             std::to_string(a.strideH) + "," + std::to_string(a.strideW) +
                             " act " + std::to_string(act);
    for (uint32_t b = 0; b < batches; ++b)
      for (uint32_t oh = 0; oh < a.outH; ++oh)
        for (uint32_t ow = 0; ow < a.outW; ++ow)
          for (uint32_t c = 0; c < a.channels; ++c) {
            // The float32 kernel's rule: NaN taps are skipped (std::max), an empty window
            // gives the clamped zero.
            float m = -std::numeric_limits<float>::infinity();
            bool any = false;
            for (uint32_t kh = 0; kh < a.filterH; ++kh)
              for (uint32_t kw = 0; kw < a.filterW; ++kw) {
                const int64_t ih = static_cast<int64_t>(oh) * a.strideH - a.padTop + kh;
                const int64_t iw = static_cast<int64_t>(ow) * a.strideW - a.padLeft + kw;
                if (ih < 0 || iw < 0 || ih >= a.inH || iw >= a.inW) continue;
                any = true;
                const float x =
                    widen(in[((static_cast<size_t>(b) * a.inH + ih) * a.inW + iw) * a.channels + c]);
                m = std::max(m, x);
              }
            if (!any) m = 0.f;
            const float want = std::min(a.outputMax, std::max(a.outputMin, m));
            const size_t at = ((static_cast<size_t>(b) * a.outH + oh) * a.outW + ow) * a.channels + c;
            ASSERT_TRUE(sameHalf(out[at], narrow(want)))
                << what << " at b" << b << " y" << oh << " x" << ow << " c" << c << ": got "
                << widen(out[at]) << ", want " << want;
          }
    for (size_t i = outCount; i < outCount + kGuard; ++i)
      ASSERT_EQ(out[i], 0x7e00) << what << ": written past the output at " << i;
  }
}

}  // namespace
}  // namespace nn
