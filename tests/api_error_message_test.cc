// Errors are values: the reason for a failed call reaches ANNLinux_getLastErrorMessage() on the
// thread that observes the failure: the caller of a synchronous computation, the thread that
// waits on the event of an asynchronous or fenced one. A successful call clears it.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

namespace {

using nntest::ModelBuilder;

std::string lastError() { return ANNLinux_getLastErrorMessage(); }

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

// out = ADD(a, b) over rank-1 float tensors whose lengths are only known at execution.
void buildDynamicAdd(ModelBuilder& mb) {
  const uint32_t a = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {0});
  const uint32_t b = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {0});
  const uint32_t act = mb.addInt32(0);
  const uint32_t out = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {0});
  mb.addOperation(ANEURALNETWORKS_ADD, {a, b, act}, {out});
  ASSERT_EQ(mb.finish({a, b}, {out}), ANEURALNETWORKS_NO_ERROR);
}

// out = EMBEDDING_LOOKUP(lookups, values) with a 2x2 constant table: a lookup index outside
// [0, 2) makes the kernel itself fail during the computation.
void buildLookup(ModelBuilder& mb) {
  const uint32_t lookups = mb.addOperand(ANEURALNETWORKS_TENSOR_INT32, {1});
  const uint32_t values =
      mb.addConstant<float>(ANEURALNETWORKS_TENSOR_FLOAT32, {2, 2}, {1.f, 2.f, 3.f, 4.f});
  const uint32_t out = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1, 2});
  mb.addOperation(ANEURALNETWORKS_EMBEDDING_LOOKUP, {lookups, values}, {out});
  ASSERT_EQ(mb.finish({lookups}, {out}), ANEURALNETWORKS_NO_ERROR);
}

// A finished compilation and one execution of it; freed in reverse order.
struct CompiledRun {
  ANeuralNetworksCompilation* compilation = nullptr;
  ANeuralNetworksExecution* execution = nullptr;
  explicit CompiledRun(const ModelBuilder& mb) {
    EXPECT_EQ(ANeuralNetworksCompilation_create(mb.get(), &compilation), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_create(compilation, &execution), ANEURALNETWORKS_NO_ERROR);
  }
  ~CompiledRun() {
    ANeuralNetworksExecution_free(execution);
    ANeuralNetworksCompilation_free(compilation);
  }
};

// Inputs of lengths 2 and 3: not broadcast-compatible, which only the computation finds out.
struct MismatchedAddArguments {
  float a[2] = {1.f, 2.f};
  float b[3] = {1.f, 2.f, 3.f};
  float out[3] = {};
  void bind(ANeuralNetworksExecution* e) {
    const uint32_t dimsA[] = {2}, dimsB[] = {3}, dimsOut[] = {3};
    const ANeuralNetworksOperandType typeA{ANEURALNETWORKS_TENSOR_FLOAT32, 1, dimsA, 0.f, 0};
    const ANeuralNetworksOperandType typeB{ANEURALNETWORKS_TENSOR_FLOAT32, 1, dimsB, 0.f, 0};
    const ANeuralNetworksOperandType typeOut{ANEURALNETWORKS_TENSOR_FLOAT32, 1, dimsOut, 0.f, 0};
    ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, &typeA, a, sizeof(a)),
              ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 1, &typeB, b, sizeof(b)),
              ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, &typeOut, out, sizeof(out)),
              ANEURALNETWORKS_NO_ERROR);
  }
};

void expectBroadcastFailure(const std::string& message) {
  EXPECT_TRUE(contains(message, "ADD")) << message;
  EXPECT_TRUE(contains(message, "broadcast")) << message;
  EXPECT_TRUE(contains(message, "[2]")) << message;
  EXPECT_TRUE(contains(message, "[3]")) << message;
}

TEST(ApiErrorMessage, SyncComputeFailureNamesTheOperation) {
  ModelBuilder mb;
  buildDynamicAdd(mb);
  CompiledRun run(mb);
  MismatchedAddArguments args;
  args.bind(run.execution);
  ANNLinux_clearLastErrorMessage();
  EXPECT_EQ(ANeuralNetworksExecution_compute(run.execution), ANEURALNETWORKS_OP_FAILED);
  const std::string message = lastError();
  EXPECT_TRUE(contains(message, "ANeuralNetworksExecution_compute")) << message;
  expectBroadcastFailure(message);
}

