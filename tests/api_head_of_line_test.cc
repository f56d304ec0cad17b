// Issue 9, "head-of-line blocking ignores deadlines": a short execution with a deadline must
// not wait behind a long execution of the same compilation (executions of one compilation run
// concurrently), so it finishes in time instead of reporting a missed deadline after the long
// one is done.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "test_util.h"

namespace {

using nntest::ModelBuilder;
using Clock = std::chrono::steady_clock;

// out = WHILE (i < n) i = i + 1, starting from i0: the work grows with the input n.
struct CountingLoop {
  ModelBuilder cond, body, main;
  CountingLoop() {
    const std::vector<uint32_t> one = {1};
    {
      const uint32_t i = cond.addOperand(ANEURALNETWORKS_TENSOR_INT32, one);
      const uint32_t n = cond.addOperand(ANEURALNETWORKS_TENSOR_INT32, one);
      const uint32_t less = cond.addOperand(ANEURALNETWORKS_TENSOR_BOOL8, one);
      cond.addOperation(ANEURALNETWORKS_LESS, {i, n}, {less});
      EXPECT_EQ(cond.finish({i, n}, {less}), ANEURALNETWORKS_NO_ERROR);
    }
    {
      const uint32_t i = body.addOperand(ANEURALNETWORKS_TENSOR_INT32, one);
      const uint32_t n = body.addOperand(ANEURALNETWORKS_TENSOR_INT32, one);
      const uint32_t step = body.addConstant<int32_t>(ANEURALNETWORKS_TENSOR_INT32, one, {1});
      const uint32_t act = body.addInt32(0);
      const uint32_t next = body.addOperand(ANEURALNETWORKS_TENSOR_INT32, one);
      body.addOperation(ANEURALNETWORKS_ADD, {i, step, act}, {next});
      EXPECT_EQ(body.finish({i, n}, {next}), ANEURALNETWORKS_NO_ERROR);
    }
    const uint32_t condRef = main.addOperand(ANEURALNETWORKS_MODEL);
    const uint32_t bodyRef = main.addOperand(ANEURALNETWORKS_MODEL);
    EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromModel(main.get(), condRef, cond.get()),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromModel(main.get(), bodyRef, body.get()),
              ANEURALNETWORKS_NO_ERROR);
    const uint32_t i0 = main.addOperand(ANEURALNETWORKS_TENSOR_INT32, one);
    const uint32_t n = main.addOperand(ANEURALNETWORKS_TENSOR_INT32, one);
    const uint32_t out = main.addOperand(ANEURALNETWORKS_TENSOR_INT32, one);
    main.addOperation(ANEURALNETWORKS_WHILE, {condRef, bodyRef, i0, n}, {out});
    EXPECT_EQ(main.finish({i0, n}, {out}), ANEURALNETWORKS_NO_ERROR);
  }
};

struct Outcome {
  int status = -1;
  int32_t result = -1;
  double seconds = 0;
  std::string message;
};

// One computation counting to n; timeoutNs 0 = no deadline.
Outcome count(ANeuralNetworksCompilation* c, int32_t n, uint64_t timeoutNs) {
  Outcome o;
  ANeuralNetworksExecution* e = nullptr;
  EXPECT_EQ(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
  const int32_t i0 = 0;
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, &i0, sizeof(i0)),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 1, nullptr, &n, sizeof(n)),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, &o.result, sizeof(o.result)),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setLoopTimeout(e, ANeuralNetworks_getMaximumLoopTimeout()),
            ANEURALNETWORKS_NO_ERROR);
  if (timeoutNs != 0) {
    EXPECT_EQ(ANeuralNetworksExecution_setTimeout(e, timeoutNs), ANEURALNETWORKS_NO_ERROR);
  }
  const auto t0 = Clock::now();
  o.status = ANeuralNetworksExecution_compute(e);
  o.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  o.message = ANNLinux_getLastErrorMessage();
  ANeuralNetworksExecution_free(e);
  return o;
}

TEST(ApiHeadOfLine, ShortExecutionDoesNotWaitBehindALongOne) {
  CountingLoop loop;
  ANeuralNetworksDevice* cpu = nullptr;
  uint32_t devices = 0;
  ANeuralNetworks_getDeviceCount(&devices);
  for (uint32_t i = 0; i < devices; ++i) {
    ANeuralNetworksDevice* d = nullptr;
    const char* name = nullptr;
    ANeuralNetworks_getDevice(i, &d);
    ANeuralNetworksDevice_getName(d, &name);
    if (std::string(name) == "nnapi-cpu") cpu = d;
  }
  ASSERT_NE(cpu, nullptr);
  const ANeuralNetworksDevice* list[] = {cpu};
  ANeuralNetworksCompilation* c = nullptr;
  // One device named explicitly: setTimeout is allowed.
  ASSERT_EQ(ANeuralNetworksCompilation_createForDevices(loop.main.get(), list, 1, &c),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);

  // Calibrate a long computation (>= 0.5 s here, whatever the machine or sanitizer).
  int32_t n = 1000;
  Outcome alone = count(c, n, 0);
  ASSERT_EQ(alone.status, ANEURALNETWORKS_NO_ERROR) << alone.message;
  ASSERT_EQ(alone.result, n);
  while (alone.seconds < 0.5 && n < (1 << 28)) {
    n *= 4;
    alone = count(c, n, 0);
    ASSERT_EQ(alone.status, ANEURALNETWORKS_NO_ERROR) << alone.message;
  }
  ASSERT_GE(alone.seconds, 0.5) << "could not make a long computation";

  // The long one on another thread; the short one, with a deadline of a quarter of the long
  // one's duration, starts while the long one runs. Waiting behind it would miss the deadline.
  std::atomic<bool> started{false};
  Outcome longRun;
  std::thread t([&] {
    started = true;
    longRun = count(c, n, 0);
  });
  while (!started) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const uint64_t deadline = static_cast<uint64_t>(alone.seconds / 4 * 1e9);
  const Outcome shortRun = count(c, 3, deadline);
  t.join();
  EXPECT_EQ(shortRun.status, ANEURALNETWORKS_NO_ERROR) << shortRun.message;
  EXPECT_EQ(shortRun.result, 3);
  EXPECT_EQ(longRun.status, ANEURALNETWORKS_NO_ERROR) << longRun.message;
  EXPECT_EQ(longRun.result, n);
  // Reported so a regression is visible in the log.
  printf("long computation %.3f s (alone %.3f s), short one with a %.3f s deadline took %.6f s\n",
         longRun.seconds, alone.seconds, deadline / 1e9, shortRun.seconds);
  ANeuralNetworksCompilation_free(c);
}

}  // namespace
