// Comparisons, logical ops, SELECT, unary math, POW/MAXIMUM/MINIMUM/PRELU, CAST, QUANTIZE,
// HARD_SWISH, ELU, LOG_SOFTMAX through the public C API: hand-computed cases, invalid
// signatures rejected with BAD_DATA, and the default kernels against the reference device.
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include "test_util.h"

namespace {

using nntest::bytesOf;
using nntest::ModelBuilder;
using nntest::runModel;
using nntest::valuesOf;

using Half = _Float16;

constexpr int kF32 = ANEURALNETWORKS_TENSOR_FLOAT32;
constexpr int kF16 = ANEURALNETWORKS_TENSOR_FLOAT16;
constexpr int kI32 = ANEURALNETWORKS_TENSOR_INT32;
constexpr int kQ8 = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
constexpr int kQ8S = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
constexpr int kB8 = ANEURALNETWORKS_TENSOR_BOOL8;
constexpr const char* kReference = "nnapi-cpu-reference";

struct Spec {
  int type;
  std::vector<uint32_t> dims;
  float scale = 0.f;
  int32_t zeroPoint = 0;
};

size_t countOf(const std::vector<uint32_t>& dims) {
  size_t n = 1;
  for (uint32_t d : dims) n *= d;
  return n;
}
size_t bytesPer(int type) {
  switch (type) {
    case kF32:
    case kI32: return 4;
    case kF16: return 2;
    default: return 1;
  }
}

// Appends constant scalar operands after the tensor inputs.
using ExtraFn = std::function<void(ModelBuilder&, std::vector<uint32_t>*)>;

// Builds op(tensor inputs..., extras...) -> out. Returns the finish status.
int build(ModelBuilder& m, int op, const std::vector<Spec>& ins, const Spec& out,
          const ExtraFn& extra = nullptr) {
  std::vector<uint32_t> inputs;
  for (const Spec& s : ins) inputs.push_back(m.addOperand(s.type, s.dims, s.scale, s.zeroPoint));
  std::vector<uint32_t> modelInputs = inputs;
  if (extra) extra(m, &inputs);
  const uint32_t o = m.addOperand(out.type, out.dims, out.scale, out.zeroPoint);
  m.addOperation(op, inputs, {o});
  return m.finish(modelInputs, {o});
}

int finishStatus(int op, const std::vector<Spec>& ins, const Spec& out,
                 const ExtraFn& extra = nullptr) {
  ModelBuilder m;
  return build(m, op, ins, out, extra);
}

template <typename TOut>
std::vector<TOut> run(int op, const std::vector<Spec>& ins,
                      const std::vector<std::vector<uint8_t>>& data, const Spec& out,
                      const ExtraFn& extra = nullptr, const char* device = nullptr) {
  ModelBuilder m;
  EXPECT_EQ(build(m, op, ins, out, extra), ANEURALNETWORKS_NO_ERROR);
  auto r = runModel(m, data, {countOf(out.dims) * bytesPer(out.type)}, device);
  EXPECT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  if (r.status != ANEURALNETWORKS_NO_ERROR) return {};
  return valuesOf<TOut>(r.outputs[0]);
}

void expectNear(const std::vector<float>& actual, const std::vector<float>& expected,
                float tol = 1e-5f) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], tol + 1e-5f * std::fabs(expected[i])) << "at " << i;
}

using U8 = std::vector<uint8_t>;
using I8 = std::vector<int8_t>;
using F32 = std::vector<float>;
using I32 = std::vector<int32_t>;

// ---------------------------------------------------------------------------------------
// HARD_SWISH

TEST(HardSwish, Float32MatchesFormula) {
  const F32 in = {-4.f, -3.f, -1.5f, 0.f, 1.f, 3.f, 5.f};
  auto out = run<float>(ANEURALNETWORKS_HARD_SWISH, {{kF32, {7}}}, {bytesOf(in)}, {kF32, {7}});
  // x * relu6(x + 3) / 6
  expectNear(out, {0.f, 0.f, -0.375f, 0.f, 4.f / 6.f, 3.f, 5.f});
}

