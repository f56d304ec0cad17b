// C entry points: global queries, ANeuralNetworksDevice_*, ANeuralNetworksMemory_*,
// ANeuralNetworksMemoryDesc_* and the diagnostics extension.
#include <android/NeuralNetworksDiagnostics.h>
#include <android/NeuralNetworksExtensions.h>

#include <cstring>
#include <new>

#include "hal/log.h"
#include "runtime/api_util.h"
#include "runtime/compilation.h"
#include "runtime/device_manager.h"
#include "runtime/extension_lookup.h"
#include "runtime/memory.h"
#include "runtime/memory_desc.h"

using namespace nn;

namespace {

ApiResult checkDevice(const char* fn, const ANeuralNetworksDevice* device) {
  if (!isKnownDevice(fromHandle(device)))
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: not a device handle of this runtime", fn);
  return apiOk();
}

}  // namespace

extern "C" {

int ANeuralNetworks_getDeviceCount(uint32_t* numDevices) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworks_getDeviceCount", numDevices);
    *numDevices = static_cast<uint32_t>(allDevices().size());
    return apiOk();
  });
}

int ANeuralNetworks_getDevice(uint32_t devIndex, ANeuralNetworksDevice** device) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworks_getDevice", device);
    const auto& devices = allDevices();
    if (devIndex >= devices.size()) {
      *device = nullptr;
      return apiError(ANEURALNETWORKS_BAD_DATA,
                      "ANeuralNetworks_getDevice: index %u out of range (%zu devices)", devIndex,
                      devices.size());
    }
    *device = reinterpret_cast<ANeuralNetworksDevice*>(const_cast<Device*>(devices[devIndex]));
    return apiOk();
  });
}

uint64_t ANeuralNetworks_getDefaultLoopTimeout(void) { return 2000000000ull; }
uint64_t ANeuralNetworks_getMaximumLoopTimeout(void) { return 15000000000ull; }
int64_t ANeuralNetworks_getRuntimeFeatureLevel(void) { return runtimeFeatureLevel(); }

int ANeuralNetworksDevice_getName(const ANeuralNetworksDevice* device, const char** name) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksDevice_getName";
    NN_API_CHECK_NULL(fn, device);
    NN_API_CHECK_NULL(fn, name);
    NN_API_RETURN_IF_ERROR(checkDevice(fn, device));
    *name = fromHandle(device)->name().c_str();
    return apiOk();
  });
}

int ANeuralNetworksDevice_getType(const ANeuralNetworksDevice* device, int32_t* type) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksDevice_getType";
    NN_API_CHECK_NULL(fn, device);
    NN_API_CHECK_NULL(fn, type);
    NN_API_RETURN_IF_ERROR(checkDevice(fn, device));
    *type = fromHandle(device)->type();
    return apiOk();
  });
}

int ANeuralNetworksDevice_getVersion(const ANeuralNetworksDevice* device, const char** version) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksDevice_getVersion";
    NN_API_CHECK_NULL(fn, device);
    NN_API_CHECK_NULL(fn, version);
    NN_API_RETURN_IF_ERROR(checkDevice(fn, device));
    *version = fromHandle(device)->version().c_str();
    return apiOk();
  });
}

int ANeuralNetworksDevice_getFeatureLevel(const ANeuralNetworksDevice* device,
                                          int64_t* featureLevel) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksDevice_getFeatureLevel";
    NN_API_CHECK_NULL(fn, device);
    NN_API_CHECK_NULL(fn, featureLevel);
    NN_API_RETURN_IF_ERROR(checkDevice(fn, device));
    *featureLevel = std::min(fromHandle(device)->featureLevel(), runtimeFeatureLevel());
    return apiOk();
  });
}

int ANeuralNetworksDevice_wait(const ANeuralNetworksDevice* device) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksDevice_wait", device);
    return checkDevice("ANeuralNetworksDevice_wait", device);  // in-process devices never die
  });
}

int ANeuralNetworksDevice_getExtensionSupport(const ANeuralNetworksDevice* device,
                                              const char* extensionName,
                                              bool* isExtensionSupported) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksDevice_getExtensionSupport";
    NN_API_CHECK_NULL(fn, device);
    NN_API_CHECK_NULL(fn, extensionName);
    NN_API_CHECK_NULL(fn, isExtensionSupported);
    NN_API_RETURN_IF_ERROR(checkDevice(fn, device));
    *isExtensionSupported = deviceDeclaresExtension(fromHandle(device), extensionName);
    return apiOk();
  });
}

int ANeuralNetworksMemory_createFromFd(size_t size, int protect, int fd, size_t offset,
                                       ANeuralNetworksMemory** memory) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksMemory_createFromFd", memory);
    *memory = nullptr;
    std::unique_ptr<RuntimeMemory> m;
    NN_API_RETURN_IF_ERROR(RuntimeMemory::createFromFd(size, protect, fd, offset, &m));
    *memory = reinterpret_cast<ANeuralNetworksMemory*>(m.release());
    return apiOk();
  });
}

int ANeuralNetworksMemory_createFromAHardwareBuffer(const AHardwareBuffer* ahwb,
                                                    ANeuralNetworksMemory** memory) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksMemory_createFromAHardwareBuffer";
    NN_API_CHECK_NULL(fn, memory);
    *memory = nullptr;
    NN_API_CHECK_NULL(fn, ahwb);
    return apiError(ANEURALNETWORKS_UNMAPPABLE, "%s: AHardwareBuffer exists only on Android", fn);
  });
}

void ANeuralNetworksMemory_free(ANeuralNetworksMemory* memory) { delete fromHandle(memory); }

