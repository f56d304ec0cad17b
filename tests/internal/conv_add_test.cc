// The 1x1 CONV_2D + residual ADD pair (cpu/kernels/conv_add.h, isa/conv_add_half_avx512fp16.cc,
// isa/conv_add_float_avx512.cc):
// - the float16 kernel against a float32 (double) reference of the unrounded values, within the
//   float16 error bound of its arithmetic, for every input / residual / output type form,
//   activations on either layer, k from 1 to kConvAddMaxK, n off the 32-lane vectors up to
//   kConvAddMaxN, pixel counts off the 8-pixel blocks, one and two threads; nothing written past
//   the output;
// - the plan: in a relaxed model a BlazeFace-style residual block (1x1 32 -> 8, depthwise 3x3,
//   1x1 8 -> 32, ADD of the block input, RELU) runs the last 1x1 with the ADD where the processor
//   has AVX512-FP16 (not capped by NNAPI_CPU_ISA), within relaxed tolerance of the float32
//   reference device and of the pair run apart (NNAPI_CPU_BAND_FUSION=0); in a float32 model
//   it does where the processor has AVX-512 and k <= kConvAddFloatMaxK, with the same bits as
//   the pair run apart (n off the 16-lane vectors, pixel counts off the kernel's 6-pixel
//   blocks, an activation on the 1x1 too); a 1x1 with too many input channels or an ADD whose
//   other reader needs the 1x1 output are not paired.
#include <gtest/gtest.h>

#include <android/NeuralNetworks.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cpu/isa.h"
#include "cpu/kernels/conv_add.h"
#include "cpu/kernels/conv_fast.h"
#include "cpu/kernels/gemm_half.h"
#include "cpu/thread_pool.h"
#include "half_bits.h"
#include "spec/ops/common.h"
#include "test_util.h"

