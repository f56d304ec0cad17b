// AVERAGE_POOL_2D / MAX_POOL_2D / L2_POOL_2D through the public C API: hand-computed cases for
// both padding forms, layouts and element types, the quantized rounding rule, invalid
// signatures, and the default device against the reference device on random data.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "test_util.h"

namespace {

using nntest::bytesOf;
using nntest::ModelBuilder;
using nntest::valuesOf;

struct PoolModel {
  int op = ANEURALNETWORKS_AVERAGE_POOL_2D;
  int type = ANEURALNETWORKS_TENSOR_FLOAT32;
  std::vector<uint32_t> inDims;
  float scale = 0.f;
  int32_t zeroPoint = 0;
  // 9 values (explicit: l, r, t, b, stride w, stride h, filter w, filter h, activation) or
  // 6 (implicit: scheme, stride w, stride h, filter w, filter h, activation).
  std::vector<int32_t> scalars;
  int layout = -1;  // -1: no layout input; 0/1: NHWC/NCHW
  std::vector<uint32_t> outDims;  // declared output dims (zeros = unknown)
  float outScale = -1.f;           // -1: same as input
  int32_t outZeroPoint = -1000;    // -1000: same as input
};

// Builds the model; returns the first error of model construction (finish included).
int build(ModelBuilder& m, const PoolModel& p) {
  const uint32_t in = m.addOperand(p.type, p.inDims, p.scale, p.zeroPoint);
  std::vector<uint32_t> inputs{in};
  for (int32_t v : p.scalars) inputs.push_back(m.addInt32(v));
  if (p.layout >= 0) inputs.push_back(m.addBool(p.layout != 0));
  const uint32_t out = m.addOperand(p.type, p.outDims, p.outScale < 0 ? p.scale : p.outScale,
                                    p.outZeroPoint == -1000 ? p.zeroPoint : p.outZeroPoint);
  m.addOperation(p.op, inputs, {out});
  return m.finish({in}, {out});
}

template <typename T>
std::vector<T> run(const PoolModel& p, const std::vector<T>& input, size_t outCount,
                   std::vector<uint32_t>* outDims = nullptr, const char* device = nullptr) {
  ModelBuilder m;
  EXPECT_EQ(build(m, p), ANEURALNETWORKS_NO_ERROR);
  auto r = nntest::runModel(m, {bytesOf(input)}, {outCount * sizeof(T)}, device);
  EXPECT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  if (r.status != ANEURALNETWORKS_NO_ERROR) return {};
  if (outDims) *outDims = r.outputDims[0];
  return valuesOf<T>(r.outputs[0]);
}

void expectNear(const std::vector<float>& actual, const std::vector<float>& expected,
                float tol = 1e-6f) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], tol) << "element " << i;
}

TEST(PoolTest, AverageFloatExplicitNoPadding) {
  PoolModel p;
  p.inDims = {1, 3, 3, 1};
  p.scalars = {0, 0, 0, 0, 1, 1, 2, 2, ANEURALNETWORKS_FUSED_NONE};
  p.outDims = {1, 2, 2, 1};
  std::vector<uint32_t> dims;
  auto out = run<float>(p, {1, 2, 3, 4, 5, 6, 7, 8, 9}, 4, &dims);
  expectNear(out, {3, 4, 6, 7});
  EXPECT_EQ(dims, (std::vector<uint32_t>{1, 2, 2, 1}));
}

TEST(PoolTest, AverageFloatPaddingDividesByCoveredElements) {
  PoolModel p;
  p.inDims = {1, 2, 2, 1};
  // Pad one column on the left and one row on top: edge windows cover fewer inputs.
  p.scalars = {1, 0, 1, 0, 1, 1, 2, 2, ANEURALNETWORKS_FUSED_NONE};
  p.outDims = {1, 2, 2, 1};
  auto out = run<float>(p, {1, 2, 3, 4}, 4);
  expectNear(out, {1.f, 1.5f, 2.f, 2.5f});
}

