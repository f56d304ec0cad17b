// Elementwise arithmetic, activations, softmax, normalizations and DEQUANTIZE through the
// public C API: hand-computed cases, invalid signatures, and the default (fast) kernels
// compared with the reference device on random inputs.
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "test_util.h"

namespace {

using nntest::bytesOf;
using nntest::ModelBuilder;
using nntest::runModel;
using nntest::valuesOf;

constexpr int kF32 = ANEURALNETWORKS_TENSOR_FLOAT32;
constexpr int kQ8 = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
constexpr int kI32 = ANEURALNETWORKS_TENSOR_INT32;
constexpr const char* kReference = "nnapi-cpu-reference";

struct TensorSpec {
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
size_t bytesPer(int type) { return type == kF32 || type == kI32 ? 4 : 1; }

// in0 OP in1 (activation) -> out, with both tensors as model inputs.
int buildBinary(ModelBuilder& m, int op, const TensorSpec& a, const TensorSpec& b,
                const TensorSpec& out, int32_t activation) {
  const uint32_t i0 = m.addOperand(a.type, a.dims, a.scale, a.zeroPoint);
  const uint32_t i1 = m.addOperand(b.type, b.dims, b.scale, b.zeroPoint);
  const uint32_t act = m.addInt32(activation);
  const uint32_t o = m.addOperand(out.type, out.dims, out.scale, out.zeroPoint);
  m.addOperation(op, {i0, i1, act}, {o});
  return m.finish({i0, i1}, {o});
}

// op(in0[, extra scalars]) -> out.
int buildUnary(ModelBuilder& m, int op, const TensorSpec& in, const TensorSpec& out) {
  const uint32_t i0 = m.addOperand(in.type, in.dims, in.scale, in.zeroPoint);
  const uint32_t o = m.addOperand(out.type, out.dims, out.scale, out.zeroPoint);
  m.addOperation(op, {i0}, {o});
  return m.finish({i0}, {o});
}

template <typename T>
std::vector<T> runBinary(int op, const TensorSpec& a, const std::vector<T>& av, const TensorSpec& b,
                         const std::vector<T>& bv, const TensorSpec& out, int32_t activation,
                         const char* device = nullptr) {
  ModelBuilder m;
  EXPECT_EQ(buildBinary(m, op, a, b, out, activation), ANEURALNETWORKS_NO_ERROR);
  auto r = runModel(m, {bytesOf(av), bytesOf(bv)}, {countOf(out.dims) * sizeof(T)}, device);
  EXPECT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  if (r.status != ANEURALNETWORKS_NO_ERROR) return {};
  return valuesOf<T>(r.outputs[0]);
}

template <typename T, typename TIn = T>
std::vector<T> runUnary(int op, const TensorSpec& in, const std::vector<TIn>& iv,
                        const TensorSpec& out, const char* device = nullptr) {
  ModelBuilder m;
  EXPECT_EQ(buildUnary(m, op, in, out), ANEURALNETWORKS_NO_ERROR);
  const size_t outBytes = countOf(out.dims) * bytesPer(out.type);
  auto r = runModel(m, {bytesOf(iv)}, {outBytes}, device);
  EXPECT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  if (r.status != ANEURALNETWORKS_NO_ERROR) return {};
  return valuesOf<T>(r.outputs[0]);
}

void expectNear(const std::vector<float>& actual, const std::vector<float>& expected,
                float tol = 1e-5f) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], tol + 1e-6f * std::fabs(expected[i])) << "at " << i;
}

// ---------------------------------------------------------------------------------------
// Binary float