TEST(HardSwish, Float16) {
  const std::vector<Half> in = {Half(-1.5f), Half(1.f), Half(4.f)};
  auto out = run<Half>(ANEURALNETWORKS_HARD_SWISH, {{kF16, {3}}}, {bytesOf(in)}, {kF16, {3}});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_NEAR(float(out[0]), -0.375f, 1e-3f);
  EXPECT_NEAR(float(out[1]), 4.f / 6.f, 1e-3f);
  EXPECT_NEAR(float(out[2]), 4.f, 1e-3f);
}

TEST(HardSwish, Quant8FixedPoint) {
  // Input scale 1/12.8 (zp 128), output scale 1/32 (zp 0).
  // 128 -> 0.0 -> 0; 0 -> -10.0 -> 0; 144 -> 1.25 -> 0.8854 (28.33 steps): the 16-bit
  // fixed-point path gives 28; 167 -> 3.046875 -> 97.5 steps: the truncating final multiply
  // lands on 97.
  const Spec in{kQ8, {4}, 0.078125f, 128}, out{kQ8, {4}, 0.03125f, 0};
  auto r = run<uint8_t>(ANEURALNETWORKS_HARD_SWISH, {in}, {U8{128, 0, 144, 167}}, out);
  EXPECT_EQ(r, (U8{0, 0, 28, 97}));
  // The signed variant is the same arithmetic shifted by -128 on both sides.
  const Spec ins{kQ8S, {4}, 0.078125f, 0}, outs{kQ8S, {4}, 0.03125f, -128};
  auto s = run<int8_t>(ANEURALNETWORKS_HARD_SWISH, {ins}, {bytesOf(I8{0, -128, 16, 39})}, outs);
  EXPECT_EQ(s, (I8{-128, -128, -100, -31}));
}

TEST(HardSwish, Quant8WithinOneOfFloat) {
  const Spec in{kQ8, {256}, 0.05f, 100}, out{kQ8, {256}, 0.04f, 20};
  U8 v(256);
  for (int i = 0; i < 256; ++i) v[i] = static_cast<uint8_t>(i);
  auto r = run<uint8_t>(ANEURALNETWORKS_HARD_SWISH, {in}, {v}, out);
  ASSERT_EQ(r.size(), 256u);
  for (int i = 0; i < 256; ++i) {
    const float x = (i - 100) * 0.05f;
    const float y = x * std::min(6.f, std::max(0.f, x + 3.f)) / 6.f;
    const float q = std::min(255.f, std::max(0.f, std::round(y / 0.04f) + 20));
    EXPECT_NEAR(r[i], q, 1.0f) << "input " << i;
  }
}

// ---------------------------------------------------------------------------------------
// Comparisons

TEST(Comparison, FloatBroadcast) {
  const Spec a{kF32, {2, 2}}, b{kF32, {2}}, o{kB8, {2, 2}};
  const F32 av = {1.f, 5.f, 3.f, 2.f}, bv = {3.f, 2.f};
  auto data = std::vector<std::vector<uint8_t>>{bytesOf(av), bytesOf(bv)};
  EXPECT_EQ(run<uint8_t>(ANEURALNETWORKS_LESS, {a, b}, data, o), (U8{1, 0, 0, 0}));
  EXPECT_EQ(run<uint8_t>(ANEURALNETWORKS_LESS_EQUAL, {a, b}, data, o), (U8{1, 0, 1, 1}));
  EXPECT_EQ(run<uint8_t>(ANEURALNETWORKS_GREATER, {a, b}, data, o), (U8{0, 1, 0, 0}));
  EXPECT_EQ(run<uint8_t>(ANEURALNETWORKS_GREATER_EQUAL, {a, b}, data, o), (U8{0, 1, 1, 1}));
  EXPECT_EQ(run<uint8_t>(ANEURALNETWORKS_EQUAL, {a, b}, data, o), (U8{0, 0, 1, 1}));
  EXPECT_EQ(run<uint8_t>(ANEURALNETWORKS_NOT_EQUAL, {a, b}, data, o), (U8{1, 1, 0, 0}));
}

