// C entry points: ANeuralNetworksCompilation_* and ANeuralNetworksBurst_*.
#include <android/NeuralNetworksDiagnostics.h>

#include <algorithm>
#include <new>

#include "runtime/api_util.h"
#include "runtime/compilation.h"
#include "runtime/device_manager.h"
#include "runtime/diagnostics.h"
#include "runtime/execution.h"
#include "runtime/model.h"

using namespace nn;

namespace {

ApiResult checkModelForCompilation(const char* fn, const RuntimeModel* m) {
  if (!m->isValid()) {
    return apiError(ANEURALNETWORKS_BAD_STATE, "%s: the model is not finished or failed validation",
                    fn);
  }
  return apiOk();
}

ApiResult checkFinished(const char* fn, const RuntimeCompilation* c) {
  if (!c->isValid()) {
    return apiError(ANEURALNETWORKS_BAD_STATE, "%s: the compilation is not finished or failed", fn);
  }
  return apiOk();
}

ApiResult preferredMemoryQuery(const char* fn, const ANeuralNetworksCompilation* compilation,
                               uint32_t index, uint32_t* out, bool input, uint32_t value) {
  NN_API_CHECK_NULL(fn, compilation);
  NN_API_CHECK_NULL(fn, out);
  const RuntimeCompilation* c = fromHandle(compilation);
  NN_API_RETURN_IF_ERROR(checkFinished(fn, c));
  const Subgraph& sg = c->canonicalModel()->main;
  const size_t count = input ? sg.inputIndexes.size() : sg.outputIndexes.size();
  if (index >= count) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: index %u out of range (%zu %s)", fn, index,
                    count, input ? "inputs" : "outputs");
  }
  *out = value;
  return apiOk();
}

}  // namespace

extern "C" {

int ANeuralNetworksCompilation_create(ANeuralNetworksModel* model,
                                      ANeuralNetworksCompilation** compilation) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksCompilation_create";
    NN_API_CHECK_NULL(fn, compilation);
    *compilation = nullptr;
    NN_API_CHECK_NULL(fn, model);
    const RuntimeModel* m = fromHandle(model);
    NN_API_RETURN_IF_ERROR(checkModelForCompilation(fn, m));
    auto* c = new (std::nothrow) RuntimeCompilation(m, allDevices(), false);
    if (c == nullptr) return apiError(ANEURALNETWORKS_OUT_OF_MEMORY, "%s: out of memory", fn);
    *compilation = reinterpret_cast<ANeuralNetworksCompilation*>(c);
    return apiOk();
  });
}

int ANeuralNetworksCompilation_createForDevices(ANeuralNetworksModel* model,
                                                const ANeuralNetworksDevice* const* devices,
                                                uint32_t numDevices,
                                                ANeuralNetworksCompilation** compilation) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksCompilation_createForDevices";
    NN_API_CHECK_NULL(fn, compilation);
    *compilation = nullptr;
    NN_API_CHECK_NULL(fn, model);
    NN_API_CHECK_NULL(fn, devices);
    if (numDevices == 0) return apiError(ANEURALNETWORKS_BAD_DATA, "%s: numDevices is 0", fn);
    std::vector<const Device*> list;
    for (uint32_t i = 0; i < numDevices; ++i) {
      NN_API_CHECK_NULL(fn, devices[i]);
      const Device* d = fromHandle(devices[i]);
      if (!isKnownDevice(d)) {
        return apiError(ANEURALNETWORKS_BAD_DATA,
                        "%s: devices[%u] is not a device handle of this runtime", fn, i);
      }
      for (const Device* seen : list) {
        if (seen == d) {
          return apiError(ANEURALNETWORKS_BAD_DATA, "%s: device %s is listed twice", fn,
                          d->name().c_str());
        }
      }
      list.push_back(d);
    }
    const RuntimeModel* m = fromHandle(model);
    NN_API_RETURN_IF_ERROR(checkModelForCompilation(fn, m));
    // Prefer the fast CPU device when a caller lists both CPU devices.
    std::stable_sort(list.begin(), list.end(), [](const Device* a, const Device* b) {
      const auto& all = allDevices();
      return std::find(all.begin(), all.end(), a) < std::find(all.begin(), all.end(), b);
    });
    auto* c = new (std::nothrow) RuntimeCompilation(m, std::move(list), true);
    if (c == nullptr) return apiError(ANEURALNETWORKS_OUT_OF_MEMORY, "%s: out of memory", fn);
    *compilation = reinterpret_cast<ANeuralNetworksCompilation*>(c);
    return apiOk();
  });
}

void ANeuralNetworksCompilation_free(ANeuralNetworksCompilation* compilation) {
  delete fromHandle(compilation);
}

int ANeuralNetworksCompilation_setPreference(ANeuralNetworksCompilation* compilation,
                                             int32_t preference) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksCompilation_setPreference", compilation);
    return fromHandle(compilation)->setPreference(preference);
  });
}

int ANeuralNetworksCompilation_setCaching(ANeuralNetworksCompilation* compilation,
                                          const char* cacheDir, const uint8_t* token) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksCompilation_setCaching", compilation);
    NN_API_CHECK_NULL("ANeuralNetworksCompilation_setCaching", cacheDir);
    NN_API_CHECK_NULL("ANeuralNetworksCompilation_setCaching", token);
    return fromHandle(compilation)->setCaching(cacheDir, token);
  });
}

int ANeuralNetworksCompilation_setPriority(ANeuralNetworksCompilation* compilation, int priority) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksCompilation_setPriority", compilation);
    return fromHandle(compilation)->setPriority(priority);
  });
}

