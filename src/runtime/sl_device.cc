#include "runtime/sl_device.h"

#include <android/NeuralNetworksDiagnostics.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <map>

#include "hal/log.h"
#include "runtime/sl_model_replay.h"
#include "runtime/sl_prepared_model.h"
#include "runtime/sl_util.h"

namespace nn {

using sl::codeName;
using sl::nowNs;
using sl::SlModelReplay;
using sl::SlPreparedModel;

namespace {

constexpr uint32_t kMaxExtensions = 64;
constexpr uint32_t kMaxCacheFiles = 32;  // ANEURALNETWORKS_MAX_NUMBER_OF_CACHE_FILES

bool isValidFeatureLevel(int64_t level) {
  return (level >= kFeatureLevel1 && level <= kFeatureLevel5) || level == kFeatureLevel6 ||
         level == kFeatureLevel7 || level == kFeatureLevel8;
}

bool isValidPerformance(const SL_ANeuralNetworksPerformanceInfo& p) {
  return std::isfinite(p.execTime) && std::isfinite(p.powerUsage) && p.execTime > 0.f &&
         p.powerUsage > 0.f;
}

PerformanceInfo toPerformance(const SL_ANeuralNetworksPerformanceInfo& p) {
  return PerformanceInfo{p.execTime, p.powerUsage};
}

}  // namespace

const char* firstMissingSlot(const NnApiSLDriverImplFL8& table) {
  const NnApiSLDriverImplFL5& t = table.base;
#define NN_SL_REQUIRE(slot) \
  if (t.slot == nullptr) return #slot;
  NN_SL_REQUIRE(ANeuralNetworks_getDeviceCount)
  NN_SL_REQUIRE(ANeuralNetworks_getDevice)
  NN_SL_REQUIRE(ANeuralNetworksDevice_getName)
  NN_SL_REQUIRE(ANeuralNetworksDevice_getVersion)
  NN_SL_REQUIRE(ANeuralNetworksDevice_getType)
  NN_SL_REQUIRE(ANeuralNetworksDevice_getFeatureLevel)
  NN_SL_REQUIRE(SL_ANeuralNetworksDevice_getPerformanceInfo)
  NN_SL_REQUIRE(SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo)
  NN_SL_REQUIRE(SL_ANeuralNetworksDevice_getVendorExtensionCount)
  NN_SL_REQUIRE(SL_ANeuralNetworksDevice_getVendorExtensionName)
  NN_SL_REQUIRE(SL_ANeuralNetworksDevice_forEachVendorExtensionOperandTypeInformation)
  NN_SL_REQUIRE(SL_ANeuralNetworksDevice_getNumberOfCacheFilesNeeded)
  NN_SL_REQUIRE(ANeuralNetworksModel_create)
  NN_SL_REQUIRE(ANeuralNetworksModel_free)
  NN_SL_REQUIRE(ANeuralNetworksModel_addOperand)
  NN_SL_REQUIRE(ANeuralNetworksModel_setOperandValue)
  NN_SL_REQUIRE(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams)
  NN_SL_REQUIRE(ANeuralNetworksModel_setOperandValueFromModel)
  NN_SL_REQUIRE(ANeuralNetworksModel_addOperation)
  NN_SL_REQUIRE(ANeuralNetworksModel_identifyInputsAndOutputs)
  NN_SL_REQUIRE(ANeuralNetworksModel_relaxComputationFloat32toFloat16)
  NN_SL_REQUIRE(ANeuralNetworksModel_finish)
  NN_SL_REQUIRE(ANeuralNetworksModel_getSupportedOperationsForDevices)
  NN_SL_REQUIRE(ANeuralNetworksCompilation_createForDevices)
  NN_SL_REQUIRE(ANeuralNetworksCompilation_setPreference)
  NN_SL_REQUIRE(ANeuralNetworksCompilation_setPriority)
  NN_SL_REQUIRE(ANeuralNetworksCompilation_setTimeout)
  NN_SL_REQUIRE(ANeuralNetworksCompilation_finish)
  NN_SL_REQUIRE(ANeuralNetworksCompilation_free)
  NN_SL_REQUIRE(ANeuralNetworksExecution_create)
  NN_SL_REQUIRE(ANeuralNetworksExecution_free)
  NN_SL_REQUIRE(ANeuralNetworksExecution_setInput)
  NN_SL_REQUIRE(ANeuralNetworksExecution_setOutput)
  NN_SL_REQUIRE(ANeuralNetworksExecution_setLoopTimeout)
  NN_SL_REQUIRE(ANeuralNetworksExecution_setTimeout)
  NN_SL_REQUIRE(ANeuralNetworksExecution_setMeasureTiming)
  NN_SL_REQUIRE(ANeuralNetworksExecution_compute)
  NN_SL_REQUIRE(ANeuralNetworksExecution_getOutputOperandRank)
  NN_SL_REQUIRE(ANeuralNetworksExecution_getOutputOperandDimensions)
  NN_SL_REQUIRE(ANeuralNetworksExecution_getDuration)
#undef NN_SL_REQUIRE
  return nullptr;
}

ErrorStatus errorStatusFromResultCode(int code) {
  switch (code) {
    case ANEURALNETWORKS_NO_ERROR: return ErrorStatus::NONE;
    case ANEURALNETWORKS_BAD_DATA: return ErrorStatus::INVALID_ARGUMENT;
    case ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE: return ErrorStatus::OUTPUT_INSUFFICIENT_SIZE;
    case ANEURALNETWORKS_UNAVAILABLE_DEVICE: return ErrorStatus::DEVICE_UNAVAILABLE;
    case ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT: return ErrorStatus::MISSED_DEADLINE_TRANSIENT;
    case ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT: return ErrorStatus::MISSED_DEADLINE_PERSISTENT;
    case ANEURALNETWORKS_RESOURCE_EXHAUSTED_TRANSIENT: return ErrorStatus::RESOURCE_EXHAUSTED_TRANSIENT;
    case ANEURALNETWORKS_RESOURCE_EXHAUSTED_PERSISTENT: return ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT;
    case ANEURALNETWORKS_DEAD_OBJECT: return ErrorStatus::DEAD_OBJECT;
    default: return ErrorStatus::GENERAL_FAILURE;  // OP_FAILED, and codes that make no sense here
  }
}

std::string SlDevice::context() const {
  return "driver " + driver_->path + " device " + name_ + ": ";
}

std::unique_ptr<SlDevice> SlDevice::create(std::shared_ptr<const SlDriver> driver,
                                           ANeuralNetworksDevice* handle, std::string* problem) {
  const NnApiSLDriverImplFL5& t = driver->table.base;
  std::unique_ptr<SlDevice> d(new SlDevice(driver, handle));
  const char* name = nullptr;
  int r = t.ANeuralNetworksDevice_getName(handle, &name);
  if (r != ANEURALNETWORKS_NO_ERROR || name == nullptr || name[0] == '\0' ||
      strnlen(name, 257) > 256) {
    *problem = formatString("getName returned %s with %s", codeName(r),
                            name == nullptr ? "a NULL name" : "an empty or overlong name");
    return nullptr;
  }
  d->name_ = name;
  const char* version = nullptr;
  r = t.ANeuralNetworksDevice_getVersion(handle, &version);
  if (r != ANEURALNETWORKS_NO_ERROR || version == nullptr || strnlen(version, 257) > 256) {
    *problem = formatString("device %s: getVersion returned %s%s", name, codeName(r),
                            version == nullptr ? " with a NULL version" : "");
    return nullptr;
  }
  d->version_ = version;
  r = t.ANeuralNetworksDevice_getType(handle, &d->type_);
  if (r != ANEURALNETWORKS_NO_ERROR || d->type_ < ANEURALNETWORKS_DEVICE_UNKNOWN ||
      d->type_ > ANEURALNETWORKS_DEVICE_ACCELERATOR) {
    *problem = formatString("device %s: getType returned %s, type %d", name, codeName(r),
                            d->type_);
    return nullptr;
  }
  int64_t level = 0;
  r = t.ANeuralNetworksDevice_getFeatureLevel(handle, &level);
  if (r != ANEURALNETWORKS_NO_ERROR || !isValidFeatureLevel(level)) {
    *problem = formatString("device %s: getFeatureLevel returned %s, level %lld (not a "
                            "FeatureLevelCode)",
                            name, codeName(r), static_cast<long long>(level));
    return nullptr;
  }
  // A device cannot offer more than the table it is reached through implements.
  d->featureLevel_ = std::min(level, driver->table.base.base.implFeatureLevel);

  const struct {
    int32_t kind;
    PerformanceInfo Capabilities::*field;
  } kinds[] = {
      {SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_RELAXED_SCALAR,
       &Capabilities::relaxedFloat32toFloat16Scalar},
      {SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_RELAXED_TENSOR,
       &Capabilities::relaxedFloat32toFloat16Tensor},
      {SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_IF, &Capabilities::ifPerformance},
      {SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_WHILE, &Capabilities::whilePerformance},
  };
  for (const auto& k : kinds) {
    SL_ANeuralNetworksPerformanceInfo p{-1.f, -1.f};
    r = t.SL_ANeuralNetworksDevice_getPerformanceInfo(handle, k.kind, &p);
    if (r != ANEURALNETWORKS_NO_ERROR || !isValidPerformance(p)) {
      *problem = formatString("device %s: getPerformanceInfo(%d) returned %s, {%g, %g}", name,
                              k.kind, codeName(r), p.execTime, p.powerUsage);
      return nullptr;
    }
    d->capabilities_.*(k.field) = toPerformance(p);
  }
  struct OperandPerf {
    std::vector<std::pair<int32_t, PerformanceInfo>> entries;
    bool bad = false;
  } perf;
  r = t.SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo(
      handle, &perf, [](SL_ANeuralNetworksOperandPerformanceInfo info, void* context) {
        auto* p = static_cast<OperandPerf*>(context);
        if (p->entries.size() >= 256 || !isValidPerformance(info.performanceInfo)) {
          p->bad = true;
          return;
        }
        p->entries.emplace_back(info.operandType, toPerformance(info.performanceInfo));
      });
  if (r != ANEURALNETWORKS_NO_ERROR || perf.bad) {
    *problem = formatString("device %s: forEachOperandPerformanceInfo returned %s%s", name,
                            codeName(r), perf.bad ? " with invalid or too many entries" : "");
    return nullptr;
  }
  d->capabilities_.operandPerformance = std::move(perf.entries);
  // Operand types the device does not list perform like the CPU (the runtime's default).

  uint32_t extensionCount = UINT32_MAX;
  r = t.SL_ANeuralNetworksDevice_getVendorExtensionCount(handle, &extensionCount);
  if (r != ANEURALNETWORKS_NO_ERROR || extensionCount > kMaxExtensions) {
    *problem = formatString("device %s: getVendorExtensionCount returned %s, count %u", name,
                            codeName(r), extensionCount);
    return nullptr;
  }
  for (uint32_t i = 0; i < extensionCount; ++i) {
    const char* extensionName = nullptr;
    r = t.SL_ANeuralNetworksDevice_getVendorExtensionName(handle, i, &extensionName);
    if (r != ANEURALNETWORKS_NO_ERROR || extensionName == nullptr || extensionName[0] == '\0') {
      *problem = formatString("device %s: getVendorExtensionName(%u) returned %s without a name",
                              name, i, codeName(r));
      return nullptr;
    }
    Extension extension;
    extension.name = extensionName;
    r = t.SL_ANeuralNetworksDevice_forEachVendorExtensionOperandTypeInformation(
        handle, i, &extension,
        [](SL_ANeuralNetworksExtensionOperandTypeInformation info, void* context) {
          auto* e = static_cast<Extension*>(context);
          if (e->operandTypes.size() < 1024)
            e->operandTypes.push_back({info.type, info.isTensor, info.byteSize});
        });
    if (r != ANEURALNETWORKS_NO_ERROR) {
      *problem = formatString("device %s: forEachVendorExtensionOperandTypeInformation(%u) "
                              "returned %s",
                              name, i, codeName(r));
      return nullptr;
    }
    d->extensions_.push_back(std::move(extension));
  }
  uint32_t modelCache = UINT32_MAX, dataCache = UINT32_MAX;
  r = t.SL_ANeuralNetworksDevice_getNumberOfCacheFilesNeeded(handle, &modelCache, &dataCache);
  if (r != ANEURALNETWORKS_NO_ERROR || modelCache > kMaxCacheFiles ||
      dataCache > kMaxCacheFiles) {
    *problem = formatString("device %s: getNumberOfCacheFilesNeeded returned %s, %u and %u",
                            name, codeName(r), modelCache, dataCache);
    return nullptr;
  }
  d->modelCacheFiles_ = modelCache;
  d->dataCacheFiles_ = dataCache;
  return d;
}

Status SlDevice::getSupportedOperations(const Model& model, std::vector<bool>* supported,
                                        std::vector<std::string>* reasons) const {
  const size_t count = model.main.operations.size();
  supported->assign(count, false);
  if (reasons) reasons->assign(count, std::string());
  auto explainAll = [&](const std::string& why) {
    if (reasons)
      for (size_t i = 0; i < count; ++i)
        (*reasons)[i] = formatString("%s (operation #%zu): %s",
                                     operationName(model.main.operations[i].type).c_str(), i,
                                     why.c_str());
  };
  // A model the driver cannot even build is one it supports no operation of.
  SlModelReplay replay(*this, model);
  Status built = replay.build();
  if (!built.ok()) {
    logInfo("%s", built.message().c_str());
    explainAll(built.message());
    return kOk;
  }
  std::unique_ptr<bool[]> flags(new bool[count > 0 ? count : 1]());
  const ANeuralNetworksDevice* devices[] = {handle_};
  const int r = driver_->table.base.ANeuralNetworksModel_getSupportedOperationsForDevices(
      replay.main(), devices, 1, flags.get());
  if (r != ANEURALNETWORKS_NO_ERROR) {
    explainAll(context() + "ANeuralNetworksModel_getSupportedOperationsForDevices returned " +
               codeName(r));
    return kOk;
  }
  for (size_t i = 0; i < count; ++i) {
    (*supported)[i] = flags[i];
    if (!flags[i] && reasons)
      (*reasons)[i] = formatString("%s (operation #%zu): not supported by %s(its own answer)",
                                   operationName(model.main.operations[i].type).c_str(), i,
                                   context().c_str());
  }
  return kOk;
}

void SlDevice::passCaching(ANeuralNetworksCompilation* compilation,
                           const PrepareOptions& options) const {
  // The plugin caches as it likes in what it is given; a refusal only costs the cache.
  const NnApiSLDriverImplFL5& t = driver_->table.base;
  if (!options.modelCacheFds.empty() || !options.dataCacheFds.empty()) {
    if (t.SL_ANeuralNetworksCompilation_setCachingFromFds == nullptr) {
      logInfo("%sno SL_ANeuralNetworksCompilation_setCachingFromFds; compiling uncached",
              context().c_str());
      return;
    }
    // Never NULL arrays, even empty ones: a strict plugin may check the pointers alone.
    static const int kNoFd = -1;
    auto fds = [](const std::vector<int>& v) { return v.empty() ? &kNoFd : v.data(); };
    const int r = t.SL_ANeuralNetworksCompilation_setCachingFromFds(
        compilation, fds(options.modelCacheFds),
        static_cast<uint32_t>(options.modelCacheFds.size()), fds(options.dataCacheFds),
        static_cast<uint32_t>(options.dataCacheFds.size()), options.cacheToken.data());
    if (r != ANEURALNETWORKS_NO_ERROR)
      logInfo("%sSL_ANeuralNetworksCompilation_setCachingFromFds returned %s; compiling uncached",
              context().c_str(), codeName(r));
    return;
  }
  if (options.cacheDir.empty()) return;
  if (t.ANeuralNetworksCompilation_setCaching == nullptr) {
    logInfo("%sno ANeuralNetworksCompilation_setCaching; compiling uncached", context().c_str());
    return;
  }
  const int r = t.ANeuralNetworksCompilation_setCaching(compilation, options.cacheDir.c_str(),
                                                        options.cacheToken.data());
  if (r != ANEURALNETWORKS_NO_ERROR)
    logInfo("%sANeuralNetworksCompilation_setCaching(%s) returned %s; compiling uncached",
            context().c_str(), options.cacheDir.c_str(), codeName(r));
}

Status SlDevice::prepareModel(const std::shared_ptr<const Model>& model,
                              const PrepareOptions& options,
                              std::shared_ptr<PreparedModel>* prepared) const {
  const NnApiSLDriverImplFL5& t = driver_->table.base;
  if (options.deadlineNs != 0 && options.deadlineNs != UINT64_MAX &&
      nowNs() >= options.deadlineNs)
    return Status(ErrorStatus::MISSED_DEADLINE_TRANSIENT,
                  context() + "the deadline passed before the compilation started");
  auto replay = std::make_unique<SlModelReplay>(*this, *model);
  Status built = replay->build();
  if (!built.ok()) return built;

  ANeuralNetworksCompilation* compilation = nullptr;
  const ANeuralNetworksDevice* devices[] = {handle_};
  auto fail = [&](const char* call, int code) {
    if (compilation != nullptr) t.ANeuralNetworksCompilation_free(compilation);
    std::string message = formatString("%s%s returned %s", context().c_str(), call,
                                       codeName(code));
    logInfo("%s", message.c_str());
    return Status(errorStatusFromResultCode(code == 0 ? ANEURALNETWORKS_OP_FAILED : code),
                  std::move(message));
  };
  int r = t.ANeuralNetworksCompilation_createForDevices(replay->main(), devices, 1,
                                                        &compilation);
  if (r != ANEURALNETWORKS_NO_ERROR || compilation == nullptr)
    return fail("ANeuralNetworksCompilation_createForDevices", r);
  if ((r = t.ANeuralNetworksCompilation_setPreference(compilation, options.preference)) !=
      ANEURALNETWORKS_NO_ERROR)
    return fail("ANeuralNetworksCompilation_setPreference", r);
  if ((r = t.ANeuralNetworksCompilation_setPriority(compilation, options.priority)) !=
      ANEURALNETWORKS_NO_ERROR)
    return fail("ANeuralNetworksCompilation_setPriority", r);
  if (options.deadlineNs != 0 && options.deadlineNs != UINT64_MAX) {
    const uint64_t now = nowNs();
    if (now >= options.deadlineNs) {
      t.ANeuralNetworksCompilation_free(compilation);
      return Status(ErrorStatus::MISSED_DEADLINE_TRANSIENT,
                    context() + "the deadline passed before the compilation started");
    }
    if ((r = t.ANeuralNetworksCompilation_setTimeout(compilation, options.deadlineNs - now)) !=
        ANEURALNETWORKS_NO_ERROR)
      return fail("ANeuralNetworksCompilation_setTimeout", r);
  }
  passCaching(compilation, options);
  if (!options.extensionAttributes.empty()) {
    const auto add = driver_->table.ANeuralNetworksCompilation_addExtensionAttribute;
    if (add == nullptr) {
      t.ANeuralNetworksCompilation_free(compilation);
      return Status(ErrorStatus::INVALID_ARGUMENT,
                    context() + "the compilation has extension attributes but the plugin's "
                                "table is older than feature level 8 (no "
                                "ANeuralNetworksCompilation_addExtensionAttribute)");
    }
    for (const ExtensionAttribute& a : options.extensionAttributes) {
      if ((r = add(compilation, a.extension.c_str(), a.code,
                   a.data.empty() ? nullptr : a.data.data(), a.data.size())) !=
          ANEURALNETWORKS_NO_ERROR)
        return fail("ANeuralNetworksCompilation_addExtensionAttribute", r);
    }
  }
  if ((r = t.ANeuralNetworksCompilation_finish(compilation)) != ANEURALNETWORKS_NO_ERROR)
    return fail("ANeuralNetworksCompilation_finish", r);
  *prepared = std::make_shared<SlPreparedModel>(*this, model, std::move(replay), compilation);
  return kOk;
}

}  // namespace nn