TEST(Comparison, Int32AndBool8) {
  const I32 av = {-5, 0, 7}, bv = {-5, 1, 6};
  EXPECT_EQ(run<uint8_t>(ANEURALNETWORKS_GREATER, {{kI32, {3}}, {kI32, {3}}},
                         {bytesOf(av), bytesOf(bv)}, {kB8, {3}}),
            (U8{0, 0, 1}));
  // Any non-zero byte is true.
  EXPECT_EQ(run<uint8_t>(ANEURALNETWORKS_EQUAL, {{kB8, {3}}, {kB8, {3}}}, {U8{2, 0, 1}, U8{1, 0, 0}},
                         {kB8, {3}}),
            (U8{1, 1, 0}));
}

TEST(Comparison, Quant8ComparesRealValues) {
  // a: scale 0.5 zp 0 -> {1.0, 2.0, 0.5}; b: scale 1.0 zp 10 -> {1.0, 1.0, 1.0}.
  const Spec a{kQ8, {3}, 0.5f, 0}, b{kQ8, {3}, 1.f, 10}, o{kB8, {3}};
  const std::vector<std::vector<uint8_t>> data = {U8{2, 4, 1}, U8{11, 11, 11}};
  EXPECT_EQ(run<uint8_t>(ANEURALNETWORKS_EQUAL, {a, b}, data, o), (U8{1, 0, 0}));
  EXPECT_EQ(run<uint8_t>(ANEURALNETWORKS_GREATER, {a, b}, data, o), (U8{0, 1, 0}));
  const Spec as{kQ8S, {3}, 0.5f, -10}, bs{kQ8S, {3}, 1.f, 0};
  const std::vector<std::vector<uint8_t>> sdata = {bytesOf(I8{-8, -6, -9}), bytesOf(I8{1, 1, 1})};
  EXPECT_EQ(run<uint8_t>(ANEURALNETWORKS_LESS, {as, bs}, sdata, o), (U8{0, 0, 1}));
}

// ---------------------------------------------------------------------------------------
// Logical and SELECT

TEST(Logical, AndOrBroadcastAndNot) {
  const Spec a{kB8, {2, 2}}, b{kB8, {2}}, o{kB8, {2, 2}};
  const std::vector<std::vector<uint8_t>> data = {U8{0, 1, 3, 0}, U8{1, 0}};
  EXPECT_EQ(run<uint8_t>(ANEURALNETWORKS_LOGICAL_AND, {a, b}, data, o), (U8{0, 0, 1, 0}));
  EXPECT_EQ(run<uint8_t>(ANEURALNETWORKS_LOGICAL_OR, {a, b}, data, o), (U8{1, 1, 1, 0}));
  EXPECT_EQ(run<uint8_t>(ANEURALNETWORKS_LOGICAL_NOT, {{kB8, {3}}}, {U8{0, 1, 7}}, {kB8, {3}}),
            (U8{1, 0, 0}));
}

TEST(Select, FloatInt32AndQuant8Requantized) {
  const U8 cond = {1, 0, 0};
  auto f = run<float>(ANEURALNETWORKS_SELECT, {{kB8, {3}}, {kF32, {3}}, {kF32, {3}}},
                      {cond, bytesOf(F32{1.5f, 2.5f, 3.5f}), bytesOf(F32{-1.f, -2.f, -3.f})},
                      {kF32, {3}});
  expectNear(f, {1.5f, -2.f, -3.f});
  auto i = run<int32_t>(ANEURALNETWORKS_SELECT, {{kB8, {3}}, {kI32, {3}}, {kI32, {3}}},
                        {cond, bytesOf(I32{7, 8, 9}), bytesOf(I32{-7, -8, -9})}, {kI32, {3}});
  EXPECT_EQ(i, (I32{7, -8, -9}));
  // a: scale 1 -> {10, 20, 30}; b: scale 2 -> {6, 8, 200}; output scale 0.5 zp 3.
  auto q = run<uint8_t>(ANEURALNETWORKS_SELECT,
                        {{kB8, {3}}, {kQ8, {3}, 1.f, 0}, {kQ8, {3}, 2.f, 0}},
                        {cond, U8{10, 20, 30}, U8{3, 4, 100}}, {kQ8, {3}, 0.5f, 3});
  EXPECT_EQ(q, (U8{23, 19, 255}));
}

