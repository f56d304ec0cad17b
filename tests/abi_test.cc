// ABI conformance of the public NNAPI headers against the Android NDK ABI
// (values and layouts from shared/spec/ABI.md).  Most checks are static
// asserts, so a wrong value or signature breaks the build of this test; the
// runtime tests repeat the enum tables so that a failure names the member.
//
// The function signature checks only inspect declarations (decltype), so this
// file does not need the library to link.

#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <android/NeuralNetworksExperimentalFeatures.h>
#include <android/NeuralNetworksExtensions.h>
#include <android/NeuralNetworksOEM.h>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace {

// ---------------------------------------------------------------------------
// Struct layouts.  The general formulas hold on every ABI; the literal
// numbers are the LP64 (x86_64/aarch64) values the spec lists.
// ---------------------------------------------------------------------------

static_assert(sizeof(ANeuralNetworksOperandType) == 16 + sizeof(void*), "OperandType size");
static_assert(alignof(ANeuralNetworksOperandType) == alignof(void*), "OperandType align");
static_assert(offsetof(ANeuralNetworksOperandType, type) == 0, "type offset");
static_assert(offsetof(ANeuralNetworksOperandType, dimensionCount) == 4, "dimensionCount offset");
static_assert(offsetof(ANeuralNetworksOperandType, dimensions) == 8, "dimensions offset");
static_assert(offsetof(ANeuralNetworksOperandType, scale) == 8 + sizeof(void*), "scale offset");
static_assert(offsetof(ANeuralNetworksOperandType, zeroPoint) == 12 + sizeof(void*),
              "zeroPoint offset");
static_assert(std::is_same<decltype(ANeuralNetworksOperandType::type), int32_t>::value, "");
static_assert(std::is_same<decltype(ANeuralNetworksOperandType::dimensionCount), uint32_t>::value,
              "");
static_assert(
        std::is_same<decltype(ANeuralNetworksOperandType::dimensions), const uint32_t*>::value, "");
static_assert(std::is_same<decltype(ANeuralNetworksOperandType::scale), float>::value, "");
static_assert(std::is_same<decltype(ANeuralNetworksOperandType::zeroPoint), int32_t>::value, "");

static_assert(sizeof(ANeuralNetworksSymmPerChannelQuantParams) == 8 + sizeof(void*),
              "SymmPerChannelQuantParams size");
static_assert(alignof(ANeuralNetworksSymmPerChannelQuantParams) == alignof(void*),
              "SymmPerChannelQuantParams align");
static_assert(offsetof(ANeuralNetworksSymmPerChannelQuantParams, channelDim) == 0, "");
static_assert(offsetof(ANeuralNetworksSymmPerChannelQuantParams, scaleCount) == 4, "");
static_assert(offsetof(ANeuralNetworksSymmPerChannelQuantParams, scales) == 8, "");
static_assert(std::is_same<decltype(ANeuralNetworksSymmPerChannelQuantParams::channelDim),
                           uint32_t>::value, "");
static_assert(std::is_same<decltype(ANeuralNetworksSymmPerChannelQuantParams::scaleCount),
                           uint32_t>::value, "");
static_assert(std::is_same<decltype(ANeuralNetworksSymmPerChannelQuantParams::scales),
                           const float*>::value, "");

#if defined(__LP64__) || defined(_LP64)
static_assert(sizeof(ANeuralNetworksOperandType) == 24, "LP64 OperandType size");
static_assert(alignof(ANeuralNetworksOperandType) == 8, "LP64 OperandType align");
static_assert(offsetof(ANeuralNetworksOperandType, scale) == 16, "LP64 scale offset");
static_assert(offsetof(ANeuralNetworksOperandType, zeroPoint) == 20, "LP64 zeroPoint offset");
static_assert(sizeof(ANeuralNetworksSymmPerChannelQuantParams) == 16, "LP64 params size");
static_assert(alignof(ANeuralNetworksSymmPerChannelQuantParams) == 8, "LP64 params align");
#endif

// C struct tags must equal the typedef names so C++ forward declarations such
// as `struct ANeuralNetworksModel;` refer to the same types.
static_assert(std::is_same<struct ANeuralNetworksOperandType, ANeuralNetworksOperandType>::value, "");
static_assert(std::is_same<struct ANeuralNetworksSymmPerChannelQuantParams,
                           ANeuralNetworksSymmPerChannelQuantParams>::value, "");
static_assert(std::is_same<struct ANeuralNetworksMemory, ANeuralNetworksMemory>::value, "");
static_assert(std::is_same<struct ANeuralNetworksModel, ANeuralNetworksModel>::value, "");
static_assert(std::is_same<struct ANeuralNetworksCompilation, ANeuralNetworksCompilation>::value, "");
static_assert(std::is_same<struct ANeuralNetworksExecution, ANeuralNetworksExecution>::value, "");
static_assert(std::is_same<struct ANeuralNetworksEvent, ANeuralNetworksEvent>::value, "");
static_assert(std::is_same<struct ANeuralNetworksBurst, ANeuralNetworksBurst>::value, "");
static_assert(std::is_same<struct ANeuralNetworksDevice, ANeuralNetworksDevice>::value, "");
static_assert(std::is_same<struct ANeuralNetworksMemoryDesc, ANeuralNetworksMemoryDesc>::value, "");
static_assert(std::is_same<struct AHardwareBuffer, AHardwareBuffer>::value, "");
static_assert(std::is_same<ANeuralNetworksOperationType, int32_t>::value, "");

// Handles are opaque: the public header must not define them.
template <typename T, typename = void>
struct IsComplete : std::false_type {};
template <typename T>
struct IsComplete<T, decltype(void(sizeof(T)))> : std::true_type {};
static_assert(!IsComplete<ANeuralNetworksModel>::value, "Model must be opaque");
static_assert(!IsComplete<ANeuralNetworksCompilation>::value, "Compilation must be opaque");
static_assert(!IsComplete<ANeuralNetworksExecution>::value, "Execution must be opaque");
static_assert(!IsComplete<ANeuralNetworksMemory>::value, "Memory must be opaque");
static_assert(!IsComplete<ANeuralNetworksEvent>::value, "Event must be opaque");
static_assert(!IsComplete<ANeuralNetworksBurst>::value, "Burst must be opaque");
static_assert(!IsComplete<ANeuralNetworksDevice>::value, "Device must be opaque");
static_assert(!IsComplete<ANeuralNetworksMemoryDesc>::value, "MemoryDesc must be opaque");

