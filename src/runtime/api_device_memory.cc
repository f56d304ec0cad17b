// C entry points: global queries, ANeuralNetworksDevice_*, ANeuralNetworksMemory_*,
// ANeuralNetworksMemoryDesc_* and the diagnostics extension.
#include <android/NeuralNetworksDiagnostics.h>
#include <android/NeuralNetworksExtensions.h>

#include <cstring>
#include <new>

#include "runtime/api_util.h"
#include "runtime/device_manager.h"
#include "runtime/memory.h"
#include "runtime/memory_desc.h"
#include "runtime/compilation.h"

using namespace nn;

extern "C" {

int ANeuralNetworks_getDeviceCount(uint32_t* numDevices) {
  NN_API_BEGIN();
  NN_API_CHECK_NULL("ANeuralNetworks_getDeviceCount", numDevices);
  *numDevices = static_cast<uint32_t>(allDevices().size());
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworks_getDevice(uint32_t devIndex, ANeuralNetworksDevice** device) {
  NN_API_BEGIN();
  NN_API_CHECK_NULL("ANeuralNetworks_getDevice", device);
  const auto& devices = allDevices();
  if (devIndex >= devices.size()) {
    *device = nullptr;
    logError("ANeuralNetworks_getDevice: index %u out of range (%zu devices)", devIndex,
             devices.size());
    return ANEURALNETWORKS_BAD_DATA;
  }
  *device = reinterpret_cast<ANeuralNetworksDevice*>(const_cast<Device*>(devices[devIndex]));
  return ANEURALNETWORKS_NO_ERROR;
}

uint64_t ANeuralNetworks_getDefaultLoopTimeout(void) { return 2000000000ull; }
uint64_t ANeuralNetworks_getMaximumLoopTimeout(void) { return 15000000000ull; }
int64_t ANeuralNetworks_getRuntimeFeatureLevel(void) { return runtimeFeatureLevel(); }

static int checkDevice(const char* fn, const ANeuralNetworksDevice* device) {
  if (!isKnownDevice(fromHandle(device))) {
    logError("%s: not a device handle of this runtime", fn);
    return ANEURALNETWORKS_BAD_DATA;
  }
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksDevice_getName(const ANeuralNetworksDevice* device, const char** name) {
  const char* fn = "ANeuralNetworksDevice_getName";
  NN_API_BEGIN();
  NN_API_CHECK_NULL(fn, device);
  NN_API_CHECK_NULL(fn, name);
  if (int r = checkDevice(fn, device)) return r;
  *name = fromHandle(device)->name().c_str();
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksDevice_getType(const ANeuralNetworksDevice* device, int32_t* type) {
  const char* fn = "ANeuralNetworksDevice_getType";
  NN_API_BEGIN();
  NN_API_CHECK_NULL(fn, device);
  NN_API_CHECK_NULL(fn, type);
  if (int r = checkDevice(fn, device)) return r;
  *type = fromHandle(device)->type();
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksDevice_getVersion(const ANeuralNetworksDevice* device, const char** version) {
  const char* fn = "ANeuralNetworksDevice_getVersion";
  NN_API_BEGIN();
  NN_API_CHECK_NULL(fn, device);
  NN_API_CHECK_NULL(fn, version);
  if (int r = checkDevice(fn, device)) return r;
  *version = fromHandle(device)->version().c_str();
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksDevice_getFeatureLevel(const ANeuralNetworksDevice* device,
                                          int64_t* featureLevel) {
  const char* fn = "ANeuralNetworksDevice_getFeatureLevel";
  NN_API_BEGIN();
  NN_API_CHECK_NULL(fn, device);
  NN_API_CHECK_NULL(fn, featureLevel);
  if (int r = checkDevice(fn, device)) return r;
  *featureLevel = std::min(fromHandle(device)->featureLevel(), runtimeFeatureLevel());
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksDevice_wait(const ANeuralNetworksDevice* device) {
  NN_API_BEGIN();
  NN_API_CHECK_NULL("ANeuralNetworksDevice_wait", device);
  return checkDevice("ANeuralNetworksDevice_wait", device);  // in-process devices never die
}

int ANeuralNetworksDevice_getExtensionSupport(const ANeuralNetworksDevice* device,
                                              const char* extensionName,
                                              bool* isExtensionSupported) {
  const char* fn = "ANeuralNetworksDevice_getExtensionSupport";
  NN_API_BEGIN();
  NN_API_CHECK_NULL(fn, device);
  NN_API_CHECK_NULL(fn, extensionName);
  NN_API_CHECK_NULL(fn, isExtensionSupported);
  if (int r = checkDevice(fn, device)) return r;
  *isExtensionSupported = false;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksMemory_createFromFd(size_t size, int protect, int fd, size_t offset,
                                       ANeuralNetworksMemory** memory) {
  NN_API_BEGIN();
  NN_API_CHECK_NULL("ANeuralNetworksMemory_createFromFd", memory);
  *memory = nullptr;
  std::unique_ptr<RuntimeMemory> m;
  const int r = RuntimeMemory::createFromFd(size, protect, fd, offset, &m);
  if (r == ANEURALNETWORKS_NO_ERROR) *memory = reinterpret_cast<ANeuralNetworksMemory*>(m.release());
  return r;
}

int ANeuralNetworksMemory_createFromAHardwareBuffer(const AHardwareBuffer* ahwb,
                                                    ANeuralNetworksMemory** memory) {
  const char* fn = "ANeuralNetworksMemory_createFromAHardwareBuffer";
  NN_API_BEGIN();
  NN_API_CHECK_NULL(fn, memory);
  *memory = nullptr;
  NN_API_CHECK_NULL(fn, ahwb);
  logError("%s: AHardwareBuffer exists only on Android", fn);
  return ANEURALNETWORKS_UNMAPPABLE;
}

void ANeuralNetworksMemory_free(ANeuralNetworksMemory* memory) { delete fromHandle(memory); }

int ANeuralNetworksMemory_copy(const ANeuralNetworksMemory* src, const ANeuralNetworksMemory* dst) {
  const char* fn = "ANeuralNetworksMemory_copy";
  NN_API_BEGIN();
  NN_API_CHECK_NULL(fn, src);
  NN_API_CHECK_NULL(fn, dst);
  const RuntimeMemory* s = fromHandle(src);
  const RuntimeMemory* d = fromHandle(dst);
  if (s->desc() != nullptr && !s->initialized()) {
    logError("%s: the source memory holds no data yet (never written by an execution or copy)", fn);
    return ANEURALNETWORKS_BAD_DATA;
  }
  if (s->desc() != nullptr && d->desc() != nullptr) {
    Dims combined;
    if (s->desc()->type != d->desc()->type ||
        !combineDimensions(s->desc()->dimensions, d->desc()->dimensions, &combined)) {
      logError("%s: the descriptor memories have incompatible types or dimensions", fn);
      d->setInitialized(false);
      return ANEURALNETWORKS_BAD_DATA;
    }
  }
  if (s->size() != d->size()) {
    logError("%s: source (%zu bytes) and destination (%zu bytes) differ in size", fn, s->size(),
             d->size());
    if (d->desc()) d->setInitialized(false);
    return ANEURALNETWORKS_BAD_DATA;
  }
  if (!d->writable()) {
    logError("%s: the destination memory was mapped without PROT_WRITE", fn);
    return ANEURALNETWORKS_BAD_DATA;
  }
  if (!s->readable()) {
    logError("%s: the source memory was mapped without PROT_READ", fn);
    return ANEURALNETWORKS_BAD_DATA;
  }
  if (s != d) memmove(d->data(), s->data(), s->size());
  if (d->desc()) d->setInitialized(true);
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksMemoryDesc_create(ANeuralNetworksMemoryDesc** desc) {
  NN_API_BEGIN();
  NN_API_CHECK_NULL("ANeuralNetworksMemoryDesc_create", desc);
  auto* d = new (std::nothrow) RuntimeMemoryDesc();
  *desc = reinterpret_cast<ANeuralNetworksMemoryDesc*>(d);
  return d ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUT_OF_MEMORY;
}

void ANeuralNetworksMemoryDesc_free(ANeuralNetworksMemoryDesc* desc) {
  delete reinterpret_cast<RuntimeMemoryDesc*>(desc);
}

int ANeuralNetworksMemoryDesc_addInputRole(ANeuralNetworksMemoryDesc* desc,
                                           const ANeuralNetworksCompilation* compilation,
                                           uint32_t index, float frequency) {
  NN_API_BEGIN();
  NN_API_CHECK_NULL("ANeuralNetworksMemoryDesc_addInputRole", desc);
  NN_API_CHECK_NULL("ANeuralNetworksMemoryDesc_addInputRole", compilation);
  return reinterpret_cast<RuntimeMemoryDesc*>(desc)->addRole(fromHandle(compilation), true, index,
                                                             frequency);
}

int ANeuralNetworksMemoryDesc_addOutputRole(ANeuralNetworksMemoryDesc* desc,
                                            const ANeuralNetworksCompilation* compilation,
                                            uint32_t index, float frequency) {
  NN_API_BEGIN();
  NN_API_CHECK_NULL("ANeuralNetworksMemoryDesc_addOutputRole", desc);
  NN_API_CHECK_NULL("ANeuralNetworksMemoryDesc_addOutputRole", compilation);
  return reinterpret_cast<RuntimeMemoryDesc*>(desc)->addRole(fromHandle(compilation), false,
                                                             index, frequency);
}

int ANeuralNetworksMemoryDesc_setDimensions(ANeuralNetworksMemoryDesc* desc, uint32_t rank,
                                            const uint32_t* dimensions) {
  const char* fn = "ANeuralNetworksMemoryDesc_setDimensions";
  NN_API_BEGIN();
  NN_API_CHECK_NULL(fn, desc);
  if (dimensions == nullptr && rank > 0) {
    logError("%s: dimensions is NULL but rank is %u", fn, rank);
    return ANEURALNETWORKS_UNEXPECTED_NULL;
  }
  return reinterpret_cast<RuntimeMemoryDesc*>(desc)->setDimensions(rank, dimensions);
}

int ANeuralNetworksMemoryDesc_finish(ANeuralNetworksMemoryDesc* desc) {
  NN_API_BEGIN();
  NN_API_CHECK_NULL("ANeuralNetworksMemoryDesc_finish", desc);
  return reinterpret_cast<RuntimeMemoryDesc*>(desc)->finish();
}

int ANeuralNetworksMemory_createFromDesc(const ANeuralNetworksMemoryDesc* desc,
                                         ANeuralNetworksMemory** memory) {
  const char* fn = "ANeuralNetworksMemory_createFromDesc";
  NN_API_BEGIN();
  NN_API_CHECK_NULL(fn, memory);
  *memory = nullptr;
  NN_API_CHECK_NULL(fn, desc);
  const auto* d = reinterpret_cast<const RuntimeMemoryDesc*>(desc);
  if (!d->isFinished()) {
    logError("%s: the descriptor is not finished", fn);
    return ANEURALNETWORKS_BAD_STATE;
  }
  if (!isFullySpecified(d->info().type, d->info().dimensions)) {
    // Allocation happens up front on this CPU runtime, so the size must be known.
    logError("%s: the descriptor's shape %s is not fully specified (use setDimensions)", fn,
             toString(d->info().dimensions).c_str());
    return ANEURALNETWORKS_OP_FAILED;
  }
  std::unique_ptr<RuntimeMemory> m;
  const int r = RuntimeMemory::createFromDesc(d->info(), &m);
  if (r == ANEURALNETWORKS_NO_ERROR) *memory = reinterpret_cast<ANeuralNetworksMemory*>(m.release());
  return r;
}

const char* ANNLinux_getLastErrorMessage(void) { return lastError().c_str(); }
void ANNLinux_clearLastErrorMessage(void) { clearLastError(); }

}  // extern "C"