// ---------------------------------------------------------------------------------------
// Unary math

TEST(Unary, FloatFunctions) {
  const F32 in = {0.25f, 1.f, 4.f};
  auto one = [&](int op) {
    return run<float>(op, {{kF32, {3}}}, {bytesOf(in)}, {kF32, {3}});
  };
  expectNear(one(ANEURALNETWORKS_SQRT), {0.5f, 1.f, 2.f});
  expectNear(one(ANEURALNETWORKS_RSQRT), {2.f, 1.f, 0.5f});
  expectNear(one(ANEURALNETWORKS_LOG), {std::log(0.25f), 0.f, std::log(4.f)});
  expectNear(one(ANEURALNETWORKS_EXP), {std::exp(0.25f), std::exp(1.f), std::exp(4.f)});
  expectNear(one(ANEURALNETWORKS_SIN), {std::sin(0.25f), std::sin(1.f), std::sin(4.f)});
  expectNear(run<float>(ANEURALNETWORKS_NEG, {{kF32, {2}}}, {bytesOf(F32{2.f, -0.5f})}, {kF32, {2}}),
             {-2.f, 0.5f});
  expectNear(run<float>(ANEURALNETWORKS_ABS, {{kF32, {2}}}, {bytesOf(F32{2.f, -0.5f})}, {kF32, {2}}),
             {2.f, 0.5f});
}

TEST(Unary, Int32AbsNegWrapAtMinimum) {
  const int32_t kMin = std::numeric_limits<int32_t>::min();
  const I32 in = {-3, 4, kMin};
  EXPECT_EQ(run<int32_t>(ANEURALNETWORKS_ABS, {{kI32, {3}}}, {bytesOf(in)}, {kI32, {3}}),
            (I32{3, 4, kMin}));
  EXPECT_EQ(run<int32_t>(ANEURALNETWORKS_NEG, {{kI32, {3}}}, {bytesOf(in)}, {kI32, {3}}),
            (I32{3, -4, kMin}));
}

TEST(Unary, RsqrtQuant8) {
  // Input scale 0.5 zp 10: 12 -> 1.0, 18 -> 4.0, 10 -> 0 (maps to the maximum).
  // Output scale 0.1: 1/sqrt(1) = 1 -> 10, 1/sqrt(4) = 0.5 -> 5.
  auto r = run<uint8_t>(ANEURALNETWORKS_RSQRT, {{kQ8, {3}, 0.5f, 10}}, {U8{12, 18, 10}},
                        {kQ8, {3}, 0.1f, 0});
  EXPECT_EQ(r, (U8{10, 5, 255}));
}

// ---------------------------------------------------------------------------------------
// POW, MAXIMUM, MINIMUM, PRELU

TEST(BinaryExt, PowBroadcast) {
  auto r = run<float>(ANEURALNETWORKS_POW, {{kF32, {2, 2}}, {kF32, {2}}},
                      {bytesOf(F32{2.f, 9.f, 3.f, 4.f}), bytesOf(F32{3.f, 0.5f})}, {kF32, {2, 2}});
  expectNear(r, {8.f, 3.f, 27.f, 2.f});
}

TEST(BinaryExt, MaxMinInt32AndFloat) {
  const std::vector<std::vector<uint8_t>> d = {bytesOf(I32{1, -5, 9}), bytesOf(I32{2})};
  EXPECT_EQ(run<int32_t>(ANEURALNETWORKS_MAXIMUM, {{kI32, {3}}, {kI32, {1}}}, d, {kI32, {3}}),
            (I32{2, 2, 9}));
  EXPECT_EQ(run<int32_t>(ANEURALNETWORKS_MINIMUM, {{kI32, {3}}, {kI32, {1}}}, d, {kI32, {3}}),
            (I32{1, -5, 2}));
  expectNear(run<float>(ANEURALNETWORKS_MAXIMUM, {{kF32, {2}}, {kF32, {2}}},
                        {bytesOf(F32{-1.f, 3.f}), bytesOf(F32{0.5f, 2.f})}, {kF32, {2}}),
             {0.5f, 3.f});
}

