// API-contract tests for ANeuralNetworksModel_* and ANeuralNetworksCompilation_*: every
// NULL / index / state / length rule of /work/shared/spec/ABI.md §3.4-3.5, asserted with the
// exact result code the contract names.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <android/NeuralNetworksExtensions.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "test_util.h"

namespace {

using nntest::ModelBuilder;

const uint32_t kDims4[] = {4};
const ANeuralNetworksOperandType kFloat4{ANEURALNETWORKS_TENSOR_FLOAT32, 1, kDims4, 0.f, 0};
const ANeuralNetworksOperandType kInt32Scalar{ANEURALNETWORKS_INT32, 0, nullptr, 0.f, 0};

// Owns a raw model handle so each test can drive the C API call by call.
struct RawModel {
  ANeuralNetworksModel* m = nullptr;
  RawModel() { EXPECT_EQ(ANeuralNetworksModel_create(&m), ANEURALNETWORKS_NO_ERROR); }
  ~RawModel() { ANeuralNetworksModel_free(m); }
  int addOperand(const ANeuralNetworksOperandType& t) { return ANeuralNetworksModel_addOperand(m, &t); }
};

// Adds operands 0,1 (float[4] inputs), 2 (INT32 activation = 0, constant), 3 (float[4]) and
// an ADD(0,1,2)->3; identifies {0,1} -> {3} when `identify`.
void buildAdd(RawModel& rm, bool identify = true) {
  ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(rm.addOperand(kInt32Scalar), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);
  const int32_t act = ANEURALNETWORKS_FUSED_NONE;
  ASSERT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 2, &act, sizeof(act)), ANEURALNETWORKS_NO_ERROR);
  const uint32_t in[] = {0, 1, 2}, out[] = {3};
  ASSERT_EQ(ANeuralNetworksModel_addOperation(rm.m, ANEURALNETWORKS_ADD, 3, in, 1, out),
            ANEURALNETWORKS_NO_ERROR);
  if (identify) {
    const uint32_t mi[] = {0, 1}, mo[] = {3};
    ASSERT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 2, mi, 1, mo),
              ANEURALNETWORKS_NO_ERROR);
  }
}

std::vector<const ANeuralNetworksDevice*> allDevices() {
  uint32_t n = 0;
  EXPECT_EQ(ANeuralNetworks_getDeviceCount(&n), ANEURALNETWORKS_NO_ERROR);
  std::vector<const ANeuralNetworksDevice*> v;
  for (uint32_t i = 0; i < n; ++i) {
    ANeuralNetworksDevice* d = nullptr;
    EXPECT_EQ(ANeuralNetworks_getDevice(i, &d), ANEURALNETWORKS_NO_ERROR);
    v.push_back(d);
  }
  return v;
}

const ANeuralNetworksDevice* deviceNamed(const char* wanted) {
  for (const ANeuralNetworksDevice* d : allDevices()) {
    const char* name = nullptr;
    if (ANeuralNetworksDevice_getName(d, &name) == ANEURALNETWORKS_NO_ERROR &&
        std::string(name) == wanted)
      return d;
  }
  return nullptr;
}

std::string lastError() { return ANNLinux_getLastErrorMessage(); }

// ---------------------------------------------------------------------------------------------
// Model_create / free / addOperand

