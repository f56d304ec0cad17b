// C entry points of the Support Library that have no NDK counterpart (ABI.md 4.4): device
// capability queries and cache files given as fds. Exported as plain symbols and through the
// SL table (api_sl.cc).
#include <android/NeuralNetworksSupportLibraryImpl.h>

#include "runtime/api_util.h"
#include "runtime/compilation.h"
#include "runtime/device_manager.h"

using namespace nn;

namespace {

ApiResult checkDevice(const char* fn, const ANeuralNetworksDevice* device) {
  if (!isKnownDevice(fromHandle(device)))
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: not a device handle of this runtime", fn);
  return apiOk();
}

SL_ANeuralNetworksPerformanceInfo toSl(const PerformanceInfo& p) {
  return SL_ANeuralNetworksPerformanceInfo{p.execTime, p.powerUsage};
}

// The operand types every device is asked about: OperandCode 0 (FLOAT32) ..
// 14 (TENSOR_QUANT8_ASYMM_SIGNED). SUBGRAPH (15) has no performance of its own (IF/WHILE do).
constexpr int32_t kLastOperandCode = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;

ApiResult checkExtensionIndex(const char* fn, const Device* d, uint32_t index) {
  if (index >= d->extensions().size()) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: vendor extension index %u out of range (%s has %zu)",
                    fn, index, d->name().c_str(), d->extensions().size());
  }
  return apiOk();
}

}  // namespace

extern "C" {

int SL_ANeuralNetworksCompilation_setCachingFromFds(ANeuralNetworksCompilation* compilation,
                                                    const int* modelCacheFds,
                                                    const uint32_t numModelCacheFiles,
                                                    const int* dataCacheFds,
                                                    const uint32_t numDataCacheFiles,
                                                    const uint8_t* token) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "SL_ANeuralNetworksCompilation_setCachingFromFds";
    NN_API_CHECK_NULL(fn, compilation);
    NN_API_CHECK_NULL(fn, token);
    if (modelCacheFds == nullptr && numModelCacheFiles != 0) {
      return apiError(ANEURALNETWORKS_UNEXPECTED_NULL,
                      "%s: modelCacheFds is NULL but numModelCacheFiles is %u", fn,
                      numModelCacheFiles);
    }
    if (dataCacheFds == nullptr && numDataCacheFiles != 0) {
      return apiError(ANEURALNETWORKS_UNEXPECTED_NULL,
                      "%s: dataCacheFds is NULL but numDataCacheFiles is %u", fn,
                      numDataCacheFiles);
    }
    return fromHandle(compilation)
        ->setCachingFromFds(modelCacheFds, numModelCacheFiles, dataCacheFds, numDataCacheFiles,
                            token);
  });
}

int SL_ANeuralNetworksDevice_getNumberOfCacheFilesNeeded(const ANeuralNetworksDevice* device,
                                                         uint32_t* numModelCacheFiles,
                                                         uint32_t* numDataCacheFiles) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "SL_ANeuralNetworksDevice_getNumberOfCacheFilesNeeded";
    if (numModelCacheFiles != nullptr) *numModelCacheFiles = 0;
    if (numDataCacheFiles != nullptr) *numDataCacheFiles = 0;
    NN_API_CHECK_NULL(fn, device);
    NN_API_CHECK_NULL(fn, numModelCacheFiles);
    NN_API_CHECK_NULL(fn, numDataCacheFiles);
    NN_API_RETURN_IF_ERROR(checkDevice(fn, device));
    fromHandle(device)->numberOfCacheFilesNeeded(numModelCacheFiles, numDataCacheFiles);
    return apiOk();
  });
}

