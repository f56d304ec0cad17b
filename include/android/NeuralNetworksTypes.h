/*
 * Types of the Neural Networks API (NNAPI) C interface for Linux.
 *
 * Binary compatible with Android's <android/NeuralNetworksTypes.h>: every
 * enumerator value, struct layout and struct/handle tag matches the NDK so
 * that code written against Android's headers can be rebuilt (or, for the
 * shared library, loaded) unchanged.  Written from the ABI reference in
 * shared/spec/ABI.md; no availability annotations are used.
 */
#ifndef ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_TYPES_H
#define ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __ANDROID__
#include <android/hardware_buffer.h>
#else
/* Android graphics buffer; opaque on Linux, only ever handled by pointer. */
#ifndef ANNLINUX_AHARDWAREBUFFER_DECLARED
#define ANNLINUX_AHARDWAREBUFFER_DECLARED
typedef struct AHardwareBuffer AHardwareBuffer;
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Operand data types (ANeuralNetworksOperandType.type).  Scalars (FLOAT32,
 * INT32, UINT32, BOOL, FLOAT16, MODEL) must have dimensionCount == 0 and
 * dimensions == NULL.  Extension types are int32 values whose high 16 bits
 * are a non-zero extension prefix and are not members of this enum.
 */
typedef enum {
    /* Feature level 1. */
    ANEURALNETWORKS_FLOAT32 = 0,
    ANEURALNETWORKS_INT32 = 1,
    ANEURALNETWORKS_UINT32 = 2,
    ANEURALNETWORKS_TENSOR_FLOAT32 = 3,
    ANEURALNETWORKS_TENSOR_INT32 = 4,
    ANEURALNETWORKS_TENSOR_QUANT8_ASYMM = 5,

    /* Feature level 3. */
    ANEURALNETWORKS_BOOL = 6,
    ANEURALNETWORKS_TENSOR_QUANT16_SYMM = 7,
    ANEURALNETWORKS_TENSOR_FLOAT16 = 8,
    ANEURALNETWORKS_TENSOR_BOOL8 = 9,
    ANEURALNETWORKS_FLOAT16 = 10,
    ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL = 11,
    ANEURALNETWORKS_TENSOR_QUANT16_ASYMM = 12,
    ANEURALNETWORKS_TENSOR_QUANT8_SYMM = 13,

    /* Feature level 4. */
    ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED = 14,
    ANEURALNETWORKS_MODEL = 15,
} OperandCode;

/*
 * Operation types accepted by ANeuralNetworksModel_addOperation.  The value
 * is passed as ANeuralNetworksOperationType (int32_t).  The exact operand
 * signatures of each operation are described in the operation spec.
 */
