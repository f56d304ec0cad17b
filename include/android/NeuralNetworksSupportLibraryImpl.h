/*
 * The NNAPI Support Library (SL) driver table, for Linux.
 *
 * An SL is a shared object carrying a whole NNAPI implementation. It exports
 * one symbol, ANeuralNetworks_getSLDriverImpl(), returning a static table of
 * function pointers whose first member says which feature level the table
 * implements (and therefore how large it is). Clients (TFLite's NNAPI
 * delegate, this runtime's plugin loader) dlopen the object and call only
 * through the table.
 *
 * libneuralnetworks.so is such an SL (it returns an NnApiSLDriverImplFL8),
 * and the runtime loads vendor drivers written against this header as
 * plugins (docs/drivers.md). Layouts are the Android ones: ABI.md sections
 * 2.4 and 4; the static_asserts below check them.
 */
#ifndef ANNLINUX_NEURAL_NETWORKS_SUPPORT_LIBRARY_IMPL_H
#define ANNLINUX_NEURAL_NETWORKS_SUPPORT_LIBRARY_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <android/NeuralNetworksTypes.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Only its pointer appears in the table (Android-only memory type). */
typedef struct AHardwareBuffer AHardwareBuffer;

/* Kinds for SL_ANeuralNetworksDevice_getPerformanceInfo. */
typedef enum {
  SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_RELAXED_SCALAR = 0,
  SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_RELAXED_TENSOR = 1,
  SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_IF = 2,
  SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_WHILE = 3,
} SL_ANeuralNetworksPerformanceInfoCode;

/* Time and energy relative to the CPU doing the same work (1.0); lower is better. */
typedef struct {
  float execTime;
  float powerUsage;
} SL_ANeuralNetworksPerformanceInfo;

typedef struct {
  int32_t operandType;
  SL_ANeuralNetworksPerformanceInfo performanceInfo;
} SL_ANeuralNetworksOperandPerformanceInfo;

typedef struct {
  uint32_t byteSize;  /* scalar size, or element size of a tensor type */
  uint16_t type;      /* the type's code within its extension */
  bool isTensor;
} SL_ANeuralNetworksExtensionOperandTypeInformation;

typedef enum {
  ANNDIAG_NO_ERROR = 0,
  ANNDIAG_FAILED_TO_LOAD_SL = 1,
  ANNDIAG_FAILED_TO_REGISTER_SERVICE = 2,
  ANNDIAG_GENERAL_ERROR = 3,
  ANNDIAG_INVALID_ARGUMENT = 4,
} ANeuralNetworksDiagnosticResultCode;

typedef enum {
  ANNDIAG_DATA_CLASS_UNKNOWN = 0,
  ANNDIAG_DATA_CLASS_OTHER = 1,
  ANNDIAG_DATA_CLASS_FLOAT32 = 2,
  ANNDIAG_DATA_CLASS_FLOAT16 = 3,
  ANNDIAG_DATA_CLASS_QUANT = 4,
  ANNDIAG_DATA_CLASS_MIXED = 5,
} ANeuralNetworksDiagnosticDataClass;

typedef enum {
  ANNDIAG_EXECUTION_MODE_UNKNOWN = 0,
  ANNDIAG_EXECUTION_MODE_ASYNC = 1,
  ANNDIAG_EXECUTION_MODE_SYNC = 2,
  ANNDIAG_EXECUTION_MODE_BURST = 3,
  ANNDIAG_EXECUTION_MODE_ASYNC_WITH_DEPS = 4,
} ANeuralNetworksDiagnosticExecutionMode;

/* Records handed to the diagnostic callbacks; valid only during the call. */
typedef struct ANeuralNetworksDiagnosticCompilationInfo ANeuralNetworksDiagnosticCompilationInfo;
typedef struct ANeuralNetworksDiagnosticExecutionInfo ANeuralNetworksDiagnosticExecutionInfo;
typedef void (*ANeuralNetworksDiagnosticCompilationFinishedCallback)(
    const void* context, const ANeuralNetworksDiagnosticCompilationInfo* info);
typedef void (*ANeuralNetworksDiagnosticExecutionFinishedCallback)(
    const void* context, const ANeuralNetworksDiagnosticExecutionInfo* info);

/* The common head of every table: the feature level it implements. */
typedef struct NnApiSLDriverImpl {
  int64_t implFeatureLevel;
} NnApiSLDriverImpl;