// The CPU driver writes a float32 ADD / SUB / MUL / DIV without broadcasting over an input
// temporary that dies there (prepared_model.cc, planArena). A chain where that holds for the
// first input, for the second, and where it must not (t1 is read again after t2, a broadcast
// operand, an operation reading one tensor twice); each step checked against plain arithmetic
// on both CPU devices, with 2 threads for the fast one.
TEST(ElementwiseBinary, InPlaceChainsKeepEveryValue) {
  const uint32_t n = 3 * 40 * 40 * 8;
  const std::vector<uint32_t> dims{3, 40, 40, 8};
  ModelBuilder m;
  const uint32_t x = m.addOperand(kF32, dims), y = m.addOperand(kF32, dims);
  const uint32_t row = m.addOperand(kF32, {8});
  const uint32_t none = m.addInt32(ANEURALNETWORKS_FUSED_NONE);
  auto tensor = [&] { return m.addOperand(kF32, dims); };
  const uint32_t t1 = tensor(), t2 = tensor(), t3 = tensor(), t4 = tensor(), t5 = tensor(),
                 t6 = tensor(), out = tensor();
  m.addOperation(ANEURALNETWORKS_ADD, {x, y, none}, {t1});    // t1 = x + y
  m.addOperation(ANEURALNETWORKS_MUL, {t1, x, none}, {t2});   // t2 = t1 * x (t1 still needed)
  m.addOperation(ANEURALNETWORKS_SUB, {t2, t1, none}, {t3});  // t3 = t2 - t1 (both die)
  m.addOperation(ANEURALNETWORKS_ADD, {y, t3, none}, {t4});   // t4 = y + t3 (second dies)
  m.addOperation(ANEURALNETWORKS_MUL, {t4, row, none}, {t5}); // t5 = t4 * row (broadcast)
  m.addOperation(ANEURALNETWORKS_ADD, {t5, t5, none}, {t6});  // t6 = t5 + t5
  m.addOperation(ANEURALNETWORKS_DIV, {t6, t4, none}, {out}); // out = t6 / t4
  ASSERT_EQ(m.finish({x, y, row}, {out}), ANEURALNETWORKS_NO_ERROR);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> dist(0.5f, 2.f);
  std::vector<float> xv(n), yv(n), rv(8);
  for (float& v : xv) v = dist(rng);
  for (float& v : yv) v = dist(rng);
  for (float& v : rv) v = dist(rng);
  std::vector<float> want(n);
  for (uint32_t i = 0; i < n; ++i) {
    const float a1 = xv[i] + yv[i], a2 = a1 * xv[i], a3 = a2 - a1, a4 = yv[i] + a3;
    const float a5 = a4 * rv[i % 8], a6 = a5 + a5;
    want[i] = a6 / a4;
  }
  for (const char* device : {static_cast<const char*>(nullptr), kReference}) {
    auto r = runModel(m, {bytesOf(xv), bytesOf(yv), bytesOf(rv)}, {n * sizeof(float)}, device);
    ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
    const auto got = valuesOf<float>(r.outputs[0]);
    ASSERT_EQ(got.size(), n);
    for (uint32_t i = 0; i < n; ++i)
      ASSERT_EQ(got[i], want[i]) << (device ? device : "default") << " element " << i;
  }
}

TEST(ElementwiseBinary, AddFloatBroadcastsBothWays) {
  // [1,3] + [2,1] -> [2,3]
  auto out = runBinary<float>(ANEURALNETWORKS_ADD, {kF32, {1, 3}}, {1, 2, 3}, {kF32, {2, 1}},
                              {10, 20}, {kF32, {2, 3}}, ANEURALNETWORKS_FUSED_NONE);
  expectNear(out, {11, 12, 13, 21, 22, 23});
}

TEST(ElementwiseBinary, AddFloatRank4ChannelBroadcast) {
  // [1,2,2,3] + [3]: per-channel bias
  std::vector<float> a(12);
  for (int i = 0; i < 12; ++i) a[i] = static_cast<float>(i);
  auto out = runBinary<float>(ANEURALNETWORKS_ADD, {kF32, {1, 2, 2, 3}}, a, {kF32, {3}},
                              {100, 200, 300}, {kF32, {1, 2, 2, 3}}, ANEURALNETWORKS_FUSED_NONE);
  std::vector<float> expected(12);
  for (int i = 0; i < 12; ++i) expected[i] = i + 100.f * (i % 3 + 1);
  expectNear(out, expected);
}

TEST(ElementwiseBinary, MulFloatRelu6) {
  auto out = runBinary<float>(ANEURALNETWORKS_MUL, {kF32, {4}}, {-2, 1, 3, 5}, {kF32, {4}},
                              {1, 2.5f, 1.5f, 2}, {kF32, {4}}, ANEURALNETWORKS_FUSED_RELU6);
  expectNear(out, {0, 2.5f, 4.5f, 6});
}

TEST(ElementwiseBinary, SubFloatReluAndScalarBroadcast) {
  auto out = runBinary<float>(ANEURALNETWORKS_SUB, {kF32, {2, 2}}, {1, 5, -3, 8}, {kF32, {1}}, {2},
                              {kF32, {2, 2}}, ANEURALNETWORKS_FUSED_RELU);
  expectNear(out, {0, 3, 0, 6});
}

TEST(ElementwiseBinary, DivFloatRelu1) {
  auto out = runBinary<float>(ANEURALNETWORKS_DIV, {kF32, {2, 2}}, {1, -6, 3, 0.5f}, {kF32, {2, 1}},
                              {2, 4}, {kF32, {2, 2}}, ANEURALNETWORKS_FUSED_RELU1);
  expectNear(out, {0.5f, -1, 0.75f, 0.125f});
}