int ANeuralNetworksMemory_copy(const ANeuralNetworksMemory* src, const ANeuralNetworksMemory* dst) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksMemory_copy";
    NN_API_CHECK_NULL(fn, src);
    NN_API_CHECK_NULL(fn, dst);
    const RuntimeMemory* s = fromHandle(src);
    const RuntimeMemory* d = fromHandle(dst);
    if (s->desc() != nullptr && !s->initialized()) {
      return apiError(ANEURALNETWORKS_BAD_DATA,
                      "%s: the source memory holds no data yet (never written by an "
                      "execution or copy)", fn);
    }
    if (s->desc() != nullptr && d->desc() != nullptr) {
      Dims combined;
      if (s->desc()->type != d->desc()->type ||
          !combineDimensions(s->desc()->dimensions, d->desc()->dimensions, &combined)) {
        d->setInitialized(false);
        return apiError(ANEURALNETWORKS_BAD_DATA,
                        "%s: the descriptor memories have incompatible types or dimensions", fn);
      }
    }
    if (s->size() != d->size()) {
      if (d->desc()) d->setInitialized(false);
      return apiError(ANEURALNETWORKS_BAD_DATA,
                      "%s: source (%zu bytes) and destination (%zu bytes) differ in size", fn,
                      s->size(), d->size());
    }
    if (!d->writable()) {
      return apiError(ANEURALNETWORKS_BAD_DATA,
                      "%s: the destination memory was mapped without PROT_WRITE", fn);
    }
    if (!s->readable()) {
      return apiError(ANEURALNETWORKS_BAD_DATA,
                      "%s: the source memory was mapped without PROT_READ", fn);
    }
    if (s != d) memmove(d->data(), s->data(), s->size());
    if (d->desc()) d->setInitialized(true);
    return apiOk();
  });
}

int ANeuralNetworksMemoryDesc_create(ANeuralNetworksMemoryDesc** desc) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksMemoryDesc_create";
    NN_API_CHECK_NULL(fn, desc);
    auto* d = new (std::nothrow) RuntimeMemoryDesc();
    *desc = reinterpret_cast<ANeuralNetworksMemoryDesc*>(d);
    if (d == nullptr) return apiError(ANEURALNETWORKS_OUT_OF_MEMORY, "%s: out of memory", fn);
    return apiOk();
  });
}

void ANeuralNetworksMemoryDesc_free(ANeuralNetworksMemoryDesc* desc) {
  delete reinterpret_cast<RuntimeMemoryDesc*>(desc);
}

int ANeuralNetworksMemoryDesc_addInputRole(ANeuralNetworksMemoryDesc* desc,
                                           const ANeuralNetworksCompilation* compilation,
                                           uint32_t index, float frequency) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksMemoryDesc_addInputRole", desc);
    NN_API_CHECK_NULL("ANeuralNetworksMemoryDesc_addInputRole", compilation);
    return reinterpret_cast<RuntimeMemoryDesc*>(desc)->addRole(fromHandle(compilation), true, index,
                                                               frequency);
  });
}

int ANeuralNetworksMemoryDesc_addOutputRole(ANeuralNetworksMemoryDesc* desc,
                                            const ANeuralNetworksCompilation* compilation,
                                            uint32_t index, float frequency) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksMemoryDesc_addOutputRole", desc);
    NN_API_CHECK_NULL("ANeuralNetworksMemoryDesc_addOutputRole", compilation);
    return reinterpret_cast<RuntimeMemoryDesc*>(desc)->addRole(fromHandle(compilation), false,
                                                               index, frequency);
  });
}

int ANeuralNetworksMemoryDesc_setDimensions(ANeuralNetworksMemoryDesc* desc, uint32_t rank,
                                            const uint32_t* dimensions) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksMemoryDesc_setDimensions";
    NN_API_CHECK_NULL(fn, desc);
    if (dimensions == nullptr && rank > 0) {
      return apiError(ANEURALNETWORKS_UNEXPECTED_NULL, "%s: dimensions is NULL but rank is %u", fn,
                      rank);
    }
    return reinterpret_cast<RuntimeMemoryDesc*>(desc)->setDimensions(rank, dimensions);
  });
}

int ANeuralNetworksMemoryDesc_finish(ANeuralNetworksMemoryDesc* desc) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksMemoryDesc_finish", desc);
    return reinterpret_cast<RuntimeMemoryDesc*>(desc)->finish();
  });
}

int ANeuralNetworksMemory_createFromDesc(const ANeuralNetworksMemoryDesc* desc,
                                         ANeuralNetworksMemory** memory) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksMemory_createFromDesc";
    NN_API_CHECK_NULL(fn, memory);
    *memory = nullptr;
    NN_API_CHECK_NULL(fn, desc);
    const auto* d = reinterpret_cast<const RuntimeMemoryDesc*>(desc);
    if (!d->isFinished())
      return apiError(ANEURALNETWORKS_BAD_STATE, "%s: the descriptor is not finished", fn);
    if (!isFullySpecified(d->info().type, d->info().dimensions)) {
      // Allocation happens up front on this CPU runtime, so the size must be known.
      return apiError(ANEURALNETWORKS_OP_FAILED,
                      "%s: the descriptor's shape %s is not fully specified (use setDimensions)",
                      fn, toString(d->info().dimensions).c_str());
    }
    std::unique_ptr<RuntimeMemory> m;
    NN_API_RETURN_IF_ERROR(RuntimeMemory::createFromDesc(d->info(), &m));
    *memory = reinterpret_cast<ANeuralNetworksMemory*>(m.release());
    return apiOk();
  });
}

// The diagnostics extension reads the store the boundary (record) writes.
const char* ANNLinux_getLastErrorMessage(void) { return lastError().c_str(); }
void ANNLinux_clearLastErrorMessage(void) { clearLastError(); }

}  // extern "C"
