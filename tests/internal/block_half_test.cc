// The float16 inverted bottleneck run as one parallel region (cpu/kernels/block_half.h,
// isa/block_half_avx512fp16.cc, the plan's SubgraphPlan::kHalfBlock in prepared_model.cc):
// - the reduction kernel against a scalar reference (partials summed in float32, bias, clamp,
//   the projection's float16 rounding, the residual ADD's float32 sum and clamp, rounded once):
//   bit for bit, every data form, activations, NaN, column counts off the 16-lane vectors,
//   nothing written past the output;
// - relaxed models with such a block (the hand landmark models' 7x7 blocks and their 14x14 ->
//   7x7 stride-2 ones, odd maps, shares that split 144 hidden channels 64 + 80, narrow
//   projections, with and without the residual ADD), fused at two threads, against the same
//   model with NNAPI_CPU_BAND_FUSION=0 (the layers apart: only the projection's summation order
//   differs, within float16's rounding) and against a double reference computed here (within
//   relaxed tolerance); at one thread, on a larger map, and with shapes known only at execution
//   nothing is fused and the bits are those of the layers apart.
// Only with AVX512-FP16 (not capped by NNAPI_CPU_ISA: ctest runs these at lower caps too, where
// nothing may be fused).
#include <gtest/gtest.h>

#include <android/NeuralNetworks.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "cpu/kernels/expand_depthwise.h"
#include "cpu/kernels/gemm_half.h"
#include "cpu/kernels/isa/block_half_isa.h"
#include "half_bits.h"
#include "spec/ops/common.h"
#include "test_util.h"

