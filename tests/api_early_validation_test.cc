// Issue 9: shape rules that the model alone decides run when the operation is added (and again
// at finish), as the reference runtime validates: a FULLY_CONNECTED bias whose length differs
// from the weights' unit count is refused by addOperation. Models that are only decidable later
// (unknown dimensions, values set after addOperation, scalars given at execution) still build.
// Also STRIDED_SLICE shrinking an axis walked with a negative stride, which the reference
// refuses.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.h"

namespace {

using nntest::ModelBuilder;

constexpr int32_t kF32 = ANEURALNETWORKS_TENSOR_FLOAT32;
constexpr int32_t kI32 = ANEURALNETWORKS_TENSOR_INT32;

TEST(ApiEarlyValidation, FullyConnectedBiasLengthIsCheckedAtAddOperation) {
  ModelBuilder mb;
  const uint32_t in = mb.addOperand(kF32, {2, 3});
  const uint32_t w = mb.addConstant<float>(kF32, {4, 3}, std::vector<float>(12, 1.f));
  const uint32_t bias = mb.addConstant<float>(kF32, {5}, std::vector<float>(5, 0.f));
  const uint32_t out = mb.addOperand(kF32, {2, 4});
  const int r = mb.addOperation(ANEURALNETWORKS_FULLY_CONNECTED, {in, w, bias, mb.addInt32(0)},
                                {out});
  const std::string message = ANNLinux_getLastErrorMessage();
  EXPECT_EQ(r, ANEURALNETWORKS_BAD_DATA) << message;
  EXPECT_NE(message.find("FULLY_CONNECTED"), std::string::npos) << message;
  EXPECT_NE(message.find("bias"), std::string::npos) << message;
}

// Values (weights, bias, activation) set after addOperation: a mismatch is found by finish at
// the latest, and a valid model is refused by neither.
TEST(ApiEarlyValidation, ValuesSetAfterAddOperationAreCheckedAtFinish) {
  {
    ModelBuilder mb;
    const uint32_t in = mb.addOperand(kF32, {2, 3});
    const uint32_t w = mb.addOperand(kF32, {4, 3});
    const uint32_t bias = mb.addOperand(kF32, {5});
    const uint32_t act = mb.addOperand(ANEURALNETWORKS_INT32);
    const uint32_t out = mb.addOperand(kF32, {2, 4});
    mb.addOperation(ANEURALNETWORKS_FULLY_CONNECTED, {in, w, bias, act}, {out});
    mb.setValue(w, std::vector<float>(12, 1.f));
    mb.setValue(bias, std::vector<float>(5, 0.f));
    mb.setValue(act, std::vector<int32_t>{0});
    EXPECT_EQ(mb.finish({in}, {out}), ANEURALNETWORKS_BAD_DATA);
  }
  ModelBuilder mb;
  const uint32_t in = mb.addOperand(kF32, {2, 3});
  const uint32_t w = mb.addOperand(kF32, {4, 3});
  const uint32_t bias = mb.addOperand(kF32, {4});
  const uint32_t act = mb.addOperand(ANEURALNETWORKS_INT32);
  const uint32_t out = mb.addOperand(kF32, {2, 4});
  // Valid once the values arrive: neither addOperation nor finish may refuse it early.
  ASSERT_EQ(mb.addOperation(ANEURALNETWORKS_FULLY_CONNECTED, {in, w, bias, act}, {out}),
            ANEURALNETWORKS_NO_ERROR)
      << ANNLinux_getLastErrorMessage();
  mb.setValue(w, std::vector<float>(12, 1.f));
  mb.setValue(bias, std::vector<float>{1.f, 2.f, 3.f, 4.f});
  mb.setValue(act, std::vector<int32_t>{0});
  ASSERT_EQ(mb.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR) << ANNLinux_getLastErrorMessage();
  const nntest::RunResult r =
      nntest::runModel(mb, {nntest::bytesOf(std::vector<float>{1, 1, 1, 2, 2, 2})}, {32});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(nntest::valuesOf<float>(r.outputs[0]),
            (std::vector<float>{4, 5, 6, 7, 7, 8, 9, 10}));
}

// A RESHAPE whose target shape is a model input, a TILE on a tensor of unknown size and an
// optional input omitted after addOperation: nothing to decide while building.
TEST(ApiEarlyValidation, UndecidableModelsStillBuild) {
  {
    ModelBuilder mb;
    const uint32_t in = mb.addOperand(kF32, {2, 3});
    const uint32_t shape = mb.addOperand(kI32, {2});
    const uint32_t out = mb.addOperand(kF32, {0, 0});
    EXPECT_EQ(mb.addOperation(ANEURALNETWORKS_RESHAPE, {in, shape}, {out}),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(mb.finish({in, shape}, {out}), ANEURALNETWORKS_NO_ERROR);
  }
  {
    ModelBuilder mb;
    const uint32_t in = mb.addOperand(kF32, {0, 3});
    const uint32_t mult = mb.addConstant<int32_t>(kI32, {2}, {2, 2});
    const uint32_t out = mb.addOperand(kF32, {0, 0});
    EXPECT_EQ(mb.addOperation(ANEURALNETWORKS_TILE, {in, mult}, {out}), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(mb.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
  }
  {
    // FULLY_CONNECTED's bias declared {0} and set after addOperation.
    ModelBuilder mb;
    const uint32_t in = mb.addOperand(kF32, {1, 2});
    const uint32_t w = mb.addConstant<float>(kF32, {2, 2}, {1, 0, 0, 1});
    const uint32_t bias = mb.addOperand(kF32, {2});
    const uint32_t out = mb.addOperand(kF32, {1, 2});
    EXPECT_EQ(mb.addOperation(ANEURALNETWORKS_FULLY_CONNECTED, {in, w, bias, mb.addInt32(0)},
                              {out}),
              ANEURALNETWORKS_NO_ERROR);
    mb.setValue(bias, std::vector<float>{0.5f, 0.5f});
    EXPECT_EQ(mb.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
  }
}

// ---- STRIDED_SLICE: shrink_axis_mask on an axis with a negative stride -------------------

void buildSlice(ModelBuilder& mb, bool constantStrides, std::vector<uint32_t>* inputs,
                int* addResult) {
  const uint32_t in = mb.addOperand(kF32, {4});
  const uint32_t begin = mb.addConstant<int32_t>(kI32, {1}, {2});
  const uint32_t end = mb.addConstant<int32_t>(kI32, {1}, {1});
  uint32_t strides;
  inputs->push_back(in);
  if (constantStrides) {
    strides = mb.addConstant<int32_t>(kI32, {1}, {-1});
  } else {
    strides = mb.addOperand(kI32, {1});
    inputs->push_back(strides);
  }
  const uint32_t out = mb.addOperand(kF32, {0});
  *addResult = mb.addOperation(ANEURALNETWORKS_STRIDED_SLICE,
                               {in, begin, end, strides, mb.addInt32(0), mb.addInt32(0),
                                mb.addInt32(1)},
                               {out});
  if (*addResult == ANEURALNETWORKS_NO_ERROR) mb.finish(*inputs, {out});
}

TEST(ApiEarlyValidation, StridedSliceRefusesShrinkingANegativeStrideAxis) {
  {
    ModelBuilder mb;
    std::vector<uint32_t> inputs;
    int added = 0;
    buildSlice(mb, true, &inputs, &added);
    const std::string message = ANNLinux_getLastErrorMessage();
    EXPECT_EQ(added, ANEURALNETWORKS_BAD_DATA) << message;
    EXPECT_NE(message.find("STRIDED_SLICE"), std::string::npos) << message;
  }
  ModelBuilder mb;
  std::vector<uint32_t> inputs;
  int added = -1;
  buildSlice(mb, false, &inputs, &added);
  ASSERT_EQ(added, ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(mb.status(), ANEURALNETWORKS_NO_ERROR);
  for (const char* device : {"nnapi-cpu", "nnapi-cpu-reference"}) {
    const nntest::RunResult r =
        nntest::runModel(mb,
                         {nntest::bytesOf(std::vector<float>{1, 2, 3, 4}),
                          nntest::bytesOf(std::vector<int32_t>{-1})},
                         {sizeof(float)}, device);
    EXPECT_EQ(r.status, ANEURALNETWORKS_OP_FAILED) << device << " " << r.step << ": "
                                                   << ANNLinux_getLastErrorMessage();
  }
}

}  // namespace
