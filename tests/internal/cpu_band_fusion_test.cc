// The fast CPU device's band fusions of a 1x1 CONV_2D with a 3x3 DEPTHWISE_CONV_2D, both ways:
// - expansion + depthwise (cpu/kernels/expand_depthwise.h): a 1x1 CONV_2D whose output only a
//   DEPTHWISE_CONV_2D reads runs with it in row bands;
// - depthwise + projection (cpu/kernels/depthwise_project.h): a float32 DEPTHWISE_CONV_2D whose
//   output only a 1x1 CONV_2D reads runs with it row by row, with the stem convolution writing
//   the depthwise layer's input where the pixel-pair row kernel takes the pair.
// Each gives the same bits as the two layers run apart (NNAPI_CPU_BAND_FUSION=0), at 1 and 2
// threads, on odd heights and widths, both strides, implicit and explicit padding, channel
// counts that end in a partial tile or use the direct kernel's narrow forms, and activations;
// shapes that do not qualify are not fused, nor are shapes known only at execution; the
// reference device agrees within float tolerance. Where the processor has no AVX-512 nothing
// is fused and the comparisons still hold.
#include <gtest/gtest.h>

#include <android/NeuralNetworks.h>

#include <cmath>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <random>
#include <string>

#include "cpu/isa.h"
#include "cpu/kernels/expand_depthwise.h"
#include "cpu/kernels/gemm_half.h"
#include "test_util.h"

