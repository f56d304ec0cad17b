// Canonical types shared by the runtime, the driver interface and the CPU driver.
// They mirror the NNAPI HAL (seeds 000/001/004) without any IPC conversion layer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace nn {

// Values equal the public OperandCode values (ANEURALNETWORKS_*), so conversion is a cast.
enum class OperandType : int32_t {
  FLOAT32 = 0,
  INT32 = 1,
  UINT32 = 2,
  TENSOR_FLOAT32 = 3,
  TENSOR_INT32 = 4,
  TENSOR_QUANT8_ASYMM = 5,
  BOOL = 6,
  TENSOR_QUANT16_SYMM = 7,
  TENSOR_FLOAT16 = 8,
  TENSOR_BOOL8 = 9,
  FLOAT16 = 10,
  TENSOR_QUANT8_SYMM_PER_CHANNEL = 11,
  TENSOR_QUANT16_ASYMM = 12,
  TENSOR_QUANT8_SYMM = 13,
  TENSOR_QUANT8_ASYMM_SIGNED = 14,
  SUBGRAPH = 15,
  OEM = 10000,
  TENSOR_OEM_BYTE = 10001,
};

// Values equal the public OperationCode values.
enum class OperationType : int32_t {
  ADD = 0, AVERAGE_POOL_2D = 1, CONCATENATION = 2, CONV_2D = 3, DEPTHWISE_CONV_2D = 4,
  DEPTH_TO_SPACE = 5, DEQUANTIZE = 6, EMBEDDING_LOOKUP = 7, FLOOR = 8, FULLY_CONNECTED = 9,
  HASHTABLE_LOOKUP = 10, L2_NORMALIZATION = 11, L2_POOL_2D = 12, LOCAL_RESPONSE_NORMALIZATION = 13,
  LOGISTIC = 14, LSH_PROJECTION = 15, LSTM = 16, MAX_POOL_2D = 17, MUL = 18, RELU = 19, RELU1 = 20,
  RELU6 = 21, RESHAPE = 22, RESIZE_BILINEAR = 23, RNN = 24, SOFTMAX = 25, SPACE_TO_DEPTH = 26,
  SVDF = 27, TANH = 28, BATCH_TO_SPACE_ND = 29, DIV = 30, MEAN = 31, PAD = 32,
  SPACE_TO_BATCH_ND = 33, SQUEEZE = 34, STRIDED_SLICE = 35, SUB = 36, TRANSPOSE = 37, ABS = 38,
  ARGMAX = 39, ARGMIN = 40, AXIS_ALIGNED_BBOX_TRANSFORM = 41, BIDIRECTIONAL_SEQUENCE_LSTM = 42,
  BIDIRECTIONAL_SEQUENCE_RNN = 43, BOX_WITH_NMS_LIMIT = 44, CAST = 45, CHANNEL_SHUFFLE = 46,
  DETECTION_POSTPROCESSING = 47, EQUAL = 48, EXP = 49, EXPAND_DIMS = 50, GATHER = 51,
  GENERATE_PROPOSALS = 52, GREATER = 53, GREATER_EQUAL = 54, GROUPED_CONV_2D = 55,
  HEATMAP_MAX_KEYPOINT = 56, INSTANCE_NORMALIZATION = 57, LESS = 58, LESS_EQUAL = 59, LOG = 60,
  LOGICAL_AND = 61, LOGICAL_NOT = 62, LOGICAL_OR = 63, LOG_SOFTMAX = 64, MAXIMUM = 65,
  MINIMUM = 66, NEG = 67, NOT_EQUAL = 68, PAD_V2 = 69, POW = 70, PRELU = 71, QUANTIZE = 72,
  QUANTIZED_16BIT_LSTM = 73, RANDOM_MULTINOMIAL = 74, REDUCE_ALL = 75, REDUCE_ANY = 76,
  REDUCE_MAX = 77, REDUCE_MIN = 78, REDUCE_PROD = 79, REDUCE_SUM = 80, ROI_ALIGN = 81,
  ROI_POOLING = 82, RSQRT = 83, SELECT = 84, SIN = 85, SLICE = 86, SPLIT = 87, SQRT = 88,
  TILE = 89, TOPK_V2 = 90, TRANSPOSE_CONV_2D = 91, UNIDIRECTIONAL_SEQUENCE_LSTM = 92,
  UNIDIRECTIONAL_SEQUENCE_RNN = 93, RESIZE_NEAREST_NEIGHBOR = 94, QUANTIZED_LSTM = 95, IF = 96,
  WHILE = 97, ELU = 98, HARD_SWISH = 99, FILL = 100, RANK = 101, BATCH_MATMUL = 102, PACK = 103,
  MIRROR_PAD = 104, REVERSE = 105,
  OEM_OPERATION = 10000,
  DENSIFY = 20000,
};

enum class Lifetime : int32_t {
  TEMPORARY_VARIABLE,
  SUBGRAPH_INPUT,
  SUBGRAPH_OUTPUT,
  CONSTANT_COPY,       // bytes live in Model::operandValues
  CONSTANT_REFERENCE,  // bytes live in Model::pools[location.poolIndex] (memory object or caller pointer)
  NO_VALUE,
  SUBGRAPH,            // location.offset = index into Model::referenced
};