// All enums are plain 4-byte C enums.
static_assert(sizeof(OperandCode) == 4, "");
static_assert(sizeof(OperationCode) == 4, "");
static_assert(sizeof(FuseCode) == 4, "");
static_assert(sizeof(PaddingCode) == 4, "");
static_assert(sizeof(PreferenceCode) == 4, "");
static_assert(sizeof(DeviceTypeCode) == 4, "");
static_assert(sizeof(FeatureLevelCode) == 4, "");
static_assert(sizeof(ResultCode) == 4, "");
static_assert(sizeof(DurationCode) == 4, "");
static_assert(sizeof(PriorityCode) == 4, "");
static_assert(std::is_enum<OperandCode>::value && std::is_enum<OperationCode>::value, "");

// ---------------------------------------------------------------------------
// Enum values (compile time).
// ---------------------------------------------------------------------------

static_assert(ANEURALNETWORKS_FLOAT32 == 0, "");
static_assert(ANEURALNETWORKS_INT32 == 1, "");
static_assert(ANEURALNETWORKS_UINT32 == 2, "");
static_assert(ANEURALNETWORKS_TENSOR_FLOAT32 == 3, "");
static_assert(ANEURALNETWORKS_TENSOR_INT32 == 4, "");
static_assert(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM == 5, "");
static_assert(ANEURALNETWORKS_BOOL == 6, "");
static_assert(ANEURALNETWORKS_TENSOR_QUANT16_SYMM == 7, "");
static_assert(ANEURALNETWORKS_TENSOR_FLOAT16 == 8, "");
static_assert(ANEURALNETWORKS_TENSOR_BOOL8 == 9, "");
static_assert(ANEURALNETWORKS_FLOAT16 == 10, "");
static_assert(ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL == 11, "");
static_assert(ANEURALNETWORKS_TENSOR_QUANT16_ASYMM == 12, "");
static_assert(ANEURALNETWORKS_TENSOR_QUANT8_SYMM == 13, "");
static_assert(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED == 14, "");
static_assert(ANEURALNETWORKS_MODEL == 15, "");
static_assert(ANEURALNETWORKS_OEM_SCALAR == 10000, "");
static_assert(ANEURALNETWORKS_TENSOR_OEM_BYTE == 10001, "");

static_assert(ANEURALNETWORKS_ADD == 0, "");
static_assert(ANEURALNETWORKS_CONV_2D == 3, "");
static_assert(ANEURALNETWORKS_DEPTHWISE_CONV_2D == 4, "");
static_assert(ANEURALNETWORKS_FULLY_CONNECTED == 9, "");
static_assert(ANEURALNETWORKS_LSTM == 16, "");
static_assert(ANEURALNETWORKS_RESHAPE == 22, "");
static_assert(ANEURALNETWORKS_SOFTMAX == 25, "");
static_assert(ANEURALNETWORKS_TANH == 28, "");
static_assert(ANEURALNETWORKS_BATCH_TO_SPACE_ND == 29, "");
static_assert(ANEURALNETWORKS_TRANSPOSE == 37, "");
static_assert(ANEURALNETWORKS_ABS == 38, "");
static_assert(ANEURALNETWORKS_DETECTION_POSTPROCESSING == 47, "");
static_assert(ANEURALNETWORKS_LOG_SOFTMAX == 64, "");
static_assert(ANEURALNETWORKS_QUANTIZED_16BIT_LSTM == 73, "");
static_assert(ANEURALNETWORKS_TRANSPOSE_CONV_2D == 91, "");
static_assert(ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR == 94, "");
static_assert(ANEURALNETWORKS_QUANTIZED_LSTM == 95, "");
static_assert(ANEURALNETWORKS_IF == 96, "");
static_assert(ANEURALNETWORKS_WHILE == 97, "");
static_assert(ANEURALNETWORKS_RANK == 101, "");
static_assert(ANEURALNETWORKS_BATCH_MATMUL == 102, "");
static_assert(ANEURALNETWORKS_PACK == 103, "");
static_assert(ANEURALNETWORKS_MIRROR_PAD == 104, "");
static_assert(ANEURALNETWORKS_REVERSE == 105, "");
static_assert(ANEURALNETWORKS_OEM_OPERATION == 10000, "");
static_assert(ANEURALNETWORKS_DENSIFY == 20000, "");

static_assert(ANEURALNETWORKS_FUSED_NONE == 0 && ANEURALNETWORKS_FUSED_RELU == 1 &&
                      ANEURALNETWORKS_FUSED_RELU1 == 2 && ANEURALNETWORKS_FUSED_RELU6 == 3, "");
static_assert(ANEURALNETWORKS_PADDING_SAME == 1 && ANEURALNETWORKS_PADDING_VALID == 2, "");
static_assert(ANEURALNETWORKS_PREFER_LOW_POWER == 0 &&
                      ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER == 1 &&
                      ANEURALNETWORKS_PREFER_SUSTAINED_SPEED == 2, "");
static_assert(ANEURALNETWORKS_PRIORITY_LOW == 90 && ANEURALNETWORKS_PRIORITY_MEDIUM == 100 &&
                      ANEURALNETWORKS_PRIORITY_HIGH == 110 &&
                      ANEURALNETWORKS_PRIORITY_DEFAULT == 100, "");
static_assert(ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES == 128, "");
static_assert(ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN == 32, "");
static_assert(ANEURALNETWORKS_FEATURE_LEVEL_EXPERIMENTAL == 0x7FFFFFFF, "");

// ---------------------------------------------------------------------------
// Function signatures: exact pointer types as written in the spec.  A wrong
// parameter/return type or a missing declaration fails to compile.
// ---------------------------------------------------------------------------

static_assert(std::is_same<decltype(&ANeuralNetworks_getDeviceCount),
                             int (*)(uint32_t*)>::value,
              "ANeuralNetworks_getDeviceCount signature");
static_assert(std::is_same<decltype(&ANeuralNetworks_getDevice),
                             int (*)(uint32_t, ANeuralNetworksDevice**)>::value,
              "ANeuralNetworks_getDevice signature");
static_assert(std::is_same<decltype(&ANeuralNetworks_getDefaultLoopTimeout),
                             uint64_t (*)(void)>::value,
              "ANeuralNetworks_getDefaultLoopTimeout signature");
