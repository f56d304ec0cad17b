// The float16 1x1 layer + residual ADD fusion (cpu/kernels/gemm_half_residual.h,
// isa/residual_half_avx512fp16.cc, the plan's pairing in prepared_model.cc):
// - the ISA kernel against a scalar reference of the ADD's arithmetic (widen, add in float32,
//   clamp, round once): bit for bit, for every float16 / float32 form of the three tensors,
//   shortcuts as wide as the output and narrower (a zero PAD's channels read as +0), every fused
//   activation, NaN and infinities, channel counts off the 16- and 32-lane vectors, nothing
//   written past the output;
// - the driver against the float16 GEMM (halfGemmMixed) and that reference run apart: bit for
//   bit, one and two threads, row counts off the blocks, narrow and 64-column-tile weights (the
//   narrow kernel's epilogue form and the separate pass); and
//   against a double reference of the unrounded data within float16's tolerance;
// - a relaxed model (BlazeFace's block: depthwise -> 1x1 -> ADD with the PAD-widened shortcut)
//   with the fusion and with NNAPI_CPU_BAND_FUSION=0: the same bits, and the fused kernel ran
//   (below the AVX512-FP16 cap, the float32 form on the float32 layers; below AVX-512 nothing
//   is fused and only that is checked);
// - the same block in a float32 model: the float32 panel GEMM with the ADD in its epilogue
//   (panelGemmFloatResidual), the same bits as apart, with AVX-512; a broadcasting ADD is not
//   fused.
#include <gtest/gtest.h>

#include <android/NeuralNetworks.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "cpu/isa.h"
#include "cpu/kernels/conv_fast.h"
#include "cpu/kernels/expand_depthwise.h"
#include "cpu/kernels/gemm_half.h"
#include "cpu/kernels/gemm_half_residual.h"
#include "cpu/kernels/isa/gemm_half_isa.h"
#include "cpu/kernels/isa/residual_half_isa.h"
#include "cpu/thread_pool.h"
#include "half_bits.h"
#include "spec/ops/common.h"
#include "test_util.h"

