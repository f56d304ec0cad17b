// ANeuralNetworks_getSLDriverImpl: libneuralnetworks.so as an NNAPI Support Library (ABI.md 4).
// Every slot points at the exported function of the same name, so a client calling through
// the table gets exactly the behaviour of a client linking the library.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksExtensions.h>
#include <android/NeuralNetworksSupportLibraryImpl.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "runtime/device_manager.h"

// The SL_ functions (api_sl_device.cc, api_sl_diagnostics.cc) have no public prototypes;
// they are C symbols of this library and reached by clients through the table or dlsym.
extern "C" {
int SL_ANeuralNetworksCompilation_setCachingFromFds(ANeuralNetworksCompilation* compilation, const int* modelCacheFds, const uint32_t numModelCacheFiles, const int* dataCacheFds, const uint32_t numDataCacheFiles, const uint8_t* token);
int SL_ANeuralNetworksDevice_getNumberOfCacheFilesNeeded(const ANeuralNetworksDevice* device, uint32_t* numModelCacheFiles, uint32_t* numDataCacheFiles);
int SL_ANeuralNetworksDevice_getPerformanceInfo(const ANeuralNetworksDevice* device, int32_t performanceInfoKind, SL_ANeuralNetworksPerformanceInfo* performanceInfo);
int SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo(const ANeuralNetworksDevice* device, void* context, void (*callback)(SL_ANeuralNetworksOperandPerformanceInfo, void*));
int SL_ANeuralNetworksDevice_getVendorExtensionCount(const ANeuralNetworksDevice* device, uint32_t* vendorExtensionCount);
int SL_ANeuralNetworksDevice_getVendorExtensionName(const ANeuralNetworksDevice* device, uint32_t vendorExtensionIndex, const char** extensionName);
int SL_ANeuralNetworksDevice_forEachVendorExtensionOperandTypeInformation(const ANeuralNetworksDevice* device, uint32_t vendorExtensionIndex, void* context, void (*callback)(SL_ANeuralNetworksExtensionOperandTypeInformation, void*));
int32_t SL_ANeuralNetworksDiagnosticCompilationInfo_getSessionId(const ANeuralNetworksDiagnosticCompilationInfo* diagnosticCompilationInfo);
int64_t SL_ANeuralNetworksDiagnosticCompilationInfo_getNnApiVersion(const ANeuralNetworksDiagnosticCompilationInfo* diagnosticCompilationInfo);
const uint8_t* SL_ANeuralNetworksDiagnosticCompilationInfo_getModelArchHash(const ANeuralNetworksDiagnosticCompilationInfo* diagnosticCompilationInfo);
const char* SL_ANeuralNetworksDiagnosticCompilationInfo_getDeviceIds(const ANeuralNetworksDiagnosticCompilationInfo* diagnosticCompilationInfo);
int32_t SL_ANeuralNetworksDiagnosticCompilationInfo_getErrorCode(const ANeuralNetworksDiagnosticCompilationInfo* diagnosticCompilationInfo);
ANeuralNetworksDiagnosticDataClass SL_ANeuralNetworksDiagnosticCompilationInfo_getInputDataClass(const ANeuralNetworksDiagnosticCompilationInfo* diagnosticCompilationInfo);
ANeuralNetworksDiagnosticDataClass SL_ANeuralNetworksDiagnosticCompilationInfo_getOutputDataClass(const ANeuralNetworksDiagnosticCompilationInfo* diagnosticCompilationInfo);
uint64_t SL_ANeuralNetworksDiagnosticCompilationInfo_getCompilationTimeNanos(const ANeuralNetworksDiagnosticCompilationInfo* diagnosticCompilationInfo);
bool SL_ANeuralNetworksDiagnosticCompilationInfo_isCachingEnabled(const ANeuralNetworksDiagnosticCompilationInfo* diagnosticCompilationInfo);
bool SL_ANeuralNetworksDiagnosticCompilationInfo_isControlFlowUsed(const ANeuralNetworksDiagnosticCompilationInfo* diagnosticCompilationInfo);
bool SL_ANeuralNetworksDiagnosticCompilationInfo_areDynamicTensorsUsed(const ANeuralNetworksDiagnosticCompilationInfo* diagnosticCompilationInfo);
int32_t SL_ANeuralNetworksDiagnosticExecutionInfo_getSessionId(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);
int64_t SL_ANeuralNetworksDiagnosticExecutionInfo_getNnApiVersion(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);
const uint8_t* SL_ANeuralNetworksDiagnosticExecutionInfo_getModelArchHash(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);
const char* SL_ANeuralNetworksDiagnosticExecutionInfo_getDeviceIds(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);
ANeuralNetworksDiagnosticExecutionMode SL_ANeuralNetworksDiagnosticExecutionInfo_getExecutionMode(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);
ANeuralNetworksDiagnosticDataClass SL_ANeuralNetworksDiagnosticExecutionInfo_getInputDataClass(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);
ANeuralNetworksDiagnosticDataClass SL_ANeuralNetworksDiagnosticExecutionInfo_getOutputDataClass(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);
uint32_t SL_ANeuralNetworksDiagnosticExecutionInfo_getErrorCode(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);
uint64_t SL_ANeuralNetworksDiagnosticExecutionInfo_getRuntimeExecutionTimeNanos(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);
uint64_t SL_ANeuralNetworksDiagnosticExecutionInfo_getDriverExecutionTimeNanos(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);
uint64_t SL_ANeuralNetworksDiagnosticExecutionInfo_getHardwareExecutionTimeNanos(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);
bool SL_ANeuralNetworksDiagnosticExecutionInfo_isCachingEnabled(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);
bool SL_ANeuralNetworksDiagnosticExecutionInfo_isControlFlowUsed(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);
bool SL_ANeuralNetworksDiagnosticExecutionInfo_areDynamicTensorsUsed(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);
void SL_ANeuralNetworksDiagnostic_registerCallbacks(ANeuralNetworksDiagnosticCompilationFinishedCallback compilationCallback, ANeuralNetworksDiagnosticExecutionFinishedCallback executionCallback, void* callbackContext);
}