TEST(ElementwiseBinary, Int32ArithmeticAndFloorDivision) {
  const TensorSpec s{kI32, {4}};
  auto add = runBinary<int32_t>(ANEURALNETWORKS_ADD, s, {1, -2, 3, 4}, s, {5, 6, -7, 8}, s, 0);
  EXPECT_EQ(add, (std::vector<int32_t>{6, 4, -4, 12}));
  auto div = runBinary<int32_t>(ANEURALNETWORKS_DIV, s, {5, -5, 7, 9}, s, {2, 2, -2, 0}, s, 0);
  // Floor division; division by zero is defined here as 0.
  EXPECT_EQ(div, (std::vector<int32_t>{2, -3, -4, 0}));
}

// ---------------------------------------------------------------------------------------
// Binary quant8

TEST(ElementwiseBinary, AddQuant8RoundsHalfAwayFromZero) {
  // 1.5 + 1.0 = 2.5 on a unit grid rounds up to 3; -1.5 + 1.0 = -0.5 rounds to -1 (+zp 10).
  const TensorSpec a{kQ8, {2}, 0.5f, 4}, b{kQ8, {2}, 0.5f, 0}, o{kQ8, {2}, 1.f, 10};
  auto out = runBinary<uint8_t>(ANEURALNETWORKS_ADD, a, {7, 1}, b, {2, 2}, o, 0);
  EXPECT_EQ(out, (std::vector<uint8_t>{13, 9}));
}

TEST(ElementwiseBinary, AddQuant8DifferentScalesBroadcastAndClamp) {
  // a: scale 0.1 zp 0; b: scale 0.2 zp 100 (scalar 120 -> 4.0); out: scale 0.25 zp 0.
  const TensorSpec a{kQ8, {1, 4}, 0.1f, 0}, b{kQ8, {1}, 0.2f, 100}, o{kQ8, {1, 4}, 0.25f, 0};
  auto out = runBinary<uint8_t>(ANEURALNETWORKS_ADD, a, {0, 10, 25, 255}, b, {120}, o, 0);
  // 4.0, 5.0, 6.5, 29.5 -> 16, 20, 26, 118
  EXPECT_EQ(out, (std::vector<uint8_t>{16, 20, 26, 118}));
  // RELU1 clamps to [-1, 1] -> at most round(1/0.25) = 4.
  auto clamped = runBinary<uint8_t>(ANEURALNETWORKS_ADD, a, {0, 10, 25, 255}, b, {120}, o,
                                    ANEURALNETWORKS_FUSED_RELU1);
  EXPECT_EQ(clamped, (std::vector<uint8_t>{4, 4, 4, 4}));
}

TEST(ElementwiseBinary, SubQuant8) {
  const TensorSpec a{kQ8, {3}, 0.5f, 0}, b{kQ8, {3}, 0.5f, 0}, o{kQ8, {3}, 0.5f, 128};
  auto out = runBinary<uint8_t>(ANEURALNETWORKS_SUB, a, {10, 0, 200}, b, {4, 6, 50}, o, 0);
  EXPECT_EQ(out, (std::vector<uint8_t>{134, 122, 255}));
}

TEST(ElementwiseBinary, MulQuant8RoundingAndRelu) {
  // 1.5 * 1.5 = 2.25 on a 0.5 grid: 4.5 steps -> 5.
  const TensorSpec a{kQ8, {2}, 0.5f, 0}, b{kQ8, {2}, 0.5f, 5}, o{kQ8, {2}, 0.5f, 10};
  auto out = runBinary<uint8_t>(ANEURALNETWORKS_MUL, a, {3, 1}, b, {8, 1}, o, 0);
  // second: 0.5 * (-2.0) = -1.0 -> -2 steps + 10 = 8
  EXPECT_EQ(out, (std::vector<uint8_t>{15, 8}));
  auto relu = runBinary<uint8_t>(ANEURALNETWORKS_MUL, a, {3, 1}, b, {8, 1}, o,
                                 ANEURALNETWORKS_FUSED_RELU);
  EXPECT_EQ(relu, (std::vector<uint8_t>{15, 10}));
}

// ---------------------------------------------------------------------------------------
// Invalid signatures

int finishStatus(int op, const std::vector<TensorSpec>& ins, const std::vector<int32_t>& scalars,
                 const TensorSpec& out) {
  ModelBuilder m;
  std::vector<uint32_t> inputs, modelInputs;
  for (const auto& s : ins) {
    inputs.push_back(m.addOperand(s.type, s.dims, s.scale, s.zeroPoint));
    modelInputs.push_back(inputs.back());
  }
  for (int32_t v : scalars) inputs.push_back(m.addInt32(v));
  const uint32_t o = m.addOperand(out.type, out.dims, out.scale, out.zeroPoint);
  m.addOperation(op, inputs, {o});
  return m.finish(modelInputs, {o});
}