static_assert(std::is_same<decltype(&ANeuralNetworks_getMaximumLoopTimeout),
                             uint64_t (*)(void)>::value,
              "ANeuralNetworks_getMaximumLoopTimeout signature");
static_assert(std::is_same<decltype(&ANeuralNetworks_getRuntimeFeatureLevel),
                             int64_t (*)(void)>::value,
              "ANeuralNetworks_getRuntimeFeatureLevel signature");
static_assert(std::is_same<decltype(&ANeuralNetworksDevice_getName),
                             int (*)(const ANeuralNetworksDevice*, const char**)>::value,
              "ANeuralNetworksDevice_getName signature");
static_assert(std::is_same<decltype(&ANeuralNetworksDevice_getType),
                             int (*)(const ANeuralNetworksDevice*, int32_t*)>::value,
              "ANeuralNetworksDevice_getType signature");
static_assert(std::is_same<decltype(&ANeuralNetworksDevice_getVersion),
                             int (*)(const ANeuralNetworksDevice*, const char**)>::value,
              "ANeuralNetworksDevice_getVersion signature");
static_assert(std::is_same<decltype(&ANeuralNetworksDevice_getFeatureLevel),
                             int (*)(const ANeuralNetworksDevice*, int64_t*)>::value,
              "ANeuralNetworksDevice_getFeatureLevel signature");
static_assert(std::is_same<decltype(&ANeuralNetworksDevice_wait),
                             int (*)(const ANeuralNetworksDevice*)>::value,
              "ANeuralNetworksDevice_wait signature");
static_assert(std::is_same<decltype(&ANeuralNetworksDevice_getExtensionSupport),
                             int (*)(const ANeuralNetworksDevice*, const char*, bool*)>::value,
              "ANeuralNetworksDevice_getExtensionSupport signature");
static_assert(std::is_same<decltype(&ANeuralNetworksModel_create),
                             int (*)(ANeuralNetworksModel**)>::value,
              "ANeuralNetworksModel_create signature");
static_assert(std::is_same<decltype(&ANeuralNetworksModel_free),
                             void (*)(ANeuralNetworksModel*)>::value,
              "ANeuralNetworksModel_free signature");
static_assert(std::is_same<decltype(&ANeuralNetworksModel_finish),
                             int (*)(ANeuralNetworksModel*)>::value,
              "ANeuralNetworksModel_finish signature");
static_assert(std::is_same<decltype(&ANeuralNetworksModel_addOperand),
                             int (*)(ANeuralNetworksModel*, const ANeuralNetworksOperandType*)>::value,
              "ANeuralNetworksModel_addOperand signature");
static_assert(std::is_same<decltype(&ANeuralNetworksModel_setOperandValue),
                             int (*)(ANeuralNetworksModel*, int32_t, const void*, size_t)>::value,
              "ANeuralNetworksModel_setOperandValue signature");
static_assert(std::is_same<decltype(&ANeuralNetworksModel_setOperandSymmPerChannelQuantParams),
                             int (*)(ANeuralNetworksModel*, int32_t, const ANeuralNetworksSymmPerChannelQuantParams*)>::value,
              "ANeuralNetworksModel_setOperandSymmPerChannelQuantParams signature");
static_assert(std::is_same<decltype(&ANeuralNetworksModel_setOperandValueFromMemory),
                             int (*)(ANeuralNetworksModel*, int32_t, const ANeuralNetworksMemory*, size_t, size_t)>::value,
              "ANeuralNetworksModel_setOperandValueFromMemory signature");
static_assert(std::is_same<decltype(&ANeuralNetworksModel_setOperandValueFromModel),
                             int (*)(ANeuralNetworksModel*, int32_t, const ANeuralNetworksModel*)>::value,
              "ANeuralNetworksModel_setOperandValueFromModel signature");
static_assert(std::is_same<decltype(&ANeuralNetworksModel_addOperation),
                             int (*)(ANeuralNetworksModel*, ANeuralNetworksOperationType, uint32_t, const uint32_t*, uint32_t, const uint32_t*)>::value,
              "ANeuralNetworksModel_addOperation signature");
static_assert(std::is_same<decltype(&ANeuralNetworksModel_identifyInputsAndOutputs),
                             int (*)(ANeuralNetworksModel*, uint32_t, const uint32_t*, uint32_t, const uint32_t*)>::value,
              "ANeuralNetworksModel_identifyInputsAndOutputs signature");
static_assert(std::is_same<decltype(&ANeuralNetworksModel_relaxComputationFloat32toFloat16),
                             int (*)(ANeuralNetworksModel*, bool)>::value,
              "ANeuralNetworksModel_relaxComputationFloat32toFloat16 signature");
static_assert(std::is_same<decltype(&ANeuralNetworksModel_getSupportedOperationsForDevices),
                             int (*)(const ANeuralNetworksModel*, const ANeuralNetworksDevice* const*, uint32_t, bool*)>::value,
              "ANeuralNetworksModel_getSupportedOperationsForDevices signature");
static_assert(std::is_same<decltype(&ANeuralNetworksModel_getExtensionOperandType),
                             int (*)(ANeuralNetworksModel*, const char*, uint16_t, int32_t*)>::value,
              "ANeuralNetworksModel_getExtensionOperandType signature");
static_assert(std::is_same<decltype(&ANeuralNetworksModel_getExtensionOperationType),
                             int (*)(ANeuralNetworksModel*, const char*, uint16_t, ANeuralNetworksOperationType*)>::value,
              "ANeuralNetworksModel_getExtensionOperationType signature");
static_assert(std::is_same<decltype(&ANeuralNetworksModel_setOperandExtensionData),
                             int (*)(ANeuralNetworksModel*, int32_t, const void*, size_t)>::value,
              "ANeuralNetworksModel_setOperandExtensionData signature");
static_assert(std::is_same<decltype(&ANeuralNetworksCompilation_create),
                             int (*)(ANeuralNetworksModel*, ANeuralNetworksCompilation**)>::value,
              "ANeuralNetworksCompilation_create signature");
static_assert(std::is_same<decltype(&ANeuralNetworksCompilation_createForDevices),
                             int (*)(ANeuralNetworksModel*, const ANeuralNetworksDevice* const*, uint32_t, ANeuralNetworksCompilation**)>::value,
              "ANeuralNetworksCompilation_createForDevices signature");
static_assert(std::is_same<decltype(&ANeuralNetworksCompilation_free),
                             void (*)(ANeuralNetworksCompilation*)>::value,
              "ANeuralNetworksCompilation_free signature");