TEST(ApiModel, CreateAndFreeNull) {
  EXPECT_EQ(ANeuralNetworksModel_create(nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  ANeuralNetworksModel_free(nullptr);  // documented no-op
}

TEST(ApiModel, AddOperandNullArguments) {
  RawModel rm;
  EXPECT_EQ(ANeuralNetworksModel_addOperand(nullptr, &kFloat4), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksModel_addOperand(rm.m, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
}

TEST(ApiModel, AddOperandRejectsBadTypes) {
  RawModel rm;
  const uint32_t dims[] = {2, 2};
  // Unknown operand code.
  EXPECT_EQ(rm.addOperand({999, 0, nullptr, 0.f, 0}), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(rm.addOperand({-1, 0, nullptr, 0.f, 0}), ANEURALNETWORKS_BAD_DATA);
  // dimensions NULL-ness must match dimensionCount.
  EXPECT_EQ(rm.addOperand({ANEURALNETWORKS_TENSOR_FLOAT32, 2, nullptr, 0.f, 0}), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(rm.addOperand({ANEURALNETWORKS_TENSOR_FLOAT32, 0, dims, 0.f, 0}), ANEURALNETWORKS_BAD_DATA);
  // Scalars take no dimensions.
  EXPECT_EQ(rm.addOperand({ANEURALNETWORKS_INT32, 2, dims, 0.f, 0}), ANEURALNETWORKS_BAD_DATA);
  // Quantization rules (§1.1): asymm needs scale > 0 and zeroPoint in [0, 255].
  EXPECT_EQ(rm.addOperand({ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 2, dims, 0.f, 0}), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(rm.addOperand({ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 2, dims, -1.f, 0}), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(rm.addOperand({ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 2, dims, 0.5f, 256}), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(rm.addOperand({ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, 2, dims, 0.5f, 128}), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(rm.addOperand({ANEURALNETWORKS_TENSOR_QUANT8_SYMM, 2, dims, 0.5f, 1}), ANEURALNETWORKS_BAD_DATA);
  // Per-channel operands carry scale/zeroPoint 0 (scales come separately).
  EXPECT_EQ(rm.addOperand({ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, 2, dims, 0.5f, 0}), ANEURALNETWORKS_BAD_DATA);
  // Float types carry no quantization parameters.
  EXPECT_EQ(rm.addOperand({ANEURALNETWORKS_TENSOR_FLOAT32, 2, dims, 1.f, 0}), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(rm.addOperand({ANEURALNETWORKS_FLOAT32, 0, nullptr, 0.f, 3}), ANEURALNETWORKS_BAD_DATA);
  // Total byte size > UINT32_MAX.
  const uint32_t huge[] = {65536, 65536, 2};
  EXPECT_EQ(rm.addOperand({ANEURALNETWORKS_TENSOR_FLOAT32, 3, huge, 0.f, 0}), ANEURALNETWORKS_BAD_DATA);

  // None of the rejected calls consumed an operand index: the next valid one is operand 0.
  ASSERT_EQ(rm.addOperand({ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 2, dims, 0.5f, 255}), ANEURALNETWORKS_NO_ERROR);
  const uint8_t q[4] = {1, 2, 3, 4};
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 0, q, 4), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 1, q, 4), ANEURALNETWORKS_BAD_DATA);
  // Unknown dimensions and unknown rank are valid for non-constant tensors.
  const uint32_t partial[] = {0, 3};
  EXPECT_EQ(rm.addOperand({ANEURALNETWORKS_TENSOR_FLOAT32, 2, partial, 0.f, 0}), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(rm.addOperand({ANEURALNETWORKS_TENSOR_FLOAT32, 0, nullptr, 0.f, 0}), ANEURALNETWORKS_NO_ERROR);
}

TEST(ApiModel, AddOperandAfterFinishIsBadState) {
  RawModel rm;
  buildAdd(rm);
  ASSERT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_BAD_STATE);
}

// ---------------------------------------------------------------------------------------------
// setOperandValue

TEST(ApiModel, SetOperandValueRules) {
  RawModel rm;
  ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);       // 0
  ASSERT_EQ(rm.addOperand(kInt32Scalar), ANEURALNETWORKS_NO_ERROR);  // 1
  const uint32_t partial[] = {0, 4};
  ASSERT_EQ(rm.addOperand({ANEURALNETWORKS_TENSOR_FLOAT32, 2, partial, 0.f, 0}), ANEURALNETWORKS_NO_ERROR);  // 2
  const float v[4] = {1, 2, 3, 4};
  const int32_t i = 7;

  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(nullptr, 0, v, sizeof(v)), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 0, nullptr, sizeof(v)), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, -1, v, sizeof(v)), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 3, v, sizeof(v)), ANEURALNETWORKS_BAD_DATA);
  // Length must be the exact byte size: 16 for float[4], 4 for an INT32 scalar.
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 0, v, 12), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 0, v, 20), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 1, &i, 8), ANEURALNETWORKS_BAD_DATA);
  // A constant needs fully specified dimensions.
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 2, v, sizeof(v)), ANEURALNETWORKS_BAD_DATA);
  // length > UINT32_MAX (the buffer is never read on this path).
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 0, v, size_t{1} << 33), ANEURALNETWORKS_BAD_DATA);

  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 0, v, sizeof(v)), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 1, &i, sizeof(i)), ANEURALNETWORKS_NO_ERROR);
  // NULL/0 marks an omitted optional operand.
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 2, nullptr, 0), ANEURALNETWORKS_NO_ERROR);
}

TEST(ApiModel, SetOperandValueAfterFinishIsBadState) {
  RawModel rm;
  buildAdd(rm);
  ASSERT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_NO_ERROR);
  const int32_t act = 0;
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 2, &act, sizeof(act)), ANEURALNETWORKS_BAD_STATE);
}

// ---------------------------------------------------------------------------------------------
// setOperandSymmPerChannelQuantParams

TEST(ApiModel, SymmPerChannelQuantParamsRules) {
  RawModel rm;
  const uint32_t dims[] = {3, 2};
  ASSERT_EQ(rm.addOperand({ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, 2, dims, 0.f, 0}),
            ANEURALNETWORKS_NO_ERROR);  // 0
  ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);  // 1
  const float scales[3] = {0.5f, 0.25f, 1.f};
  const float badScales[3] = {0.5f, 0.f, 1.f};
  const float negScales[3] = {0.5f, 0.25f, -1.f};
  ANeuralNetworksSymmPerChannelQuantParams p{0, 3, scales};

  EXPECT_EQ(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(nullptr, 0, &p), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(rm.m, 0, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(rm.m, 2, &p), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(rm.m, -1, &p), ANEURALNETWORKS_BAD_DATA);
  // Operand of another type.
  EXPECT_EQ(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(rm.m, 1, &p), ANEURALNETWORKS_BAD_DATA);
  // scales NULL with a non-zero count.
  ANeuralNetworksSymmPerChannelQuantParams nullScales{0, 3, nullptr};
  EXPECT_EQ(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(rm.m, 0, &nullScales), ANEURALNETWORKS_BAD_DATA);
  // channelDim >= rank.
  ANeuralNetworksSymmPerChannelQuantParams badDim{2, 3, scales};
  EXPECT_EQ(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(rm.m, 0, &badDim), ANEURALNETWORKS_BAD_DATA);
  // scaleCount != dimensions[channelDim] (dimension 1 is 2).
  ANeuralNetworksSymmPerChannelQuantParams badCount{1, 3, scales};
  EXPECT_EQ(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(rm.m, 0, &badCount), ANEURALNETWORKS_BAD_DATA);
  // A scale <= 0.
  ANeuralNetworksSymmPerChannelQuantParams zero{0, 3, badScales};
  EXPECT_EQ(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(rm.m, 0, &zero), ANEURALNETWORKS_BAD_DATA);
  ANeuralNetworksSymmPerChannelQuantParams neg{0, 3, negScales};
  EXPECT_EQ(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(rm.m, 0, &neg), ANEURALNETWORKS_BAD_DATA);

  EXPECT_EQ(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(rm.m, 0, &p), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksSymmPerChannelQuantParams dim1{1, 2, scales};
  EXPECT_EQ(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(rm.m, 0, &dim1), ANEURALNETWORKS_NO_ERROR);
}

TEST(ApiModel, SymmPerChannelQuantParamsAfterFinishIsBadState) {
  RawModel rm;
  buildAdd(rm, /*identify=*/false);
  const uint32_t dims[] = {2};
  ASSERT_EQ(rm.addOperand({ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, 1, dims, 0.f, 0}),
            ANEURALNETWORKS_NO_ERROR);  // 4
  const int8_t w[2] = {1, -1};
  ASSERT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 4, w, 2), ANEURALNETWORKS_NO_ERROR);
  const float scales[2] = {1.f, 2.f};
  ANeuralNetworksSymmPerChannelQuantParams p{0, 2, scales};
  ASSERT_EQ(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(rm.m, 4, &p), ANEURALNETWORKS_NO_ERROR);
  const uint32_t mi[] = {0, 1}, mo[] = {3};
  ASSERT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 2, mi, 1, mo), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(rm.m, 4, &p), ANEURALNETWORKS_BAD_STATE);
}