TEST(ElementwiseValidation, BinaryRejectsBadSignatures) {
  const TensorSpec f{kF32, {2, 3}};
  // Wrong input count.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_ADD, {f, f}, {}, f), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_ADD, {f, f}, {0, 0}, f), ANEURALNETWORKS_BAD_DATA);
  // Mismatched input types.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_MUL, {f, {kQ8, {2, 3}, 0.5f, 0}}, {0}, f),
            ANEURALNETWORKS_BAD_DATA);
  // Mismatched output type.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_SUB, {f, f}, {0}, {kI32, {2, 3}}), ANEURALNETWORKS_BAD_DATA);
  // Activation code out of range.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_ADD, {f, f}, {7}, f), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_DIV, {f, f}, {-1}, f), ANEURALNETWORKS_BAD_DATA);
  // Shapes that can never broadcast.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_ADD, {f, {kF32, {4, 3}}}, {0}, f),
            ANEURALNETWORKS_BAD_DATA);
  // Rank above 4.
  const TensorSpec r5{kF32, {1, 1, 1, 1, 2}};
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_ADD, {r5, r5}, {0}, r5), ANEURALNETWORKS_BAD_DATA);
  // DIV has no quant8 variant.
  const TensorSpec q{kQ8, {2}, 0.5f, 0};
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_DIV, {q, q}, {0}, q), ANEURALNETWORKS_BAD_DATA);
  // MUL quant8 needs output scale > product of input scales.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_MUL, {q, q}, {0}, {kQ8, {2}, 0.25f, 0}),
            ANEURALNETWORKS_BAD_DATA);
  // INT32 arithmetic takes no fused activation.
  const TensorSpec i{kI32, {2}};
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_ADD, {i, i}, {1}, i), ANEURALNETWORKS_BAD_DATA);
  // Sanity: the valid forms pass.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_ADD, {f, {kF32, {3}}}, {1}, f), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_MUL, {q, q}, {0}, {kQ8, {2}, 0.3f, 0}),
            ANEURALNETWORKS_NO_ERROR);
}

TEST(ElementwiseValidation, BroadcastMismatchAtExecution) {
  // Shapes unknown in the model; the mismatch only shows at execution.
  ModelBuilder m;
  const uint32_t a = m.addOperand(kF32, {0, 3});
  const uint32_t b = m.addOperand(kF32, {0, 3});
  const uint32_t act = m.addInt32(0);
  const uint32_t o = m.addOperand(kF32, {0, 3});
  m.addOperation(ANEURALNETWORKS_ADD, {a, b, act}, {o});
  ASSERT_EQ(m.finish({a, b}, {o}), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksCompilation* c = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_create(m.get(), &c), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
  std::vector<float> av(6, 1.f), bv(9, 1.f), ov(9);
  const uint32_t ad[] = {2, 3}, bd[] = {3, 3}, od[] = {3, 3};
  ANeuralNetworksOperandType at{kF32, 2, ad, 0.f, 0}, bt{kF32, 2, bd, 0.f, 0}, ot{kF32, 2, od, 0.f, 0};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, &at, av.data(), av.size() * 4),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 1, &bt, bv.data(), bv.size() * 4),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, &ot, ov.data(), ov.size() * 4),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_OP_FAILED);
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksCompilation_free(c);
}

TEST(ElementwiseValidation, UnaryRejectsBadSignatures) {
  const TensorSpec f{kF32, {2, 2}};
  const TensorSpec q{kQ8, {2, 2}, 0.1f, 128};
  // LOGISTIC quant8 output must be scale 1/256, zero point 0.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_LOGISTIC, {q}, {}, q), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_LOGISTIC, {q}, {}, {kQ8, {2, 2}, 1.f / 256, 0}),
            ANEURALNETWORKS_NO_ERROR);
  // TANH quant8 output must be scale 1/128, zero point 128.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_TANH, {q}, {}, {kQ8, {2, 2}, 1.f / 128, 0}),
            ANEURALNETWORKS_BAD_DATA);
  // RELU quant8 keeps the input quantization.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_RELU, {q}, {}, {kQ8, {2, 2}, 0.2f, 128}),
            ANEURALNETWORKS_BAD_DATA);
  // FLOOR is float only; output type must match.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_FLOOR, {q}, {}, q), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_RELU6, {f}, {}, q), ANEURALNETWORKS_BAD_DATA);
  // Too many inputs.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_RELU, {f, f}, {}, f), ANEURALNETWORKS_BAD_DATA);
  // DEQUANTIZE needs a quantized input and float output.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_DEQUANTIZE, {f}, {}, f), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_DEQUANTIZE, {q}, {}, q), ANEURALNETWORKS_BAD_DATA);
}

int softmaxStatus(const TensorSpec& in, float beta, const TensorSpec& out) {
  ModelBuilder m;
  const uint32_t i0 = m.addOperand(in.type, in.dims, in.scale, in.zeroPoint);
  const uint32_t b = m.addFloat32(beta);
  const uint32_t o = m.addOperand(out.type, out.dims, out.scale, out.zeroPoint);
  m.addOperation(ANEURALNETWORKS_SOFTMAX, {i0, b}, {o});
  return m.finish({i0}, {o});
}