TEST(BinaryExt, MaxMinQuant8RequantizeToOutput) {
  // a: scale 0.5 zp 100 -> {1.0, -2.0}; b: scale 0.25 zp 0 -> {0.5, 1.0}; out scale 0.1 zp 50.
  const Spec a{kQ8, {2}, 0.5f, 100}, b{kQ8, {2}, 0.25f, 0}, o{kQ8, {2}, 0.1f, 50};
  const std::vector<std::vector<uint8_t>> d = {U8{102, 96}, U8{2, 4}};
  EXPECT_EQ(run<uint8_t>(ANEURALNETWORKS_MAXIMUM, {a, b}, d, o), (U8{60, 60}));
  // min: 0.5 -> 55; -2.0 -> 30.
  EXPECT_EQ(run<uint8_t>(ANEURALNETWORKS_MINIMUM, {a, b}, d, o), (U8{55, 30}));
}

TEST(BinaryExt, PreluFloatPerChannel) {
  auto r = run<float>(ANEURALNETWORKS_PRELU, {{kF32, {2, 2}}, {kF32, {2}}},
                      {bytesOf(F32{-2.f, -2.f, 3.f, -4.f}), bytesOf(F32{0.5f, 0.25f})},
                      {kF32, {2, 2}});
  expectNear(r, {-1.f, -0.5f, 3.f, -1.f});
}

TEST(BinaryExt, PreluQuant8) {
  // x scale 0.5 zp 128: 120 -> -4.0, 130 -> 1.0; alpha 0.25 (scale 0.25, value 1).
  // -4 * 0.25 = -1.0 -> 126; 1.0 -> 130 (output scale 0.5 zp 128).
  auto r = run<uint8_t>(ANEURALNETWORKS_PRELU, {{kQ8, {2}, 0.5f, 128}, {kQ8, {1}, 0.25f, 0}},
                        {U8{120, 130}, U8{1}}, {kQ8, {2}, 0.5f, 128});
  EXPECT_EQ(r, (U8{126, 130}));
  auto s = run<int8_t>(ANEURALNETWORKS_PRELU, {{kQ8S, {2}, 0.5f, 0}, {kQ8S, {1}, 0.25f, 0}},
                       {bytesOf(I8{-8, 2}), bytesOf(I8{1})}, {kQ8S, {2}, 0.5f, 0});
  EXPECT_EQ(s, (I8{-2, 2}));
}

// ---------------------------------------------------------------------------------------
// CAST and QUANTIZE

TEST(Cast, FloatToIntegerTruncatesAndSaturates) {
  const F32 in = {1.7f, -1.7f, 3e9f, -3e9f};
  EXPECT_EQ(run<int32_t>(ANEURALNETWORKS_CAST, {{kF32, {4}}}, {bytesOf(in)}, {kI32, {4}}),
            (I32{1, -1, std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::min()}));
  // Quantization parameters are ignored: values convert as plain numbers.
  EXPECT_EQ(run<uint8_t>(ANEURALNETWORKS_CAST, {{kF32, {4}}}, {bytesOf(F32{-3.f, 2.9f, 300.f, 7.f})},
                         {kQ8, {4}, 4.f, 100}),
            (U8{0, 2, 255, 7}));
}

TEST(Cast, IntegerAndQuantToFloat) {
  auto f = run<float>(ANEURALNETWORKS_CAST, {{kQ8, {2}, 4.f, 100}}, {U8{3, 200}}, {kF32, {2}});
  expectNear(f, {3.f, 200.f});
  auto h = run<Half>(ANEURALNETWORKS_CAST, {{kI32, {2}}}, {bytesOf(I32{-2, 1000})}, {kF16, {2}});
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(float(h[0]), -2.f);
  EXPECT_EQ(float(h[1]), 1000.f);
  auto q = run<uint8_t>(ANEURALNETWORKS_CAST, {{kI32, {3}}}, {bytesOf(I32{-1, 77, 1000})},
                        {kQ8, {3}, 1.f, 0});
  EXPECT_EQ(q, (U8{0, 77, 255}));
}

