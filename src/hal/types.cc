#include "hal/types.h"

namespace nn {

const char* toString(OperandType type) {
  switch (type) {
    case OperandType::FLOAT32: return "FLOAT32";
    case OperandType::INT32: return "INT32";
    case OperandType::UINT32: return "UINT32";
    case OperandType::TENSOR_FLOAT32: return "TENSOR_FLOAT32";
    case OperandType::TENSOR_INT32: return "TENSOR_INT32";
    case OperandType::TENSOR_QUANT8_ASYMM: return "TENSOR_QUANT8_ASYMM";
    case OperandType::BOOL: return "BOOL";
    case OperandType::TENSOR_QUANT16_SYMM: return "TENSOR_QUANT16_SYMM";
    case OperandType::TENSOR_FLOAT16: return "TENSOR_FLOAT16";
    case OperandType::TENSOR_BOOL8: return "TENSOR_BOOL8";
    case OperandType::FLOAT16: return "FLOAT16";
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL: return "TENSOR_QUANT8_SYMM_PER_CHANNEL";
    case OperandType::TENSOR_QUANT16_ASYMM: return "TENSOR_QUANT16_ASYMM";
    case OperandType::TENSOR_QUANT8_SYMM: return "TENSOR_QUANT8_SYMM";
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return "TENSOR_QUANT8_ASYMM_SIGNED";
    case OperandType::SUBGRAPH: return "SUBGRAPH";
    case OperandType::OEM: return "OEM_SCALAR";
    case OperandType::TENSOR_OEM_BYTE: return "TENSOR_OEM_BYTE";
  }
  return "UNKNOWN_OPERAND_TYPE";
}

namespace {
const char* const kOperationNames[] = {
    "ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D", "DEPTH_TO_SPACE",
    "DEQUANTIZE", "EMBEDDING_LOOKUP", "FLOOR", "FULLY_CONNECTED", "HASHTABLE_LOOKUP",
    "L2_NORMALIZATION", "L2_POOL_2D", "LOCAL_RESPONSE_NORMALIZATION", "LOGISTIC", "LSH_PROJECTION",
    "LSTM", "MAX_POOL_2D", "MUL", "RELU", "RELU1", "RELU6", "RESHAPE", "RESIZE_BILINEAR", "RNN",
    "SOFTMAX", "SPACE_TO_DEPTH", "SVDF", "TANH", "BATCH_TO_SPACE_ND", "DIV", "MEAN", "PAD",
    "SPACE_TO_BATCH_ND", "SQUEEZE", "STRIDED_SLICE", "SUB", "TRANSPOSE", "ABS", "ARGMAX", "ARGMIN",
    "AXIS_ALIGNED_BBOX_TRANSFORM", "BIDIRECTIONAL_SEQUENCE_LSTM", "BIDIRECTIONAL_SEQUENCE_RNN",
    "BOX_WITH_NMS_LIMIT", "CAST", "CHANNEL_SHUFFLE", "DETECTION_POSTPROCESSING", "EQUAL", "EXP",
    "EXPAND_DIMS", "GATHER", "GENERATE_PROPOSALS", "GREATER", "GREATER_EQUAL", "GROUPED_CONV_2D",
    "HEATMAP_MAX_KEYPOINT", "INSTANCE_NORMALIZATION", "LESS", "LESS_EQUAL", "LOG", "LOGICAL_AND",
    "LOGICAL_NOT", "LOGICAL_OR", "LOG_SOFTMAX", "MAXIMUM", "MINIMUM", "NEG", "NOT_EQUAL", "PAD_V2",
    "POW", "PRELU", "QUANTIZE", "QUANTIZED_16BIT_LSTM", "RANDOM_MULTINOMIAL", "REDUCE_ALL",
    "REDUCE_ANY", "REDUCE_MAX", "REDUCE_MIN", "REDUCE_PROD", "REDUCE_SUM", "ROI_ALIGN",
    "ROI_POOLING", "RSQRT", "SELECT", "SIN", "SLICE", "SPLIT", "SQRT", "TILE", "TOPK_V2",
    "TRANSPOSE_CONV_2D", "UNIDIRECTIONAL_SEQUENCE_LSTM", "UNIDIRECTIONAL_SEQUENCE_RNN",
    "RESIZE_NEAREST_NEIGHBOR", "QUANTIZED_LSTM", "IF", "WHILE", "ELU", "HARD_SWISH", "FILL", "RANK",
    "BATCH_MATMUL", "PACK", "MIRROR_PAD", "REVERSE"};
constexpr int32_t kNumOperationNames = sizeof(kOperationNames) / sizeof(kOperationNames[0]);
static_assert(kNumOperationNames == 106, "operation name table out of sync");
}  // namespace

const char* toString(OperationType type) {
  const int32_t code = static_cast<int32_t>(type);
  if (code >= 0 && code < kNumOperationNames) return kOperationNames[code];
  if (type == OperationType::OEM_OPERATION) return "OEM_OPERATION";
  if (type == OperationType::DENSIFY) return "DENSIFY";
  return "UNKNOWN_OPERATION";
}

const char* toString(ErrorStatus status) {
  switch (status) {
    case ErrorStatus::NONE: return "NONE";
    case ErrorStatus::DEVICE_UNAVAILABLE: return "DEVICE_UNAVAILABLE";
    case ErrorStatus::GENERAL_FAILURE: return "GENERAL_FAILURE";
    case ErrorStatus::OUTPUT_INSUFFICIENT_SIZE: return "OUTPUT_INSUFFICIENT_SIZE";
    case ErrorStatus::INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case ErrorStatus::MISSED_DEADLINE_TRANSIENT: return "MISSED_DEADLINE_TRANSIENT";
    case ErrorStatus::MISSED_DEADLINE_PERSISTENT: return "MISSED_DEADLINE_PERSISTENT";
    case ErrorStatus::RESOURCE_EXHAUSTED_TRANSIENT: return "RESOURCE_EXHAUSTED_TRANSIENT";
    case ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT: return "RESOURCE_EXHAUSTED_PERSISTENT";
    case ErrorStatus::DEAD_OBJECT: return "DEAD_OBJECT";
  }
  return "UNKNOWN_STATUS";
}

bool isKnownOperandType(int32_t code) {
  return (code >= 0 && code <= 15) || code == 10000 || code == 10001;
}

bool isKnownOperationType(int32_t code) {
  return (code >= 0 && code < kNumOperationNames) || code == 10000 || code == 20000;
}

bool isScalarType(OperandType type) {
  switch (type) {
    case OperandType::FLOAT32:
    case OperandType::INT32:
    case OperandType::UINT32:
    case OperandType::BOOL:
    case OperandType::FLOAT16:
    case OperandType::SUBGRAPH:
    case OperandType::OEM:
      return true;
    default:
      return false;
  }
}

bool isTensorType(OperandType type) { return !isScalarType(type); }

bool isQuantizedType(OperandType type) {
  switch (type) {
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case OperandType::TENSOR_QUANT16_ASYMM:
    case OperandType::TENSOR_QUANT16_SYMM:
      return true;
    default:
      return false;
  }
}

uint32_t elementSize(OperandType type) {
  switch (type) {
    case OperandType::FLOAT32:
    case OperandType::INT32:
    case OperandType::UINT32:
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_INT32:
      return 4;
    case OperandType::TENSOR_QUANT16_SYMM:
    case OperandType::TENSOR_QUANT16_ASYMM:
    case OperandType::TENSOR_FLOAT16:
    case OperandType::FLOAT16:
      return 2;
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case OperandType::BOOL:
    case OperandType::TENSOR_BOOL8:
    case OperandType::TENSOR_OEM_BYTE:
      return 1;
    case OperandType::SUBGRAPH:
    case OperandType::OEM:
      return 0;
  }
  return 0;
}

uint64_t elementCount(const Dims& dims) {
  uint64_t n = 1;
  for (uint32_t d : dims) n *= d;
  return n;
}

bool isFullySpecified(OperandType type, const Dims& dims) {
  if (isScalarType(type)) return true;
  if (dims.empty()) return false;
  for (uint32_t d : dims)
    if (d == 0) return false;
  return true;
}

std::string toString(const Dims& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ",";
    s += std::to_string(dims[i]);
  }
  return s + "]";
}

}  // namespace nn