/* Feature levels 5, 6 and 7: 104 functions after the head, in this order. */
typedef struct NnApiSLDriverImplFL5 {
  NnApiSLDriverImpl base;

  int (*ANeuralNetworksBurst_create)(ANeuralNetworksCompilation* compilation, ANeuralNetworksBurst** burst);  /* slot 1, offset 8 */
  void (*ANeuralNetworksBurst_free)(ANeuralNetworksBurst* burst);  /* slot 2, offset 16 */
  int (*ANeuralNetworksCompilation_createForDevices)(ANeuralNetworksModel* model, const ANeuralNetworksDevice* const* devices, uint32_t numDevices, ANeuralNetworksCompilation** compilation);  /* slot 3, offset 24 */
  int (*ANeuralNetworksCompilation_finish)(ANeuralNetworksCompilation* compilation);  /* slot 4, offset 32 */
  void (*ANeuralNetworksCompilation_free)(ANeuralNetworksCompilation* compilation);  /* slot 5, offset 40 */
  int (*ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput)(const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* alignment);  /* slot 6, offset 48 */
  int (*ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput)(const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* alignment);  /* slot 7, offset 56 */
  int (*ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput)(const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* padding);  /* slot 8, offset 64 */
  int (*ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput)(const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* padding);  /* slot 9, offset 72 */
  int (*ANeuralNetworksCompilation_setCaching)(ANeuralNetworksCompilation* compilation, const char* cacheDir, const uint8_t* token);  /* slot 10, offset 80 */
  int (*ANeuralNetworksCompilation_setPreference)(ANeuralNetworksCompilation* compilation, int32_t preference);  /* slot 11, offset 88 */
  int (*ANeuralNetworksCompilation_setPriority)(ANeuralNetworksCompilation* compilation, int priority);  /* slot 12, offset 96 */
  int (*ANeuralNetworksCompilation_setTimeout)(ANeuralNetworksCompilation* compilation, uint64_t duration);  /* slot 13, offset 104 */
  int (*ANeuralNetworksDevice_getExtensionSupport)(const ANeuralNetworksDevice* device, const char* extensionName, bool* isExtensionSupported);  /* slot 14, offset 112 */
  int (*ANeuralNetworksDevice_getFeatureLevel)(const ANeuralNetworksDevice* device, int64_t* featureLevel);  /* slot 15, offset 120 */
  int (*ANeuralNetworksDevice_getName)(const ANeuralNetworksDevice* device, const char** name);  /* slot 16, offset 128 */
  int (*ANeuralNetworksDevice_getType)(const ANeuralNetworksDevice* device, int32_t* type);  /* slot 17, offset 136 */
  int (*ANeuralNetworksDevice_getVersion)(const ANeuralNetworksDevice* device, const char** version);  /* slot 18, offset 144 */
  int (*ANeuralNetworksDevice_wait)(const ANeuralNetworksDevice* device);  /* slot 19, offset 152 */
  int (*ANeuralNetworksEvent_createFromSyncFenceFd)(int sync_fence_fd, ANeuralNetworksEvent** event);  /* slot 20, offset 160 */
  void (*ANeuralNetworksEvent_free)(ANeuralNetworksEvent* event);  /* slot 21, offset 168 */
  int (*ANeuralNetworksEvent_getSyncFenceFd)(const ANeuralNetworksEvent* event, int* sync_fence_fd);  /* slot 22, offset 176 */
  int (*ANeuralNetworksEvent_wait)(ANeuralNetworksEvent* event);  /* slot 23, offset 184 */
  int (*ANeuralNetworksExecution_burstCompute)(ANeuralNetworksExecution* execution, ANeuralNetworksBurst* burst);  /* slot 24, offset 192 */
  int (*ANeuralNetworksExecution_compute)(ANeuralNetworksExecution* execution);  /* slot 25, offset 200 */
  int (*ANeuralNetworksExecution_create)(ANeuralNetworksCompilation* compilation, ANeuralNetworksExecution** execution);  /* slot 26, offset 208 */
  int (*ANeuralNetworksExecution_enableInputAndOutputPadding)(ANeuralNetworksExecution* execution, bool enable);  /* slot 27, offset 216 */
  void (*ANeuralNetworksExecution_free)(ANeuralNetworksExecution* execution);  /* slot 28, offset 224 */
  int (*ANeuralNetworksExecution_getDuration)(const ANeuralNetworksExecution* execution, int32_t durationCode, uint64_t* duration);  /* slot 29, offset 232 */
  int (*ANeuralNetworksExecution_getOutputOperandDimensions)(ANeuralNetworksExecution* execution, int32_t index, uint32_t* dimensions);  /* slot 30, offset 240 */
  int (*ANeuralNetworksExecution_getOutputOperandRank)(ANeuralNetworksExecution* execution, int32_t index, uint32_t* rank);  /* slot 31, offset 248 */
  int (*ANeuralNetworksExecution_setInput)(ANeuralNetworksExecution* execution, int32_t index, const ANeuralNetworksOperandType* type, const void* buffer, size_t length);  /* slot 32, offset 256 */
  int (*ANeuralNetworksExecution_setInputFromMemory)(ANeuralNetworksExecution* execution, int32_t index, const ANeuralNetworksOperandType* type, const ANeuralNetworksMemory* memory, size_t offset, size_t length);  /* slot 33, offset 264 */
  int (*ANeuralNetworksExecution_setLoopTimeout)(ANeuralNetworksExecution* execution, uint64_t duration);  /* slot 34, offset 272 */
  int (*ANeuralNetworksExecution_setMeasureTiming)(ANeuralNetworksExecution* execution, bool measure);  /* slot 35, offset 280 */
  int (*ANeuralNetworksExecution_setOutput)(ANeuralNetworksExecution* execution, int32_t index, const ANeuralNetworksOperandType* type, void* buffer, size_t length);  /* slot 36, offset 288 */
  int (*ANeuralNetworksExecution_setOutputFromMemory)(ANeuralNetworksExecution* execution, int32_t index, const ANeuralNetworksOperandType* type, const ANeuralNetworksMemory* memory, size_t offset, size_t length);  /* slot 37, offset 296 */
  int (*ANeuralNetworksExecution_setReusable)(ANeuralNetworksExecution* execution, bool reusable);  /* slot 38, offset 304 */
  int (*ANeuralNetworksExecution_setTimeout)(ANeuralNetworksExecution* execution, uint64_t duration);  /* slot 39, offset 312 */
  int (*ANeuralNetworksExecution_startComputeWithDependencies)(ANeuralNetworksExecution* execution, const ANeuralNetworksEvent* const* dependencies, uint32_t num_dependencies, uint64_t duration, ANeuralNetworksEvent** event);  /* slot 40, offset 320 */
  int (*ANeuralNetworksMemoryDesc_addInputRole)(ANeuralNetworksMemoryDesc* desc, const ANeuralNetworksCompilation* compilation, uint32_t index, float frequency);  /* slot 41, offset 328 */
  int (*ANeuralNetworksMemoryDesc_addOutputRole)(ANeuralNetworksMemoryDesc* desc, const ANeuralNetworksCompilation* compilation, uint32_t index, float frequency);  /* slot 42, offset 336 */
  int (*ANeuralNetworksMemoryDesc_create)(ANeuralNetworksMemoryDesc** desc);  /* slot 43, offset 344 */
  int (*ANeuralNetworksMemoryDesc_finish)(ANeuralNetworksMemoryDesc* desc);  /* slot 44, offset 352 */
  void (*ANeuralNetworksMemoryDesc_free)(ANeuralNetworksMemoryDesc* desc);  /* slot 45, offset 360 */
  int (*ANeuralNetworksMemoryDesc_setDimensions)(ANeuralNetworksMemoryDesc* desc, uint32_t rank, const uint32_t* dimensions);  /* slot 46, offset 368 */
  int (*ANeuralNetworksMemory_copy)(const ANeuralNetworksMemory* src, const ANeuralNetworksMemory* dst);  /* slot 47, offset 376 */
  int (*ANeuralNetworksMemory_createFromAHardwareBuffer)(const AHardwareBuffer* ahwb, ANeuralNetworksMemory** memory);  /* slot 48, offset 384 */
  int (*ANeuralNetworksMemory_createFromDesc)(const ANeuralNetworksMemoryDesc* desc, ANeuralNetworksMemory** memory);  /* slot 49, offset 392 */
  int (*ANeuralNetworksMemory_createFromFd)(size_t size, int protect, int fd, size_t offset, ANeuralNetworksMemory** memory);  /* slot 50, offset 400 */
  void (*ANeuralNetworksMemory_free)(ANeuralNetworksMemory* memory);  /* slot 51, offset 408 */
  int (*ANeuralNetworksModel_addOperand)(ANeuralNetworksModel* model, const ANeuralNetworksOperandType* type);  /* slot 52, offset 416 */
  int (*ANeuralNetworksModel_addOperation)(ANeuralNetworksModel* model, ANeuralNetworksOperationType type, uint32_t inputCount, const uint32_t* inputs, uint32_t outputCount, const uint32_t* outputs);  /* slot 53, offset 424 */
  int (*ANeuralNetworksModel_create)(ANeuralNetworksModel** model);  /* slot 54, offset 432 */
  int (*ANeuralNetworksModel_finish)(ANeuralNetworksModel* model);  /* slot 55, offset 440 */
  void (*ANeuralNetworksModel_free)(ANeuralNetworksModel* model);  /* slot 56, offset 448 */
  int (*ANeuralNetworksModel_getExtensionOperandType)(ANeuralNetworksModel* model, const char* extensionName, uint16_t operandCodeWithinExtension, int32_t* type);  /* slot 57, offset 456 */
  int (*ANeuralNetworksModel_getExtensionOperationType)(ANeuralNetworksModel* model, const char* extensionName, uint16_t operationCodeWithinExtension, ANeuralNetworksOperationType* type);  /* slot 58, offset 464 */
  int (*ANeuralNetworksModel_getSupportedOperationsForDevices)(const ANeuralNetworksModel* model, const ANeuralNetworksDevice* const* devices, uint32_t numDevices, bool* supportedOps);  /* slot 59, offset 472 */
  int (*ANeuralNetworksModel_identifyInputsAndOutputs)(ANeuralNetworksModel* model, uint32_t inputCount, const uint32_t* inputs, uint32_t outputCount, const uint32_t* outputs);  /* slot 60, offset 480 */
  int (*ANeuralNetworksModel_relaxComputationFloat32toFloat16)(ANeuralNetworksModel* model, bool allow);  /* slot 61, offset 488 */
  int (*ANeuralNetworksModel_setOperandExtensionData)(ANeuralNetworksModel* model, int32_t index, const void* data, size_t length);  /* slot 62, offset 496 */
  int (*ANeuralNetworksModel_setOperandSymmPerChannelQuantParams)(ANeuralNetworksModel* model, int32_t index, const ANeuralNetworksSymmPerChannelQuantParams* channelQuant);  /* slot 63, offset 504 */
  int (*ANeuralNetworksModel_setOperandValue)(ANeuralNetworksModel* model, int32_t index, const void* buffer, size_t length);  /* slot 64, offset 512 */
  int (*ANeuralNetworksModel_setOperandValueFromMemory)(ANeuralNetworksModel* model, int32_t index, const ANeuralNetworksMemory* memory, size_t offset, size_t length);  /* slot 65, offset 520 */
  int (*ANeuralNetworksModel_setOperandValueFromModel)(ANeuralNetworksModel* model, int32_t index, const ANeuralNetworksModel* value);  /* slot 66, offset 528 */
  uint64_t (*ANeuralNetworks_getDefaultLoopTimeout)(void);  /* slot 67, offset 536 */
  int (*ANeuralNetworks_getDevice)(uint32_t devIndex, ANeuralNetworksDevice** device);  /* slot 68, offset 544 */
  int (*ANeuralNetworks_getDeviceCount)(uint32_t* numDevices);  /* slot 69, offset 552 */
  uint64_t (*ANeuralNetworks_getMaximumLoopTimeout)(void);  /* slot 70, offset 560 */
  int64_t (*ANeuralNetworks_getRuntimeFeatureLevel)(void);  /* slot 71, offset 568 */
  int (*SL_ANeuralNetworksCompilation_setCachingFromFds)(ANeuralNetworksCompilation* compilation, const int* modelCacheFds, const uint32_t numModelCacheFiles, const int* dataCacheFds, const uint32_t numDataCacheFiles, const uint8_t* token);  /* slot 72, offset 576 */
  int (*SL_ANeuralNetworksDevice_getNumberOfCacheFilesNeeded)(const ANeuralNetworksDevice* device, uint32_t* numModelCacheFiles, uint32_t* numDataCacheFiles);  /* slot 73, offset 584 */
  int (*SL_ANeuralNetworksDevice_getPerformanceInfo)(const ANeuralNetworksDevice* device, int32_t performanceInfoKind, SL_ANeuralNetworksPerformanceInfo* performanceInfo);  /* slot 74, offset 592 */
  int (*SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo)(const ANeuralNetworksDevice* device, void* context, void (*callback)(SL_ANeuralNetworksOperandPerformanceInfo, void*));  /* slot 75, offset 600 */
  int (*SL_ANeuralNetworksDevice_getVendorExtensionCount)(const ANeuralNetworksDevice* device, uint32_t* vendorExtensionCount);  /* slot 76, offset 608 */
  int (*SL_ANeuralNetworksDevice_getVendorExtensionName)(const ANeuralNetworksDevice* device, uint32_t vendorExtensionIndex, const char** extensionName);  /* slot 77, offset 616 */
  int (*SL_ANeuralNetworksDevice_forEachVendorExtensionOperandTypeInformation)(const ANeuralNetworksDevice* device, uint32_t vendorExtensionIndex, void* context, void (*callback)(SL_ANeuralNetworksExtensionOperandTypeInformation, void*));  /* slot 78, offset 624 */
  int32_t (*SL_ANeuralNetworksDiagnosticCompilationInfo_getSessionId)(const ANeuralNetworksDiagnosticCompilationInfo* diagnosticCompilationInfo);  /* slot 79, offset 632 */
  int64_t (*SL_ANeuralNetworksDiagnosticCompilationInfo_getNnApiVersion)(const ANeuralNetworksDiagnosticCompilationInfo* diagnosticCompilationInfo);  /* slot 80, offset 640 */
  const uint8_t* (*SL_ANeuralNetworksDiagnosticCompilationInfo_getModelArchHash)(const ANeuralNetworksDiagnosticCompilationInfo* diagnosticCompilationInfo);  /* slot 81, offset 648 */
  const char* (*SL_ANeuralNetworksDiagnosticCompilationInfo_getDeviceIds)(const ANeuralNetworksDiagnosticCompilationInfo* diagnosticCompilationInfo);  /* slot 82, offset 656 */
  int32_t (*SL_ANeuralNetworksDiagnosticCompilationInfo_getErrorCode)(const ANeuralNetworksDiagnosticCompilationInfo* diagnosticCompilationInfo);  /* slot 83, offset 664 */
  ANeuralNetworksDiagnosticDataClass (*SL_ANeuralNetworksDiagnosticCompilationInfo_getInputDataClass)(const ANeuralNetworksDiagnosticCompilationInfo* diagnosticCompilationInfo);  /* slot 84, offset 672 */
  ANeuralNetworksDiagnosticDataClass (*SL_ANeuralNetworksDiagnosticCompilationInfo_getOutputDataClass)(const ANeuralNetworksDiagnosticCompilationInfo* diagnosticCompilationInfo);  /* slot 85, offset 680 */
  uint64_t (*SL_ANeuralNetworksDiagnosticCompilationInfo_getCompilationTimeNanos)(const ANeuralNetworksDiagnosticCompilationInfo* diagnosticCompilationInfo);  /* slot 86, offset 688 */
  bool (*SL_ANeuralNetworksDiagnosticCompilationInfo_isCachingEnabled)(const ANeuralNetworksDiagnosticCompilationInfo* diagnosticCompilationInfo);  /* slot 87, offset 696 */
  bool (*SL_ANeuralNetworksDiagnosticCompilationInfo_isControlFlowUsed)(const ANeuralNetworksDiagnosticCompilationInfo* diagnosticCompilationInfo);  /* slot 88, offset 704 */
  bool (*SL_ANeuralNetworksDiagnosticCompilationInfo_areDynamicTensorsUsed)(const ANeuralNetworksDiagnosticCompilationInfo* diagnosticCompilationInfo);  /* slot 89, offset 712 */
  int32_t (*SL_ANeuralNetworksDiagnosticExecutionInfo_getSessionId)(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);  /* slot 90, offset 720 */
  int64_t (*SL_ANeuralNetworksDiagnosticExecutionInfo_getNnApiVersion)(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);  /* slot 91, offset 728 */
  const uint8_t* (*SL_ANeuralNetworksDiagnosticExecutionInfo_getModelArchHash)(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);  /* slot 92, offset 736 */
  const char* (*SL_ANeuralNetworksDiagnosticExecutionInfo_getDeviceIds)(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);  /* slot 93, offset 744 */
  ANeuralNetworksDiagnosticExecutionMode (*SL_ANeuralNetworksDiagnosticExecutionInfo_getExecutionMode)(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);  /* slot 94, offset 752 */
  ANeuralNetworksDiagnosticDataClass (*SL_ANeuralNetworksDiagnosticExecutionInfo_getInputDataClass)(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);  /* slot 95, offset 760 */
  ANeuralNetworksDiagnosticDataClass (*SL_ANeuralNetworksDiagnosticExecutionInfo_getOutputDataClass)(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);  /* slot 96, offset 768 */
  uint32_t (*SL_ANeuralNetworksDiagnosticExecutionInfo_getErrorCode)(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);  /* slot 97, offset 776 */
  uint64_t (*SL_ANeuralNetworksDiagnosticExecutionInfo_getRuntimeExecutionTimeNanos)(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);  /* slot 98, offset 784 */
  uint64_t (*SL_ANeuralNetworksDiagnosticExecutionInfo_getDriverExecutionTimeNanos)(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);  /* slot 99, offset 792 */
  uint64_t (*SL_ANeuralNetworksDiagnosticExecutionInfo_getHardwareExecutionTimeNanos)(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);  /* slot 100, offset 800 */
  bool (*SL_ANeuralNetworksDiagnosticExecutionInfo_isCachingEnabled)(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);  /* slot 101, offset 808 */
  bool (*SL_ANeuralNetworksDiagnosticExecutionInfo_isControlFlowUsed)(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);  /* slot 102, offset 816 */
  bool (*SL_ANeuralNetworksDiagnosticExecutionInfo_areDynamicTensorsUsed)(const ANeuralNetworksDiagnosticExecutionInfo* diagnosticExecutionInfo);  /* slot 103, offset 824 */
  void (*SL_ANeuralNetworksDiagnostic_registerCallbacks)(ANeuralNetworksDiagnosticCompilationFinishedCallback compilationCallback, ANeuralNetworksDiagnosticExecutionFinishedCallback executionCallback, void* callbackContext);  /* slot 104, offset 832 */
} NnApiSLDriverImplFL5;