TEST(ApiModel, FinishRejectsMissingPerChannelParams) {
  RawModel rm;
  buildAdd(rm, /*identify=*/false);
  const uint32_t dims[] = {2};
  ASSERT_EQ(rm.addOperand({ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, 1, dims, 0.f, 0}),
            ANEURALNETWORKS_NO_ERROR);
  const int8_t w[2] = {1, -1};
  ASSERT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 4, w, 2), ANEURALNETWORKS_NO_ERROR);
  const uint32_t mi[] = {0, 1}, mo[] = {3};
  ASSERT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 2, mi, 1, mo), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_BAD_DATA);
  EXPECT_NE(lastError(), "");
}

// ---------------------------------------------------------------------------------------------
// setOperandValueFromMemory / setOperandValueFromModel

TEST(ApiModel, SetOperandValueFromMemoryRules) {
  const int fd = memfd_create("api_model_test", 0);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, 64), 0);
  ANeuralNetworksMemory* mem = nullptr;
  ASSERT_EQ(ANeuralNetworksMemory_createFromFd(64, PROT_READ | PROT_WRITE, fd, 0, &mem), ANEURALNETWORKS_NO_ERROR);
  close(fd);  // the memory object holds its own duplicate

  RawModel rm;
  ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);  // 0: 16 bytes
  const uint32_t partial[] = {0};
  ASSERT_EQ(rm.addOperand({ANEURALNETWORKS_TENSOR_FLOAT32, 1, partial, 0.f, 0}), ANEURALNETWORKS_NO_ERROR);  // 1

  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(nullptr, 0, mem, 0, 16), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(rm.m, 0, nullptr, 0, 16), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(rm.m, 2, mem, 0, 16), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(rm.m, -1, mem, 0, 16), ANEURALNETWORKS_BAD_DATA);
  // length != operand byte size.
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(rm.m, 0, mem, 0, 12), ANEURALNETWORKS_BAD_DATA);
  // Region outside the 64-byte memory, including an offset whose sum would wrap.
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(rm.m, 0, mem, 52, 16), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(rm.m, 0, mem, 64, 16), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(rm.m, 0, mem, SIZE_MAX - 8, 16), ANEURALNETWORKS_BAD_DATA);
  // Not aligned to the 4-byte element size.
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(rm.m, 0, mem, 2, 16), ANEURALNETWORKS_BAD_DATA);
  // Not-fully-specified tensor.
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(rm.m, 1, mem, 0, 16), ANEURALNETWORKS_BAD_DATA);

  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(rm.m, 0, mem, 48, 16), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksMemory_free(mem);
}

TEST(ApiModel, SetOperandValueFromMemoryAfterFinishIsBadState) {
  const int fd = memfd_create("api_model_test", 0);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, 64), 0);
  ANeuralNetworksMemory* mem = nullptr;
  ASSERT_EQ(ANeuralNetworksMemory_createFromFd(64, PROT_READ, fd, 0, &mem), ANEURALNETWORKS_NO_ERROR);
  close(fd);
  {
    RawModel rm;
    buildAdd(rm);
    ASSERT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(rm.m, 2, mem, 0, 4), ANEURALNETWORKS_BAD_STATE);
  }
  ANeuralNetworksMemory_free(mem);
}

TEST(ApiModel, SetOperandValueFromModelRules) {
  RawModel body;
  buildAdd(body);
  RawModel rm;
  ASSERT_EQ(rm.addOperand({ANEURALNETWORKS_MODEL, 0, nullptr, 0.f, 0}), ANEURALNETWORKS_NO_ERROR);  // 0
  ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);                                      // 1

  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromModel(nullptr, 0, body.m), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromModel(rm.m, 0, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  // The referenced model is not finished yet.
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromModel(rm.m, 0, body.m), ANEURALNETWORKS_BAD_STATE);
  ASSERT_EQ(ANeuralNetworksModel_finish(body.m), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromModel(rm.m, 2, body.m), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromModel(rm.m, 1, body.m), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromModel(rm.m, 0, body.m), ANEURALNETWORKS_NO_ERROR);
  // A MODEL operand never takes a byte value.
  const int32_t x = 0;
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 0, &x, sizeof(x)), ANEURALNETWORKS_BAD_DATA);

  // An invalid (failed-finish) model cannot be referenced either.
  RawModel broken;
  ASSERT_EQ(broken.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksModel_finish(broken.m), ANEURALNETWORKS_BAD_DATA);
  RawModel rm2;
  ASSERT_EQ(rm2.addOperand({ANEURALNETWORKS_MODEL, 0, nullptr, 0.f, 0}), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromModel(rm2.m, 0, broken.m), ANEURALNETWORKS_BAD_STATE);
}

// ---------------------------------------------------------------------------------------------
// addOperation

