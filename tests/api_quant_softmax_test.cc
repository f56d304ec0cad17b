// Issue 9: quantized SOFTMAX with beta * input scale >= 16. The reference clamps the rescaling
// multiplier (its left shift becomes 31, its input radius 0), so only a row's maxima get
// probability; both devices must compute that instead of failing.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <vector>

#include "test_util.h"

namespace {

using nntest::ModelBuilder;

TEST(ApiQuantSoftmax, LargeBetaTimesScaleComputes) {
  for (int32_t type : {ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED}) {
    const bool isSigned = type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
    const int32_t outZero = isSigned ? -128 : 0;
    for (float beta : {16.f, 40.f, 1e6f}) {
      ModelBuilder mb;
      const uint32_t in = mb.addOperand(type, {2, 4}, 1.0f, 0);
      const uint32_t out = mb.addOperand(type, {2, 4}, 1.f / 256.f, outZero);
      mb.addOperation(ANEURALNETWORKS_SOFTMAX, {in, mb.addFloat32(beta)}, {out});
      ASSERT_EQ(mb.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
      // Row 0 has two maxima (3, 3), row 1 one (5).
      const std::vector<int8_t> values{1, 3, 3, 2, 5, 0, 1, 4};
      std::vector<uint8_t> bytes(values.size());
      for (size_t i = 0; i < values.size(); ++i) bytes[i] = static_cast<uint8_t>(values[i]);
      // Probabilities: 0.5 for each maximum of row 0, 1.0 (saturated) for row 1's maximum.
      const std::vector<float> expected{0.f, 0.5f, 0.5f, 0.f, 1.f, 0.f, 0.f, 0.f};
      for (const char* device : {"nnapi-cpu", "nnapi-cpu-reference"}) {
        const nntest::RunResult r = nntest::runModel(mb, {bytes}, {8}, device);
        ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR)
            << device << " beta " << beta << " " << r.step << ": " << ANNLinux_getLastErrorMessage();
        for (size_t i = 0; i < 8; ++i) {
          const int32_t q = isSigned ? int32_t(int8_t(r.outputs[0][i])) : int32_t(r.outputs[0][i]);
          const int32_t want = std::min<int32_t>(int32_t(std::lround(expected[i] * 256.f)) + outZero,
                                                 isSigned ? 127 : 255);
          EXPECT_LE(std::abs(q - want), 1) << device << " beta " << beta << " element " << i;
        }
      }
    }
  }
}

}  // namespace
