// The fast CPU device's graph fusions (cpu/graph_fusion.h) on small graphs: where each one
// must apply and where it must not (checked on the rewritten model), and that the fast device
// gives the same bits with and without the pass (NNAPI_CPU_FUSION=0), and values within float
// tolerance of the reference device. Also the fast float32 NHWC RESIZE_BILINEAR against the
// reference kernel, bit for bit.
#include <gtest/gtest.h>

#include <android/NeuralNetworks.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <random>

#include "cpu/graph_fusion.h"
#include "cpu/kernels/gemm_half.h"
#include "cpu/kernels/stem_half.h"
#include "runtime/api_util.h"
#include "runtime/model.h"
#include "test_util.h"

namespace {

using nntest::bytesOf;
using nntest::ModelBuilder;
using nntest::randomFloats;
using nntest::valuesOf;

constexpr int kF32 = ANEURALNETWORKS_TENSOR_FLOAT32;
constexpr int kI32 = ANEURALNETWORKS_TENSOR_INT32;
constexpr int kQ8 = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
constexpr int kNone = ANEURALNETWORKS_FUSED_NONE;

size_t count(const std::vector<uint32_t>& d) {
  size_t n = 1;
  for (uint32_t v : d) n *= v;
  return n;
}

// A graph under test: the builder, its inputs and its output byte sizes.
struct Graph {
  ModelBuilder m;
  std::vector<std::vector<uint8_t>> inputs;
  std::vector<size_t> outputBytes;
  std::vector<bool> outputFloat;
  std::vector<uint32_t> inputIndexes, outputIndexes;
  uint32_t seed = 1;

  uint32_t input(const std::vector<uint32_t>& dims) {
    const uint32_t i = m.addOperand(kF32, dims);
    inputs.push_back(bytesOf(randomFloats(count(dims), seed++)));
    inputIndexes.push_back(i);
    return i;
  }
  uint32_t weights(const std::vector<uint32_t>& dims) {
    return m.addConstant<float>(kF32, dims, randomFloats(count(dims), seed++));
  }
  uint32_t temp(const std::vector<uint32_t>& dims, int type = kF32, float scale = 0.f,
                int32_t zero = 0) {
    return m.addOperand(type, dims, scale, zero);
  }
  void output(uint32_t i, size_t bytes, bool isFloat = true) {
    outputIndexes.push_back(i);
    outputBytes.push_back(bytes);
    outputFloat.push_back(isFloat);
  }
  void finish() { ASSERT_EQ(m.finish(inputIndexes, outputIndexes), ANEURALNETWORKS_NO_ERROR); }

  nn::FusionCounts fusions() const {
    nn::FusionCounts c;
    fuseForCpu(nn::fromHandle(m.get())->model(), &c);
    return c;
  }
};

nntest::RunResult runOn(const Graph& g, const char* device, bool fusion) {
  if (!fusion) setenv("NNAPI_CPU_FUSION", "0", 1);
  nntest::RunResult r = nntest::runModel(g.m, g.inputs, g.outputBytes, device);
  unsetenv("NNAPI_CPU_FUSION");
  return r;
}

// The fast device with the fusions equals it without them bit for bit, and the reference
// within float tolerance.
void expectSameResults(const Graph& g) {
  const nntest::RunResult fused = runOn(g, "nnapi-cpu", true);
  const nntest::RunResult plain = runOn(g, "nnapi-cpu", false);
  const nntest::RunResult ref = runOn(g, "nnapi-cpu-reference", true);
  ASSERT_EQ(fused.status, ANEURALNETWORKS_NO_ERROR) << fused.step;
  ASSERT_EQ(plain.status, ANEURALNETWORKS_NO_ERROR) << plain.step;
  ASSERT_EQ(ref.status, ANEURALNETWORKS_NO_ERROR) << ref.step;
  ASSERT_EQ(fused.outputs.size(), plain.outputs.size());
  for (size_t o = 0; o < fused.outputs.size(); ++o) {
    EXPECT_EQ(fused.outputs[o], plain.outputs[o]) << "output " << o << " differs bitwise";
    if (!g.outputFloat[o]) {
      EXPECT_EQ(fused.outputs[o], ref.outputs[o]) << "output " << o;
      continue;
    }
    const std::vector<float> a = valuesOf<float>(fused.outputs[o]);
    const std::vector<float> b = valuesOf<float>(ref.outputs[o]);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i)
      ASSERT_NEAR(a[i], b[i], 1e-4f * (1.f + std::fabs(b[i]))) << "output " << o << " [" << i << "]";
  }
}

// CONV_2D [1,8,8,4] -> [1,8,8,5], 3x3, explicit padding 1, activation `act`; returns its output.
uint32_t conv3x3(Graph& g, uint32_t in, int32_t act) {
  const uint32_t out = g.temp({1, 8, 8, 5});
  g.m.addOperation(ANEURALNETWORKS_CONV_2D,
                   {in, g.weights({5, 3, 3, 4}), g.weights({5}), g.m.addInt32(1), g.m.addInt32(1),
                    g.m.addInt32(1), g.m.addInt32(1), g.m.addInt32(1), g.m.addInt32(1),
                    g.m.addInt32(act)},
                   {out});
  return out;
}

uint32_t unary(Graph& g, int op, uint32_t in, const std::vector<uint32_t>& dims) {
  const uint32_t out = g.temp(dims);
  g.m.addOperation(op, {in}, {out});
  return out;
}

// ---- activations ------------------------------------------------------------------------

TEST(CpuFusion, ConvThenEachReluFuses) {
  for (int op : {ANEURALNETWORKS_RELU, ANEURALNETWORKS_RELU1, ANEURALNETWORKS_RELU6}) {
    Graph g;
    const uint32_t x = g.input({1, 8, 8, 4});
    const uint32_t y = unary(g, op, conv3x3(g, x, kNone), {1, 8, 8, 5});
    g.output(y, 8 * 8 * 5 * 4);
    g.finish();
    EXPECT_EQ(g.fusions().activations, 1u) << op;
    expectSameResults(g);
  }
}

