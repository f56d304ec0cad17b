// The driver interface (modeled on the NNAPI HAL IDevice / IPreparedModel). The runtime
// reaches every device, including the built-in CPU driver, only through these classes.
#pragma once

#include <memory>
#include <utility>
#include <string>
#include <vector>

#include "hal/cache_file.h"
#include "hal/types.h"

namespace nn {

// A vendor hint keyed by (extension name, code) from ANeuralNetworksCompilation_ /
// ANeuralNetworksExecution_addExtensionAttribute; a driver may ignore it.
struct ExtensionAttribute {
  std::string extension;
  uint16_t code = 0;
  std::vector<uint8_t> data;
};

struct ExecuteOptions {
  bool measureTiming = false;
  uint64_t deadlineNs = 0;  // absolute CLOCK_MONOTONIC time; 0 = none
  uint64_t loopTimeoutNs = 2000000000ull;
  // Owned by the execution, null when it has none (keeps the options copy allocation-free).
  const std::vector<ExtensionAttribute>* extensionAttributes = nullptr;
};

// Per-execution scratch a driver may keep between computations of one execution object,
// so repeated computations do not allocate.
class ExecutionState {
 public:
  virtual ~ExecutionState() = default;
};

class PreparedModel {
 public:
  virtual ~PreparedModel() = default;
  virtual std::unique_ptr<ExecutionState> createExecutionState() const { return nullptr; }
  // Hands a state back when its execution object goes away, so the next execution of this
  // prepared model can reuse its buffers instead of allocating (and page-faulting) again.
  virtual void recycleExecutionState(std::unique_ptr<ExecutionState> state) const {}
  // Runs one request. outputShapes receives one entry per model output (also on
  // OUTPUT_INSUFFICIENT_SIZE). `state` may be null.
  virtual Status execute(const Request& request, const ExecuteOptions& options,
                         ExecutionState* state, std::vector<OutputShape>* outputShapes,
                         Timing* timing) const = 0;
};

struct PrepareOptions {
  int32_t preference = 1;
  int32_t priority = 100;
  uint64_t deadlineNs = 0;
  // CPU drivers: worker threads for this model's kernels (0 = the driver's default).
  int32_t cpuThreads = 0;
  // Compilation caching (ANeuralNetworksCompilation_setCaching / SL setCachingFromFds;
  // docs/drivers.md "Compilation caching"). `cacheDir`: a directory of this device only,
  // existing and writable when non-empty; the driver names its files from `cacheToken`
  // (hal/cache_file.h cacheFilePath) and writes them atomically. `modelCacheFds` /
  // `dataCacheFds`: borrowed for the duration of prepareModel, given only when their counts
  // equal numberOfCacheFilesNeeded(). A driver treats anything it reads back as untrusted (a
  // bad file is a miss) and a failing cache never fails the preparation.
  std::string cacheDir;
  CacheToken cacheToken{};
  std::vector<int> modelCacheFds, dataCacheFds;
  bool cachingRequested() const { return !cacheDir.empty() || !modelCacheFds.empty() || !dataCacheFds.empty(); }
  std::vector<ExtensionAttribute> extensionAttributes;
};

// Time and energy relative to the CPU doing the same work (1.0); lower is better.
struct PerformanceInfo {
  float execTime = 1.0f;
  float powerUsage = 1.0f;
};

// What a device reports of its speed (NNAPI Capabilities / SL_ANeuralNetworksDevice_*
// performance queries). The partitioner compares devices by these figures.
struct Capabilities {
  PerformanceInfo relaxedFloat32toFloat16Scalar;
  PerformanceInfo relaxedFloat32toFloat16Tensor;
  PerformanceInfo ifPerformance;
  PerformanceInfo whilePerformance;
  // Per operand type (OperandCode value); a type not listed performs as `otherOperands`.
  std::vector<std::pair<int32_t, PerformanceInfo>> operandPerformance;
  PerformanceInfo otherOperands;

  PerformanceInfo forOperandType(int32_t type) const {
    for (const auto& entry : operandPerformance)
      if (entry.first == type) return entry.second;
    return otherOperands;
  }
};

class Device {
 public:
  virtual ~Device() = default;
  virtual const std::string& name() const = 0;
  virtual const std::string& version() const = 0;
  virtual int32_t type() const = 0;          // DeviceTypeCode
  virtual int64_t featureLevel() const = 0;  // FeatureLevelCode
  virtual Capabilities capabilities() const { return Capabilities(); }
  virtual const std::vector<Extension>& extensions() const {
    static const std::vector<Extension> none;
    return none;
  }
  // Where the device comes from: "built-in", or the path of the plugin that provides it.
  virtual std::string origin() const { return "built-in"; }
  // Cache files the driver wants per compilation (0, 0 = it does not cache).
  virtual void numberOfCacheFilesNeeded(uint32_t* modelCache, uint32_t* dataCache) const {
    *modelCache = 0;
    *dataCache = 0;
  }
  // supported->at(i): whether operation i of model.main can run here. `reasons` (optional)
  // receives a message per unsupported operation.
  virtual Status getSupportedOperations(const Model& model, std::vector<bool>* supported,
                                        std::vector<std::string>* reasons) const = 0;
  virtual Status prepareModel(const std::shared_ptr<const Model>& model,
                              const PrepareOptions& options,
                              std::shared_ptr<PreparedModel>* prepared) const = 0;
};

}  // namespace nn