int SL_ANeuralNetworksDevice_getPerformanceInfo(const ANeuralNetworksDevice* device,
                                                int32_t performanceInfoKind,
                                                SL_ANeuralNetworksPerformanceInfo* performanceInfo) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "SL_ANeuralNetworksDevice_getPerformanceInfo";
    if (performanceInfo != nullptr) *performanceInfo = SL_ANeuralNetworksPerformanceInfo{0, 0};
    NN_API_CHECK_NULL(fn, device);
    NN_API_CHECK_NULL(fn, performanceInfo);
    NN_API_RETURN_IF_ERROR(checkDevice(fn, device));
    const Capabilities caps = fromHandle(device)->capabilities();
    switch (performanceInfoKind) {
      case SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_RELAXED_SCALAR:
        *performanceInfo = toSl(caps.relaxedFloat32toFloat16Scalar);
        return apiOk();
      case SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_RELAXED_TENSOR:
        *performanceInfo = toSl(caps.relaxedFloat32toFloat16Tensor);
        return apiOk();
      case SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_IF:
        *performanceInfo = toSl(caps.ifPerformance);
        return apiOk();
      case SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_WHILE:
        *performanceInfo = toSl(caps.whilePerformance);
        return apiOk();
    }
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: unknown performance info kind %d (expected 0..3)",
                    fn, performanceInfoKind);
  });
}

int SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo(
    const ANeuralNetworksDevice* device, void* context,
    void (*callback)(SL_ANeuralNetworksOperandPerformanceInfo, void*)) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo";
    NN_API_CHECK_NULL(fn, device);
    NN_API_CHECK_NULL(fn, context);
    NN_API_CHECK_NULL(fn, callback);
    NN_API_RETURN_IF_ERROR(checkDevice(fn, device));
    const Capabilities caps = fromHandle(device)->capabilities();
    for (int32_t type = 0; type <= kLastOperandCode; ++type)
      callback(SL_ANeuralNetworksOperandPerformanceInfo{type, toSl(caps.forOperandType(type))},
               context);
    return apiOk();
  });
}

int SL_ANeuralNetworksDevice_getVendorExtensionCount(const ANeuralNetworksDevice* device,
                                                     uint32_t* vendorExtensionCount) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "SL_ANeuralNetworksDevice_getVendorExtensionCount";
    if (vendorExtensionCount != nullptr) *vendorExtensionCount = 0;
    NN_API_CHECK_NULL(fn, device);
    NN_API_CHECK_NULL(fn, vendorExtensionCount);
    NN_API_RETURN_IF_ERROR(checkDevice(fn, device));
    *vendorExtensionCount = static_cast<uint32_t>(fromHandle(device)->extensions().size());
    return apiOk();
  });
}

int SL_ANeuralNetworksDevice_getVendorExtensionName(const ANeuralNetworksDevice* device,
                                                    uint32_t vendorExtensionIndex,
                                                    const char** extensionName) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "SL_ANeuralNetworksDevice_getVendorExtensionName";
    if (extensionName != nullptr) *extensionName = nullptr;
    NN_API_CHECK_NULL(fn, device);
    NN_API_CHECK_NULL(fn, extensionName);
    NN_API_RETURN_IF_ERROR(checkDevice(fn, device));
    const Device* d = fromHandle(device);
    NN_API_RETURN_IF_ERROR(checkExtensionIndex(fn, d, vendorExtensionIndex));
    *extensionName = d->extensions()[vendorExtensionIndex].name.c_str();
    return apiOk();
  });
}

int SL_ANeuralNetworksDevice_forEachVendorExtensionOperandTypeInformation(
    const ANeuralNetworksDevice* device, uint32_t vendorExtensionIndex, void* context,
    void (*callback)(SL_ANeuralNetworksExtensionOperandTypeInformation, void*)) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "SL_ANeuralNetworksDevice_forEachVendorExtensionOperandTypeInformation";
    NN_API_CHECK_NULL(fn, device);
    NN_API_CHECK_NULL(fn, context);
    NN_API_CHECK_NULL(fn, callback);
    NN_API_RETURN_IF_ERROR(checkDevice(fn, device));
    const Device* d = fromHandle(device);
    NN_API_RETURN_IF_ERROR(checkExtensionIndex(fn, d, vendorExtensionIndex));
    for (const ExtensionOperandTypeInfo& t : d->extensions()[vendorExtensionIndex].operandTypes) {
      SL_ANeuralNetworksExtensionOperandTypeInformation info{};
      info.byteSize = t.byteSize;
      info.type = t.type;
      info.isTensor = t.isTensor;
      callback(info, context);
    }
    return apiOk();
  });
}

}  // extern "C"