typedef enum {
    /* Feature level 1 (Android 8.1, API 27). */
    ANEURALNETWORKS_ADD = 0,
    ANEURALNETWORKS_AVERAGE_POOL_2D = 1,
    ANEURALNETWORKS_CONCATENATION = 2,
    ANEURALNETWORKS_CONV_2D = 3,
    ANEURALNETWORKS_DEPTHWISE_CONV_2D = 4,
    ANEURALNETWORKS_DEPTH_TO_SPACE = 5,
    ANEURALNETWORKS_DEQUANTIZE = 6,
    ANEURALNETWORKS_EMBEDDING_LOOKUP = 7,
    ANEURALNETWORKS_FLOOR = 8,
    ANEURALNETWORKS_FULLY_CONNECTED = 9,
    ANEURALNETWORKS_HASHTABLE_LOOKUP = 10,
    ANEURALNETWORKS_L2_NORMALIZATION = 11,
    ANEURALNETWORKS_L2_POOL_2D = 12,
    ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION = 13,
    ANEURALNETWORKS_LOGISTIC = 14,
    ANEURALNETWORKS_LSH_PROJECTION = 15,
    ANEURALNETWORKS_LSTM = 16,
    ANEURALNETWORKS_MAX_POOL_2D = 17,
    ANEURALNETWORKS_MUL = 18,
    ANEURALNETWORKS_RELU = 19,
    ANEURALNETWORKS_RELU1 = 20,
    ANEURALNETWORKS_RELU6 = 21,
    ANEURALNETWORKS_RESHAPE = 22,
    ANEURALNETWORKS_RESIZE_BILINEAR = 23,
    ANEURALNETWORKS_RNN = 24,
    ANEURALNETWORKS_SOFTMAX = 25,
    ANEURALNETWORKS_SPACE_TO_DEPTH = 26,
    ANEURALNETWORKS_SVDF = 27,
    ANEURALNETWORKS_TANH = 28,

    /* Feature level 2 (Android 9, API 28). */
    ANEURALNETWORKS_BATCH_TO_SPACE_ND = 29,
    ANEURALNETWORKS_DIV = 30,
    ANEURALNETWORKS_MEAN = 31,
    ANEURALNETWORKS_PAD = 32,
    ANEURALNETWORKS_SPACE_TO_BATCH_ND = 33,
    ANEURALNETWORKS_SQUEEZE = 34,
    ANEURALNETWORKS_STRIDED_SLICE = 35,
    ANEURALNETWORKS_SUB = 36,
    ANEURALNETWORKS_TRANSPOSE = 37,

    /* Feature level 3 (Android 10, API 29). */
    ANEURALNETWORKS_ABS = 38,
    ANEURALNETWORKS_ARGMAX = 39,
    ANEURALNETWORKS_ARGMIN = 40,
    ANEURALNETWORKS_AXIS_ALIGNED_BBOX_TRANSFORM = 41,
    ANEURALNETWORKS_BIDIRECTIONAL_SEQUENCE_LSTM = 42,
    ANEURALNETWORKS_BIDIRECTIONAL_SEQUENCE_RNN = 43,
    ANEURALNETWORKS_BOX_WITH_NMS_LIMIT = 44,
    ANEURALNETWORKS_CAST = 45,
    ANEURALNETWORKS_CHANNEL_SHUFFLE = 46,
    ANEURALNETWORKS_DETECTION_POSTPROCESSING = 47,
    ANEURALNETWORKS_EQUAL = 48,
    ANEURALNETWORKS_EXP = 49,
    ANEURALNETWORKS_EXPAND_DIMS = 50,
    ANEURALNETWORKS_GATHER = 51,
    ANEURALNETWORKS_GENERATE_PROPOSALS = 52,
    ANEURALNETWORKS_GREATER = 53,
    ANEURALNETWORKS_GREATER_EQUAL = 54,
    ANEURALNETWORKS_GROUPED_CONV_2D = 55,
    ANEURALNETWORKS_HEATMAP_MAX_KEYPOINT = 56,
    ANEURALNETWORKS_INSTANCE_NORMALIZATION = 57,
    ANEURALNETWORKS_LESS = 58,
    ANEURALNETWORKS_LESS_EQUAL = 59,
    ANEURALNETWORKS_LOG = 60,
    ANEURALNETWORKS_LOGICAL_AND = 61,
    ANEURALNETWORKS_LOGICAL_NOT = 62,
    ANEURALNETWORKS_LOGICAL_OR = 63,
    ANEURALNETWORKS_LOG_SOFTMAX = 64,
    ANEURALNETWORKS_MAXIMUM = 65,
    ANEURALNETWORKS_MINIMUM = 66,
    ANEURALNETWORKS_NEG = 67,
    ANEURALNETWORKS_NOT_EQUAL = 68,
    ANEURALNETWORKS_PAD_V2 = 69,
    ANEURALNETWORKS_POW = 70,
    ANEURALNETWORKS_PRELU = 71,
    ANEURALNETWORKS_QUANTIZE = 72,
    ANEURALNETWORKS_QUANTIZED_16BIT_LSTM = 73,
    ANEURALNETWORKS_RANDOM_MULTINOMIAL = 74,
    ANEURALNETWORKS_REDUCE_ALL = 75,
    ANEURALNETWORKS_REDUCE_ANY = 76,
    ANEURALNETWORKS_REDUCE_MAX = 77,
    ANEURALNETWORKS_REDUCE_MIN = 78,
    ANEURALNETWORKS_REDUCE_PROD = 79,
    ANEURALNETWORKS_REDUCE_SUM = 80,
    ANEURALNETWORKS_ROI_ALIGN = 81,
    ANEURALNETWORKS_ROI_POOLING = 82,
    ANEURALNETWORKS_RSQRT = 83,
    ANEURALNETWORKS_SELECT = 84,
    ANEURALNETWORKS_SIN = 85,
    ANEURALNETWORKS_SLICE = 86,
    ANEURALNETWORKS_SPLIT = 87,
    ANEURALNETWORKS_SQRT = 88,
    ANEURALNETWORKS_TILE = 89,
    ANEURALNETWORKS_TOPK_V2 = 90,
    ANEURALNETWORKS_TRANSPOSE_CONV_2D = 91,
    ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM = 92,
    ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_RNN = 93,
    ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR = 94,

    /* Feature level 4 (Android 11, API 30). */
    ANEURALNETWORKS_QUANTIZED_LSTM = 95,
    ANEURALNETWORKS_IF = 96,
    ANEURALNETWORKS_WHILE = 97,
    ANEURALNETWORKS_ELU = 98,
    ANEURALNETWORKS_HARD_SWISH = 99,
    ANEURALNETWORKS_FILL = 100,
    ANEURALNETWORKS_RANK = 101,

    /* Feature level 6 (updatable module, value 1000006). */
    ANEURALNETWORKS_BATCH_MATMUL = 102,
    ANEURALNETWORKS_PACK = 103,

    /* Feature level 7 (updatable module, value 1000007). */
    ANEURALNETWORKS_MIRROR_PAD = 104,
    ANEURALNETWORKS_REVERSE = 105,
} OperationCode;