TEST(Cast, IdentityBool8) {
  EXPECT_EQ(run<uint8_t>(ANEURALNETWORKS_CAST, {{kB8, {3}}}, {U8{1, 0, 1}}, {kB8, {3}}),
            (U8{1, 0, 1}));
}

TEST(Quantize, RoundsAndSaturates) {
  // scale 0.5 zp 10: 0.25 -> round(0.5) = 1 -> 11; -10 -> -20 + 10 -> 0; 200 -> 255; 1.2 -> 12.
  const F32 in = {0.25f, -10.f, 200.f, 1.2f};
  EXPECT_EQ(run<uint8_t>(ANEURALNETWORKS_QUANTIZE, {{kF32, {4}}}, {bytesOf(in)}, {kQ8, {4}, 0.5f, 10}),
            (U8{11, 0, 255, 12}));
  EXPECT_EQ(run<int8_t>(ANEURALNETWORKS_QUANTIZE, {{kF32, {4}}}, {bytesOf(in)}, {kQ8S, {4}, 0.5f, -5}),
            (I8{-4, -25, 127, -3}));
  const std::vector<Half> h = {Half(-0.75f), Half(2.f)};
  EXPECT_EQ(run<uint8_t>(ANEURALNETWORKS_QUANTIZE, {{kF16, {2}}}, {bytesOf(h)}, {kQ8, {2}, 0.5f, 10}),
            (U8{8, 14}));
}

// ---------------------------------------------------------------------------------------
// ELU and LOG_SOFTMAX

TEST(Elu, Float32AndFloat16Alpha) {
  auto r = run<float>(ANEURALNETWORKS_ELU, {{kF32, {3}}}, {bytesOf(F32{-1.f, 0.f, 2.f})}, {kF32, {3}},
                      [](ModelBuilder& m, std::vector<uint32_t>* in) { in->push_back(m.addFloat32(0.5f)); });
  expectNear(r, {0.5f * (std::exp(-1.f) - 1.f), 0.f, 2.f});
  auto h = run<Half>(ANEURALNETWORKS_ELU, {{kF16, {2}}}, {bytesOf(std::vector<Half>{Half(-2.f), Half(1.f)})},
                     {kF16, {2}}, [](ModelBuilder& m, std::vector<uint32_t>* in) {
                       in->push_back(m.addConstant<Half>(ANEURALNETWORKS_FLOAT16, {}, {Half(2.f)}));
                     });
  ASSERT_EQ(h.size(), 2u);
  EXPECT_NEAR(float(h[0]), 2.f * (std::exp(-2.f) - 1.f), 2e-3f);
  EXPECT_NEAR(float(h[1]), 1.f, 1e-3f);
}

TEST(LogSoftmax, AxisAndBeta) {
  auto extra = [](float beta, int32_t axis) {
    return [=](ModelBuilder& m, std::vector<uint32_t>* in) {
      in->push_back(m.addFloat32(beta));
      in->push_back(m.addInt32(axis));
    };
  };
  // Last axis, beta 1: x - log(e + e^2 + e^3).
  const float lse = std::log(std::exp(1.f) + std::exp(2.f) + std::exp(3.f));
  auto r = run<float>(ANEURALNETWORKS_LOG_SOFTMAX, {{kF32, {1, 3}}}, {bytesOf(F32{1.f, 2.f, 3.f})},
                      {kF32, {1, 3}}, extra(1.f, -1));
  expectNear(r, {1.f - lse, 2.f - lse, 3.f - lse});
  // Axis 0 of [2, 2] with beta 2: columns {0, 1} and {1, 3}.
  auto c = run<float>(ANEURALNETWORKS_LOG_SOFTMAX, {{kF32, {2, 2}}}, {bytesOf(F32{0.f, 1.f, 1.f, 3.f})},
                      {kF32, {2, 2}}, extra(2.f, 0));
  const float l0 = std::log(std::exp(0.f) + std::exp(2.f));
  const float l1 = std::log(std::exp(2.f) + std::exp(6.f));
  expectNear(c, {0.f - l0, 2.f - l1, 2.f - l0, 6.f - l1});
}