static_assert(std::is_same<decltype(&ANeuralNetworksCompilation_setPreference),
                             int (*)(ANeuralNetworksCompilation*, int32_t)>::value,
              "ANeuralNetworksCompilation_setPreference signature");
static_assert(std::is_same<decltype(&ANeuralNetworksCompilation_setCaching),
                             int (*)(ANeuralNetworksCompilation*, const char*, const uint8_t*)>::value,
              "ANeuralNetworksCompilation_setCaching signature");
static_assert(std::is_same<decltype(&ANeuralNetworksCompilation_setPriority),
                             int (*)(ANeuralNetworksCompilation*, int)>::value,
              "ANeuralNetworksCompilation_setPriority signature");
static_assert(std::is_same<decltype(&ANeuralNetworksCompilation_setTimeout),
                             int (*)(ANeuralNetworksCompilation*, uint64_t)>::value,
              "ANeuralNetworksCompilation_setTimeout signature");
static_assert(std::is_same<decltype(&ANeuralNetworksCompilation_finish),
                             int (*)(ANeuralNetworksCompilation*)>::value,
              "ANeuralNetworksCompilation_finish signature");
static_assert(std::is_same<decltype(&ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput),
                             int (*)(const ANeuralNetworksCompilation*, uint32_t, uint32_t*)>::value,
              "ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput signature");
static_assert(std::is_same<decltype(&ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput),
                             int (*)(const ANeuralNetworksCompilation*, uint32_t, uint32_t*)>::value,
              "ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput signature");
static_assert(std::is_same<decltype(&ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput),
                             int (*)(const ANeuralNetworksCompilation*, uint32_t, uint32_t*)>::value,
              "ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput signature");
static_assert(std::is_same<decltype(&ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput),
                             int (*)(const ANeuralNetworksCompilation*, uint32_t, uint32_t*)>::value,
              "ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput signature");
static_assert(std::is_same<decltype(&ANeuralNetworksCompilation_addExtensionAttribute),
                             int (*)(ANeuralNetworksCompilation*, const char*, uint16_t, const void*, size_t)>::value,
              "ANeuralNetworksCompilation_addExtensionAttribute signature");
static_assert(std::is_same<decltype(&ANeuralNetworksBurst_create),
                             int (*)(ANeuralNetworksCompilation*, ANeuralNetworksBurst**)>::value,
              "ANeuralNetworksBurst_create signature");
static_assert(std::is_same<decltype(&ANeuralNetworksBurst_free),
                             void (*)(ANeuralNetworksBurst*)>::value,
              "ANeuralNetworksBurst_free signature");
static_assert(std::is_same<decltype(&ANeuralNetworksExecution_burstCompute),
                             int (*)(ANeuralNetworksExecution*, ANeuralNetworksBurst*)>::value,
              "ANeuralNetworksExecution_burstCompute signature");
static_assert(std::is_same<decltype(&ANeuralNetworksExecution_create),
                             int (*)(ANeuralNetworksCompilation*, ANeuralNetworksExecution**)>::value,
              "ANeuralNetworksExecution_create signature");
static_assert(std::is_same<decltype(&ANeuralNetworksExecution_free),
                             void (*)(ANeuralNetworksExecution*)>::value,
              "ANeuralNetworksExecution_free signature");
static_assert(std::is_same<decltype(&ANeuralNetworksExecution_setInput),
                             int (*)(ANeuralNetworksExecution*, int32_t, const ANeuralNetworksOperandType*, const void*, size_t)>::value,
              "ANeuralNetworksExecution_setInput signature");
static_assert(std::is_same<decltype(&ANeuralNetworksExecution_setInputFromMemory),
                             int (*)(ANeuralNetworksExecution*, int32_t, const ANeuralNetworksOperandType*, const ANeuralNetworksMemory*, size_t, size_t)>::value,
              "ANeuralNetworksExecution_setInputFromMemory signature");
static_assert(std::is_same<decltype(&ANeuralNetworksExecution_setOutput),
                             int (*)(ANeuralNetworksExecution*, int32_t, const ANeuralNetworksOperandType*, void*, size_t)>::value,
              "ANeuralNetworksExecution_setOutput signature");
static_assert(std::is_same<decltype(&ANeuralNetworksExecution_setOutputFromMemory),
                             int (*)(ANeuralNetworksExecution*, int32_t, const ANeuralNetworksOperandType*, const ANeuralNetworksMemory*, size_t, size_t)>::value,
              "ANeuralNetworksExecution_setOutputFromMemory signature");
static_assert(std::is_same<decltype(&ANeuralNetworksExecution_startCompute),
                             int (*)(ANeuralNetworksExecution*, ANeuralNetworksEvent**)>::value,
              "ANeuralNetworksExecution_startCompute signature");
static_assert(std::is_same<decltype(&ANeuralNetworksExecution_compute),
                             int (*)(ANeuralNetworksExecution*)>::value,
              "ANeuralNetworksExecution_compute signature");
static_assert(std::is_same<decltype(&ANeuralNetworksExecution_setMeasureTiming),
                             int (*)(ANeuralNetworksExecution*, bool)>::value,
              "ANeuralNetworksExecution_setMeasureTiming signature");
static_assert(std::is_same<decltype(&ANeuralNetworksExecution_getDuration),
                             int (*)(const ANeuralNetworksExecution*, int32_t, uint64_t*)>::value,
              "ANeuralNetworksExecution_getDuration signature");
static_assert(std::is_same<decltype(&ANeuralNetworksExecution_getOutputOperandRank),
                             int (*)(ANeuralNetworksExecution*, int32_t, uint32_t*)>::value,
              "ANeuralNetworksExecution_getOutputOperandRank signature");
static_assert(std::is_same<decltype(&ANeuralNetworksExecution_getOutputOperandDimensions),
                             int (*)(ANeuralNetworksExecution*, int32_t, uint32_t*)>::value,
              "ANeuralNetworksExecution_getOutputOperandDimensions signature");
static_assert(std::is_same<decltype(&ANeuralNetworksExecution_setTimeout),
                             int (*)(ANeuralNetworksExecution*, uint64_t)>::value,
              "ANeuralNetworksExecution_setTimeout signature");
static_assert(std::is_same<decltype(&ANeuralNetworksExecution_setLoopTimeout),
                             int (*)(ANeuralNetworksExecution*, uint64_t)>::value,
              "ANeuralNetworksExecution_setLoopTimeout signature");