TEST(CpuFusion, BinaryDepthwiseFullyConnectedPoolFuse) {
  Graph g;
  const uint32_t x = g.input({1, 8, 8, 4});
  const uint32_t x2 = g.input({1, 1, 1, 4});  // broadcast
  // ADD -> RELU6
  const uint32_t sum = g.temp({1, 8, 8, 4});
  g.m.addOperation(ANEURALNETWORKS_ADD, {x, x2, g.m.addInt32(kNone)}, {sum});
  const uint32_t a = unary(g, ANEURALNETWORKS_RELU6, sum, {1, 8, 8, 4});
  // DEPTHWISE_CONV_2D (implicit SAME, stride 2) -> RELU
  const uint32_t dw = g.temp({1, 4, 4, 4});
  g.m.addOperation(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
                   {a, g.weights({1, 3, 3, 4}), g.weights({4}), g.m.addInt32(1), g.m.addInt32(2),
                    g.m.addInt32(2), g.m.addInt32(1), g.m.addInt32(kNone)},
                   {dw});
  const uint32_t b = unary(g, ANEURALNETWORKS_RELU, dw, {1, 4, 4, 4});
  // AVERAGE_POOL_2D 2x2 -> RELU1
  const uint32_t pool = g.temp({1, 2, 2, 4});
  g.m.addOperation(ANEURALNETWORKS_AVERAGE_POOL_2D,
                   {b, g.m.addInt32(2), g.m.addInt32(2), g.m.addInt32(2), g.m.addInt32(2),
                    g.m.addInt32(2), g.m.addInt32(kNone)},
                   {pool});
  const uint32_t c = unary(g, ANEURALNETWORKS_RELU1, pool, {1, 2, 2, 4});
  // FULLY_CONNECTED -> RELU (the model output)
  const uint32_t fc = g.temp({1, 3});
  g.m.addOperation(ANEURALNETWORKS_FULLY_CONNECTED,
                   {c, g.weights({3, 16}), g.weights({3}), g.m.addInt32(kNone)}, {fc});
  const uint32_t y = unary(g, ANEURALNETWORKS_RELU, fc, {1, 3});
  g.output(y, 3 * 4);
  g.finish();
  EXPECT_EQ(g.fusions().activations, 4u);
  expectSameResults(g);
}

TEST(CpuFusion, IntermediateThatIsAModelOutputIsKept) {
  Graph g;
  const uint32_t x = g.input({1, 8, 8, 4});
  const uint32_t t = conv3x3(g, x, kNone);
  const uint32_t y = unary(g, ANEURALNETWORKS_RELU, t, {1, 8, 8, 5});
  g.output(y, 8 * 8 * 5 * 4);
  g.output(t, 8 * 8 * 5 * 4);
  g.finish();
  EXPECT_EQ(g.fusions().activations, 0u);
  expectSameResults(g);
}

TEST(CpuFusion, IntermediateWithTwoReadersIsKept) {
  Graph g;
  const uint32_t x = g.input({1, 8, 8, 4});
  const uint32_t t = conv3x3(g, x, kNone);
  const uint32_t r = unary(g, ANEURALNETWORKS_RELU, t, {1, 8, 8, 5});
  const uint32_t y = g.temp({1, 8, 8, 5});
  g.m.addOperation(ANEURALNETWORKS_ADD, {r, t, g.m.addInt32(kNone)}, {y});
  g.output(y, 8 * 8 * 5 * 4);
  g.finish();
  EXPECT_EQ(g.fusions().activations, 0u);
  expectSameResults(g);
}

TEST(CpuFusion, ProducerWithItsOwnActivationIsKept) {
  Graph g;
  const uint32_t x = g.input({1, 8, 8, 4});
  const uint32_t t = conv3x3(g, x, ANEURALNETWORKS_FUSED_RELU6);
  const uint32_t y = unary(g, ANEURALNETWORKS_RELU1, t, {1, 8, 8, 5});
  g.output(y, 8 * 8 * 5 * 4);
  g.finish();
  EXPECT_EQ(g.fusions().activations, 0u);
  expectSameResults(g);
}

TEST(CpuFusion, ActivationFromAModelInputIsKept) {
  Graph g;
  const uint32_t x = g.input({1, 8, 8, 4});
  const uint32_t act = g.m.addOperand(ANEURALNETWORKS_INT32);
  g.inputIndexes.push_back(act);
  g.inputs.push_back(bytesOf(std::vector<int32_t>{kNone}));
  const uint32_t t = g.temp({1, 8, 8, 4});
  g.m.addOperation(ANEURALNETWORKS_ADD, {x, x, act}, {t});
  const uint32_t y = unary(g, ANEURALNETWORKS_RELU, t, {1, 8, 8, 4});
  g.output(y, 8 * 8 * 4 * 4);
  g.finish();
  EXPECT_EQ(g.fusions().activations, 0u);
  expectSameResults(g);
}

TEST(CpuFusion, QuantizedReluIsKept) {
  Graph g;
  const uint32_t x = g.m.addOperand(kQ8, {1, 4, 4, 2}, 0.5f, 100);
  g.inputIndexes.push_back(x);
  std::vector<uint8_t> q(32);
  for (size_t i = 0; i < q.size(); ++i) q[i] = static_cast<uint8_t>(i * 7);
  g.inputs.push_back(q);
  const uint32_t t = g.temp({1, 4, 4, 2}, kQ8, 0.5f, 100);
  g.m.addOperation(ANEURALNETWORKS_ADD, {x, x, g.m.addInt32(kNone)}, {t});
  const uint32_t y = g.temp({1, 4, 4, 2}, kQ8, 0.5f, 100);
  g.m.addOperation(ANEURALNETWORKS_RELU, {t}, {y});
  g.output(y, 32, /*isFloat=*/false);
  g.finish();
  EXPECT_EQ(g.fusions().activations, 0u);
  expectSameResults(g);
}

