// Issue 9: shape parameters whose arithmetic overflows 32-bit dimensions (paddings, multiples,
// block sizes, resize targets, FILL dims) give a clean error naming the operation: BAD_DATA
// while the model is built when the values are constants, OP_FAILED from the computation when
// they are model inputs. Never an exception, a wrapped dimension or a wrong result.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <gtest/gtest.h>

#include <climits>
#include <string>
#include <vector>

#include "test_util.h"

namespace {

using nntest::ModelBuilder;

const char* const kDevices[] = {"nnapi-cpu", "nnapi-cpu-reference"};

// One INT32 tensor parameter (paddings, multiples, dims, ...) of an operation, either a
// constant of the model or a model input given at execution.
struct Case {
  const char* name;       // operation name expected in the message
  int32_t op;
  std::vector<uint32_t> inDims;     // input 0 (float32), empty = no data input (FILL)
  std::vector<uint32_t> paramDims;  // the INT32 tensor parameter's shape
  std::vector<int32_t> param;       // its value
  std::vector<int32_t> scalarsAfter;  // INT32 scalars after the parameter (constants)
  bool paramFirst = false;          // FILL: the parameter is input 0, then a float scalar
  uint32_t outRank = 0;
};

std::vector<Case> cases() {
  std::vector<Case> v;
  v.push_back({"TILE", ANEURALNETWORKS_TILE, {3, 1}, {2}, {INT32_MAX, 1}, {}, false, 2});
  v.push_back({"FILL", ANEURALNETWORKS_FILL, {}, {2}, {INT32_MAX, INT32_MAX}, {}, true, 2});
  v.push_back({"PAD", ANEURALNETWORKS_PAD, {1, 2, 2, 1}, {4, 2},
               {0, 0, 1000000000, 1000000000, 1000000000, 1000000000, 0, 0}, {}, false, 4});
  v.push_back({"PAD_V2", ANEURALNETWORKS_PAD_V2, {1, 2, 2, 1}, {4, 2},
               {0, 0, INT32_MAX, INT32_MAX, 0, 0, 0, 0}, {}, false, 4});
  v.push_back({"SPACE_TO_BATCH_ND", ANEURALNETWORKS_SPACE_TO_BATCH_ND, {1, 2, 4, 1}, {2, 2},
               {INT32_MAX, 1, 0, 0}, {}, false, 4});
  v.push_back({"SPACE_TO_BATCH_ND", ANEURALNETWORKS_SPACE_TO_BATCH_ND, {1, 2, 4, 1}, {2, 2},
               {INT32_MAX, INT32_MAX, 0, 0}, {}, false, 4});
  v.push_back({"SPACE_TO_BATCH_ND", ANEURALNETWORKS_SPACE_TO_BATCH_ND, {1, 2, 4, 1}, {2, 2},
               {0, 0, INT32_MAX, INT32_MAX}, {}, false, 4});
  return v;
}

// Builds the single-operation model. SPACE_TO_BATCH_ND's block is a constant {1, 1} (so every
// padded size is "divisible"), PAD_V2's pad value a constant 0, FILL's value a constant 1 (with
// an unrelated model input when its dims are constant too). Returns the first error of building
// and its message (read right after the failing call).
int build(ModelBuilder& mb, const Case& c, bool constant, std::vector<uint32_t>* inputs,
          std::string* message) {
  std::vector<uint32_t> opInputs;
  std::vector<uint32_t> outputs;
  if (!c.paramFirst) {
    const uint32_t data = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, c.inDims);
    opInputs.push_back(data);
    inputs->push_back(data);
  } else if (constant) {
    const uint32_t x = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1});
    const uint32_t y = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1});
    mb.addOperation(ANEURALNETWORKS_ADD, {x, x, mb.addInt32(0)}, {y});
    inputs->push_back(x);
    outputs.push_back(y);
  }
  if (c.op == ANEURALNETWORKS_SPACE_TO_BATCH_ND)
    opInputs.push_back(mb.addConstant<int32_t>(ANEURALNETWORKS_TENSOR_INT32, {2}, {1, 1}));
  uint32_t param;
  if (constant) {
    param = mb.addConstant<int32_t>(ANEURALNETWORKS_TENSOR_INT32, c.paramDims, c.param);
  } else {
    param = mb.addOperand(ANEURALNETWORKS_TENSOR_INT32, c.paramDims);
    inputs->push_back(param);
  }
  opInputs.push_back(param);
  if (c.op == ANEURALNETWORKS_PAD_V2) opInputs.push_back(mb.addFloat32(0.f));
  if (c.op == ANEURALNETWORKS_FILL) opInputs.push_back(mb.addFloat32(1.f));
  // The result is a temporary that an ADD reads: the error must come from the shape rule or
  // the operand size limit, not from the size of the caller's buffer.
  const uint32_t tmp =
      mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, std::vector<uint32_t>(c.outRank, 0));
  const int added = mb.addOperation(c.op, opInputs, {tmp});
  if (added != ANEURALNETWORKS_NO_ERROR) {
    *message = ANNLinux_getLastErrorMessage();
    return added;
  }
  const uint32_t out =
      mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, std::vector<uint32_t>(c.outRank, 0));
  mb.addOperation(ANEURALNETWORKS_ADD, {tmp, tmp, mb.addInt32(0)}, {out});
  outputs.push_back(out);
  const int r = mb.finish(*inputs, outputs);
  *message = ANNLinux_getLastErrorMessage();
  return r;
}