namespace {

NnApiSLDriverImplFL8 makeTable() {
  NnApiSLDriverImplFL8 t{};
  // Loaders use implFeatureLevel as the library's runtime level and read a table of that
  // level's size (ABI.md 4.2): for FL5..FL7 the 840-byte NnApiSLDriverImplFL5, from FL8 on
  // the 856-byte FL8 one. The table is FL8-sized regardless (a strict extension of FL5).
  // The runtime implements FL8, but TFLite 2.14's loader (benchmark_model
  // --nnapi_support_library_path, the SL client that matters most) accepts only levels 5..7
  // and refuses the whole library otherwise (measured: "Couldn't load NNAPI support
  // library"). So the table states at most FL7 by default, an understatement that loses
  // nothing but the two FL8 slots for clients that trust the level;
  // NNAPI_SL_IMPL_FEATURE_LEVEL=8 states FL8 for loaders that read FL8 tables (AOSP's, and
  // this runtime's own plugin loader).
  int64_t level = std::min<int64_t>(nn::runtimeFeatureLevel(), nn::kFeatureLevel7);
  if (const char* v = getenv("NNAPI_SL_IMPL_FEATURE_LEVEL")) {
    if (strcmp(v, "8") == 0) level = std::min<int64_t>(nn::runtimeFeatureLevel(), nn::kFeatureLevel8);
  }
  t.base.base.implFeatureLevel = level;
  t.base.ANeuralNetworksBurst_create = ANeuralNetworksBurst_create;
  t.base.ANeuralNetworksBurst_free = ANeuralNetworksBurst_free;
  t.base.ANeuralNetworksCompilation_createForDevices = ANeuralNetworksCompilation_createForDevices;
  t.base.ANeuralNetworksCompilation_finish = ANeuralNetworksCompilation_finish;
  t.base.ANeuralNetworksCompilation_free = ANeuralNetworksCompilation_free;
  t.base.ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput = ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput;
  t.base.ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput = ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput;
  t.base.ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput = ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput;
  t.base.ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput = ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput;
  t.base.ANeuralNetworksCompilation_setCaching = ANeuralNetworksCompilation_setCaching;
  t.base.ANeuralNetworksCompilation_setPreference = ANeuralNetworksCompilation_setPreference;
  t.base.ANeuralNetworksCompilation_setPriority = ANeuralNetworksCompilation_setPriority;
  t.base.ANeuralNetworksCompilation_setTimeout = ANeuralNetworksCompilation_setTimeout;
  t.base.ANeuralNetworksDevice_getExtensionSupport = ANeuralNetworksDevice_getExtensionSupport;
  t.base.ANeuralNetworksDevice_getFeatureLevel = ANeuralNetworksDevice_getFeatureLevel;
  t.base.ANeuralNetworksDevice_getName = ANeuralNetworksDevice_getName;
  t.base.ANeuralNetworksDevice_getType = ANeuralNetworksDevice_getType;
  t.base.ANeuralNetworksDevice_getVersion = ANeuralNetworksDevice_getVersion;
  t.base.ANeuralNetworksDevice_wait = ANeuralNetworksDevice_wait;
  t.base.ANeuralNetworksEvent_createFromSyncFenceFd = ANeuralNetworksEvent_createFromSyncFenceFd;
  t.base.ANeuralNetworksEvent_free = ANeuralNetworksEvent_free;
  t.base.ANeuralNetworksEvent_getSyncFenceFd = ANeuralNetworksEvent_getSyncFenceFd;
  t.base.ANeuralNetworksEvent_wait = ANeuralNetworksEvent_wait;
  t.base.ANeuralNetworksExecution_burstCompute = ANeuralNetworksExecution_burstCompute;
  t.base.ANeuralNetworksExecution_compute = ANeuralNetworksExecution_compute;
  t.base.ANeuralNetworksExecution_create = ANeuralNetworksExecution_create;
  t.base.ANeuralNetworksExecution_enableInputAndOutputPadding = ANeuralNetworksExecution_enableInputAndOutputPadding;
  t.base.ANeuralNetworksExecution_free = ANeuralNetworksExecution_free;
  t.base.ANeuralNetworksExecution_getDuration = ANeuralNetworksExecution_getDuration;
  t.base.ANeuralNetworksExecution_getOutputOperandDimensions = ANeuralNetworksExecution_getOutputOperandDimensions;
  t.base.ANeuralNetworksExecution_getOutputOperandRank = ANeuralNetworksExecution_getOutputOperandRank;
  t.base.ANeuralNetworksExecution_setInput = ANeuralNetworksExecution_setInput;
  t.base.ANeuralNetworksExecution_setInputFromMemory = ANeuralNetworksExecution_setInputFromMemory;
  t.base.ANeuralNetworksExecution_setLoopTimeout = ANeuralNetworksExecution_setLoopTimeout;
  t.base.ANeuralNetworksExecution_setMeasureTiming = ANeuralNetworksExecution_setMeasureTiming;
  t.base.ANeuralNetworksExecution_setOutput = ANeuralNetworksExecution_setOutput;
  t.base.ANeuralNetworksExecution_setOutputFromMemory = ANeuralNetworksExecution_setOutputFromMemory;
  t.base.ANeuralNetworksExecution_setReusable = ANeuralNetworksExecution_setReusable;
  t.base.ANeuralNetworksExecution_setTimeout = ANeuralNetworksExecution_setTimeout;
  t.base.ANeuralNetworksExecution_startComputeWithDependencies = ANeuralNetworksExecution_startComputeWithDependencies;
  t.base.ANeuralNetworksMemoryDesc_addInputRole = ANeuralNetworksMemoryDesc_addInputRole;
  t.base.ANeuralNetworksMemoryDesc_addOutputRole = ANeuralNetworksMemoryDesc_addOutputRole;
  t.base.ANeuralNetworksMemoryDesc_create = ANeuralNetworksMemoryDesc_create;
  t.base.ANeuralNetworksMemoryDesc_finish = ANeuralNetworksMemoryDesc_finish;
  t.base.ANeuralNetworksMemoryDesc_free = ANeuralNetworksMemoryDesc_free;
  t.base.ANeuralNetworksMemoryDesc_setDimensions = ANeuralNetworksMemoryDesc_setDimensions;
  t.base.ANeuralNetworksMemory_copy = ANeuralNetworksMemory_copy;
  t.base.ANeuralNetworksMemory_createFromAHardwareBuffer = ANeuralNetworksMemory_createFromAHardwareBuffer;
  t.base.ANeuralNetworksMemory_createFromDesc = ANeuralNetworksMemory_createFromDesc;
  t.base.ANeuralNetworksMemory_createFromFd = ANeuralNetworksMemory_createFromFd;
  t.base.ANeuralNetworksMemory_free = ANeuralNetworksMemory_free;
  t.base.ANeuralNetworksModel_addOperand = ANeuralNetworksModel_addOperand;
  t.base.ANeuralNetworksModel_addOperation = ANeuralNetworksModel_addOperation;
  t.base.ANeuralNetworksModel_create = ANeuralNetworksModel_create;
  t.base.ANeuralNetworksModel_finish = ANeuralNetworksModel_finish;
  t.base.ANeuralNetworksModel_free = ANeuralNetworksModel_free;
  t.base.ANeuralNetworksModel_getExtensionOperandType = ANeuralNetworksModel_getExtensionOperandType;
  t.base.ANeuralNetworksModel_getExtensionOperationType = ANeuralNetworksModel_getExtensionOperationType;
  t.base.ANeuralNetworksModel_getSupportedOperationsForDevices = ANeuralNetworksModel_getSupportedOperationsForDevices;
  t.base.ANeuralNetworksModel_identifyInputsAndOutputs = ANeuralNetworksModel_identifyInputsAndOutputs;
  t.base.ANeuralNetworksModel_relaxComputationFloat32toFloat16 = ANeuralNetworksModel_relaxComputationFloat32toFloat16;
  t.base.ANeuralNetworksModel_setOperandExtensionData = ANeuralNetworksModel_setOperandExtensionData;
  t.base.ANeuralNetworksModel_setOperandSymmPerChannelQuantParams = ANeuralNetworksModel_setOperandSymmPerChannelQuantParams;
  t.base.ANeuralNetworksModel_setOperandValue = ANeuralNetworksModel_setOperandValue;
  t.base.ANeuralNetworksModel_setOperandValueFromMemory = ANeuralNetworksModel_setOperandValueFromMemory;
  t.base.ANeuralNetworksModel_setOperandValueFromModel = ANeuralNetworksModel_setOperandValueFromModel;
  t.base.ANeuralNetworks_getDefaultLoopTimeout = ANeuralNetworks_getDefaultLoopTimeout;
  t.base.ANeuralNetworks_getDevice = ANeuralNetworks_getDevice;
  t.base.ANeuralNetworks_getDeviceCount = ANeuralNetworks_getDeviceCount;
  t.base.ANeuralNetworks_getMaximumLoopTimeout = ANeuralNetworks_getMaximumLoopTimeout;
  t.base.ANeuralNetworks_getRuntimeFeatureLevel = ANeuralNetworks_getRuntimeFeatureLevel;
  t.base.SL_ANeuralNetworksCompilation_setCachingFromFds = SL_ANeuralNetworksCompilation_setCachingFromFds;
  t.base.SL_ANeuralNetworksDevice_getNumberOfCacheFilesNeeded = SL_ANeuralNetworksDevice_getNumberOfCacheFilesNeeded;
  t.base.SL_ANeuralNetworksDevice_getPerformanceInfo = SL_ANeuralNetworksDevice_getPerformanceInfo;
  t.base.SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo = SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo;
  t.base.SL_ANeuralNetworksDevice_getVendorExtensionCount = SL_ANeuralNetworksDevice_getVendorExtensionCount;
  t.base.SL_ANeuralNetworksDevice_getVendorExtensionName = SL_ANeuralNetworksDevice_getVendorExtensionName;
  t.base.SL_ANeuralNetworksDevice_forEachVendorExtensionOperandTypeInformation = SL_ANeuralNetworksDevice_forEachVendorExtensionOperandTypeInformation;
  t.base.SL_ANeuralNetworksDiagnosticCompilationInfo_getSessionId = SL_ANeuralNetworksDiagnosticCompilationInfo_getSessionId;
  t.base.SL_ANeuralNetworksDiagnosticCompilationInfo_getNnApiVersion = SL_ANeuralNetworksDiagnosticCompilationInfo_getNnApiVersion;
  t.base.SL_ANeuralNetworksDiagnosticCompilationInfo_getModelArchHash = SL_ANeuralNetworksDiagnosticCompilationInfo_getModelArchHash;
  t.base.SL_ANeuralNetworksDiagnosticCompilationInfo_getDeviceIds = SL_ANeuralNetworksDiagnosticCompilationInfo_getDeviceIds;
  t.base.SL_ANeuralNetworksDiagnosticCompilationInfo_getErrorCode = SL_ANeuralNetworksDiagnosticCompilationInfo_getErrorCode;
  t.base.SL_ANeuralNetworksDiagnosticCompilationInfo_getInputDataClass = SL_ANeuralNetworksDiagnosticCompilationInfo_getInputDataClass;
  t.base.SL_ANeuralNetworksDiagnosticCompilationInfo_getOutputDataClass = SL_ANeuralNetworksDiagnosticCompilationInfo_getOutputDataClass;
  t.base.SL_ANeuralNetworksDiagnosticCompilationInfo_getCompilationTimeNanos = SL_ANeuralNetworksDiagnosticCompilationInfo_getCompilationTimeNanos;
  t.base.SL_ANeuralNetworksDiagnosticCompilationInfo_isCachingEnabled = SL_ANeuralNetworksDiagnosticCompilationInfo_isCachingEnabled;
  t.base.SL_ANeuralNetworksDiagnosticCompilationInfo_isControlFlowUsed = SL_ANeuralNetworksDiagnosticCompilationInfo_isControlFlowUsed;
  t.base.SL_ANeuralNetworksDiagnosticCompilationInfo_areDynamicTensorsUsed = SL_ANeuralNetworksDiagnosticCompilationInfo_areDynamicTensorsUsed;
  t.base.SL_ANeuralNetworksDiagnosticExecutionInfo_getSessionId = SL_ANeuralNetworksDiagnosticExecutionInfo_getSessionId;
  t.base.SL_ANeuralNetworksDiagnosticExecutionInfo_getNnApiVersion = SL_ANeuralNetworksDiagnosticExecutionInfo_getNnApiVersion;
  t.base.SL_ANeuralNetworksDiagnosticExecutionInfo_getModelArchHash = SL_ANeuralNetworksDiagnosticExecutionInfo_getModelArchHash;
  t.base.SL_ANeuralNetworksDiagnosticExecutionInfo_getDeviceIds = SL_ANeuralNetworksDiagnosticExecutionInfo_getDeviceIds;
  t.base.SL_ANeuralNetworksDiagnosticExecutionInfo_getExecutionMode = SL_ANeuralNetworksDiagnosticExecutionInfo_getExecutionMode;
  t.base.SL_ANeuralNetworksDiagnosticExecutionInfo_getInputDataClass = SL_ANeuralNetworksDiagnosticExecutionInfo_getInputDataClass;
  t.base.SL_ANeuralNetworksDiagnosticExecutionInfo_getOutputDataClass = SL_ANeuralNetworksDiagnosticExecutionInfo_getOutputDataClass;
  t.base.SL_ANeuralNetworksDiagnosticExecutionInfo_getErrorCode = SL_ANeuralNetworksDiagnosticExecutionInfo_getErrorCode;
  t.base.SL_ANeuralNetworksDiagnosticExecutionInfo_getRuntimeExecutionTimeNanos = SL_ANeuralNetworksDiagnosticExecutionInfo_getRuntimeExecutionTimeNanos;
  t.base.SL_ANeuralNetworksDiagnosticExecutionInfo_getDriverExecutionTimeNanos = SL_ANeuralNetworksDiagnosticExecutionInfo_getDriverExecutionTimeNanos;
  t.base.SL_ANeuralNetworksDiagnosticExecutionInfo_getHardwareExecutionTimeNanos = SL_ANeuralNetworksDiagnosticExecutionInfo_getHardwareExecutionTimeNanos;
  t.base.SL_ANeuralNetworksDiagnosticExecutionInfo_isCachingEnabled = SL_ANeuralNetworksDiagnosticExecutionInfo_isCachingEnabled;
  t.base.SL_ANeuralNetworksDiagnosticExecutionInfo_isControlFlowUsed = SL_ANeuralNetworksDiagnosticExecutionInfo_isControlFlowUsed;
  t.base.SL_ANeuralNetworksDiagnosticExecutionInfo_areDynamicTensorsUsed = SL_ANeuralNetworksDiagnosticExecutionInfo_areDynamicTensorsUsed;
  t.base.SL_ANeuralNetworksDiagnostic_registerCallbacks = SL_ANeuralNetworksDiagnostic_registerCallbacks;
  t.ANeuralNetworksCompilation_addExtensionAttribute = ANeuralNetworksCompilation_addExtensionAttribute;
  t.ANeuralNetworksExecution_addExtensionAttribute = ANeuralNetworksExecution_addExtensionAttribute;
  return t;
}

}  // namespace

extern "C" NnApiSLDriverImpl* ANeuralNetworks_getSLDriverImpl(void) {
  // Built once (thread-safe static initialization), alive for the life of the library.
  static NnApiSLDriverImplFL8 table = makeTable();
  return &table.base.base;
}
