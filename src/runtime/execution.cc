#include "runtime/execution.h"

#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

#include "runtime/compilation.h"
#include "runtime/diagnostics.h"
#include "runtime/memory.h"
#include "runtime/extension_lookup.h"
#include "runtime/model.h"

namespace nn {
namespace {

constexpr uint64_t kDefaultLoopTimeoutNs = 2000000000ull;
constexpr uint64_t kMaxLoopTimeoutNs = 15000000000ull;

uint64_t monotonicNowNs() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Event

std::unique_ptr<RuntimeEvent> RuntimeEvent::signalled(ApiResult result) {
  std::unique_ptr<RuntimeEvent> e(new RuntimeEvent());
  e->done_ = true;
  e->result_ = std::move(result);
  return e;
}

std::unique_ptr<RuntimeEvent> RuntimeEvent::run(std::function<ApiResult()> work) {
  std::unique_ptr<RuntimeEvent> e(new RuntimeEvent());
  RuntimeEvent* raw = e.get();
  raw->worker_ = std::thread([raw, work = std::move(work)] {
    // The outcome, message included, stays with the event: this worker thread records
    // nothing, the thread that waits does.
    ApiResult r = guardExceptions("ANeuralNetworksEvent_wait", work);
    std::lock_guard<std::mutex> lock(raw->mutex_);
    raw->result_ = std::move(r);
    raw->done_ = true;
    raw->cv_.notify_all();
  });
  return e;
}

std::unique_ptr<RuntimeEvent> RuntimeEvent::fromSyncFence(int fd) {
  std::unique_ptr<RuntimeEvent> e(new RuntimeEvent());
  e->fenceFd_ = fd;
  return e;
}

RuntimeEvent::~RuntimeEvent() {
  if (worker_.joinable()) worker_.join();
  if (fenceFd_ >= 0) close(fenceFd_);
}

ApiResult RuntimeEvent::wait() {
  if (fenceFd_ >= 0) {
    pollfd p{fenceFd_, POLLIN, 0};
    int r;
    do {
      r = poll(&p, 1, -1);
    } while (r < 0 && errno == EINTR);
    if (r < 0 || (p.revents & (POLLERR | POLLNVAL))) {
      return apiError(ANEURALNETWORKS_OP_FAILED,
                      "ANeuralNetworksEvent_wait: the sync fence signalled an error");
    }
    return apiOk();
  }
  std::unique_lock<std::mutex> lock(mutex_);
  cv_.wait(lock, [this] { return done_; });
  return result_;
}

// ---------------------------------------------------------------------------------------
// Execution

RuntimeExecution::RuntimeExecution(const RuntimeCompilation* compilation)
    : compilation_(compilation),
      prepared_(compilation->preparedModel()),
      loopTimeoutNs_(kDefaultLoopTimeoutNs) {
  const Subgraph& sg = compilation->canonicalModel()->main;
  request_.inputs.resize(sg.inputIndexes.size());
  request_.outputs.resize(sg.outputIndexes.size());
  inputSet_.assign(sg.inputIndexes.size(), 0);
  outputSet_.assign(sg.outputIndexes.size(), 0);
  outputShapes_.resize(sg.outputIndexes.size());
  inputDesc_.assign(sg.inputIndexes.size(), nullptr);
  outputDesc_.assign(sg.outputIndexes.size(), nullptr);
}

RuntimeExecution::~RuntimeExecution() {
  if (driverState_) prepared_->recycleExecutionState(std::move(driverState_));
}

ApiResult RuntimeExecution::setArgument(bool isInput, int32_t index,
                                        const ANeuralNetworksOperandType* type, void* pointer,
                                        size_t length, bool omitted, const char* fn) {
  if (state_.load() != State::PREPARATION) {
    return apiError(ANEURALNETWORKS_BAD_STATE, "%s: the execution has already started", fn);
  }
  const Subgraph& sg = compilation_->canonicalModel()->main;
  const std::vector<uint32_t>& indexes = isInput ? sg.inputIndexes : sg.outputIndexes;
  const char* role = isInput ? "input" : "output";
  if (index < 0 || static_cast<size_t>(index) >= indexes.size()) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "%s: %s index %d out of range (the model has %zu %ss)", fn, role, index,
                    indexes.size(), role);
  }
  std::vector<uint8_t>& set = isInput ? inputSet_ : outputSet_;
  if (set[index]) {
    return apiError(ANEURALNETWORKS_BAD_STATE, "%s: %s %d was already set", fn, role, index);
  }
  if (length > UINT32_MAX) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: %s %d: length %zu exceeds 4 GiB", fn, role,
                    index, length);
  }
  const Operand& operand = sg.operands[indexes[index]];
  RequestArgument arg;
  // The model's dimensions unless the type argument fills in unknown ones.
  const Dims* dimsPtr = &operand.dimensions;
  if (type != nullptr) {
    if (type->type != static_cast<int32_t>(operand.type) || type->scale != operand.scale ||
        type->zeroPoint != operand.zeroPoint) {
      return apiError(
          ANEURALNETWORKS_BAD_DATA,
          "%s: %s %d: the type argument (type %d, scale %g, zeroPoint %d) differs from the "
          "model operand (%s, scale %g, zeroPoint %d)",
          fn, role, index, type->type, type->scale, type->zeroPoint, toString(operand.type),
          operand.scale, operand.zeroPoint);
    }
    if ((type->dimensionCount == 0) != (type->dimensions == nullptr)) {
      return apiError(ANEURALNETWORKS_BAD_DATA,
                      "%s: %s %d: dimensions must be NULL exactly when dimensionCount is 0", fn,
                      role, index);
    }
    if (type->dimensionCount > 0 || !operand.dimensions.empty()) {
      if (!operand.dimensions.empty() && type->dimensionCount != operand.dimensions.size()) {
        return apiError(ANEURALNETWORKS_BAD_DATA,
                        "%s: %s %d: the type argument has rank %u, the model operand %zu", fn, role,
                        index, type->dimensionCount, operand.dimensions.size());
      }
      for (uint32_t i = 0; i < type->dimensionCount; ++i) {
        if (i < operand.dimensions.size() && operand.dimensions[i] != 0 &&
            operand.dimensions[i] != type->dimensions[i]) {
          return apiError(ANEURALNETWORKS_BAD_DATA,
                          "%s: %s %d: dimension %u is %u in the model, the type argument says %u",
                          fn, role, index, i, operand.dimensions[i], type->dimensions[i]);
        }
      }
      arg.dimensions.assign(type->dimensions, type->dimensions + type->dimensionCount);
      dimsPtr = &arg.dimensions;
    }
  }
  const Dims& dims = *dimsPtr;
  if (omitted) {
    arg.hasNoValue = true;
  } else {
    if (isFullySpecified(operand.type, dims)) {
      const uint64_t expected = byteSize(operand.type, dims);
      if (padding_ ? length < expected : length != expected) {
        return apiError(ANEURALNETWORKS_BAD_DATA,
                        "%s: %s %d: length %zu does not match the %s%s size of %llu bytes", fn,
                        role, index, length, toString(operand.type), toString(dims).c_str(),
                        static_cast<unsigned long long>(expected));
      }
    } else if (isInput) {
      return apiError(
          ANEURALNETWORKS_BAD_DATA,
          "%s: input %d has unspecified dimensions %s; pass the actual ones in the type "
          "argument",
          fn, index, toString(dims).c_str());
    }
    arg.location.pointer = pointer;
    arg.location.length = static_cast<uint32_t>(length);
  }
  RequestArgument& slot = (isInput ? request_.inputs : request_.outputs)[index];
  slot.hasNoValue = arg.hasNoValue;
  slot.location = arg.location;
  slot.dimensions.swap(arg.dimensions);
  set[index] = 1;
  return apiOk();
}

