#include "runtime/compilation.h"

#include <android/NeuralNetworks.h>

#include <chrono>

#include "hal/log.h"  // logInfo
#include "runtime/model.h"
#include "runtime/result_code.h"

namespace nn {

namespace {
// The CPU driver's pool never grows past this (ThreadPool caps it too).
constexpr uint32_t kMaxCpuThreads = 64;
}  // namespace

RuntimeCompilation::RuntimeCompilation(const RuntimeModel* model,
                                       std::vector<const Device*> devices, bool explicitDevices)
    : model_(model),
      canonical_(model->model()),
      devices_(std::move(devices)),
      explicitDevices_(explicitDevices) {}

ApiResult RuntimeCompilation::checkMutable(const char* function) const {
  if (finished_) {
    return apiError(ANEURALNETWORKS_BAD_STATE, "%s: the compilation is already finished", function);
  }
  return apiOk();
}

ApiResult RuntimeCompilation::setPreference(int32_t preference) {
  NN_API_RETURN_IF_ERROR(checkMutable("ANeuralNetworksCompilation_setPreference"));
  if (preference < 0 || preference > 2) {
    return apiError(
        ANEURALNETWORKS_BAD_DATA,
        "ANeuralNetworksCompilation_setPreference: invalid preference %d (expected 0..2)",
        preference);
  }
  options_.preference = preference;
  return apiOk();
}

ApiResult RuntimeCompilation::setPriority(int priority) {
  NN_API_RETURN_IF_ERROR(checkMutable("ANeuralNetworksCompilation_setPriority"));
  if (priority != ANEURALNETWORKS_PRIORITY_LOW && priority != ANEURALNETWORKS_PRIORITY_MEDIUM &&
      priority != ANEURALNETWORKS_PRIORITY_HIGH) {
    return apiError(
        ANEURALNETWORKS_BAD_DATA,
        "ANeuralNetworksCompilation_setPriority: invalid priority %d (expected 90, 100 or 110)",
        priority);
  }
  options_.priority = priority;
  return apiOk();
}

ApiResult RuntimeCompilation::setCaching(const char* cacheDir, const uint8_t* token) {
  NN_API_RETURN_IF_ERROR(checkMutable("ANeuralNetworksCompilation_setCaching"));
  // Accepted and remembered; the CPU driver prepares fast enough that it does not cache yet.
  cacheDir_ = cacheDir;
  (void)token;
  return apiOk();
}

ApiResult RuntimeCompilation::setCpuThreadCount(uint32_t threads) {
  NN_API_RETURN_IF_ERROR(checkMutable("ANNLinux_Compilation_setCpuThreadCount"));
  if (threads > kMaxCpuThreads) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "ANNLinux_Compilation_setCpuThreadCount: %u threads requested, at most %u",
                    threads, kMaxCpuThreads);
  }
  options_.cpuThreads = static_cast<int32_t>(threads);
  return apiOk();
}

ApiResult RuntimeCompilation::setTimeout(uint64_t durationNs) {
  NN_API_RETURN_IF_ERROR(checkMutable("ANeuralNetworksCompilation_setTimeout"));
  if (!singleExplicitDevice()) {
    return apiError(
        ANEURALNETWORKS_BAD_DATA,
        "ANeuralNetworksCompilation_setTimeout: only allowed for a compilation created by "
        "createForDevices with exactly one device");
  }
  timeoutNs_ = durationNs;
  return apiOk();
}

ApiResult RuntimeCompilation::finish() {
  const char* fn = "ANeuralNetworksCompilation_finish";
  NN_API_RETURN_IF_ERROR(checkMutable(fn));
  finished_ = true;
  const Model& model = *canonical_;
  // The first listed device that supports every operation wins. Splitting one model across
  // several devices (partitioning) is not implemented: the CPU driver covers every operation.
  std::string firstReason;
  for (const Device* device : devices_) {
    std::vector<bool> supported;
    std::vector<std::string> reasons;
    const Status checked = device->getSupportedOperations(model, &supported, &reasons);
    if (!checked.ok()) {
      if (firstReason.empty())
        firstReason =
            formatString("device %s could not check the model (%s)%s%s", device->name().c_str(),
                         toString(checked.code()), checked.message().empty() ? "" : ": ",
                         checked.message().c_str());
      continue;
    }
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
      options.deadlineNs = deadlineAfter(
          static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                    std::chrono::steady_clock::now().time_since_epoch())
                                    .count()),
          timeoutNs_);
    }
    std::shared_ptr<PreparedModel> prepared;
    const Status s = device->prepareModel(canonical_, options, &prepared);
    if (!s.ok()) {
      // The driver's own reason travels up with its status; no later fallback is needed.
      const int code = resultCodeFromStatus(s.code());
      if (s.message().empty())
        return apiError(code, "%s: device %s failed to prepare the model (%s)", fn,
                        device->name().c_str(), toString(s.code()));
      return apiError(code, "%s: device %s failed to prepare the model (%s): %s", fn,
                      device->name().c_str(), toString(s.code()), s.message().c_str());
    }
    prepared_ = std::move(prepared);
    chosen_ = device;
    logInfo("compilation: model prepared on %s", device->name().c_str());
    return apiOk();
  }
  return apiError(ANEURALNETWORKS_BAD_DATA, "%s: no device can run the whole model: %s", fn,
                  firstReason.empty() ? "no device available" : firstReason.c_str());
}

}  // namespace nn