TEST(ApiModel, AddOperationRules) {
  RawModel rm;
  ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);       // 0
  ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);       // 1
  ASSERT_EQ(rm.addOperand(kInt32Scalar), ANEURALNETWORKS_NO_ERROR);  // 2
  ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);       // 3
  const uint32_t int4dims[] = {4};
  ASSERT_EQ(rm.addOperand({ANEURALNETWORKS_TENSOR_INT32, 1, int4dims, 0.f, 0}), ANEURALNETWORKS_NO_ERROR);  // 4
  const int32_t act = 0;
  ASSERT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 2, &act, sizeof(act)), ANEURALNETWORKS_NO_ERROR);
  const uint32_t in[] = {0, 1, 2}, out[] = {3};

  EXPECT_EQ(ANeuralNetworksModel_addOperation(nullptr, ANEURALNETWORKS_ADD, 3, in, 1, out), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksModel_addOperation(rm.m, ANEURALNETWORKS_ADD, 3, nullptr, 1, out), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksModel_addOperation(rm.m, ANEURALNETWORKS_ADD, 3, in, 1, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  // Unknown operation codes.
  EXPECT_EQ(ANeuralNetworksModel_addOperation(rm.m, 9999, 3, in, 1, out), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_addOperation(rm.m, -5, 3, in, 1, out), ANEURALNETWORKS_BAD_DATA);
  // Operand index out of range, as input and as output.
  const uint32_t badIn[] = {0, 17, 2}, badOut[] = {5};
  EXPECT_EQ(ANeuralNetworksModel_addOperation(rm.m, ANEURALNETWORKS_ADD, 3, badIn, 1, out), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_addOperation(rm.m, ANEURALNETWORKS_ADD, 3, in, 1, badOut), ANEURALNETWORKS_BAD_DATA);
  // Signatures ADD never has: two inputs; two outputs; float inputs writing an int tensor;
  // a tensor where the activation scalar belongs.
  EXPECT_EQ(ANeuralNetworksModel_addOperation(rm.m, ANEURALNETWORKS_ADD, 2, in, 1, out), ANEURALNETWORKS_BAD_DATA);
  const uint32_t twoOut[] = {3, 4};
  EXPECT_EQ(ANeuralNetworksModel_addOperation(rm.m, ANEURALNETWORKS_ADD, 3, in, 2, twoOut), ANEURALNETWORKS_BAD_DATA);
  const uint32_t intOut[] = {4};
  EXPECT_EQ(ANeuralNetworksModel_addOperation(rm.m, ANEURALNETWORKS_ADD, 3, in, 1, intOut), ANEURALNETWORKS_BAD_DATA);
  const uint32_t tensorAct[] = {0, 1, 1};
  EXPECT_EQ(ANeuralNetworksModel_addOperation(rm.m, ANEURALNETWORKS_ADD, 3, tensorAct, 1, out), ANEURALNETWORKS_BAD_DATA);

  // None of the rejected calls left an operation behind: otherwise finish would see operand 3
  // written several times.
  EXPECT_EQ(ANeuralNetworksModel_addOperation(rm.m, ANEURALNETWORKS_ADD, 3, in, 1, out), ANEURALNETWORKS_NO_ERROR);
  const int32_t unused[4] = {};  // operand 4 only served as a bad output; a constant needs no writer
  ASSERT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 4, unused, sizeof(unused)), ANEURALNETWORKS_NO_ERROR);
  const uint32_t mi[] = {0, 1}, mo[] = {3};
  ASSERT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 2, mi, 1, mo), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_addOperation(rm.m, ANEURALNETWORKS_ADD, 3, in, 1, out), ANEURALNETWORKS_BAD_STATE);
}

// ---------------------------------------------------------------------------------------------
// identifyInputsAndOutputs

TEST(ApiModel, IdentifyInputsAndOutputsRules) {
  RawModel rm;
  buildAdd(rm, /*identify=*/false);
  const uint32_t mi[] = {0, 1}, mo[] = {3};
  EXPECT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(nullptr, 2, mi, 1, mo), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 2, nullptr, 1, mo), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 2, mi, 1, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  // Out of range.
  const uint32_t oob[] = {0, 4};
  EXPECT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 2, oob, 1, mo), ANEURALNETWORKS_BAD_DATA);
  const uint32_t oobOut[] = {99};
  EXPECT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 2, mi, 1, oobOut), ANEURALNETWORKS_BAD_DATA);
  // A constant (operand 2 holds the activation) as input or output.
  const uint32_t constIn[] = {0, 1, 2};
  EXPECT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 3, constIn, 1, mo), ANEURALNETWORKS_BAD_DATA);
  const uint32_t constOut[] = {3, 2};
  EXPECT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 2, mi, 2, constOut), ANEURALNETWORKS_BAD_DATA);
  // Duplicates in one list, and one operand both input and output.
  const uint32_t dupIn[] = {0, 0};
  EXPECT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 2, dupIn, 1, mo), ANEURALNETWORKS_BAD_DATA);
  const uint32_t dupOut[] = {3, 3};
  EXPECT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 2, mi, 2, dupOut), ANEURALNETWORKS_BAD_DATA);
  const uint32_t inIsOut[] = {1};
  EXPECT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 2, mi, 1, inIsOut), ANEURALNETWORKS_BAD_DATA);

  // Rejected calls leave no half-made declaration: the valid call works and the model finishes.
  EXPECT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 2, mi, 1, mo), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 2, mi, 1, mo), ANEURALNETWORKS_BAD_STATE);
}

TEST(ApiModel, RelaxComputationRules) {
  RawModel rm;
  buildAdd(rm);
  EXPECT_EQ(ANeuralNetworksModel_relaxComputationFloat32toFloat16(nullptr, true), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksModel_relaxComputationFloat32toFloat16(rm.m, true), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_relaxComputationFloat32toFloat16(rm.m, false), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_relaxComputationFloat32toFloat16(rm.m, true), ANEURALNETWORKS_BAD_STATE);
}

// ---------------------------------------------------------------------------------------------
// finish