static_assert(std::is_same<decltype(&ANeuralNetworksExecution_startComputeWithDependencies),
                             int (*)(ANeuralNetworksExecution*, const ANeuralNetworksEvent* const*, uint32_t, uint64_t, ANeuralNetworksEvent**)>::value,
              "ANeuralNetworksExecution_startComputeWithDependencies signature");
static_assert(std::is_same<decltype(&ANeuralNetworksExecution_enableInputAndOutputPadding),
                             int (*)(ANeuralNetworksExecution*, bool)>::value,
              "ANeuralNetworksExecution_enableInputAndOutputPadding signature");
static_assert(std::is_same<decltype(&ANeuralNetworksExecution_setReusable),
                             int (*)(ANeuralNetworksExecution*, bool)>::value,
              "ANeuralNetworksExecution_setReusable signature");
static_assert(std::is_same<decltype(&ANeuralNetworksExecution_addExtensionAttribute),
                             int (*)(ANeuralNetworksExecution*, const char*, uint16_t, const void*, size_t)>::value,
              "ANeuralNetworksExecution_addExtensionAttribute signature");
static_assert(std::is_same<decltype(&ANeuralNetworksMemory_createFromFd),
                             int (*)(size_t, int, int, size_t, ANeuralNetworksMemory**)>::value,
              "ANeuralNetworksMemory_createFromFd signature");
static_assert(std::is_same<decltype(&ANeuralNetworksMemory_createFromAHardwareBuffer),
                             int (*)(const AHardwareBuffer*, ANeuralNetworksMemory**)>::value,
              "ANeuralNetworksMemory_createFromAHardwareBuffer signature");
static_assert(std::is_same<decltype(&ANeuralNetworksMemory_createFromDesc),
                             int (*)(const ANeuralNetworksMemoryDesc*, ANeuralNetworksMemory**)>::value,
              "ANeuralNetworksMemory_createFromDesc signature");
static_assert(std::is_same<decltype(&ANeuralNetworksMemory_copy),
                             int (*)(const ANeuralNetworksMemory*, const ANeuralNetworksMemory*)>::value,
              "ANeuralNetworksMemory_copy signature");
static_assert(std::is_same<decltype(&ANeuralNetworksMemory_free),
                             void (*)(ANeuralNetworksMemory*)>::value,
              "ANeuralNetworksMemory_free signature");
static_assert(std::is_same<decltype(&ANeuralNetworksMemoryDesc_create),
                             int (*)(ANeuralNetworksMemoryDesc**)>::value,
              "ANeuralNetworksMemoryDesc_create signature");
static_assert(std::is_same<decltype(&ANeuralNetworksMemoryDesc_free),
                             void (*)(ANeuralNetworksMemoryDesc*)>::value,
              "ANeuralNetworksMemoryDesc_free signature");
static_assert(std::is_same<decltype(&ANeuralNetworksMemoryDesc_addInputRole),
                             int (*)(ANeuralNetworksMemoryDesc*, const ANeuralNetworksCompilation*, uint32_t, float)>::value,
              "ANeuralNetworksMemoryDesc_addInputRole signature");
static_assert(std::is_same<decltype(&ANeuralNetworksMemoryDesc_addOutputRole),
                             int (*)(ANeuralNetworksMemoryDesc*, const ANeuralNetworksCompilation*, uint32_t, float)>::value,
              "ANeuralNetworksMemoryDesc_addOutputRole signature");
static_assert(std::is_same<decltype(&ANeuralNetworksMemoryDesc_setDimensions),
                             int (*)(ANeuralNetworksMemoryDesc*, uint32_t, const uint32_t*)>::value,
              "ANeuralNetworksMemoryDesc_setDimensions signature");
static_assert(std::is_same<decltype(&ANeuralNetworksMemoryDesc_finish),
                             int (*)(ANeuralNetworksMemoryDesc*)>::value,
              "ANeuralNetworksMemoryDesc_finish signature");
static_assert(std::is_same<decltype(&ANeuralNetworksEvent_wait),
                             int (*)(ANeuralNetworksEvent*)>::value,
              "ANeuralNetworksEvent_wait signature");
static_assert(std::is_same<decltype(&ANeuralNetworksEvent_free),
                             void (*)(ANeuralNetworksEvent*)>::value,
              "ANeuralNetworksEvent_free signature");
static_assert(std::is_same<decltype(&ANeuralNetworksEvent_createFromSyncFenceFd),
                             int (*)(int, ANeuralNetworksEvent**)>::value,
              "ANeuralNetworksEvent_createFromSyncFenceFd signature");
static_assert(std::is_same<decltype(&ANeuralNetworksEvent_getSyncFenceFd),
                             int (*)(const ANeuralNetworksEvent*, int*)>::value,
              "ANeuralNetworksEvent_getSyncFenceFd signature");
static_assert(std::is_same<decltype(&ANNLinux_getLastErrorMessage),
                             const char* (*)(void)>::value,
              "ANNLinux_getLastErrorMessage signature");
static_assert(std::is_same<decltype(&ANNLinux_clearLastErrorMessage),
                             void (*)(void)>::value,
              "ANNLinux_clearLastErrorMessage signature");

// ---------------------------------------------------------------------------
// Runtime tables (a failure names the offending member).
// ---------------------------------------------------------------------------

struct EnumRow {
    long long actual;
    long long expected;
    const char* name;
};

void checkRows(const EnumRow* rows, size_t count) {
    for (size_t i = 0; i < count; ++i) {
        EXPECT_EQ(rows[i].actual, rows[i].expected) << rows[i].name;
    }
}

template <size_t N>
void checkRows(const EnumRow (&rows)[N]) {
    checkRows(rows, N);
}

