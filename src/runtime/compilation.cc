#include "runtime/compilation.h"

#include <android/NeuralNetworks.h>

#include <algorithm>
#include <chrono>

#include "hal/log.h"  // logInfo
#include "runtime/extension_lookup.h"
#include "runtime/model.h"
#include "runtime/partitioned_model.h"
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
  // Remembered; finish gives each device its own directory under it (compilation_cache.h).
  // A directory that cannot be used is not an error: the compilation goes on uncached.
  cacheDir_ = cacheDir;
  std::copy(token, token + cacheToken_.size(), cacheToken_.begin());
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

ApiResult RuntimeCompilation::addExtensionAttribute(const char* extensionName, uint16_t code,
                                                    const void* data, size_t length) {
  const char* fn = "ANeuralNetworksCompilation_addExtensionAttribute";
  NN_API_RETURN_IF_ERROR(checkMutable(fn));
  if (!singleExplicitDevice()) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "%s: only allowed for a compilation created by createForDevices with exactly "
                    "one device",
                    fn);
  }
  return appendExtensionAttribute(fn, &options_.extensionAttributes, extensionName, code, data,
                                  length);
}

namespace {

// The device the runtime falls back to when another device fails to prepare its part: the
// first CPU device among the candidates (ANeuralNetworksCompilation_create lists them all).
const Device* fallbackCpu(const std::vector<const Device*>& devices) {
  for (const Device* d : devices)
    if (d->type() == ANEURALNETWORKS_DEVICE_CPU) return d;
  return nullptr;
}

std::string operationList(const Model& model, const std::vector<uint32_t>& ops) {
  std::string s;
  for (uint32_t i : ops)
    s += formatString("%s#%u %s", s.empty() ? "" : ", ", i,
                      toString(model.main.operations[i].type));
  return s;
}

}  // namespace

Status RuntimeCompilation::prepareOn(const Device* device, const std::shared_ptr<const Model>& model,
                                     std::shared_ptr<PreparedModel>* prepared, int step) const {
  PrepareOptions options = options_;
  applyCaching(device, step, &options);
  if (timeoutNs_ != 0) {
    options.deadlineNs = deadlineAfter(
        static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                  std::chrono::steady_clock::now().time_since_epoch())
                                  .count()),
        timeoutNs_);
  }
  Status s = device->prepareModel(model, options, prepared);
  // A plugin claiming success without a prepared model is a failure too.
  if (s.ok() && *prepared == nullptr)
    return makeError(ErrorStatus::GENERAL_FAILURE, "the driver returned no prepared model");
  return s;
}

ApiResult RuntimeCompilation::finish() {
  const char* fn = "ANeuralNetworksCompilation_finish";
  NN_API_RETURN_IF_ERROR(checkMutable(fn));
  finished_ = true;
  const Model& model = *canonical_;
  // Each operation goes to the best device that claims it (runtime/partitioner.h).
  Result<PartitionPlan> plan = partitionModel(model, devices_, options_.preference);
  if (!plan.ok()) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: %s", fn, plan.status().message().c_str());
  }
  operationDevice_ = plan->operationDevice;
  const Device* single = devices_.empty() ? nullptr : devices_.front();
  if (!operationDevice_.empty()) single = operationDevice_.front();
  for (const Device* d : operationDevice_)
    if (d != single) single = nullptr;
  if (single != nullptr) return prepareWhole(single);
  return preparePartitioned(*plan);
}

ApiResult RuntimeCompilation::prepareWhole(const Device* device) {
  const char* fn = "ANeuralNetworksCompilation_finish";
  // One device is best for every operation: the whole model goes there, as if unsplit.
  std::shared_ptr<PreparedModel> prepared;
  Status s = prepareOn(device, canonical_, &prepared);
  const Device* cpu = fallbackCpu(devices_);
  if (!s.ok() && !explicitDevices_ && cpu != nullptr && cpu != device) {
    logInfo("compilation: %s failed to prepare the model (%s: %s); falling back to %s",
            device->name().c_str(), toString(s.code()), s.message().c_str(), cpu->name().c_str());
    device = cpu;
    s = prepareOn(device, canonical_, &prepared);
  }
  if (!s.ok()) {
    // The driver's own reason travels up with its status.
    const int code = resultCodeFromStatus(s.code());
    if (s.message().empty())
      return apiError(code, "%s: device %s failed to prepare the model (%s)", fn,
                      device->name().c_str(), toString(s.code()));
    return apiError(code, "%s: device %s failed to prepare the model (%s): %s", fn,
                    device->name().c_str(), toString(s.code()), s.message().c_str());
  }
  prepared_ = std::move(prepared);
  chosen_ = device;
  operationDevice_.assign(canonical_->main.operations.size(), device);
  stepDevices_.assign(1, device);
  logInfo("compilation: model prepared on %s", device->name().c_str());
  return apiOk();
}

