#include "runtime/compilation.h"

#include <android/NeuralNetworks.h>

#include <chrono>

#include "hal/log.h"
#include "runtime/model.h"
#include "runtime/result_code.h"

namespace nn {

RuntimeCompilation::RuntimeCompilation(const RuntimeModel* model,
                                       std::vector<const Device*> devices, bool explicitDevices)
    : model_(model),
      canonical_(model->model()),
      devices_(std::move(devices)),
      explicitDevices_(explicitDevices) {}

int RuntimeCompilation::checkMutable(const char* function) const {
  if (finished_) {
    logError("%s: the compilation is already finished", function);
    return ANEURALNETWORKS_BAD_STATE;
  }
  return ANEURALNETWORKS_NO_ERROR;
}

int RuntimeCompilation::setPreference(int32_t preference) {
  if (int r = checkMutable("ANeuralNetworksCompilation_setPreference")) return r;
  if (preference < 0 || preference > 2) {
    logError("ANeuralNetworksCompilation_setPreference: invalid preference %d (expected 0..2)",
             preference);
    return ANEURALNETWORKS_BAD_DATA;
  }
  options_.preference = preference;
  return ANEURALNETWORKS_NO_ERROR;
}

int RuntimeCompilation::setPriority(int priority) {
  if (int r = checkMutable("ANeuralNetworksCompilation_setPriority")) return r;
  if (priority != ANEURALNETWORKS_PRIORITY_LOW && priority != ANEURALNETWORKS_PRIORITY_MEDIUM &&
      priority != ANEURALNETWORKS_PRIORITY_HIGH) {
    logError("ANeuralNetworksCompilation_setPriority: invalid priority %d (expected 90, 100 or 110)",
             priority);
    return ANEURALNETWORKS_BAD_DATA;
  }
  options_.priority = priority;
  return ANEURALNETWORKS_NO_ERROR;
}

int RuntimeCompilation::setCaching(const char* cacheDir, const uint8_t* token) {
  if (int r = checkMutable("ANeuralNetworksCompilation_setCaching")) return r;
  // Accepted and remembered; the CPU driver prepares fast enough that it does not cache yet.
  cacheDir_ = cacheDir;
  (void)token;
  return ANEURALNETWORKS_NO_ERROR;
}

int RuntimeCompilation::setTimeout(uint64_t durationNs) {
  if (int r = checkMutable("ANeuralNetworksCompilation_setTimeout")) return r;
  if (!singleExplicitDevice()) {
    logError("ANeuralNetworksCompilation_setTimeout: only allowed for a compilation created by "
             "createForDevices with exactly one device");
    return ANEURALNETWORKS_BAD_DATA;
  }
  timeoutNs_ = durationNs;
  return ANEURALNETWORKS_NO_ERROR;
}

int RuntimeCompilation::finish() {
  const char* fn = "ANeuralNetworksCompilation_finish";
  if (int r = checkMutable(fn)) return r;
  finished_ = true;
  const Model& model = *canonical_;
  // The first listed device that supports every operation wins. Splitting one model across
  // several devices (partitioning) is not implemented: the CPU driver covers every operation.
  std::string firstReason;
  for (const Device* device : devices_) {
    std::vector<bool> supported;
    std::vector<std::string> reasons;
    if (device->getSupportedOperations(model, &supported, &reasons) != kOk) continue;
    bool all = true;
    for (size_t i = 0; i < supported.size(); ++i) {
      if (!supported[i]) {
        all = false;
        if (firstReason.empty())
          firstReason = formatString("device %s does not support %s", device->name().c_str(),
                                     reasons[i].c_str());
        break;
      }
    }
    if (!all) continue;
    PrepareOptions options = options_;
    if (timeoutNs_ != 0) {
      options.deadlineNs = static_cast<uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(
              std::chrono::steady_clock::now().time_since_epoch()).count()) + timeoutNs_;
    }
    std::shared_ptr<PreparedModel> prepared;
    const Status s = device->prepareModel(canonical_, options, &prepared);
    if (s != kOk) {
      if (lastError().empty()) logError("%s: device %s failed to prepare the model (%s)", fn,
                                        device->name().c_str(), toString(s));
      return resultCodeFromStatus(s);
    }
    prepared_ = std::move(prepared);
    chosen_ = device;
    logInfo("compilation: model prepared on %s", device->name().c_str());
    return ANEURALNETWORKS_NO_ERROR;
  }
  logError("%s: no device can run the whole model: %s", fn,
           firstReason.empty() ? "no device available" : firstReason.c_str());
  return ANEURALNETWORKS_BAD_DATA;
}

}  // namespace nn