TEST(ApiModel, FinishNullAndTwice) {
  EXPECT_EQ(ANeuralNetworksModel_finish(nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  RawModel rm;
  buildAdd(rm);
  EXPECT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_BAD_STATE);
}

TEST(ApiModel, FinishWithoutIdentifyIsBadData) {
  RawModel rm;
  buildAdd(rm, /*identify=*/false);
  EXPECT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_BAD_DATA);
}

TEST(ApiModel, FinishEmptyModelIsBadData) {
  RawModel rm;
  EXPECT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_BAD_DATA);
}

// After a failed finish the model is invalid for good: every later call is BAD_STATE, and it
// cannot be compiled or queried.
void expectInvalidAfterFailedFinish(RawModel& rm) {
  EXPECT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_BAD_STATE);
  const int32_t act = 0;
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 2, &act, sizeof(act)), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_BAD_STATE);
  ANeuralNetworksCompilation* c = reinterpret_cast<ANeuralNetworksCompilation*>(0x1);
  EXPECT_EQ(ANeuralNetworksCompilation_create(rm.m, &c), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(c, nullptr);
  auto devices = allDevices();
  bool supported[4] = {};
  EXPECT_EQ(ANeuralNetworksModel_getSupportedOperationsForDevices(rm.m, devices.data(), 1, supported),
            ANEURALNETWORKS_BAD_STATE);
}

TEST(ApiModel, FinishOperandNeverWritten) {
  RawModel rm;
  // ADD(0,1,2) -> 3, but the model output is operand 4, which nothing writes.
  buildAdd(rm, /*identify=*/false);
  ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);  // 4
  const uint32_t mi[] = {0, 1}, mo[] = {3, 4};
  ASSERT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 2, mi, 2, mo), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_BAD_DATA);
  EXPECT_NE(lastError().find("4"), std::string::npos) << lastError();
  expectInvalidAfterFailedFinish(rm);
}

TEST(ApiModel, FinishTemporaryNeverWritten) {
  RawModel rm;
  // ADD(0, 4, act) -> 3 where operand 4 is neither input, constant nor written.
  ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(rm.addOperand(kInt32Scalar), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);
  const int32_t act = 0;
  ASSERT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 2, &act, sizeof(act)), ANEURALNETWORKS_NO_ERROR);
  const uint32_t in[] = {0, 4, 2}, out[] = {3};
  ASSERT_EQ(ANeuralNetworksModel_addOperation(rm.m, ANEURALNETWORKS_ADD, 3, in, 1, out), ANEURALNETWORKS_NO_ERROR);
  const uint32_t mi[] = {0, 1}, mo[] = {3};
  ASSERT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 2, mi, 1, mo), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_BAD_DATA);
  expectInvalidAfterFailedFinish(rm);
}

TEST(ApiModel, FinishOperandWrittenTwice) {
  RawModel rm;
  buildAdd(rm, /*identify=*/false);
  const uint32_t in[] = {1, 0, 2}, out[] = {3};
  ASSERT_EQ(ANeuralNetworksModel_addOperation(rm.m, ANEURALNETWORKS_ADD, 3, in, 1, out), ANEURALNETWORKS_NO_ERROR);
  const uint32_t mi[] = {0, 1}, mo[] = {3};
  ASSERT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 2, mi, 1, mo), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_BAD_DATA);
  expectInvalidAfterFailedFinish(rm);
}

TEST(ApiModel, FinishModelInputWrittenByOperation) {
  RawModel rm;
  buildAdd(rm, /*identify=*/false);
  const uint32_t in[] = {3, 3, 2}, out[] = {0};
  ASSERT_EQ(ANeuralNetworksModel_addOperation(rm.m, ANEURALNETWORKS_ADD, 3, in, 1, out), ANEURALNETWORKS_NO_ERROR);
  const uint32_t mi[] = {0, 1}, mo[] = {3};
  ASSERT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 2, mi, 1, mo), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_BAD_DATA);
}

TEST(ApiModel, FinishCycleIsBadData) {
  RawModel rm;
  // t0 = ADD(in0, t1); t1 = ADD(t0, in1): each temporary is written exactly once, but the two
  // operations depend on each other.
  ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);       // 0 in0
  ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);       // 1 in1
  ASSERT_EQ(rm.addOperand(kInt32Scalar), ANEURALNETWORKS_NO_ERROR);  // 2 act
  ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);       // 3 t0
  ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);       // 4 t1
  ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);       // 5 out
  const int32_t act = 0;
  ASSERT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 2, &act, sizeof(act)), ANEURALNETWORKS_NO_ERROR);
  const uint32_t a[] = {0, 4, 2}, ao[] = {3};
  const uint32_t b[] = {3, 1, 2}, bo[] = {4};
  const uint32_t c[] = {3, 4, 2}, co[] = {5};
  ASSERT_EQ(ANeuralNetworksModel_addOperation(rm.m, ANEURALNETWORKS_ADD, 3, a, 1, ao), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksModel_addOperation(rm.m, ANEURALNETWORKS_ADD, 3, b, 1, bo), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksModel_addOperation(rm.m, ANEURALNETWORKS_ADD, 3, c, 1, co), ANEURALNETWORKS_NO_ERROR);
  const uint32_t mi[] = {0, 1}, mo[] = {5};
  ASSERT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 2, mi, 1, mo), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_BAD_DATA);
  EXPECT_NE(lastError().find("cycle"), std::string::npos) << lastError();
  expectInvalidAfterFailedFinish(rm);
}

TEST(ApiModel, FinishSelfLoopIsBadData) {
  RawModel rm;
  ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);       // 0
  ASSERT_EQ(rm.addOperand(kInt32Scalar), ANEURALNETWORKS_NO_ERROR);  // 1
  ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);       // 2
  const int32_t act = 0;
  ASSERT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 1, &act, sizeof(act)), ANEURALNETWORKS_NO_ERROR);
  const uint32_t in[] = {0, 2, 1}, out[] = {2};
  ASSERT_EQ(ANeuralNetworksModel_addOperation(rm.m, ANEURALNETWORKS_ADD, 3, in, 1, out), ANEURALNETWORKS_NO_ERROR);
  const uint32_t mi[] = {0}, mo[] = {2};
  ASSERT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 1, mi, 1, mo), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_BAD_DATA);
}