/* Activation fused into the output of some operations. */
typedef enum {
    ANEURALNETWORKS_FUSED_NONE = 0,
    ANEURALNETWORKS_FUSED_RELU = 1,
    ANEURALNETWORKS_FUSED_RELU1 = 2,
    ANEURALNETWORKS_FUSED_RELU6 = 3,
} FuseCode;

/* Implicit padding schemes.  Note the values start at 1, not 0. */
typedef enum {
    ANEURALNETWORKS_PADDING_SAME = 1,
    ANEURALNETWORKS_PADDING_VALID = 2,
} PaddingCode;

/* Execution preference hint for ANeuralNetworksCompilation_setPreference. */
typedef enum {
    ANEURALNETWORKS_PREFER_LOW_POWER = 0,
    ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER = 1,
    ANEURALNETWORKS_PREFER_SUSTAINED_SPEED = 2,
} PreferenceCode;

/* Kind of hardware reported by ANeuralNetworksDevice_getType. */
typedef enum {
    ANEURALNETWORKS_DEVICE_UNKNOWN = 0,
    ANEURALNETWORKS_DEVICE_OTHER = 1,
    ANEURALNETWORKS_DEVICE_CPU = 2,
    ANEURALNETWORKS_DEVICE_GPU = 3,
    ANEURALNETWORKS_DEVICE_ACCELERATOR = 4,
} DeviceTypeCode;

/*
 * NNAPI feature levels as returned by ANeuralNetworks_getRuntimeFeatureLevel
 * and ANeuralNetworksDevice_getFeatureLevel.  Levels 1..5 coincide with the
 * Android API level; from level 6 on the values deliberately do not.
 */
typedef enum {
    ANEURALNETWORKS_FEATURE_LEVEL_1 = 27,
    ANEURALNETWORKS_FEATURE_LEVEL_2 = 28,
    ANEURALNETWORKS_FEATURE_LEVEL_3 = 29,
    ANEURALNETWORKS_FEATURE_LEVEL_4 = 30,
    ANEURALNETWORKS_FEATURE_LEVEL_5 = 31,
    ANEURALNETWORKS_FEATURE_LEVEL_6 = 1000006,
    ANEURALNETWORKS_FEATURE_LEVEL_7 = 1000007,
    ANEURALNETWORKS_FEATURE_LEVEL_8 = 1000008,
} FeatureLevelCode;

/*
 * Result of every int-returning NNAPI function.  Any function may return any
 * of these; every non-zero value is a failure.
 */
typedef enum {
    ANEURALNETWORKS_NO_ERROR = 0,
    ANEURALNETWORKS_OUT_OF_MEMORY = 1,
    ANEURALNETWORKS_INCOMPLETE = 2,
    ANEURALNETWORKS_UNEXPECTED_NULL = 3,
    ANEURALNETWORKS_BAD_DATA = 4,
    ANEURALNETWORKS_OP_FAILED = 5,
    ANEURALNETWORKS_BAD_STATE = 6,
    ANEURALNETWORKS_UNMAPPABLE = 7,
    ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE = 8,
    ANEURALNETWORKS_UNAVAILABLE_DEVICE = 9,
    ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT = 10,
    ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT = 11,
    ANEURALNETWORKS_RESOURCE_EXHAUSTED_TRANSIENT = 12,
    ANEURALNETWORKS_RESOURCE_EXHAUSTED_PERSISTENT = 13,
    ANEURALNETWORKS_DEAD_OBJECT = 14,
} ResultCode;