// ---------------------------------------------------------------------------------------
// Invalid signatures

TEST(Elementwise2Validation, RejectsBadSignatures) {
  const Spec f{kF32, {2, 3}}, i{kI32, {2, 3}}, b{kB8, {2, 3}}, q{kQ8, {2, 3}, 0.5f, 0};
  // Comparison output must be BOOL8; inputs must share a type; shapes must broadcast.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_LESS, {f, f}, f), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_EQUAL, {f, i}, b), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_GREATER, {f, {kF32, {4}}}, b), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_LESS, {f}, b), ANEURALNETWORKS_BAD_DATA);
  // Logical ops take BOOL8 only.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_LOGICAL_AND, {f, f}, b), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_LOGICAL_NOT, {i}, i), ANEURALNETWORKS_BAD_DATA);
  // SELECT: condition must be BOOL8, shapes equal, output type matches.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_SELECT, {f, f, f}, f), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_SELECT, {b, f, {kF32, {3, 2}}}, f), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_SELECT, {b, f, f}, i), ANEURALNETWORKS_BAD_DATA);
  // Unary math: EXP has no INT32 form; ABS has no BOOL8 form; SQRT no quant8.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_EXP, {i}, i), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_ABS, {b}, b), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_SQRT, {q}, q), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_NEG, {f}, i), ANEURALNETWORKS_BAD_DATA);
  // POW is float only; PRELU has no INT32; quant8 scales must be positive.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_POW, {q, q}, q), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_PRELU, {i, i}, i), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_MAXIMUM, {q, q}, {kQ8, {2, 3}, 0.f, 0}),
            ANEURALNETWORKS_BAD_DATA);
  // CAST: BOOL8 only casts to itself; QUANTIZE produces quant8 from float only.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_CAST, {b}, i), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_QUANTIZE, {f}, f), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_QUANTIZE, {i}, q), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_QUANTIZE, {f}, {kQ8, {2, 3}, 0.f, 0}), ANEURALNETWORKS_BAD_DATA);
  // HARD_SWISH: no INT32.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_HARD_SWISH, {i}, i), ANEURALNETWORKS_BAD_DATA);
  // ELU alpha must be FLOAT16 for a TENSOR_FLOAT16 input.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_ELU, {{kF16, {2}}}, {kF16, {2}},
                         [](ModelBuilder& m, std::vector<uint32_t>* in) { in->push_back(m.addFloat32(1.f)); }),
            ANEURALNETWORKS_BAD_DATA);
  // LOG_SOFTMAX: constant axis out of range, wrong beta type.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_LOG_SOFTMAX, {f}, f,
                         [](ModelBuilder& m, std::vector<uint32_t>* in) {
                           in->push_back(m.addFloat32(1.f));
                           in->push_back(m.addInt32(2));
                         }),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_LOG_SOFTMAX, {f}, f,
                         [](ModelBuilder& m, std::vector<uint32_t>* in) {
                           in->push_back(m.addInt32(1));
                           in->push_back(m.addInt32(0));
                         }),
            ANEURALNETWORKS_BAD_DATA);
  // Sanity: the valid forms pass.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_LESS, {f, {kF32, {3}}}, b), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_SELECT, {b, q, {kQ8, {2, 3}, 2.f, 3}}, {kQ8, {2, 3}, 1.f, 0}),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_CAST, {f}, q), ANEURALNETWORKS_NO_ERROR);
}