TEST(ApiErrorMessage, KernelFailureDuringComputeIsDescribed) {
  ModelBuilder mb;
  buildLookup(mb);
  CompiledRun run(mb);
  const int32_t lookups[1] = {7};
  float out[2] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(run.execution, 0, nullptr, lookups, sizeof(lookups)),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(run.execution, 0, nullptr, out, sizeof(out)),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_NE(ANeuralNetworksExecution_compute(run.execution), ANEURALNETWORKS_NO_ERROR);
  const std::string message = lastError();
  EXPECT_TRUE(contains(message, "EMBEDDING_LOOKUP")) << message;
  EXPECT_TRUE(contains(message, "out of range")) << message;
}

TEST(ApiErrorMessage, AsyncFailureIsReadableOnTheWaitingThread) {
  ModelBuilder mb;
  buildDynamicAdd(mb);
  CompiledRun run(mb);
  MismatchedAddArguments args;
  args.bind(run.execution);
  ANeuralNetworksEvent* event = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_startCompute(run.execution, &event), ANEURALNETWORKS_NO_ERROR);
  ASSERT_NE(event, nullptr);
  EXPECT_EQ(lastError(), "");
  // The computation runs on a worker thread; its reason belongs to whoever waits.
  EXPECT_EQ(ANeuralNetworksEvent_wait(event), ANEURALNETWORKS_OP_FAILED);
  const std::string message = lastError();
  expectBroadcastFailure(message);
  // Still there when read again, like after a synchronous failure.
  EXPECT_EQ(lastError(), message);
  // Waiting again reports the same failure with the same reason.
  ANNLinux_clearLastErrorMessage();
  EXPECT_EQ(ANeuralNetworksEvent_wait(event), ANEURALNETWORKS_OP_FAILED);
  EXPECT_EQ(lastError(), message);
  ANeuralNetworksEvent_free(event);
}

TEST(ApiErrorMessage, AsyncFailureIsReadableOnAnotherWaitingThread) {
  ModelBuilder mb;
  buildLookup(mb);
  CompiledRun run(mb);
  const int32_t lookups[1] = {-3};
  float out[2] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(run.execution, 0, nullptr, lookups, sizeof(lookups)),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(run.execution, 0, nullptr, out, sizeof(out)),
            ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksEvent* event = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_startCompute(run.execution, &event), ANEURALNETWORKS_NO_ERROR);
  int waitResult = ANEURALNETWORKS_NO_ERROR;
  std::string waiterMessage;
  std::thread waiter([&] {
    waitResult = ANeuralNetworksEvent_wait(event);
    waiterMessage = lastError();
  });
  waiter.join();
  EXPECT_NE(waitResult, ANEURALNETWORKS_NO_ERROR);
  EXPECT_TRUE(contains(waiterMessage, "EMBEDDING_LOOKUP")) << waiterMessage;
  EXPECT_TRUE(contains(waiterMessage, "-3")) << waiterMessage;
  // The starting thread made a successful call and did not wait: nothing to report here.
  EXPECT_EQ(lastError(), "");
  ANeuralNetworksEvent_free(event);
}

TEST(ApiErrorMessage, FencedFailureIsReadableAfterWait) {
  ModelBuilder mb;
  buildLookup(mb);
  CompiledRun run(mb);
  const int32_t lookups[1] = {2};
  float out[2] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(run.execution, 0, nullptr, lookups, sizeof(lookups)),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(run.execution, 0, nullptr, out, sizeof(out)),
            ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksEvent* event = nullptr;
  ASSERT_EQ(
      ANeuralNetworksExecution_startComputeWithDependencies(run.execution, nullptr, 0, 0, &event),
      ANEURALNETWORKS_NO_ERROR);
  ASSERT_NE(event, nullptr);
  EXPECT_NE(ANeuralNetworksEvent_wait(event), ANEURALNETWORKS_NO_ERROR);
  const std::string message = lastError();
  EXPECT_TRUE(contains(message, "EMBEDDING_LOOKUP")) << message;
  EXPECT_TRUE(contains(message, "out of range")) << message;
  ANeuralNetworksEvent_free(event);
}

TEST(ApiErrorMessage, BurstFailureNamesTheOperation) {
  ModelBuilder mb;
  buildDynamicAdd(mb);
  CompiledRun run(mb);
  MismatchedAddArguments args;
  args.bind(run.execution);
  ANeuralNetworksBurst* burst = nullptr;
  ASSERT_EQ(ANeuralNetworksBurst_create(run.compilation, &burst), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_burstCompute(run.execution, burst), ANEURALNETWORKS_OP_FAILED);
  const std::string message = lastError();
  EXPECT_TRUE(contains(message, "ANeuralNetworksExecution_burstCompute")) << message;
  expectBroadcastFailure(message);
  ANeuralNetworksBurst_free(burst);
}