ApiResult RuntimeExecution::setInput(int32_t index, const ANeuralNetworksOperandType* type,
                                     const void* buffer, size_t length) {
  return setArgument(true, index, type, const_cast<void*>(buffer), length,
                     buffer == nullptr && length == 0, "ANeuralNetworksExecution_setInput");
}

ApiResult RuntimeExecution::setOutput(int32_t index, const ANeuralNetworksOperandType* type,
                                      void* buffer, size_t length) {
  return setArgument(false, index, type, buffer, length, buffer == nullptr && length == 0,
                     "ANeuralNetworksExecution_setOutput");
}

ApiResult RuntimeExecution::setFromMemory(bool isInput, int32_t index,
                                          const ANeuralNetworksOperandType* type,
                                          const RuntimeMemory* memory, size_t offset,
                                          size_t length) {
  const char* fn = isInput ? "ANeuralNetworksExecution_setInputFromMemory"
                           : "ANeuralNetworksExecution_setOutputFromMemory";
  const char* role = isInput ? "input" : "output";
  if (const DescMemoryInfo* desc = memory->desc()) {
    if (offset != 0 || length != 0) {
      return apiError(ANEURALNETWORKS_BAD_DATA,
                      "%s: %s %d: a memory from a descriptor is used whole (offset = length = 0)",
                      fn, role, index);
    }
    if (index < 0 || !memory->hasRole(compilation_, isInput, static_cast<uint32_t>(index))) {
      return apiError(ANEURALNETWORKS_BAD_DATA,
                      "%s: the memory's descriptor has no role for %s %d of this compilation", fn,
                      role, index);
    }
    // The descriptor's shape stands in for a missing type argument.
    ANeuralNetworksOperandType descType{};
    const Subgraph& sg = compilation_->canonicalModel()->main;
    const Operand& o = sg.operands[(isInput ? sg.inputIndexes : sg.outputIndexes)[index]];
    if (type == nullptr && !isFullySpecified(o.type, o.dimensions)) {
      descType = ANeuralNetworksOperandType{static_cast<int32_t>(o.type),
                                            static_cast<uint32_t>(desc->dimensions.size()),
                                            desc->dimensions.empty() ? nullptr
                                                                     : desc->dimensions.data(),
                                            o.scale, o.zeroPoint};
      type = &descType;
    }
    ApiResult r = setArgument(isInput, index, type, memory->data(), memory->size(), false, fn);
    if (r.ok()) (isInput ? inputDesc_ : outputDesc_)[index] = memory;
    return r;
  }
  uint8_t* p = memory->region(offset, length);
  if (p == nullptr || length == 0) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "%s: %s %d: region [%zu, %zu+%zu) is empty or outside the %zu-byte memory", fn,
                    role, index, offset, offset, length, memory->size());
  }
  if (!isInput && !memory->writable()) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "%s: output %d: the memory was mapped without PROT_WRITE", fn, index);
  }
  return setArgument(isInput, index, type, p, length, false, fn);
}