typedef NnApiSLDriverImplFL5 NnApiSLDriverImplFL6;
typedef NnApiSLDriverImplFL5 NnApiSLDriverImplFL7;

/* Feature level 8: the level-5 table plus the two extension-attribute functions. */
typedef struct NnApiSLDriverImplFL8 {
  NnApiSLDriverImplFL5 base;
  int (*ANeuralNetworksCompilation_addExtensionAttribute)(ANeuralNetworksCompilation* compilation, const char* extensionName, uint16_t attributeCodeWithinExtension, const void* data, size_t length);  /* slot 105, offset 840 */
  int (*ANeuralNetworksExecution_addExtensionAttribute)(ANeuralNetworksExecution* execution, const char* extensionName, uint16_t attributeCodeWithinExtension, const void* data, size_t length);  /* slot 106, offset 848 */
} NnApiSLDriverImplFL8;

/* The one symbol an SL exports. Never returns NULL; the table lives as long as
 * the library. Read implFeatureLevel, then cast to the matching struct. */
NnApiSLDriverImpl* ANeuralNetworks_getSLDriverImpl(void);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#if defined(__cplusplus)
#define ANNLINUX_SL_STATIC_ASSERT(c, m) static_assert(c, m)
#else
#define ANNLINUX_SL_STATIC_ASSERT(c, m) _Static_assert(c, m)
#endif
ANNLINUX_SL_STATIC_ASSERT(sizeof(NnApiSLDriverImpl) == 8, "NnApiSLDriverImpl layout");
ANNLINUX_SL_STATIC_ASSERT(sizeof(NnApiSLDriverImplFL5) == 8 + 104 * sizeof(void*),
                          "NnApiSLDriverImplFL5 layout");
ANNLINUX_SL_STATIC_ASSERT(sizeof(NnApiSLDriverImplFL8) == 8 + 106 * sizeof(void*),
                          "NnApiSLDriverImplFL8 layout");
ANNLINUX_SL_STATIC_ASSERT(sizeof(SL_ANeuralNetworksPerformanceInfo) == 8, "PerformanceInfo");
ANNLINUX_SL_STATIC_ASSERT(sizeof(SL_ANeuralNetworksOperandPerformanceInfo) == 12,
                          "OperandPerformanceInfo");
ANNLINUX_SL_STATIC_ASSERT(sizeof(SL_ANeuralNetworksExtensionOperandTypeInformation) == 8,
                          "ExtensionOperandTypeInformation");
#undef ANNLINUX_SL_STATIC_ASSERT

#endif  /* ANNLINUX_NEURAL_NETWORKS_SUPPORT_LIBRARY_IMPL_H */