// ---------------------------------------------------------------------------------------------
// getSupportedOperationsForDevices

TEST(ApiModel, GetSupportedOperationsForDevicesRules) {
  auto devices = allDevices();
  ASSERT_GE(devices.size(), 2u);
  RawModel rm;
  buildAdd(rm);
  bool supported[2] = {false, true};
  // Unfinished model.
  EXPECT_EQ(ANeuralNetworksModel_getSupportedOperationsForDevices(rm.m, devices.data(), 1, supported),
            ANEURALNETWORKS_BAD_STATE);
  ASSERT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_NO_ERROR);

  EXPECT_EQ(ANeuralNetworksModel_getSupportedOperationsForDevices(nullptr, devices.data(), 1, supported),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksModel_getSupportedOperationsForDevices(rm.m, nullptr, 1, supported),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksModel_getSupportedOperationsForDevices(rm.m, devices.data(), 1, nullptr),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  const ANeuralNetworksDevice* withNull[] = {devices[0], nullptr};
  EXPECT_EQ(ANeuralNetworksModel_getSupportedOperationsForDevices(rm.m, withNull, 2, supported),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksModel_getSupportedOperationsForDevices(rm.m, devices.data(), 0, supported),
            ANEURALNETWORKS_BAD_DATA);
  const ANeuralNetworksDevice* dup[] = {devices[1], devices[1]};
  EXPECT_EQ(ANeuralNetworksModel_getSupportedOperationsForDevices(rm.m, dup, 2, supported),
            ANEURALNETWORKS_BAD_DATA);

  // Each device alone and both together support the single ADD; entries past the operation
  // count are not touched.
  for (size_t i = 0; i < devices.size(); ++i) {
    supported[0] = false;
    supported[1] = true;
    EXPECT_EQ(ANeuralNetworksModel_getSupportedOperationsForDevices(rm.m, &devices[i], 1, supported),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_TRUE(supported[0]) << "device " << i;
    EXPECT_TRUE(supported[1]);
  }
  supported[0] = false;
  EXPECT_EQ(ANeuralNetworksModel_getSupportedOperationsForDevices(rm.m, devices.data(), devices.size(), supported),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_TRUE(supported[0]);
}

// ---------------------------------------------------------------------------------------------
// Compilation

struct FinishedAddModel {
  RawModel rm;
  FinishedAddModel() {
    buildAdd(rm);
    EXPECT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_NO_ERROR);
  }
};

TEST(ApiCompilation, CreateRules) {
  ANeuralNetworksCompilation* c = nullptr;
  FinishedAddModel fm;
  EXPECT_EQ(ANeuralNetworksCompilation_create(fm.rm.m, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  c = reinterpret_cast<ANeuralNetworksCompilation*>(0x1);
  EXPECT_EQ(ANeuralNetworksCompilation_create(nullptr, &c), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(c, nullptr);

  // Unfinished model: the reference's BAD_STATE (ABI.md §6.1), with *compilation = NULL.
  RawModel unfinished;
  buildAdd(unfinished);
  c = reinterpret_cast<ANeuralNetworksCompilation*>(0x1);
  EXPECT_EQ(ANeuralNetworksCompilation_create(unfinished.m, &c), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(c, nullptr);

  EXPECT_EQ(ANeuralNetworksCompilation_create(fm.rm.m, &c), ANEURALNETWORKS_NO_ERROR);
  ASSERT_NE(c, nullptr);
  ANeuralNetworksCompilation_free(c);
  ANeuralNetworksCompilation_free(nullptr);  // no-op
}

TEST(ApiCompilation, CreateForDevicesRules) {
  auto devices = allDevices();
  ASSERT_GE(devices.size(), 2u);
  FinishedAddModel fm;
  ANeuralNetworksCompilation* c = reinterpret_cast<ANeuralNetworksCompilation*>(0x1);

  EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(fm.rm.m, devices.data(), 1, nullptr),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(nullptr, devices.data(), 1, &c),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(c, nullptr);
  c = reinterpret_cast<ANeuralNetworksCompilation*>(0x1);
  EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(fm.rm.m, nullptr, 1, &c),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(c, nullptr);
  const ANeuralNetworksDevice* withNull[] = {devices[0], nullptr};
  EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(fm.rm.m, withNull, 2, &c),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(c, nullptr);
  c = reinterpret_cast<ANeuralNetworksCompilation*>(0x1);
  EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(fm.rm.m, devices.data(), 0, &c),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(c, nullptr);
  const ANeuralNetworksDevice* dup[] = {devices[0], devices[1], devices[0]};
  EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(fm.rm.m, dup, 3, &c), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(c, nullptr);
  // A pointer that is no device handle of this runtime.
  int notADevice = 0;
  const ANeuralNetworksDevice* bogus[] = {reinterpret_cast<const ANeuralNetworksDevice*>(&notADevice)};
  EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(fm.rm.m, bogus, 1, &c), ANEURALNETWORKS_BAD_DATA);
  // Unfinished model.
  RawModel unfinished;
  buildAdd(unfinished);
  EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(unfinished.m, devices.data(), 1, &c),
            ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(c, nullptr);

  EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(fm.rm.m, devices.data(), 2, &c),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksCompilation_free(c);
}

TEST(ApiCompilation, PreferencePriorityCachingRules) {
  FinishedAddModel fm;
  ANeuralNetworksCompilation* c = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_create(fm.rm.m, &c), ANEURALNETWORKS_NO_ERROR);

  EXPECT_EQ(ANeuralNetworksCompilation_setPreference(nullptr, 0), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksCompilation_setPreference(c, 3), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksCompilation_setPreference(c, 1000), ANEURALNETWORKS_BAD_DATA);
  for (int32_t p : {ANEURALNETWORKS_PREFER_LOW_POWER, ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER,
                    ANEURALNETWORKS_PREFER_SUSTAINED_SPEED})
    EXPECT_EQ(ANeuralNetworksCompilation_setPreference(c, p), ANEURALNETWORKS_NO_ERROR) << p;

  EXPECT_EQ(ANeuralNetworksCompilation_setPriority(nullptr, 100), ANEURALNETWORKS_UNEXPECTED_NULL);
  for (int bad : {0, 89, 95, 111, -100})
    EXPECT_EQ(ANeuralNetworksCompilation_setPriority(c, bad), ANEURALNETWORKS_BAD_DATA) << bad;
  for (int ok : {ANEURALNETWORKS_PRIORITY_LOW, ANEURALNETWORKS_PRIORITY_MEDIUM, ANEURALNETWORKS_PRIORITY_HIGH})
    EXPECT_EQ(ANeuralNetworksCompilation_setPriority(c, ok), ANEURALNETWORKS_NO_ERROR) << ok;

  uint8_t token[ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN] = {};
  EXPECT_EQ(ANeuralNetworksCompilation_setCaching(nullptr, "/tmp", token), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksCompilation_setCaching(c, nullptr, token), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksCompilation_setCaching(c, "/tmp", nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksCompilation_setCaching(c, "/tmp", token), ANEURALNETWORKS_NO_ERROR);

  ASSERT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_setPreference(c, 1), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(ANeuralNetworksCompilation_setPriority(c, 100), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(ANeuralNetworksCompilation_setCaching(c, "/tmp", token), ANEURALNETWORKS_BAD_STATE);
  ANeuralNetworksCompilation_free(c);
}

TEST(ApiCompilation, SetTimeoutNeedsSingleExplicitDevice) {
  auto devices = allDevices();
  ASSERT_GE(devices.size(), 2u);
  FinishedAddModel fm;
  EXPECT_EQ(ANeuralNetworksCompilation_setTimeout(nullptr, 1000), ANEURALNETWORKS_UNEXPECTED_NULL);

  ANeuralNetworksCompilation* implicit = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_create(fm.rm.m, &implicit), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_setTimeout(implicit, 1000000000), ANEURALNETWORKS_BAD_DATA);
  ANeuralNetworksCompilation_free(implicit);

  ANeuralNetworksCompilation* two = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_createForDevices(fm.rm.m, devices.data(), 2, &two), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_setTimeout(two, 1000000000), ANEURALNETWORKS_BAD_DATA);
  ANeuralNetworksCompilation_free(two);

  ANeuralNetworksCompilation* one = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_createForDevices(fm.rm.m, devices.data(), 1, &one), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_setTimeout(one, 10000000000ull), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_setTimeout(one, 0), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(one), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_setTimeout(one, 1000), ANEURALNETWORKS_BAD_STATE);
  ANeuralNetworksCompilation_free(one);
}

TEST(ApiCompilation, FinishRules) {
  FinishedAddModel fm;
  EXPECT_EQ(ANeuralNetworksCompilation_finish(nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  ANeuralNetworksCompilation* c = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_create(fm.rm.m, &c), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_BAD_STATE);
  ANeuralNetworksCompilation_free(c);
}

TEST(ApiCompilation, PreferredMemoryQueries) {
  FinishedAddModel fm;
  ANeuralNetworksCompilation* c = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_create(fm.rm.m, &c), ANEURALNETWORKS_NO_ERROR);
  using Query = int (*)(const ANeuralNetworksCompilation*, uint32_t, uint32_t*);
  struct Q {
    const char* name;
    Query fn;
    uint32_t count;  // model inputs or outputs
  };
  const Q queries[] = {
      {"AlignmentForInput", ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput, 2},
      {"PaddingForInput", ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput, 2},
      {"AlignmentForOutput", ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput, 1},
      {"PaddingForOutput", ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput, 1},
  };
  uint32_t v = 0;
  for (const Q& q : queries) {
    SCOPED_TRACE(q.name);
    EXPECT_EQ(q.fn(c, 0, &v), ANEURALNETWORKS_BAD_STATE);  // not finished yet
    EXPECT_EQ(q.fn(nullptr, 0, &v), ANEURALNETWORKS_UNEXPECTED_NULL);
    EXPECT_EQ(q.fn(c, 0, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  }
  ASSERT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  for (const Q& q : queries) {
    SCOPED_TRACE(q.name);
    for (uint32_t i = 0; i < q.count; ++i) {
      v = 0;
      EXPECT_EQ(q.fn(c, i, &v), ANEURALNETWORKS_NO_ERROR);
      EXPECT_GT(v, 0u);
      EXPECT_EQ(v & (v - 1), 0u) << v << " is not a power of two";
    }
    EXPECT_EQ(q.fn(c, q.count, &v), ANEURALNETWORKS_BAD_DATA);
    EXPECT_EQ(q.fn(c, UINT32_MAX, &v), ANEURALNETWORKS_BAD_DATA);
  }
  ANeuralNetworksCompilation_free(c);
}

TEST(ApiCompilation, ReferenceDeviceCompilesAndExtensionAttributeRules) {
  const ANeuralNetworksDevice* ref = deviceNamed("nnapi-cpu-reference");
  ASSERT_NE(ref, nullptr);
  FinishedAddModel fm;
  ANeuralNetworksCompilation* c = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_createForDevices(fm.rm.m, &ref, 1, &c), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_addExtensionAttribute(nullptr, "x", 0, nullptr, 0),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksCompilation_addExtensionAttribute(c, nullptr, 0, nullptr, 0),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksCompilation_addExtensionAttribute(c, "x", 0, nullptr, 4),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  const int data = 1;
  EXPECT_EQ(ANeuralNetworksCompilation_addExtensionAttribute(c, "x", 0, &data, sizeof(data)),
            ANEURALNETWORKS_BAD_STATE);
  ANeuralNetworksCompilation_free(c);
}

TEST(ApiModel, FinishRejectsOperationWritingAConstant) {
  RawModel rm;
  buildAdd(rm, /*identify=*/false);
  ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);  // 4: constant
  const float v[4] = {};
  ASSERT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 4, v, sizeof(v)), ANEURALNETWORKS_NO_ERROR);
  const uint32_t in[] = {0, 1, 2}, out[] = {4};
  ASSERT_EQ(ANeuralNetworksModel_addOperation(rm.m, ANEURALNETWORKS_ADD, 3, in, 1, out), ANEURALNETWORKS_NO_ERROR);
  const uint32_t mi[] = {0, 1}, mo[] = {3};
  ASSERT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 2, mi, 1, mo), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_BAD_DATA);
}