ApiResult RuntimeExecution::setInputFromMemory(int32_t index,
                                               const ANeuralNetworksOperandType* type,
                                               const RuntimeMemory* memory, size_t offset,
                                               size_t length) {
  return setFromMemory(true, index, type, memory, offset, length);
}

ApiResult RuntimeExecution::setOutputFromMemory(int32_t index,
                                                const ANeuralNetworksOperandType* type,
                                                const RuntimeMemory* memory, size_t offset,
                                                size_t length) {
  return setFromMemory(false, index, type, memory, offset, length);
}

// Setters of device-specific features (timing, timeout, extension attributes): ABI.md 3.1 allows
// them only for a compilation made by createForDevices with exactly one device, and only
// before the execution starts.
ApiResult RuntimeExecution::checkDeviceSpecificSetter(const char* fn) const {
  if (!compilation_->singleExplicitDevice()) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "%s: only allowed when the compilation was created by createForDevices "
                    "with exactly one device", fn);
  }
  if (state_.load() != State::PREPARATION) {
    return apiError(ANEURALNETWORKS_BAD_STATE, "%s: the execution has already started", fn);
  }
  return apiOk();
}

ApiResult RuntimeExecution::setMeasureTiming(bool measure) {
  const char* fn = "ANeuralNetworksExecution_setMeasureTiming";
  NN_API_RETURN_IF_ERROR(checkDeviceSpecificSetter(fn));
  measureTiming_ = measure;
  return apiOk();
}

ApiResult RuntimeExecution::addExtensionAttribute(const char* extensionName, uint16_t code,
                                                  const void* data, size_t length) {
  const char* fn = "ANeuralNetworksExecution_addExtensionAttribute";
  NN_API_RETURN_IF_ERROR(checkDeviceSpecificSetter(fn));
  return appendExtensionAttribute(fn, &extensionAttributes_, extensionName, code, data, length);
}

ApiResult RuntimeExecution::setTimeout(uint64_t durationNs) {
  const char* fn = "ANeuralNetworksExecution_setTimeout";
  NN_API_RETURN_IF_ERROR(checkDeviceSpecificSetter(fn));
  timeoutNs_ = durationNs;
  return apiOk();
}