// An IF whose branches hold the fusable pattern: referenced subgraphs are rewritten too.
TEST(CpuFusion, FusesInsideIfBranches) {
  auto branch = [](ModelBuilder& b, int reluOp) {
    const uint32_t in = b.addOperand(kF32, {1, 4, 4, 2});
    const uint32_t t = b.addOperand(kF32, {1, 4, 4, 2});
    const uint32_t out = b.addOperand(kF32, {1, 4, 4, 2});
    b.addOperation(ANEURALNETWORKS_MUL, {in, in, b.addInt32(kNone)}, {t});
    b.addOperation(reluOp, {t}, {out});
    return b.finish({in}, {out});
  };
  ModelBuilder thenModel, elseModel;
  ASSERT_EQ(branch(thenModel, ANEURALNETWORKS_RELU1), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(branch(elseModel, ANEURALNETWORKS_RELU6), ANEURALNETWORKS_NO_ERROR);
  for (uint8_t cond : {0, 1}) {
    Graph g;
    const uint32_t c = g.m.addOperand(ANEURALNETWORKS_TENSOR_BOOL8, {1});
    g.inputIndexes.push_back(c);
    g.inputs.push_back({cond});
    const uint32_t x = g.input({1, 4, 4, 2});
    const uint32_t thenOp = g.m.addOperand(ANEURALNETWORKS_MODEL);
    ANeuralNetworksModel_setOperandValueFromModel(g.m.get(), thenOp, thenModel.get());
    const uint32_t elseOp = g.m.addOperand(ANEURALNETWORKS_MODEL);
    ANeuralNetworksModel_setOperandValueFromModel(g.m.get(), elseOp, elseModel.get());
    const uint32_t y = g.temp({1, 4, 4, 2});
    g.m.addOperation(ANEURALNETWORKS_IF, {c, thenOp, elseOp, x}, {y});
    g.output(y, 32 * 4);
    g.finish();
    EXPECT_EQ(g.fusions().activations, 2u);
    expectSameResults(g);
  }
}

// ---- padding ----------------------------------------------------------------------------

// PAD (or PAD_V2 with `value`) of `x` by `pads` ([4,2], NHWC), then `conv` on the result.
uint32_t pad(Graph& g, uint32_t x, const std::vector<int32_t>& pads,
             const std::vector<uint32_t>& outDims, const float* value = nullptr) {
  const uint32_t out = g.temp(outDims);
  const uint32_t p = g.m.addConstant<int32_t>(kI32, {4, 2}, pads);
  if (value != nullptr) {
    g.m.addOperation(ANEURALNETWORKS_PAD_V2, {x, p, g.m.addFloat32(*value)}, {out});
  } else {
    g.m.addOperation(ANEURALNETWORKS_PAD, {x, p}, {out});
  }
  return out;
}

// DEPTHWISE_CONV_2D 3x3 stride 2, implicit `scheme`, on [1,H,W,4].
uint32_t depthwise(Graph& g, uint32_t in, int32_t scheme, const std::vector<uint32_t>& outDims) {
  const uint32_t out = g.temp(outDims);
  g.m.addOperation(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
                   {in, g.weights({1, 3, 3, 4}), g.weights({4}), g.m.addInt32(scheme),
                    g.m.addInt32(2), g.m.addInt32(2), g.m.addInt32(1), g.m.addInt32(kNone)},
                   {out});
  return out;
}

// CONV_2D 3x3 stride 1 on [1,H,W,4] with explicit paddings (l, r, t, b), optional layout flag.
uint32_t convExplicit(Graph& g, uint32_t in, std::vector<int32_t> p,
                      const std::vector<uint32_t>& outDims, int layout = -1) {
  const uint32_t out = g.temp(outDims);
  std::vector<uint32_t> ins = {in,
                               g.weights({3, 3, 3, 4}),
                               g.weights({3}),
                               g.m.addInt32(p[0]),
                               g.m.addInt32(p[1]),
                               g.m.addInt32(p[2]),
                               g.m.addInt32(p[3]),
                               g.m.addInt32(1),
                               g.m.addInt32(1),
                               g.m.addInt32(ANEURALNETWORKS_FUSED_RELU)};
  if (layout >= 0) ins.push_back(g.m.addBool(layout != 0));
  g.m.addOperation(ANEURALNETWORKS_CONV_2D, ins, {out});
  return out;
}

TEST(CpuFusion, PadFoldsIntoDepthwiseImplicitPadding) {
  for (int32_t scheme : {ANEURALNETWORKS_PADDING_VALID, ANEURALNETWORKS_PADDING_SAME}) {
    Graph g;
    const uint32_t x = g.input({1, 8, 9, 4});
    const uint32_t t = pad(g, x, {0, 0, 1, 1, 1, 0, 0, 0}, {1, 10, 10, 4});
    const uint32_t outSize = scheme == ANEURALNETWORKS_PADDING_VALID ? 4 : 5;
    const uint32_t y = depthwise(g, t, scheme, {1, outSize, outSize, 4});
    g.output(y, outSize * outSize * 4 * 4);
    g.finish();
    EXPECT_EQ(g.fusions().pads, 1u) << scheme;
    expectSameResults(g);
  }
}

TEST(CpuFusion, PadFoldsIntoConvExplicitPaddingAndPadV2Zero) {
  const float zero = 0.f;
  for (bool v2 : {false, true}) {
    Graph g;
    const uint32_t x = g.input({1, 6, 7, 4});
    const uint32_t t = pad(g, x, {0, 0, 1, 0, 1, 2, 0, 0}, {1, 7, 10, 4}, v2 ? &zero : nullptr);
    // Paddings (left, right, top, bottom) become (1, 2, 2, 2): each below the 3x3 window.
    const uint32_t y = convExplicit(g, t, {0, 0, 1, 2}, {1, 8, 8, 3}, v2 ? 0 : -1);
    g.output(y, 8 * 8 * 3 * 4);
    g.finish();
    EXPECT_EQ(g.fusions().pads, 1u) << v2;
    expectSameResults(g);
  }
}

TEST(CpuFusion, PadsThatCannotFoldAreKept) {
  const float one = 1.f, minusZero = -0.f;
  struct Case {
    const char* what;
    std::vector<int32_t> pads;
    std::vector<uint32_t> padded;
    const float* value;
    std::vector<int32_t> convPads;
    int layout;
  };
  const std::vector<Case> cases = {
      {"channel axis", {0, 0, 1, 1, 1, 1, 0, 1}, {1, 8, 8, 5}, nullptr, {0, 0, 0, 0}, -1},
      {"non-zero value", {0, 0, 1, 1, 1, 1, 0, 0}, {1, 8, 8, 4}, &one, {0, 0, 0, 0}, -1},
      {"negative zero value", {0, 0, 1, 1, 1, 1, 0, 0}, {1, 8, 8, 4}, &minusZero, {0, 0, 0, 0}, -1},
      {"window too small for CONV_2D", {0, 0, 2, 0, 2, 0, 0, 0}, {1, 8, 8, 4}, nullptr,
       {1, 2, 1, 2}, -1},
      {"batch axis", {1, 0, 1, 1, 1, 1, 0, 0}, {2, 8, 8, 4}, nullptr, {0, 0, 0, 0}, -1},
  };
  for (const Case& c : cases) {
    Graph g;
    const uint32_t x = g.input({1, 6, 6, 4});
    const uint32_t t = pad(g, x, c.pads, c.padded, c.value);
    uint32_t y;
    if (c.pads[7] != 0) {
      // Channel padding: read by a depthwise over 5 channels.
      y = g.temp({1, 3, 3, 5});
      g.m.addOperation(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
                       {t, g.weights({1, 3, 3, 5}), g.weights({5}), g.m.addInt32(2),
                        g.m.addInt32(2), g.m.addInt32(2), g.m.addInt32(1), g.m.addInt32(kNone)},
                       {y});
      g.output(y, 3 * 3 * 5 * 4);
    } else {
      const uint32_t n = c.padded[0];
      const uint32_t size = 8 + c.convPads[0] + c.convPads[1] - 2;
      y = convExplicit(g, t, c.convPads, {n, size, size, 3});
      g.output(y, n * size * size * 3 * 4);
    }
    g.finish();
    EXPECT_EQ(g.fusions().pads, 0u) << c.what;
    expectSameResults(g);
  }
}

TEST(CpuFusion, PadReadTwiceOrIntoNchwIsKept) {
  {
    Graph g;
    const uint32_t x = g.input({1, 6, 6, 4});
    const uint32_t t = pad(g, x, {0, 0, 1, 1, 1, 1, 0, 0}, {1, 8, 8, 4});
    const uint32_t y = convExplicit(g, t, {0, 0, 0, 0}, {1, 6, 6, 3});
    g.output(y, 6 * 6 * 3 * 4);
    g.output(t, 8 * 8 * 4 * 4);  // the padded tensor is a model output
    g.finish();
    EXPECT_EQ(g.fusions().pads, 0u);
    expectSameResults(g);
  }
  {
    // NCHW: dims [1, C=4, H, W]; the PAD of axes 1 and 2 would be C and H.
    Graph g;
    const uint32_t x = g.input({1, 4, 6, 6});
    const uint32_t t = pad(g, x, {0, 0, 0, 0, 1, 1, 1, 1}, {1, 4, 8, 8});
    const uint32_t y = g.temp({1, 3, 6, 6});
    g.m.addOperation(ANEURALNETWORKS_CONV_2D,
                     {t, g.weights({3, 3, 3, 4}), g.weights({3}), g.m.addInt32(0),
                      g.m.addInt32(0), g.m.addInt32(0), g.m.addInt32(0), g.m.addInt32(1),
                      g.m.addInt32(1), g.m.addInt32(kNone), g.m.addBool(true)},
                     {y});
    g.output(y, 6 * 6 * 3 * 4);
    g.finish();
    EXPECT_EQ(g.fusions().pads, 0u);
    expectSameResults(g);
  }
}

// A PAD's zeros meet every weight (0 * Inf = NaN); a convolution may skip its own padding
// positions, so a filter holding Inf or NaN keeps the PAD.
TEST(CpuFusion, PadBeforeNonFiniteFilterIsKept) {
  for (float bad : {std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()}) {
    Graph g;
    const uint32_t x = g.input({1, 6, 6, 4});
    const uint32_t t = pad(g, x, {0, 0, 1, 1, 1, 1, 0, 0}, {1, 8, 8, 4});
    std::vector<float> w = randomFloats(3 * 3 * 4, 77);
    w[0] = bad;  // the top-left tap: reads padding at the top-left output
    const uint32_t y = g.temp({1, 3, 3, 4});
    g.m.addOperation(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
                     {t, g.m.addConstant<float>(kF32, {1, 3, 3, 4}, w), g.weights({4}),
                      g.m.addInt32(ANEURALNETWORKS_PADDING_VALID), g.m.addInt32(2), g.m.addInt32(2),
                      g.m.addInt32(1), g.m.addInt32(kNone)},
                     {y});
    g.output(y, 3 * 3 * 4 * 4);
    g.finish();
    EXPECT_EQ(g.fusions().pads, 0u) << bad;
  }
}

// ---- RESIZE_BILINEAR (fast float32 NHWC loop) ----------------------------------------------

TEST(CpuFusion, ResizeBilinearFastEqualsReferenceBitwise) {
  for (uint32_t channels : {1u, 8u, 13u, 32u}) {
    for (int mode = 0; mode < 3; ++mode) {  // plain, align_corners, half_pixel_centers
      Graph g;
      const uint32_t x = g.input({2, 5, 7, channels});
      const uint32_t y = g.temp({2, 11, 9, channels});
      g.m.addOperation(ANEURALNETWORKS_RESIZE_BILINEAR,
                       {x, g.m.addInt32(9), g.m.addInt32(11), g.m.addBool(false),
                        g.m.addBool(mode == 1), g.m.addBool(mode == 2)},
                       {y});
      g.output(y, 2 * 11 * 9 * channels * 4);
      g.finish();
      const nntest::RunResult fast = runOn(g, "nnapi-cpu", true);
      const nntest::RunResult ref = runOn(g, "nnapi-cpu-reference", true);
      ASSERT_EQ(fast.status, ANEURALNETWORKS_NO_ERROR) << fast.step;
      ASSERT_EQ(ref.status, ANEURALNETWORKS_NO_ERROR) << ref.step;
      EXPECT_EQ(fast.outputs, ref.outputs) << channels << " channels, mode " << mode;
    }
  }
}

// ---- PAD, MAX_POOL_2D and ADD split over 2 threads ---------------------------------------

// These split their rows over the pool from 16K elements (64 KB for PAD); with 2 threads each
// thread takes a contiguous range of rows, fully padded rows included. Copies, maxima and sums
// must equal the values computed here bit for bit whatever the split.
TEST(CpuFusion, PadPoolAddSplitOverThreadsAreExact) {
  setenv("NNAPI_CPU_THREADS", "2", 1);
  Graph g;
  const std::vector<uint32_t> in = {2, 30, 31, 12}, padded = {3, 33, 34, 16};
  const int32_t before[4] = {0, 2, 1, 0};
  const uint32_t x = g.input(in);
  const uint32_t p = pad(g, x, {0, 1, 2, 1, 1, 2, 0, 4}, padded);
  const uint32_t pooled = g.temp({3, 16, 17, 16});
  g.m.addOperation(ANEURALNETWORKS_MAX_POOL_2D,
                   {p, g.m.addInt32(ANEURALNETWORKS_PADDING_VALID), g.m.addInt32(2),
                    g.m.addInt32(2), g.m.addInt32(2), g.m.addInt32(2), g.m.addInt32(kNone)},
                   {pooled});
  const uint32_t y = g.input(padded);
  const uint32_t sum = g.temp(padded);
  g.m.addOperation(ANEURALNETWORKS_ADD, {p, y, g.m.addInt32(kNone)}, {sum});
  g.output(p, count(padded) * 4);
  g.output(pooled, 3 * 16 * 17 * 16 * 4);
  g.output(sum, count(padded) * 4);
  g.finish();
  const nntest::RunResult fast = runOn(g, "nnapi-cpu", true);
  unsetenv("NNAPI_CPU_THREADS");
  ASSERT_EQ(fast.status, ANEURALNETWORKS_NO_ERROR) << fast.step;
  ASSERT_EQ(fast.outputs.size(), 3u);

  const std::vector<float> xv = valuesOf<float>(g.inputs[0]), yv = valuesOf<float>(g.inputs[1]);
  std::vector<float> pv(count(padded), 0.f);
  for (uint32_t n = 0; n < in[0]; ++n)
    for (uint32_t h = 0; h < in[1]; ++h)
      for (uint32_t w = 0; w < in[2]; ++w)
        for (uint32_t c = 0; c < in[3]; ++c)
          pv[((size_t(n + before[0]) * padded[1] + h + before[1]) * padded[2] + w + before[2]) *
                 padded[3] + c + before[3]] = xv[((size_t(n) * in[1] + h) * in[2] + w) * in[3] + c];
  std::vector<float> poolv, sumv(pv.size());
  for (uint32_t n = 0; n < 3; ++n)
    for (uint32_t h = 0; h < 16; ++h)
      for (uint32_t w = 0; w < 17; ++w)
        for (uint32_t c = 0; c < 16; ++c) {
          auto at = [&](uint32_t hh, uint32_t ww) {
            return pv[((size_t(n) * padded[1] + hh) * padded[2] + ww) * padded[3] + c];
          };
          poolv.push_back(std::max(std::max(at(2 * h, 2 * w), at(2 * h, 2 * w + 1)),
                                   std::max(at(2 * h + 1, 2 * w), at(2 * h + 1, 2 * w + 1))));
        }
  for (size_t i = 0; i < pv.size(); ++i) sumv[i] = pv[i] + yv[i];
  EXPECT_EQ(fast.outputs[0], bytesOf(pv)) << "PAD";
  EXPECT_EQ(fast.outputs[1], bytesOf(poolv)) << "MAX_POOL_2D";
  EXPECT_EQ(fast.outputs[2], bytesOf(sumv)) << "ADD";
}

}  // namespace

