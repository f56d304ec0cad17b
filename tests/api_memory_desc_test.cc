// Memory descriptors (FL4): roles, shape merging, device memories passed between
// executions, initialized-state rules and ANeuralNetworksMemory_copy.
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <vector>

#include "test_util.h"

namespace {

using nntest::ModelBuilder;

// out = in + c, with c = {1,2,3,4}; input and output are [4] float32.
struct AddConst {
  ModelBuilder model;
  ANeuralNetworksCompilation* compilation = nullptr;
  explicit AddConst(bool finishCompilation = true) {
    const uint32_t in = model.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {4});
    const uint32_t c = model.addConstant<float>(ANEURALNETWORKS_TENSOR_FLOAT32, {4}, {1, 2, 3, 4});
    const uint32_t act = model.addInt32(0);
    const uint32_t out = model.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {4});
    model.addOperation(ANEURALNETWORKS_ADD, {in, c, act}, {out});
    EXPECT_EQ(model.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksCompilation_create(model.get(), &compilation), ANEURALNETWORKS_NO_ERROR);
    if (finishCompilation) {
      EXPECT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
    }
  }
  ~AddConst() { ANeuralNetworksCompilation_free(compilation); }
};

ANeuralNetworksMemory* memoryFor(const AddConst& producer, const AddConst& consumer) {
  ANeuralNetworksMemoryDesc* desc = nullptr;
  EXPECT_EQ(ANeuralNetworksMemoryDesc_create(&desc), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_addOutputRole(desc, producer.compilation, 0, 1.f), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_addInputRole(desc, consumer.compilation, 0, 1.f), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_finish(desc), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksMemory* memory = nullptr;
  EXPECT_EQ(ANeuralNetworksMemory_createFromDesc(desc, &memory), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksMemoryDesc_free(desc);  // the memory does not need the descriptor
  return memory;
}

TEST(ApiMemoryDesc, DeviceMemoryCarriesDataBetweenCompilations) {
  AddConst a, b;
  ANeuralNetworksMemory* memory = memoryFor(a, b);
  ASSERT_NE(memory, nullptr);
  float x[4] = {10, 20, 30, 40}, y[4] = {};
  ANeuralNetworksExecution* e1 = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(a.compilation, &e1), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e1, 0, nullptr, x, sizeof(x)), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutputFromMemory(e1, 0, nullptr, memory, 0, 0), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e1), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* e2 = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(b.compilation, &e2), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInputFromMemory(e2, 0, nullptr, memory, 0, 0), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e2, 0, nullptr, y, sizeof(y)), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e2), ANEURALNETWORKS_NO_ERROR);
  // (x + c) + c
  EXPECT_EQ(y[0], 12.f);
  EXPECT_EQ(y[1], 24.f);
  EXPECT_EQ(y[2], 36.f);
  EXPECT_EQ(y[3], 48.f);
  ANeuralNetworksExecution_free(e1);
  ANeuralNetworksExecution_free(e2);
  ANeuralNetworksMemory_free(memory);
}

TEST(ApiMemoryDesc, UninitializedMemoryCannotBeRead) {
  AddConst a, b;
  ANeuralNetworksMemory* memory = memoryFor(a, b);
  float y[4];
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(b.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInputFromMemory(e, 0, nullptr, memory, 0, 0), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, y, sizeof(y)), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_BAD_DATA);
  // Copying from it is refused too; copying into it from fd memory initializes it.
  const int fd = memfd_create("desc_test", 0);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, 16), 0);
  ANeuralNetworksMemory* fdMemory = nullptr;
  ASSERT_EQ(ANeuralNetworksMemory_createFromFd(16, PROT_READ | PROT_WRITE, fd, 0, &fdMemory), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemory_copy(memory, fdMemory), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksMemory_copy(fdMemory, memory), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* e2 = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(b.compilation, &e2), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInputFromMemory(e2, 0, nullptr, memory, 0, 0), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e2, 0, nullptr, y, sizeof(y)), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_compute(e2), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(y[3], 4.f);  // zero-filled fd memory + c
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksExecution_free(e2);
  ANeuralNetworksMemory_free(fdMemory);
  ANeuralNetworksMemory_free(memory);
  close(fd);
}

TEST(ApiMemoryDesc, RoleAndStateRules) {
  AddConst a, unfinished(/*finishCompilation=*/false);
  ANeuralNetworksMemoryDesc* desc = nullptr;
  ASSERT_EQ(ANeuralNetworksMemoryDesc_create(&desc), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_finish(desc), ANEURALNETWORKS_BAD_DATA);  // no role yet
  EXPECT_EQ(ANeuralNetworksMemoryDesc_addInputRole(desc, unfinished.compilation, 0, 1.f), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_addInputRole(desc, a.compilation, 1, 1.f), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_addInputRole(desc, a.compilation, 0, 0.f), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_addInputRole(desc, a.compilation, 0, 0.5f), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_addInputRole(desc, a.compilation, 0, 0.5f), ANEURALNETWORKS_BAD_DATA);
  const uint32_t wrong[1] = {5};
  EXPECT_EQ(ANeuralNetworksMemoryDesc_setDimensions(desc, 1, wrong), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_setDimensions(desc, 1, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  ANeuralNetworksMemory* memory = nullptr;
  EXPECT_EQ(ANeuralNetworksMemory_createFromDesc(desc, &memory), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(memory, nullptr);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_finish(desc), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_finish(desc), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_addInputRole(desc, a.compilation, 0, 1.f), ANEURALNETWORKS_BAD_STATE);
  ASSERT_EQ(ANeuralNetworksMemory_createFromDesc(desc, &memory), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksMemoryDesc_free(desc);

  // Only the declared role may use it, and always whole.
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(a.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setOutputFromMemory(e, 0, nullptr, memory, 0, 0), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setInputFromMemory(e, 0, nullptr, memory, 0, 16), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setInputFromMemory(e, 0, nullptr, memory, 0, 0), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution_free(e);

  // A descriptor memory cannot back a model constant.
  ModelBuilder m;
  const uint32_t t = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {4});
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(m.get(), t, memory, 0, 16), ANEURALNETWORKS_BAD_DATA);
  ANeuralNetworksMemory_free(memory);
}

}  // namespace