std::vector<uint8_t> bytesFor(const std::vector<uint32_t>& dims) {
  size_t n = 1;
  for (uint32_t d : dims) n *= d;
  return std::vector<uint8_t>(n * sizeof(float), 0);
}

TEST(ApiShapeOverflow, ConstantParametersAreRejectedWhileBuilding) {
  for (const Case& c : cases()) {
    ModelBuilder mb;
    std::vector<uint32_t> inputs;
    std::string message;
    const int r = build(mb, c, true, &inputs, &message);
    EXPECT_EQ(r, ANEURALNETWORKS_BAD_DATA) << c.name << ": " << message;
    EXPECT_NE(message.find(c.name), std::string::npos) << message;
    // Names the operand: by its input role or its operand index.
    EXPECT_TRUE(message.find("input") != std::string::npos ||
                message.find("operand") != std::string::npos)
        << message;
  }
}

TEST(ApiShapeOverflow, RunTimeParametersFailTheComputation) {
  for (const Case& c : cases()) {
    ModelBuilder mb;
    std::vector<uint32_t> inputs;
    std::string buildMessage;
    ASSERT_EQ(build(mb, c, false, &inputs, &buildMessage), ANEURALNETWORKS_NO_ERROR)
        << c.name << ": " << buildMessage;
    for (const char* device : kDevices) {
      std::vector<std::vector<uint8_t>> values;
      if (!c.paramFirst) values.push_back(bytesFor(c.inDims));
      values.push_back(nntest::bytesOf(c.param));
      const nntest::RunResult r = nntest::runModel(mb, values, {64}, device);
      const std::string message = ANNLinux_getLastErrorMessage();
      EXPECT_EQ(r.status, ANEURALNETWORKS_OP_FAILED)
          << c.name << " on " << device << " (" << r.step << "): " << message;
      EXPECT_NE(message.find(c.name), std::string::npos) << message;
    }
  }
}

// RESIZE_BILINEAR to 1e9 x 1e9 (each dimension fits, the tensor does not): a constant target
// size is refused by finish and a run-time one by the computation, cleanly.
TEST(ApiShapeOverflow, ResizeToHugeSizeFailsCleanly) {
  for (bool constant : {true, false}) {
    ModelBuilder mb;
    const uint32_t in = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1, 2, 2, 1});
    uint32_t w, h;
    std::vector<uint32_t> inputs{in};
    if (constant) {
      w = mb.addInt32(1000000000);
      h = mb.addInt32(1000000000);
    } else {
      w = mb.addOperand(ANEURALNETWORKS_INT32);
      h = mb.addOperand(ANEURALNETWORKS_INT32);
      inputs.push_back(w);
      inputs.push_back(h);
    }
    const uint32_t tmp = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {0, 0, 0, 0});
    const int added = mb.addOperation(ANEURALNETWORKS_RESIZE_BILINEAR, {in, w, h}, {tmp});
    if (constant) {
      // Each dimension fits; the 4e18-byte operand does not: refused while building.
      EXPECT_EQ(added, ANEURALNETWORKS_BAD_DATA);
      const std::string message = ANNLinux_getLastErrorMessage();
      EXPECT_NE(message.find("RESIZE_BILINEAR"), std::string::npos) << message;
      continue;
    }
    const uint32_t out = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {0, 0, 0, 0});
    mb.addOperation(ANEURALNETWORKS_ADD, {tmp, tmp, mb.addInt32(0)}, {out});
    ASSERT_EQ(mb.finish(inputs, {out}), ANEURALNETWORKS_NO_ERROR);
    for (const char* device : kDevices) {
      const std::vector<std::vector<uint8_t>> values{
          bytesFor({1, 2, 2, 1}), nntest::bytesOf(std::vector<int32_t>{1000000000}),
          nntest::bytesOf(std::vector<int32_t>{1000000000})};
      const nntest::RunResult r = nntest::runModel(mb, values, {64}, device);
      const std::string message = ANNLinux_getLastErrorMessage();
      EXPECT_EQ(r.status, ANEURALNETWORKS_OP_FAILED) << device << " " << r.step << ": " << message;
      EXPECT_NE(message.find("RESIZE_BILINEAR"), std::string::npos) << message;
    }
  }
}

}  // namespace