// ---- float16 filters ----------------------------------------------------------------------

// CAST of a constant TENSOR_FLOAT16 filter [outC,kh,kw,4] into a float32 temporary, read by a
// CONV_2D (stride 1, explicit padding 0) of `in` [1,6,6,4]; returns the convolution's output.
uint32_t halfFilterConv(Graph& g, uint32_t in, uint32_t outC, uint32_t kernel, uint32_t* cast) {
  const std::vector<uint32_t> dims = {outC, kernel, kernel, 4};
  std::vector<float> w = randomFloats(count(dims), g.seed++);
  std::vector<uint16_t> half;
  for (float f : w) {
    const _Float16 h = static_cast<_Float16>(f);
    uint16_t bits;
    memcpy(&bits, &h, 2);
    half.push_back(bits);
  }
  const uint32_t h = g.m.addConstant<uint16_t>(ANEURALNETWORKS_TENSOR_FLOAT16, dims, half);
  *cast = g.temp(dims);
  g.m.addOperation(ANEURALNETWORKS_CAST, {h}, {*cast});
  const uint32_t side = 6 - kernel + 1;
  const uint32_t out = g.temp({1, side, side, outC});
  g.m.addOperation(ANEURALNETWORKS_CONV_2D,
                   {in, *cast, g.weights({outC}), g.m.addInt32(0), g.m.addInt32(0),
                    g.m.addInt32(0), g.m.addInt32(0), g.m.addInt32(1), g.m.addInt32(1),
                    g.m.addInt32(kNone)},
                   {out});
  return out;
}