namespace {

using nntest::bytesOf;
using nntest::ModelBuilder;
using nntest::randomFloats;
using nntest::valuesOf;

constexpr int kF32 = ANEURALNETWORKS_TENSOR_FLOAT32;
constexpr int32_t kNone = ANEURALNETWORKS_FUSED_NONE, kRelu = ANEURALNETWORKS_FUSED_RELU,
                  kRelu6 = ANEURALNETWORKS_FUSED_RELU6, kRelu1 = ANEURALNETWORKS_FUSED_RELU1;
constexpr int32_t kSame = ANEURALNETWORKS_PADDING_SAME, kValid = ANEURALNETWORKS_PADDING_VALID;

// The output size of a 3x3 window.
uint32_t outSize(uint32_t in, int32_t stride, int32_t implicit, int32_t padA, int32_t padB) {
  if (implicit == ANEURALNETWORKS_PADDING_SAME) return (in + stride - 1) / stride;
  if (implicit == ANEURALNETWORKS_PADDING_VALID) return (in - 3) / stride + 1;
  return (in + padA + padB - 3) / stride + 1;
}

// in -> DEPTHWISE_CONV_2D 3x3 (weights wd, bias bd; implicit padding when > 0, else explicit
// {top, bottom, left, right}) -> out.
void addDepthwise3x3(ModelBuilder* mb, uint32_t in, uint32_t wd, uint32_t bd, int32_t implicit,
                     const int32_t (&pad)[4], int32_t stride, int32_t act, uint32_t out) {
  ModelBuilder& m = *mb;
  if (implicit > 0) {
    m.addOperation(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
                   {in, wd, bd, m.addInt32(implicit), m.addInt32(stride), m.addInt32(stride),
                    m.addInt32(1), m.addInt32(act)},
                   {out});
  } else {
    m.addOperation(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
                   {in, wd, bd, m.addInt32(pad[2]), m.addInt32(pad[3]), m.addInt32(pad[0]),
                    m.addInt32(pad[1]), m.addInt32(stride), m.addInt32(stride), m.addInt32(1),
                    m.addInt32(act)},
                   {out});
  }
}

struct Built {
  ModelBuilder m;
  std::vector<std::vector<uint8_t>> inputs;
  size_t outBytes = 0;
  // Set when the model leaves the input's height and width unknown (and every later shape):
  // the full shape given at execution time.
  std::vector<uint32_t> runInputDims;
};

nntest::RunResult run(const Built& b, const char* device, bool fused, const char* threads) {
  setenv("NNAPI_CPU_THREADS", threads, 1);
  setenv("NNAPI_CPU_ADAPT_THREADS", "0", 1);  // two threads even on a busy machine
  if (!fused) setenv("NNAPI_CPU_BAND_FUSION", "0", 1);
  // With runInputDims, the input's full shape given at execution time.
  const ANeuralNetworksOperandType type{kF32, static_cast<uint32_t>(b.runInputDims.size()),
                                        b.runInputDims.data(), 0.f, 0};
  nntest::RunResult r =
      nntest::runModel(b.m, b.inputs, {b.outBytes}, device,
                       {b.runInputDims.empty() ? nullptr : &type});
  unsetenv("NNAPI_CPU_BAND_FUSION");
  unsetenv("NNAPI_CPU_THREADS");
  unsetenv("NNAPI_CPU_ADAPT_THREADS");
  return r;
}

// Fused (where `fuses` and the processor has AVX-512; `runs` counts the fused kernel's runs) or
// not, the same bits as with the fusion off, and the reference's values within float tolerance.
void expectSameBits(const Built& b, uint64_t (*runs)(), bool fuses) {
  const nntest::RunResult ref = run(b, "nnapi-cpu-reference", true, "1");
  ASSERT_EQ(ref.status, ANEURALNETWORKS_NO_ERROR) << ref.step;
  for (const char* threads : {"1", "2"}) {
    SCOPED_TRACE(std::string("threads ") + threads);
    const uint64_t before = runs();
    const nntest::RunResult fused = run(b, "nnapi-cpu", true, threads);
    const uint64_t ran = runs() - before;
    const nntest::RunResult plain = run(b, "nnapi-cpu", false, threads);
    ASSERT_EQ(fused.status, ANEURALNETWORKS_NO_ERROR) << fused.step;
    ASSERT_EQ(plain.status, ANEURALNETWORKS_NO_ERROR) << plain.step;
    if (!fuses || nn::isaLevel() < nn::IsaLevel::kAvx512) {
      EXPECT_EQ(ran, 0u) << "fused a pair that does not qualify";
    } else {
      EXPECT_GE(ran, 1u) << "the pair was not fused";
    }
    EXPECT_EQ(runs() - before, ran) << "fused with NNAPI_CPU_BAND_FUSION=0";
    ASSERT_EQ(fused.outputs.size(), 1u);
    const std::vector<float> a = valuesOf<float>(fused.outputs[0]);
    const std::vector<float> p = valuesOf<float>(plain.outputs[0]);
    const std::vector<float> r = valuesOf<float>(ref.outputs[0]);
    ASSERT_EQ(a.size(), p.size());
    ASSERT_EQ(a.size(), r.size());
    size_t firstDiff = a.size();
    for (size_t i = 0; i < a.size() && firstDiff == a.size(); ++i)
      if (std::memcmp(&a[i], &p[i], sizeof(float)) != 0) firstDiff = i;
    EXPECT_EQ(firstDiff, a.size()) << "fused and unfused differ first at element " << firstDiff
                                   << ": " << a[firstDiff] << " vs " << p[firstDiff];
    for (size_t i = 0; i < a.size(); ++i)
      ASSERT_NEAR(a[i], r[i], 1e-4f * (1.f + std::fabs(r[i]))) << "element " << i;
  }
}


// The model with the input's height and width unknown until execution (`dynamic`, shapes
// inferred per run, so nothing is fused) gives the static model's output shape and, within
// float tolerance, its values (its layers may run on other kernels, which round differently).
void expectDynamicSame(const Built& st, const Built& dy, uint64_t (*runs)()) {
  expectSameBits(dy, runs, false);
  for (const char* threads : {"1", "2"}) {
    SCOPED_TRACE(std::string("threads ") + threads);
    const nntest::RunResult a = run(st, "nnapi-cpu", true, threads);
    const nntest::RunResult d = run(dy, "nnapi-cpu", true, threads);
    ASSERT_EQ(a.status, ANEURALNETWORKS_NO_ERROR) << a.step;
    ASSERT_EQ(d.status, ANEURALNETWORKS_NO_ERROR) << d.step;
    EXPECT_EQ(d.outputDims, a.outputDims);
    ASSERT_EQ(d.outputs.size(), 1u);
    const std::vector<float> x = valuesOf<float>(a.outputs[0]);
    const std::vector<float> y = valuesOf<float>(d.outputs[0]);
    ASSERT_EQ(x.size(), y.size());
    for (size_t i = 0; i < x.size(); ++i)
      ASSERT_NEAR(y[i], x[i], 1e-5f * (1.f + std::fabs(x[i]))) << "element " << i;
  }
}

}  // namespace

// ---- expansion + depthwise ----------------------------------------------------------------------