ApiResult RuntimeExecution::setLoopTimeout(uint64_t durationNs) {
  if (state_.load() != State::PREPARATION) {
    return apiError(ANEURALNETWORKS_BAD_STATE,
                    "ANeuralNetworksExecution_setLoopTimeout: the execution has already started");
  }
  loopTimeoutNs_ = std::min(durationNs, kMaxLoopTimeoutNs);
  return apiOk();
}

ApiResult RuntimeExecution::enableInputAndOutputPadding(bool enable) {
  const char* fn = "ANeuralNetworksExecution_enableInputAndOutputPadding";
  if (state_.load() != State::PREPARATION) {
    return apiError(ANEURALNETWORKS_BAD_STATE, "%s: the execution has already started", fn);
  }
  for (uint8_t s : inputSet_)
    if (s) {
      return apiError(ANEURALNETWORKS_BAD_STATE,
                      "%s: must be called before any input or output is set", fn);
    }
  for (uint8_t s : outputSet_)
    if (s) {
      return apiError(ANEURALNETWORKS_BAD_STATE,
                      "%s: must be called before any input or output is set", fn);
    }
  padding_ = enable;
  return apiOk();
}

ApiResult RuntimeExecution::setReusable(bool reusable) {
  if (state_.load() != State::PREPARATION) {
    return apiError(ANEURALNETWORKS_BAD_STATE,
                    "ANeuralNetworksExecution_setReusable: the execution has already started");
  }
  reusable_ = reusable;
  return apiOk();
}

ApiResult RuntimeExecution::beginComputation(const char* fn, int32_t diagnosticMode) {
  State expected = State::PREPARATION;
  if (!state_.compare_exchange_strong(expected, State::COMPUTATION)) {
    if (expected == State::COMPUTATION) {
      return apiError(ANEURALNETWORKS_BAD_STATE, "%s: the execution is already computing", fn);
    }
    if (!reusable_) {
      return apiError(ANEURALNETWORKS_BAD_STATE,
                      "%s: the execution has completed and is not reusable (setReusable)", fn);
    }
    if (!state_.compare_exchange_strong(expected, State::COMPUTATION)) {
      return apiError(ANEURALNETWORKS_BAD_STATE, "%s: the execution is already computing", fn);
    }
  }
  for (size_t i = 0; i < inputSet_.size(); ++i) {
    if (!inputSet_[i]) {
      state_ = State::PREPARATION;
      return apiError(ANEURALNETWORKS_BAD_DATA, "%s: input %zu was never set", fn, i);
    }
  }
  for (size_t i = 0; i < outputSet_.size(); ++i) {
    if (!outputSet_[i]) {
      state_ = State::PREPARATION;
      return apiError(ANEURALNETWORKS_BAD_DATA, "%s: output %zu was never set", fn, i);
    }
  }
  diagnosticMode_ = diagnosticMode;
  diagnosticStartNs_ = diag::enabled() ? diag::nowNs() : 0;
  return apiOk();
}

ApiResult RuntimeExecution::run(const char* fn) {
  for (size_t i = 0; i < inputDesc_.size(); ++i) {
    if (inputDesc_[i] != nullptr && !inputDesc_[i]->initialized()) {
      return complete(apiError(ANEURALNETWORKS_BAD_DATA,
                               "%s: input %zu reads a device memory that holds no data yet", fn,
                               i));
    }
  }
  ExecuteOptions options;
  options.measureTiming = measureTiming_;
  options.loopTimeoutNs = loopTimeoutNs_;
  if (!extensionAttributes_.empty()) options.extensionAttributes = &extensionAttributes_;
  if (timeoutNs_ != 0) options.deadlineNs = deadlineAfter(monotonicNowNs(), timeoutNs_);
  ApiResult outcome;
  // The driver boundary: whatever a driver throws ends here as an error of this computation,
  // so the execution still moves to COMPLETED and stays usable (or freeable).
  try {
    if (!driverState_) driverState_ = prepared_->createExecutionState();
    const Status s =
        prepared_->execute(request_, options, driverState_.get(), &outputShapes_, &timing_);
    // The driver's message (it names the operation that failed) travels up as the result.
    outcome = fromStatus(s, fn);
  } catch (const std::bad_alloc&) {
    outcome = apiError(ANEURALNETWORKS_OUT_OF_MEMORY, "%s: the driver ran out of memory", fn);
  } catch (const std::exception& e) {
    outcome = apiError(ANEURALNETWORKS_OP_FAILED, "%s: the driver failed: %s", fn, e.what());
  } catch (...) {
    outcome = apiError(ANEURALNETWORKS_OP_FAILED, "%s: the driver failed with an exception", fn);
  }
  for (const RuntimeMemory* m : outputDesc_)
    if (m != nullptr) m->setInitialized(outcome.ok());
  return complete(std::move(outcome));
}