// The convolution reads the float16 constant itself; the packed GEMM widens it while packing
// and computes the same bits as after a separate CAST (enough output channels that both forms
// take the packed GEMM, not the narrow direct kernel).
TEST(CpuFusion, CastOfHalfFilterFusesIntoConv) {
  for (uint32_t kernel : {1u, 3u}) {
    Graph g;
    const uint32_t x = g.input({1, 6, 6, 4});
    uint32_t cast = 0;
    const uint32_t y = halfFilterConv(g, x, 40, kernel, &cast);
    const uint32_t side = 6 - kernel + 1;
    g.output(y, side * side * 40 * 4);
    g.finish();
    EXPECT_EQ(g.fusions().halfFilters, 1u) << kernel;
    expectSameResults(g);
  }
}

// A widened filter something else reads too (here: a model output) keeps its CAST.
TEST(CpuFusion, CastOfHalfFilterReadTwiceIsKept) {
  Graph g;
  const uint32_t x = g.input({1, 6, 6, 4});
  uint32_t cast = 0;
  const uint32_t y = halfFilterConv(g, x, 40, 1, &cast);
  g.output(y, 36 * 40 * 4);
  g.output(cast, 40 * 4 * 4);
  g.finish();
  EXPECT_EQ(g.fusions().halfFilters, 0u);
  expectSameResults(g);
}

// ---- float16 storage of relaxed models' temporaries ----------------------------------------