TEST(AbiTest, OperandCodeValues) {
    const EnumRow rows[] = {
    {ANEURALNETWORKS_FLOAT32, 0, "FLOAT32"},
    {ANEURALNETWORKS_INT32, 1, "INT32"},
    {ANEURALNETWORKS_UINT32, 2, "UINT32"},
    {ANEURALNETWORKS_TENSOR_FLOAT32, 3, "TENSOR_FLOAT32"},
    {ANEURALNETWORKS_TENSOR_INT32, 4, "TENSOR_INT32"},
    {ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 5, "TENSOR_QUANT8_ASYMM"},
    {ANEURALNETWORKS_BOOL, 6, "BOOL"},
    {ANEURALNETWORKS_TENSOR_QUANT16_SYMM, 7, "TENSOR_QUANT16_SYMM"},
    {ANEURALNETWORKS_TENSOR_FLOAT16, 8, "TENSOR_FLOAT16"},
    {ANEURALNETWORKS_TENSOR_BOOL8, 9, "TENSOR_BOOL8"},
    {ANEURALNETWORKS_FLOAT16, 10, "FLOAT16"},
    {ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, 11, "TENSOR_QUANT8_SYMM_PER_CHANNEL"},
    {ANEURALNETWORKS_TENSOR_QUANT16_ASYMM, 12, "TENSOR_QUANT16_ASYMM"},
    {ANEURALNETWORKS_TENSOR_QUANT8_SYMM, 13, "TENSOR_QUANT8_SYMM"},
    {ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, 14, "TENSOR_QUANT8_ASYMM_SIGNED"},
    {ANEURALNETWORKS_MODEL, 15, "MODEL"},
    {ANEURALNETWORKS_OEM_SCALAR, 10000, "OEM_SCALAR"},
    {ANEURALNETWORKS_TENSOR_OEM_BYTE, 10001, "TENSOR_OEM_BYTE"},
    };
    EXPECT_EQ(sizeof(rows) / sizeof(rows[0]), 18u);
    checkRows(rows);
}