TEST(ApiModel, ModelInputTurnedConstantIsNeverAccepted) {
  // Operand 0 is declared a model input, then given a value. Either the value is refused or
  // finish rejects the model: an operand cannot be both an input and a constant.
  RawModel rm;
  buildAdd(rm);
  const float v[4] = {1, 2, 3, 4};
  const int r = ANeuralNetworksModel_setOperandValue(rm.m, 0, v, sizeof(v));
  if (r == ANEURALNETWORKS_NO_ERROR) {
    EXPECT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_BAD_DATA);
  } else {
    EXPECT_EQ(r, ANEURALNETWORKS_BAD_DATA);
  }
}

TEST(ApiModel, GetSupportedOperationsRejectsForeignDeviceHandle) {
  RawModel rm;
  buildAdd(rm);
  ASSERT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_NO_ERROR);
  int notADevice = 0;
  const ANeuralNetworksDevice* bogus[] = {reinterpret_cast<const ANeuralNetworksDevice*>(&notADevice)};
  bool supported[1] = {};
  EXPECT_EQ(ANeuralNetworksModel_getSupportedOperationsForDevices(rm.m, bogus, 1, supported), ANEURALNETWORKS_BAD_DATA);
}

TEST(ApiModel, ReidentifyIsRejected) {
  // Issue 9: the inputs and outputs are declared once; a second identifyInputsAndOutputs is
  // BAD_STATE and the first declaration stays in force.
  RawModel rm;
  buildAdd(rm);
  const uint32_t mi[] = {1, 0}, mo[] = {3};
  ASSERT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 2, mi, 1, mo), ANEURALNETWORKS_BAD_STATE);
  const std::string message = ANNLinux_getLastErrorMessage();
  EXPECT_NE(message.find("already identified"), std::string::npos) << message;
  ASSERT_EQ(ANeuralNetworksModel_finish(rm.m), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksCompilation* c = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_create(rm.m, &c), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
  const float a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40};
  float out[4] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, a, 16), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 1, nullptr, b, 16), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, 16), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
  for (int i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(out[i], a[i] + b[i]);
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksCompilation_free(c);
}