TEST(ApiErrorMessage, PrepareFailureKeepsTheDriverReason) {
  // Valid as a model (finish accepts it: a declared output shape is the device's to check, as
  // in the reference runtime), but the driver finds at preparation that ADD of two [2] tensors
  // cannot fill the declared [3] output.
  ModelBuilder mb;
  const uint32_t a = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {2});
  const uint32_t act = mb.addInt32(0);
  const uint32_t out = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {3});
  mb.addOperation(ANEURALNETWORKS_ADD, {a, a, act}, {out});
  ASSERT_EQ(mb.finish({a}, {out}), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksCompilation* compilation = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_create(mb.get(), &compilation), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_BAD_DATA);
  const std::string message = lastError();
  EXPECT_TRUE(contains(message, "ANeuralNetworksCompilation_finish")) << message;
  EXPECT_TRUE(contains(message, "prepare")) << message;
  // The driver's own reason: the operation, the operand and both shapes.
  EXPECT_TRUE(contains(message, "ADD")) << message;
  EXPECT_TRUE(contains(message, "operand 2")) << message;
  EXPECT_TRUE(contains(message, "[3]")) << message;
  EXPECT_TRUE(contains(message, "[2]")) << message;
  ANeuralNetworksCompilation_free(compilation);
}

TEST(ApiErrorMessage, QueriesAfterAFailedComputationSayWhy) {
  ModelBuilder mb;
  buildDynamicAdd(mb);
  CompiledRun run(mb);
  MismatchedAddArguments args;
  args.bind(run.execution);
  ANeuralNetworksEvent* event = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_startCompute(run.execution, &event), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksEvent_wait(event), ANEURALNETWORKS_OP_FAILED);
  ANeuralNetworksEvent_free(event);
  uint32_t rank = 0;
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandRank(run.execution, 0, &rank),
            ANEURALNETWORKS_BAD_STATE);
  const std::string message = lastError();
  EXPECT_TRUE(contains(message, "ANeuralNetworksExecution_getOutputOperandRank")) << message;
  EXPECT_TRUE(contains(message, "failed")) << message;
  EXPECT_TRUE(contains(message, "broadcast")) << message;
}

TEST(ApiErrorMessage, NextSuccessfulCallClearsTheMessage) {
  ModelBuilder mb;
  buildDynamicAdd(mb);
  {
    CompiledRun run(mb);
    MismatchedAddArguments args;
    args.bind(run.execution);
    ANeuralNetworksEvent* event = nullptr;
    ASSERT_EQ(ANeuralNetworksExecution_startCompute(run.execution, &event),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksEvent_wait(event), ANEURALNETWORKS_OP_FAILED);
    EXPECT_NE(lastError(), "");
    ANeuralNetworksEvent_free(event);
    uint32_t count = 0;
    EXPECT_EQ(ANeuralNetworks_getDeviceCount(&count), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(lastError(), "");
  }
  // A rejected argument, then a successful computation on a fresh execution.
  CompiledRun run(mb);
  float a[2] = {1.f, 2.f}, out[2] = {};
  EXPECT_EQ(ANeuralNetworksExecution_setInput(run.execution, 0, nullptr, a, sizeof(a)),
            ANEURALNETWORKS_BAD_DATA);
  const std::string rejected = lastError();
  EXPECT_TRUE(contains(rejected, "ANeuralNetworksExecution_setInput")) << rejected;
  EXPECT_TRUE(contains(rejected, "input 0")) << rejected;
  const uint32_t dims[] = {2};
  const ANeuralNetworksOperandType type{ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0.f, 0};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(run.execution, 0, &type, a, sizeof(a)),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(lastError(), "");
  ASSERT_EQ(ANeuralNetworksExecution_setInput(run.execution, 1, &type, a, sizeof(a)),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(run.execution, 0, &type, out, sizeof(out)),
            ANEURALNETWORKS_NO_ERROR);
  // Leave a message behind, then succeed asynchronously: the successful wait clears it.
  EXPECT_EQ(ANeuralNetworksExecution_setLoopTimeout(nullptr, 1), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_NE(lastError(), "");
  ANeuralNetworksEvent* event = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_startCompute(run.execution, &event), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(lastError(), "");
  EXPECT_EQ(ANNLinux_getLastErrorMessage()[0], '\0');
  EXPECT_EQ(ANeuralNetworksExecution_setLoopTimeout(nullptr, 1), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksEvent_wait(event), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(lastError(), "");
  EXPECT_EQ(out[0], 2.f);
  EXPECT_EQ(out[1], 4.f);
  ANeuralNetworksEvent_free(event);
}

}  // namespace
