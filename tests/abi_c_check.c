/*
 * C99 compile/link check of the public NNAPI headers.
 *
 * Every function is first assigned to a pointer of the exact type the ABI
 * specifies (a mismatching declaration is an incompatible-pointer error under
 * -Werror), then stored in one table (a missing definition fails to link).
 */
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <android/NeuralNetworksExtensions.h>

#include <android/NeuralNetworksSupportLibraryImpl.h>

#include <stddef.h>
#include <stdio.h>

/* ---- NNAPI Support Library table (issue 8): layout as C, ABI.md 2.4 / 4.3 ---- */
#define SL_ASSERT(c) _Static_assert(c, #c)
SL_ASSERT(offsetof(NnApiSLDriverImplFL5, base) == 0);
SL_ASSERT(offsetof(NnApiSLDriverImplFL5, ANeuralNetworksBurst_create) == 8);        /* slot 1 */
SL_ASSERT(offsetof(NnApiSLDriverImplFL5, ANeuralNetworksExecution_compute) == 200); /* slot 25 */
SL_ASSERT(offsetof(NnApiSLDriverImplFL5, ANeuralNetworks_getRuntimeFeatureLevel) == 568); /* 71 */
SL_ASSERT(offsetof(NnApiSLDriverImplFL5, SL_ANeuralNetworksCompilation_setCachingFromFds) == 576);
SL_ASSERT(offsetof(NnApiSLDriverImplFL5, SL_ANeuralNetworksDiagnostic_registerCallbacks) == 832);
SL_ASSERT(offsetof(NnApiSLDriverImplFL8, ANeuralNetworksCompilation_addExtensionAttribute) == 840);
SL_ASSERT(offsetof(NnApiSLDriverImplFL8, ANeuralNetworksExecution_addExtensionAttribute) == 848);
SL_ASSERT(sizeof(NnApiSLDriverImpl) == 8);
SL_ASSERT(sizeof(NnApiSLDriverImplFL5) == 840);
SL_ASSERT(sizeof(NnApiSLDriverImplFL6) == 840);
SL_ASSERT(sizeof(NnApiSLDriverImplFL7) == 840);
SL_ASSERT(sizeof(NnApiSLDriverImplFL8) == 856);
SL_ASSERT(sizeof(SL_ANeuralNetworksPerformanceInfo) == 8);
SL_ASSERT(sizeof(SL_ANeuralNetworksOperandPerformanceInfo) == 12);
SL_ASSERT(offsetof(SL_ANeuralNetworksOperandPerformanceInfo, performanceInfo) == 4);
SL_ASSERT(sizeof(SL_ANeuralNetworksExtensionOperandTypeInformation) == 8);
SL_ASSERT(offsetof(SL_ANeuralNetworksExtensionOperandTypeInformation, isTensor) == 6);
#undef SL_ASSERT

typedef void (*AnyFn)(void);