namespace {
namespace expand {

struct Case {
  uint32_t h, w, inC, expC;
  int32_t stride;
  // Implicit padding (1 SAME, 2 VALID) when > 0; else explicit {top, bottom, left, right}.
  int32_t implicit;
  int32_t pad[4];
  int32_t convAct, dwAct;
  bool dwOutputIsModelOutput = true;
};

std::string describe(const Case& c) {
  return std::to_string(c.h) + "x" + std::to_string(c.w) + "x" + std::to_string(c.inC) + "->" +
         std::to_string(c.expC) + " stride " + std::to_string(c.stride) + " implicit " +
         std::to_string(c.implicit) + " pads " + std::to_string(c.pad[0]) + "," +
         std::to_string(c.pad[1]) + "," + std::to_string(c.pad[2]) + "," +
         std::to_string(c.pad[3]) + " acts " + std::to_string(c.convAct) + "/" +
         std::to_string(c.dwAct);
}

// x -> CONV_2D 1x1 (expC, convAct) -> DEPTHWISE_CONV_2D 3x3 (stride, padding, dwAct) -> y.
// `dynamic`: x's height and width and every later shape unknown until execution.
void build(const Case& c, Built* b, bool dynamic = false) {
  ModelBuilder& m = b->m;
  const uint32_t x = m.addOperand(kF32, {1, dynamic ? 0 : c.h, dynamic ? 0 : c.w, c.inC});
  if (dynamic) b->runInputDims = {1, c.h, c.w, c.inC};
  b->inputs.push_back(bytesOf(randomFloats(static_cast<size_t>(c.h) * c.w * c.inC, 1)));
  const uint32_t wc = m.addConstant<float>(kF32, {c.expC, 1, 1, c.inC},
                                           randomFloats(static_cast<size_t>(c.expC) * c.inC, 2));
  const uint32_t bc = m.addConstant<float>(kF32, {c.expC}, randomFloats(c.expC, 3));
  const std::vector<uint32_t> unknown(4, 0);
  const uint32_t t =
      m.addOperand(kF32, dynamic ? unknown : std::vector<uint32_t>{1, c.h, c.w, c.expC});
  m.addOperation(ANEURALNETWORKS_CONV_2D,
                 {x, wc, bc, m.addInt32(0), m.addInt32(0), m.addInt32(0), m.addInt32(0),
                  m.addInt32(1), m.addInt32(1), m.addInt32(c.convAct)},
                 {t});
  const uint32_t wd = m.addConstant<float>(kF32, {1, 3, 3, c.expC},
                                           randomFloats(static_cast<size_t>(9) * c.expC, 4));
  const uint32_t bd = m.addConstant<float>(kF32, {c.expC}, randomFloats(c.expC, 5));
  const uint32_t oh = outSize(c.h, c.stride, c.implicit, c.pad[0], c.pad[1]);
  const uint32_t ow = outSize(c.w, c.stride, c.implicit, c.pad[2], c.pad[3]);
  const uint32_t y =
      m.addOperand(kF32, dynamic ? unknown : std::vector<uint32_t>{1, oh, ow, c.expC});
  addDepthwise3x3(&m, t, wd, bd, c.implicit, c.pad, c.stride, c.dwAct, y);
  ASSERT_EQ(m.finish({x}, {y}), ANEURALNETWORKS_NO_ERROR);
  b->outBytes = static_cast<size_t>(oh) * ow * c.expC * sizeof(float);
}

void expectSame(const Case& c, bool fuses = true) {
  SCOPED_TRACE(describe(c));
  Built b;
  build(c, &b);
  expectSameBits(b, &nn::expandDepthwiseRuns, fuses);
}

// hand_landmark's 112x112x16 -> 64, stride 2, SAME (XNNPACK's depthwise when apart).
TEST(CpuBandFusion, HandLandmarkShape) {
  expectSame({112, 112, 16, 64, 2, kSame, {0, 0, 0, 0}, kNone, kNone});
}

// Stride 2 with many channels (XNNPACK's order), odd sizes, each padding form.
TEST(CpuBandFusion, StrideTwoOddSizesAndPaddings) {
  expectSame({45, 67, 8, 100, 2, kSame, {0, 0, 0, 0}, kRelu6, kRelu});
  expectSame({45, 67, 8, 100, 2, kValid, {0, 0, 0, 0}, kNone, kRelu6});
  expectSame({47, 66, 8, 100, 2, 0, {1, 1, 1, 1}, kRelu, kNone});
  expectSame({65, 49, 5, 96, 2, 0, {0, 2, 2, 0}, kRelu1, kRelu1});
  expectSame({64, 50, 3, 90, 2, 0, {2, 1, 0, 3}, kNone, kRelu});
}

// Shapes known only at execution: the pair runs apart, with the same result.
TEST(CpuBandFusion, DynamicShapesRunApart) {
  const Case c{112, 112, 16, 64, 2, kSame, {0, 0, 0, 0}, kRelu6, kNone};
  SCOPED_TRACE(describe(c));
  Built st, dy;
  build(c, &st);
  build(c, &dy, true);
  expectDynamicSame(st, dy, &nn::expandDepthwiseRuns);
}

// Not fused, same bits: where the depthwise layer runs on the direct kernels (few channels at
// stride 2; stride 1 with up to 96 channels or on maps 28 and wider), stride 1 on XNNPACK (maps
// narrower than 28: too narrow for the fused form), a map narrower than 48, or a small
// expansion.
TEST(CpuBandFusion, NotFusedElsewhere) {
  expectSame({121, 77, 8, 32, 2, kSame, {0, 0, 0, 0}, kRelu6, kNone}, false);
  expectSame({57, 61, 16, 96, 1, kSame, {0, 0, 0, 0}, kNone, kRelu6}, false);
  expectSame({40, 27, 24, 256, 1, kSame, {0, 0, 0, 0}, kRelu6, kNone}, false);
  expectSame({96, 40, 8, 128, 2, kSame, {0, 0, 0, 0}, kNone, kNone}, false);
  expectSame({20, 20, 16, 64, 2, kSame, {0, 0, 0, 0}, kNone, kNone}, false);
}

}  // namespace expand
}  // namespace