TEST(PoolTest, AverageFloatUnknownOutputShapeIsInferred) {
  PoolModel p;
  p.inDims = {2, 4, 6, 3};
  p.scalars = {ANEURALNETWORKS_PADDING_VALID, 2, 2, 2, 2, ANEURALNETWORKS_FUSED_NONE};
  p.outDims = {0, 0, 0, 0};
  std::vector<float> in(2 * 4 * 6 * 3);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 7);
  std::vector<uint32_t> dims;
  auto out = run<float>(p, in, 2 * 2 * 3 * 3, &dims);
  EXPECT_EQ(dims, (std::vector<uint32_t>{2, 2, 3, 3}));
  ASSERT_EQ(out.size(), 36u);
  // Spot-check batch 1, out (1, 2), channel 2 against a direct average.
  float sum = 0;
  for (int y = 2; y < 4; ++y)
    for (int x = 4; x < 6; ++x) sum += in[((1 * 4 + y) * 6 + x) * 3 + 2];
  EXPECT_NEAR(out[((1 * 2 + 1) * 3 + 2) * 3 + 2], sum / 4, 1e-6);
}

TEST(PoolTest, MaxFloatMultiChannelWithRelu6) {
  PoolModel p;
  p.op = ANEURALNETWORKS_MAX_POOL_2D;
  p.inDims = {1, 2, 2, 2};
  p.scalars = {0, 0, 0, 0, 2, 2, 2, 2, ANEURALNETWORKS_FUSED_RELU6};
  p.outDims = {1, 1, 1, 2};
  // Channel 0: 1, -2, 3, 8  -> max 8 -> 6.  Channel 1: -1, -5, -3, -4 -> max -1 -> 0.
  auto out = run<float>(p, {1, -1, -2, -5, 3, -3, 8, -4}, 2);
  expectNear(out, {6.f, 0.f});
}

TEST(PoolTest, MaxFloatImplicitSameStride2) {
  PoolModel p;
  p.op = ANEURALNETWORKS_MAX_POOL_2D;
  p.inDims = {1, 3, 3, 1};
  // SAME, stride 2, filter 2: out 2x2, padding 0 before and 1 after in each direction.
  p.scalars = {ANEURALNETWORKS_PADDING_SAME, 2, 2, 2, 2, ANEURALNETWORKS_FUSED_NONE};
  p.outDims = {1, 2, 2, 1};
  auto out = run<float>(p, {1, 2, 3, 4, 5, 6, 7, 8, 9}, 4);
  expectNear(out, {5, 6, 8, 9});
}

// A pool whose input is also read by a longer branch: the CPU driver runs it right after the
// input's producer instead of after the other branch (prepared_model.cc, hoistSharedPools).
// X -> T = X + X; U = T + T; V = U + T; P = MAX_POOL(T) (2x2, stride 1, SAME); Y = V + P.
TEST(PoolTest, MaxPoolSharingItsInputWithAnotherBranch) {
  ModelBuilder m;
  const std::vector<uint32_t> dims{1, 3, 3, 1};
  const int f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  const uint32_t x = m.addOperand(f32, dims), t = m.addOperand(f32, dims);
  const uint32_t u = m.addOperand(f32, dims), v = m.addOperand(f32, dims);
  const uint32_t pool = m.addOperand(f32, dims), y = m.addOperand(f32, dims);
  const uint32_t none = m.addInt32(ANEURALNETWORKS_FUSED_NONE);
  m.addOperation(ANEURALNETWORKS_ADD, {x, x, none}, {t});
  m.addOperation(ANEURALNETWORKS_ADD, {t, t, none}, {u});
  m.addOperation(ANEURALNETWORKS_ADD, {u, t, none}, {v});
  const uint32_t same = m.addInt32(ANEURALNETWORKS_PADDING_SAME);
  const uint32_t one = m.addInt32(1), two = m.addInt32(2);
  m.addOperation(ANEURALNETWORKS_MAX_POOL_2D, {t, same, one, one, two, two, none}, {pool});
  m.addOperation(ANEURALNETWORKS_ADD, {v, pool, none}, {y});
  ASSERT_EQ(m.finish({x}, {y, pool}), ANEURALNETWORKS_NO_ERROR);
  const std::vector<float> in{1, -2, 3, 4, 5, -6, 7, 8, 9};
  // T = 2X; max over each pixel's 2x2 window to the right and below (SAME pads after).
  const std::vector<float> pooled{10, 10, 6, 16, 18, 18, 16, 18, 18};
  std::vector<float> expected(in.size());
  for (size_t i = 0; i < in.size(); ++i) expected[i] = 6 * in[i] + pooled[i];
  for (const char* device : {static_cast<const char*>(nullptr), "nnapi-cpu-reference"}) {
    auto r = nntest::runModel(m, {bytesOf(in)}, {in.size() * 4, in.size() * 4}, device);
    ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
    expectNear(valuesOf<float>(r.outputs[0]), expected);
    expectNear(valuesOf<float>(r.outputs[1]), pooled);
  }
}

