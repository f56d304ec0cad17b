// Issue 9: memory-descriptor roles. A TENSOR_QUANT8_SYMM_PER_CHANNEL model input (a per-channel
// convolution filter given at execution) may be backed by device memory; a scalar role is
// refused once setDimensions gave the descriptor a rank, in either order.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "test_util.h"

namespace {

using nntest::ModelBuilder;

// CONV_2D of a [1,2,2,1] quant8 input with a per-channel [2,1,1,1] filter that is model input 1.
struct PerChannelConv {
  ModelBuilder mb;
  ANeuralNetworksCompilation* compilation = nullptr;
  PerChannelConv() {
    const uint32_t in = mb.addOperand(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, {1, 2, 2, 1}, 0.5f, 0);
    const uint32_t filter = mb.addOperand(ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, {2, 1, 1, 1});
    const float scales[2] = {0.5f, 0.25f};
    const ANeuralNetworksSymmPerChannelQuantParams params{0, 2, scales};
    EXPECT_EQ(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(mb.get(), filter, &params),
              ANEURALNETWORKS_NO_ERROR);
    const uint32_t bias = mb.addConstant<int32_t>(ANEURALNETWORKS_TENSOR_INT32, {2}, {0, 0});
    const uint32_t out = mb.addOperand(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, {1, 2, 2, 2}, 0.125f, 0);
    mb.addOperation(ANEURALNETWORKS_CONV_2D,
                    {in, filter, bias, mb.addInt32(0), mb.addInt32(0), mb.addInt32(0),
                     mb.addInt32(0), mb.addInt32(1), mb.addInt32(1), mb.addInt32(0)},
                    {out});
    EXPECT_EQ(mb.finish({in, filter}, {out}), ANEURALNETWORKS_NO_ERROR)
        << ANNLinux_getLastErrorMessage();
    EXPECT_EQ(ANeuralNetworksCompilation_create(mb.get(), &compilation), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
  }
  ~PerChannelConv() { ANeuralNetworksCompilation_free(compilation); }
};

TEST(ApiMemoryDescRoles, PerChannelFilterFromDeviceMemory) {
  PerChannelConv conv;
  ANeuralNetworksMemoryDesc* desc = nullptr;
  ASSERT_EQ(ANeuralNetworksMemoryDesc_create(&desc), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksMemoryDesc_addInputRole(desc, conv.compilation, 1, 1.f),
            ANEURALNETWORKS_NO_ERROR)
      << ANNLinux_getLastErrorMessage();
  ASSERT_EQ(ANeuralNetworksMemoryDesc_finish(desc), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksMemory* device = nullptr;
  ASSERT_EQ(ANeuralNetworksMemory_createFromDesc(desc, &device), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksMemoryDesc_free(desc);
  // Fill it from fd memory holding the filter {2, 4}.
  const int fd = memfd_create("per_channel", 0);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, 2), 0);
  const int8_t filter[2] = {2, 4};
  ASSERT_EQ(pwrite(fd, filter, 2, 0), 2);
  ANeuralNetworksMemory* fdMemory = nullptr;
  ASSERT_EQ(ANeuralNetworksMemory_createFromFd(2, PROT_READ | PROT_WRITE, fd, 0, &fdMemory),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksMemory_copy(fdMemory, device), ANEURALNETWORKS_NO_ERROR);
  const uint8_t input[4] = {2, 4, 6, 8};  // 1, 2, 3, 4
  uint8_t fromMemory[8] = {}, fromPointer[8] = {};
  for (bool useMemory : {true, false}) {
    ANeuralNetworksExecution* e = nullptr;
    ASSERT_EQ(ANeuralNetworksExecution_create(conv.compilation, &e), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, input, 4), ANEURALNETWORKS_NO_ERROR);
    if (useMemory)
      ASSERT_EQ(ANeuralNetworksExecution_setInputFromMemory(e, 1, nullptr, device, 0, 0),
                ANEURALNETWORKS_NO_ERROR);
    else
      ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 1, nullptr, filter, 2), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, useMemory ? fromMemory : fromPointer, 8),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR)
        << ANNLinux_getLastErrorMessage();
    ANeuralNetworksExecution_free(e);
  }
  EXPECT_EQ(std::vector<uint8_t>(fromMemory, fromMemory + 8),
            std::vector<uint8_t>(fromPointer, fromPointer + 8));
  // x * 1 (channel 0: 2 * 0.5) and x * 1 (channel 1: 4 * 0.25), in steps of 0.125.
  EXPECT_EQ(fromPointer[0], 8);
  EXPECT_EQ(fromPointer[1], 8);
  ANeuralNetworksMemory_free(fdMemory);
  ANeuralNetworksMemory_free(device);
  close(fd);
}

// out = ADD(in, in) where the activation is model input 1 (a scalar INT32).
struct ScalarInputModel {
  ModelBuilder mb;
  ANeuralNetworksCompilation* compilation = nullptr;
  ScalarInputModel() {
    const uint32_t in = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {2});
    const uint32_t act = mb.addOperand(ANEURALNETWORKS_INT32);
    const uint32_t out = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {2});
    mb.addOperation(ANEURALNETWORKS_ADD, {in, in, act}, {out});
    EXPECT_EQ(mb.finish({in, act}, {out}), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksCompilation_create(mb.get(), &compilation), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
  }
  ~ScalarInputModel() { ANeuralNetworksCompilation_free(compilation); }
};

TEST(ApiMemoryDescRoles, ScalarRoleRefusesDimensionsInEitherOrder) {
  ScalarInputModel m;
  const uint32_t dims[1] = {2};
  {
    ANeuralNetworksMemoryDesc* desc = nullptr;
    ASSERT_EQ(ANeuralNetworksMemoryDesc_create(&desc), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksMemoryDesc_setDimensions(desc, 1, dims), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksMemoryDesc_addInputRole(desc, m.compilation, 1, 1.f),
              ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksMemoryDesc_free(desc);
  }
  {
    ANeuralNetworksMemoryDesc* desc = nullptr;
    ASSERT_EQ(ANeuralNetworksMemoryDesc_create(&desc), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksMemoryDesc_addInputRole(desc, m.compilation, 1, 1.f),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksMemoryDesc_setDimensions(desc, 1, dims), ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksMemoryDesc_free(desc);
  }
}

}  // namespace