/*
 * Values up to this many bytes passed to ANeuralNetworksModel_setOperandValue
 * are copied immediately; larger buffers are only referenced.
 */
enum { ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES = 128 };

/* Exact byte length of the token given to ANeuralNetworksCompilation_setCaching. */
enum { ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN = 32 };

/*
 * Which measurement ANeuralNetworksExecution_getDuration reports (ns).  The
 * FENCED_ variants only count time after all dependencies of a fenced
 * execution were signalled.
 */
typedef enum {
    ANEURALNETWORKS_DURATION_ON_HARDWARE = 0,
    ANEURALNETWORKS_DURATION_IN_DRIVER = 1,
    ANEURALNETWORKS_FENCED_DURATION_ON_HARDWARE = 2,
    ANEURALNETWORKS_FENCED_DURATION_IN_DRIVER = 3,
} DurationCode;

/* Relative priority for ANeuralNetworksCompilation_setPriority. */
typedef enum {
    ANEURALNETWORKS_PRIORITY_LOW = 90,
    ANEURALNETWORKS_PRIORITY_MEDIUM = 100,
    ANEURALNETWORKS_PRIORITY_HIGH = 110,
    ANEURALNETWORKS_PRIORITY_DEFAULT = ANEURALNETWORKS_PRIORITY_MEDIUM,
} PriorityCode;

/*
 * Opaque handles.  Each is a pointer to an incomplete struct whose tag equals
 * the typedef name, so C++ code may forward-declare them the same way.
 */

/* Shared memory region (fd, descriptor-allocated or hardware buffer). */
typedef struct ANeuralNetworksMemory ANeuralNetworksMemory;

/* A graph of operands and operations; mutable until _finish. */
typedef struct ANeuralNetworksModel ANeuralNetworksModel;

/* A model prepared for a set of devices; mutable until _finish. */
typedef struct ANeuralNetworksCompilation ANeuralNetworksCompilation;

/* One set of input/output bindings of a compilation and its computation. */
typedef struct ANeuralNetworksExecution ANeuralNetworksExecution;

/* Parameters of a TENSOR_QUANT8_SYMM_PER_CHANNEL operand. */
typedef struct ANeuralNetworksSymmPerChannelQuantParams {
    /* Axis along which the scales vary. */
    uint32_t channelDim;
    /* Number of entries in scales; must equal dimensions[channelDim]. */
    uint32_t scaleCount;
    /* Per-channel scales, each > 0; copied by the callee. */
    const float* scales;
} ANeuralNetworksSymmPerChannelQuantParams;

/* Context for a rapid sequence of synchronous executions. */
typedef struct ANeuralNetworksBurst ANeuralNetworksBurst;

/*
 * Type and shape of an operand, or of an execution input/output binding.
 * Always passed by pointer and copied by the callee.
 */
typedef struct ANeuralNetworksOperandType {
    /* An OperandCode, OEM code or extension operand type. */
    int32_t type;
    /* Rank; 0 for scalars and for tensors of unknown rank. */
    uint32_t dimensionCount;
    /* dimensionCount sizes (0 = unknown axis); NULL iff dimensionCount == 0. */
    const uint32_t* dimensions;
    /* Quantization scale; 0 for types without one. */
    float scale;
    /* Quantization zero point; 0 for types without one. */
    int32_t zeroPoint;
} ANeuralNetworksOperandType;

/* Holds an OperationCode, an OEM operation or an extension operation code. */
typedef int32_t ANeuralNetworksOperationType;

/* Completion notification of an asynchronous computation. */
typedef struct ANeuralNetworksEvent ANeuralNetworksEvent;

/* A device (driver) the runtime can compile for; owned by the runtime. */
typedef struct ANeuralNetworksDevice ANeuralNetworksDevice;

/* Description of a memory to be allocated for given compilation roles. */
typedef struct ANeuralNetworksMemoryDesc ANeuralNetworksMemoryDesc;

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif  /* ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_TYPES_H */
