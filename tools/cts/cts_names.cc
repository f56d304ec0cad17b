// The runner's own operation and result-code names. nnapi-cts-sl reaches the runtime only
// through the SL table, which has no ANNLinux_* name functions; nnapi-cts uses the runtime's
// (ANNLinux_operationCodeFromName, ANNLinux_resultCodeName). A test in nnapi_tests
// (cts_names_test.cc) compares these tables with the runtime's for every code, so the two
// cannot drift apart.
#include "cts_names.h"

#include <cstring>

namespace cts {

namespace {

struct OperationName {
    int32_t code;
    const char* name;
};

// Every OperationCode the runtime names, ascending (0..105, OEM_OPERATION, and the
// runtime's own codes above it).
const OperationName kOperations[] = {
    {0, "ADD"}, {1, "AVERAGE_POOL_2D"}, {2, "CONCATENATION"}, {3, "CONV_2D"},
    {4, "DEPTHWISE_CONV_2D"}, {5, "DEPTH_TO_SPACE"}, {6, "DEQUANTIZE"}, {7, "EMBEDDING_LOOKUP"},
    {8, "FLOOR"}, {9, "FULLY_CONNECTED"}, {10, "HASHTABLE_LOOKUP"}, {11, "L2_NORMALIZATION"},
    {12, "L2_POOL_2D"}, {13, "LOCAL_RESPONSE_NORMALIZATION"}, {14, "LOGISTIC"},
    {15, "LSH_PROJECTION"}, {16, "LSTM"}, {17, "MAX_POOL_2D"}, {18, "MUL"}, {19, "RELU"},
    {20, "RELU1"}, {21, "RELU6"}, {22, "RESHAPE"}, {23, "RESIZE_BILINEAR"}, {24, "RNN"},
    {25, "SOFTMAX"}, {26, "SPACE_TO_DEPTH"}, {27, "SVDF"}, {28, "TANH"}, {29, "BATCH_TO_SPACE_ND"},
    {30, "DIV"}, {31, "MEAN"}, {32, "PAD"}, {33, "SPACE_TO_BATCH_ND"}, {34, "SQUEEZE"},
    {35, "STRIDED_SLICE"}, {36, "SUB"}, {37, "TRANSPOSE"}, {38, "ABS"}, {39, "ARGMAX"},
    {40, "ARGMIN"}, {41, "AXIS_ALIGNED_BBOX_TRANSFORM"}, {42, "BIDIRECTIONAL_SEQUENCE_LSTM"},
    {43, "BIDIRECTIONAL_SEQUENCE_RNN"}, {44, "BOX_WITH_NMS_LIMIT"}, {45, "CAST"},
    {46, "CHANNEL_SHUFFLE"}, {47, "DETECTION_POSTPROCESSING"}, {48, "EQUAL"}, {49, "EXP"},
    {50, "EXPAND_DIMS"}, {51, "GATHER"}, {52, "GENERATE_PROPOSALS"}, {53, "GREATER"},
    {54, "GREATER_EQUAL"}, {55, "GROUPED_CONV_2D"}, {56, "HEATMAP_MAX_KEYPOINT"},
    {57, "INSTANCE_NORMALIZATION"}, {58, "LESS"}, {59, "LESS_EQUAL"}, {60, "LOG"},
    {61, "LOGICAL_AND"}, {62, "LOGICAL_NOT"}, {63, "LOGICAL_OR"}, {64, "LOG_SOFTMAX"},
    {65, "MAXIMUM"}, {66, "MINIMUM"}, {67, "NEG"}, {68, "NOT_EQUAL"}, {69, "PAD_V2"}, {70, "POW"},
    {71, "PRELU"}, {72, "QUANTIZE"}, {73, "QUANTIZED_16BIT_LSTM"}, {74, "RANDOM_MULTINOMIAL"},
    {75, "REDUCE_ALL"}, {76, "REDUCE_ANY"}, {77, "REDUCE_MAX"}, {78, "REDUCE_MIN"},
    {79, "REDUCE_PROD"}, {80, "REDUCE_SUM"}, {81, "ROI_ALIGN"}, {82, "ROI_POOLING"}, {83, "RSQRT"},
    {84, "SELECT"}, {85, "SIN"}, {86, "SLICE"}, {87, "SPLIT"}, {88, "SQRT"}, {89, "TILE"},
    {90, "TOPK_V2"}, {91, "TRANSPOSE_CONV_2D"}, {92, "UNIDIRECTIONAL_SEQUENCE_LSTM"},
    {93, "UNIDIRECTIONAL_SEQUENCE_RNN"}, {94, "RESIZE_NEAREST_NEIGHBOR"}, {95, "QUANTIZED_LSTM"},
    {96, "IF"}, {97, "WHILE"}, {98, "ELU"}, {99, "HARD_SWISH"}, {100, "FILL"}, {101, "RANK"},
    {102, "BATCH_MATMUL"}, {103, "PACK"}, {104, "MIRROR_PAD"}, {105, "REVERSE"},
    {10000, "OEM_OPERATION"}, {20000, "DENSIFY"},
};

// Indexed by ResultCode (0..14, consecutive).
const char* const kResultNames[] = {
    "NO_ERROR", "OUT_OF_MEMORY", "INCOMPLETE", "UNEXPECTED_NULL", "BAD_DATA",
    "OP_FAILED", "BAD_STATE", "UNMAPPABLE", "OUTPUT_INSUFFICIENT_SIZE", "UNAVAILABLE_DEVICE",
    "MISSED_DEADLINE_TRANSIENT", "MISSED_DEADLINE_PERSISTENT", "RESOURCE_EXHAUSTED_TRANSIENT",
    "RESOURCE_EXHAUSTED_PERSISTENT", "DEAD_OBJECT",
};
constexpr int kResultCount = sizeof(kResultNames) / sizeof(kResultNames[0]);

}  // namespace

const char* localOperationName(int32_t code) {
    for (const OperationName& op : kOperations)
        if (op.code == code) return op.name;
    return nullptr;
}

int32_t localOperationCodeFromName(const char* name) {
    if (name == nullptr) return -1;
    for (const OperationName& op : kOperations)
        if (std::strcmp(name, op.name) == 0) return op.code;
    return -1;
}

const char* localResultCodeName(int code) {
    if (code >= 0 && code < kResultCount) return kResultNames[code];
    return "UNKNOWN_RESULT_CODE";
}

}  // namespace cts
