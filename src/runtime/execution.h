// ANeuralNetworksExecution, ANeuralNetworksEvent and ANeuralNetworksBurst.
#pragma once

#include <android/NeuralNetworks.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "hal/device.h"
#include "runtime/api_result.h"

namespace nn {

class RuntimeCompilation;
class RuntimeMemory;

// Completion signal of an asynchronous computation (or of a sync fence). It holds the
// computation's outcome, message included, so that whichever thread waits can record it.
class RuntimeEvent {
 public:
  // An event already signalled with `result`.
  static std::unique_ptr<RuntimeEvent> signalled(ApiResult result);
  // An event that completes when `work` returns (run on a worker thread).
  static std::unique_ptr<RuntimeEvent> run(std::function<ApiResult()> work);
  // An event backed by a sync fence fd (waited for with poll).
  static std::unique_ptr<RuntimeEvent> fromSyncFence(int fd);
  ~RuntimeEvent();
  // Blocks until completion; every wait returns the same outcome.
  ApiResult wait();
  int syncFenceFd() const { return fenceFd_; }

 private:
  RuntimeEvent() = default;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  ApiResult result_;
  std::thread worker_;
  int fenceFd_ = -1;
};

class RuntimeBurst {
 public:
  explicit RuntimeBurst(const RuntimeCompilation* compilation) : compilation_(compilation) {}
  const RuntimeCompilation* compilation() const { return compilation_; }
  std::atomic<bool> busy{false};

 private:
  const RuntimeCompilation* compilation_;
};

class RuntimeExecution {
 public:
  explicit RuntimeExecution(const RuntimeCompilation* compilation);
  ~RuntimeExecution();

  ApiResult setInput(int32_t index, const ANeuralNetworksOperandType* type, const void* buffer,
                     size_t length);
  ApiResult setInputFromMemory(int32_t index, const ANeuralNetworksOperandType* type,
                               const RuntimeMemory* memory, size_t offset, size_t length);
  ApiResult setOutput(int32_t index, const ANeuralNetworksOperandType* type, void* buffer,
                      size_t length);
  ApiResult setOutputFromMemory(int32_t index, const ANeuralNetworksOperandType* type,
                                const RuntimeMemory* memory, size_t offset, size_t length);
  ApiResult setMeasureTiming(bool measure);
  ApiResult setTimeout(uint64_t durationNs);
  ApiResult setLoopTimeout(uint64_t durationNs);
  ApiResult enableInputAndOutputPadding(bool enable);
  ApiResult setReusable(bool reusable);
  // FL8 vendor hints, handed to the device in ExecuteOptions (single-device compilations).
  ApiResult addExtensionAttribute(const char* extensionName, uint16_t code, const void* data,
                                  size_t length);

  ApiResult compute();
  ApiResult burstCompute(RuntimeBurst* burst);
  ApiResult startCompute(std::unique_ptr<RuntimeEvent>* event);
  ApiResult startComputeWithDependencies(const std::vector<RuntimeEvent*>& dependencies,
                                         uint64_t durationNs, std::unique_ptr<RuntimeEvent>* event);

  ApiResult getOutputOperandRank(int32_t index, uint32_t* rank) const;
  ApiResult getOutputOperandDimensions(int32_t index, uint32_t* dimensions) const;
  ApiResult getDuration(int32_t durationCode, uint64_t* duration) const;
  bool isComputing() const { return state_.load() == State::COMPUTATION; }

 private:
  enum class State { PREPARATION, COMPUTATION, COMPLETED };
  ApiResult setArgument(bool isInput, int32_t index, const ANeuralNetworksOperandType* type,
                        void* pointer, size_t length, bool omitted, const char* fn);
  // State checks shared by every way of starting a computation; moves to COMPUTATION.
  ApiResult beginComputation(const char* fn, int32_t diagnosticMode);
  ApiResult checkDeviceSpecificSetter(const char* fn) const;
  ApiResult setFromMemory(bool isInput, int32_t index, const ANeuralNetworksOperandType* type,
                          const RuntimeMemory* memory, size_t offset, size_t length);
  // Runs the computation on the calling thread and moves to COMPLETED. `fn` (the entry point
  // that started it) prefixes the message of a failure.
  ApiResult run(const char* fn);
  // Stores the outcome of a computation and moves to COMPLETED; returns the outcome.
  ApiResult complete(ApiResult outcome);
  // SL diagnostics: the execution record of the computation that completes with `outcome`.
  void reportDiagnostics(const ApiResult& outcome) const;
  // OUTPUT_INSUFFICIENT_SIZE with the computed shape when output `index` did not fit.
  ApiResult insufficientOutput(const char* fn, int32_t index) const;
  ApiResult checkCompleted(const char* fn, int32_t index) const;

  const RuntimeCompilation* compilation_;
  std::shared_ptr<PreparedModel> prepared_;
  std::atomic<State> state_{State::PREPARATION};
  Request request_;
  std::vector<uint8_t> inputSet_, outputSet_;
  // Descriptor memories bound per input/output (their initialized state is tracked).
  std::vector<const RuntimeMemory*> inputDesc_, outputDesc_;
  std::unique_ptr<ExecutionState> driverState_;
  std::vector<OutputShape> outputShapes_;
  Timing timing_;
  ApiResult result_;  // outcome of the last computation, message included
  bool measureTiming_ = false;
  bool reusable_ = false;
  bool padding_ = false;
  uint64_t timeoutNs_ = 0;
  uint64_t loopTimeoutNs_;
  std::vector<ExtensionAttribute> extensionAttributes_;
  // SL diagnostics of the running computation: ANeuralNetworksDiagnosticExecutionMode, and
  // its start (0 = not measured: no callback was registered when it began).
  int32_t diagnosticMode_ = 0;
  uint64_t diagnosticStartNs_ = 0;
};

}  // namespace nn