TEST(ElementwiseValidation, SoftmaxAndNormalizationRules) {
  const TensorSpec f{kF32, {2, 3}};
  EXPECT_EQ(softmaxStatus(f, 0.f, f), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(softmaxStatus(f, -1.f, f), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(softmaxStatus(f, 1.f, f), ANEURALNETWORKS_NO_ERROR);
  const TensorSpec q{kQ8, {2, 3}, 0.5f, 10};
  EXPECT_EQ(softmaxStatus(q, 1.f, {kQ8, {2, 3}, 1.f / 128, 0}), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(softmaxStatus(q, 1.f, {kQ8, {2, 3}, 1.f / 256, 0}), ANEURALNETWORKS_NO_ERROR);
  // Softmax axis out of range.
  {
    ModelBuilder m;
    const uint32_t i0 = m.addOperand(kF32, {2, 3});
    const uint32_t b = m.addFloat32(1.f);
    const uint32_t ax = m.addInt32(2);
    const uint32_t o = m.addOperand(kF32, {2, 3});
    m.addOperation(ANEURALNETWORKS_SOFTMAX, {i0, b, ax}, {o});
    EXPECT_EQ(m.finish({i0}, {o}), ANEURALNETWORKS_BAD_DATA);
  }
  // L2_NORMALIZATION quant8 output must be scale 1/128, zero point 128.
  EXPECT_EQ(finishStatus(ANEURALNETWORKS_L2_NORMALIZATION, {{kQ8, {1, 1, 1, 2}, 0.5f, 128}}, {},
                         {kQ8, {1, 1, 1, 2}, 1.f / 256, 0}),
            ANEURALNETWORKS_BAD_DATA);
  // LRN: float scalars required, not int.
  {
    ModelBuilder m;
    const uint32_t i0 = m.addOperand(kF32, {1, 1, 1, 4});
    const uint32_t r = m.addInt32(1);
    const uint32_t bias = m.addInt32(1);
    const uint32_t alpha = m.addFloat32(1.f);
    const uint32_t beta = m.addFloat32(0.5f);
    const uint32_t o = m.addOperand(kF32, {1, 1, 1, 4});
    m.addOperation(ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION, {i0, r, bias, alpha, beta}, {o});
    EXPECT_EQ(m.finish({i0}, {o}), ANEURALNETWORKS_BAD_DATA);
  }
}

// ---------------------------------------------------------------------------------------
// Activations

TEST(Activation, FloatReluFamilyAndFloor) {
  const TensorSpec s{kF32, {6}};
  const std::vector<float> in{-7.5f, -1.f, -0.25f, 0.5f, 3.f, 9.f};
  expectNear(runUnary<float>(ANEURALNETWORKS_RELU, s, in, s), {0, 0, 0, 0.5f, 3, 9});
  expectNear(runUnary<float>(ANEURALNETWORKS_RELU1, s, in, s), {-1, -1, -0.25f, 0.5f, 1, 1});
  expectNear(runUnary<float>(ANEURALNETWORKS_RELU6, s, in, s), {0, 0, 0, 0.5f, 3, 6});
  expectNear(runUnary<float>(ANEURALNETWORKS_FLOOR, s, in, s), {-8, -1, -1, 0, 3, 9});
}

TEST(Activation, Quant8ReluClampsInQuantizedDomain) {
  // scale 0.5, zp 100: RELU1 bounds are 100 -+ 2, RELU6 upper bound is 112.
  const TensorSpec s{kQ8, {5}, 0.5f, 100};
  const std::vector<uint8_t> in{0, 97, 100, 104, 255};
  EXPECT_EQ(runUnary<uint8_t>(ANEURALNETWORKS_RELU, s, in, s),
            (std::vector<uint8_t>{100, 100, 100, 104, 255}));
  EXPECT_EQ(runUnary<uint8_t>(ANEURALNETWORKS_RELU1, s, in, s),
            (std::vector<uint8_t>{98, 98, 100, 102, 102}));
  EXPECT_EQ(runUnary<uint8_t>(ANEURALNETWORKS_RELU6, s, in, s),
            (std::vector<uint8_t>{100, 100, 100, 104, 112}));
}

TEST(Activation, FloatLogisticAndTanh) {
  const TensorSpec s{kF32, {5}};
  const std::vector<float> in{-20.f, -1.f, 0.f, 0.5f, 4.f};
  std::vector<float> sig, th;
  for (float x : in) {
    sig.push_back(1.f / (1.f + std::exp(-x)));
    th.push_back(std::tanh(x));
  }
  expectNear(runUnary<float>(ANEURALNETWORKS_LOGISTIC, s, in, s), sig);
  expectNear(runUnary<float>(ANEURALNETWORKS_TANH, s, in, s), th);
}

TEST(Activation, Quant8LogisticAndTanhTrackTheRealFunction) {
  // Every input code: within one output step of the exactly rounded real result, exact at
  // the center, saturated at the ends.
  const TensorSpec in{kQ8, {256}, 0.0625f, 128};
  std::vector<uint8_t> codes(256);
  for (int i = 0; i < 256; ++i) codes[i] = static_cast<uint8_t>(i);
  auto sig = runUnary<uint8_t>(ANEURALNETWORKS_LOGISTIC, in, codes, {kQ8, {256}, 1.f / 256, 0});
  auto th = runUnary<uint8_t>(ANEURALNETWORKS_TANH, in, codes, {kQ8, {256}, 1.f / 128, 128});
  ASSERT_EQ(sig.size(), 256u);
  ASSERT_EQ(th.size(), 256u);
  for (int i = 0; i < 256; ++i) {
    const double x = (i - 128) * 0.0625;
    const double es = std::min(255.0, std::round(256.0 / (1.0 + std::exp(-x))));
    const double et = std::min(255.0, std::round(128.0 * std::tanh(x)) + 128);
    EXPECT_NEAR(sig[i], es, 1.0) << "logistic code " << i;
    EXPECT_NEAR(th[i], et, 1.0) << "tanh code " << i;
  }
  EXPECT_EQ(sig[128], 128);
  EXPECT_EQ(th[128], 128);
  EXPECT_EQ(sig[255], 255);
  EXPECT_LE(sig[0], 1);
}

// ---------------------------------------------------------------------------------------
// Softmax, normalizations, dequantize

std::vector<uint8_t> runSoftmax(const TensorSpec& in, const std::vector<uint8_t>& data, float beta,
                                const TensorSpec& out, int axis, const char* device = nullptr) {
  ModelBuilder m;
  const uint32_t i0 = m.addOperand(in.type, in.dims, in.scale, in.zeroPoint);
  const uint32_t b = m.addFloat32(beta);
  std::vector<uint32_t> ins{i0, b};
  if (axis != INT32_MIN) ins.push_back(m.addInt32(axis));
  const uint32_t o = m.addOperand(out.type, out.dims, out.scale, out.zeroPoint);
  m.addOperation(ANEURALNETWORKS_SOFTMAX, ins, {o});
  EXPECT_EQ(m.finish({i0}, {o}), ANEURALNETWORKS_NO_ERROR);
  auto r = runModel(m, {data}, {countOf(out.dims) * bytesPer(out.type)}, device);
  EXPECT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  return r.outputs.empty() ? std::vector<uint8_t>{} : r.outputs[0];
}

TEST(Softmax, FloatRowsWithBeta) {
  const TensorSpec s{kF32, {2, 3}};
  const std::vector<float> in{1, 2, 3, -1, -1, 5};
  const float beta = 0.5f;
  std::vector<float> expected;
  for (int r = 0; r < 2; ++r) {
    double sum = 0;
    for (int c = 0; c < 3; ++c) sum += std::exp(beta * in[r * 3 + c]);
    for (int c = 0; c < 3; ++c) expected.push_back(std::exp(beta * in[r * 3 + c]) / sum);
  }
  expectNear(valuesOf<float>(runSoftmax(s, bytesOf(in), beta, s, INT32_MIN)), expected);
}

TEST(Softmax, FloatAlongFirstAxis) {
  const TensorSpec s{kF32, {2, 2}};
  // Columns {0, ln3} normalize to {0.25, 0.75}.
  const std::vector<float> in{0, 2, std::log(3.f), 2};
  expectNear(valuesOf<float>(runSoftmax(s, bytesOf(in), 1.f, s, 0)), {0.25f, 0.5f, 0.75f, 0.5f});
}

TEST(Softmax, Quant8UniformAndDominantRows) {
  const TensorSpec in{kQ8, {2, 4}, 0.5f, 0};
  const TensorSpec out{kQ8, {2, 4}, 1.f / 256, 0};
  // Row 0 uniform: 1/4 each = 64. Row 1: one entry 100 units above the rest saturates.
  auto r = runSoftmax(in, {7, 7, 7, 7, 0, 0, 200, 0}, 1.f, out, INT32_MIN);
  EXPECT_EQ(r, (std::vector<uint8_t>{64, 64, 64, 64, 0, 0, 255, 0}));
}

TEST(Normalization, L2Float) {
  const TensorSpec s{kF32, {1, 1, 2, 2}};
  expectNear(runUnary<float>(ANEURALNETWORKS_L2_NORMALIZATION, s, {3, 4, -5, 12}, s),
             {0.6f, 0.8f, -5.f / 13, 12.f / 13});
}

TEST(Normalization, L2Quant8) {
  const TensorSpec in{kQ8, {1, 1, 1, 3}, 0.25f, 100};
  const TensorSpec out{kQ8, {1, 1, 1, 3}, 1.f / 128, 128};
  // Centered {30, -40, 0} -> {0.6, -0.8, 0} -> 128 + {76.8, -102.4, 0}.
  auto r = runUnary<uint8_t>(ANEURALNETWORKS_L2_NORMALIZATION, in, {130, 60, 100}, out);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_NEAR(r[0], 205, 1);
  EXPECT_NEAR(r[1], 26, 1);
  EXPECT_EQ(r[2], 128);
}

TEST(Normalization, LocalResponseFloat) {
  ModelBuilder m;
  const uint32_t i0 = m.addOperand(kF32, {1, 1, 1, 4});
  const uint32_t r = m.addInt32(1);
  const uint32_t bias = m.addFloat32(1.f);
  const uint32_t alpha = m.addFloat32(0.5f);
  const uint32_t beta = m.addFloat32(0.75f);
  const uint32_t o = m.addOperand(kF32, {1, 1, 1, 4});
  m.addOperation(ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION, {i0, r, bias, alpha, beta}, {o});
  ASSERT_EQ(m.finish({i0}, {o}), ANEURALNETWORKS_NO_ERROR);
  const std::vector<float> in{1, 2, -1, 3};
  auto res = runModel(m, {bytesOf(in)}, {16});
  ASSERT_EQ(res.status, ANEURALNETWORKS_NO_ERROR) << res.step;
  // Window sums of squares: {1+4, 1+4+1, 4+1+9, 1+9}.
  const float sums[] = {5, 6, 14, 10};
  std::vector<float> expected;
  for (int i = 0; i < 4; ++i) expected.push_back(in[i] * std::pow(1.f + 0.5f * sums[i], -0.75f));
  expectNear(valuesOf<float>(res.outputs[0]), expected);
}

TEST(Dequantize, Quant8ToFloat) {
  auto r = runUnary<float>(ANEURALNETWORKS_DEQUANTIZE, {kQ8, {4}, 0.5f, 10},
                           std::vector<uint8_t>{0, 10, 11, 255}, {kF32, {4}});
  expectNear(r, {-5, 0, 0.5f, 122.5f});
}

// ---------------------------------------------------------------------------------------
// Fast kernels vs the reference device

template <typename T>
std::vector<T> randomValues(size_t n, std::mt19937& rng, float lo, float hi) {
  std::vector<T> v(n);
  if constexpr (std::is_same<T, float>::value) {
    std::uniform_real_distribution<float> d(lo, hi);
    for (auto& x : v) x = d(rng);
  } else {
    std::uniform_int_distribution<int> d(0, 255);
    for (auto& x : v) x = static_cast<T>(d(rng));
  }
  return v;
}

struct BroadcastCase {
  std::vector<uint32_t> a, b, out;
};

const std::vector<BroadcastCase>& broadcastCases() {
  static const std::vector<BroadcastCase> cases = {
      {{4, 64, 64, 8}, {4, 64, 64, 8}, {4, 64, 64, 8}},  // same shape, large (threaded)
      {{4, 64, 64, 8}, {8}, {4, 64, 64, 8}},             // channel vector
      {{4, 64, 64, 8}, {1}, {4, 64, 64, 8}},             // scalar
      {{4, 1, 64, 8}, {4, 64, 1, 1}, {4, 64, 64, 8}},    // two-sided
      {{3, 1, 5}, {2, 1, 5, 1}, {2, 3, 5, 5}},           // rank mismatch
      {{1, 7}, {5, 1}, {5, 7}},
  };
  return cases;
}

TEST(ElementwiseProperty, BinaryFloatMatchesReference) {
  std::mt19937 rng(1234);
  for (int op : {ANEURALNETWORKS_ADD, ANEURALNETWORKS_MUL, ANEURALNETWORKS_SUB, ANEURALNETWORKS_DIV}) {
    for (const auto& c : broadcastCases()) {
      for (int32_t act : {0, 1, 3}) {
        auto av = randomValues<float>(countOf(c.a), rng, -4, 4);
        auto bv = randomValues<float>(countOf(c.b), rng, 0.5f, 3);
        const TensorSpec a{kF32, c.a}, b{kF32, c.b}, o{kF32, c.out};
        auto fast = runBinary<float>(op, a, av, b, bv, o, act);
        auto ref = runBinary<float>(op, a, av, b, bv, o, act, kReference);
        ASSERT_EQ(fast.size(), countOf(c.out));
        ASSERT_EQ(fast, ref) << "op " << op << " act " << act;
      }
    }
  }
}

TEST(ElementwiseProperty, BinaryQuant8MatchesReference) {
  std::mt19937 rng(99);
  for (int op : {ANEURALNETWORKS_ADD, ANEURALNETWORKS_MUL, ANEURALNETWORKS_SUB}) {
    for (const auto& c : broadcastCases()) {
      auto av = randomValues<uint8_t>(countOf(c.a), rng, 0, 0);
      auto bv = randomValues<uint8_t>(countOf(c.b), rng, 0, 0);
      const TensorSpec a{kQ8, c.a, 0.05f, 120}, b{kQ8, c.b, 0.11f, 7}, o{kQ8, c.out, 0.13f, 60};
      auto fast = runBinary<uint8_t>(op, a, av, b, bv, o, ANEURALNETWORKS_FUSED_RELU6);
      auto ref = runBinary<uint8_t>(op, a, av, b, bv, o, ANEURALNETWORKS_FUSED_RELU6, kReference);
      ASSERT_EQ(fast.size(), countOf(c.out));
      ASSERT_EQ(fast, ref) << "op " << op;
    }
  }
}

TEST(ElementwiseProperty, UnaryFloatMatchesReference) {
  std::mt19937 rng(7);
  const TensorSpec s{kF32, {2, 128, 128, 3}};
  auto in = randomValues<float>(countOf(s.dims), rng, -12, 12);
  for (int op : {ANEURALNETWORKS_LOGISTIC, ANEURALNETWORKS_TANH, ANEURALNETWORKS_RELU,
                 ANEURALNETWORKS_RELU1, ANEURALNETWORKS_RELU6, ANEURALNETWORKS_FLOOR}) {
    auto fast = runUnary<float>(op, s, in, s);
    auto ref = runUnary<float>(op, s, in, s, kReference);
    ASSERT_EQ(fast.size(), in.size());
    for (size_t i = 0; i < in.size(); ++i)
      ASSERT_NEAR(fast[i], ref[i], 1e-6f + 4e-7f * std::fabs(ref[i])) << "op " << op << " x " << in[i];
  }
}

TEST(ElementwiseProperty, SoftmaxFloatMatchesReference) {
  std::mt19937 rng(5);
  const TensorSpec s{kF32, {4, 16, 32, 33}};
  auto in = randomValues<float>(countOf(s.dims), rng, -10, 10);
  for (int axis : {-1, 1, 0}) {
    auto fast = valuesOf<float>(runSoftmax(s, bytesOf(in), 0.7f, s, axis));
    auto ref = valuesOf<float>(runSoftmax(s, bytesOf(in), 0.7f, s, axis, kReference));
    ASSERT_EQ(fast.size(), in.size());
    for (size_t i = 0; i < in.size(); ++i)
      ASSERT_NEAR(fast[i], ref[i], 1e-6f + 1e-5f * ref[i]) << "axis " << axis;
  }
}

}  // namespace

namespace {

std::vector<float> runLrn(const std::vector<uint32_t>& dims, const std::vector<float>& in,
                          int32_t radius, const char* device) {
  ModelBuilder m;
  const uint32_t i0 = m.addOperand(kF32, dims);
  const uint32_t r = m.addInt32(radius);
  const uint32_t bias = m.addFloat32(2.f);
  const uint32_t alpha = m.addFloat32(1e-3f);
  const uint32_t beta = m.addFloat32(0.75f);
  const uint32_t o = m.addOperand(kF32, dims);
  m.addOperation(ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION, {i0, r, bias, alpha, beta}, {o});
  EXPECT_EQ(m.finish({i0}, {o}), ANEURALNETWORKS_NO_ERROR);
  auto res = runModel(m, {bytesOf(in)}, {in.size() * 4}, device);
  EXPECT_EQ(res.status, ANEURALNETWORKS_NO_ERROR) << res.step;
  return res.outputs.empty() ? std::vector<float>{} : valuesOf<float>(res.outputs[0]);
}

TEST(ElementwiseProperty, NormalizationsMatchReference) {
  std::mt19937 rng(11);
  const std::vector<uint32_t> dims{2, 16, 16, 64};
  auto in = randomValues<float>(countOf(dims), rng, -3, 3);
  for (int32_t radius : {0, 2, 40}) {
    auto fast = runLrn(dims, in, radius, nullptr);
    auto ref = runLrn(dims, in, radius, kReference);
    ASSERT_EQ(fast.size(), in.size());
    for (size_t i = 0; i < in.size(); ++i)
      ASSERT_NEAR(fast[i], ref[i], 1e-6f + 1e-5f * std::fabs(ref[i])) << "radius " << radius;
  }
  const TensorSpec s{kF32, dims};
  auto fast = runUnary<float>(ANEURALNETWORKS_L2_NORMALIZATION, s, in, s);
  auto ref = runUnary<float>(ANEURALNETWORKS_L2_NORMALIZATION, s, in, s, kReference);
  ASSERT_EQ(fast.size(), in.size());
  for (size_t i = 0; i < in.size(); ++i) ASSERT_NEAR(fast[i], ref[i], 1e-6f);
}

}  // namespace