TEST(PoolTest, AverageImplicitSamePadsSymmetrically) {
  PoolModel p;
  p.inDims = {1, 1, 3, 1};
  // SAME, stride 1, filter 3 on width 3: one padding element on each side.
  p.scalars = {ANEURALNETWORKS_PADDING_SAME, 1, 1, 3, 1, ANEURALNETWORKS_FUSED_NONE};
  p.outDims = {1, 1, 3, 1};
  auto out = run<float>(p, {3, 6, 9}, 3);
  expectNear(out, {4.5f, 6.f, 7.5f});
}

TEST(PoolTest, L2Float) {
  PoolModel p;
  p.op = ANEURALNETWORKS_L2_POOL_2D;
  p.inDims = {1, 1, 4, 1};
  p.scalars = {0, 0, 0, 0, 2, 1, 2, 1, ANEURALNETWORKS_FUSED_RELU1};
  p.outDims = {1, 1, 2, 1};
  // sqrt((9 + 16) / 2) = 3.54 -> relu1 clamps to 1; sqrt((0.25 + 0.25) / 2) = 0.5.
  auto out = run<float>(p, {3, 4, 0.5f, -0.5f}, 2);
  expectNear(out, {1.f, 0.5f});
  p.scalars.back() = ANEURALNETWORKS_FUSED_NONE;
  out = run<float>(p, {3, 4, 0.5f, -0.5f}, 2);
  expectNear(out, {std::sqrt(12.5f), 0.5f});
}

TEST(PoolTest, NchwMatchesNhwc) {
  for (int op : {ANEURALNETWORKS_AVERAGE_POOL_2D, ANEURALNETWORKS_MAX_POOL_2D,
                 ANEURALNETWORKS_L2_POOL_2D}) {
    const uint32_t N = 2, H = 5, W = 4, C = 3;
    std::vector<float> nhwc(N * H * W * C), nchw(nhwc.size());
    std::mt19937 rng(op);
    std::uniform_real_distribution<float> dist(-3, 3);
    for (float& v : nhwc) v = dist(rng);
    for (uint32_t b = 0; b < N; ++b)
      for (uint32_t y = 0; y < H; ++y)
        for (uint32_t x = 0; x < W; ++x)
          for (uint32_t c = 0; c < C; ++c)
            nchw[((b * C + c) * H + y) * W + x] = nhwc[((b * H + y) * W + x) * C + c];
    PoolModel p;
    p.op = op;
    p.inDims = {N, H, W, C};
    p.scalars = {1, 0, 0, 1, 2, 1, 2, 3, ANEURALNETWORKS_FUSED_NONE};
    p.layout = 0;
    p.outDims = {0, 0, 0, 0};
    std::vector<uint32_t> dimsNhwc, dimsNchw;
    // out H = (5 + 1 - 3) / 1 + 1 = 4, out W = (4 + 1 - 2) / 2 + 1 = 2
    auto a = run<float>(p, nhwc, N * 4 * 2 * C, &dimsNhwc);
    p.inDims = {N, C, H, W};
    p.layout = 1;
    auto b = run<float>(p, nchw, N * 4 * 2 * C, &dimsNchw);
    EXPECT_EQ(dimsNhwc, (std::vector<uint32_t>{N, 4, 2, C}));
    EXPECT_EQ(dimsNchw, (std::vector<uint32_t>{N, C, 4, 2}));
    ASSERT_EQ(a.size(), b.size());
    for (uint32_t n = 0; n < N; ++n)
      for (uint32_t y = 0; y < 4; ++y)
        for (uint32_t x = 0; x < 2; ++x)
          for (uint32_t c = 0; c < C; ++c)
            EXPECT_FLOAT_EQ(a[((n * 4 + y) * 2 + x) * C + c], b[((n * C + c) * 4 + y) * 2 + x]);
  }
}

TEST(PoolTest, Float16Average) {
  PoolModel p;
  p.type = ANEURALNETWORKS_TENSOR_FLOAT16;
  p.inDims = {1, 2, 2, 1};
  p.scalars = {0, 0, 0, 0, 1, 1, 2, 2, ANEURALNETWORKS_FUSED_NONE};
  p.outDims = {1, 1, 1, 1};
  std::vector<_Float16> in{static_cast<_Float16>(1.5f), static_cast<_Float16>(2.5f),
                           static_cast<_Float16>(-1.f), static_cast<_Float16>(3.f)};
  auto out = run<_Float16>(p, in, 1);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_FLOAT_EQ(static_cast<float>(out[0]), 1.5f);
}

