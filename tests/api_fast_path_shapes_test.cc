// Issue 9: the fast device's library paths need the reference's shape coverage. Float32
// TRANSPOSE_CONV_2D shapes where an output extent is smaller than the stride crashed XNNPACK's
// deconvolution (an abort in its igemm, a SIGSEGV in setup); they must compute the reference
// device's result.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "test_util.h"

namespace {

using nntest::ModelBuilder;

struct TransposeCase {
  std::vector<uint32_t> input;   // NHWC
  std::vector<uint32_t> filter;  // [outC, kh, kw, inC]
  int32_t padLeft, padRight, padTop, padBottom, strideW, strideH;
};

std::vector<float> ramp(size_t n, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = scale * static_cast<float>((i * 7) % 11) - 0.3f;
  return v;
}

size_t count(const std::vector<uint32_t>& d) {
  size_t n = 1;
  for (uint32_t x : d) n *= x;
  return n;
}

TEST(ApiFastPathShapes, TransposeConvOutputSmallerThanStride) {
  const TransposeCase cases[] = {
      {{1, 1, 4, 1}, {1, 5, 3, 1}, 0, 0, 2, 2, 1, 3},
      {{1, 7, 1, 1}, {1, 2, 6, 1}, 2, 3, 3, 3, 3, 1},
      {{2, 3, 2, 2}, {3, 2, 2, 2}, 1, 1, 1, 1, 4, 4},
  };
  for (const TransposeCase& c : cases) {
    const int32_t outH =
        (static_cast<int32_t>(c.input[1]) - 1) * c.strideH + c.filter[1] - c.padTop - c.padBottom;
    const int32_t outW =
        (static_cast<int32_t>(c.input[2]) - 1) * c.strideW + c.filter[2] - c.padLeft - c.padRight;
    ASSERT_GT(outH, 0);
    ASSERT_GT(outW, 0);
    const uint32_t outC = c.filter[0];
    const std::vector<uint32_t> outDims{c.input[0], uint32_t(outH), uint32_t(outW), outC};
    ModelBuilder mb;
    const uint32_t in = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, c.input);
    const uint32_t filter = mb.addConstant<float>(ANEURALNETWORKS_TENSOR_FLOAT32, c.filter,
                                                  ramp(count(c.filter), 0.25f));
    const uint32_t bias =
        mb.addConstant<float>(ANEURALNETWORKS_TENSOR_FLOAT32, {outC}, ramp(outC, 0.5f));
    const uint32_t out = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, outDims);
    mb.addOperation(ANEURALNETWORKS_TRANSPOSE_CONV_2D,
                    {in, filter, bias, mb.addInt32(c.padLeft), mb.addInt32(c.padRight),
                     mb.addInt32(c.padTop), mb.addInt32(c.padBottom), mb.addInt32(c.strideW),
                     mb.addInt32(c.strideH), mb.addInt32(ANEURALNETWORKS_FUSED_NONE),
                     mb.addBool(false)},
                    {out});
    ASSERT_EQ(mb.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR) << ANNLinux_getLastErrorMessage();
    const std::vector<std::vector<uint8_t>> inputs{nntest::bytesOf(ramp(count(c.input), 1.f))};
    const size_t bytes = count(outDims) * sizeof(float);
    const nntest::RunResult fast = nntest::runModel(mb, inputs, {bytes}, "nnapi-cpu");
    const nntest::RunResult ref = nntest::runModel(mb, inputs, {bytes}, "nnapi-cpu-reference");
    ASSERT_EQ(fast.status, ANEURALNETWORKS_NO_ERROR) << fast.step;
    ASSERT_EQ(ref.status, ANEURALNETWORKS_NO_ERROR) << ref.step;
    const std::vector<float> a = nntest::valuesOf<float>(fast.outputs[0]);
    const std::vector<float> b = nntest::valuesOf<float>(ref.outputs[0]);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i)
      EXPECT_NEAR(a[i], b[i], 1e-5f * (1.f + std::fabs(b[i]))) << "element " << i;
  }
}

}  // namespace