TEST(Elementwise2Validation, ShapeMismatchAtExecution) {
  // SELECT shapes unknown in the model; the mismatch only shows at execution.
  ModelBuilder m;
  const uint32_t c = m.addOperand(kB8, {0});
  const uint32_t a = m.addOperand(kF32, {0});
  const uint32_t b = m.addOperand(kF32, {0});
  const uint32_t o = m.addOperand(kF32, {0});
  m.addOperation(ANEURALNETWORKS_SELECT, {c, a, b}, {o});
  ASSERT_EQ(m.finish({c, a, b}, {o}), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksCompilation* comp = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_create(m.get(), &comp), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(comp), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(comp, &e), ANEURALNETWORKS_NO_ERROR);
  U8 cv(3, 1);
  F32 av(3, 1.f), bv(2, 2.f), ov(3);
  const uint32_t d3[] = {3}, d2[] = {2};
  ANeuralNetworksOperandType ct{kB8, 1, d3, 0.f, 0}, at{kF32, 1, d3, 0.f, 0}, bt{kF32, 1, d2, 0.f, 0};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, &ct, cv.data(), cv.size()), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 1, &at, av.data(), av.size() * 4), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 2, &bt, bv.data(), bv.size() * 4), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, &at, ov.data(), ov.size() * 4), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_OP_FAILED);
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksCompilation_free(comp);
}

// ---------------------------------------------------------------------------------------
// Default device vs reference device on random inputs (large enough to split across threads)

template <typename T>
std::vector<T> randomValues(size_t n, std::mt19937& rng) {
  std::uniform_int_distribution<int> d(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(d(rng));
  return v;
}

TEST(Elementwise2Property, FastMatchesReference) {
  std::mt19937 rng(1234);
  const std::vector<uint32_t> big = {2, 150, 300, 2}, chan = {300, 1};
  const size_t n = countOf(big), nc = countOf(chan);
  struct Case {
    int op;
    std::vector<Spec> ins;
    Spec out;
  };
  const std::vector<Case> cases = {
      {ANEURALNETWORKS_HARD_SWISH, {{kQ8, big, 0.06f, 120}}, {kQ8, big, 0.03f, 30}},
      {ANEURALNETWORKS_HARD_SWISH, {{kQ8S, big, 0.06f, -8}}, {kQ8S, big, 0.03f, -98}},
      {ANEURALNETWORKS_MAXIMUM, {{kQ8, big, 0.3f, 100}, {kQ8, chan, 0.2f, 50}}, {kQ8, big, 0.25f, 90}},
      {ANEURALNETWORKS_MINIMUM, {{kQ8S, big, 0.3f, 0}, {kQ8S, chan, 0.2f, 10}}, {kQ8S, big, 0.25f, -3}},
      {ANEURALNETWORKS_PRELU, {{kQ8, big, 0.1f, 128}, {kQ8, chan, 0.01f, 100}}, {kQ8, big, 0.07f, 120}},
      {ANEURALNETWORKS_GREATER_EQUAL, {{kQ8, big, 0.3f, 100}, {kQ8, chan, 0.2f, 50}}, {kB8, big}},
      {ANEURALNETWORKS_SELECT, {{kB8, big}, {kQ8, big, 0.3f, 100}, {kQ8, big, 0.2f, 50}}, {kQ8, big, 0.25f, 90}},
      {ANEURALNETWORKS_RSQRT, {{kQ8, big, 0.3f, 20}}, {kQ8, big, 0.05f, 3}},
  };
  for (const Case& c : cases) {
    std::vector<std::vector<uint8_t>> data;
    for (const Spec& s : c.ins) {
      const size_t count = countOf(s.dims);
      if (s.type == kB8) {
        std::vector<uint8_t> v = randomValues<uint8_t>(count, rng);
        for (auto& x : v) x &= 1;
        data.push_back(v);
      } else if (s.type == kQ8S) {
        data.push_back(bytesOf(randomValues<int8_t>(count, rng)));
      } else {
        data.push_back(randomValues<uint8_t>(count, rng));
      }
    }
    const auto fast = run<uint8_t>(c.op, c.ins, data, c.out);
    const auto ref = run<uint8_t>(c.op, c.ins, data, c.out, nullptr, kReference);
    ASSERT_EQ(fast.size(), n) << "op " << c.op;
    EXPECT_EQ(fast, ref) << "op " << c.op;
  }
  (void)nc;
}

}  // namespace
