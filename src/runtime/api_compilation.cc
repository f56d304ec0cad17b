// C entry points: ANeuralNetworksCompilation_* and ANeuralNetworksBurst_*.
#include <algorithm>
#include <new>

#include "runtime/api_util.h"
#include "runtime/compilation.h"
#include "runtime/device_manager.h"
#include "runtime/execution.h"
#include "runtime/model.h"

using namespace nn;

namespace {

int checkModelForCompilation(const char* fn, const RuntimeModel* m) {
  if (!m->isValid()) {
    logError("%s: the model is not finished or failed validation", fn);
    return ANEURALNETWORKS_BAD_STATE;
  }
  return ANEURALNETWORKS_NO_ERROR;
}

int checkFinished(const char* fn, const RuntimeCompilation* c) {
  if (!c->isValid()) {
    logError("%s: the compilation is not finished or failed", fn);
    return ANEURALNETWORKS_BAD_STATE;
  }
  return ANEURALNETWORKS_NO_ERROR;
}

}  // namespace

extern "C" {

int ANeuralNetworksCompilation_create(ANeuralNetworksModel* model,
                                      ANeuralNetworksCompilation** compilation) {
  const char* fn = "ANeuralNetworksCompilation_create";
  NN_API_BEGIN();
  NN_API_CHECK_NULL(fn, compilation);
  *compilation = nullptr;
  NN_API_CHECK_NULL(fn, model);
  const RuntimeModel* m = fromHandle(model);
  if (int r = checkModelForCompilation(fn, m)) return r;
  auto* c = new (std::nothrow) RuntimeCompilation(m, allDevices(), false);
  if (c == nullptr) return ANEURALNETWORKS_OUT_OF_MEMORY;
  *compilation = reinterpret_cast<ANeuralNetworksCompilation*>(c);
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksCompilation_createForDevices(ANeuralNetworksModel* model,
                                                const ANeuralNetworksDevice* const* devices,
                                                uint32_t numDevices,
                                                ANeuralNetworksCompilation** compilation) {
  const char* fn = "ANeuralNetworksCompilation_createForDevices";
  NN_API_BEGIN();
  NN_API_CHECK_NULL(fn, compilation);
  *compilation = nullptr;
  NN_API_CHECK_NULL(fn, model);
  NN_API_CHECK_NULL(fn, devices);
  if (numDevices == 0) {
    logError("%s: numDevices is 0", fn);
    return ANEURALNETWORKS_BAD_DATA;
  }
  std::vector<const Device*> list;
  for (uint32_t i = 0; i < numDevices; ++i) {
    NN_API_CHECK_NULL(fn, devices[i]);
    const Device* d = fromHandle(devices[i]);
    if (!isKnownDevice(d)) {
      logError("%s: devices[%u] is not a device handle of this runtime", fn, i);
      return ANEURALNETWORKS_BAD_DATA;
    }
    for (const Device* seen : list) {
      if (seen == d) {
        logError("%s: device %s is listed twice", fn, d->name().c_str());
        return ANEURALNETWORKS_BAD_DATA;
      }
    }
    list.push_back(d);
  }
  const RuntimeModel* m = fromHandle(model);
  if (int r = checkModelForCompilation(fn, m)) return r;
  // Prefer the fast CPU device when a caller lists both CPU devices.
  std::stable_sort(list.begin(), list.end(), [](const Device* a, const Device* b) {
    const auto& all = allDevices();
    return std::find(all.begin(), all.end(), a) < std::find(all.begin(), all.end(), b);
  });
  auto* c = new (std::nothrow) RuntimeCompilation(m, std::move(list), true);
  if (c == nullptr) return ANEURALNETWORKS_OUT_OF_MEMORY;
  *compilation = reinterpret_cast<ANeuralNetworksCompilation*>(c);
  return ANEURALNETWORKS_NO_ERROR;
}

void ANeuralNetworksCompilation_free(ANeuralNetworksCompilation* compilation) {
  delete fromHandle(compilation);
}

int ANeuralNetworksCompilation_setPreference(ANeuralNetworksCompilation* compilation,
                                             int32_t preference) {
  NN_API_BEGIN();
  NN_API_CHECK_NULL("ANeuralNetworksCompilation_setPreference", compilation);
  return fromHandle(compilation)->setPreference(preference);
}

int ANeuralNetworksCompilation_setCaching(ANeuralNetworksCompilation* compilation,
                                          const char* cacheDir, const uint8_t* token) {
  NN_API_BEGIN();
  NN_API_CHECK_NULL("ANeuralNetworksCompilation_setCaching", compilation);
  NN_API_CHECK_NULL("ANeuralNetworksCompilation_setCaching", cacheDir);
  NN_API_CHECK_NULL("ANeuralNetworksCompilation_setCaching", token);
  return fromHandle(compilation)->setCaching(cacheDir, token);
}

int ANeuralNetworksCompilation_setPriority(ANeuralNetworksCompilation* compilation, int priority) {
  NN_API_BEGIN();
  NN_API_CHECK_NULL("ANeuralNetworksCompilation_setPriority", compilation);
  return fromHandle(compilation)->setPriority(priority);
}

int ANeuralNetworksCompilation_setTimeout(ANeuralNetworksCompilation* compilation,
                                          uint64_t duration) {
  NN_API_BEGIN();
  NN_API_CHECK_NULL("ANeuralNetworksCompilation_setTimeout", compilation);
  return fromHandle(compilation)->setTimeout(duration);
}

int ANeuralNetworksCompilation_finish(ANeuralNetworksCompilation* compilation) {
  NN_API_BEGIN();
  NN_API_CHECK_NULL("ANeuralNetworksCompilation_finish", compilation);
  return fromHandle(compilation)->finish();
}

static int preferredMemoryQuery(const char* fn, const ANeuralNetworksCompilation* compilation,
                                uint32_t index, uint32_t* out, bool input, uint32_t value) {
  NN_API_BEGIN();
  NN_API_CHECK_NULL(fn, compilation);
  NN_API_CHECK_NULL(fn, out);
  const RuntimeCompilation* c = fromHandle(compilation);
  if (int r = checkFinished(fn, c)) return r;
  const Subgraph& sg = c->canonicalModel()->main;
  const size_t count = input ? sg.inputIndexes.size() : sg.outputIndexes.size();
  if (index >= count) {
    logError("%s: index %u out of range (%zu %s)", fn, index, count, input ? "inputs" : "outputs");
    return ANEURALNETWORKS_BAD_DATA;
  }
  *out = value;
  return ANEURALNETWORKS_NO_ERROR;
}

// Kernels like 64-byte aligned buffers (one cache line / one AVX-512 vector).
int ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput(
    const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* alignment) {
  return preferredMemoryQuery("ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput",
                              compilation, index, alignment, true, 64);
}
int ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput(
    const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* padding) {
  return preferredMemoryQuery("ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput",
                              compilation, index, padding, true, 64);
}
int ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput(
    const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* alignment) {
  return preferredMemoryQuery("ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput",
                              compilation, index, alignment, false, 64);
}
int ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput(
    const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* padding) {
  return preferredMemoryQuery("ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput",
                              compilation, index, padding, false, 64);
}

int ANeuralNetworksCompilation_addExtensionAttribute(ANeuralNetworksCompilation* compilation,
                                                     const char* extensionName,
                                                     uint16_t attributeCodeWithinExtension,
                                                     const void* data, size_t length) {
  const char* fn = "ANeuralNetworksCompilation_addExtensionAttribute";
  NN_API_BEGIN();
  NN_API_CHECK_NULL(fn, compilation);
  NN_API_CHECK_NULL(fn, extensionName);
  if (data == nullptr && length > 0) {
    logError("%s: data is NULL but length is %zu", fn, length);
    return ANEURALNETWORKS_UNEXPECTED_NULL;
  }
  RuntimeCompilation* c = fromHandle(compilation);
  if (c->isFinished()) {
    logError("%s: the compilation is already finished", fn);
    return ANEURALNETWORKS_BAD_STATE;
  }
  logError("%s: extension '%s' is not supported by any device", fn, extensionName);
  return ANEURALNETWORKS_BAD_DATA;
}

int ANeuralNetworksBurst_create(ANeuralNetworksCompilation* compilation,
                                ANeuralNetworksBurst** burst) {
  const char* fn = "ANeuralNetworksBurst_create";
  NN_API_BEGIN();
  NN_API_CHECK_NULL(fn, burst);
  *burst = nullptr;
  NN_API_CHECK_NULL(fn, compilation);
  const RuntimeCompilation* c = fromHandle(compilation);
  if (int r = checkFinished(fn, c)) return r;
  auto* b = new (std::nothrow) RuntimeBurst(c);
  if (b == nullptr) return ANEURALNETWORKS_OUT_OF_MEMORY;
  *burst = reinterpret_cast<ANeuralNetworksBurst*>(b);
  return ANEURALNETWORKS_NO_ERROR;
}

void ANeuralNetworksBurst_free(ANeuralNetworksBurst* burst) { delete fromHandle(burst); }

}  // extern "C"