// ---- depthwise + projection ---------------------------------------------------------------------

namespace {
namespace project {

struct Case {
  uint32_t batches, h, w, c, outC;
  int32_t stride;
  // Implicit padding (1 SAME, 2 VALID) when > 0; else explicit {top, bottom, left, right}.
  int32_t implicit;
  int32_t pad[4];
  int32_t dwAct, convAct;
};

std::string describe(const Case& c) {
  return std::to_string(c.batches) + "x" + std::to_string(c.h) + "x" + std::to_string(c.w) +
         "x" + std::to_string(c.c) + "->" + std::to_string(c.outC) + " stride " +
         std::to_string(c.stride) + " implicit " + std::to_string(c.implicit) + " pads " +
         std::to_string(c.pad[0]) + "," + std::to_string(c.pad[1]) + "," +
         std::to_string(c.pad[2]) + "," + std::to_string(c.pad[3]) + " acts " +
         std::to_string(c.dwAct) + "/" + std::to_string(c.convAct);
}

// x -> DEPTHWISE_CONV_2D 3x3 (stride, padding, dwAct) -> CONV_2D 1x1 (outC, convAct) -> y.
// `dynamic`: x's height and width and every later shape unknown until execution.
void build(const Case& c, Built* b, bool dynamic = false) {
  ModelBuilder& m = b->m;
  const uint32_t x =
      m.addOperand(kF32, {c.batches, dynamic ? 0 : c.h, dynamic ? 0 : c.w, c.c});
  if (dynamic) b->runInputDims = {c.batches, c.h, c.w, c.c};
  b->inputs.push_back(
      bytesOf(randomFloats(static_cast<size_t>(c.batches) * c.h * c.w * c.c, 1)));
  const uint32_t wd = m.addConstant<float>(kF32, {1, 3, 3, c.c},
                                           randomFloats(static_cast<size_t>(9) * c.c, 4));
  const uint32_t bd = m.addConstant<float>(kF32, {c.c}, randomFloats(c.c, 5));
  const uint32_t oh = outSize(c.h, c.stride, c.implicit, c.pad[0], c.pad[1]);
  const uint32_t ow = outSize(c.w, c.stride, c.implicit, c.pad[2], c.pad[3]);
  const std::vector<uint32_t> unknown(4, 0);
  const uint32_t t =
      m.addOperand(kF32, dynamic ? unknown : std::vector<uint32_t>{c.batches, oh, ow, c.c});
  addDepthwise3x3(&m, x, wd, bd, c.implicit, c.pad, c.stride, c.dwAct, t);
  const uint32_t wc = m.addConstant<float>(kF32, {c.outC, 1, 1, c.c},
                                           randomFloats(static_cast<size_t>(c.outC) * c.c, 2));
  const uint32_t bc = m.addConstant<float>(kF32, {c.outC}, randomFloats(c.outC, 3));
  const uint32_t y =
      m.addOperand(kF32, dynamic ? unknown : std::vector<uint32_t>{c.batches, oh, ow, c.outC});
  m.addOperation(ANEURALNETWORKS_CONV_2D,
                 {t, wc, bc, m.addInt32(0), m.addInt32(0), m.addInt32(0), m.addInt32(0),
                  m.addInt32(1), m.addInt32(1), m.addInt32(c.convAct)},
                 {y});
  ASSERT_EQ(m.finish({x}, {y}), ANEURALNETWORKS_NO_ERROR);
  b->outBytes = static_cast<size_t>(c.batches) * oh * ow * c.outC * sizeof(float);
}

void expectSame(const Case& c, bool fuses = true) {
  SCOPED_TRACE(describe(c));
  Built b;
  build(c, &b);
  expectSameBits(b, &nn::depthwiseProjectRuns, fuses);
}

// hand_landmark's 112x112x24 -> 16 after the stem (stride 1, SAME).
TEST(CpuProjectFusion, HandLandmarkShape) {
  expectSame({1, 112, 112, 24, 16, 1, kSame, {0, 0, 0, 0}, kNone, kNone});
}

// Odd sizes, each padding form, the direct kernel's channel forms, two images.
TEST(CpuProjectFusion, OddSizesPaddingsAndChannels) {
  expectSame({1, 131, 97, 24, 16, 1, kSame, {0, 0, 0, 0}, kRelu6, kNone});
  expectSame({1, 190, 185, 8, 8, 1, kValid, {0, 0, 0, 0}, kRelu, kRelu6});
  expectSame({1, 83, 91, 40, 24, 1, 0, {2, 0, 1, 2}, kRelu1, kRelu});
  expectSame({1, 241, 221, 24, 20, 2, 0, {1, 1, 1, 1}, kNone, kRelu1});
  expectSame({2, 96, 90, 24, 32, 1, kSame, {0, 0, 0, 0}, kNone, kNone});
}

// The pixel-pair kernel (3x3 stride 1, 24, 32, 40 or 56 channels, at most 16 outputs): odd
// widths (a last pair half outside the row), explicit paddings 0-2 on either side, two images
// (the ring of padded rows across the image boundary), fewer than 16 outputs, activations on
// both layers.
TEST(CpuProjectFusion, PixelPairKernel) {
  expectSame({1, 120, 117, 24, 16, 1, kSame, {0, 0, 0, 0}, kRelu, kRelu6});
  expectSame({2, 97, 101, 24, 13, 1, kSame, {0, 0, 0, 0}, kNone, kRelu1});
  expectSame({1, 101, 103, 40, 16, 1, 0, {0, 2, 2, 0}, kRelu6, kNone});
  expectSame({1, 89, 95, 56, 9, 1, 0, {2, 1, 0, 1}, kNone, kRelu});
  expectSame({1, 113, 112, 24, 16, 1, kValid, {0, 0, 0, 0}, kRelu1, kNone});
  expectSame({1, 90, 99, 32, 12, 1, kSame, {0, 0, 0, 0}, kRelu, kNone});
}

// At most 8 outputs, the 1x1 layer on pixel pairs too (both pixels' outputs in one vector):
// face_detection_full_range's 96x96x32 -> 8, widths that end in whole groups of pairs, in a
// partial group, on an odd pixel, and 3, 4, 5 and 7 outputs.
TEST(CpuProjectFusion, PixelPairProjection) {
  expectSame({1, 96, 96, 32, 8, 1, kSame, {0, 0, 0, 0}, kNone, kRelu});
  expectSame({2, 93, 105, 32, 5, 1, 0, {1, 2, 0, 2}, kRelu6, kNone});
  expectSame({1, 100, 111, 24, 8, 1, kSame, {0, 0, 0, 0}, kRelu1, kRelu6});
  expectSame({1, 97, 114, 40, 7, 1, kValid, {0, 0, 0, 0}, kNone, kRelu1});
  expectSame({1, 91, 87, 56, 4, 1, kSame, {0, 0, 0, 0}, kRelu, kNone});
  expectSame({1, 88, 121, 32, 3, 1, kSame, {0, 0, 0, 0}, kNone, kNone});
}

// Shapes known only at execution: the pair runs apart, with the same result.
TEST(CpuProjectFusion, DynamicShapesRunApart) {
  const Case c{1, 112, 112, 24, 16, 1, kSame, {0, 0, 0, 0}, kNone, kRelu};
  SCOPED_TRACE(describe(c));
  Built st, dy;
  build(c, &st);
  build(c, &dy, true);
  expectDynamicSame(st, dy, &nn::depthwiseProjectRuns);
}

// x [batches, 2h, 2w, stemIn] -> CONV_2D 3x3 stride 2 (SAME, or explicit {1, 1, 1, 1} when
// `explicitPad`, stemAct) -> the pair of `c` (its input [batches, h', w', c.c]).
void buildWithStem(const Case& c, bool explicitPad, int32_t stemAct, Built* b,
                   bool relaxed = false, uint32_t stemIn = 3) {
  ModelBuilder& m = b->m;
  const uint32_t ih = 2 * c.h, iw = 2 * c.w;
  const uint32_t x = m.addOperand(kF32, {c.batches, ih, iw, stemIn});
  b->inputs.push_back(
      bytesOf(randomFloats(static_cast<size_t>(c.batches) * ih * iw * stemIn, 6)));
  const uint32_t ws = m.addConstant<float>(kF32, {c.c, 3, 3, stemIn},
                                           randomFloats(static_cast<size_t>(c.c) * 9 * stemIn, 7));
  const uint32_t bs = m.addConstant<float>(kF32, {c.c}, randomFloats(c.c, 8));
  const uint32_t sh = outSize(ih, 2, explicitPad ? 0 : kSame, 1, 1);
  const uint32_t sw = outSize(iw, 2, explicitPad ? 0 : kSame, 1, 1);
  const uint32_t s = m.addOperand(kF32, {c.batches, sh, sw, c.c});
  if (explicitPad) {
    m.addOperation(ANEURALNETWORKS_CONV_2D,
                   {x, ws, bs, m.addInt32(1), m.addInt32(1), m.addInt32(1), m.addInt32(1),
                    m.addInt32(2), m.addInt32(2), m.addInt32(stemAct)},
                   {s});
  } else {
    m.addOperation(ANEURALNETWORKS_CONV_2D,
                   {x, ws, bs, m.addInt32(kSame), m.addInt32(2), m.addInt32(2),
                    m.addInt32(stemAct)},
                   {s});
  }
  const uint32_t wd = m.addConstant<float>(kF32, {1, 3, 3, c.c},
                                           randomFloats(static_cast<size_t>(9) * c.c, 4));
  const uint32_t bd = m.addConstant<float>(kF32, {c.c}, randomFloats(c.c, 5));
  const uint32_t oh = outSize(sh, c.stride, c.implicit, c.pad[0], c.pad[1]);
  const uint32_t ow = outSize(sw, c.stride, c.implicit, c.pad[2], c.pad[3]);
  const uint32_t t = m.addOperand(kF32, {c.batches, oh, ow, c.c});
  addDepthwise3x3(&m, s, wd, bd, c.implicit, c.pad, c.stride, c.dwAct, t);
  const uint32_t wc = m.addConstant<float>(kF32, {c.outC, 1, 1, c.c},
                                           randomFloats(static_cast<size_t>(c.outC) * c.c, 2));
  const uint32_t bc = m.addConstant<float>(kF32, {c.outC}, randomFloats(c.outC, 3));
  const uint32_t y = m.addOperand(kF32, {c.batches, oh, ow, c.outC});
  m.addOperation(ANEURALNETWORKS_CONV_2D,
                 {t, wc, bc, m.addInt32(0), m.addInt32(0), m.addInt32(0), m.addInt32(0),
                  m.addInt32(1), m.addInt32(1), m.addInt32(c.convAct)},
                 {y});
  ASSERT_EQ(m.finish({x}, {y}, relaxed), ANEURALNETWORKS_NO_ERROR);
  b->outBytes = static_cast<size_t>(c.batches) * oh * ow * c.outC * sizeof(float);
}

void expectSameWithStem(const Case& c, bool explicitPad, int32_t stemAct, bool fuses = true,
                        uint32_t stemIn = 3) {
  SCOPED_TRACE(describe(c) + (explicitPad ? " stem explicit" : " stem SAME") + " stem act " +
               std::to_string(stemAct) + " stem channels " + std::to_string(stemIn));
  Built b;
  buildWithStem(c, explicitPad, stemAct, &b, false, stemIn);
  expectSameBits(b, &nn::depthwiseProjectStemRuns, fuses);
}

// The stem convolution (3 channels, 3x3 stride 2) writing the pair's input runs in the pair's
// step too (depthwiseProjectStemFusable): hand_landmark's 224x224x3 -> 112x112x24 -> 16, odd
// sizes, explicit paddings, two images (stem rows computed per image), activations, 2 to 4
// input channels.
TEST(CpuProjectFusion, WithStem) {
  expectSameWithStem({1, 112, 112, 24, 16, 1, kSame, {0, 0, 0, 0}, kNone, kNone}, false, kRelu,
                     true, 4);
  expectSameWithStem({2, 61, 57, 40, 16, 1, kSame, {0, 0, 0, 0}, kRelu, kNone}, true, kNone,
                     true, 2);
  expectSameWithStem({1, 112, 112, 24, 16, 1, kSame, {0, 0, 0, 0}, kNone, kNone}, false, kRelu);
  expectSameWithStem({2, 97, 103, 24, 11, 1, kSame, {0, 0, 0, 0}, kRelu6, kRelu}, true, kNone);
  expectSameWithStem({1, 91, 99, 40, 16, 1, 0, {2, 1, 0, 2}, kNone, kRelu1}, false, kRelu6);
  expectSameWithStem({1, 117, 111, 56, 16, 1, kValid, {0, 0, 0, 0}, kRelu, kNone}, true, kRelu1);
  expectSameWithStem({1, 96, 95, 32, 8, 1, kSame, {0, 0, 0, 0}, kNone, kRelu}, false, kRelu);
  // Not with the stem: the pixel-pair kernel does not take the pair (32 outputs; stride 2).
  expectSameWithStem({1, 112, 112, 24, 32, 1, kSame, {0, 0, 0, 0}, kNone, kNone}, false, kNone,
                     false);
  expectSameWithStem({1, 224, 224, 24, 16, 2, kSame, {0, 0, 0, 0}, kNone, kNone}, false, kNone,
                     false);
}

// A relaxed model: the stem's output stays float32 and the three layers keep float32 kernels,
// so the fused run gives the unfused run's bits there too.
TEST(CpuProjectFusion, WithStemRelaxed) {
  const Case c{1, 112, 112, 24, 16, 1, kSame, {0, 0, 0, 0}, kNone, kNone};
  Built b;
  buildWithStem(c, false, kRelu, &b, true);
  for (const char* threads : {"1", "2"}) {
    SCOPED_TRACE(std::string("threads ") + threads);
    const uint64_t before = nn::depthwiseProjectStemRuns();
    const nntest::RunResult fused = run(b, "nnapi-cpu", true, threads);
    const uint64_t ran = nn::depthwiseProjectStemRuns() - before;
    const nntest::RunResult plain = run(b, "nnapi-cpu", false, threads);
    ASSERT_EQ(fused.status, ANEURALNETWORKS_NO_ERROR) << fused.step;
    ASSERT_EQ(plain.status, ANEURALNETWORKS_NO_ERROR) << plain.step;
    if (nn::isaLevel() >= nn::IsaLevel::kAvx512) {
      EXPECT_GE(ran, 1u) << "the stem did not join the pair";
    }
    ASSERT_EQ(fused.outputs.size(), 1u);
    ASSERT_EQ(plain.outputs.size(), 1u);
    EXPECT_EQ(fused.outputs[0], plain.outputs[0]);
  }
}

// Not fused, same bits: a small map (the depthwise output stays in L2), a 1x1 layer with
// 1-2 output channels (the narrow direct kernel, not the panel GEMM), a stride-2 depthwise
// layer with more than 32 channels (XNNPACK's).
TEST(CpuProjectFusion, NotFusedElsewhere) {
  expectSame({1, 181, 171, 40, 20, 2, 0, {1, 1, 1, 1}, kNone, kRelu1}, false);
  expectSame({1, 56, 56, 24, 16, 1, kSame, {0, 0, 0, 0}, kNone, kNone}, false);
  expectSame({1, 112, 112, 24, 2, 1, kSame, {0, 0, 0, 0}, kNone, kNone}, false);
}

}  // namespace project
}  // namespace

