#include "runtime/execution.h"

#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

#include "hal/log.h"
#include "runtime/compilation.h"
#include "runtime/memory.h"
#include "runtime/model.h"
#include "runtime/result_code.h"

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

std::unique_ptr<RuntimeEvent> RuntimeEvent::signalled(int result) {
  std::unique_ptr<RuntimeEvent> e(new RuntimeEvent());
  e->done_ = true;
  e->result_ = result;
  return e;
}

std::unique_ptr<RuntimeEvent> RuntimeEvent::run(std::function<int()> work) {
  std::unique_ptr<RuntimeEvent> e(new RuntimeEvent());
  RuntimeEvent* raw = e.get();
  raw->worker_ = std::thread([raw, work = std::move(work)] {
    const int r = work();
    std::lock_guard<std::mutex> lock(raw->mutex_);
    raw->result_ = r;
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

int RuntimeEvent::wait() {
  if (fenceFd_ >= 0) {
    pollfd p{fenceFd_, POLLIN, 0};
    int r;
    do {
      r = poll(&p, 1, -1);
    } while (r < 0 && errno == EINTR);
    if (r < 0 || (p.revents & (POLLERR | POLLNVAL))) {
      logError("ANeuralNetworksEvent_wait: the sync fence signalled an error");
      return ANEURALNETWORKS_OP_FAILED;
    }
    return ANEURALNETWORKS_NO_ERROR;
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

int RuntimeExecution::setArgument(bool isInput, int32_t index,
                                  const ANeuralNetworksOperandType* type, void* pointer,
                                  size_t length, bool omitted, const char* fn) {
  if (state_.load() != State::PREPARATION) {
    logError("%s: the execution has already started", fn);
    return ANEURALNETWORKS_BAD_STATE;
  }
  const Subgraph& sg = compilation_->canonicalModel()->main;
  const std::vector<uint32_t>& indexes = isInput ? sg.inputIndexes : sg.outputIndexes;
  const char* role = isInput ? "input" : "output";
  if (index < 0 || static_cast<size_t>(index) >= indexes.size()) {
    logError("%s: %s index %d out of range (the model has %zu %ss)", fn, role, index,
             indexes.size(), role);
    return ANEURALNETWORKS_BAD_DATA;
  }
  std::vector<uint8_t>& set = isInput ? inputSet_ : outputSet_;
  if (set[index]) {
    logError("%s: %s %d was already set", fn, role, index);
    return ANEURALNETWORKS_BAD_STATE;
  }
  if (length > UINT32_MAX) {
    logError("%s: %s %d: length %zu exceeds 4 GiB", fn, role, index, length);
    return ANEURALNETWORKS_BAD_DATA;
  }
  const Operand& operand = sg.operands[indexes[index]];
  RequestArgument arg;
  // The model's dimensions unless the type argument fills in unknown ones.
  const Dims* dimsPtr = &operand.dimensions;
  if (type != nullptr) {
    if (type->type != static_cast<int32_t>(operand.type) || type->scale != operand.scale ||
        type->zeroPoint != operand.zeroPoint) {
      logError("%s: %s %d: the type argument (type %d, scale %g, zeroPoint %d) differs from the "
               "model operand (%s, scale %g, zeroPoint %d)", fn, role, index, type->type,
               type->scale, type->zeroPoint, toString(operand.type), operand.scale,
               operand.zeroPoint);
      return ANEURALNETWORKS_BAD_DATA;
    }
    if ((type->dimensionCount == 0) != (type->dimensions == nullptr)) {
      logError("%s: %s %d: dimensions must be NULL exactly when dimensionCount is 0", fn, role,
               index);
      return ANEURALNETWORKS_BAD_DATA;
    }
    if (type->dimensionCount > 0 || !operand.dimensions.empty()) {
      if (!operand.dimensions.empty() && type->dimensionCount != operand.dimensions.size()) {
        logError("%s: %s %d: the type argument has rank %u, the model operand %zu", fn, role,
                 index, type->dimensionCount, operand.dimensions.size());
        return ANEURALNETWORKS_BAD_DATA;
      }
      for (uint32_t i = 0; i < type->dimensionCount; ++i) {
        if (i < operand.dimensions.size() && operand.dimensions[i] != 0 &&
            operand.dimensions[i] != type->dimensions[i]) {
          logError("%s: %s %d: dimension %u is %u in the model, the type argument says %u", fn,
                   role, index, i, operand.dimensions[i], type->dimensions[i]);
          return ANEURALNETWORKS_BAD_DATA;
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
      const uint64_t expected = elementCount(dims) * elementSize(operand.type);
      if (padding_ ? length < expected : length != expected) {
        logError("%s: %s %d: length %zu does not match the %s%s size of %llu bytes", fn, role,
                 index, length, toString(operand.type), toString(dims).c_str(),
                 static_cast<unsigned long long>(expected));
        return ANEURALNETWORKS_BAD_DATA;
      }
    } else if (isInput) {
      logError("%s: input %d has unspecified dimensions %s; pass the actual ones in the type "
               "argument", fn, index, toString(dims).c_str());
      return ANEURALNETWORKS_BAD_DATA;
    }
    arg.location.pointer = pointer;
    arg.location.length = static_cast<uint32_t>(length);
  }
  RequestArgument& slot = (isInput ? request_.inputs : request_.outputs)[index];
  slot.hasNoValue = arg.hasNoValue;
  slot.location = arg.location;
  slot.dimensions.swap(arg.dimensions);
  set[index] = 1;
  return ANEURALNETWORKS_NO_ERROR;
}

int RuntimeExecution::setInput(int32_t index, const ANeuralNetworksOperandType* type,
                               const void* buffer, size_t length) {
  return setArgument(true, index, type, const_cast<void*>(buffer), length,
                     buffer == nullptr && length == 0, "ANeuralNetworksExecution_setInput");
}

int RuntimeExecution::setOutput(int32_t index, const ANeuralNetworksOperandType* type,
                                void* buffer, size_t length) {
  return setArgument(false, index, type, buffer, length, buffer == nullptr && length == 0,
                     "ANeuralNetworksExecution_setOutput");
}

int RuntimeExecution::setFromMemory(bool isInput, int32_t index,
                                    const ANeuralNetworksOperandType* type,
                                    const RuntimeMemory* memory, size_t offset, size_t length) {
  const char* fn = isInput ? "ANeuralNetworksExecution_setInputFromMemory"
                           : "ANeuralNetworksExecution_setOutputFromMemory";
  const char* role = isInput ? "input" : "output";
  if (const DescMemoryInfo* desc = memory->desc()) {
    if (offset != 0 || length != 0) {
      logError("%s: %s %d: a memory from a descriptor is used whole (offset = length = 0)", fn,
               role, index);
      return ANEURALNETWORKS_BAD_DATA;
    }
    if (index < 0 || !memory->hasRole(compilation_, isInput, static_cast<uint32_t>(index))) {
      logError("%s: the memory's descriptor has no role for %s %d of this compilation", fn, role,
               index);
      return ANEURALNETWORKS_BAD_DATA;
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
    const int r = setArgument(isInput, index, type, memory->data(), memory->size(), false, fn);
    if (r == ANEURALNETWORKS_NO_ERROR) (isInput ? inputDesc_ : outputDesc_)[index] = memory;
    return r;
  }
  uint8_t* p = memory->region(offset, length);
  if (p == nullptr || length == 0) {
    logError("%s: %s %d: region [%zu, %zu+%zu) is empty or outside the %zu-byte memory", fn, role,
             index, offset, offset, length, memory->size());
    return ANEURALNETWORKS_BAD_DATA;
  }
  if (!isInput && !memory->writable()) {
    logError("%s: output %d: the memory was mapped without PROT_WRITE", fn, index);
    return ANEURALNETWORKS_BAD_DATA;
  }
  return setArgument(isInput, index, type, p, length, false, fn);
}

int RuntimeExecution::setInputFromMemory(int32_t index, const ANeuralNetworksOperandType* type,
                                         const RuntimeMemory* memory, size_t offset,
                                         size_t length) {
  return setFromMemory(true, index, type, memory, offset, length);
}

int RuntimeExecution::setOutputFromMemory(int32_t index, const ANeuralNetworksOperandType* type,
                                          const RuntimeMemory* memory, size_t offset,
                                          size_t length) {
  return setFromMemory(false, index, type, memory, offset, length);
}

int RuntimeExecution::setMeasureTiming(bool measure) {
  const char* fn = "ANeuralNetworksExecution_setMeasureTiming";
  if (!compilation_->singleExplicitDevice()) {
    logError("%s: only allowed when the compilation was created by createForDevices with exactly "
             "one device", fn);
    return ANEURALNETWORKS_BAD_DATA;
  }
  if (state_.load() != State::PREPARATION) {
    logError("%s: the execution has already started", fn);
    return ANEURALNETWORKS_BAD_STATE;
  }
  measureTiming_ = measure;
  return ANEURALNETWORKS_NO_ERROR;
}

int RuntimeExecution::setTimeout(uint64_t durationNs) {
  const char* fn = "ANeuralNetworksExecution_setTimeout";
  if (!compilation_->singleExplicitDevice()) {
    logError("%s: only allowed when the compilation was created by createForDevices with exactly "
             "one device", fn);
    return ANEURALNETWORKS_BAD_DATA;
  }
  if (state_.load() != State::PREPARATION) {
    logError("%s: the execution has already started", fn);
    return ANEURALNETWORKS_BAD_STATE;
  }
  timeoutNs_ = durationNs;
  return ANEURALNETWORKS_NO_ERROR;
}

int RuntimeExecution::setLoopTimeout(uint64_t durationNs) {
  if (state_.load() != State::PREPARATION) {
    logError("ANeuralNetworksExecution_setLoopTimeout: the execution has already started");
    return ANEURALNETWORKS_BAD_STATE;
  }
  loopTimeoutNs_ = std::min(durationNs, kMaxLoopTimeoutNs);
  return ANEURALNETWORKS_NO_ERROR;
}

int RuntimeExecution::enableInputAndOutputPadding(bool enable) {
  const char* fn = "ANeuralNetworksExecution_enableInputAndOutputPadding";
  if (state_.load() != State::PREPARATION) {
    logError("%s: the execution has already started", fn);
    return ANEURALNETWORKS_BAD_STATE;
  }
  for (uint8_t s : inputSet_)
    if (s) {
      logError("%s: must be called before any input or output is set", fn);
      return ANEURALNETWORKS_BAD_STATE;
    }
  for (uint8_t s : outputSet_)
    if (s) {
      logError("%s: must be called before any input or output is set", fn);
      return ANEURALNETWORKS_BAD_STATE;
    }
  padding_ = enable;
  return ANEURALNETWORKS_NO_ERROR;
}

int RuntimeExecution::setReusable(bool reusable) {
  if (state_.load() != State::PREPARATION) {
    logError("ANeuralNetworksExecution_setReusable: the execution has already started");
    return ANEURALNETWORKS_BAD_STATE;
  }
  reusable_ = reusable;
  return ANEURALNETWORKS_NO_ERROR;
}

int RuntimeExecution::beginComputation(const char* fn) {
  State expected = State::PREPARATION;
  if (!state_.compare_exchange_strong(expected, State::COMPUTATION)) {
    if (expected == State::COMPUTATION) {
      logError("%s: the execution is already computing", fn);
      return ANEURALNETWORKS_BAD_STATE;
    }
    if (!reusable_) {
      logError("%s: the execution has completed and is not reusable (setReusable)", fn);
      return ANEURALNETWORKS_BAD_STATE;
    }
    if (!state_.compare_exchange_strong(expected, State::COMPUTATION)) {
      logError("%s: the execution is already computing", fn);
      return ANEURALNETWORKS_BAD_STATE;
    }
  }
  for (size_t i = 0; i < inputSet_.size(); ++i) {
    if (!inputSet_[i]) {
      logError("%s: input %zu was never set", fn, i);
      state_ = State::PREPARATION;
      return ANEURALNETWORKS_BAD_DATA;
    }
  }
  for (size_t i = 0; i < outputSet_.size(); ++i) {
    if (!outputSet_[i]) {
      logError("%s: output %zu was never set", fn, i);
      state_ = State::PREPARATION;
      return ANEURALNETWORKS_BAD_DATA;
    }
  }
  return ANEURALNETWORKS_NO_ERROR;
}

int RuntimeExecution::run() {
  for (size_t i = 0; i < inputDesc_.size(); ++i) {
    if (inputDesc_[i] != nullptr && !inputDesc_[i]->initialized()) {
      logError("execution: input %zu reads a device memory that holds no data yet", i);
      result_ = ANEURALNETWORKS_BAD_DATA;
      state_ = State::COMPLETED;
      return result_;
    }
  }
  if (!driverState_) driverState_ = prepared_->createExecutionState();
  ExecuteOptions options;
  options.measureTiming = measureTiming_;
  options.loopTimeoutNs = loopTimeoutNs_;
  if (timeoutNs_ != 0) options.deadlineNs = monotonicNowNs() + timeoutNs_;
  const Status s =
      prepared_->execute(request_, options, driverState_.get(), &outputShapes_, &timing_);
  result_ = resultCodeFromStatus(s);
  for (const RuntimeMemory* m : outputDesc_)
    if (m != nullptr) m->setInitialized(result_ == ANEURALNETWORKS_NO_ERROR);
  state_ = State::COMPLETED;
  return result_;
}

int RuntimeExecution::compute() {
  if (int r = beginComputation("ANeuralNetworksExecution_compute")) return r;
  return run();
}

int RuntimeExecution::burstCompute(RuntimeBurst* burst) {
  const char* fn = "ANeuralNetworksExecution_burstCompute";
  if (burst->compilation() != compilation_) {
    logError("%s: the burst and the execution come from different compilations", fn);
    return ANEURALNETWORKS_BAD_DATA;
  }
  bool idle = false;
  if (!burst->busy.compare_exchange_strong(idle, true)) {
    logError("%s: another execution is running on this burst", fn);
    return ANEURALNETWORKS_BAD_STATE;
  }
  int r = beginComputation(fn);
  if (r == ANEURALNETWORKS_NO_ERROR) r = run();
  burst->busy = false;
  return r;
}

int RuntimeExecution::startCompute(std::unique_ptr<RuntimeEvent>* event) {
  if (int r = beginComputation("ANeuralNetworksExecution_startCompute")) return r;
  *event = RuntimeEvent::run([this] { return run(); });
  return ANEURALNETWORKS_NO_ERROR;
}

int RuntimeExecution::startComputeWithDependencies(const std::vector<RuntimeEvent*>& dependencies,
                                                   uint64_t durationNs,
                                                   std::unique_ptr<RuntimeEvent>* event) {
  const char* fn = "ANeuralNetworksExecution_startComputeWithDependencies";
  if (durationNs != 0 && !compilation_->singleExplicitDevice()) {
    logError("%s: a non-zero duration needs a compilation created by createForDevices with "
             "exactly one device", fn);
    return ANEURALNETWORKS_BAD_DATA;
  }
  const Subgraph& sg = compilation_->canonicalModel()->main;
  for (size_t i = 0; i < sg.outputIndexes.size(); ++i) {
    const Operand& o = sg.operands[sg.outputIndexes[i]];
    const Dims& dims = request_.outputs[i].dimensions.empty() ? o.dimensions
                                                              : request_.outputs[i].dimensions;
    if (!isFullySpecified(o.type, dims)) {
      logError("%s: output %zu has unspecified dimensions; fenced execution needs fully "
               "specified outputs", fn, i);
      return ANEURALNETWORKS_BAD_DATA;
    }
  }
  if (int r = beginComputation(fn)) return r;
  // Without sync fences, the dependencies are waited for here and the computation runs
  // synchronously; the returned event is already signalled.
  for (RuntimeEvent* dep : dependencies) {
    const int r = dep->wait();
    if (r != ANEURALNETWORKS_NO_ERROR) {
      logError("%s: a dependency failed with result code %d", fn, r);
      // This computation never ran: there are no output shapes to report.
      result_ = ANEURALNETWORKS_OP_FAILED;
      state_ = State::COMPLETED;
      return r;
    }
  }
  const uint64_t savedTimeout = timeoutNs_;
  if (durationNs != 0) timeoutNs_ = durationNs;
  const int r = run();
  timeoutNs_ = savedTimeout;
  *event = RuntimeEvent::signalled(r);
  return ANEURALNETWORKS_NO_ERROR;
}

int RuntimeExecution::checkCompleted(const char* fn, int32_t index) const {
  if (state_.load() != State::COMPLETED) {
    logError("%s: the execution has not completed", fn);
    return ANEURALNETWORKS_BAD_STATE;
  }
  if (result_ != ANEURALNETWORKS_NO_ERROR && result_ != ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE) {
    logError("%s: the computation failed (result code %d)", fn, result_);
    return ANEURALNETWORKS_BAD_STATE;
  }
  if (index < 0 || static_cast<size_t>(index) >= outputShapes_.size()) {
    logError("%s: output index %d out of range (the model has %zu outputs)", fn, index,
             outputShapes_.size());
    return ANEURALNETWORKS_BAD_DATA;
  }
  return ANEURALNETWORKS_NO_ERROR;
}

int RuntimeExecution::getOutputOperandRank(int32_t index, uint32_t* rank) const {
  const char* fn = "ANeuralNetworksExecution_getOutputOperandRank";
  if (int r = checkCompleted(fn, index)) return r;
  const OutputShape& s = outputShapes_[index];
  *rank = static_cast<uint32_t>(s.dimensions.size());
  return s.isSufficient ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE;
}

int RuntimeExecution::getOutputOperandDimensions(int32_t index, uint32_t* dimensions) const {
  const char* fn = "ANeuralNetworksExecution_getOutputOperandDimensions";
  if (int r = checkCompleted(fn, index)) return r;
  const OutputShape& s = outputShapes_[index];
  if (s.dimensions.empty()) {
    logError("%s: output %d is a scalar (rank 0)", fn, index);
    return ANEURALNETWORKS_BAD_DATA;
  }
  memcpy(dimensions, s.dimensions.data(), s.dimensions.size() * sizeof(uint32_t));
  return s.isSufficient ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE;
}

int RuntimeExecution::getDuration(int32_t durationCode, uint64_t* duration) const {
  const char* fn = "ANeuralNetworksExecution_getDuration";
  if (durationCode < ANEURALNETWORKS_DURATION_ON_HARDWARE ||
      durationCode > ANEURALNETWORKS_FENCED_DURATION_IN_DRIVER) {
    logError("%s: unknown duration code %d", fn, durationCode);
    return ANEURALNETWORKS_BAD_DATA;
  }
  if (state_.load() != State::COMPLETED || result_ != ANEURALNETWORKS_NO_ERROR) {
    *duration = UINT64_MAX;
    logError("%s: the execution has not completed successfully", fn);
    return ANEURALNETWORKS_BAD_STATE;
  }
  if (!measureTiming_) {
    *duration = UINT64_MAX;
    return ANEURALNETWORKS_NO_ERROR;
  }
  const bool onHardware = durationCode == ANEURALNETWORKS_DURATION_ON_HARDWARE ||
                          durationCode == ANEURALNETWORKS_FENCED_DURATION_ON_HARDWARE;
  const uint64_t v = onHardware ? timing_.timeOnDeviceNs : timing_.timeInDriverNs;
  *duration = v == kNoTiming ? UINT64_MAX : std::min<uint64_t>(v, UINT64_MAX - 1);
  return ANEURALNETWORKS_NO_ERROR;
}

}  // namespace nn