TEST(PoolTest, Quant8AverageRoundsHalfUp) {
  PoolModel p;
  p.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  p.scale = 0.5f;
  p.zeroPoint = 0;
  p.inDims = {1, 1, 9, 1};
  // Windows of 3 (stride 3): sums 4 -> 4/3 = 1.33 -> 1; 5 -> 1.67 -> 2; 6 -> 2 exactly.
  p.scalars = {0, 0, 0, 0, 3, 1, 3, 1, ANEURALNETWORKS_FUSED_NONE};
  p.outDims = {1, 1, 3, 1};
  auto out = run<uint8_t>(p, {1, 1, 2, 1, 2, 2, 2, 2, 2}, 3);
  EXPECT_EQ(out, (std::vector<uint8_t>{1, 2, 2}));
  // Windows of 2: sum 3 -> 1.5 rounds up to 2; sum 1 -> 0.5 rounds up to 1.
  p.inDims = {1, 1, 4, 1};
  p.scalars = {0, 0, 0, 0, 2, 1, 2, 1, ANEURALNETWORKS_FUSED_NONE};
  p.outDims = {1, 1, 2, 1};
  out = run<uint8_t>(p, {1, 2, 0, 1}, 2);
  EXPECT_EQ(out, (std::vector<uint8_t>{2, 1}));
}

TEST(PoolTest, Quant8ActivationClampsInQuantizedDomain) {
  PoolModel p;
  p.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  p.scale = 0.5f;
  p.zeroPoint = 100;
  p.inDims = {1, 1, 4, 1};
  p.scalars = {0, 0, 0, 0, 1, 1, 1, 1, ANEURALNETWORKS_FUSED_RELU1};
  p.outDims = {1, 1, 4, 1};
  // relu1 with scale 0.5, zero point 100: clamp to [98, 102].
  auto out = run<uint8_t>(p, {90, 99, 101, 200}, 4);
  EXPECT_EQ(out, (std::vector<uint8_t>{98, 99, 101, 102}));
  p.op = ANEURALNETWORKS_MAX_POOL_2D;
  p.scalars = {0, 0, 0, 0, 2, 1, 2, 1, ANEURALNETWORKS_FUSED_RELU};
  p.outDims = {1, 1, 2, 1};
  out = run<uint8_t>(p, {90, 95, 150, 3}, 2);
  EXPECT_EQ(out, (std::vector<uint8_t>{100, 150}));
}

TEST(PoolTest, Quant8SignedAverageRoundsAwayFromZero) {
  PoolModel p;
  p.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
  p.scale = 1.f;
  p.zeroPoint = 0;
  p.inDims = {1, 1, 4, 1};
  p.scalars = {0, 0, 0, 0, 2, 1, 2, 1, ANEURALNETWORKS_FUSED_NONE};
  p.outDims = {1, 1, 2, 1};
  // -3 / 2 = -1.5 -> -2; 3 / 2 = 1.5 -> 2.
  auto out = run<int8_t>(p, {-1, -2, 1, 2}, 2);
  EXPECT_EQ(out, (std::vector<int8_t>{-2, 2}));
}

TEST(PoolTest, Quant8AverageMatchesIntegerRoundingForManyWindowSizes) {
  // Every window size from 1x1 to 6x7 with padding, so windows are clipped to many different
  // element counts; expected values use the integer formula (sum + count/2) / count.
  std::mt19937 rng(3);
  const uint32_t H = 9, W = 10, C = 5;
  std::vector<uint8_t> in(H * W * C);
  for (uint8_t& v : in) v = static_cast<uint8_t>(rng());
  for (int fh = 1; fh <= 6; ++fh) {
    for (int fw = 1; fw <= 7; ++fw) {
      PoolModel p;
      p.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
      p.scale = 1.f;
      p.inDims = {1, H, W, C};
      p.scalars = {fw / 2, fw / 2, fh / 2, fh / 2, 1, 1, fw, fh, ANEURALNETWORKS_FUSED_NONE};
      p.outDims = {0, 0, 0, 0};
      const int OH = H + 2 * (fh / 2) - fh + 1, OW = W + 2 * (fw / 2) - fw + 1;
      auto out = run<uint8_t>(p, in, OH * OW * C);
      ASSERT_EQ(out.size(), static_cast<size_t>(OH * OW * C));
      for (int oy = 0; oy < OH; ++oy)
        for (int ox = 0; ox < OW; ++ox)
          for (uint32_t c = 0; c < C; ++c) {
            int sum = 0, count = 0;
            for (int y = oy - fh / 2; y < oy - fh / 2 + fh; ++y)
              for (int x = ox - fw / 2; x < ox - fw / 2 + fw; ++x)
                if (y >= 0 && y < static_cast<int>(H) && x >= 0 && x < static_cast<int>(W)) {
                  sum += in[(y * W + x) * C + c];
                  ++count;
                }
            ASSERT_EQ(out[(oy * OW + ox) * C + c], (sum + count / 2) / count)
                << "filter " << fw << "x" << fh << " at " << oy << "," << ox;
          }
    }
  }
}