namespace {

// An inverted bottleneck on [1,12,12,16]: 1x1 CONV_2D to 64 channels (RELU6), 3x3 stride
// `stride` DEPTHWISE_CONV_2D (SAME, RELU6), 1x1 CONV_2D to `outC`; returns its output and
// the output side.
uint32_t bottleneck(Graph& g, uint32_t x, int32_t stride, uint32_t outC, uint32_t* side) {
  const uint32_t expanded = g.temp({1, 12, 12, 64});
  g.m.addOperation(ANEURALNETWORKS_CONV_2D,
                   {x, g.weights({64, 1, 1, 16}), g.weights({64}),
                    g.m.addInt32(ANEURALNETWORKS_PADDING_VALID), g.m.addInt32(1), g.m.addInt32(1),
                    g.m.addInt32(ANEURALNETWORKS_FUSED_RELU6)},
                   {expanded});
  *side = stride == 1 ? 12 : 6;
  const uint32_t dw = g.temp({1, *side, *side, 64});
  g.m.addOperation(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
                   {expanded, g.weights({1, 3, 3, 64}), g.weights({64}),
                    g.m.addInt32(ANEURALNETWORKS_PADDING_SAME), g.m.addInt32(stride),
                    g.m.addInt32(stride), g.m.addInt32(1), g.m.addInt32(ANEURALNETWORKS_FUSED_RELU6)},
                   {dw});
  const uint32_t out = g.temp({1, *side, *side, outC});
  g.m.addOperation(ANEURALNETWORKS_CONV_2D,
                   {dw, g.weights({outC, 1, 1, 64}), g.weights({outC}),
                    g.m.addInt32(ANEURALNETWORKS_PADDING_VALID), g.m.addInt32(1), g.m.addInt32(1),
                    g.m.addInt32(kNone)},
                   {out});
  return out;
}

// The fast device's relaxed result against the reference device's float32 one: within 1% of
// the largest output value (as the real-model tests, tests/tflite_e2e_test.cc).
void expectRelaxedClose(const Graph& g) {
  const nntest::RunResult fast = runOn(g, "nnapi-cpu", true);
  const nntest::RunResult ref = runOn(g, "nnapi-cpu-reference", true);
  ASSERT_EQ(fast.status, ANEURALNETWORKS_NO_ERROR) << fast.step;
  ASSERT_EQ(ref.status, ANEURALNETWORKS_NO_ERROR) << ref.step;
  const std::vector<float> a = valuesOf<float>(fast.outputs[0]);
  const std::vector<float> b = valuesOf<float>(ref.outputs[0]);
  ASSERT_EQ(a.size(), b.size());
  float peak = 0;
  for (float v : b) peak = std::fmax(peak, std::fabs(v));
  for (size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(a[i], b[i], 1e-2f * peak) << "[" << i << "]";
}

// In a relaxed model both temporaries of the bottleneck become float16 where the processor has
// the float16 kernels (not below the avx512fp16 NNAPI_CPU_ISA cap); the results stay within
// relaxed tolerance of float32, at both strides.
TEST(CpuFusion, RelaxedBottleneckStoresFloat16) {
  for (int32_t stride : {1, 2}) {
    Graph g;
    const uint32_t x = g.input({1, 12, 12, 16});
    uint32_t side = 0;
    const uint32_t y = bottleneck(g, x, stride, 32, &side);
    g.output(y, side * side * 32 * 4);
    ASSERT_EQ(g.m.finish(g.inputIndexes, g.outputIndexes, /*relaxed=*/true),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(g.fusions().halfTensors, nn::conv::halfGemmAvailable() ? 2u : 0u) << stride;
    expectRelaxedClose(g);
  }
}

// Not relaxed: float32 stays float32 (and the fusions give the same bits as without).
TEST(CpuFusion, Float32BottleneckKeepsFloat32) {
  Graph g;
  const uint32_t x = g.input({1, 12, 12, 16});
  uint32_t side = 0;
  const uint32_t y = bottleneck(g, x, 1, 32, &side);
  g.output(y, side * side * 32 * 4);
  g.finish();
  EXPECT_EQ(g.fusions().halfTensors, 0u);
  expectSameResults(g);
}

// A projection to fewer than 8 channels has no float16 kernel: the depthwise layer before it
// reads its float16 input and writes float32 (summed in float32) for it; only the expansion's
// output is float16.
TEST(CpuFusion, RelaxedNarrowProjectionReadsFloat32) {
  Graph g;
  const uint32_t x = g.input({1, 12, 12, 16});
  uint32_t side = 0;
  const uint32_t y = bottleneck(g, x, 1, 4, &side);
  g.output(y, side * side * 4 * 4);
  ASSERT_EQ(g.m.finish(g.inputIndexes, g.outputIndexes, /*relaxed=*/true),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(g.fusions().halfTensors, nn::conv::halfGemmAvailable() ? 1u : 0u);
  expectRelaxedClose(g);
}

}  // namespace

namespace {

// 1x1 CONV_2D of `in` ([1,side,side,inC]) to `outC` channels with activation `act`.
uint32_t pointwise(Graph& g, uint32_t in, uint32_t side, uint32_t inC, uint32_t outC, int32_t act) {
  const uint32_t out = g.temp({1, side, side, outC});
  g.m.addOperation(ANEURALNETWORKS_CONV_2D,
                   {in, g.weights({outC, 1, 1, inC}), g.weights({outC}),
                    g.m.addInt32(ANEURALNETWORKS_PADDING_VALID), g.m.addInt32(1), g.m.addInt32(1),
                    g.m.addInt32(act)},
                   {out});
  return out;
}
// 3x3 DEPTHWISE_CONV_2D (SAME) of `in` ([1,side,side,C]) at `stride`.
uint32_t depthwise3x3(Graph& g, uint32_t in, uint32_t side, uint32_t C, int32_t stride) {
  const uint32_t outSide = (side + stride - 1) / stride;
  const uint32_t out = g.temp({1, outSide, outSide, C});
  g.m.addOperation(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
                   {in, g.weights({1, 3, 3, C}), g.weights({C}),
                    g.m.addInt32(ANEURALNETWORKS_PADDING_SAME), g.m.addInt32(stride),
                    g.m.addInt32(stride), g.m.addInt32(1), g.m.addInt32(kNone)},
                   {out});
  return out;
}
uint32_t add(Graph& g, uint32_t a, uint32_t b, const std::vector<uint32_t>& dims, int32_t act) {
  const uint32_t out = g.temp(dims);
  g.m.addOperation(ANEURALNETWORKS_ADD, {a, b, g.m.addInt32(act)}, {out});
  return out;
}

// An image model's head (hand_landmark's): x -> 1x1 (k 48 -> 96) -> 3x3 depthwise on 7x7 ->
// MEAN over H and W (keep_dims 0) -> model output. In a relaxed model the depthwise layer's
// input and output become float16 (the MEAN reads float16 and writes its float32 output; its
// output is never retyped), and the mean stays within relaxed tolerance of float32; with the
// axes H, C (not a spatial mean) the MEAN still reads float16 through its general loop.
TEST(CpuFusion, RelaxedMeanReadsFloat16) {
  for (bool spatial : {true, false}) {
    Graph g;
    const uint32_t x = g.input({1, 7, 7, 48});
    const uint32_t e = pointwise(g, x, 7, 48, 96, ANEURALNETWORKS_FUSED_RELU6);
    const uint32_t d = depthwise3x3(g, e, 7, 96, 1);
    const std::vector<int32_t> axes = spatial ? std::vector<int32_t>{1, 2} : std::vector<int32_t>{1, 3};
    const std::vector<uint32_t> outDims = spatial ? std::vector<uint32_t>{1, 96} : std::vector<uint32_t>{1, 7};
    const uint32_t y = g.temp(outDims);
    g.m.addOperation(ANEURALNETWORKS_MEAN,
                     {d, g.m.addConstant<int32_t>(kI32, {2}, axes), g.m.addInt32(0)}, {y});
    g.output(y, (spatial ? 96 : 7) * 4);
    ASSERT_EQ(g.m.finish(g.inputIndexes, g.outputIndexes, /*relaxed=*/true),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(g.fusions().halfTensors, nn::conv::halfGemmAvailable() ? 2u : 0u) << spatial;
    expectRelaxedClose(g);
  }
}

// BlazeFace's residual blocks on [1,16,16,32]: y = RELU(x + 1x1(depthwise(x))), each ADD's
// output read by the next depthwise layer and the next ADD (here through the size-changing
// shortcut MAX_POOL_2D 2x2 stride 2 -> PAD of the channels to 48). In a relaxed model every
// temporary becomes float16 where the processor has the float16 kernels (9 of them; the model
// output stays float32), and the result stays within relaxed tolerance of float32.
TEST(CpuFusion, RelaxedResidualBlocksStoreFloat16) {
  Graph g;
  const uint32_t x = g.input({1, 16, 16, 32});
  const uint32_t a = pointwise(g, x, 16, 32, 32, ANEURALNETWORKS_FUSED_RELU);
  const uint32_t c1 = pointwise(g, depthwise3x3(g, a, 16, 32, 1), 16, 32, 32, kNone);
  const uint32_t b = add(g, a, c1, {1, 16, 16, 32}, ANEURALNETWORKS_FUSED_RELU);
  const uint32_t pooled = g.temp({1, 8, 8, 32});
  g.m.addOperation(ANEURALNETWORKS_MAX_POOL_2D,
                   {b, g.m.addInt32(ANEURALNETWORKS_PADDING_VALID), g.m.addInt32(2),
                    g.m.addInt32(2), g.m.addInt32(2), g.m.addInt32(2), g.m.addInt32(kNone)},
                   {pooled});
  const uint32_t padded = g.temp({1, 8, 8, 48});
  g.m.addOperation(ANEURALNETWORKS_PAD,
                   {pooled, g.m.addConstant<int32_t>(kI32, {4, 2}, {0, 0, 0, 0, 0, 0, 0, 16})},
                   {padded});
  const uint32_t c2 = pointwise(g, depthwise3x3(g, b, 16, 32, 2), 8, 32, 48, kNone);
  const uint32_t e = add(g, padded, c2, {1, 8, 8, 48}, ANEURALNETWORKS_FUSED_RELU6);
  const uint32_t y = pointwise(g, e, 8, 48, 32, kNone);
  g.output(y, 8 * 8 * 32 * 4);
  ASSERT_EQ(g.m.finish(g.inputIndexes, g.outputIndexes, /*relaxed=*/true),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(g.fusions().halfTensors, nn::conv::halfGemmAvailable() ? 9u : 0u);
  expectRelaxedClose(g);
}

// An ADD of a float32 model input and a float16 temporary, writing the float32 model output
// (the mixed form only the float16 ADD kernel takes).
TEST(CpuFusion, RelaxedAddOfFloat32AndFloat16) {
  Graph g;
  const uint32_t x = g.input({1, 8, 8, 32});
  const uint32_t t = pointwise(g, x, 8, 32, 32, kNone);
  const uint32_t y = add(g, x, t, {1, 8, 8, 32}, kNone);
  g.output(y, 8 * 8 * 32 * 4);
  ASSERT_EQ(g.m.finish(g.inputIndexes, g.outputIndexes, /*relaxed=*/true),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(g.fusions().halfTensors, nn::conv::halfGemmAvailable() ? 1u : 0u);
  expectRelaxedClose(g);
}

// Broadcasting ADDs and tensors read by an operation without a float16 kernel keep float32.
TEST(CpuFusion, RelaxedBroadcastAddKeepsFloat32) {
  Graph g;
  const uint32_t x = g.input({1, 8, 8, 32});
  const uint32_t t = pointwise(g, x, 8, 32, 32, kNone);
  const uint32_t y = add(g, t, g.weights({32}), {1, 8, 8, 32}, kNone);
  const uint32_t z = unary(g, ANEURALNETWORKS_LOGISTIC, y, {1, 8, 8, 32});
  g.output(z, 8 * 8 * 32 * 4);
  ASSERT_EQ(g.m.finish(g.inputIndexes, g.outputIndexes, /*relaxed=*/true),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(g.fusions().halfTensors, 0u);
  expectRelaxedClose(g);
}

// Projections to 8..31 channels (k = 64 here) have the float16 GEMM's narrow kernel: the
// bottleneck's temporaries become float16 as with 32 channels.
TEST(CpuFusion, RelaxedNarrowProjectionStoresFloat16) {
  for (uint32_t outC : {8u, 16u, 24u}) {
    Graph g;
    const uint32_t x = g.input({1, 12, 12, 16});
    uint32_t side = 0;
    const uint32_t y = bottleneck(g, x, 1, outC, &side);
    g.output(y, side * side * outC * 4);
    ASSERT_EQ(g.m.finish(g.inputIndexes, g.outputIndexes, /*relaxed=*/true),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(g.fusions().halfTensors, nn::conv::halfGemmAvailable() ? 2u : 0u) << outC;
    expectRelaxedClose(g);
  }
}

// BlazeFace's narrow block on [1,32,32,24]: e = b + 1x1(depthwise(b)) to 24 channels with
// k = 24 (kHalfNarrowMinK), b a float16 ADD output (here x + x): the depthwise layer's output,
// read by the narrow 1x1 (the float16 GEMM), becomes float16 besides b and e, and so does the
// 1x1's own output (24 columns, below kHalfStoreMinColumns, but k = 24 is short: graph_fusion.cc
// kHalfStoreMaxShortK; with k = 48 it stays float32, RelaxedNarrowOutputBeforeDepthwise...
// below). With k below kHalfNarrowMinK the 1x1 keeps float32 and the depthwise layer writes
// float32 for it.
TEST(CpuFusion, RelaxedNarrowBlockFromMinK) {
  for (uint32_t k : {nn::conv::kHalfNarrowMinK, nn::conv::kHalfNarrowMinK - 8}) {
    Graph g;
    const uint32_t x = g.input({1, 32, 32, k});
    const uint32_t b = add(g, x, x, {1, 32, 32, k}, kNone);
    const uint32_t c = pointwise(g, depthwise3x3(g, b, 32, k, 1), 32, k, k, kNone);
    const uint32_t e = add(g, b, c, {1, 32, 32, k}, ANEURALNETWORKS_FUSED_RELU);
    const uint32_t y = pointwise(g, e, 32, k, 32, kNone);
    g.output(y, 32 * 32 * 32 * 4);
    ASSERT_EQ(g.m.finish(g.inputIndexes, g.outputIndexes, /*relaxed=*/true),
              ANEURALNETWORKS_NO_ERROR);
    const uint32_t expected = !nn::conv::halfGemmAvailable() ? 0u
                              : k >= nn::conv::kHalfNarrowMinK ? 4u
                                                               : 2u;
    EXPECT_EQ(g.fusions().halfTensors, expected) << k;
    expectRelaxedClose(g);
  }
}

// A narrow bottleneck middle (face_detection_full_range's 48 -> 16 / 24 1x1 before a depthwise
// layer): the 1x1's output, below kHalfStoreMinColumns but read only by the depthwise layer,
// becomes float16, and so does the depthwise layer's output (read by the 1x1 to 64); where the
// 1x1's output is also read by a residual ADD it stays float32 (the hand models' projections),
// and the depthwise layer then writes float32 too, as the ADD's output is the model output.
TEST(CpuFusion, RelaxedNarrowOutputBeforeDepthwiseStoresFloat16) {
  for (uint32_t n : {16u, 24u}) {
    for (bool residual : {false, true}) {
      Graph g;
      const uint32_t x = g.input({1, 12, 12, 48});
      const uint32_t p = pointwise(g, x, 12, 48, n, kNone);
      const uint32_t d = depthwise3x3(g, p, 12, n, 1);
      uint32_t y = 0, outC = 0;
      if (residual) {
        y = add(g, p, d, {1, 12, 12, n}, kNone);
        outC = n;
      } else {
        y = pointwise(g, d, 12, n, 64, kNone);
        outC = 64;
      }
      g.output(y, 12 * 12 * outC * 4);
      ASSERT_EQ(g.m.finish(g.inputIndexes, g.outputIndexes, /*relaxed=*/true),
                ANEURALNETWORKS_NO_ERROR);
      const uint32_t expected = nn::conv::halfGemmAvailable() && !residual ? 2u : 0u;
      EXPECT_EQ(g.fusions().halfTensors, expected) << n << (residual ? " residual" : "");
      expectRelaxedClose(g);
    }
  }
}

// An image model's stem (3x3 or 5x5 stride 2 CONV_2D from 3 channels, SAME, on [1,33,33,3]:
// odd size, so the right and bottom edges are padded) followed by a depthwise layer and a 1x1
// to 32 channels. Its output becomes float16, and so does the depthwise layer's, with 32 stem
// channels or with a 5x5 window (75 taps: the float16 stem kernel, stem_half.h); a 3x3 stem to
// 24 channels (27 taps, computed in float32, below kHalfStoreMinColumns) keeps a float32
// output, and the depthwise layer then writes float32 too. The results stay within relaxed
// tolerance of the float32 reference.
TEST(CpuFusion, RelaxedStemStoresFloat16) {
  const uint32_t shapes[][2] = {{32, 3}, {24, 3}, {24, 5}};  // channels, window
  for (const auto& sh : shapes) {
    const uint32_t c = sh[0], window = sh[1];
    Graph g;
    const uint32_t x = g.input({1, 33, 33, 3});
    const uint32_t stem = g.temp({1, 17, 17, c});
    g.m.addOperation(ANEURALNETWORKS_CONV_2D,
                     {x, g.weights({c, window, window, 3}), g.weights({c}),
                      g.m.addInt32(ANEURALNETWORKS_PADDING_SAME), g.m.addInt32(2), g.m.addInt32(2),
                      g.m.addInt32(ANEURALNETWORKS_FUSED_RELU)},
                     {stem});
    const uint32_t y = pointwise(g, depthwise3x3(g, stem, 17, c, 1), 17, c, 32, kNone);
    g.output(y, 17 * 17 * 32 * 4);
    ASSERT_EQ(g.m.finish(g.inputIndexes, g.outputIndexes, /*relaxed=*/true),
              ANEURALNETWORKS_NO_ERROR);
    const bool halfStem = c >= 32 || window * window * 3 >= nn::conv::kHalfStemFloatOutMinK;
    const uint32_t expected = nn::conv::halfGemmAvailable() && halfStem ? 2u : 0u;
    EXPECT_EQ(g.fusions().halfTensors, expected) << c << " channels, " << window << "x" << window;
    expectRelaxedClose(g);
  }
}

}  // namespace

namespace {

// TENSOR_FLOAT16 PAD of the channels (the 2-byte masked-copy path, 30 -> 68 channels over more
// than one 32-lane chunk, with H padding) and MAX_POOL_2D 2x2 / 3x3 (the float16 kernel): the
// fast device gives the reference device's bits (copies and maxima are exact).
TEST(CpuFusion, Float16PadAndMaxPoolEqualReferenceBitwise) {
  Graph g;
  const std::vector<uint32_t> in = {2, 9, 10, 30}, padded = {2, 10, 10, 68};
  const uint32_t x = g.m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT16, in);
  std::vector<uint16_t> xv;
  for (float f : randomFloats(count(in), 77)) {
    const _Float16 h = static_cast<_Float16>(4 * f);
    uint16_t bits;
    memcpy(&bits, &h, 2);
    xv.push_back(bits);
  }
  g.inputs.push_back(bytesOf(xv));
  g.inputIndexes.push_back(x);
  const uint32_t p = g.m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT16, padded);
  g.m.addOperation(ANEURALNETWORKS_PAD,
                   {x, g.m.addConstant<int32_t>(kI32, {4, 2}, {0, 0, 1, 0, 0, 0, 3, 35})}, {p});
  const uint32_t pool2 = g.m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT16, {2, 5, 5, 68});
  g.m.addOperation(ANEURALNETWORKS_MAX_POOL_2D,
                   {p, g.m.addInt32(ANEURALNETWORKS_PADDING_VALID), g.m.addInt32(2),
                    g.m.addInt32(2), g.m.addInt32(2), g.m.addInt32(2),
                    g.m.addInt32(ANEURALNETWORKS_FUSED_RELU6)},
                   {pool2});
  const uint32_t pool3 = g.m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT16, {2, 5, 5, 68});
  g.m.addOperation(ANEURALNETWORKS_MAX_POOL_2D,
                   {p, g.m.addInt32(ANEURALNETWORKS_PADDING_SAME), g.m.addInt32(2),
                    g.m.addInt32(2), g.m.addInt32(3), g.m.addInt32(3), g.m.addInt32(kNone)},
                   {pool3});
  g.output(p, count(padded) * 2, false);
  g.output(pool2, 2 * 5 * 5 * 68 * 2, false);
  g.output(pool3, 2 * 5 * 5 * 68 * 2, false);
  g.finish();
  const nntest::RunResult fast = runOn(g, "nnapi-cpu", true);
  const nntest::RunResult ref = runOn(g, "nnapi-cpu-reference", true);
  ASSERT_EQ(fast.status, ANEURALNETWORKS_NO_ERROR) << fast.step;
  ASSERT_EQ(ref.status, ANEURALNETWORKS_NO_ERROR) << ref.step;
  ASSERT_EQ(fast.outputs.size(), 3u);
  EXPECT_EQ(fast.outputs[0], ref.outputs[0]) << "PAD";
  EXPECT_EQ(fast.outputs[1], ref.outputs[1]) << "MAX_POOL_2D 2x2";
  EXPECT_EQ(fast.outputs[2], ref.outputs[2]) << "MAX_POOL_2D 3x3";
}

}  // namespace