// HAL error status; the runtime maps it to a public result code (ABI.md 1.8).
enum class ErrorStatus : int32_t {
  NONE = 0,
  DEVICE_UNAVAILABLE,
  GENERAL_FAILURE,
  OUTPUT_INSUFFICIENT_SIZE,
  INVALID_ARGUMENT,
  MISSED_DEADLINE_TRANSIENT,
  MISSED_DEADLINE_PERSISTENT,
  RESOURCE_EXHAUSTED_TRANSIENT,
  RESOURCE_EXHAUSTED_PERSISTENT,
  DEAD_OBJECT,
};
using Status = ErrorStatus;
constexpr Status kOk = ErrorStatus::NONE;
// Returned by an operation's prepare at compilation when output shapes depend on values
// only known at execution (e.g. a non-constant RESHAPE shape); never escapes the driver.
constexpr Status kDeferred = static_cast<Status>(1000);

// FeatureLevelCode values.
constexpr int64_t kFeatureLevel1 = 27;
constexpr int64_t kFeatureLevel2 = 28;
constexpr int64_t kFeatureLevel3 = 29;
constexpr int64_t kFeatureLevel4 = 30;
constexpr int64_t kFeatureLevel5 = 31;
constexpr int64_t kFeatureLevel6 = 1000006;
constexpr int64_t kFeatureLevel7 = 1000007;
constexpr int64_t kFeatureLevel8 = 1000008;

enum class FusedActivation : int32_t { NONE = 0, RELU = 1, RELU1 = 2, RELU6 = 3 };

using Dims = std::vector<uint32_t>;

// A mapped region of memory that constants or request arguments live in. Non-owning
// instances wrap caller pointers; owning ones (fd mappings, device allocations) release
// their storage in the destructor of a subclass.
class Memory {
 public:
  Memory(uint8_t* base, size_t size) : base_(base), size_(size) {}
  virtual ~Memory() = default;
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;
  uint8_t* data() const { return base_; }
  size_t size() const { return size_; }
  // True when offset/length lie inside the region (overflow-safe).
  bool contains(uint64_t offset, uint64_t length) const {
    return offset <= size_ && length <= size_ - offset;
  }

 protected:
  uint8_t* base_;
  size_t size_;
};
using SharedMemory = std::shared_ptr<Memory>;

struct DataLocation {
  void* pointer = nullptr;  // direct caller pointer (request arguments); wins over poolIndex
  uint32_t poolIndex = 0;
  uint32_t offset = 0;
  uint32_t length = 0;
};

struct ChannelQuant {
  std::vector<float> scales;
  uint32_t channelDim = 0;
};

struct Operand {
  OperandType type = OperandType::FLOAT32;
  Dims dimensions;          // 0 entries mean "unknown"; empty on a tensor = unknown rank
  float scale = 0.f;
  int32_t zeroPoint = 0;
  Lifetime lifetime = Lifetime::TEMPORARY_VARIABLE;
  DataLocation location;
  std::shared_ptr<ChannelQuant> channelQuant;  // TENSOR_QUANT8_SYMM_PER_CHANNEL only
};

struct Operation {
  OperationType type = OperationType::ADD;
  std::vector<uint32_t> inputs;
  std::vector<uint32_t> outputs;
};

struct Subgraph {
  std::vector<Operand> operands;
  std::vector<Operation> operations;  // in a valid execution order after finish
  std::vector<uint32_t> inputIndexes;
  std::vector<uint32_t> outputIndexes;
};

struct Model {
  Subgraph main;
  std::vector<Subgraph> referenced;
  std::vector<uint8_t> operandValues;  // CONSTANT_COPY bytes
  std::vector<SharedMemory> pools;     // CONSTANT_REFERENCE sources
  bool relaxComputationFloat32toFloat16 = false;
};

struct RequestArgument {
  bool hasNoValue = false;
  DataLocation location;
  Dims dimensions;  // empty: use the model operand's dimensions
};

struct Request {
  std::vector<RequestArgument> inputs;
  std::vector<RequestArgument> outputs;
  std::vector<const Memory*> pools;
};

struct OutputShape {
  Dims dimensions;
  bool isSufficient = true;
};

constexpr uint64_t kNoTiming = UINT64_MAX;
struct Timing {
  uint64_t timeOnDeviceNs = kNoTiming;
  uint64_t timeInDriverNs = kNoTiming;
};

// ---- helpers ----
const char* toString(OperandType type);
const char* toString(OperationType type);
const char* toString(ErrorStatus status);
bool isKnownOperandType(int32_t code);
bool isKnownOperationType(int32_t code);
bool isScalarType(OperandType type);
bool isTensorType(OperandType type);
bool isQuantizedType(OperandType type);
// Bytes per element (0 for SUBGRAPH/OEM scalar).
uint32_t elementSize(OperandType type);
// Element count, 1 for rank 0; 0 when any dimension is 0.
uint64_t elementCount(const Dims& dims);
// True when the rank is known and every dimension is non-zero.
bool isFullySpecified(OperandType type, const Dims& dims);
std::string toString(const Dims& dims);

}  // namespace nn