namespace nn {
namespace {

constexpr size_t kGuard = 40;
constexpr int32_t kActivations[] = {ANEURALNETWORKS_FUSED_NONE, ANEURALNETWORKS_FUSED_RELU,
                                    ANEURALNETWORKS_FUSED_RELU1, ANEURALNETWORKS_FUSED_RELU6};

using half_bits::bitsOf;
using half_bits::halfOf;
using half_bits::narrow;
using half_bits::widen;
bool isNanHalf(uint16_t b) { return (b & 0x7c00) == 0x7c00 && (b & 0x3ff) != 0; }
bool sameHalf(uint16_t a, uint16_t b) { return (isNanHalf(a) && isNanHalf(b)) || a == b; }
bool sameFloat(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, 4) == 0;
}

// Values in [-8, 8] (sums reach the RELU1 / RELU6 bounds and cancel), some NaN and infinities,
// and large values whose float16 sum overflows.
std::vector<float> values(std::mt19937& rng, size_t n, bool special = true) {
  std::uniform_real_distribution<float> d(-8.f, 8.f);
  std::uniform_int_distribution<int> pick(0, 60);
  std::vector<float> v(n);
  for (float& x : v) {
    switch (special ? pick(rng) : 99) {
      case 0:
        x = std::numeric_limits<float>::quiet_NaN();
        break;
      case 1:
        x = std::numeric_limits<float>::infinity();
        break;
      case 2:
        x = -std::numeric_limits<float>::infinity();
        break;
      case 3:
        x = 60000.f;
        break;
      default:
        x = d(rng);
    }
  }
  return v;
}

// Every form of c, shortcut and output; shortcuts as wide as c and narrower; all activations.
TEST(ResidualHalf, KernelMatchesScalarAdd) {
  if (!conv::halfGemmAvailable()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  std::mt19937 rng(7);
  struct Shape {
    uint32_t rows, n, resC;
  };
  const Shape shapes[] = {{5, 24, 24}, {7, 28, 24}, {3, 96, 88}, {9, 17, 17}, {4, 40, 33},
                          {2, 33, 1},  {6, 64, 64}, {1, 48, 32}, {11, 8, 8}};
  for (const Shape& s : shapes) {
    const size_t cn = static_cast<size_t>(s.rows) * s.n, rn = static_cast<size_t>(s.rows) * s.resC;
    const std::vector<float> cv = values(rng, cn), rv = values(rng, rn);
    std::vector<uint16_t> ch(cn), rh(rn);
    std::vector<float> cf(cn), rf(rn);
    for (size_t i = 0; i < cn; ++i) {
      ch[i] = narrow(cv[i]);
      cf[i] = cv[i];
    }
    for (size_t i = 0; i < rn; ++i) {
      rh[i] = narrow(rv[i]);
      rf[i] = rv[i];
    }
    for (int form = 0; form < 8; ++form) {
      const bool cH = form & 4, rH = form & 2, oH = form & 1;
      for (int32_t act : kActivations) {
        SCOPED_TRACE("rows " + std::to_string(s.rows) + " n " + std::to_string(s.n) + " resC " +
                     std::to_string(s.resC) + " form " + std::to_string(form) + " act " +
                     std::to_string(act));
        ResidualAddHalfArgs a{};
        a.n = s.n;
        a.resC = s.resC;
        activationRangeFloat(act, &a.outputMin, &a.outputMax);
        if (cH)
          a.ch = ch.data();
        else
          a.cf = cf.data();
        if (rH)
          a.rh = rh.data();
        else
          a.rf = rf.data();
        std::vector<uint16_t> oh(cn + kGuard, 0x7e00);
        std::vector<float> of(cn + kGuard, -1234.f);
        if (oH)
          a.oh = oh.data();
        else
          a.of = of.data();
        isa_avx512fp16::addResidualRows(a, 0, s.rows);
        for (uint32_t r = 0; r < s.rows; ++r) {
          for (uint32_t j = 0; j < s.n; ++j) {
            const size_t i = static_cast<size_t>(r) * s.n + j;
            const float c = cH ? widen(ch[i]) : cf[i];
            const size_t ri = static_cast<size_t>(r) * s.resC + j;
            const float res = j < s.resC ? (rH ? widen(rh[ri]) : rf[ri]) : 0.f;
            const float sum = c + res;
            const float want =
                std::isnan(sum) ? sum : std::fmin(a.outputMax, std::fmax(a.outputMin, sum));
            if (oH) {
              ASSERT_TRUE(sameHalf(oh[i], narrow(want)))
                  << "row " << r << " col " << j << ": " << widen(oh[i]) << " vs " << want;
            } else {
              ASSERT_TRUE(sameFloat(of[i], want))
                  << "row " << r << " col " << j << ": " << of[i] << " vs " << want;
            }
          }
        }
        for (size_t i = cn; i < cn + kGuard; ++i) {
          ASSERT_EQ(oh[i], 0x7e00) << "written past the output";
          ASSERT_EQ(of[i], -1234.f) << "written past the output";
        }
      }
    }
  }
}

struct DriverCase {
  uint32_t m, k, n, resC;
  bool halfIn, convHalfOut, resHalf, outHalf;
  int32_t convAct, addAct;
};

// The fused driver against halfGemmMixed followed by the scalar ADD (same bits), and against a
// double reference of the unrounded data within float16's tolerance.
void checkDriver(std::mt19937& rng, const DriverCase& d, ThreadPool* pool,
                 conv::KernelScratch& ks) {
  SCOPED_TRACE("m " + std::to_string(d.m) + " k " + std::to_string(d.k) + " n " +
               std::to_string(d.n) + " resC " + std::to_string(d.resC) + " forms " +
               std::to_string(d.halfIn) + std::to_string(d.convHalfOut) +
               std::to_string(d.resHalf) + std::to_string(d.outHalf) + " acts " +
               std::to_string(d.convAct) + "/" + std::to_string(d.addAct) + " threads " +
               std::to_string(pool != nullptr ? pool->numThreads() : 1));
  const size_t mk = static_cast<size_t>(d.m) * d.k, mn = static_cast<size_t>(d.m) * d.n,
               mr = static_cast<size_t>(d.m) * d.resC;
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> a(mk), w(static_cast<size_t>(d.n) * d.k), bias(d.n), res(mr);
  for (float& x : a) x = u(rng);
  for (float& x : w) x = u(rng);
  for (float& x : bias) x = u(rng);
  for (float& x : res) x = 2 * u(rng);
  std::vector<Half> ah(mk), resH(mr);
  for (size_t i = 0; i < mk; ++i) ah[i] = static_cast<Half>(a[i]);
  for (size_t i = 0; i < mr; ++i) resH[i] = static_cast<Half>(res[i]);
  conv::PackedHalfWeights pw;
  conv::packHalfWeights(w.data(), d.n, d.k, &pw);

  // Apart: the GEMM into its own output, then the ADD's arithmetic.
  std::vector<float> cF(mn);
  std::vector<Half> cH(mn);
  conv::halfGemmMixed(d.m, d.halfIn ? nullptr : a.data(), d.halfIn ? ah.data() : nullptr, d.k, pw,
                      bias.data(), d.convAct, d.convHalfOut ? nullptr : cF.data(),
                      d.convHalfOut ? cH.data() : nullptr, pool, ks);
  float lo, hi, cLo, cHi;
  activationRangeFloat(d.addAct, &lo, &hi);
  activationRangeFloat(d.convAct, &cLo, &cHi);

  conv::HalfGemmResidual f;
  f.m = d.m;
  if (d.halfIn)
    f.ah = ah.data();
  else
    f.a = a.data();
  f.weights = &pw;
  f.bias = bias.data();
  f.convActivation = d.convAct;
  f.convHalfOut = d.convHalfOut;
  if (d.resHalf)
    f.resH = resH.data();
  else
    f.res = res.data();
  f.resC = d.resC;
  f.addActivation = d.addAct;
  std::vector<float> outF(mn + kGuard, -1234.f);
  std::vector<Half> outH(mn + kGuard, static_cast<Half>(-1234.f));
  if (d.outHalf)
    f.outH = outH.data();
  else
    f.out = outF.data();
  conv::halfGemmResidual(f, pool, ks);

  double sqErr = 0, sqScale = 0;
  for (uint32_t r = 0; r < d.m; ++r) {
    for (uint32_t j = 0; j < d.n; ++j) {
      const size_t i = static_cast<size_t>(r) * d.n + j, ri = static_cast<size_t>(r) * d.resC + j;
      const float c = d.convHalfOut ? static_cast<float>(cH[i]) : cF[i];
      const float s = j < d.resC ? (d.resHalf ? static_cast<float>(resH[ri]) : res[ri]) : 0.f;
      const float want = std::fmin(hi, std::fmax(lo, c + s));
      const float got = d.outHalf ? static_cast<float>(outH[i]) : outF[i];
      const float wantRounded = d.outHalf ? static_cast<float>(static_cast<Half>(want)) : want;
      ASSERT_TRUE(sameFloat(got, wantRounded))
          << "row " << r << " col " << j << ": " << got << " vs " << wantRounded << " apart";
      // Double reference of the unrounded data.
      double dot = bias[j], scale = std::fabs(bias[j]);
      for (uint32_t kk = 0; kk < d.k; ++kk) {
        dot += static_cast<double>(a[static_cast<size_t>(r) * d.k + kk]) *
               w[static_cast<size_t>(j) * d.k + kk];
        scale += std::fabs(static_cast<double>(a[static_cast<size_t>(r) * d.k + kk]) *
                           w[static_cast<size_t>(j) * d.k + kk]);
      }
      dot = std::fmin(cHi, std::fmax(cLo, dot));
      const double ref = std::fmin(hi, std::fmax(lo, dot + (j < d.resC ? res[ri] : 0.0)));
      scale += j < d.resC ? std::fabs(res[ri]) : 0.0;
      // Float16's bound (gemm_half_test.cc): (kHalfKBlock + 8) * 2^-11 of the magnitude sum,
      // plus the roundings of the conv output, the shortcut and the result.
      ASSERT_NEAR(got, ref, (kHalfKBlock + 11) * std::ldexp(scale + 1e-30, -11))
          << "row " << r << " col " << j;
      sqErr += (got - ref) * (got - ref);
      sqScale += scale * scale;
    }
  }
  EXPECT_LE(std::sqrt(sqErr), std::ldexp(std::sqrt(sqScale), -9)) << "root mean square error";
  for (size_t i = mn; i < mn + kGuard; ++i) {
    ASSERT_EQ(outF[i], -1234.f) << "written past the output";
    ASSERT_EQ(static_cast<float>(outH[i]), -1234.f) << "written past the output";
  }
}

TEST(ResidualHalf, DriverMatchesGemmThenAdd) {
  if (!conv::halfGemmAvailable()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  std::mt19937 rng(11);
  ThreadPool pool(2);
  conv::KernelScratch ks;
  const DriverCase cases[] = {
      // face_detection_short_range's layers (rows cut down), and rows off every block.
      {4096, 24, 24, 24, true, false, true, true, 0, ANEURALNETWORKS_FUSED_RELU},
      {1000, 24, 28, 24, true, false, true, true, 0, ANEURALNETWORKS_FUSED_RELU},
      // All float16 with the small-n kernel: the shortcut narrower than the output (PAD).
      {1000, 24, 28, 24, true, true, true, true, 0, ANEURALNETWORKS_FUSED_RELU},
      {1024, 28, 32, 28, true, true, true, true, 0, ANEURALNETWORKS_FUSED_RELU},
      {257, 42, 48, 42, true, true, true, true, 0, ANEURALNETWORKS_FUSED_RELU},
      {64, 88, 96, 88, false, true, false, true, 0, ANEURALNETWORKS_FUSED_RELU},
      {64, 96, 96, 96, true, true, true, false, 0, ANEURALNETWORKS_FUSED_NONE},
      // Other forms and activations, k over one float16 block, odd rows.
      {37, 40, 24, 24, false, false, false, false, ANEURALNETWORKS_FUSED_RELU6,
       ANEURALNETWORKS_FUSED_RELU1},
      {5, 72, 80, 80, true, true, false, false, ANEURALNETWORKS_FUSED_RELU,
       ANEURALNETWORKS_FUSED_RELU6},
      {3, 24, 130, 100, true, false, true, true, 0, 0},
      {700, 160, 40, 8, false, true, true, true, 0, ANEURALNETWORKS_FUSED_RELU},
      // The narrow kernel's epilogue (a narrower shortcut, not all float16): the convolution's
      // float16 rounding before the sum, float32 shortcuts and outputs, k over two blocks.
      {333, 40, 40, 33, true, true, false, true, ANEURALNETWORKS_FUSED_RELU6,
       ANEURALNETWORKS_FUSED_RELU},
      {129, 64, 48, 17, false, false, true, false, 0, ANEURALNETWORKS_FUSED_RELU1},
      {45, 24, 9, 3, true, false, false, false, ANEURALNETWORKS_FUSED_NONE, 0},
      // The small-n layout's float32-sum form (float16 input, halfGemmSmallWidePreferred): in
      // the epilogue with a float32 convolution output (a narrower shortcut too), and through
      // the separate pass with a float16 one (k over 64, 80 columns with k >= 128).
      {300, 96, 16, 16, true, false, false, false, 0, 0},
      {97, 144, 24, 17, true, false, true, true, ANEURALNETWORKS_FUSED_RELU6,
       ANEURALNETWORKS_FUSED_RELU},
      {196, 288, 48, 48, true, true, true, true, 0, ANEURALNETWORKS_FUSED_RELU},
      {61, 480, 80, 80, true, true, false, true, ANEURALNETWORKS_FUSED_RELU, 0},
  };
  for (const DriverCase& d : cases) {
    checkDriver(rng, d, nullptr, ks);
    checkDriver(rng, d, &pool, ks);
  }
}

// ---- the plan: BlazeFace's block in a relaxed model ---------------------------------------

using nntest::bytesOf;
using nntest::ModelBuilder;
using nntest::randomFloats;
using nntest::valuesOf;

constexpr int kF32 = ANEURALNETWORKS_TENSOR_FLOAT32;
constexpr int kI32 = ANEURALNETWORKS_TENSOR_INT32;

struct Block {
  uint32_t side, inC, outC;
  bool pad;  // the shortcut widened by a PAD of the channels (else inC == outC)
  int32_t convAct = ANEURALNETWORKS_FUSED_NONE;  // of the 1x1 layer before the ADD
  bool shortcutFirst = false;  // the shortcut as the ADD's input 0 (else input 1)
};

// x -> 1x1 (inC, RELU) = a (or the stem below); a -> depthwise 3x3 -> 1x1 (outC) = c; y = RELU(c +
// PAD(a)) -> 1x1 (outC -> 16) -> model output (a float32 output of float16 data; the block's
// tensors become float16 in a relaxed model).
void buildBlock(const Block& b, ModelBuilder* mb, std::vector<std::vector<uint8_t>>* inputs,
                size_t* outBytes, bool relaxed = true) {
  ModelBuilder& m = *mb;
  uint32_t seed = 3;
  auto weights = [&](const std::vector<uint32_t>& dims) {
    size_t n = 1;
    for (uint32_t d : dims) n *= d;
    return m.addConstant<float>(kF32, dims, randomFloats(n, seed++));
  };
  const uint32_t s = b.side;
  // 24 channels come from a 5x5 stride-2 stem on 3 channels, as in face_detection_short_range
  // (a 1x1 layer with k = 24 on float32 data has no float16 kernel, so nothing would be
  // float16 after it).
  const bool stem = b.inC == 24;
  const uint32_t x =
      stem ? m.addOperand(kF32, {1, 2 * s, 2 * s, 3}) : m.addOperand(kF32, {1, s, s, b.inC});
  inputs->push_back(bytesOf(randomFloats(
      stem ? static_cast<size_t>(4) * s * s * 3 : static_cast<size_t>(s) * s * b.inC, 1)));
  auto pointwise = [&](uint32_t in, uint32_t inC, uint32_t outC, int32_t act) {
    const uint32_t out = m.addOperand(kF32, {1, s, s, outC});
    m.addOperation(
        ANEURALNETWORKS_CONV_2D,
        {in, weights({outC, 1, 1, inC}), weights({outC}), m.addInt32(ANEURALNETWORKS_PADDING_VALID),
         m.addInt32(1), m.addInt32(1), m.addInt32(act)},
        {out});
    return out;
  };
  uint32_t a = 0;
  if (stem) {
    a = m.addOperand(kF32, {1, s, s, b.inC});
    m.addOperation(
        ANEURALNETWORKS_CONV_2D,
        {x, weights({b.inC, 5, 5, 3}), weights({b.inC}), m.addInt32(ANEURALNETWORKS_PADDING_SAME),
         m.addInt32(2), m.addInt32(2), m.addInt32(ANEURALNETWORKS_FUSED_RELU)},
        {a});
  } else {
    a = pointwise(x, b.inC, b.inC, ANEURALNETWORKS_FUSED_RELU);
  }
  const uint32_t dw = m.addOperand(kF32, {1, s, s, b.inC});
  m.addOperation(
      ANEURALNETWORKS_DEPTHWISE_CONV_2D,
      {a, weights({1, 3, 3, b.inC}), weights({b.inC}), m.addInt32(ANEURALNETWORKS_PADDING_SAME),
       m.addInt32(1), m.addInt32(1), m.addInt32(1), m.addInt32(ANEURALNETWORKS_FUSED_NONE)},
      {dw});
  const uint32_t c = pointwise(dw, b.inC, b.outC, b.convAct);
  uint32_t shortcut = a;
  if (b.pad) {
    shortcut = m.addOperand(kF32, {1, s, s, b.outC});
    m.addOperation(
        ANEURALNETWORKS_PAD,
        {a, m.addConstant<int32_t>(kI32, {4, 2},
                                   {0, 0, 0, 0, 0, 0, 0, static_cast<int32_t>(b.outC - b.inC)})},
        {shortcut});
  }
  const uint32_t sum = m.addOperand(kF32, {1, s, s, b.outC});
  m.addOperation(ANEURALNETWORKS_ADD,
                 {b.shortcutFirst ? shortcut : c, b.shortcutFirst ? c : shortcut,
                  m.addInt32(ANEURALNETWORKS_FUSED_RELU)},
                 {sum});
  const uint32_t y = pointwise(sum, b.outC, 16, ANEURALNETWORKS_FUSED_NONE);
  ASSERT_EQ(m.finish({x}, {y}, relaxed), ANEURALNETWORKS_NO_ERROR);
  *outBytes = static_cast<size_t>(s) * s * 16 * sizeof(float);
}

nntest::RunResult runBlock(const ModelBuilder& m, const std::vector<std::vector<uint8_t>>& in,
                           size_t outBytes, const char* device, bool fused, const char* threads) {
  setenv("NNAPI_CPU_THREADS", threads, 1);
  setenv("NNAPI_CPU_ADAPT_THREADS", "0", 1);
  if (!fused) setenv("NNAPI_CPU_BAND_FUSION", "0", 1);
  nntest::RunResult r = nntest::runModel(m, in, {outBytes}, device);
  unsetenv("NNAPI_CPU_BAND_FUSION");
  unsetenv("NNAPI_CPU_THREADS");
  unsetenv("NNAPI_CPU_ADAPT_THREADS");
  return r;
}

// The model on nnapi-cpu at `threads` with the band fusions and without
// (NNAPI_CPU_BAND_FUSION=0): fused (at least once) where `fuses`, else never, never without
// the fusions, and the same bits either way; `out` receives the fused run's output.
void expectFusedSameBits(const ModelBuilder& m, const std::vector<std::vector<uint8_t>>& inputs,
                         size_t outBytes, const char* threads, bool fuses,
                         std::vector<float>* out) {
  const uint64_t before = convResidualRuns();
  const nntest::RunResult fused = runBlock(m, inputs, outBytes, "nnapi-cpu", true, threads);
  const uint64_t ran = convResidualRuns() - before;
  const nntest::RunResult apart = runBlock(m, inputs, outBytes, "nnapi-cpu", false, threads);
  ASSERT_EQ(fused.status, ANEURALNETWORKS_NO_ERROR) << fused.step;
  ASSERT_EQ(apart.status, ANEURALNETWORKS_NO_ERROR) << apart.step;
  EXPECT_EQ(convResidualRuns() - before, ran) << "fused with NNAPI_CPU_BAND_FUSION=0";
  if (fuses) {
    EXPECT_GE(ran, 1u) << "the 1x1 layer and the ADD were not fused";
  } else {
    EXPECT_EQ(ran, 0u) << "fused without the kernels";
  }
  *out = valuesOf<float>(fused.outputs[0]);
  const std::vector<float> p = valuesOf<float>(apart.outputs[0]);
  ASSERT_EQ(out->size(), p.size());
  for (size_t i = 0; i < p.size(); ++i)
    ASSERT_TRUE(sameFloat((*out)[i], p[i])) << "element " << i << ": " << (*out)[i] << " vs "
                                            << p[i];
}

TEST(ResidualHalf, RelaxedBlockSameBitsAsApart) {
  const Block blocks[] = {
      {32, 24, 28, true}, {16, 32, 32, false}, {9, 40, 48, true}, {8, 96, 96, false}};
  for (const Block& b : blocks) {
    SCOPED_TRACE(std::to_string(b.side) + "x" + std::to_string(b.side) + "x" +
                 std::to_string(b.inC) + "->" + std::to_string(b.outC) + (b.pad ? " padded" : ""));
    ModelBuilder m;
    std::vector<std::vector<uint8_t>> inputs;
    size_t outBytes = 0;
    buildBlock(b, &m, &inputs, &outBytes);
    const nntest::RunResult ref = runBlock(m, inputs, outBytes, "nnapi-cpu-reference", true, "1");
    ASSERT_EQ(ref.status, ANEURALNETWORKS_NO_ERROR) << ref.step;
    const std::vector<float> r = valuesOf<float>(ref.outputs[0]);
    float peak = 0;
    for (float v : r) peak = std::fmax(peak, std::fabs(v));
    for (const char* threads : {"1", "2"}) {
      SCOPED_TRACE(std::string("threads ") + threads);
      // Without AVX512-FP16 the relaxed model's layers run in float32, and the float32 form
      // fuses them where the panel GEMM exists.
      std::vector<float> a;
      expectFusedSameBits(m, inputs, outBytes, threads,
                          conv::halfGemmAvailable() || conv::panelGemmAvailable(), &a);
      ASSERT_EQ(a.size(), r.size());
      for (size_t i = 0; i < a.size(); ++i)
        ASSERT_NEAR(a[i], r[i], 1e-2f * peak) << "element " << i;
    }
  }
}

// A float32 model: the 1x1 layer on the float32 panel GEMM with the ADD (and the PAD) in its
// epilogue, where the processor has AVX-512; the same bits as the layers apart, one and two
// threads, output channels ending in a full tile, a 16-column one and an 8-column one,
// shortcuts as wide and narrower, activations on the 1x1 layer, the shortcut as either input
// of the ADD (the one the ADD apart writes over, input 0 when it dies there).
TEST(ResidualFloat, Float32BlockSameBitsAsApart) {
  const Block blocks[] = {{32, 24, 28, true},
                          {16, 32, 32, false},
                          {32, 24, 24, false, ANEURALNETWORKS_FUSED_NONE, true},
                          {12, 40, 72, true, ANEURALNETWORKS_FUSED_RELU, true},
                          {9, 40, 48, true, ANEURALNETWORKS_FUSED_RELU6},
                          {8, 96, 96, false},
                          {13, 16, 40, true, ANEURALNETWORKS_FUSED_RELU1},
                          {11, 48, 80, true}};
  for (const Block& b : blocks) {
    SCOPED_TRACE(std::to_string(b.side) + "x" + std::to_string(b.side) + "x" +
                 std::to_string(b.inC) + "->" + std::to_string(b.outC) + (b.pad ? " padded" : "") +
                 " act " + std::to_string(b.convAct) + (b.shortcutFirst ? " shortcut first" : ""));
    ModelBuilder m;
    std::vector<std::vector<uint8_t>> inputs;
    size_t outBytes = 0;
    buildBlock(b, &m, &inputs, &outBytes, /*relaxed=*/false);
    for (const char* threads : {"1", "2"}) {
      SCOPED_TRACE(std::string("threads ") + threads);
      std::vector<float> a;
      expectFusedSameBits(m, inputs, outBytes, threads, conv::panelGemmAvailable(), &a);
    }
  }
}

// An ADD that broadcasts (the shortcut [1,1,1,32]) is not fused.
TEST(ResidualFloat, BroadcastAddNotFused) {
  ModelBuilder m;
  const uint32_t x = m.addOperand(kF32, {1, 16, 16, 32});
  const uint32_t s = m.addOperand(kF32, {1, 1, 1, 32});
  std::vector<std::vector<uint8_t>> inputs{bytesOf(randomFloats(16 * 16 * 32, 1)),
                                           bytesOf(randomFloats(32, 4))};
  const uint32_t c = m.addOperand(kF32, {1, 16, 16, 32});
  m.addOperation(ANEURALNETWORKS_CONV_2D,
                 {x, m.addConstant<float>(kF32, {32, 1, 1, 32}, randomFloats(32 * 32, 2)),
                  m.addConstant<float>(kF32, {32}, randomFloats(32, 3)),
                  m.addInt32(ANEURALNETWORKS_PADDING_VALID), m.addInt32(1), m.addInt32(1),
                  m.addInt32(ANEURALNETWORKS_FUSED_NONE)},
                 {c});
  const uint32_t y = m.addOperand(kF32, {1, 16, 16, 32});
  m.addOperation(ANEURALNETWORKS_ADD, {c, s, m.addInt32(ANEURALNETWORKS_FUSED_RELU)}, {y});
  ASSERT_EQ(m.finish({x, s}, {y}), ANEURALNETWORKS_NO_ERROR);
  const uint64_t before = convResidualRuns();
  const nntest::RunResult r = runBlock(m, inputs, 16 * 16 * 32 * 4, "nnapi-cpu", true, "2");
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(convResidualRuns() - before, 0u);
}

}  // namespace
}  // namespace nn