// ---- float16 expansion + depthwise (relaxed) --------------------------------------------------

namespace {
namespace expand_half {

struct Case {
  uint32_t batches, h, w, inC, expC;
  int32_t stride;
  int32_t implicit;  // 1 SAME, 2 VALID; else explicit pad
  int32_t pad[4];
  int32_t convAct, dwAct;
};

// A relaxed model x -> CONV_2D 1x1 (expC) -> DEPTHWISE_CONV_2D 3x3 -> CONV_2D 1x1 (-> 24) -> y:
// the CPU driver stores both intermediates in float16 (the last 1x1 layer reads float16), so
// the first two layers are the float16 pair.
void build(const Case& c, Built* b) {
  ModelBuilder& m = b->m;
  const uint32_t x = m.addOperand(kF32, {c.batches, c.h, c.w, c.inC});
  b->inputs.push_back(
      bytesOf(randomFloats(static_cast<size_t>(c.batches) * c.h * c.w * c.inC, 1)));
  const uint32_t wc = m.addConstant<float>(kF32, {c.expC, 1, 1, c.inC},
                                           randomFloats(static_cast<size_t>(c.expC) * c.inC, 2));
  const uint32_t bc = m.addConstant<float>(kF32, {c.expC}, randomFloats(c.expC, 3));
  const uint32_t t = m.addOperand(kF32, {c.batches, c.h, c.w, c.expC});
  m.addOperation(ANEURALNETWORKS_CONV_2D,
                 {x, wc, bc, m.addInt32(0), m.addInt32(0), m.addInt32(0), m.addInt32(0),
                  m.addInt32(1), m.addInt32(1), m.addInt32(c.convAct)},
                 {t});
  const uint32_t wd = m.addConstant<float>(kF32, {1, 3, 3, c.expC},
                                           randomFloats(static_cast<size_t>(9) * c.expC, 4));
  const uint32_t bd = m.addConstant<float>(kF32, {c.expC}, randomFloats(c.expC, 5));
  const uint32_t oh = outSize(c.h, c.stride, c.implicit, c.pad[0], c.pad[1]);
  const uint32_t ow = outSize(c.w, c.stride, c.implicit, c.pad[2], c.pad[3]);
  const uint32_t u = m.addOperand(kF32, {c.batches, oh, ow, c.expC});
  addDepthwise3x3(&m, t, wd, bd, c.implicit, c.pad, c.stride, c.dwAct, u);
  const uint32_t wp = m.addConstant<float>(kF32, {24, 1, 1, c.expC},
                                           randomFloats(static_cast<size_t>(24) * c.expC, 6));
  const uint32_t bp = m.addConstant<float>(kF32, {24}, randomFloats(24, 7));
  const uint32_t y = m.addOperand(kF32, {c.batches, oh, ow, 24});
  m.addOperation(ANEURALNETWORKS_CONV_2D,
                 {u, wp, bp, m.addInt32(0), m.addInt32(0), m.addInt32(0), m.addInt32(0),
                  m.addInt32(1), m.addInt32(1), m.addInt32(kNone)},
                 {y});
  ASSERT_EQ(m.finish({x}, {y}, /*relaxed=*/true), ANEURALNETWORKS_NO_ERROR);
  b->outBytes = static_cast<size_t>(c.batches) * oh * ow * 24 * sizeof(float);
}

// Fused where the processor has the float16 kernels and `fuses`, at 1 and 2 threads (each thread
// a range of output rows with its own ring), the same bits as with the fusion off; within
// relaxed tolerance of the reference device.
void expectSame(const Case& c, bool fuses = true) {
  SCOPED_TRACE(std::to_string(c.batches) + "x" + std::to_string(c.h) + "x" + std::to_string(c.w) +
               "x" + std::to_string(c.inC) + "->" + std::to_string(c.expC) + " stride " +
               std::to_string(c.stride) + " implicit " + std::to_string(c.implicit));
  Built b;
  build(c, &b);
  const nntest::RunResult ref = run(b, "nnapi-cpu-reference", true, "1");
  ASSERT_EQ(ref.status, ANEURALNETWORKS_NO_ERROR) << ref.step;
  for (const char* threads : {"1", "2"}) {
    SCOPED_TRACE(std::string("threads ") + threads);
    const uint64_t before = nn::expandDepthwiseHalfRuns();
    const nntest::RunResult fused = run(b, "nnapi-cpu", true, threads);
    const uint64_t ran = nn::expandDepthwiseHalfRuns() - before;
    const nntest::RunResult plain = run(b, "nnapi-cpu", false, threads);
    ASSERT_EQ(fused.status, ANEURALNETWORKS_NO_ERROR) << fused.step;
    ASSERT_EQ(plain.status, ANEURALNETWORKS_NO_ERROR) << plain.step;
    if (fuses && nn::conv::halfGemmAvailable()) {
      EXPECT_GE(ran, 1u) << "the pair was not fused";
    } else {
      EXPECT_EQ(ran, 0u) << "fused a pair that does not qualify";
    }
    EXPECT_EQ(nn::expandDepthwiseHalfRuns() - before, ran) << "fused with the fusion off";
    ASSERT_EQ(fused.outputs.size(), 1u);
    ASSERT_EQ(plain.outputs.size(), 1u);
    EXPECT_TRUE(fused.outputs[0] == plain.outputs[0]) << "fused and unfused differ";
    const std::vector<float> a = valuesOf<float>(fused.outputs[0]);
    const std::vector<float> r = valuesOf<float>(ref.outputs[0]);
    ASSERT_EQ(a.size(), r.size());
    float maxRef = 0.f, maxDiff = 0.f;
    for (size_t i = 0; i < a.size(); ++i) {
      maxRef = std::max(maxRef, std::fabs(r[i]));
      maxDiff = std::max(maxDiff, std::fabs(a[i] - r[i]));
    }
    EXPECT_LE(maxDiff, 1e-2f * maxRef) << "relaxed result far from the reference";
  }
}

// hand_landmark's 112x112x16 -> 64, stride 2, SAME; odd sizes, explicit paddings (a window
// row above the image), two images, activations.
TEST(CpuExpandHalfFusion, Shapes) {
  expectSame({1, 112, 112, 16, 64, 2, kSame, {0, 0, 0, 0}, kNone, kRelu6});
  expectSame({1, 97, 101, 24, 144, 2, kSame, {0, 0, 0, 0}, kRelu6, kNone});
  expectSame({2, 75, 93, 16, 96, 2, 0, {1, 2, 1, 0}, kRelu, kRelu1});
  expectSame({1, 121, 64, 32, 72, 2, kValid, {0, 0, 0, 0}, kNone, kNone});
}

// Not fused: stride 1, an expansion output under 1 MB (it stays in L2), a map under 48 wide
// (short row GEMMs), an expansion to fewer than 32 channels (the narrow float16 GEMM).
TEST(CpuExpandHalfFusion, NotFusedElsewhere) {
  expectSame({1, 97, 101, 24, 144, 1, kSame, {0, 0, 0, 0}, kRelu6, kNone}, false);
  expectSame({1, 56, 56, 16, 96, 2, kSame, {0, 0, 0, 0}, kNone, kNone}, false);
  expectSame({1, 400, 40, 16, 64, 2, kSame, {0, 0, 0, 0}, kNone, kNone}, false);
  expectSame({1, 256, 256, 32, 24, 2, kSame, {0, 0, 0, 0}, kNone, kNone}, false);
}

}  // namespace expand_half
}  // namespace