// ---- invalid models ---------------------------------------------------------------------

int finishStatus(const PoolModel& p) {
  ModelBuilder m;
  return build(m, p);
}

PoolModel validAverage() {
  PoolModel p;
  p.inDims = {1, 4, 4, 1};
  p.scalars = {0, 0, 0, 0, 1, 1, 2, 2, ANEURALNETWORKS_FUSED_NONE};
  p.outDims = {1, 3, 3, 1};
  return p;
}

TEST(PoolTest, ValidBaselineFinishes) { EXPECT_EQ(finishStatus(validAverage()), ANEURALNETWORKS_NO_ERROR); }

TEST(PoolTest, RejectsNonPositiveStrideAndFilter) {
  PoolModel p = validAverage();
  p.scalars[4] = 0;
  EXPECT_EQ(finishStatus(p), ANEURALNETWORKS_BAD_DATA);
  p = validAverage();
  p.scalars[7] = -1;
  EXPECT_EQ(finishStatus(p), ANEURALNETWORKS_BAD_DATA);
}

TEST(PoolTest, RejectsNegativePaddingBadActivationAndScheme) {
  PoolModel p = validAverage();
  p.scalars[0] = -1;
  EXPECT_EQ(finishStatus(p), ANEURALNETWORKS_BAD_DATA);
  p = validAverage();
  p.scalars[8] = 4;
  EXPECT_EQ(finishStatus(p), ANEURALNETWORKS_BAD_DATA);
  p = validAverage();
  p.scalars = {3, 1, 1, 2, 2, ANEURALNETWORKS_FUSED_NONE};  // padding scheme 3 does not exist
  EXPECT_EQ(finishStatus(p), ANEURALNETWORKS_BAD_DATA);
}

TEST(PoolTest, RejectsWrongInputCountAndTypes) {
  PoolModel p = validAverage();
  p.scalars.pop_back();  // 9 inputs
  EXPECT_EQ(finishStatus(p), ANEURALNETWORKS_BAD_DATA);
  p = validAverage();
  p.type = ANEURALNETWORKS_TENSOR_INT32;
  EXPECT_EQ(finishStatus(p), ANEURALNETWORKS_BAD_DATA);
  p = validAverage();
  p.op = ANEURALNETWORKS_L2_POOL_2D;
  p.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  p.scale = 0.5f;
  EXPECT_EQ(finishStatus(p), ANEURALNETWORKS_BAD_DATA);
  p = validAverage();
  p.inDims = {4, 4, 1};
  p.outDims = {3, 3, 1};
  EXPECT_EQ(finishStatus(p), ANEURALNETWORKS_BAD_DATA);
}

TEST(PoolTest, RejectsQuantizedOutputWithDifferentScale) {
  PoolModel p = validAverage();
  p.op = ANEURALNETWORKS_MAX_POOL_2D;
  p.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  p.scale = 0.5f;
  p.outScale = 0.25f;
  EXPECT_EQ(finishStatus(p), ANEURALNETWORKS_BAD_DATA);
}

TEST(PoolTest, FilterLargerThanInputFails) {
  PoolModel p;
  p.inDims = {1, 2, 2, 1};
  p.scalars = {ANEURALNETWORKS_PADDING_VALID, 1, 1, 3, 3, ANEURALNETWORKS_FUSED_NONE};
  p.outDims = {0, 0, 0, 0};
  ModelBuilder m;
  // Constants and fully specified inputs decide the shape rule: finish rejects it (issue 9).
  ASSERT_EQ(build(m, p), ANEURALNETWORKS_BAD_DATA);
}