int ANeuralNetworksCompilation_setTimeout(ANeuralNetworksCompilation* compilation,
                                          uint64_t duration) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksCompilation_setTimeout", compilation);
    return fromHandle(compilation)->setTimeout(duration);
  });
}

int ANeuralNetworksCompilation_finish(ANeuralNetworksCompilation* compilation) {
  // SL diagnostics: every compilation attempt (success or failure) is reported once; a second
  // finish (BAD_STATE) is not an attempt. Nothing but one relaxed load without callbacks.
  const bool report = diag::enabled() && compilation != nullptr &&
                      !fromHandle(compilation)->isFinished();
  const uint64_t startNs = report ? diag::nowNs() : 0;
  const int code = apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksCompilation_finish", compilation);
    return fromHandle(compilation)->finish();
  });
  if (report) diag::compilationFinished(*fromHandle(compilation), code, startNs);
  return code;
}

// Kernels like 64-byte aligned buffers (one cache line / one AVX-512 vector).
int ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput(
    const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* alignment) {
  return apiCall([&] {
    return preferredMemoryQuery("ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput",
                                compilation, index, alignment, true, 64);
  });
}
int ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput(
    const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* padding) {
  return apiCall([&] {
    return preferredMemoryQuery("ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput",
                                compilation, index, padding, true, 64);
  });
}
int ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput(
    const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* alignment) {
  return apiCall([&] {
    return preferredMemoryQuery("ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput",
                                compilation, index, alignment, false, 64);
  });
}
int ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput(
    const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* padding) {
  return apiCall([&] {
    return preferredMemoryQuery("ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput",
                                compilation, index, padding, false, 64);
  });
}

int ANeuralNetworksCompilation_addExtensionAttribute(ANeuralNetworksCompilation* compilation,
                                                     const char* extensionName,
                                                     uint16_t attributeCodeWithinExtension,
                                                     const void* data, size_t length) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksCompilation_addExtensionAttribute";
    NN_API_CHECK_NULL(fn, compilation);
    NN_API_CHECK_NULL(fn, extensionName);
    if (data == nullptr && length > 0) {
      return apiError(ANEURALNETWORKS_UNEXPECTED_NULL, "%s: data is NULL but length is %zu", fn,
                      length);
    }
    return fromHandle(compilation)
        ->addExtensionAttribute(extensionName, attributeCodeWithinExtension, data, length);
  });
}

int ANeuralNetworksBurst_create(ANeuralNetworksCompilation* compilation,
                                ANeuralNetworksBurst** burst) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksBurst_create";
    NN_API_CHECK_NULL(fn, burst);
    *burst = nullptr;
    NN_API_CHECK_NULL(fn, compilation);
    const RuntimeCompilation* c = fromHandle(compilation);
    NN_API_RETURN_IF_ERROR(checkFinished(fn, c));
    auto* b = new (std::nothrow) RuntimeBurst(c);
    if (b == nullptr) return apiError(ANEURALNETWORKS_OUT_OF_MEMORY, "%s: out of memory", fn);
    *burst = reinterpret_cast<ANeuralNetworksBurst*>(b);
    return apiOk();
  });
}

void ANeuralNetworksBurst_free(ANeuralNetworksBurst* burst) { delete fromHandle(burst); }

int ANNLinux_Compilation_setCpuThreadCount(ANeuralNetworksCompilation* compilation,
                                           uint32_t threads) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANNLinux_Compilation_setCpuThreadCount", compilation);
    return fromHandle(compilation)->setCpuThreadCount(threads);
  });
}

// ---- Partitioning plan (issue 8) ----

int ANNLinux_Compilation_getStepCount(const ANeuralNetworksCompilation* compilation,
                                      uint32_t* count) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANNLinux_Compilation_getStepCount";
    NN_API_CHECK_NULL(fn, compilation);
    NN_API_CHECK_NULL(fn, count);
    const RuntimeCompilation* c = fromHandle(compilation);
    NN_API_RETURN_IF_ERROR(checkFinished(fn, c));
    *count = c->stepCount();
    return apiOk();
  });
}

int ANNLinux_Compilation_getStepDevice(const ANeuralNetworksCompilation* compilation,
                                       uint32_t step, const ANeuralNetworksDevice** device) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANNLinux_Compilation_getStepDevice";
    NN_API_CHECK_NULL(fn, compilation);
    NN_API_CHECK_NULL(fn, device);
    const RuntimeCompilation* c = fromHandle(compilation);
    NN_API_RETURN_IF_ERROR(checkFinished(fn, c));
    const Device* d = nullptr;
    const ApiResult r = c->stepDevice(step, &d);
    if (!r.ok()) return ApiResult(r.code(), std::string(fn) + ": " + r.message());
    *device = reinterpret_cast<const ANeuralNetworksDevice*>(d);
    return apiOk();
  });
}

int ANNLinux_Compilation_getOperationDevice(const ANeuralNetworksCompilation* compilation,
                                            uint32_t operationIndex,
                                            const ANeuralNetworksDevice** device) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANNLinux_Compilation_getOperationDevice";
    NN_API_CHECK_NULL(fn, compilation);
    NN_API_CHECK_NULL(fn, device);
    const RuntimeCompilation* c = fromHandle(compilation);
    NN_API_RETURN_IF_ERROR(checkFinished(fn, c));
    const Device* d = nullptr;
    const ApiResult r = c->operationDevice(operationIndex, &d);
    if (!r.ok()) return ApiResult(r.code(), std::string(fn) + ": " + r.message());
    *device = reinterpret_cast<const ANeuralNetworksDevice*>(d);
    return apiOk();
  });
}

}  // extern "C"