ApiResult RuntimeExecution::complete(ApiResult outcome) {
  // Kept for the queries after completion. The caller gets its own copy, taken before the
  // state change lets a reusable execution start over and overwrite result_.
  result_ = outcome;
  // Reported before the state change: afterwards a reusable execution may start over.
  if (diag::enabled()) reportDiagnostics(outcome);
  state_ = State::COMPLETED;
  return outcome;
}

void RuntimeExecution::reportDiagnostics(const ApiResult& outcome) const {
  const uint64_t end = diag::nowNs();
  diag::ExecutionInfo info;
  info.summary = &compilation_->diagnosticSummary();
  info.mode = static_cast<ANeuralNetworksDiagnosticExecutionMode>(diagnosticMode_);
  info.errorCode = static_cast<uint32_t>(outcome.code());
  info.runtimeTimeNs = diagnosticStartNs_ == 0 ? UINT64_MAX : end - diagnosticStartNs_;
  // The driver's figures only when they were asked for (they may be stale otherwise).
  info.driverTimeNs = measureTiming_ ? timing_.timeInDriverNs : UINT64_MAX;
  info.hardwareTimeNs = measureTiming_ ? timing_.timeOnDeviceNs : UINT64_MAX;
  diag::reportExecution(info);
}

ApiResult RuntimeExecution::compute() {
  const char* fn = "ANeuralNetworksExecution_compute";
  NN_API_RETURN_IF_ERROR(beginComputation(fn, ANNDIAG_EXECUTION_MODE_SYNC));
  return run(fn);
}

ApiResult RuntimeExecution::burstCompute(RuntimeBurst* burst) {
  const char* fn = "ANeuralNetworksExecution_burstCompute";
  if (burst->compilation() != compilation_) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "%s: the burst and the execution come from different compilations", fn);
  }
  bool idle = false;
  if (!burst->busy.compare_exchange_strong(idle, true)) {
    return apiError(ANEURALNETWORKS_BAD_STATE, "%s: another execution is running on this burst",
                    fn);
  }
  ApiResult r = beginComputation(fn, ANNDIAG_EXECUTION_MODE_BURST);
  if (r.ok()) r = run(fn);
  burst->busy = false;
  return r;
}

ApiResult RuntimeExecution::startCompute(std::unique_ptr<RuntimeEvent>* event) {
  const char* fn = "ANeuralNetworksExecution_startCompute";
  NN_API_RETURN_IF_ERROR(beginComputation(fn, ANNDIAG_EXECUTION_MODE_ASYNC));
  *event = RuntimeEvent::run([this, fn] { return run(fn); });
  return apiOk();
}

ApiResult RuntimeExecution::startComputeWithDependencies(
    const std::vector<RuntimeEvent*>& dependencies, uint64_t durationNs,
    std::unique_ptr<RuntimeEvent>* event) {
  const char* fn = "ANeuralNetworksExecution_startComputeWithDependencies";
  if (durationNs != 0 && !compilation_->singleExplicitDevice()) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "%s: a non-zero duration needs a compilation created by createForDevices "
                    "with exactly one device", fn);
  }
  const Subgraph& sg = compilation_->canonicalModel()->main;
  for (size_t i = 0; i < sg.outputIndexes.size(); ++i) {
    const Operand& o = sg.operands[sg.outputIndexes[i]];
    const Dims& dims = request_.outputs[i].dimensions.empty() ? o.dimensions
                                                              : request_.outputs[i].dimensions;
    if (!isFullySpecified(o.type, dims)) {
      return apiError(ANEURALNETWORKS_BAD_DATA,
                      "%s: output %zu has unspecified dimensions; fenced execution needs fully "
                      "specified outputs", fn, i);
    }
  }
  NN_API_RETURN_IF_ERROR(beginComputation(fn, ANNDIAG_EXECUTION_MODE_ASYNC_WITH_DEPS));
  // Without sync fences, the dependencies are waited for here and the computation runs
  // synchronously; the returned event is already signalled and carries the outcome.
  for (RuntimeEvent* dep : dependencies) {
    const ApiResult d = dep->wait();
    if (!d.ok()) {
      std::string why =
          formatString("%s: a dependency failed with result code %d%s%s", fn, d.code(),
                       d.message().empty() ? "" : ": ", d.message().c_str());
      // This computation never ran: there are no output shapes to report.
      (void)complete(ApiResult(ANEURALNETWORKS_OP_FAILED, why));
      return ApiResult(d.code(), std::move(why));
    }
  }
  const uint64_t savedTimeout = timeoutNs_;
  if (durationNs != 0) timeoutNs_ = durationNs;
  ApiResult r = run(fn);
  timeoutNs_ = savedTimeout;
  *event = RuntimeEvent::signalled(std::move(r));
  return apiOk();
}