int main(void) {
    int (*p_ANeuralNetworks_getDeviceCount)(uint32_t*) = ANeuralNetworks_getDeviceCount;
    int (*p_ANeuralNetworks_getDevice)(uint32_t, ANeuralNetworksDevice**) = ANeuralNetworks_getDevice;
    uint64_t (*p_ANeuralNetworks_getDefaultLoopTimeout)(void) = ANeuralNetworks_getDefaultLoopTimeout;
    uint64_t (*p_ANeuralNetworks_getMaximumLoopTimeout)(void) = ANeuralNetworks_getMaximumLoopTimeout;
    int64_t (*p_ANeuralNetworks_getRuntimeFeatureLevel)(void) = ANeuralNetworks_getRuntimeFeatureLevel;
    int (*p_ANeuralNetworksDevice_getName)(const ANeuralNetworksDevice*, const char**) = ANeuralNetworksDevice_getName;
    int (*p_ANeuralNetworksDevice_getType)(const ANeuralNetworksDevice*, int32_t*) = ANeuralNetworksDevice_getType;
    int (*p_ANeuralNetworksDevice_getVersion)(const ANeuralNetworksDevice*, const char**) = ANeuralNetworksDevice_getVersion;
    int (*p_ANeuralNetworksDevice_getFeatureLevel)(const ANeuralNetworksDevice*, int64_t*) = ANeuralNetworksDevice_getFeatureLevel;
    int (*p_ANeuralNetworksDevice_wait)(const ANeuralNetworksDevice*) = ANeuralNetworksDevice_wait;
    int (*p_ANeuralNetworksDevice_getExtensionSupport)(const ANeuralNetworksDevice*, const char*, bool*) = ANeuralNetworksDevice_getExtensionSupport;
    int (*p_ANeuralNetworksModel_create)(ANeuralNetworksModel**) = ANeuralNetworksModel_create;
    void (*p_ANeuralNetworksModel_free)(ANeuralNetworksModel*) = ANeuralNetworksModel_free;
    int (*p_ANeuralNetworksModel_finish)(ANeuralNetworksModel*) = ANeuralNetworksModel_finish;
    int (*p_ANeuralNetworksModel_addOperand)(ANeuralNetworksModel*, const ANeuralNetworksOperandType*) = ANeuralNetworksModel_addOperand;
    int (*p_ANeuralNetworksModel_setOperandValue)(ANeuralNetworksModel*, int32_t, const void*, size_t) = ANeuralNetworksModel_setOperandValue;
    int (*p_ANeuralNetworksModel_setOperandSymmPerChannelQuantParams)(ANeuralNetworksModel*, int32_t, const ANeuralNetworksSymmPerChannelQuantParams*) = ANeuralNetworksModel_setOperandSymmPerChannelQuantParams;
    int (*p_ANeuralNetworksModel_setOperandValueFromMemory)(ANeuralNetworksModel*, int32_t, const ANeuralNetworksMemory*, size_t, size_t) = ANeuralNetworksModel_setOperandValueFromMemory;
    int (*p_ANeuralNetworksModel_setOperandValueFromModel)(ANeuralNetworksModel*, int32_t, const ANeuralNetworksModel*) = ANeuralNetworksModel_setOperandValueFromModel;
    int (*p_ANeuralNetworksModel_addOperation)(ANeuralNetworksModel*, ANeuralNetworksOperationType, uint32_t, const uint32_t*, uint32_t, const uint32_t*) = ANeuralNetworksModel_addOperation;
    int (*p_ANeuralNetworksModel_identifyInputsAndOutputs)(ANeuralNetworksModel*, uint32_t, const uint32_t*, uint32_t, const uint32_t*) = ANeuralNetworksModel_identifyInputsAndOutputs;
    int (*p_ANeuralNetworksModel_relaxComputationFloat32toFloat16)(ANeuralNetworksModel*, bool) = ANeuralNetworksModel_relaxComputationFloat32toFloat16;
    int (*p_ANeuralNetworksModel_getSupportedOperationsForDevices)(const ANeuralNetworksModel*, const ANeuralNetworksDevice* const*, uint32_t, bool*) = ANeuralNetworksModel_getSupportedOperationsForDevices;
    int (*p_ANeuralNetworksModel_getExtensionOperandType)(ANeuralNetworksModel*, const char*, uint16_t, int32_t*) = ANeuralNetworksModel_getExtensionOperandType;
    int (*p_ANeuralNetworksModel_getExtensionOperationType)(ANeuralNetworksModel*, const char*, uint16_t, ANeuralNetworksOperationType*) = ANeuralNetworksModel_getExtensionOperationType;
    int (*p_ANeuralNetworksModel_setOperandExtensionData)(ANeuralNetworksModel*, int32_t, const void*, size_t) = ANeuralNetworksModel_setOperandExtensionData;
    int (*p_ANeuralNetworksCompilation_create)(ANeuralNetworksModel*, ANeuralNetworksCompilation**) = ANeuralNetworksCompilation_create;
    int (*p_ANeuralNetworksCompilation_createForDevices)(ANeuralNetworksModel*, const ANeuralNetworksDevice* const*, uint32_t, ANeuralNetworksCompilation**) = ANeuralNetworksCompilation_createForDevices;
    void (*p_ANeuralNetworksCompilation_free)(ANeuralNetworksCompilation*) = ANeuralNetworksCompilation_free;
    int (*p_ANeuralNetworksCompilation_setPreference)(ANeuralNetworksCompilation*, int32_t) = ANeuralNetworksCompilation_setPreference;
    int (*p_ANeuralNetworksCompilation_setCaching)(ANeuralNetworksCompilation*, const char*, const uint8_t*) = ANeuralNetworksCompilation_setCaching;
    int (*p_ANeuralNetworksCompilation_setPriority)(ANeuralNetworksCompilation*, int) = ANeuralNetworksCompilation_setPriority;
    int (*p_ANeuralNetworksCompilation_setTimeout)(ANeuralNetworksCompilation*, uint64_t) = ANeuralNetworksCompilation_setTimeout;
    int (*p_ANeuralNetworksCompilation_finish)(ANeuralNetworksCompilation*) = ANeuralNetworksCompilation_finish;
    int (*p_ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput)(const ANeuralNetworksCompilation*, uint32_t, uint32_t*) = ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput;
    int (*p_ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput)(const ANeuralNetworksCompilation*, uint32_t, uint32_t*) = ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput;
    int (*p_ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput)(const ANeuralNetworksCompilation*, uint32_t, uint32_t*) = ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput;
    int (*p_ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput)(const ANeuralNetworksCompilation*, uint32_t, uint32_t*) = ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput;
    int (*p_ANeuralNetworksCompilation_addExtensionAttribute)(ANeuralNetworksCompilation*, const char*, uint16_t, const void*, size_t) = ANeuralNetworksCompilation_addExtensionAttribute;
    int (*p_ANeuralNetworksBurst_create)(ANeuralNetworksCompilation*, ANeuralNetworksBurst**) = ANeuralNetworksBurst_create;
    void (*p_ANeuralNetworksBurst_free)(ANeuralNetworksBurst*) = ANeuralNetworksBurst_free;
    int (*p_ANeuralNetworksExecution_burstCompute)(ANeuralNetworksExecution*, ANeuralNetworksBurst*) = ANeuralNetworksExecution_burstCompute;
    int (*p_ANeuralNetworksExecution_create)(ANeuralNetworksCompilation*, ANeuralNetworksExecution**) = ANeuralNetworksExecution_create;
    void (*p_ANeuralNetworksExecution_free)(ANeuralNetworksExecution*) = ANeuralNetworksExecution_free;
    int (*p_ANeuralNetworksExecution_setInput)(ANeuralNetworksExecution*, int32_t, const ANeuralNetworksOperandType*, const void*, size_t) = ANeuralNetworksExecution_setInput;
    int (*p_ANeuralNetworksExecution_setInputFromMemory)(ANeuralNetworksExecution*, int32_t, const ANeuralNetworksOperandType*, const ANeuralNetworksMemory*, size_t, size_t) = ANeuralNetworksExecution_setInputFromMemory;
    int (*p_ANeuralNetworksExecution_setOutput)(ANeuralNetworksExecution*, int32_t, const ANeuralNetworksOperandType*, void*, size_t) = ANeuralNetworksExecution_setOutput;
    int (*p_ANeuralNetworksExecution_setOutputFromMemory)(ANeuralNetworksExecution*, int32_t, const ANeuralNetworksOperandType*, const ANeuralNetworksMemory*, size_t, size_t) = ANeuralNetworksExecution_setOutputFromMemory;
    int (*p_ANeuralNetworksExecution_startCompute)(ANeuralNetworksExecution*, ANeuralNetworksEvent**) = ANeuralNetworksExecution_startCompute;
    int (*p_ANeuralNetworksExecution_compute)(ANeuralNetworksExecution*) = ANeuralNetworksExecution_compute;
    int (*p_ANeuralNetworksExecution_setMeasureTiming)(ANeuralNetworksExecution*, bool) = ANeuralNetworksExecution_setMeasureTiming;
    int (*p_ANeuralNetworksExecution_getDuration)(const ANeuralNetworksExecution*, int32_t, uint64_t*) = ANeuralNetworksExecution_getDuration;
    int (*p_ANeuralNetworksExecution_getOutputOperandRank)(ANeuralNetworksExecution*, int32_t, uint32_t*) = ANeuralNetworksExecution_getOutputOperandRank;
    int (*p_ANeuralNetworksExecution_getOutputOperandDimensions)(ANeuralNetworksExecution*, int32_t, uint32_t*) = ANeuralNetworksExecution_getOutputOperandDimensions;
    int (*p_ANeuralNetworksExecution_setTimeout)(ANeuralNetworksExecution*, uint64_t) = ANeuralNetworksExecution_setTimeout;
    int (*p_ANeuralNetworksExecution_setLoopTimeout)(ANeuralNetworksExecution*, uint64_t) = ANeuralNetworksExecution_setLoopTimeout;
    int (*p_ANeuralNetworksExecution_startComputeWithDependencies)(ANeuralNetworksExecution*, const ANeuralNetworksEvent* const*, uint32_t, uint64_t, ANeuralNetworksEvent**) = ANeuralNetworksExecution_startComputeWithDependencies;
    int (*p_ANeuralNetworksExecution_enableInputAndOutputPadding)(ANeuralNetworksExecution*, bool) = ANeuralNetworksExecution_enableInputAndOutputPadding;
    int (*p_ANeuralNetworksExecution_setReusable)(ANeuralNetworksExecution*, bool) = ANeuralNetworksExecution_setReusable;
    int (*p_ANeuralNetworksExecution_addExtensionAttribute)(ANeuralNetworksExecution*, const char*, uint16_t, const void*, size_t) = ANeuralNetworksExecution_addExtensionAttribute;
    int (*p_ANeuralNetworksMemory_createFromFd)(size_t, int, int, size_t, ANeuralNetworksMemory**) = ANeuralNetworksMemory_createFromFd;
    int (*p_ANeuralNetworksMemory_createFromAHardwareBuffer)(const AHardwareBuffer*, ANeuralNetworksMemory**) = ANeuralNetworksMemory_createFromAHardwareBuffer;
    int (*p_ANeuralNetworksMemory_createFromDesc)(const ANeuralNetworksMemoryDesc*, ANeuralNetworksMemory**) = ANeuralNetworksMemory_createFromDesc;
    int (*p_ANeuralNetworksMemory_copy)(const ANeuralNetworksMemory*, const ANeuralNetworksMemory*) = ANeuralNetworksMemory_copy;
    void (*p_ANeuralNetworksMemory_free)(ANeuralNetworksMemory*) = ANeuralNetworksMemory_free;
    int (*p_ANeuralNetworksMemoryDesc_create)(ANeuralNetworksMemoryDesc**) = ANeuralNetworksMemoryDesc_create;
    void (*p_ANeuralNetworksMemoryDesc_free)(ANeuralNetworksMemoryDesc*) = ANeuralNetworksMemoryDesc_free;
    int (*p_ANeuralNetworksMemoryDesc_addInputRole)(ANeuralNetworksMemoryDesc*, const ANeuralNetworksCompilation*, uint32_t, float) = ANeuralNetworksMemoryDesc_addInputRole;
    int (*p_ANeuralNetworksMemoryDesc_addOutputRole)(ANeuralNetworksMemoryDesc*, const ANeuralNetworksCompilation*, uint32_t, float) = ANeuralNetworksMemoryDesc_addOutputRole;
    int (*p_ANeuralNetworksMemoryDesc_setDimensions)(ANeuralNetworksMemoryDesc*, uint32_t, const uint32_t*) = ANeuralNetworksMemoryDesc_setDimensions;
    int (*p_ANeuralNetworksMemoryDesc_finish)(ANeuralNetworksMemoryDesc*) = ANeuralNetworksMemoryDesc_finish;
    int (*p_ANeuralNetworksEvent_wait)(ANeuralNetworksEvent*) = ANeuralNetworksEvent_wait;
    void (*p_ANeuralNetworksEvent_free)(ANeuralNetworksEvent*) = ANeuralNetworksEvent_free;
    int (*p_ANeuralNetworksEvent_createFromSyncFenceFd)(int, ANeuralNetworksEvent**) = ANeuralNetworksEvent_createFromSyncFenceFd;
    int (*p_ANeuralNetworksEvent_getSyncFenceFd)(const ANeuralNetworksEvent*, int*) = ANeuralNetworksEvent_getSyncFenceFd;
    const char* (*p_ANNLinux_getLastErrorMessage)(void) = ANNLinux_getLastErrorMessage;
    void (*p_ANNLinux_clearLastErrorMessage)(void) = ANNLinux_clearLastErrorMessage;

    const AnyFn functions[] = {
        (AnyFn)p_ANeuralNetworks_getDeviceCount,
        (AnyFn)p_ANeuralNetworks_getDevice,
        (AnyFn)p_ANeuralNetworks_getDefaultLoopTimeout,
        (AnyFn)p_ANeuralNetworks_getMaximumLoopTimeout,
        (AnyFn)p_ANeuralNetworks_getRuntimeFeatureLevel,
        (AnyFn)p_ANeuralNetworksDevice_getName,
        (AnyFn)p_ANeuralNetworksDevice_getType,
        (AnyFn)p_ANeuralNetworksDevice_getVersion,
        (AnyFn)p_ANeuralNetworksDevice_getFeatureLevel,
        (AnyFn)p_ANeuralNetworksDevice_wait,
        (AnyFn)p_ANeuralNetworksDevice_getExtensionSupport,
        (AnyFn)p_ANeuralNetworksModel_create,
        (AnyFn)p_ANeuralNetworksModel_free,
        (AnyFn)p_ANeuralNetworksModel_finish,
        (AnyFn)p_ANeuralNetworksModel_addOperand,
        (AnyFn)p_ANeuralNetworksModel_setOperandValue,
        (AnyFn)p_ANeuralNetworksModel_setOperandSymmPerChannelQuantParams,
        (AnyFn)p_ANeuralNetworksModel_setOperandValueFromMemory,
        (AnyFn)p_ANeuralNetworksModel_setOperandValueFromModel,
        (AnyFn)p_ANeuralNetworksModel_addOperation,
        (AnyFn)p_ANeuralNetworksModel_identifyInputsAndOutputs,
        (AnyFn)p_ANeuralNetworksModel_relaxComputationFloat32toFloat16,
        (AnyFn)p_ANeuralNetworksModel_getSupportedOperationsForDevices,
        (AnyFn)p_ANeuralNetworksModel_getExtensionOperandType,
        (AnyFn)p_ANeuralNetworksModel_getExtensionOperationType,
        (AnyFn)p_ANeuralNetworksModel_setOperandExtensionData,
        (AnyFn)p_ANeuralNetworksCompilation_create,
        (AnyFn)p_ANeuralNetworksCompilation_createForDevices,
        (AnyFn)p_ANeuralNetworksCompilation_free,
        (AnyFn)p_ANeuralNetworksCompilation_setPreference,
        (AnyFn)p_ANeuralNetworksCompilation_setCaching,
        (AnyFn)p_ANeuralNetworksCompilation_setPriority,
        (AnyFn)p_ANeuralNetworksCompilation_setTimeout,
        (AnyFn)p_ANeuralNetworksCompilation_finish,
        (AnyFn)p_ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput,
        (AnyFn)p_ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput,
        (AnyFn)p_ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput,
        (AnyFn)p_ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput,
        (AnyFn)p_ANeuralNetworksCompilation_addExtensionAttribute,
        (AnyFn)p_ANeuralNetworksBurst_create,
        (AnyFn)p_ANeuralNetworksBurst_free,
        (AnyFn)p_ANeuralNetworksExecution_burstCompute,
        (AnyFn)p_ANeuralNetworksExecution_create,
        (AnyFn)p_ANeuralNetworksExecution_free,
        (AnyFn)p_ANeuralNetworksExecution_setInput,
        (AnyFn)p_ANeuralNetworksExecution_setInputFromMemory,
        (AnyFn)p_ANeuralNetworksExecution_setOutput,
        (AnyFn)p_ANeuralNetworksExecution_setOutputFromMemory,
        (AnyFn)p_ANeuralNetworksExecution_startCompute,
        (AnyFn)p_ANeuralNetworksExecution_compute,
        (AnyFn)p_ANeuralNetworksExecution_setMeasureTiming,
        (AnyFn)p_ANeuralNetworksExecution_getDuration,
        (AnyFn)p_ANeuralNetworksExecution_getOutputOperandRank,
        (AnyFn)p_ANeuralNetworksExecution_getOutputOperandDimensions,
        (AnyFn)p_ANeuralNetworksExecution_setTimeout,
        (AnyFn)p_ANeuralNetworksExecution_setLoopTimeout,
        (AnyFn)p_ANeuralNetworksExecution_startComputeWithDependencies,
        (AnyFn)p_ANeuralNetworksExecution_enableInputAndOutputPadding,
        (AnyFn)p_ANeuralNetworksExecution_setReusable,
        (AnyFn)p_ANeuralNetworksExecution_addExtensionAttribute,
        (AnyFn)p_ANeuralNetworksMemory_createFromFd,
        (AnyFn)p_ANeuralNetworksMemory_createFromAHardwareBuffer,
        (AnyFn)p_ANeuralNetworksMemory_createFromDesc,
        (AnyFn)p_ANeuralNetworksMemory_copy,
        (AnyFn)p_ANeuralNetworksMemory_free,
        (AnyFn)p_ANeuralNetworksMemoryDesc_create,
        (AnyFn)p_ANeuralNetworksMemoryDesc_free,
        (AnyFn)p_ANeuralNetworksMemoryDesc_addInputRole,
        (AnyFn)p_ANeuralNetworksMemoryDesc_addOutputRole,
        (AnyFn)p_ANeuralNetworksMemoryDesc_setDimensions,
        (AnyFn)p_ANeuralNetworksMemoryDesc_finish,
        (AnyFn)p_ANeuralNetworksEvent_wait,
        (AnyFn)p_ANeuralNetworksEvent_free,
        (AnyFn)p_ANeuralNetworksEvent_createFromSyncFenceFd,
        (AnyFn)p_ANeuralNetworksEvent_getSyncFenceFd,
        (AnyFn)p_ANNLinux_getLastErrorMessage,
        (AnyFn)p_ANNLinux_clearLastErrorMessage,
    };
    const size_t count = sizeof(functions) / sizeof(functions[0]);
    size_t present = 0;
    size_t i;
    for (i = 0; i < count; ++i) {
        if (functions[i] != NULL) ++present;
    }
    printf("%zu NNAPI functions declared, %zu resolved\n", count, present);
    /* The SL entry point links from C and returns a table of at least its level's size. */
    {
        NnApiSLDriverImpl* (*p_getSL)(void) = ANeuralNetworks_getSLDriverImpl;
        const NnApiSLDriverImpl* impl = p_getSL();
        if (impl == NULL || impl->implFeatureLevel < ANEURALNETWORKS_FEATURE_LEVEL_5) {
            fprintf(stderr, "ANeuralNetworks_getSLDriverImpl: no usable table\n");
            return 1;
        }
    }
    return present == 77 ? 0 : 1;
}
