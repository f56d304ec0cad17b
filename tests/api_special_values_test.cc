// Issue 9: special floating-point values (NaN, +-inf, +-FLT_MAX, subnormals, -0) through every
// float32 and float16 elementwise, activation and reduction operation on both devices. The
// computations must complete (or fail cleanly) without undefined behaviour: the ctest entry
// special_values runs this under the ASan+UBSan build too, where a float-to-int conversion of
// NaN or a negative shift aborts. Where both devices compute, NaN results must agree.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "test_util.h"

namespace {

using nntest::ModelBuilder;

std::vector<float> specials() {
  const float inf = std::numeric_limits<float>::infinity();
  return {std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(),
          inf, -inf, FLT_MAX, -FLT_MAX, FLT_TRUE_MIN, -FLT_TRUE_MIN, 1e-40f, FLT_MIN,
          -0.0f, 0.0f, 1.0f, -1.0f, 100.0f, -100.0f};
}

// Bytes of `values` as the element type of `type` (float32 or float16).
std::vector<uint8_t> encode(const std::vector<float>& values, int32_t type) {
  if (type == ANEURALNETWORKS_TENSOR_FLOAT32) return nntest::bytesOf(values);
  std::vector<_Float16> h(values.size());
  for (size_t i = 0; i < values.size(); ++i) h[i] = static_cast<_Float16>(values[i]);
  return nntest::bytesOf(h);
}
std::vector<float> decode(const std::vector<uint8_t>& bytes, int32_t type) {
  if (type == ANEURALNETWORKS_TENSOR_FLOAT32) return nntest::valuesOf<float>(bytes);
  std::vector<float> out;
  for (_Float16 h : nntest::valuesOf<_Float16>(bytes)) out.push_back(static_cast<float>(h));
  return out;
}

uint32_t addFloatScalar(ModelBuilder& mb, int32_t tensorType, float v) {
  if (tensorType == ANEURALNETWORKS_TENSOR_FLOAT32) return mb.addFloat32(v);
  return mb.addConstant<_Float16>(ANEURALNETWORKS_FLOAT16, {}, {static_cast<_Float16>(v)});
}

// One operation: its code, how many float tensor inputs it takes (1 or 2, of the same shape),
// the trailing parameters it needs and its output type (-1: the input type).
struct OpCase {
  const char* name;
  int32_t op;
  int arity;
  std::function<std::vector<uint32_t>(ModelBuilder&, int32_t type)> params;
  int32_t outType = -1;
  bool reduces = false;  // output is [rows] (reduction over the last axis)
};

std::vector<OpCase> opCases() {
  auto none = [](ModelBuilder&, int32_t) { return std::vector<uint32_t>{}; };
  auto act = [](ModelBuilder& mb, int32_t) { return std::vector<uint32_t>{mb.addInt32(0)}; };
  auto relu = [](ModelBuilder& mb, int32_t) { return std::vector<uint32_t>{mb.addInt32(1)}; };
  auto beta = [](ModelBuilder& mb, int32_t t) {
    return std::vector<uint32_t>{addFloatScalar(mb, t, 1.f)};
  };
  auto reduce = [](ModelBuilder& mb, int32_t) {
    return std::vector<uint32_t>{
        mb.addConstant<int32_t>(ANEURALNETWORKS_TENSOR_INT32, {1}, {1}), mb.addBool(false)};
  };
  std::vector<OpCase> v = {
      {"ABS", ANEURALNETWORKS_ABS, 1, none},
      {"EXP", ANEURALNETWORKS_EXP, 1, none},
      {"FLOOR", ANEURALNETWORKS_FLOOR, 1, none},
      {"LOG", ANEURALNETWORKS_LOG, 1, none},
      {"NEG", ANEURALNETWORKS_NEG, 1, none},
      {"RSQRT", ANEURALNETWORKS_RSQRT, 1, none},
      {"SIN", ANEURALNETWORKS_SIN, 1, none},
      {"SQRT", ANEURALNETWORKS_SQRT, 1, none},
      {"LOGISTIC", ANEURALNETWORKS_LOGISTIC, 1, none},
      {"TANH", ANEURALNETWORKS_TANH, 1, none},
      {"RELU", ANEURALNETWORKS_RELU, 1, none},
      {"RELU1", ANEURALNETWORKS_RELU1, 1, none},
      {"RELU6", ANEURALNETWORKS_RELU6, 1, none},
      {"HARD_SWISH", ANEURALNETWORKS_HARD_SWISH, 1, none},
      {"ELU", ANEURALNETWORKS_ELU, 1, beta},
      {"SOFTMAX", ANEURALNETWORKS_SOFTMAX, 1, beta},
      {"LOG_SOFTMAX", ANEURALNETWORKS_LOG_SOFTMAX, 1,
       [](ModelBuilder& mb, int32_t t) {
         return std::vector<uint32_t>{addFloatScalar(mb, t, 1.f), mb.addInt32(-1)};
       }},
      {"L2_NORMALIZATION", ANEURALNETWORKS_L2_NORMALIZATION, 1, none},
      {"CAST_TO_INT32", ANEURALNETWORKS_CAST, 1, none, ANEURALNETWORKS_TENSOR_INT32},
      {"ADD", ANEURALNETWORKS_ADD, 2, act},
      {"ADD_RELU", ANEURALNETWORKS_ADD, 2, relu},
      {"SUB", ANEURALNETWORKS_SUB, 2, act},
      {"MUL", ANEURALNETWORKS_MUL, 2, act},
      {"DIV", ANEURALNETWORKS_DIV, 2, act},
      {"MAXIMUM", ANEURALNETWORKS_MAXIMUM, 2, none},
      {"MINIMUM", ANEURALNETWORKS_MINIMUM, 2, none},
      {"POW", ANEURALNETWORKS_POW, 2, none},
      {"PRELU", ANEURALNETWORKS_PRELU, 2, none},
      {"LESS", ANEURALNETWORKS_LESS, 2, none, ANEURALNETWORKS_TENSOR_BOOL8},
      {"EQUAL", ANEURALNETWORKS_EQUAL, 2, none, ANEURALNETWORKS_TENSOR_BOOL8},
      {"REDUCE_SUM", ANEURALNETWORKS_REDUCE_SUM, 1, reduce, -1, true},
      {"REDUCE_MAX", ANEURALNETWORKS_REDUCE_MAX, 1, reduce, -1, true},
      {"REDUCE_MIN", ANEURALNETWORKS_REDUCE_MIN, 1, reduce, -1, true},
      {"REDUCE_PROD", ANEURALNETWORKS_REDUCE_PROD, 1, reduce, -1, true},
      {"MEAN", ANEURALNETWORKS_MEAN, 1,
       [](ModelBuilder& mb, int32_t) {
         return std::vector<uint32_t>{
             mb.addConstant<int32_t>(ANEURALNETWORKS_TENSOR_INT32, {1}, {1}), mb.addInt32(0)};
       },
       -1, true},
      {"ARGMAX", ANEURALNETWORKS_ARGMAX, 1,
       [](ModelBuilder& mb, int32_t) { return std::vector<uint32_t>{mb.addInt32(1)}; },
       ANEURALNETWORKS_TENSOR_INT32, true},
  };
  return v;
}

size_t elementBytes(int32_t type) {
  switch (type) {
    case ANEURALNETWORKS_TENSOR_FLOAT16: return 2;
    case ANEURALNETWORKS_TENSOR_BOOL8: return 1;
    default: return 4;
  }
}

TEST(ApiSpecialValues, EveryFloatOperationSurvivesSpecialValues) {
  const std::vector<float> s = specials();
  const uint32_t n = static_cast<uint32_t>(s.size());
  int computed = 0;
  for (int32_t type : {ANEURALNETWORKS_TENSOR_FLOAT32, ANEURALNETWORKS_TENSOR_FLOAT16}) {
    for (const OpCase& c : opCases()) {
      // Unary: every special value in each row position (rows of 4: the value among 0, 1, -1
      // for the row-wise operations). Binary: every pair of special values.
      std::vector<float> a, b;
      uint32_t rows, cols;
      if (c.arity == 1) {
        rows = n;
        cols = 4;
        for (float x : s) a.insert(a.end(), {x, 0.f, 1.f, -1.f});
      } else {
        rows = n;
        cols = n;
        for (float x : s)
          for (float y : s) {
            a.push_back(x);
            b.push_back(y);
          }
      }
      ModelBuilder mb;
      std::vector<uint32_t> inputs{mb.addOperand(type, {rows, cols})};
      if (c.arity == 2) inputs.push_back(mb.addOperand(type, {rows, cols}));
      std::vector<uint32_t> opInputs = inputs;
      for (uint32_t p : c.params(mb, type)) opInputs.push_back(p);
      const int32_t outType = c.outType < 0 ? type : c.outType;
      const std::vector<uint32_t> outDims =
          c.reduces ? std::vector<uint32_t>{rows} : std::vector<uint32_t>{rows, cols};
      const uint32_t out = mb.addOperand(outType, outDims);
      mb.addOperation(c.op, opInputs, {out});
      ASSERT_EQ(mb.finish(inputs, {out}), ANEURALNETWORKS_NO_ERROR)
          << c.name << " " << type << ": " << ANNLinux_getLastErrorMessage();
      std::vector<std::vector<uint8_t>> values{encode(a, type)};
      if (c.arity == 2) values.push_back(encode(b, type));
      const size_t outBytes = size_t(outDims[0]) * (c.reduces ? 1 : cols) * elementBytes(outType);
      std::vector<std::vector<float>> results;
      for (const char* device : {"nnapi-cpu", "nnapi-cpu-reference"}) {
        const nntest::RunResult r = nntest::runModel(mb, values, {outBytes}, device);
        // Completing is expected; a clean OP_FAILED (e.g. CAST of NaN to an integer) is allowed.
        EXPECT_TRUE(r.status == ANEURALNETWORKS_NO_ERROR || r.status == ANEURALNETWORKS_OP_FAILED)
            << c.name << " type " << type << " on " << device << ": " << r.status << " at "
            << r.step << ": " << ANNLinux_getLastErrorMessage();
        if (r.status != ANEURALNETWORKS_NO_ERROR) continue;
        ++computed;
        if (outType == type) results.push_back(decode(r.outputs[0], type));
      }
      if (results.size() == 2) {
        for (size_t i = 0; i < results[0].size(); ++i)
          EXPECT_EQ(std::isnan(results[0][i]), std::isnan(results[1][i]))
              << c.name << " type " << type << " element " << i << ": fast " << results[0][i]
              << " reference " << results[1][i];
      }
    }
  }
  EXPECT_GT(computed, 100);
}

}  // namespace
