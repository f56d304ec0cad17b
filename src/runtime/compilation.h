// ANeuralNetworksCompilation: decides which device runs each operation (runtime/partitioner.h)
// and prepares the model there: whole on one device when one is best for every operation,
// else split into steps (runtime/partitioned_model.h). Compilations from
// ANeuralNetworksCompilation_create fall back to the CPU device for any part another device
// fails to prepare; those from createForDevices report the failure.
#pragma once

#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "hal/device.h"
#include "runtime/api_result.h"
#include "runtime/diagnostics.h"

namespace nn {

class RuntimeModel;
class PartitionedPreparedModel;
struct PartitionPlan;

class RuntimeCompilation {
 public:
  // explicitDevices: created by createForDevices (no automatic fallback).
  RuntimeCompilation(const RuntimeModel* model, std::vector<const Device*> devices,
                     bool explicitDevices);

  ApiResult setPreference(int32_t preference);
  ApiResult setPriority(int priority);
  ApiResult setCaching(const char* cacheDir, const uint8_t* token);
  ApiResult setTimeout(uint64_t durationNs);
  ApiResult setCpuThreadCount(uint32_t threads);
  // FL8 vendor hints, handed to the device in PrepareOptions (single-device compilations).
  ApiResult addExtensionAttribute(const char* extensionName, uint16_t code, const void* data,
                                  size_t length);
  ApiResult finish();

  bool isFinished() const { return finished_; }
  bool isValid() const { return finished_ && prepared_ != nullptr; }
  bool singleExplicitDevice() const { return explicitDevices_ && devices_.size() == 1; }
  const RuntimeModel* model() const { return model_; }
  const std::shared_ptr<const Model>& canonicalModel() const { return canonical_; }
  const std::shared_ptr<PreparedModel>& preparedModel() const { return prepared_; }
  // The device running the whole model; null when the model is split across devices
  // (nothing in the runtime depends on it: memory descriptors are host memory any step can
  // read). The plan is in stepCount/stepDevice/operationDevice.
  const Device* device() const { return chosen_; }
  // The plan, after a successful finish: 1 step unless the model is split.
  uint32_t stepCount() const { return static_cast<uint32_t>(stepDevices_.size()); }
  ApiResult stepDevice(uint32_t step, const Device** device) const;
  ApiResult operationDevice(uint32_t operation, const Device** device) const;

  // ---- SL additions (issue 8: caching from fds, diagnostics); bodies in compilation_sl.cc.
  // Cache files handed over by SL_ANeuralNetworksCompilation_setCachingFromFds: duplicates
  // owned by the compilation (closed when it is freed), kept for the caching implementation.
  struct CacheFds {
    CacheFds() = default;
    CacheFds(const CacheFds&) = delete;
    CacheFds& operator=(const CacheFds&) = delete;
    ~CacheFds();
    std::vector<int> modelFds, dataFds;
    std::array<uint8_t, 32> token{};
    bool set = false;
  };
  ApiResult setCachingFromFds(const int* modelCacheFds, uint32_t numModelCacheFiles,
                              const int* dataCacheFds, uint32_t numDataCacheFiles,
                              const uint8_t* token);
  const CacheFds& cacheFds() const { return cacheFds_; }
  bool cachingEnabled() const { return !cacheDir_.empty() || cacheFds_.set; }
  const std::vector<const Device*>& devices() const { return devices_; }
  int32_t sessionId() const { return sessionId_; }
  // The part of the diagnostic records fixed per compilation; built on first use.
  const diag::ModelSummary& diagnosticSummary() const;

 private:
  CacheFds cacheFds_;
  const int32_t sessionId_ = diag::nextSessionId();
  mutable std::once_flag diagnosticOnce_;
  mutable std::unique_ptr<diag::ModelSummary> diagnosticSummary_;
  // ---- end of SL additions


  ApiResult checkMutable(const char* function) const;
  // step: the partition step being prepared, -1 for the whole model.
  Status prepareOn(const Device* device, const std::shared_ptr<const Model>& model,
                   std::shared_ptr<PreparedModel>* prepared, int step = -1) const;
  // Fills the cache fields of `options` for `device` (body in compilation_cache.cc).
  void applyCaching(const Device* device, int step, PrepareOptions* options) const;
  ApiResult prepareWhole(const Device* device);
  ApiResult preparePartitioned(const PartitionPlan& plan);
  void logPlan(const PartitionedPreparedModel& plan) const;

  const RuntimeModel* model_;
  std::shared_ptr<const Model> canonical_;
  std::vector<const Device*> devices_;
  bool explicitDevices_;
  PrepareOptions options_;
  uint64_t timeoutNs_ = 0;
  std::string cacheDir_;
  CacheToken cacheToken_{};  // of the latest setCaching / setCachingFromFds
  bool finished_ = false;
  std::shared_ptr<PreparedModel> prepared_;
  const Device* chosen_ = nullptr;
  std::vector<const Device*> stepDevices_;
  std::vector<const Device*> operationDevice_;
};

}  // namespace nn
