// The driver-independent rule for omitted operands: only inputs an operation declares optional
// (NN_OPTIONAL_INPUTS) may be NO_VALUE; any other omission is rejected at finish with a message.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <gtest/gtest.h>

#include <string>

#include "test_util.h"

namespace {

using nntest::ModelBuilder;

TEST(ApiOptionalInputs, RequiredInputWithoutValueIsRejectedAtFinish) {
  ModelBuilder m;
  const uint32_t a = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {2});
  const uint32_t b = m.addNoValue(ANEURALNETWORKS_TENSOR_FLOAT32, {2});  // ADD's second input
  const uint32_t act = m.addInt32(0);
  const uint32_t out = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {2});
  ASSERT_EQ(m.addOperation(ANEURALNETWORKS_ADD, {a, b, act}, {out}), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(m.finish({a}, {out}), ANEURALNETWORKS_BAD_DATA);
  const std::string message = ANNLinux_getLastErrorMessage();
  EXPECT_NE(message.find("ADD"), std::string::npos) << message;
  EXPECT_NE(message.find("input 1"), std::string::npos) << message;
  EXPECT_NE(message.find("required"), std::string::npos) << message;
}

TEST(ApiOptionalInputs, DeclaredOptionalInputMayBeOmitted) {
  // TRANSPOSE's permutation is optional: omitted, the axes are reversed.
  ModelBuilder m;
  const uint32_t in = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {2, 3});
  const uint32_t perm = m.addNoValue(ANEURALNETWORKS_TENSOR_INT32, {2});
  const uint32_t out = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {3, 2});
  ASSERT_EQ(m.addOperation(ANEURALNETWORKS_TRANSPOSE, {in, perm}, {out}), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
  const std::vector<float> x = {1, 2, 3, 4, 5, 6};
  const nntest::RunResult r = nntest::runModel(m, {nntest::bytesOf(x)}, {6 * sizeof(float)});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(nntest::valuesOf<float>(r.outputs[0]), (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

}  // namespace