namespace {

// MEAN over the height and width of NHWC data takes the fast device's vectorized loop
// (mean.cc: spatialMean for float32, half_ops::spatialMean for float16 where the processor has
// AVX512-FP16): it must give the reference device's bits (the same float32 sums in the same
// order, one rounding). Odd channel counts (vector tails), several batches, both keep_dims, the
// axes in any order and negative; a mean over other axes (the plain loop) alongside.
void expectMeanSameBitsAsReference(int32_t tensorType) {
  struct MeanCase {
    std::vector<uint32_t> input;
    std::vector<int32_t> axes;
    int32_t keepDims;
  };
  const MeanCase cases[] = {{{1, 7, 7, 1152}, {1, 2}, 0},  {{2, 3, 5, 37}, {2, 1}, 1},
                            {{1, 1, 1, 17}, {-3, -2}, 0},  {{3, 4, 2, 5}, {1, 2}, 1},
                            {{1, 6, 6, 300}, {1, 2}, 1},   {{2, 4, 3, 9}, {1}, 0},
                            {{1, 7, 7, 672}, {1, 2}, 0},   {{2, 2, 2, 65}, {1, 2}, 1}};
  const bool half = tensorType == ANEURALNETWORKS_TENSOR_FLOAT16;
  const size_t elemSize = half ? 2 : 4;
  int index = 0;
  for (const MeanCase& c : cases) {
    SCOPED_TRACE("case " + std::to_string(index));
    const std::vector<uint32_t>& d = c.input;
    const size_t count = size_t(d[0]) * d[1] * d[2] * d[3];
    std::vector<float> in = nntest::randomFloats(count, 40 + index++, -3.f, 3.f);
    std::vector<uint32_t> outDims;
    for (uint32_t i = 0; i < 4; ++i) {
      bool reduced = false;
      for (int32_t a : c.axes) reduced = reduced || (a < 0 ? a + 4 : a) == static_cast<int32_t>(i);
      if (!reduced) outDims.push_back(d[i]);
      else if (c.keepDims) outDims.push_back(1);
    }
    size_t outCount = 1;
    for (uint32_t v : outDims) outCount *= v;
    ModelBuilder mb;
    const uint32_t input = mb.addOperand(tensorType, d);
    const uint32_t axes = mb.addConstant<int32_t>(
        ANEURALNETWORKS_TENSOR_INT32, {static_cast<uint32_t>(c.axes.size())}, c.axes);
    const uint32_t out = mb.addOperand(tensorType, outDims);
    mb.addOperation(ANEURALNETWORKS_MEAN, {input, axes, mb.addInt32(c.keepDims)}, {out});
    ASSERT_EQ(mb.finish({input}, {out}), ANEURALNETWORKS_NO_ERROR)
        << ANNLinux_getLastErrorMessage();
    std::vector<uint8_t> bytes(count * elemSize);
    for (size_t i = 0; i < count; ++i) {
      if (half) {
        const _Float16 h = static_cast<_Float16>(in[i]);
        std::memcpy(bytes.data() + 2 * i, &h, 2);
      } else {
        std::memcpy(bytes.data() + 4 * i, &in[i], 4);
      }
    }
    std::vector<std::vector<uint8_t>> results;
    for (const char* device : {"nnapi-cpu", "nnapi-cpu-reference"}) {
      const nntest::RunResult r = nntest::runModel(mb, {bytes}, {outCount * elemSize}, device);
      ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR)
          << device << ": " << ANNLinux_getLastErrorMessage();
      results.push_back(r.outputs[0]);
    }
    ASSERT_EQ(results[0].size(), outCount * elemSize);
    ASSERT_EQ(results[1].size(), outCount * elemSize);
    double total = 0;
    for (size_t i = 0; i < outCount; ++i) {
      ASSERT_EQ(std::memcmp(results[0].data() + i * elemSize, results[1].data() + i * elemSize,
                            elemSize),
                0)
          << "element " << i;
      float v;
      if (half) {
        _Float16 h;
        std::memcpy(&h, results[0].data() + 2 * i, 2);
        v = static_cast<float>(h);
      } else {
        std::memcpy(&v, results[0].data() + 4 * i, 4);
      }
      total += std::fabs(v);
    }
    // Not all zero: the sums were computed.
    EXPECT_GT(total, 0.0);
  }
}

TEST(ApiFastPathShapes, MeanOverHeightWidthSameBitsAsReference) {
  expectMeanSameBitsAsReference(ANEURALNETWORKS_TENSOR_FLOAT32);
}

TEST(ApiFastPathShapes, Float16MeanOverHeightWidthSameBitsAsReference) {
  expectMeanSameBitsAsReference(ANEURALNETWORKS_TENSOR_FLOAT16);
}

}  // namespace