TEST(AbiTest, OperationCodeValues) {
    // Every member 0..105, each at the value its position says.
    const EnumRow rows[] = {
    {ANEURALNETWORKS_ADD, 0, "ADD"},
    {ANEURALNETWORKS_AVERAGE_POOL_2D, 1, "AVERAGE_POOL_2D"},
    {ANEURALNETWORKS_CONCATENATION, 2, "CONCATENATION"},
    {ANEURALNETWORKS_CONV_2D, 3, "CONV_2D"},
    {ANEURALNETWORKS_DEPTHWISE_CONV_2D, 4, "DEPTHWISE_CONV_2D"},
    {ANEURALNETWORKS_DEPTH_TO_SPACE, 5, "DEPTH_TO_SPACE"},
    {ANEURALNETWORKS_DEQUANTIZE, 6, "DEQUANTIZE"},
    {ANEURALNETWORKS_EMBEDDING_LOOKUP, 7, "EMBEDDING_LOOKUP"},
    {ANEURALNETWORKS_FLOOR, 8, "FLOOR"},
    {ANEURALNETWORKS_FULLY_CONNECTED, 9, "FULLY_CONNECTED"},
    {ANEURALNETWORKS_HASHTABLE_LOOKUP, 10, "HASHTABLE_LOOKUP"},
    {ANEURALNETWORKS_L2_NORMALIZATION, 11, "L2_NORMALIZATION"},
    {ANEURALNETWORKS_L2_POOL_2D, 12, "L2_POOL_2D"},
    {ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION, 13, "LOCAL_RESPONSE_NORMALIZATION"},
    {ANEURALNETWORKS_LOGISTIC, 14, "LOGISTIC"},
    {ANEURALNETWORKS_LSH_PROJECTION, 15, "LSH_PROJECTION"},
    {ANEURALNETWORKS_LSTM, 16, "LSTM"},
    {ANEURALNETWORKS_MAX_POOL_2D, 17, "MAX_POOL_2D"},
    {ANEURALNETWORKS_MUL, 18, "MUL"},
    {ANEURALNETWORKS_RELU, 19, "RELU"},
    {ANEURALNETWORKS_RELU1, 20, "RELU1"},
    {ANEURALNETWORKS_RELU6, 21, "RELU6"},
    {ANEURALNETWORKS_RESHAPE, 22, "RESHAPE"},
    {ANEURALNETWORKS_RESIZE_BILINEAR, 23, "RESIZE_BILINEAR"},
    {ANEURALNETWORKS_RNN, 24, "RNN"},
    {ANEURALNETWORKS_SOFTMAX, 25, "SOFTMAX"},
    {ANEURALNETWORKS_SPACE_TO_DEPTH, 26, "SPACE_TO_DEPTH"},
    {ANEURALNETWORKS_SVDF, 27, "SVDF"},
    {ANEURALNETWORKS_TANH, 28, "TANH"},
    {ANEURALNETWORKS_BATCH_TO_SPACE_ND, 29, "BATCH_TO_SPACE_ND"},
    {ANEURALNETWORKS_DIV, 30, "DIV"},
    {ANEURALNETWORKS_MEAN, 31, "MEAN"},
    {ANEURALNETWORKS_PAD, 32, "PAD"},
    {ANEURALNETWORKS_SPACE_TO_BATCH_ND, 33, "SPACE_TO_BATCH_ND"},
    {ANEURALNETWORKS_SQUEEZE, 34, "SQUEEZE"},
    {ANEURALNETWORKS_STRIDED_SLICE, 35, "STRIDED_SLICE"},
    {ANEURALNETWORKS_SUB, 36, "SUB"},
    {ANEURALNETWORKS_TRANSPOSE, 37, "TRANSPOSE"},
    {ANEURALNETWORKS_ABS, 38, "ABS"},
    {ANEURALNETWORKS_ARGMAX, 39, "ARGMAX"},
    {ANEURALNETWORKS_ARGMIN, 40, "ARGMIN"},
    {ANEURALNETWORKS_AXIS_ALIGNED_BBOX_TRANSFORM, 41, "AXIS_ALIGNED_BBOX_TRANSFORM"},
    {ANEURALNETWORKS_BIDIRECTIONAL_SEQUENCE_LSTM, 42, "BIDIRECTIONAL_SEQUENCE_LSTM"},
    {ANEURALNETWORKS_BIDIRECTIONAL_SEQUENCE_RNN, 43, "BIDIRECTIONAL_SEQUENCE_RNN"},
    {ANEURALNETWORKS_BOX_WITH_NMS_LIMIT, 44, "BOX_WITH_NMS_LIMIT"},
    {ANEURALNETWORKS_CAST, 45, "CAST"},
    {ANEURALNETWORKS_CHANNEL_SHUFFLE, 46, "CHANNEL_SHUFFLE"},
    {ANEURALNETWORKS_DETECTION_POSTPROCESSING, 47, "DETECTION_POSTPROCESSING"},
    {ANEURALNETWORKS_EQUAL, 48, "EQUAL"},
    {ANEURALNETWORKS_EXP, 49, "EXP"},
    {ANEURALNETWORKS_EXPAND_DIMS, 50, "EXPAND_DIMS"},
    {ANEURALNETWORKS_GATHER, 51, "GATHER"},
    {ANEURALNETWORKS_GENERATE_PROPOSALS, 52, "GENERATE_PROPOSALS"},
    {ANEURALNETWORKS_GREATER, 53, "GREATER"},
    {ANEURALNETWORKS_GREATER_EQUAL, 54, "GREATER_EQUAL"},
    {ANEURALNETWORKS_GROUPED_CONV_2D, 55, "GROUPED_CONV_2D"},
    {ANEURALNETWORKS_HEATMAP_MAX_KEYPOINT, 56, "HEATMAP_MAX_KEYPOINT"},
    {ANEURALNETWORKS_INSTANCE_NORMALIZATION, 57, "INSTANCE_NORMALIZATION"},
    {ANEURALNETWORKS_LESS, 58, "LESS"},
    {ANEURALNETWORKS_LESS_EQUAL, 59, "LESS_EQUAL"},
    {ANEURALNETWORKS_LOG, 60, "LOG"},
    {ANEURALNETWORKS_LOGICAL_AND, 61, "LOGICAL_AND"},
    {ANEURALNETWORKS_LOGICAL_NOT, 62, "LOGICAL_NOT"},
    {ANEURALNETWORKS_LOGICAL_OR, 63, "LOGICAL_OR"},
    {ANEURALNETWORKS_LOG_SOFTMAX, 64, "LOG_SOFTMAX"},
    {ANEURALNETWORKS_MAXIMUM, 65, "MAXIMUM"},
    {ANEURALNETWORKS_MINIMUM, 66, "MINIMUM"},
    {ANEURALNETWORKS_NEG, 67, "NEG"},
    {ANEURALNETWORKS_NOT_EQUAL, 68, "NOT_EQUAL"},
    {ANEURALNETWORKS_PAD_V2, 69, "PAD_V2"},
    {ANEURALNETWORKS_POW, 70, "POW"},
    {ANEURALNETWORKS_PRELU, 71, "PRELU"},
    {ANEURALNETWORKS_QUANTIZE, 72, "QUANTIZE"},
    {ANEURALNETWORKS_QUANTIZED_16BIT_LSTM, 73, "QUANTIZED_16BIT_LSTM"},
    {ANEURALNETWORKS_RANDOM_MULTINOMIAL, 74, "RANDOM_MULTINOMIAL"},
    {ANEURALNETWORKS_REDUCE_ALL, 75, "REDUCE_ALL"},
    {ANEURALNETWORKS_REDUCE_ANY, 76, "REDUCE_ANY"},
    {ANEURALNETWORKS_REDUCE_MAX, 77, "REDUCE_MAX"},
    {ANEURALNETWORKS_REDUCE_MIN, 78, "REDUCE_MIN"},
    {ANEURALNETWORKS_REDUCE_PROD, 79, "REDUCE_PROD"},
    {ANEURALNETWORKS_REDUCE_SUM, 80, "REDUCE_SUM"},
    {ANEURALNETWORKS_ROI_ALIGN, 81, "ROI_ALIGN"},
    {ANEURALNETWORKS_ROI_POOLING, 82, "ROI_POOLING"},
    {ANEURALNETWORKS_RSQRT, 83, "RSQRT"},
    {ANEURALNETWORKS_SELECT, 84, "SELECT"},
    {ANEURALNETWORKS_SIN, 85, "SIN"},
    {ANEURALNETWORKS_SLICE, 86, "SLICE"},
    {ANEURALNETWORKS_SPLIT, 87, "SPLIT"},
    {ANEURALNETWORKS_SQRT, 88, "SQRT"},
    {ANEURALNETWORKS_TILE, 89, "TILE"},
    {ANEURALNETWORKS_TOPK_V2, 90, "TOPK_V2"},
    {ANEURALNETWORKS_TRANSPOSE_CONV_2D, 91, "TRANSPOSE_CONV_2D"},
    {ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM, 92, "UNIDIRECTIONAL_SEQUENCE_LSTM"},
    {ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_RNN, 93, "UNIDIRECTIONAL_SEQUENCE_RNN"},
    {ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR, 94, "RESIZE_NEAREST_NEIGHBOR"},
    {ANEURALNETWORKS_QUANTIZED_LSTM, 95, "QUANTIZED_LSTM"},
    {ANEURALNETWORKS_IF, 96, "IF"},
    {ANEURALNETWORKS_WHILE, 97, "WHILE"},
    {ANEURALNETWORKS_ELU, 98, "ELU"},
    {ANEURALNETWORKS_HARD_SWISH, 99, "HARD_SWISH"},
    {ANEURALNETWORKS_FILL, 100, "FILL"},
    {ANEURALNETWORKS_RANK, 101, "RANK"},
    {ANEURALNETWORKS_BATCH_MATMUL, 102, "BATCH_MATMUL"},
    {ANEURALNETWORKS_PACK, 103, "PACK"},
    {ANEURALNETWORKS_MIRROR_PAD, 104, "MIRROR_PAD"},
    {ANEURALNETWORKS_REVERSE, 105, "REVERSE"},
    };
    ASSERT_EQ(sizeof(rows) / sizeof(rows[0]), 106u);
    checkRows(rows);
    for (size_t i = 0; i < 106; ++i) EXPECT_EQ(rows[i].actual, static_cast<long long>(i));
    EXPECT_EQ(ANEURALNETWORKS_OEM_OPERATION, 10000);
    EXPECT_EQ(ANEURALNETWORKS_DENSIFY, 20000);
}