// ---- default device vs reference device ----------------------------------------------------

TEST(PoolTest, DefaultDeviceMatchesReferenceOnLargeInputs) {
  std::mt19937 rng(7);
  for (int op : {ANEURALNETWORKS_AVERAGE_POOL_2D, ANEURALNETWORKS_MAX_POOL_2D,
                 ANEURALNETWORKS_L2_POOL_2D}) {
    PoolModel p;
    p.op = op;
    p.inDims = {3, 70, 61, 32};  // large enough for the kernel to split the work
    p.scalars = {1, 2, 2, 1, 2, 1, 3, 4, ANEURALNETWORKS_FUSED_NONE};
    p.outDims = {0, 0, 0, 0};
    std::vector<float> in(3 * 70 * 61 * 32);
    std::uniform_real_distribution<float> dist(-5, 5);
    for (float& v : in) v = dist(rng);
    const size_t outCount = 3 * ((70 + 3 - 4) / 1 + 1) * ((61 + 3 - 3) / 2 + 1) * 32;
    auto a = run<float>(p, in, outCount);
    auto b = run<float>(p, in, outCount, nullptr, "nnapi-cpu-reference");
    ASSERT_EQ(a.size(), outCount);
    ASSERT_EQ(a, b);
  }
  PoolModel q;
  q.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  q.scale = 0.1f;
  q.zeroPoint = 128;
  q.inDims = {4, 96, 96, 32};
  q.scalars = {ANEURALNETWORKS_PADDING_SAME, 2, 2, 3, 3, ANEURALNETWORKS_FUSED_RELU6};
  q.outDims = {0, 0, 0, 0};
  std::vector<uint8_t> in(4 * 96 * 96 * 32);
  for (uint8_t& v : in) v = static_cast<uint8_t>(rng());
  auto a = run<uint8_t>(q, in, 4 * 48 * 48 * 32);
  auto b = run<uint8_t>(q, in, 4 * 48 * 48 * 32, nullptr, "nnapi-cpu-reference");
  ASSERT_EQ(a.size(), 4u * 48 * 48 * 32);
  EXPECT_EQ(a, b);
}

// Full 2x2 windows take a shortcut in the kernel (shared by both CPU devices): checked against
// a loop in the general kernel's order (row by row, starting from the lowest float), with
// -inf, -0.0 and the right/bottom padding's partial windows.
TEST(PoolTest, MaxFloat2x2MatchesOrderedLoop) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(-8, 8);
  const uint32_t n = 2, h = 9, w = 9, c = 28, oh = 5, ow = 5;
  std::vector<float> in(n * h * w * c);
  for (float& v : in) {
    const uint32_t r = rng() % 16;
    v = r == 0 ? -INFINITY : r == 1 ? -0.0f : dist(rng);
  }
  PoolModel p;
  p.op = ANEURALNETWORKS_MAX_POOL_2D;
  p.inDims = {n, h, w, c};
  p.scalars = {0, 1, 0, 1, 2, 2, 2, 2, ANEURALNETWORKS_FUSED_RELU6};
  p.outDims = {n, oh, ow, c};
  for (const char* device : {static_cast<const char*>(nullptr), "nnapi-cpu-reference"}) {
    auto got = run<float>(p, in, n * oh * ow * c, nullptr, device);
    ASSERT_EQ(got.size(), size_t{n} * oh * ow * c);
    for (uint32_t b = 0; b < n; ++b)
      for (uint32_t y = 0; y < oh; ++y)
        for (uint32_t x = 0; x < ow; ++x)
          for (uint32_t k = 0; k < c; ++k) {
            float v = std::numeric_limits<float>::lowest();
            for (uint32_t yy = 2 * y; yy < std::min(h, 2 * y + 2); ++yy)
              for (uint32_t xx = 2 * x; xx < std::min(w, 2 * x + 2); ++xx)
                v = std::max(v, in[((b * h + yy) * w + xx) * c + k]);
            const float want = std::min(6.f, std::max(0.f, v));
            const float g = got[((b * oh + y) * ow + x) * c + k];
            ASSERT_EQ(std::signbit(want), std::signbit(g));
            ASSERT_EQ(want, g) << (device ? device : "default") << " " << b << "," << y << ","
                               << x << "," << k;
          }
  }
}

}  // namespace