TEST(ApiModel, DeclaredShapeContradictingInferenceIsAnError) {
  // out is declared {5} but ADD of two {4} tensors yields {4}. Some stage (finish, compilation
  // or computation) must report an error; none may write 4 floats into a 5-float promise
  // silently or crash.
  for (const char* device : {"nnapi-cpu", "nnapi-cpu-reference"}) {
    SCOPED_TRACE(device);
    RawModel rm;
    const uint32_t d5[] = {5};
    ASSERT_EQ(rm.addOperand(kFloat4), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(rm.addOperand(kInt32Scalar), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(rm.addOperand({ANEURALNETWORKS_TENSOR_FLOAT32, 1, d5, 0.f, 0}), ANEURALNETWORKS_NO_ERROR);
    const int32_t act = 0;
    ASSERT_EQ(ANeuralNetworksModel_setOperandValue(rm.m, 1, &act, sizeof(act)), ANEURALNETWORKS_NO_ERROR);
    const uint32_t in[] = {0, 0, 1}, out[] = {2};
    const int addResult = ANeuralNetworksModel_addOperation(rm.m, ANEURALNETWORKS_ADD, 3, in, 1, out);
    if (addResult != ANEURALNETWORKS_NO_ERROR) {
      EXPECT_EQ(addResult, ANEURALNETWORKS_BAD_DATA);
      continue;
    }
    const uint32_t mi[] = {0}, mo[] = {2};
    ASSERT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(rm.m, 1, mi, 1, mo), ANEURALNETWORKS_NO_ERROR);
    int r = ANeuralNetworksModel_finish(rm.m);
    if (r != ANEURALNETWORKS_NO_ERROR) {
      EXPECT_EQ(r, ANEURALNETWORKS_BAD_DATA);
      continue;
    }
    const ANeuralNetworksDevice* d = deviceNamed(device);
    ANeuralNetworksCompilation* c = nullptr;
    ASSERT_EQ(ANeuralNetworksCompilation_createForDevices(rm.m, &d, 1, &c), ANEURALNETWORKS_NO_ERROR);
    r = ANeuralNetworksCompilation_finish(c);
    if (r == ANEURALNETWORKS_NO_ERROR) {
      ANeuralNetworksExecution* e = nullptr;
      ASSERT_EQ(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
      float a[4] = {1, 2, 3, 4}, o[5] = {};
      ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, a, sizeof(a)), ANEURALNETWORKS_NO_ERROR);
      ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, o, sizeof(o)), ANEURALNETWORKS_NO_ERROR);
      r = ANeuralNetworksExecution_compute(e);
      ANeuralNetworksExecution_free(e);
    }
    EXPECT_NE(r, ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksCompilation_free(c);
  }
}

}  // namespace
