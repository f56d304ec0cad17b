// CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED through the public C API: hand-computed cases
// (float and quant8, explicit and implicit padding, activations, layouts, dilation), invalid
// signatures rejected with BAD_DATA, and random-shape property tests comparing the default
// device (XNNPACK / packed GEMM / VNNI kernels) with the reference device's plain loops.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "test_util.h"

namespace {

using nntest::bytesOf;
using nntest::ModelBuilder;
using nntest::valuesOf;

constexpr const char* kReference = "nnapi-cpu-reference";

// ---------------------------------------------------------------------------------------
// Model description shared by the conv-like tests.

struct ConvSpec {
  int op = ANEURALNETWORKS_CONV_2D;
  int type = ANEURALNETWORKS_TENSOR_FLOAT32;   // input/output type
  int filterType = -1;                          // -1: same as type
  std::vector<uint32_t> inDims, filterDims, outDims;
  float inScale = 0.f, filterScale = 0.f, biasScale = 0.f, outScale = 0.f;
  int32_t inZero = 0, filterZero = 0, outZero = 0;
  std::vector<float> channelScales;  // per-channel filter scales
  uint32_t channelDim = 0;
  // Scalars after bias: explicit (l, r, t, b, sw, sh[, dm], act) or implicit
  // (code, sw, sh[, dm], act).
  std::vector<int32_t> scalars;
  int layout = -1;               // -1: absent, 0/1: NHWC/NCHW
  int dilationW = 0, dilationH = 0;  // 0: absent
  bool weightsAsInputs = false;  // filter and bias become model inputs
  // TRANSPOSE_CONV_2D implicit form: the output-shape tensor placed after the bias.
  std::vector<int32_t> outputShapeTensor;
};

bool isQuantType(int t) {
  return t == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM || t == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
}

size_t elementBytes(int t) {
  switch (t) {
    case ANEURALNETWORKS_TENSOR_FLOAT32:
    case ANEURALNETWORKS_TENSOR_INT32:
      return 4;
    case ANEURALNETWORKS_TENSOR_FLOAT16:
      return 2;
    default:
      return 1;
  }
}

size_t countOf(const std::vector<uint32_t>& d) {
  size_t n = 1;
  for (uint32_t x : d) n *= x;
  return n;
}

struct ConvData {
  std::vector<uint8_t> input, filter, bias;
};

// Builds the model. Returns the first error of model construction (finish included).
int buildConv(ModelBuilder& m, const ConvSpec& s, const ConvData& d) {
  const int filterType = s.filterType < 0 ? s.type : s.filterType;
  const int biasType = isQuantType(s.type) ? ANEURALNETWORKS_TENSOR_INT32 : s.type;
  const uint32_t in = m.addOperand(s.type, s.inDims, s.inScale, s.inZero);
  const uint32_t outChannels =
      s.op == ANEURALNETWORKS_DEPTHWISE_CONV_2D ? s.filterDims[3] : s.filterDims[0];
  const uint32_t filter = m.addOperand(filterType, s.filterDims, s.filterScale, s.filterZero);
  if (!s.channelScales.empty()) {
    ANeuralNetworksSymmPerChannelQuantParams p{s.channelDim,
                                               static_cast<uint32_t>(s.channelScales.size()),
                                               s.channelScales.data()};
    ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(m.get(), filter, &p);
  }
  const uint32_t bias = m.addOperand(biasType, {outChannels}, s.biasScale, 0);
  std::vector<uint32_t> modelInputs{in};
  if (s.weightsAsInputs) {
    modelInputs.push_back(filter);
    modelInputs.push_back(bias);
  } else {
    m.setValue(filter, d.filter);
    m.setValue(bias, d.bias);
  }
  std::vector<uint32_t> inputs{in, filter, bias};
  if (!s.outputShapeTensor.empty())
    inputs.push_back(m.addConstant<int32_t>(ANEURALNETWORKS_TENSOR_INT32,
                                            {uint32_t(s.outputShapeTensor.size())},
                                            s.outputShapeTensor));
  for (int32_t v : s.scalars) inputs.push_back(m.addInt32(v));
  if (s.layout >= 0) inputs.push_back(m.addBool(s.layout != 0));
  if (s.dilationW > 0) {
    inputs.push_back(m.addInt32(s.dilationW));
    inputs.push_back(m.addInt32(s.dilationH));
  }
  const uint32_t out = m.addOperand(s.type, s.outDims, s.outScale, s.outZero);
  m.addOperation(s.op, inputs, {out});
  return m.finish(modelInputs, {out});
}

// Runs once; returns the raw output bytes (empty on failure, with a test failure recorded).
std::vector<uint8_t> runConv(const ConvSpec& s, const ConvData& d, size_t outCount,
                             const char* device = nullptr) {
  ModelBuilder m;
  EXPECT_EQ(buildConv(m, s, d), ANEURALNETWORKS_NO_ERROR);
  std::vector<std::vector<uint8_t>> inputs{d.input};
  if (s.weightsAsInputs) {
    inputs.push_back(d.filter);
    inputs.push_back(d.bias);
  }
  auto r = nntest::runModel(m, inputs, {outCount * elementBytes(s.type)}, device);
  EXPECT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  if (r.status != ANEURALNETWORKS_NO_ERROR) return {};
  return r.outputs[0];
}

void expectFloats(const std::vector<uint8_t>& actual, const std::vector<float>& expected,
                  float tol = 1e-5f) {
  const auto v = valuesOf<float>(actual);
  ASSERT_EQ(v.size(), expected.size());
  for (size_t i = 0; i < v.size(); ++i) EXPECT_NEAR(v[i], expected[i], tol) << "element " << i;
}

// Both devices, both weight lifetimes.
void expectConvFloat(ConvSpec s, const std::vector<float>& input, const std::vector<float>& filter,
                     const std::vector<float>& bias, const std::vector<float>& expected) {
  ConvData d{bytesOf(input), bytesOf(filter), bytesOf(bias)};
  for (bool weightsAsInputs : {false, true}) {
    s.weightsAsInputs = weightsAsInputs;
    for (const char* device : {static_cast<const char*>(nullptr), kReference}) {
      SCOPED_TRACE(std::string(device ? device : "default") +
                   (weightsAsInputs ? ", weights as inputs" : ", constant weights"));
      expectFloats(runConv(s, d, expected.size(), device), expected);
    }
  }
}

template <typename T>
void expectConvQuant(ConvSpec s, const std::vector<T>& input, const std::vector<T>& filter,
                     const std::vector<int32_t>& bias, const std::vector<T>& expected) {
  ConvData d{bytesOf(input), bytesOf(filter), bytesOf(bias)};
  for (bool weightsAsInputs : {false, true}) {
    s.weightsAsInputs = weightsAsInputs;
    for (const char* device : {static_cast<const char*>(nullptr), kReference}) {
      SCOPED_TRACE(std::string(device ? device : "default") +
                   (weightsAsInputs ? ", weights as inputs" : ", constant weights"));
      const auto out = valuesOf<T>(runConv(s, d, expected.size(), device));
      ASSERT_EQ(out.size(), expected.size());
      for (size_t i = 0; i < out.size(); ++i)
        EXPECT_EQ(int(out[i]), int(expected[i])) << "element " << i;
    }
  }
}

// ---------------------------------------------------------------------------------------
// CONV_2D, hand-computed.
//
// input 3x3 (1..9), filter 2x2 [1 2; 3 4], bias 1.
//   VALID: 38 48 / 68 78.   SAME (pad bottom/right by one): adds 22, 34, 24, 27, 10.

const std::vector<float> kIn3x3{1, 2, 3, 4, 5, 6, 7, 8, 9};
const std::vector<float> kFilter2x2{1, 2, 3, 4};

TEST(Conv2D, FloatImplicitValid) {
  ConvSpec s;
  s.inDims = {1, 3, 3, 1};
  s.filterDims = {1, 2, 2, 1};
  s.outDims = {1, 2, 2, 1};
  s.scalars = {ANEURALNETWORKS_PADDING_VALID, 1, 1, ANEURALNETWORKS_FUSED_NONE};
  expectConvFloat(s, kIn3x3, kFilter2x2, {1}, {38, 48, 68, 78});
}

TEST(Conv2D, FloatImplicitSame) {
  ConvSpec s;
  s.inDims = {1, 3, 3, 1};
  s.filterDims = {1, 2, 2, 1};
  s.outDims = {1, 3, 3, 1};
  s.scalars = {ANEURALNETWORKS_PADDING_SAME, 1, 1, ANEURALNETWORKS_FUSED_NONE};
  expectConvFloat(s, kIn3x3, kFilter2x2, {1}, {38, 48, 22, 68, 78, 34, 24, 27, 10});
}

TEST(Conv2D, FloatExplicitPaddingMatchesSame) {
  ConvSpec s;
  s.inDims = {1, 3, 3, 1};
  s.filterDims = {1, 2, 2, 1};
  s.outDims = {1, 3, 3, 1};
  s.scalars = {0, 1, 0, 1, 1, 1, ANEURALNETWORKS_FUSED_NONE};
  expectConvFloat(s, kIn3x3, kFilter2x2, {1}, {38, 48, 22, 68, 78, 34, 24, 27, 10});
}

TEST(Conv2D, FloatExplicitPaddingTopLeftStride2) {
  // Pad one row/column on the top/left, stride 2: windows start at (-1,-1), (-1,1), (1,-1), (1,1).
  ConvSpec s;
  s.inDims = {1, 3, 3, 1};
  s.filterDims = {1, 2, 2, 1};
  s.outDims = {1, 2, 2, 1};
  s.scalars = {1, 0, 1, 0, 2, 2, ANEURALNETWORKS_FUSED_NONE};
  // (-1,-1): only in(0,0)*4 = 4; (-1,1): in(0,1)*3 + in(0,2)*4 = 6+12 = 18;
  // (1,-1): in(1,0)*2 + in(2,0)*4 = 8+28 = 36; (1,1): 5+12+24+36 = 77. Plus bias 1.
  expectConvFloat(s, kIn3x3, kFilter2x2, {1}, {5, 19, 37, 78});
}

TEST(Conv2D, FloatActivations) {
  ConvSpec s;
  s.inDims = {1, 3, 3, 1};
  s.filterDims = {1, 2, 2, 1};
  s.outDims = {1, 2, 2, 1};
  s.scalars = {ANEURALNETWORKS_PADDING_VALID, 1, 1, ANEURALNETWORKS_FUSED_RELU};
  // Without bias the VALID sums are 37 47 67 77.
  expectConvFloat(s, kIn3x3, kFilter2x2, {-50}, {0, 0, 17, 27});
  s.scalars.back() = ANEURALNETWORKS_FUSED_RELU6;
  expectConvFloat(s, kIn3x3, kFilter2x2, {-45}, {0, 2, 6, 6});
  s.scalars.back() = ANEURALNETWORKS_FUSED_RELU1;
  expectConvFloat(s, kIn3x3, kFilter2x2, {-47}, {-1, 0, 1, 1});
}

TEST(Conv2D, FloatMultiChannel) {
  // 1x1 input pixel with 2 channels, 3 output channels, 1x1 filter.
  ConvSpec s;
  s.inDims = {1, 1, 1, 2};
  s.filterDims = {3, 1, 1, 2};
  s.outDims = {1, 1, 1, 3};
  s.scalars = {ANEURALNETWORKS_PADDING_VALID, 1, 1, ANEURALNETWORKS_FUSED_NONE};
  // in (2, 3); filters (1,1) (2,-1) (0,5); bias (0, 10, -1)
  expectConvFloat(s, {2, 3}, {1, 1, 2, -1, 0, 5}, {0, 10, -1}, {5, 11, 14});
}

TEST(Conv2D, FloatNchw) {
  // 2 input channels of 2x2, one 1x1 filter summing them with weights 1 and 10.
  ConvSpec s;
  s.inDims = {1, 2, 2, 2};  // NCHW
  s.filterDims = {1, 1, 1, 2};
  s.outDims = {1, 1, 2, 2};
  s.scalars = {ANEURALNETWORKS_PADDING_VALID, 1, 1, ANEURALNETWORKS_FUSED_NONE};
  s.layout = 1;
  expectConvFloat(s, {1, 2, 3, 4, 5, 6, 7, 8}, {1, 10}, {0}, {51, 62, 73, 84});
}

TEST(Conv2D, FloatDilation) {
  // 3x3 input, 2x2 filter dilated by 2 covers the corners: 1*1 + 3*2 + 7*3 + 9*4 = 64.
  ConvSpec s;
  s.inDims = {1, 3, 3, 1};
  s.filterDims = {1, 2, 2, 1};
  s.outDims = {1, 1, 1, 1};
  s.scalars = {ANEURALNETWORKS_PADDING_VALID, 1, 1, ANEURALNETWORKS_FUSED_NONE};
  s.layout = 0;
  s.dilationW = s.dilationH = 2;
  expectConvFloat(s, kIn3x3, kFilter2x2, {0}, {64});
}

TEST(Conv2D, Quant8) {
  // input scale 0.5 zp 10, filter scale 0.25 zp 3, bias scale 0.125, output scale 1 zp 5:
  // multiplier 0.125. Channel 0: (2,4,6,8).(1,2,3,4) + 3 = 63 -> 7.875 -> 8 -> 13.
  // Channel 1: (2,4,6,8).(0,0,0,-1) + 3 = -5 -> -0.625 -> -1 -> 4.
  ConvSpec s;
  s.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  s.inDims = {1, 2, 2, 1};
  s.filterDims = {2, 2, 2, 1};
  s.outDims = {1, 1, 1, 2};
  s.inScale = 0.5f;
  s.inZero = 10;
  s.filterScale = 0.25f;
  s.filterZero = 3;
  s.biasScale = 0.125f;
  s.outScale = 1.f;
  s.outZero = 5;
  s.scalars = {0, 0, 0, 0, 1, 1, ANEURALNETWORKS_FUSED_NONE};
  const std::vector<uint8_t> in{12, 14, 16, 18}, filter{4, 5, 6, 7, 3, 3, 3, 2};
  expectConvQuant<uint8_t>(s, in, filter, {3, 3}, {13, 4});
  // RELU1 clamps to [zp - 1, zp + 1] = [4, 6].
  s.scalars.back() = ANEURALNETWORKS_FUSED_RELU1;
  expectConvQuant<uint8_t>(s, in, filter, {3, 3}, {6, 4});
}

TEST(Conv2D, Quant8SamePaddingUsesZeroPoint) {
  // Padded taps must contribute nothing (they read the zero point, not 0).
  ConvSpec s;
  s.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  s.inDims = {1, 1, 2, 1};
  s.filterDims = {1, 1, 3, 1};
  s.outDims = {1, 1, 2, 1};
  s.inScale = 1.f;
  s.inZero = 100;
  s.filterScale = 0.5f;
  s.filterZero = 0;
  s.biasScale = 0.5f;
  s.outScale = 1.f;
  s.outZero = 0;
  s.scalars = {ANEURALNETWORKS_PADDING_SAME, 1, 1, ANEURALNETWORKS_FUSED_NONE};
  // in real (1, 2); filter real (1, 1, 1): out = (0+1+2, 1+2+0) = 3, 3.
  expectConvQuant<uint8_t>(s, {101, 102}, {2, 2, 2}, {0}, {3, 3});
}

TEST(Conv2D, Quant8PerChannel) {
  // Per-channel filter scales 0.5 and 0.25; input scale 1 zp 0; output scale 1.
  ConvSpec s;
  s.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  s.filterType = ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL;
  s.inDims = {1, 1, 1, 2};
  s.filterDims = {2, 1, 1, 2};
  s.outDims = {1, 1, 1, 2};
  s.inScale = 1.f;
  s.biasScale = 0.f;
  s.outScale = 1.f;
  s.channelScales = {0.5f, 0.25f};
  s.scalars = {ANEURALNETWORKS_PADDING_VALID, 1, 1, ANEURALNETWORKS_FUSED_NONE};
  // in (3, 5); ch0 (2, -1)*0.5 -> (3*2 - 5)*0.5 + bias 4*0.5 = 0.5 + 2 = 2.5 -> 3 (away from 0);
  // ch1 (4, 4)*0.25: acc 32 - 3 = 29 times 0.25 (Q31 2^30, right shift 1) rounds twice:
  // 14.5 -> 15, 7.5 -> 8.
  expectConvQuant<uint8_t>(s, {3, 5}, {2, static_cast<uint8_t>(-1), 4, 4}, {4, -3}, {3, 8});
}

TEST(Conv2D, Quant8Signed) {
  ConvSpec s;
  s.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
  s.inDims = {1, 1, 2, 1};
  s.filterDims = {1, 1, 2, 1};
  s.outDims = {1, 1, 1, 1};
  s.inScale = 1.f;
  s.inZero = -10;
  s.filterScale = 0.5f;
  s.filterZero = 2;
  s.biasScale = 0.5f;
  s.outScale = 1.f;
  s.outZero = -3;
  s.scalars = {ANEURALNETWORKS_PADDING_VALID, 1, 1, ANEURALNETWORKS_FUSED_NONE};
  // in real (-5, 20); filter real (0.5*(4-2), 0.5*(-4-2)) = (1, -3); bias 2*0.5:
  // -5 - 60 + 1 = -64 -> -64 + zp -3 = -67.
  expectConvQuant<int8_t>(s, {-15, 10}, {4, -4}, {2}, {-67});
  // The same with the real result -63.5 checks the rounding of ties (toward +inf in the
  // reference's rounding high multiply): bias 3 -> -63 -> -66.
  expectConvQuant<int8_t>(s, {-15, 10}, {4, -4}, {3}, {-66});
}

// ---------------------------------------------------------------------------------------
// DEPTHWISE_CONV_2D, hand-computed.
//
// input 2x2x2 (channel 0: 1 3 5 7, channel 1: 2 4 6 8), depth multiplier 2, 2x2 filter:
//   oc0 = ic0 * (1,1,1,1), oc1 = ic0 * (1,2,3,4), oc2 = ic1 * (1,0,0,0), oc3 = ic1 * (0,0,0,-1)
//   bias (0, 1, 0, 0): VALID output (16, 51, 2, -8).

const std::vector<float> kDwIn{1, 2, 3, 4, 5, 6, 7, 8};
const std::vector<float> kDwFilter{1, 1, 1, 0, 1, 2, 0, 0, 1, 3, 0, 0, 1, 4, 0, -1};

TEST(DepthwiseConv2D, FloatImplicit) {
  ConvSpec s;
  s.op = ANEURALNETWORKS_DEPTHWISE_CONV_2D;
  s.inDims = {1, 2, 2, 2};
  s.filterDims = {1, 2, 2, 4};
  s.outDims = {1, 1, 1, 4};
  s.scalars = {ANEURALNETWORKS_PADDING_VALID, 1, 1, 2, ANEURALNETWORKS_FUSED_NONE};
  expectConvFloat(s, kDwIn, kDwFilter, {0, 1, 0, 0}, {16, 51, 2, -8});
  s.scalars.back() = ANEURALNETWORKS_FUSED_RELU;
  expectConvFloat(s, kDwIn, kDwFilter, {0, 1, 0, 0}, {16, 51, 2, 0});
}

TEST(DepthwiseConv2D, FloatExplicitSame) {
  // Pad one on the right and bottom: the 2x2 output is one full window and three partial ones.
  ConvSpec s;
  s.op = ANEURALNETWORKS_DEPTHWISE_CONV_2D;
  s.inDims = {1, 2, 2, 2};
  s.filterDims = {1, 2, 2, 4};
  s.outDims = {1, 2, 2, 4};
  s.scalars = {0, 1, 0, 1, 1, 1, 2, ANEURALNETWORKS_FUSED_NONE};
  // (0,1): taps (0,0)<-in(0,1), (1,0)<-in(1,1): oc0 3+7, oc1 3+3*7+1, oc2 4, oc3 0
  // (1,0): taps (0,0)<-in(1,0), (0,1)<-in(1,1): oc0 5+7, oc1 5+2*7+1, oc2 6, oc3 0
  // (1,1): tap (0,0)<-in(1,1): oc0 7, oc1 7+1, oc2 8, oc3 0
  expectConvFloat(s, kDwIn, kDwFilter, {0, 1, 0, 0},
                  {16, 51, 2, -8, 10, 25, 4, 0, 12, 20, 6, 0, 7, 8, 8, 0});
}

TEST(DepthwiseConv2D, FloatNchw) {
  ConvSpec s;
  s.op = ANEURALNETWORKS_DEPTHWISE_CONV_2D;
  s.inDims = {1, 2, 2, 2};  // NCHW: channel 0 = 1 3 5 7, channel 1 = 2 4 6 8
  s.filterDims = {1, 2, 2, 4};
  s.outDims = {1, 4, 1, 1};
  s.scalars = {ANEURALNETWORKS_PADDING_VALID, 1, 1, 2, ANEURALNETWORKS_FUSED_NONE};
  s.layout = 1;
  expectConvFloat(s, {1, 3, 5, 7, 2, 4, 6, 8}, kDwFilter, {0, 1, 0, 0}, {16, 51, 2, -8});
}

TEST(DepthwiseConv2D, Quant8) {
  // input scale 1 zp 128, filter scale 0.5 zp 8, bias scale 0.5, output scale 2 zp 100:
  // multiplier 0.25 = Q31 2^30 with a right shift of 1, so the reference rounds twice: first
  // x/2 (ties up) in the high multiply, then /2 (ties away from zero).
  ConvSpec s;
  s.op = ANEURALNETWORKS_DEPTHWISE_CONV_2D;
  s.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  s.inDims = {1, 1, 2, 2};
  s.filterDims = {1, 1, 2, 2};
  s.outDims = {1, 1, 1, 2};
  s.inScale = 1.f;
  s.inZero = 128;
  s.filterScale = 0.5f;
  s.filterZero = 8;
  s.biasScale = 0.5f;
  s.outScale = 2.f;
  s.outZero = 100;
  s.scalars = {ANEURALNETWORKS_PADDING_VALID, 1, 1, 1, ANEURALNETWORKS_FUSED_NONE};
  // pixels: (c0, c1) = (1, 4) and (2, -6) in real terms.
  // c0 filter q (10, 10) -> (2, 2) in zero-point units: acc = 1*2 + 2*2 + bias 3 = 9;
  //   9/2 = 4.5 -> 5, 5/2 = 2.5 -> 3 -> 103 (a single rounding of 2.25 would give 2).
  // c1 filter q (6, 9) -> (-2, 1): acc = 4*-2 + -6*1 + bias -7 = -21; -10.5 -> -10; -5 -> 95.
  expectConvQuant<uint8_t>(s, {129, 132, 130, 122}, {10, 6, 10, 9}, {3, -7}, {103, 95});
}

// ---------------------------------------------------------------------------------------
// FULLY_CONNECTED, hand-computed.

struct FcSpec {
  int type = ANEURALNETWORKS_TENSOR_FLOAT32;
  std::vector<uint32_t> inDims, weightDims, outDims;
  float inScale = 0.f, weightScale = 0.f, biasScale = 0.f, outScale = 0.f;
  int32_t inZero = 0, weightZero = 0, outZero = 0;
  int32_t activation = 0;
  bool weightsAsInputs = false;
};

int buildFc(ModelBuilder& m, const FcSpec& s, const ConvData& d) {
  const int biasType = isQuantType(s.type) ? ANEURALNETWORKS_TENSOR_INT32 : s.type;
  const uint32_t in = m.addOperand(s.type, s.inDims, s.inScale, s.inZero);
  const uint32_t w = m.addOperand(s.type, s.weightDims, s.weightScale, s.weightZero);
  const uint32_t b = m.addOperand(biasType, {s.weightDims[0]}, s.biasScale, 0);
  std::vector<uint32_t> modelInputs{in};
  if (s.weightsAsInputs) {
    modelInputs.push_back(w);
    modelInputs.push_back(b);
  } else {
    m.setValue(w, d.filter);
    m.setValue(b, d.bias);
  }
  const uint32_t act = m.addInt32(s.activation);
  const uint32_t out = m.addOperand(s.type, s.outDims, s.outScale, s.outZero);
  m.addOperation(ANEURALNETWORKS_FULLY_CONNECTED, {in, w, b, act}, {out});
  return m.finish(modelInputs, {out});
}

std::vector<uint8_t> runFc(const FcSpec& s, const ConvData& d, size_t outCount,
                           const char* device = nullptr) {
  ModelBuilder m;
  EXPECT_EQ(buildFc(m, s, d), ANEURALNETWORKS_NO_ERROR);
  std::vector<std::vector<uint8_t>> inputs{d.input};
  if (s.weightsAsInputs) {
    inputs.push_back(d.filter);
    inputs.push_back(d.bias);
  }
  auto r = nntest::runModel(m, inputs, {outCount * elementBytes(s.type)}, device);
  EXPECT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  if (r.status != ANEURALNETWORKS_NO_ERROR) return {};
  return r.outputs[0];
}

TEST(FullyConnected, FloatFlattensInput) {
  // [[1,2,3],[4,5,6]] x [[1,0,-1],[2,1,0]]' + (10, 20) = [[8, 24], [8, 33]].
  FcSpec s;
  s.inDims = {1, 2, 3};
  s.weightDims = {2, 3};
  s.outDims = {2, 2};
  ConvData d{bytesOf(std::vector<float>{1, 2, 3, 4, 5, 6}),
             bytesOf(std::vector<float>{1, 0, -1, 2, 1, 0}), bytesOf(std::vector<float>{10, 20})};
  for (bool weightsAsInputs : {false, true}) {
    s.weightsAsInputs = weightsAsInputs;
    for (const char* device : {static_cast<const char*>(nullptr), kReference})
      expectFloats(runFc(s, d, 4, device), {8, 24, 8, 33});
  }
  s.activation = ANEURALNETWORKS_FUSED_RELU6;
  expectFloats(runFc(s, d, 4), {6, 6, 6, 6});
}

TEST(FullyConnected, Quant8) {
  // input scale 0.5 zp 128 (real 1, 2), weights scale 0.5 zp 128 (real (0.5,-0.5), (1,1)),
  // bias scale 0.25 (5, -4), output scale 1 zp 100: multiplier 0.25.
  // acc0 = 2*1 + 4*-1 + 5 = 3 -> 0.75 -> 1 -> 101; acc1 = 2*2 + 4*2 - 4 = 8 -> 2 -> 102.
  FcSpec s;
  s.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  s.inDims = {1, 2};
  s.weightDims = {2, 2};
  s.outDims = {1, 2};
  s.inScale = 0.5f;
  s.inZero = 128;
  s.weightScale = 0.5f;
  s.weightZero = 128;
  s.biasScale = 0.25f;
  s.outScale = 1.f;
  s.outZero = 100;
  ConvData d{{130, 132}, {129, 127, 130, 130}, bytesOf(std::vector<int32_t>{5, -4})};
  for (bool weightsAsInputs : {false, true}) {
    s.weightsAsInputs = weightsAsInputs;
    for (const char* device : {static_cast<const char*>(nullptr), kReference}) {
      const auto out = runFc(s, d, 2, device);
      ASSERT_EQ(out.size(), 2u);
      EXPECT_EQ(out[0], 101);
      EXPECT_EQ(out[1], 102);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Invalid signatures and shapes.

// Adds an operation with the given scalar inputs and returns the first error (addOperation
// or finish).
int buildWithScalars(int op, int type, const std::vector<int32_t>& scalars, int biasType = -1,
                     std::vector<uint32_t> filterDims = {1, 2, 2, 1},
                     std::vector<uint32_t> inDims = {1, 3, 3, 1}) {
  ModelBuilder m;
  const bool quant = isQuantType(type);
  const float scale = quant ? 0.5f : 0.f;
  const uint32_t in = m.addOperand(type, inDims, scale, 0);
  const uint32_t outC = op == ANEURALNETWORKS_DEPTHWISE_CONV_2D ? filterDims[3] : filterDims[0];
  const uint32_t filter = m.addOperand(type, filterDims, scale, 0);
  m.setValue(filter, std::vector<uint8_t>(countOf(filterDims) * elementBytes(type), 1));
  if (biasType < 0) biasType = quant ? ANEURALNETWORKS_TENSOR_INT32 : type;
  const uint32_t bias =
      m.addOperand(biasType, {outC}, biasType == ANEURALNETWORKS_TENSOR_INT32 ? 0.25f : 0.f, 0);
  m.setValue(bias, std::vector<uint8_t>(outC * 4, 0));
  std::vector<uint32_t> inputs{in, filter, bias};
  for (int32_t v : scalars) inputs.push_back(m.addInt32(v));
  const uint32_t out = m.addOperand(type, {}, quant ? 1.f : 0.f, 0);
  if (m.status() != ANEURALNETWORKS_NO_ERROR) return -1000;  // the builder itself broke
  const int r = m.addOperation(op, inputs, {out});
  if (r != ANEURALNETWORKS_NO_ERROR) return r;
  const int f = m.finish({in}, {out});
  if (f != ANEURALNETWORKS_NO_ERROR) return f;
  // Shape rules are checked when the operation is prepared (compilation).
  return nntest::runModel(m, {std::vector<uint8_t>(countOf(inDims) * elementBytes(type))},
                          {4096})
      .status;
}

TEST(ConvValidation, ValidBaseline) {
  EXPECT_EQ(buildWithScalars(ANEURALNETWORKS_CONV_2D, ANEURALNETWORKS_TENSOR_FLOAT32, {2, 1, 1, 0}),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(buildWithScalars(ANEURALNETWORKS_CONV_2D, ANEURALNETWORKS_TENSOR_FLOAT32,
                             {0, 0, 0, 0, 1, 1, 0}),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(buildWithScalars(ANEURALNETWORKS_DEPTHWISE_CONV_2D, ANEURALNETWORKS_TENSOR_FLOAT32,
                             {2, 1, 1, 1, 0}),
            ANEURALNETWORKS_NO_ERROR);
}

TEST(ConvValidation, RejectsBadSignatures) {
  const int f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  const int conv = ANEURALNETWORKS_CONV_2D, dw = ANEURALNETWORKS_DEPTHWISE_CONV_2D;
  // Too few inputs.
  EXPECT_EQ(buildWithScalars(conv, f32, {2, 1, 1}), ANEURALNETWORKS_BAD_DATA);
  // 9 inputs: explicit form missing its activation (input 7 is INT32 but 10 are needed).
  EXPECT_EQ(buildWithScalars(conv, f32, {0, 0, 0, 0, 1, 1}), ANEURALNETWORKS_BAD_DATA);
  // Stride 0, negative padding, bad activation, bad padding code.
  EXPECT_EQ(buildWithScalars(conv, f32, {2, 0, 1, 0}), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(buildWithScalars(conv, f32, {-1, 0, 0, 0, 1, 1, 0}), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(buildWithScalars(conv, f32, {2, 1, 1, 7}), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(buildWithScalars(conv, f32, {3, 1, 1, 0}), ANEURALNETWORKS_BAD_DATA);
  // Bias of the wrong type.
  EXPECT_EQ(buildWithScalars(conv, f32, {2, 1, 1, 0}, ANEURALNETWORKS_TENSOR_INT32),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(buildWithScalars(conv, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, {2, 1, 1, 0}, f32),
            ANEURALNETWORKS_BAD_DATA);
  // Unsupported tensor type.
  EXPECT_EQ(buildWithScalars(conv, ANEURALNETWORKS_TENSOR_INT32, {2, 1, 1, 0}),
            ANEURALNETWORKS_BAD_DATA);
  // Depthwise: zero multiplier; 9 inputs whose input 8 is INT32 (neither form).
  EXPECT_EQ(buildWithScalars(dw, f32, {2, 1, 1, 0, 0}), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(buildWithScalars(dw, f32, {2, 1, 1, 1, 0, 0}), ANEURALNETWORKS_BAD_DATA);
}

TEST(ConvValidation, RejectsBadShapes) {
  const int f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  // Filter depth 2 against input depth 1.
  EXPECT_EQ(buildWithScalars(ANEURALNETWORKS_CONV_2D, f32, {2, 1, 1, 0}, -1, {1, 2, 2, 2}),
            ANEURALNETWORKS_BAD_DATA);
  // Depthwise filter channels 3 != input depth 1 * multiplier 1.
  EXPECT_EQ(buildWithScalars(ANEURALNETWORKS_DEPTHWISE_CONV_2D, f32, {2, 1, 1, 1, 0}, -1,
                             {1, 2, 2, 3}),
            ANEURALNETWORKS_BAD_DATA);
  // Depthwise filter dimension 0 must be 1.
  EXPECT_EQ(buildWithScalars(ANEURALNETWORKS_DEPTHWISE_CONV_2D, f32, {2, 1, 1, 1, 0}, -1,
                             {2, 2, 2, 1}),
            ANEURALNETWORKS_BAD_DATA);
  // Filter larger than the input with VALID padding.
  EXPECT_EQ(buildWithScalars(ANEURALNETWORKS_CONV_2D, f32, {2, 1, 1, 0}, -1, {1, 4, 4, 1}),
            ANEURALNETWORKS_BAD_DATA);
}

// Compiling/validating may report the error at finish or at compilation.
int compileStatus(const ModelBuilder& m, const std::vector<std::vector<uint8_t>>& inputs,
                  size_t outBytes) {
  if (m.status() != ANEURALNETWORKS_NO_ERROR) return m.status();
  return nntest::runModel(m, inputs, {outBytes}).status;
}

TEST(FullyConnectedValidation, RejectsBadSignatures) {
  const int f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  auto build = [&](std::vector<uint32_t> inDims, std::vector<uint32_t> wDims, uint32_t biasLen,
                   int32_t activation, int biasType) {
    ModelBuilder m;
    const uint32_t in = m.addOperand(f32, inDims);
    const uint32_t w = m.addConstant<float>(f32, wDims, std::vector<float>(countOf(wDims), 1.f));
    const uint32_t b = m.addConstant<float>(biasType, {biasLen}, std::vector<float>(biasLen, 0.f));
    const uint32_t act = m.addInt32(activation);
    const uint32_t out = m.addOperand(f32, {});
    const int r = m.addOperation(ANEURALNETWORKS_FULLY_CONNECTED, {in, w, b, act}, {out});
    if (r != ANEURALNETWORKS_NO_ERROR) return r;
    const int f = m.finish({in}, {out});
    if (f != ANEURALNETWORKS_NO_ERROR) return f;
    return compileStatus(m, {std::vector<uint8_t>(countOf(inDims) * 4)}, 64);
  };
  EXPECT_EQ(build({2, 3}, {4, 3}, 4, 0, f32), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(build({2, 3}, {4, 3}, 4, 9, f32), ANEURALNETWORKS_BAD_DATA);       // activation
  EXPECT_EQ(build({2, 3}, {4, 3, 1}, 4, 0, f32), ANEURALNETWORKS_BAD_DATA);    // weights rank
  EXPECT_EQ(build({2, 3}, {4, 3}, 4, 0, ANEURALNETWORKS_TENSOR_INT32), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(build({2, 3}, {4, 3}, 5, 0, f32), ANEURALNETWORKS_BAD_DATA);       // bias length
  EXPECT_EQ(build({2, 5}, {4, 3}, 4, 0, f32), ANEURALNETWORKS_BAD_DATA);       // 10 % 3 != 0
  EXPECT_EQ(build({6}, {4, 3}, 4, 0, f32), ANEURALNETWORKS_BAD_DATA);          // rank 1 input
}

// ---------------------------------------------------------------------------------------
// Property tests: default device vs reference device on random shapes and data.

struct RandomCase {
  ConvSpec spec;
  ConvData data;
  size_t outCount = 0;
};

template <typename T>
std::vector<uint8_t> randomBytes(std::mt19937& rng, size_t n, int lo, int hi) {
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(dist(rng));
  return bytesOf(v);
}

std::vector<uint8_t> randomFloats(std::mt19937& rng, size_t n) {
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<float> v(n);
  for (auto& x : v) x = dist(rng);
  return bytesOf(v);
}

// A random conv/depthwise case. `kind`: 0 float32, 1 quant8 asymm, 2 quant8 with per-channel
// filter, 3 quant8 asymm signed.
RandomCase makeRandomConv(std::mt19937& rng, bool depthwise, int kind) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  RandomCase c;
  ConvSpec& s = c.spec;
  s.op = depthwise ? ANEURALNETWORKS_DEPTHWISE_CONV_2D : ANEURALNETWORKS_CONV_2D;
  const uint32_t batches = pick(1, 2), inH = pick(1, 12), inW = pick(1, 12);
  const uint32_t inC = depthwise ? pick(1, 40) : pick(1, 70);
  const uint32_t dm = depthwise ? pick(1, 3) : 1;
  const uint32_t outC = depthwise ? inC * dm : pick(1, 70);
  const uint32_t fh = pick(1, std::min<int>(4, inH)), fw = pick(1, std::min<int>(4, inW));
  const int strideH = pick(1, 3), strideW = pick(1, 3);
  const bool dilate = pick(0, 3) == 0;
  const int dilH = dilate && (fh - 1) * 2 + 1 <= inH ? 2 : 1;
  const int dilW = dilate && (fw - 1) * 2 + 1 <= inW ? 2 : 1;
  const bool nchw = pick(0, 3) == 0;
  const bool explicitPad = pick(0, 1) == 0;
  const int effH = (fh - 1) * dilH + 1, effW = (fw - 1) * dilW + 1;
  int32_t pl = 0, pr = 0, pt = 0, pb = 0, outH, outW;
  if (explicitPad) {
    pl = pick(0, effW - 1);
    pr = pick(0, effW - 1);
    pt = pick(0, effH - 1);
    pb = pick(0, effH - 1);
    outH = (inH + pt + pb - effH) / strideH + 1;
    outW = (inW + pl + pr - effW) / strideW + 1;
    s.scalars = {pl, pr, pt, pb, strideW, strideH};
  } else {
    const bool same = pick(0, 1) == 0;
    outH = same ? (inH + strideH - 1) / strideH : (inH - effH) / strideH + 1;
    outW = same ? (inW + strideW - 1) / strideW : (inW - effW) / strideW + 1;
    s.scalars = {same ? ANEURALNETWORKS_PADDING_SAME : ANEURALNETWORKS_PADDING_VALID, strideW,
                 strideH};
  }
  if (depthwise) s.scalars.push_back(static_cast<int32_t>(dm));
  s.scalars.push_back(pick(0, 3));
  if (nchw || dilH > 1 || dilW > 1) s.layout = nchw ? 1 : 0;
  if (dilH > 1 || dilW > 1) {
    s.dilationW = dilW;
    s.dilationH = dilH;
  }
  s.inDims = nchw ? std::vector<uint32_t>{batches, inC, inH, inW}
                  : std::vector<uint32_t>{batches, inH, inW, inC};
  s.filterDims = depthwise ? std::vector<uint32_t>{1, fh, fw, outC}
                           : std::vector<uint32_t>{outC, fh, fw, inC};
  s.outDims = nchw ? std::vector<uint32_t>{batches, outC, uint32_t(outH), uint32_t(outW)}
                   : std::vector<uint32_t>{batches, uint32_t(outH), uint32_t(outW), outC};
  s.weightsAsInputs = pick(0, 2) == 0;
  const size_t inCount = countOf(s.inDims), filterCount = countOf(s.filterDims);
  c.outCount = countOf(s.outDims);
  const uint32_t k = depthwise ? fh * fw : fh * fw * inC;
  if (kind == 0) {
    c.data.input = randomFloats(rng, inCount);
    c.data.filter = randomFloats(rng, filterCount);
    c.data.bias = randomFloats(rng, outC);
    return c;
  }
  s.type = kind == 3 ? ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED : ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  const bool isSigned = kind == 3;
  s.inScale = 0.02f * pick(1, 10);
  s.inZero = isSigned ? pick(-128, 127) : pick(0, 255);
  s.outZero = isSigned ? pick(-100, 100) : pick(20, 235);
  if (kind == 2) {
    s.filterType = ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL;
    s.channelDim = depthwise ? 3 : 0;
    for (uint32_t i = 0; i < outC; ++i) s.channelScales.push_back(0.005f * pick(1, 20));
    s.biasScale = 0.f;
    // Typical magnitude of one product times sqrt(k) decides the output scale.
    s.outScale = s.inScale * 0.05f * 60.f * std::sqrt(float(k)) / 40.f;
    c.data.filter = randomBytes<int8_t>(rng, filterCount, -127, 127);
  } else {
    s.filterScale = 0.005f * pick(1, 20);
    s.filterZero = isSigned ? pick(-20, 20) : pick(100, 150);
    s.biasScale = s.inScale * s.filterScale;
    s.outScale = s.biasScale * 60.f * std::sqrt(float(k)) / pick(10, 60);
    c.data.filter = isSigned ? randomBytes<int8_t>(rng, filterCount, -128, 127)
                             : randomBytes<uint8_t>(rng, filterCount, 0, 255);
  }
  c.data.input = isSigned ? randomBytes<int8_t>(rng, inCount, -128, 127)
                          : randomBytes<uint8_t>(rng, inCount, 0, 255);
  c.data.bias = randomBytes<int32_t>(rng, outC, -3000, 3000);
  return c;
}

std::string describe(const ConvSpec& s) {
  auto dims = [](const std::vector<uint32_t>& d) {
    std::string r = "[";
    for (size_t i = 0; i < d.size(); ++i) r += (i ? "," : "") + std::to_string(d[i]);
    return r + "]";
  };
  std::string r = "type " + std::to_string(s.type) + " filterType " + std::to_string(s.filterType) +
                  " in " + dims(s.inDims) + " filter " + dims(s.filterDims) + " out " +
                  dims(s.outDims) + " scalars";
  for (int32_t v : s.scalars) r += " " + std::to_string(v);
  r += " layout " + std::to_string(s.layout) + " dilation " + std::to_string(s.dilationW) + "x" +
       std::to_string(s.dilationH) + (s.weightsAsInputs ? " weights-as-inputs" : "");
  return r;
}

void compareDevices(const RandomCase& c) {
  SCOPED_TRACE(describe(c.spec));
  const auto fast = runConv(c.spec, c.data, c.outCount);
  const auto ref = runConv(c.spec, c.data, c.outCount, kReference);
  ASSERT_EQ(fast.size(), ref.size());
  if (c.spec.type == ANEURALNETWORKS_TENSOR_FLOAT32) {
    const auto a = valuesOf<float>(fast), b = valuesOf<float>(ref);
    for (size_t i = 0; i < a.size(); ++i)
      ASSERT_NEAR(a[i], b[i], 1e-4f * std::max(1.f, std::fabs(b[i]))) << "element " << i;
  } else {
    size_t mismatches = 0;
    for (size_t i = 0; i < fast.size(); ++i)
      if (fast[i] != ref[i] && mismatches++ < 5)
        ADD_FAILURE() << "element " << i << ": " << int(fast[i]) << " vs reference " << int(ref[i]);
    EXPECT_EQ(mismatches, 0u);
  }
}

TEST(ConvProperty, Conv2DMatchesReference) {
  std::mt19937 rng(1234);
  for (int kind = 0; kind < 4; ++kind)
    for (int i = 0; i < 25; ++i) compareDevices(makeRandomConv(rng, false, kind));
}

TEST(ConvProperty, DepthwiseMatchesReference) {
  std::mt19937 rng(5678);
  for (int kind = 0; kind < 4; ++kind)
    for (int i = 0; i < 25; ++i) compareDevices(makeRandomConv(rng, true, kind));
}

TEST(ConvProperty, LargePointwiseAndFirstLayer) {
  // Shapes that exercise the multi-tile GEMM paths (several column tiles, row remainders).
  std::mt19937 rng(42);
  for (int kind : {0, 1, 3}) {
    RandomCase c = makeRandomConv(rng, false, kind);
    ConvSpec& s = c.spec;
    s.layout = -1;
    s.dilationW = s.dilationH = 0;
    // 1x1 conv 17x13x64 -> 100 channels, then 3x3 stride 2 SAME on 3 channels -> 32.
    for (int variant = 0; variant < 2; ++variant) {
      const uint32_t inC = variant == 0 ? 64 : 3, outC = variant == 0 ? 100 : 32;
      const uint32_t f = variant == 0 ? 1 : 3, stride = variant == 0 ? 1 : 2;
      s.inDims = {1, 17, 13, inC};
      s.filterDims = {outC, f, f, inC};
      s.outDims = {1, (17 + stride - 1) / stride, (13 + stride - 1) / stride, outC};
      s.scalars = {ANEURALNETWORKS_PADDING_SAME, int(stride), int(stride), 3};
      c.outCount = countOf(s.outDims);
      if (kind == 0) {
        c.data.input = randomFloats(rng, countOf(s.inDims));
        c.data.filter = randomFloats(rng, countOf(s.filterDims));
        c.data.bias = randomFloats(rng, outC);
      } else {
        const bool sg = kind == 3;
        s.channelScales.clear();
        s.filterType = -1;
        s.filterScale = 0.01f;
        s.filterZero = sg ? 3 : 130;
        s.biasScale = s.inScale * s.filterScale;
        s.outScale = s.biasScale * 60.f * std::sqrt(float(f * f * inC)) / 30.f;
        c.data.input = sg ? randomBytes<int8_t>(rng, countOf(s.inDims), -128, 127)
                          : randomBytes<uint8_t>(rng, countOf(s.inDims), 0, 255);
        c.data.filter = sg ? randomBytes<int8_t>(rng, countOf(s.filterDims), -128, 127)
                           : randomBytes<uint8_t>(rng, countOf(s.filterDims), 0, 255);
        c.data.bias = randomBytes<int32_t>(rng, outC, -3000, 3000);
      }
      for (bool asInputs : {false, true}) {
        s.weightsAsInputs = asInputs;
        compareDevices(c);
      }
    }
  }
}

TEST(ConvProperty, FullyConnectedMatchesReference) {
  std::mt19937 rng(99);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int kind = 0; kind < 3; ++kind)
    for (int i = 0; i < 30; ++i) {
      FcSpec s;
      const uint32_t batches = pick(1, 9), k = pick(1, 300), units = pick(1, 130);
      s.inDims = {batches, k};
      s.weightDims = {units, k};
      s.outDims = {batches, units};
      s.activation = pick(0, 3);
      s.weightsAsInputs = pick(0, 2) == 0;
      ConvData d;
      if (kind == 0) {
        d.input = randomFloats(rng, batches * k);
        d.filter = randomFloats(rng, units * k);
        d.bias = randomFloats(rng, units);
      } else {
        const bool sg = kind == 2;
        s.type = sg ? ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED : ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
        s.inScale = 0.05f;
        s.inZero = sg ? pick(-128, 127) : pick(0, 255);
        s.weightScale = 0.01f * pick(1, 5);
        s.weightZero = sg ? pick(-10, 10) : pick(110, 140);
        s.biasScale = s.inScale * s.weightScale;
        s.outScale = s.biasScale * 60.f * std::sqrt(float(k)) / pick(10, 60);
        s.outZero = sg ? pick(-50, 50) : pick(50, 200);
        d.input = sg ? randomBytes<int8_t>(rng, batches * k, -128, 127)
                     : randomBytes<uint8_t>(rng, batches * k, 0, 255);
        d.filter = sg ? randomBytes<int8_t>(rng, units * k, -128, 127)
                      : randomBytes<uint8_t>(rng, units * k, 0, 255);
        d.bias = randomBytes<int32_t>(rng, units, -5000, 5000);
      }
      SCOPED_TRACE("kind " + std::to_string(kind) + " batches " + std::to_string(batches) +
                   " k " + std::to_string(k) + " units " + std::to_string(units));
      const auto fast = runFc(s, d, batches * units);
      const auto ref = runFc(s, d, batches * units, kReference);
      ASSERT_EQ(fast.size(), ref.size());
      if (kind == 0) {
        const auto a = valuesOf<float>(fast), b = valuesOf<float>(ref);
        for (size_t j = 0; j < a.size(); ++j)
          ASSERT_NEAR(a[j], b[j], 1e-4f * std::max(1.f, std::fabs(b[j]))) << "element " << j;
      } else {
        EXPECT_EQ(fast, ref);
      }
    }
}


// ---------------------------------------------------------------------------------------
// TRANSPOSE_CONV_2D, hand-computed. Every input pixel adds input * filter into the output
// window starting at (ih * stride - padTop, iw * stride - padLeft).
//
// input [1 2; 3 4], filter [1 2; 3 4], stride 1, no padding, output 3x3:
//   1  4  4
//   6 20 16
//   9 24 16

const std::vector<float> kIn2x2{1, 2, 3, 4};

ConvSpec transposeSpec(std::vector<uint32_t> inDims, std::vector<uint32_t> filterDims,
                       std::vector<uint32_t> outDims, std::vector<int32_t> scalars) {
  ConvSpec s;
  s.op = ANEURALNETWORKS_TRANSPOSE_CONV_2D;
  s.inDims = std::move(inDims);
  s.filterDims = std::move(filterDims);
  s.outDims = std::move(outDims);
  s.scalars = std::move(scalars);
  s.layout = 0;
  return s;
}

TEST(TransposeConv2D, FloatStride1Overlapping) {
  ConvSpec s = transposeSpec({1, 2, 2, 1}, {1, 2, 2, 1}, {1, 3, 3, 1}, {0, 0, 0, 0, 1, 1, 0});
  expectConvFloat(s, kIn2x2, kFilter2x2, {0}, {1, 4, 4, 6, 20, 16, 9, 24, 16});
}

TEST(TransposeConv2D, FloatStride2Disjoint) {
  // Each input pixel writes its own 2x2 block: x * filter, plus bias 1.
  ConvSpec s = transposeSpec({1, 2, 2, 1}, {1, 2, 2, 1}, {1, 4, 4, 1}, {0, 0, 0, 0, 2, 2, 0});
  expectConvFloat(s, kIn2x2, kFilter2x2, {1},
                  {2, 3, 3, 5, 4, 5, 7, 9, 4, 7, 5, 9, 10, 13, 13, 17});
}

TEST(TransposeConv2D, FloatExplicitPaddingCrops) {
  // Padding left/top by one drops the first row and column of the 3x3 result.
  ConvSpec s = transposeSpec({1, 2, 2, 1}, {1, 2, 2, 1}, {1, 2, 2, 1}, {1, 0, 1, 0, 1, 1, 0});
  expectConvFloat(s, kIn2x2, kFilter2x2, {0}, {20, 16, 24, 16});
}

TEST(TransposeConv2D, FloatActivationRelu1) {
  // Same as the overlapping case with bias -10, clamped to [-1, 1].
  ConvSpec s = transposeSpec({1, 2, 2, 1}, {1, 2, 2, 1}, {1, 3, 3, 1},
                             {0, 0, 0, 0, 1, 1, ANEURALNETWORKS_FUSED_RELU1});
  expectConvFloat(s, kIn2x2, kFilter2x2, {-10}, {-1, -1, -1, -1, 1, 1, -1, 1, 1});
}

TEST(TransposeConv2D, FloatImplicitSameNegativeTail) {
  // Output shape 4x4, stride 2, 1x1 filter (2): SAME gives head 0 and tail -1, so the output
  // keeps 4 rows/columns and the last ones receive only the bias (0.5).
  ConvSpec s = transposeSpec({1, 2, 2, 1}, {1, 1, 1, 1}, {1, 4, 4, 1},
                             {ANEURALNETWORKS_PADDING_SAME, 2, 2, 0});
  s.outputShapeTensor = {1, 4, 4, 1};
  expectConvFloat(s, kIn2x2, {2}, {0.5f},
                  {2.5f, .5f, 4.5f, .5f, .5f, .5f, .5f, .5f,  //
                   6.5f, .5f, 8.5f, .5f, .5f, .5f, .5f, .5f});
}

TEST(TransposeConv2D, FloatImplicitValidIgnoresRequestedSize) {
  // VALID means no padding: the output is (2 - 1) * 1 + 2 = 3 whatever the shape tensor says.
  ConvSpec s = transposeSpec({1, 2, 2, 1}, {1, 2, 2, 1}, {1, 3, 3, 1},
                             {ANEURALNETWORKS_PADDING_VALID, 1, 1, 0});
  s.outputShapeTensor = {1, 7, 7, 1};
  expectConvFloat(s, kIn2x2, kFilter2x2, {0}, {1, 4, 4, 6, 20, 16, 9, 24, 16});
}

TEST(TransposeConv2D, FloatMultiChannelNchw) {
  // Two input channels [1 2] and [10 20] (1x2 each, NCHW), two 1x1 filters: output channel 0
  // = c0 + c1, channel 1 = c0 - c1; stride 2 along width leaves a bias-only column between.
  ConvSpec s = transposeSpec({1, 2, 1, 2}, {2, 1, 1, 2}, {1, 2, 1, 3}, {0, 0, 0, 0, 2, 1, 0});
  s.layout = 1;
  expectConvFloat(s, {1, 2, 10, 20}, {1, 1, 1, -1}, {0, 100},
                  {11, 0, 22, 91, 100, 82});
}

TEST(TransposeConv2D, Quant8) {
  // The overlapping case: input scale 0.5 zp 10, filter scale 0.25 zp 4, output scale 1 zp 5.
  ConvSpec s = transposeSpec({1, 2, 2, 1}, {1, 2, 2, 1}, {1, 3, 3, 1}, {0, 0, 0, 0, 1, 1, 0});
  s.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  s.inScale = 0.5f;
  s.inZero = 10;
  s.filterScale = 0.25f;
  s.filterZero = 4;
  s.biasScale = 0.125f;
  s.outScale = 1.f;
  s.outZero = 5;
  expectConvQuant<uint8_t>(s, {12, 14, 16, 18}, {8, 12, 16, 20}, {0},
                           {6, 9, 9, 11, 25, 21, 14, 29, 21});
}

TEST(TransposeConv2D, Quant8SignedPerChannel) {
  // Two output channels with filter scales 0.5 and 1 (1x1 filters 2 and -3 in real terms).
  // Input real values 1, 2 (scale 0.5, zp -1); output scale 0.5, zp 0.
  // Channel 0: 2x -> 2, 4; channel 1: -3x -> -3, -6. In output units: 4, 8, -6, -12.
  ConvSpec s = transposeSpec({1, 1, 2, 1}, {2, 1, 1, 1}, {1, 1, 2, 2}, {0, 0, 0, 0, 1, 1, 0});
  s.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
  s.filterType = ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL;
  s.channelScales = {0.5f, 1.f};
  s.inScale = 0.5f;
  s.inZero = -1;
  s.outScale = 0.5f;
  s.outZero = 0;
  expectConvQuant<int8_t>(s, {1, 3}, {4, -3}, {0, 0}, {4, -6, 8, -12});
}

// ---------------------------------------------------------------------------------------
// GROUPED_CONV_2D, hand-computed: 4 input channels in 2 groups, one 1x1 filter per group:
// out0 = c0 + 2 c1, out1 = 3 c2 - c3, bias (0.5, -0.5).

const std::vector<float> kGroupedIn{1, 2, 3, 4, 0, 1, 0, 1, 2, 0, 1, 1, 1, 1, 1, 1};

ConvSpec groupedSpec(int32_t activation) {
  ConvSpec s;
  s.op = ANEURALNETWORKS_GROUPED_CONV_2D;
  s.inDims = {1, 2, 2, 4};
  s.filterDims = {2, 1, 1, 2};
  s.outDims = {1, 2, 2, 2};
  s.scalars = {ANEURALNETWORKS_PADDING_VALID, 1, 1, 2, activation};
  s.layout = 0;
  return s;
}

TEST(GroupedConv2D, FloatTwoGroups) {
  expectConvFloat(groupedSpec(0), kGroupedIn, {1, 2, 3, -1}, {0.5f, -0.5f},
                  {5.5f, 4.5f, 2.5f, -1.5f, 2.5f, 1.5f, 3.5f, 1.5f});
}

TEST(GroupedConv2D, FloatRelu) {
  expectConvFloat(groupedSpec(ANEURALNETWORKS_FUSED_RELU), kGroupedIn, {1, 2, 3, -1},
                  {0.5f, -0.5f}, {5.5f, 4.5f, 2.5f, 0.f, 2.5f, 1.5f, 3.5f, 1.5f});
}

TEST(GroupedConv2D, FloatExplicitPaddingSpatial) {
  // 1 channel per group, 2 groups, 2x2 filters [1 2; 3 4] and [1 0; 0 -1] over 3x3 inputs
  // (channel 0: 1..9, channel 1: all 1), explicit padding none, stride 1.
  ConvSpec s;
  s.op = ANEURALNETWORKS_GROUPED_CONV_2D;
  s.inDims = {1, 3, 3, 2};
  s.filterDims = {2, 2, 2, 1};
  s.outDims = {1, 2, 2, 2};
  s.scalars = {0, 0, 0, 0, 1, 1, 2, 0};
  s.layout = 0;
  std::vector<float> in;
  for (int i = 1; i <= 9; ++i) {
    in.push_back(float(i));
    in.push_back(1.f);
  }
  expectConvFloat(s, in, {1, 2, 3, 4, 1, 0, 0, -1}, {1, 0},
                  {38, 0, 48, 0, 68, 0, 78, 0});
}

TEST(GroupedConv2D, Quant8) {
  // Input scale 0.5 (q = 2x), filter scale 1 zp 1, bias scale 0.5, output scale 0.5 zp 10.
  ConvSpec s = groupedSpec(0);
  s.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  s.inScale = 0.5f;
  s.filterScale = 1.f;
  s.filterZero = 1;
  s.biasScale = 0.5f;
  s.outScale = 0.5f;
  s.outZero = 10;
  std::vector<uint8_t> in;
  for (float v : kGroupedIn) in.push_back(uint8_t(v * 2));
  expectConvQuant<uint8_t>(s, in, {2, 3, 4, 0}, {1, -1}, {21, 19, 15, 7, 15, 13, 17, 13});
}

TEST(GroupedConv2D, Quant8SignedNchw) {
  // The float case in NCHW with int8 data: input scale 0.5 zp -5, filter scale 1 zp 0,
  // output scale 0.5 zp 0.
  ConvSpec s = groupedSpec(0);
  s.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
  s.inDims = {1, 4, 2, 2};
  s.outDims = {1, 2, 2, 2};
  s.layout = 1;
  s.inScale = 0.5f;
  s.inZero = -5;
  s.filterScale = 1.f;
  s.biasScale = 0.5f;
  s.outScale = 0.5f;
  std::vector<int8_t> in(16);
  for (int p = 0; p < 4; ++p)
    for (int c = 0; c < 4; ++c) in[c * 4 + p] = int8_t(kGroupedIn[p * 4 + c] * 2 - 5);
  // NCHW output: channel 0 over the 4 pixels, then channel 1.
  expectConvQuant<int8_t>(s, in, {1, 2, 3, -1}, {1, -1}, {11, 5, 5, 7, 9, -3, 3, 3});
}

// ---------------------------------------------------------------------------------------
// Validation of the two operations.

// Builds TRANSPOSE_CONV_2D / GROUPED_CONV_2D on a float32 1x3x3x2 input with the given
// scalars (a BOOL layout is appended) and returns the first error (build, finish or run).
int buildNewConv(int op, const std::vector<int32_t>& scalars, std::vector<uint32_t> filterDims,
                 bool withShapeTensor = false, bool appendLayout = true) {
  ModelBuilder m;
  const int f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  const std::vector<uint32_t> inDims{1, 3, 3, 2};
  const uint32_t in = m.addOperand(f32, inDims);
  const uint32_t filter =
      m.addConstant<float>(f32, filterDims, std::vector<float>(countOf(filterDims), 1.f));
  const uint32_t bias =
      m.addConstant<float>(f32, {filterDims[0]}, std::vector<float>(filterDims[0], 0.f));
  std::vector<uint32_t> inputs{in, filter, bias};
  if (withShapeTensor)
    inputs.push_back(m.addConstant<int32_t>(ANEURALNETWORKS_TENSOR_INT32, {4}, {1, 6, 6, 1}));
  for (int32_t v : scalars) inputs.push_back(m.addInt32(v));
  if (appendLayout) inputs.push_back(m.addBool(false));
  const uint32_t out = m.addOperand(f32, {});
  if (m.status() != ANEURALNETWORKS_NO_ERROR) return -1000;
  const int r = m.addOperation(op, inputs, {out});
  if (r != ANEURALNETWORKS_NO_ERROR) return r;
  const int f = m.finish({in}, {out});
  if (f != ANEURALNETWORKS_NO_ERROR) return f;
  return nntest::runModel(m, {std::vector<uint8_t>(countOf(inDims) * 4)}, {1 << 16}).status;
}

TEST(TransposeConvValidation, AcceptsAndRejects) {
  const int op = ANEURALNETWORKS_TRANSPOSE_CONV_2D;
  EXPECT_EQ(buildNewConv(op, {0, 0, 0, 0, 2, 2, 0}, {1, 2, 2, 2}), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(buildNewConv(op, {ANEURALNETWORKS_PADDING_SAME, 2, 2, 0}, {1, 3, 3, 2}, true),
            ANEURALNETWORKS_NO_ERROR);
  // Layout flag missing (10 inputs is neither form).
  EXPECT_EQ(buildNewConv(op, {0, 0, 0, 0, 2, 2, 0}, {1, 2, 2, 2}, false, false),
            ANEURALNETWORKS_BAD_DATA);
  // Stride 0, negative left padding, bad activation, bad padding code.
  EXPECT_EQ(buildNewConv(op, {0, 0, 0, 0, 0, 2, 0}, {1, 2, 2, 2}), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(buildNewConv(op, {-1, 0, 0, 0, 2, 2, 0}, {1, 2, 2, 2}), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(buildNewConv(op, {0, 0, 0, 0, 2, 2, 9}, {1, 2, 2, 2}), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(buildNewConv(op, {3, 2, 2, 0}, {1, 3, 3, 2}, true), ANEURALNETWORKS_BAD_DATA);
  // Filter depth 3 against input depth 2.
  EXPECT_EQ(buildNewConv(op, {0, 0, 0, 0, 2, 2, 0}, {1, 2, 2, 3}), ANEURALNETWORKS_BAD_DATA);
  // Paddings that crop the whole output: (3 - 1) * 1 + 2 - 2 - 2 = 0.
  EXPECT_EQ(buildNewConv(op, {2, 2, 0, 0, 1, 1, 0}, {1, 2, 2, 2}), ANEURALNETWORKS_BAD_DATA);
}

TEST(GroupedConvValidation, AcceptsAndRejects) {
  const int op = ANEURALNETWORKS_GROUPED_CONV_2D;
  EXPECT_EQ(buildNewConv(op, {ANEURALNETWORKS_PADDING_VALID, 1, 1, 2, 0}, {4, 2, 2, 1}),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(buildNewConv(op, {0, 0, 0, 0, 1, 1, 1, 0}, {2, 2, 2, 2}), ANEURALNETWORKS_NO_ERROR);
  // Zero groups; input depth 2 not groups (2) * filter depth (2); 3 outputs over 2 groups.
  EXPECT_EQ(buildNewConv(op, {ANEURALNETWORKS_PADDING_VALID, 1, 1, 0, 0}, {4, 2, 2, 1}),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(buildNewConv(op, {ANEURALNETWORKS_PADDING_VALID, 1, 1, 2, 0}, {4, 2, 2, 2}),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(buildNewConv(op, {ANEURALNETWORKS_PADDING_VALID, 1, 1, 2, 0}, {3, 2, 2, 1}),
            ANEURALNETWORKS_BAD_DATA);
  // Negative padding; stride 0; filter larger than the input with VALID.
  EXPECT_EQ(buildNewConv(op, {0, -1, 0, 0, 1, 1, 1, 0}, {2, 2, 2, 2}), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(buildNewConv(op, {ANEURALNETWORKS_PADDING_VALID, 0, 1, 1, 0}, {2, 2, 2, 2}),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(buildNewConv(op, {ANEURALNETWORKS_PADDING_VALID, 1, 1, 1, 0}, {2, 4, 4, 2}),
            ANEURALNETWORKS_BAD_DATA);
}

// ---------------------------------------------------------------------------------------
// Property tests for the two operations: default device vs reference device.

// Fills quantized data/scales for `kind` (1 quant8, 2 per-channel, 3 signed) with `k`
// products per output; filter type and scales as in makeRandomConv.
void fillRandomQuant(std::mt19937& rng, RandomCase& c, int kind, uint32_t outC, uint32_t k) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  ConvSpec& s = c.spec;
  const size_t inCount = countOf(s.inDims), filterCount = countOf(s.filterDims);
  const bool isSigned = kind == 3;
  s.type = isSigned ? ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED
                     : ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  s.inScale = 0.02f * pick(1, 10);
  s.inZero = isSigned ? pick(-128, 127) : pick(0, 255);
  s.outZero = isSigned ? pick(-100, 100) : pick(20, 235);
  if (kind == 2) {
    s.filterType = ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL;
    s.channelDim = 0;
    for (uint32_t i = 0; i < outC; ++i) s.channelScales.push_back(0.005f * pick(1, 20));
    s.outScale = s.inScale * 0.05f * 60.f * std::sqrt(float(k)) / 40.f;
    c.data.filter = randomBytes<int8_t>(rng, filterCount, -127, 127);
  } else {
    s.filterScale = 0.005f * pick(1, 20);
    s.filterZero = isSigned ? pick(-20, 20) : pick(100, 150);
    s.biasScale = s.inScale * s.filterScale;
    s.outScale = s.biasScale * 60.f * std::sqrt(float(k)) / pick(10, 60);
    c.data.filter = isSigned ? randomBytes<int8_t>(rng, filterCount, -128, 127)
                             : randomBytes<uint8_t>(rng, filterCount, 0, 255);
  }
  c.data.input = isSigned ? randomBytes<int8_t>(rng, inCount, -128, 127)
                          : randomBytes<uint8_t>(rng, inCount, 0, 255);
  c.data.bias = randomBytes<int32_t>(rng, outC, -3000, 3000);
}

RandomCase makeRandomTranspose(std::mt19937& rng, int kind) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  RandomCase c;
  ConvSpec& s = c.spec;
  s.op = ANEURALNETWORKS_TRANSPOSE_CONV_2D;
  const uint32_t batches = pick(1, 2), inH = pick(1, 8), inW = pick(1, 8);
  const uint32_t inC = pick(1, 24), outC = pick(1, 40);
  const int fh = pick(1, 4), fw = pick(1, 4), sh = pick(1, 3), sw = pick(1, 3);
  const bool nchw = pick(0, 3) == 0;
  int32_t outH = 0, outW = 0;
  if (pick(0, 1) == 0) {
    // Explicit; tails may be negative (down to -(stride - 1)).
    int32_t pl = pick(0, fw - 1), pr = pick(1 - sw, fw - 1);
    int32_t pt = pick(0, fh - 1), pb = pick(1 - sh, fh - 1);
    outW = (int32_t(inW) - 1) * sw + fw - pl - pr;
    outH = (int32_t(inH) - 1) * sh + fh - pt - pb;
    if (outW < 1) pl = pr = 0, outW = (int32_t(inW) - 1) * sw + fw;
    if (outH < 1) pt = pb = 0, outH = (int32_t(inH) - 1) * sh + fh;
    s.scalars = {pl, pr, pt, pb, sw, sh};
  } else {
    // Implicit: SAME asks for in * stride (and gets it); VALID gets (in - 1) * stride + f.
    const bool same = pick(0, 1) == 0;
    outH = same ? int32_t(inH) * sh : (int32_t(inH) - 1) * sh + fh;
    outW = same ? int32_t(inW) * sw : (int32_t(inW) - 1) * sw + fw;
    const int32_t b = int32_t(batches), oc = int32_t(outC);
    s.outputShapeTensor = nchw ? std::vector<int32_t>{b, oc, outH, outW}
                               : std::vector<int32_t>{b, outH, outW, oc};
    s.scalars = {same ? ANEURALNETWORKS_PADDING_SAME : ANEURALNETWORKS_PADDING_VALID, sw, sh};
  }
  s.scalars.push_back(pick(0, 3));
  s.layout = nchw ? 1 : 0;
  s.inDims = nchw ? std::vector<uint32_t>{batches, inC, inH, inW}
                  : std::vector<uint32_t>{batches, inH, inW, inC};
  s.filterDims = {outC, uint32_t(fh), uint32_t(fw), inC};
  s.outDims = nchw ? std::vector<uint32_t>{batches, outC, uint32_t(outH), uint32_t(outW)}
                   : std::vector<uint32_t>{batches, uint32_t(outH), uint32_t(outW), outC};
  s.weightsAsInputs = pick(0, 2) == 0;
  c.outCount = countOf(s.outDims);
  if (kind == 0) {
    c.data.input = randomFloats(rng, countOf(s.inDims));
    c.data.filter = randomFloats(rng, countOf(s.filterDims));
    c.data.bias = randomFloats(rng, outC);
  } else {
    fillRandomQuant(rng, c, kind, outC, uint32_t(fh * fw) * inC);
  }
  return c;
}

RandomCase makeRandomGrouped(std::mt19937& rng, int kind) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  RandomCase c;
  ConvSpec& s = c.spec;
  s.op = ANEURALNETWORKS_GROUPED_CONV_2D;
  const uint32_t batches = pick(1, 2), inH = pick(1, 10), inW = pick(1, 10);
  const uint32_t groups = pick(1, 4), groupIn = pick(1, 12), groupOut = pick(1, 12);
  const uint32_t inC = groups * groupIn, outC = groups * groupOut;
  const int fh = pick(1, std::min<int>(3, inH)), fw = pick(1, std::min<int>(3, inW));
  const int sh = pick(1, 3), sw = pick(1, 3);
  const bool nchw = pick(0, 3) == 0;
  int32_t outH, outW;
  if (pick(0, 1) == 0) {
    const int32_t pl = pick(0, fw - 1), pr = pick(0, fw - 1), pt = pick(0, fh - 1),
                  pb = pick(0, fh - 1);
    outH = (int32_t(inH) + pt + pb - fh) / sh + 1;
    outW = (int32_t(inW) + pl + pr - fw) / sw + 1;
    s.scalars = {pl, pr, pt, pb, sw, sh};
  } else {
    const bool same = pick(0, 1) == 0;
    outH = same ? (int32_t(inH) + sh - 1) / sh : (int32_t(inH) - fh) / sh + 1;
    outW = same ? (int32_t(inW) + sw - 1) / sw : (int32_t(inW) - fw) / sw + 1;
    s.scalars = {same ? ANEURALNETWORKS_PADDING_SAME : ANEURALNETWORKS_PADDING_VALID, sw, sh};
  }
  s.scalars.push_back(int32_t(groups));
  s.scalars.push_back(pick(0, 3));
  s.layout = nchw ? 1 : 0;
  s.inDims = nchw ? std::vector<uint32_t>{batches, inC, inH, inW}
                  : std::vector<uint32_t>{batches, inH, inW, inC};
  s.filterDims = {outC, uint32_t(fh), uint32_t(fw), groupIn};
  s.outDims = nchw ? std::vector<uint32_t>{batches, outC, uint32_t(outH), uint32_t(outW)}
                   : std::vector<uint32_t>{batches, uint32_t(outH), uint32_t(outW), outC};
  s.weightsAsInputs = pick(0, 2) == 0;
  c.outCount = countOf(s.outDims);
  if (kind == 0) {
    c.data.input = randomFloats(rng, countOf(s.inDims));
    c.data.filter = randomFloats(rng, countOf(s.filterDims));
    c.data.bias = randomFloats(rng, outC);
  } else {
    fillRandomQuant(rng, c, kind, outC, uint32_t(fh * fw) * groupIn);
  }
  return c;
}

TEST(ConvProperty, TransposeConvMatchesReference) {
  std::mt19937 rng(2468);
  for (int kind = 0; kind < 4; ++kind)
    for (int i = 0; i < 25; ++i) compareDevices(makeRandomTranspose(rng, kind));
}

TEST(ConvProperty, GroupedConvMatchesReference) {
  std::mt19937 rng(1357);
  for (int kind = 0; kind < 4; ++kind)
    for (int i = 0; i < 25; ++i) compareDevices(makeRandomGrouped(rng, kind));
}

}  // namespace