ApiResult RuntimeExecution::checkCompleted(const char* fn, int32_t index) const {
  if (state_.load() != State::COMPLETED) {
    return apiError(ANEURALNETWORKS_BAD_STATE, "%s: the execution has not completed", fn);
  }
  if (!result_.ok() && result_.code() != ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE) {
    return apiError(ANEURALNETWORKS_BAD_STATE, "%s: the computation failed (result code %d): %s",
                    fn, result_.code(), result_.message().c_str());
  }
  if (index < 0 || static_cast<size_t>(index) >= outputShapes_.size()) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "%s: output index %d out of range (the model has %zu outputs)", fn, index,
                    outputShapes_.size());
  }
  return apiOk();
}

ApiResult RuntimeExecution::insufficientOutput(const char* fn, int32_t index) const {
  const OutputShape& s = outputShapes_[index];
  if (s.isSufficient) return apiOk();
  // The shape is reported all the same, so the caller can size a new buffer.
  return apiError(ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE,
                  "%s: output %d: the buffer is too small for the computed shape %s", fn, index,
                  toString(s.dimensions).c_str());
}

ApiResult RuntimeExecution::getOutputOperandRank(int32_t index, uint32_t* rank) const {
  const char* fn = "ANeuralNetworksExecution_getOutputOperandRank";
  NN_API_RETURN_IF_ERROR(checkCompleted(fn, index));
  const OutputShape& s = outputShapes_[index];
  *rank = static_cast<uint32_t>(s.dimensions.size());
  return insufficientOutput(fn, index);
}

ApiResult RuntimeExecution::getOutputOperandDimensions(int32_t index, uint32_t* dimensions) const {
  const char* fn = "ANeuralNetworksExecution_getOutputOperandDimensions";
  NN_API_RETURN_IF_ERROR(checkCompleted(fn, index));
  const OutputShape& s = outputShapes_[index];
  if (s.dimensions.empty()) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: output %d is a scalar (rank 0)", fn, index);
  }
  memcpy(dimensions, s.dimensions.data(), s.dimensions.size() * sizeof(uint32_t));
  return insufficientOutput(fn, index);
}

ApiResult RuntimeExecution::getDuration(int32_t durationCode, uint64_t* duration) const {
  const char* fn = "ANeuralNetworksExecution_getDuration";
  if (durationCode < ANEURALNETWORKS_DURATION_ON_HARDWARE ||
      durationCode > ANEURALNETWORKS_FENCED_DURATION_IN_DRIVER) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: unknown duration code %d", fn, durationCode);
  }
  if (state_.load() != State::COMPLETED || !result_.ok()) {
    *duration = UINT64_MAX;
    return apiError(ANEURALNETWORKS_BAD_STATE, "%s: the execution has not completed successfully",
                    fn);
  }
  if (!measureTiming_) {
    *duration = UINT64_MAX;
    return apiOk();
  }
  const bool onHardware = durationCode == ANEURALNETWORKS_DURATION_ON_HARDWARE ||
                          durationCode == ANEURALNETWORKS_FENCED_DURATION_ON_HARDWARE;
  const uint64_t v = onHardware ? timing_.timeOnDeviceNs : timing_.timeInDriverNs;
  *duration = v == kNoTiming ? UINT64_MAX : std::min<uint64_t>(v, UINT64_MAX - 1);
  return apiOk();
}

}  // namespace nn