ApiResult RuntimeCompilation::preparePartitioned(const PartitionPlan& plan) {
  const char* fn = "ANeuralNetworksCompilation_finish";
  const Model& model = *canonical_;
  const Device* cpu = fallbackCpu(devices_);
  Result<StepLayout> layout = buildStepModels(model, plan.steps);
  if (!layout.ok()) {
    if (!explicitDevices_ && cpu != nullptr) {
      logInfo("compilation: not split (%s); the whole model goes to %s",
              layout.status().message().c_str(), cpu->name().c_str());
      return prepareWhole(cpu);
    }
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: %s", fn, layout.status().message().c_str());
  }
  std::vector<PartitionedPreparedModel::Step> steps;
  for (size_t k = 0; k < plan.steps.size(); ++k) {
    PartitionedPreparedModel::Step step;
    step.device = plan.steps[k].device;
    step.operations = plan.steps[k].operations;
    step.io = std::move(layout->steps[k]);
    if (step.io.outputs.empty()) {
      // Operations whose results nobody reads: nothing to run.
      logInfo("compilation: step %zu (%s) produces nothing that is read; dropped", k,
              operationList(model, step.operations).c_str());
      continue;
    }
    Status s = prepareOn(step.device, step.io.model, &step.prepared, static_cast<int>(k));
    if (!s.ok() && !explicitDevices_ && cpu != nullptr && cpu != step.device) {
      logInfo("compilation: %s failed to prepare step %zu (%s: %s); the step falls back to %s",
              step.device->name().c_str(), k, toString(s.code()), s.message().c_str(),
              cpu->name().c_str());
      step.device = cpu;
      s = prepareOn(cpu, step.io.model, &step.prepared, static_cast<int>(k));
    }
    if (!s.ok()) {
      return apiError(resultCodeFromStatus(s.code()),
                      "%s: device %s failed to prepare partition step %zu (operations %s) (%s)%s%s",
                      fn, step.device->name().c_str(), k,
                      operationList(model, step.operations).c_str(), toString(s.code()),
                      s.message().empty() ? "" : ": ", s.message().c_str());
    }
    for (uint32_t op : step.operations) operationDevice_[op] = step.device;
    stepDevices_.push_back(step.device);
    steps.push_back(std::move(step));
  }
  auto partitioned =
      std::make_shared<PartitionedPreparedModel>(canonical_, std::move(steps), layout->temps);
  // Executions in which a crossing value is zero-sized run unsplit: on the CPU when the
  // runtime may fall back, else on a listed device that supports every operation, if any.
  const Device* whole = explicitDevices_ ? nullptr : cpu;
  for (size_t d = 0; whole == nullptr && d < plan.supported.size() && d < devices_.size(); ++d) {
    bool all = !plan.supported[d].empty();
    for (bool b : plan.supported[d]) all = all && b;
    if (all) whole = devices_[d];
  }
  if (whole != nullptr) partitioned->setWholeModelFallback(whole, options_);
  if (loggingEnabled()) logPlan(*partitioned);
  prepared_ = std::move(partitioned);
  chosen_ = nullptr;
  return apiOk();
}

void RuntimeCompilation::logPlan(const PartitionedPreparedModel& plan) const {
  const Model& model = *canonical_;
  logInfo("compilation: model split into %zu steps", plan.steps().size());
  for (size_t k = 0; k < plan.steps().size(); ++k) {
    const auto& step = plan.steps()[k];
    logInfo("  step %zu on %s: %s", k, step.device->name().c_str(),
            operationList(model, step.operations).c_str());
  }
  for (const CrossingValue& t : plan.temps()) {
    logInfo("  temporary operand %u (%s%s) crosses steps", t.operand, toString(t.type),
            toString(t.dimensions).c_str());
  }
}

ApiResult RuntimeCompilation::stepDevice(uint32_t step, const Device** device) const {
  if (step >= stepDevices_.size()) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "step %u out of range (the plan has %zu steps)",
                    step, stepDevices_.size());
  }
  *device = stepDevices_[step];
  return apiOk();
}

ApiResult RuntimeCompilation::operationDevice(uint32_t operation, const Device** device) const {
  if (operation >= operationDevice_.size()) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "operation %u out of range (the model has %zu operations)", operation,
                    operationDevice_.size());
  }
  *device = operationDevice_[operation];
  return apiOk();
}

}  // namespace nn