namespace nn {
namespace {

constexpr size_t kGuard = 48;
constexpr uint16_t kSentinel = 0x7bcd;  // a finite float16 no result here equals

using half_bits::narrow;
using half_bits::widen;
float clampTo(double v, float lo, float hi) {
  return static_cast<float>(v < lo ? lo : (v > hi ? hi : v));
}

struct Form {
  bool xHalf, resHalf, outHalf;
  int32_t convAct, addAct;
};

void checkKernel(size_t pixels, uint32_t k, uint32_t n, const Form& f, ThreadPool* pool,
                 uint32_t seed) {
  SCOPED_TRACE("pixels " + std::to_string(pixels) + " k " + std::to_string(k) + " n " +
               std::to_string(n) + " forms x/res/out half " + std::to_string(f.xHalf) +
               std::to_string(f.resHalf) + std::to_string(f.outHalf) + " acts " +
               std::to_string(f.convAct) + "/" + std::to_string(f.addAct) + " threads " +
               std::to_string(pool ? pool->numThreads() : 1));
  std::vector<float> x = nntest::randomFloats(pixels * k, seed, -2.f, 2.f);
  std::vector<float> w = nntest::randomFloats(static_cast<size_t>(n) * k, seed + 1, -1.f, 1.f);
  std::vector<float> bias = nntest::randomFloats(n, seed + 2, -1.f, 1.f);
  std::vector<float> res = nntest::randomFloats(pixels * n, seed + 3, -4.f, 4.f);
  std::vector<uint16_t> xh(pixels * k), resh(pixels * n);
  // The float16 forms hold the rounded values; the reference reads what the kernel reads.
  for (size_t i = 0; i < x.size(); ++i) {
    xh[i] = narrow(x[i]);
    if (f.xHalf) x[i] = widen(xh[i]);
  }
  for (size_t i = 0; i < res.size(); ++i) {
    resh[i] = narrow(res[i]);
    if (f.resHalf) res[i] = widen(resh[i]);
  }
  std::vector<float> outF(pixels * n + kGuard, -77.f);
  std::vector<uint16_t> outH(pixels * n + kGuard, kSentinel);
  ConvAddHalfArgs a{};
  a.n = n;
  a.k = k;
  if (f.xHalf) a.xh = xh.data(); else a.xf = x.data();
  if (f.resHalf) a.rh = resh.data(); else a.rf = res.data();
  if (f.outHalf) a.oh = outH.data(); else a.of = outF.data();
  activationRangeFloat(f.convAct, &a.convMin, &a.convMax);
  activationRangeFloat(f.addAct, &a.outMin, &a.outMax);
  conv::convAddHalf(pixels, a, w.data(), bias.data(), pool);
  // Error bound: inputs, weights and bias rounded to float16 (relative 2^-11 each), k + 1
  // float16 sums of magnitude at most S = |bias| + sum |x w|, the residual and the sum rounded:
  // (2k + 6) * 2^-11 * (S + |res|) covers them with room; clamps do not add error.
  const double u = std::ldexp(1.0, -11);
  for (size_t p = 0; p < pixels; ++p) {
    for (uint32_t o = 0; o < n; ++o) {
      double s = bias[o], mag = std::fabs(bias[o]);
      for (uint32_t j = 0; j < k; ++j) {
        const double t = static_cast<double>(x[p * k + j]) * w[static_cast<size_t>(o) * k + j];
        s += t;
        mag += std::fabs(t);
      }
      const float conv = clampTo(s, a.convMin, a.convMax);
      const float want = clampTo(static_cast<double>(res[p * n + o]) + conv, a.outMin, a.outMax);
      const float got = f.outHalf ? widen(outH[p * n + o]) : outF[p * n + o];
      const double tol = (2.0 * k + 6.0) * u * (mag + std::fabs(res[p * n + o]));
      ASSERT_NEAR(got, want, tol) << "pixel " << p << " channel " << o;
    }
  }
  for (size_t i = pixels * n; i < pixels * n + kGuard; ++i) {
    ASSERT_EQ(outH[i], kSentinel) << "written past the output at " << i;
    ASSERT_EQ(outF[i], -77.f) << "written past the output at " << i;
  }
}

TEST(HalfConvAdd, KernelWithinFloat16BoundOfFloat32) {
  if (!conv::halfGemmAvailable()) GTEST_SKIP() << "no AVX512-FP16 (or capped by NNAPI_CPU_ISA)";
  ThreadPool* two = ThreadPool::shared(2);
  uint32_t seed = 10;
  const int32_t kRelu = 1, kRelu6 = 3;
  // Every type form with the block's shape and activations.
  for (int form = 0; form < 8; ++form) {
    const Form f{(form & 4) != 0, (form & 2) != 0, (form & 1) != 0, 0, kRelu};
    checkKernel(9216 / 16 + 3, 8, 32, f, nullptr, seed += 7);
  }
  // Shapes: k, n and pixel counts around the block and vector sizes, activations on either side.
  const uint32_t ks[] = {1, 3, 8, 12, 16};
  const uint32_t ns[] = {1, 8, 32, 40, 64, 100, 128};
  const size_t ps[] = {1, 7, 8, 9, 61};
  for (uint32_t k : ks)
    for (uint32_t n : ns)
      for (size_t p : ps) checkKernel(p, k, n, {true, true, true, kRelu6, 0}, nullptr, seed += 7);
  // Two threads over enough pixels to split.
  checkKernel(4099, 8, 32, {false, true, true, 0, kRelu}, two, seed += 7);
  checkKernel(2053, 12, 48, {true, false, false, kRelu, kRelu6}, two, seed += 7);
}

// ---- the plan's pairing ------------------------------------------------------------------------

using nntest::bytesOf;
using nntest::ModelBuilder;
using nntest::valuesOf;

constexpr int kF32 = ANEURALNETWORKS_TENSOR_FLOAT32;

struct Block {
  ModelBuilder m;
  std::vector<std::vector<uint8_t>> inputs;
  size_t outBytes = 0;
};

uint32_t weights(ModelBuilder& m, const std::vector<uint32_t>& dims, uint32_t seed) {
  size_t count = 1;
  for (uint32_t d : dims) count *= d;
  return m.addConstant<float>(kF32, dims, nntest::randomFloats(count, seed, -0.5f, 0.5f));
}

uint32_t pointwise(ModelBuilder& m, uint32_t in, uint32_t side, uint32_t inC, uint32_t outC,
                   int32_t act, uint32_t seed) {
  const uint32_t out = m.addOperand(kF32, {1, side, side, outC});
  m.addOperation(ANEURALNETWORKS_CONV_2D,
                 {in, weights(m, {outC, 1, 1, inC}, seed), weights(m, {outC}, seed + 1),
                  m.addInt32(ANEURALNETWORKS_PADDING_VALID), m.addInt32(1), m.addInt32(1),
                  m.addInt32(act)},
                 {out});
  return out;
}

// x [1,side,side,c] -> 1x1 to `mid` (RELU) -> depthwise 3x3 SAME -> 1x1 to c -> ADD x (RELU)
// -> y; with `alsoOutput` the last 1x1's output is a model output too (then not paired).
void buildBlock(Block* b, uint32_t side, uint32_t c, uint32_t mid, bool relaxed,
                bool alsoOutput = false, int32_t lastAct = ANEURALNETWORKS_FUSED_NONE) {
  ModelBuilder& m = b->m;
  const uint32_t x = m.addOperand(kF32, {1, side, side, c});
  b->inputs.push_back(bytesOf(nntest::randomFloats(static_cast<size_t>(side) * side * c, 1)));
  const uint32_t t1 = pointwise(m, x, side, c, mid, ANEURALNETWORKS_FUSED_RELU, 20);
  const uint32_t t2 = m.addOperand(kF32, {1, side, side, mid});
  m.addOperation(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
                 {t1, weights(m, {1, 3, 3, mid}, 30), weights(m, {mid}, 31),
                  m.addInt32(ANEURALNETWORKS_PADDING_SAME), m.addInt32(1), m.addInt32(1),
                  m.addInt32(1), m.addInt32(ANEURALNETWORKS_FUSED_NONE)},
                 {t2});
  const uint32_t t3 = pointwise(m, t2, side, mid, c, lastAct, 40);
  const uint32_t y = m.addOperand(kF32, {1, side, side, c});
  m.addOperation(ANEURALNETWORKS_ADD, {x, t3, m.addInt32(ANEURALNETWORKS_FUSED_RELU)}, {y});
  std::vector<uint32_t> outs = {y};
  if (alsoOutput) outs.push_back(t3);
  ASSERT_EQ(m.finish({x}, outs, relaxed), ANEURALNETWORKS_NO_ERROR);
  b->outBytes = static_cast<size_t>(side) * side * c * sizeof(float);
}

nntest::RunResult runBlock(const Block& b, const char* device, bool fused, const char* threads,
                           bool alsoOutput) {
  setenv("NNAPI_CPU_THREADS", threads, 1);
  setenv("NNAPI_CPU_ADAPT_THREADS", "0", 1);
  if (!fused) setenv("NNAPI_CPU_BAND_FUSION", "0", 1);
  std::vector<size_t> sizes = {b.outBytes};
  if (alsoOutput) sizes.push_back(b.outBytes);
  nntest::RunResult r = nntest::runModel(b.m, b.inputs, sizes, device);
  unsetenv("NNAPI_CPU_BAND_FUSION");
  unsetenv("NNAPI_CPU_THREADS");
  unsetenv("NNAPI_CPU_ADAPT_THREADS");
  return r;
}

// Paired where `pairs` (and the processor has the kernel), results within relaxed tolerance
// (1% of the largest output, as tests/tflite_e2e_test.cc) of the reference device and of the
// run without band fusions; a float32 model gives the same bits either way.
void expectBlock(uint32_t side, uint32_t c, uint32_t mid, bool relaxed, bool pairs,
                 bool alsoOutput = false, int32_t lastAct = ANEURALNETWORKS_FUSED_NONE) {
  SCOPED_TRACE(std::to_string(side) + "x" + std::to_string(side) + "x" + std::to_string(c) +
               " mid " + std::to_string(mid) + (relaxed ? " relaxed" : " float32") +
               (alsoOutput ? " 1x1 output read twice" : "") + " 1x1 act " +
               std::to_string(lastAct));
  Block b;
  buildBlock(&b, side, c, mid, relaxed, alsoOutput, lastAct);
  // A relaxed model without AVX512-FP16 takes the float32 kernel (k <= kConvAddFloatMaxK).
  const bool kernel = (relaxed && conv::halfGemmAvailable()) ||
                      (conv::panelGemmAvailable() && mid <= kConvAddFloatMaxK);
  const nntest::RunResult ref = runBlock(b, "nnapi-cpu-reference", true, "1", alsoOutput);
  ASSERT_EQ(ref.status, ANEURALNETWORKS_NO_ERROR) << ref.step;
  const std::vector<float> r = valuesOf<float>(ref.outputs[0]);
  float peak = 0;
  for (float v : r) peak = std::fmax(peak, std::fabs(v));
  for (const char* threads : {"1", "2"}) {
    SCOPED_TRACE(std::string("threads ") + threads);
    const uint64_t before = convAddRuns();
    const nntest::RunResult fused = runBlock(b, "nnapi-cpu", true, threads, alsoOutput);
    const uint64_t ran = convAddRuns() - before;
    const nntest::RunResult plain = runBlock(b, "nnapi-cpu", false, threads, alsoOutput);
    ASSERT_EQ(fused.status, ANEURALNETWORKS_NO_ERROR) << fused.step;
    ASSERT_EQ(plain.status, ANEURALNETWORKS_NO_ERROR) << plain.step;
    EXPECT_EQ(convAddRuns() - before, ran) << "paired with NNAPI_CPU_BAND_FUSION=0";
    if (pairs && kernel)
      EXPECT_GE(ran, 1u) << "the 1x1 CONV_2D and the ADD were not paired";
    else
      EXPECT_EQ(ran, 0u) << "paired where it does not apply";
    const std::vector<float> a = valuesOf<float>(fused.outputs[0]);
    const std::vector<float> p = valuesOf<float>(plain.outputs[0]);
    ASSERT_EQ(a.size(), r.size());
    ASSERT_EQ(p.size(), r.size());
    for (size_t i = 0; i < a.size(); ++i) {
      if (!relaxed) {
        ASSERT_EQ(std::memcmp(&a[i], &p[i], sizeof(float)), 0) << "element " << i;
      } else {
        ASSERT_NEAR(a[i], r[i], 1e-2f * peak) << "element " << i;
        ASSERT_NEAR(a[i], p[i], 1e-2f * peak) << "element " << i;
      }
    }
  }
}

// face_detection_full_range's 96x96 blocks in small (8 -> 32 channels), and 12 -> 48.
TEST(HalfConvAdd, RelaxedResidualBlockPairsLastConvWithAdd) {
  expectBlock(24, 32, 8, true, true);
  expectBlock(17, 48, 12, true, true);
}

// The float32 kernel: the same block, n of 48, 24 (a half-empty last vector), 128 and 5 with k
// of 7, 8, 5 and 1, a RELU6 on the 1x1.
TEST(FloatConvAdd, Float32ResidualBlockPairsWithSameBits) {
  expectBlock(24, 32, 8, false, true);
  expectBlock(17, 48, 7, false, true);
  expectBlock(13, 24, 8, false, true, false, ANEURALNETWORKS_FUSED_RELU6);
  expectBlock(9, 128, 5, false, true);
  expectBlock(11, 5, 1, false, true);
}

TEST(HalfConvAdd, NotPairedElsewhere) {
  expectBlock(12, 32, 24, true, false);         // k = 24 > kConvAddMaxK
  expectBlock(12, 32, 12, false, false);        // float32: k = 12 > kConvAddFloatMaxK
  expectBlock(12, 32, 8, true, false, true);    // the 1x1 output is also a model output
  expectBlock(12, 32, 8, false, false, true);
}

}  // namespace
}  // namespace nn