TEST(AbiTest, ResultCodeValues) {
    const EnumRow rows[] = {
    {ANEURALNETWORKS_NO_ERROR, 0, "NO_ERROR"},
    {ANEURALNETWORKS_OUT_OF_MEMORY, 1, "OUT_OF_MEMORY"},
    {ANEURALNETWORKS_INCOMPLETE, 2, "INCOMPLETE"},
    {ANEURALNETWORKS_UNEXPECTED_NULL, 3, "UNEXPECTED_NULL"},
    {ANEURALNETWORKS_BAD_DATA, 4, "BAD_DATA"},
    {ANEURALNETWORKS_OP_FAILED, 5, "OP_FAILED"},
    {ANEURALNETWORKS_BAD_STATE, 6, "BAD_STATE"},
    {ANEURALNETWORKS_UNMAPPABLE, 7, "UNMAPPABLE"},
    {ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE, 8, "OUTPUT_INSUFFICIENT_SIZE"},
    {ANEURALNETWORKS_UNAVAILABLE_DEVICE, 9, "UNAVAILABLE_DEVICE"},
    {ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT, 10, "MISSED_DEADLINE_TRANSIENT"},
    {ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT, 11, "MISSED_DEADLINE_PERSISTENT"},
    {ANEURALNETWORKS_RESOURCE_EXHAUSTED_TRANSIENT, 12, "RESOURCE_EXHAUSTED_TRANSIENT"},
    {ANEURALNETWORKS_RESOURCE_EXHAUSTED_PERSISTENT, 13, "RESOURCE_EXHAUSTED_PERSISTENT"},
    {ANEURALNETWORKS_DEAD_OBJECT, 14, "DEAD_OBJECT"},
    };
    checkRows(rows);
}

TEST(AbiTest, SmallEnumValues) {
    const EnumRow rows[] = {
    {ANEURALNETWORKS_FUSED_NONE, 0, "FUSED_NONE"},
    {ANEURALNETWORKS_FUSED_RELU, 1, "FUSED_RELU"},
    {ANEURALNETWORKS_FUSED_RELU1, 2, "FUSED_RELU1"},
    {ANEURALNETWORKS_FUSED_RELU6, 3, "FUSED_RELU6"},
    {ANEURALNETWORKS_PADDING_SAME, 1, "PADDING_SAME"},
    {ANEURALNETWORKS_PADDING_VALID, 2, "PADDING_VALID"},
    {ANEURALNETWORKS_PREFER_LOW_POWER, 0, "PREFER_LOW_POWER"},
    {ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER, 1, "PREFER_FAST_SINGLE_ANSWER"},
    {ANEURALNETWORKS_PREFER_SUSTAINED_SPEED, 2, "PREFER_SUSTAINED_SPEED"},
    {ANEURALNETWORKS_PRIORITY_LOW, 90, "PRIORITY_LOW"},
    {ANEURALNETWORKS_PRIORITY_MEDIUM, 100, "PRIORITY_MEDIUM"},
    {ANEURALNETWORKS_PRIORITY_HIGH, 110, "PRIORITY_HIGH"},
    {ANEURALNETWORKS_PRIORITY_DEFAULT, 100, "PRIORITY_DEFAULT"},
    {ANEURALNETWORKS_DEVICE_UNKNOWN, 0, "DEVICE_UNKNOWN"},
    {ANEURALNETWORKS_DEVICE_OTHER, 1, "DEVICE_OTHER"},
    {ANEURALNETWORKS_DEVICE_CPU, 2, "DEVICE_CPU"},
    {ANEURALNETWORKS_DEVICE_GPU, 3, "DEVICE_GPU"},
    {ANEURALNETWORKS_DEVICE_ACCELERATOR, 4, "DEVICE_ACCELERATOR"},
    {ANEURALNETWORKS_DURATION_ON_HARDWARE, 0, "DURATION_ON_HARDWARE"},
    {ANEURALNETWORKS_DURATION_IN_DRIVER, 1, "DURATION_IN_DRIVER"},
    {ANEURALNETWORKS_FENCED_DURATION_ON_HARDWARE, 2, "FENCED_DURATION_ON_HARDWARE"},
    {ANEURALNETWORKS_FENCED_DURATION_IN_DRIVER, 3, "FENCED_DURATION_IN_DRIVER"},
    {ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES, 128,
     "MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES"},
    {ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN, 32, "BYTE_SIZE_OF_CACHE_TOKEN"},
    };
    checkRows(rows);
}

TEST(AbiTest, FeatureLevelValues) {
    const EnumRow rows[] = {
    {ANEURALNETWORKS_FEATURE_LEVEL_1, 27, "FEATURE_LEVEL_1"},
    {ANEURALNETWORKS_FEATURE_LEVEL_2, 28, "FEATURE_LEVEL_2"},
    {ANEURALNETWORKS_FEATURE_LEVEL_3, 29, "FEATURE_LEVEL_3"},
    {ANEURALNETWORKS_FEATURE_LEVEL_4, 30, "FEATURE_LEVEL_4"},
    {ANEURALNETWORKS_FEATURE_LEVEL_5, 31, "FEATURE_LEVEL_5"},
    {ANEURALNETWORKS_FEATURE_LEVEL_6, 1000006, "FEATURE_LEVEL_6"},
    {ANEURALNETWORKS_FEATURE_LEVEL_7, 1000007, "FEATURE_LEVEL_7"},
    {ANEURALNETWORKS_FEATURE_LEVEL_8, 1000008, "FEATURE_LEVEL_8"},
    {ANEURALNETWORKS_FEATURE_LEVEL_EXPERIMENTAL, 2147483647LL, "FEATURE_LEVEL_EXPERIMENTAL"},
    };
    checkRows(rows);
}

TEST(AbiTest, OperandTypeLayout) {
    // Aggregate-initialise in declaration order and read back through raw
    // offsets, as a client compiled against Android's header would.
    static const uint32_t dims[2] = {3, 4};
    ANeuralNetworksOperandType t = {ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 2, dims, 0.5f, 7};
    const unsigned char* base = reinterpret_cast<const unsigned char*>(&t);
    EXPECT_EQ(*reinterpret_cast<const int32_t*>(base + 0), 5);
    EXPECT_EQ(*reinterpret_cast<const uint32_t*>(base + 4), 2u);
    EXPECT_EQ(*reinterpret_cast<const uint32_t* const*>(base + 8), dims);
    EXPECT_EQ(*reinterpret_cast<const float*>(base + 8 + sizeof(void*)), 0.5f);
    EXPECT_EQ(*reinterpret_cast<const int32_t*>(base + 12 + sizeof(void*)), 7);

    static const float scales[3] = {0.1f, 0.2f, 0.3f};
    ANeuralNetworksSymmPerChannelQuantParams p = {1, 3, scales};
    const unsigned char* pb = reinterpret_cast<const unsigned char*>(&p);
    EXPECT_EQ(*reinterpret_cast<const uint32_t*>(pb + 0), 1u);
    EXPECT_EQ(*reinterpret_cast<const uint32_t*>(pb + 4), 3u);
    EXPECT_EQ(*reinterpret_cast<const float* const*>(pb + 8), scales);
}

}  // namespace
