// ANeuralNetworksCompilation: picks a device for the model and prepares it there.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "hal/device.h"
#include "runtime/api_result.h"

namespace nn {

class RuntimeModel;

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
  ApiResult finish();

  bool isFinished() const { return finished_; }
  bool isValid() const { return finished_ && prepared_ != nullptr; }
  bool singleExplicitDevice() const { return explicitDevices_ && devices_.size() == 1; }
  const RuntimeModel* model() const { return model_; }
  const std::shared_ptr<const Model>& canonicalModel() const { return canonical_; }
  const std::shared_ptr<PreparedModel>& preparedModel() const { return prepared_; }
  const Device* device() const { return chosen_; }

 private:
  ApiResult checkMutable(const char* function) const;

  const RuntimeModel* model_;
  std::shared_ptr<const Model> canonical_;
  std::vector<const Device*> devices_;
  bool explicitDevices_;
  PrepareOptions options_;
  uint64_t timeoutNs_ = 0;
  std::string cacheDir_;
  bool finished_ = false;
  std::shared_ptr<PreparedModel> prepared_;
  const Device* chosen_ = nullptr;
};

}  // namespace nn