namespace nn {
namespace {

using half_bits::narrow;
using half_bits::widen;

bool isNanHalf(uint16_t b) { return (b & 0x7c00) == 0x7c00 && (b & 0x3ff) != 0; }
bool sameFloat(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, 4) == 0;
}

constexpr int32_t kActivations[] = {ANEURALNETWORKS_FUSED_NONE, ANEURALNETWORKS_FUSED_RELU,
                                    ANEURALNETWORKS_FUSED_RELU1, ANEURALNETWORKS_FUSED_RELU6};

TEST(HalfBlock, ReduceMatchesScalar) {
  if (!conv::halfGemmAvailable()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-4.f, 4.f);
  constexpr size_t kGuard = 40;
  struct Shape {
    uint32_t rows, n, parts;
  };
  const Shape shapes[] = {{49, 112, 2}, {5, 24, 3}, {3, 7, 1}, {9, 40, 2}, {2, 192, 8}};
  for (const Shape& s : shapes) {
    const size_t count = static_cast<size_t>(s.rows) * s.n;
    std::vector<std::vector<float>> partial(s.parts, std::vector<float>(count));
    for (auto& p : partial)
      for (float& x : p) x = u(rng);
    partial[0][1] = std::numeric_limits<float>::quiet_NaN();
    partial[0][2] = std::numeric_limits<float>::infinity();
    std::vector<float> bias(s.n), resF(count);
    std::vector<uint16_t> resH(count);
    for (float& x : bias) x = u(rng);
    for (size_t i = 0; i < count; ++i) {
      resH[i] = narrow(u(rng));
      resF[i] = widen(resH[i]) * 1.001f;
    }
    for (int form = 0; form < 12; ++form) {
      const int res = form % 3;  // none, float16, float32
      const bool outHalf = (form / 3) % 2, round = form / 6;
      for (int32_t convAct : kActivations) {
        const int32_t addAct = kActivations[(convAct + form) % 4];
        SCOPED_TRACE("rows " + std::to_string(s.rows) + " n " + std::to_string(s.n) + " parts " +
                     std::to_string(s.parts) + " form " + std::to_string(form) + " act " +
                     std::to_string(convAct));
        BlockReduceHalfArgs a{};
        a.n = s.n;
        a.parts = s.parts;
        for (uint32_t p = 0; p < s.parts; ++p) a.partial[p] = partial[p].data();
        a.bias = bias.data();
        activationRangeFloat(convAct, &a.convMin, &a.convMax);
        activationRangeFloat(addAct, &a.addMin, &a.addMax);
        a.roundConv = round;
        if (res == 1) a.rh = resH.data();
        if (res == 2) a.rf = resF.data();
        std::vector<uint16_t> oh(count + kGuard, 0x7e00);
        std::vector<float> of(count + kGuard, -1234.f);
        if (outHalf) a.oh = oh.data();
        else a.of = of.data();
        isa_avx512fp16::reduceBlockHalf(a, 0, s.rows);
        for (size_t i = 0; i < count; ++i) {
          const size_t j = i % s.n;
          float c = bias[j];
          for (uint32_t p = 0; p < s.parts; ++p) c += partial[p][i];
          if (!std::isnan(c)) c = std::fmin(a.convMax, std::fmax(a.convMin, c));
          if (round) c = widen(narrow(c));
          float want = c;
          if (res != 0) {
            want = c + (res == 1 ? widen(resH[i]) : resF[i]);
            if (!std::isnan(want)) want = std::fmin(a.addMax, std::fmax(a.addMin, want));
          }
          if (outHalf) {
            const uint16_t w = narrow(want);
            ASSERT_TRUE((isNanHalf(oh[i]) && isNanHalf(w)) || oh[i] == w)
                << "element " << i << ": " << widen(oh[i]) << " vs " << want;
          } else {
            ASSERT_TRUE(sameFloat(of[i], want)) << "element " << i << ": " << of[i] << " vs "
                                                << want;
          }
        }
        for (size_t i = count; i < count + kGuard; ++i) {
          ASSERT_EQ(oh[i], 0x7e00) << "written past the output";
          ASSERT_EQ(of[i], -1234.f) << "written past the output";
        }
      }
    }
  }
}

// ---- relaxed models ---------------------------------------------------------------------------

using nntest::bytesOf;
using nntest::ModelBuilder;
using nntest::randomFloats;
using nntest::valuesOf;

constexpr int kF32 = ANEURALNETWORKS_TENSOR_FLOAT32;

struct Block {
  uint32_t side, k, h, n;
  int32_t stride;
  bool residual;
};

uint32_t outSide(const Block& b) { return (b.side + b.stride - 1) / b.stride; }

// x [1, side, side, k] -> 1x1 (k -> k, RELU) = a -> 1x1 expansion (k -> h, RELU6) -> depthwise
// 3x3 SAME (stride, RELU6) -> 1x1 projection (h -> n) [-> ADD a] -> 1x1 (n -> 16) = y. The
// weights are kept for the double reference.
struct Built {
  ModelBuilder m;
  std::vector<std::vector<uint8_t>> inputs;
  std::vector<float> x, w0, b0, we, be, wd, bd, wp, bp, w1, b1;
  size_t outBytes = 0;
  std::vector<uint32_t> runInputDims;  // set: the input's height and width left unknown
};

void build(const Block& b, bool dynamic, Built* out) {
  ModelBuilder& m = out->m;
  const uint32_t s = b.side, os = outSide(b);
  uint32_t seed = 11;
  auto weights = [&](std::vector<float>* keep, const std::vector<uint32_t>& dims, float scale) {
    size_t count = 1;
    for (uint32_t d : dims) count *= d;
    *keep = randomFloats(count, seed++, -scale, scale);
    return m.addConstant<float>(kF32, dims, *keep);
  };
  const uint32_t x =
      dynamic ? m.addOperand(kF32, {1, 0, 0, b.k}) : m.addOperand(kF32, {1, s, s, b.k});
  out->x = randomFloats(static_cast<size_t>(s) * s * b.k, 1);
  out->inputs.push_back(bytesOf(out->x));
  if (dynamic) out->runInputDims = {1, s, s, b.k};
  auto dims = [&](uint32_t side, uint32_t c) {
    return dynamic ? std::vector<uint32_t>{1, 0, 0, c} : std::vector<uint32_t>{1, side, side, c};
  };
  auto pointwise = [&](uint32_t in, uint32_t side, uint32_t inC, uint32_t outC, int32_t act,
                       std::vector<float>* w, std::vector<float>* bias) {
    const uint32_t o = m.addOperand(kF32, dims(side, outC));
    const float scale = 1.5f / std::sqrt(static_cast<float>(inC));
    m.addOperation(ANEURALNETWORKS_CONV_2D,
                   {in, weights(w, {outC, 1, 1, inC}, scale), weights(bias, {outC}, 0.2f),
                    m.addInt32(ANEURALNETWORKS_PADDING_VALID), m.addInt32(1), m.addInt32(1),
                    m.addInt32(act)},
                   {o});
    return o;
  };
  const uint32_t a = pointwise(x, s, b.k, b.k, ANEURALNETWORKS_FUSED_RELU, &out->w0, &out->b0);
  const uint32_t e =
      pointwise(a, s, b.k, b.h, ANEURALNETWORKS_FUSED_RELU6, &out->we, &out->be);
  const uint32_t d = m.addOperand(kF32, dims(os, b.h));
  m.addOperation(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
                 {e, weights(&out->wd, {1, 3, 3, b.h}, 0.5f), weights(&out->bd, {b.h}, 0.2f),
                  m.addInt32(ANEURALNETWORKS_PADDING_SAME), m.addInt32(b.stride),
                  m.addInt32(b.stride), m.addInt32(1), m.addInt32(ANEURALNETWORKS_FUSED_RELU6)},
                 {d});
  uint32_t p = pointwise(d, os, b.h, b.n, ANEURALNETWORKS_FUSED_NONE, &out->wp, &out->bp);
  if (b.residual) {
    const uint32_t sum = m.addOperand(kF32, dims(os, b.n));
    m.addOperation(ANEURALNETWORKS_ADD, {p, a, m.addInt32(ANEURALNETWORKS_FUSED_NONE)}, {sum});
    p = sum;
  }
  const uint32_t y = pointwise(p, os, b.n, 16, ANEURALNETWORKS_FUSED_NONE, &out->w1, &out->b1);
  ASSERT_EQ(m.finish({x}, {y}, /*relaxed=*/true), ANEURALNETWORKS_NO_ERROR);
  out->outBytes = static_cast<size_t>(os) * os * 16 * sizeof(float);
}

// The model in double precision.
std::vector<double> reference(const Block& b, const Built& t) {
  const uint32_t s = b.side, os = outSide(b);
  auto pointwise = [](const std::vector<double>& in, size_t pixels, uint32_t inC, uint32_t outC,
                      const std::vector<float>& w, const std::vector<float>& bias, double lo,
                      double hi) {
    std::vector<double> o(pixels * outC);
    for (size_t q = 0; q < pixels; ++q)
      for (uint32_t j = 0; j < outC; ++j) {
        double sum = bias[j];
        for (uint32_t c = 0; c < inC; ++c)
          sum += in[q * inC + c] * w[static_cast<size_t>(j) * inC + c];
        o[q * outC + j] = std::min(hi, std::max(lo, sum));
      }
    return o;
  };
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> x(t.x.begin(), t.x.end());
  const size_t inPixels = static_cast<size_t>(s) * s, outPixels = static_cast<size_t>(os) * os;
  const std::vector<double> a = pointwise(x, inPixels, b.k, b.k, t.w0, t.b0, 0, inf);
  const std::vector<double> e = pointwise(a, inPixels, b.k, b.h, t.we, t.be, 0, 6);
  // SAME padding: total (os - 1) * stride + 3 - s, the smaller half at the top and left.
  const int32_t pad = std::max<int32_t>(0, (static_cast<int32_t>(os) - 1) * b.stride + 3 -
                                               static_cast<int32_t>(s)) / 2;
  std::vector<double> d(outPixels * b.h);
  for (uint32_t oy = 0; oy < os; ++oy)
    for (uint32_t ox = 0; ox < os; ++ox)
      for (uint32_t c = 0; c < b.h; ++c) {
        double sum = t.bd[c];
        for (int32_t ky = 0; ky < 3; ++ky)
          for (int32_t kx = 0; kx < 3; ++kx) {
            const int32_t iy = static_cast<int32_t>(oy) * b.stride - pad + ky;
            const int32_t ix = static_cast<int32_t>(ox) * b.stride - pad + kx;
            if (iy < 0 || ix < 0 || iy >= static_cast<int32_t>(s) || ix >= static_cast<int32_t>(s))
              continue;
            sum += e[(static_cast<size_t>(iy) * s + ix) * b.h + c] * t.wd[(ky * 3 + kx) * b.h + c];
          }
        d[(static_cast<size_t>(oy) * os + ox) * b.h + c] = std::min(6.0, std::max(0.0, sum));
      }
  std::vector<double> p = pointwise(d, outPixels, b.h, b.n, t.wp, t.bp, -inf, inf);
  if (b.residual)
    for (size_t i = 0; i < p.size(); ++i) p[i] += a[i];
  return pointwise(p, outPixels, b.n, 16, t.w1, t.b1, -inf, inf);
}

nntest::RunResult run(const Built& b, bool fused, const char* threads) {
  // NNAPI_CPU_ADAPT_THREADS stays as it is: the process-wide pool reads it once, and the
  // contention tests need it on. On a busy machine the shares may run one after the other on
  // the caller; the block is fused all the same (planned for the driver's 2 threads).
  setenv("NNAPI_CPU_THREADS", threads, 1);
  if (!fused) setenv("NNAPI_CPU_BAND_FUSION", "0", 1);
  // With runInputDims, the input's full shape given at execution time.
  const ANeuralNetworksOperandType type{kF32, static_cast<uint32_t>(b.runInputDims.size()),
                                        b.runInputDims.data(), 0.f, 0};
  nntest::RunResult r =
      nntest::runModel(b.m, b.inputs, {b.outBytes}, "nnapi-cpu",
                       {b.runInputDims.empty() ? nullptr : &type});
  unsetenv("NNAPI_CPU_BAND_FUSION");
  unsetenv("NNAPI_CPU_THREADS");
  return r;
}

// `fuses`: the block qualifies (then fused at two threads where the processor has the float16
// kernels).
void check(const Block& b, bool dynamic, bool fuses) {
  SCOPED_TRACE(std::to_string(b.side) + "x" + std::to_string(b.side) + " " + std::to_string(b.k) +
               "->" + std::to_string(b.h) + "->" + std::to_string(b.n) + " stride " +
               std::to_string(b.stride) + (b.residual ? " residual" : "") +
               (dynamic ? " dynamic" : ""));
  Built t;
  build(b, dynamic, &t);
  const std::vector<double> ref = reference(b, t);
  double peak = 0;
  for (double v : ref) peak = std::max(peak, std::fabs(v));
  for (const char* threads : {"1", "2"}) {
    SCOPED_TRACE(std::string("threads ") + threads);
    const uint64_t before = halfBlockRuns();
    const nntest::RunResult fused = run(t, true, threads);
    const uint64_t ran = halfBlockRuns() - before;
    const nntest::RunResult apart = run(t, false, threads);
    ASSERT_EQ(fused.status, ANEURALNETWORKS_NO_ERROR) << fused.step;
    ASSERT_EQ(apart.status, ANEURALNETWORKS_NO_ERROR) << apart.step;
    EXPECT_EQ(halfBlockRuns() - before, ran) << "fused with NNAPI_CPU_BAND_FUSION=0";
    const bool expectFused =
        fuses && !dynamic && std::string(threads) == "2" && conv::halfGemmAvailable();
    if (expectFused) {
      EXPECT_EQ(ran, 1u) << "the block was not fused";
    } else {
      EXPECT_EQ(ran, 0u) << "fused where it should not be";
    }
    const std::vector<float> f = valuesOf<float>(fused.outputs[0]);
    const std::vector<float> p = valuesOf<float>(apart.outputs[0]);
    ASSERT_EQ(f.size(), ref.size());
    ASSERT_EQ(p.size(), ref.size());
    double sq = 0, sqRef = 0;
    for (size_t i = 0; i < f.size(); ++i) {
      if (!expectFused) {
        ASSERT_TRUE(sameFloat(f[i], p[i])) << "element " << i << ": " << f[i] << " vs " << p[i];
      } else {
        // Apart the projection sums the same float16 products in another order (and may add
        // short sums in float16); the outputs differ by float16 roundings of the block's values.
        ASSERT_NEAR(f[i], p[i], 4e-3 * peak) << "element " << i;
      }
      ASSERT_NEAR(f[i], ref[i], 1e-2 * peak) << "element " << i << " against double";
      sq += (f[i] - ref[i]) * (f[i] - ref[i]);
      sqRef += ref[i] * ref[i];
    }
    // Float16's precision (2^-11 relative per rounding, a few roundings along the chain).
    EXPECT_LE(std::sqrt(sq), std::ldexp(std::sqrt(sqRef), -7)) << "root mean square error";
  }
}

TEST(HalfBlock, RelaxedBlocksAgainstLayersApart) {
  const Block blocks[] = {
      {7, 112, 672, 112, 1, true},   // hand_landmark_lite's 7x7 blocks
      {14, 64, 384, 112, 2, false},  // and the 14x14 -> 7x7 one before them
      {5, 24, 144, 24, 1, true},     // shares of 64 + 80 channels, an odd map
      {8, 16, 96, 24, 1, false},     // the narrow projection (24 outputs)
      {13, 40, 240, 40, 2, false},   // an odd map at stride 2
  };
  for (const Block& b : blocks) check(b, false, true);
}

TEST(HalfBlock, NotFusedWhereItDoesNotApply) {
  check({28, 24, 144, 24, 1, true}, false, false);  // a larger map
  check({7, 96, 192, 96, 1, true}, false, false);   // not a 4x expansion
}

TEST(HalfBlock, ShapesKnownOnlyAtExecutionRunApart) {
  check({7, 112, 672, 112, 1, true}, true, false);
}

}  // namespace
}  // namespace nn
