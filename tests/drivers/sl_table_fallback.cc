// TEMPORARY (issue 8): the SL entry point of the test driver plugins until the library's own
// ANeuralNetworks_getSLDriverImpl (src/runtime/api_sl.cc, branch i8-sl) is merged. Compiled
// only while that file does not exist (tests/drivers/CMakeLists.txt); delete at the merge.
// It fills just the slots the plugin loader calls (src/runtime/sl_device.cc) from the
// runtime's own C functions, plus the SL_* device queries the runtime has no C function for.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksSupportLibraryImpl.h>

#include "hal/device.h"

namespace {

const nn::Device* dev(const ANeuralNetworksDevice* d) {
  return reinterpret_cast<const nn::Device*>(d);
}

SL_ANeuralNetworksPerformanceInfo slInfo(const nn::PerformanceInfo& p) {
  return SL_ANeuralNetworksPerformanceInfo{p.execTime, p.powerUsage};
}

int getPerformanceInfo(const ANeuralNetworksDevice* d, int32_t kind,
                       SL_ANeuralNetworksPerformanceInfo* info) {
  if (d == nullptr || info == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  const nn::Capabilities c = dev(d)->capabilities();
  switch (kind) {
    case SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_RELAXED_SCALAR: *info = slInfo(c.relaxedFloat32toFloat16Scalar); break;
    case SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_RELAXED_TENSOR: *info = slInfo(c.relaxedFloat32toFloat16Tensor); break;
    case SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_IF: *info = slInfo(c.ifPerformance); break;
    case SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_WHILE: *info = slInfo(c.whilePerformance); break;
    default: return ANEURALNETWORKS_BAD_DATA;
  }
  return ANEURALNETWORKS_NO_ERROR;
}

int forEachOperandPerformanceInfo(const ANeuralNetworksDevice* d, void* context,
                                  void (*callback)(SL_ANeuralNetworksOperandPerformanceInfo, void*)) {
  if (d == nullptr || callback == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  for (const auto& e : dev(d)->capabilities().operandPerformance)
    callback(SL_ANeuralNetworksOperandPerformanceInfo{e.first, slInfo(e.second)}, context);
  return ANEURALNETWORKS_NO_ERROR;
}

int getVendorExtensionCount(const ANeuralNetworksDevice* d, uint32_t* count) {
  if (d == nullptr || count == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  *count = static_cast<uint32_t>(dev(d)->extensions().size());
  return ANEURALNETWORKS_NO_ERROR;
}

int getVendorExtensionName(const ANeuralNetworksDevice* d, uint32_t index, const char** name) {
  if (d == nullptr || name == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  if (index >= dev(d)->extensions().size()) return ANEURALNETWORKS_BAD_DATA;
  *name = dev(d)->extensions()[index].name.c_str();
  return ANEURALNETWORKS_NO_ERROR;
}

int forEachExtensionOperandType(const ANeuralNetworksDevice* d, uint32_t index, void* context,
                                void (*callback)(SL_ANeuralNetworksExtensionOperandTypeInformation, void*)) {
  if (d == nullptr || callback == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  if (index >= dev(d)->extensions().size()) return ANEURALNETWORKS_BAD_DATA;
  for (const auto& t : dev(d)->extensions()[index].operandTypes)
    callback(SL_ANeuralNetworksExtensionOperandTypeInformation{t.byteSize, t.type, t.isTensor}, context);
  return ANEURALNETWORKS_NO_ERROR;
}

int getNumberOfCacheFilesNeeded(const ANeuralNetworksDevice* d, uint32_t* model, uint32_t* data) {
  if (d == nullptr || model == nullptr || data == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  dev(d)->numberOfCacheFilesNeeded(model, data);
  return ANEURALNETWORKS_NO_ERROR;
}

NnApiSLDriverImplFL8 makeTable() {
  NnApiSLDriverImplFL8 table{};
  NnApiSLDriverImplFL5& t = table.base;
  t.base.implFeatureLevel = 1000008;
#define NN_SLOT(name) t.name = name;
  NN_SLOT(ANeuralNetworks_getDeviceCount)
  NN_SLOT(ANeuralNetworks_getDevice)
  NN_SLOT(ANeuralNetworksDevice_getName)
  NN_SLOT(ANeuralNetworksDevice_getVersion)
  NN_SLOT(ANeuralNetworksDevice_getType)
  NN_SLOT(ANeuralNetworksDevice_getFeatureLevel)
  NN_SLOT(ANeuralNetworksModel_create)
  NN_SLOT(ANeuralNetworksModel_free)
  NN_SLOT(ANeuralNetworksModel_addOperand)
  NN_SLOT(ANeuralNetworksModel_setOperandValue)
  NN_SLOT(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams)
  NN_SLOT(ANeuralNetworksModel_setOperandValueFromModel)
  NN_SLOT(ANeuralNetworksModel_addOperation)
  NN_SLOT(ANeuralNetworksModel_identifyInputsAndOutputs)
  NN_SLOT(ANeuralNetworksModel_relaxComputationFloat32toFloat16)
  NN_SLOT(ANeuralNetworksModel_finish)
  NN_SLOT(ANeuralNetworksModel_getSupportedOperationsForDevices)
  NN_SLOT(ANeuralNetworksCompilation_createForDevices)
  NN_SLOT(ANeuralNetworksCompilation_setPreference)
  NN_SLOT(ANeuralNetworksCompilation_setPriority)
  NN_SLOT(ANeuralNetworksCompilation_setTimeout)
  NN_SLOT(ANeuralNetworksCompilation_finish)
  NN_SLOT(ANeuralNetworksCompilation_free)
  NN_SLOT(ANeuralNetworksExecution_create)
  NN_SLOT(ANeuralNetworksExecution_free)
  NN_SLOT(ANeuralNetworksExecution_setInput)
  NN_SLOT(ANeuralNetworksExecution_setOutput)
  NN_SLOT(ANeuralNetworksExecution_setLoopTimeout)
  NN_SLOT(ANeuralNetworksExecution_setTimeout)
  NN_SLOT(ANeuralNetworksExecution_setMeasureTiming)
  NN_SLOT(ANeuralNetworksExecution_compute)
  NN_SLOT(ANeuralNetworksExecution_getOutputOperandRank)
  NN_SLOT(ANeuralNetworksExecution_getOutputOperandDimensions)
  NN_SLOT(ANeuralNetworksExecution_getDuration)
#undef NN_SLOT
  t.SL_ANeuralNetworksDevice_getPerformanceInfo = getPerformanceInfo;
  t.SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo = forEachOperandPerformanceInfo;
  t.SL_ANeuralNetworksDevice_getVendorExtensionCount = getVendorExtensionCount;
  t.SL_ANeuralNetworksDevice_getVendorExtensionName = getVendorExtensionName;
  t.SL_ANeuralNetworksDevice_forEachVendorExtensionOperandTypeInformation = forEachExtensionOperandType;
  t.SL_ANeuralNetworksDevice_getNumberOfCacheFilesNeeded = getNumberOfCacheFilesNeeded;
  return table;
}

}  // namespace

extern "C" NnApiSLDriverImpl* ANeuralNetworks_getSLDriverImpl(void) {
  static NnApiSLDriverImplFL8 table = makeTable();
  return &table.base.base;
}
