// In-memory form of a .tflite model, as read by ParseModel().
//
// Only what the NNAPI importer and the CLI need is materialised; constant data and custom
// options are kept as (offset, size) ranges into the original file so they can be referenced
// without copying (the importer hands them to NNAPI straight from the mapped file).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace nnapi_tflite {

// TensorType values of the schema.
enum class TensorType : int8_t {
  kFloat32 = 0,
  kFloat16 = 1,
  kInt32 = 2,
  kUInt8 = 3,
  kInt64 = 4,
  kString = 5,
  kBool = 6,
  kInt16 = 7,
  kComplex64 = 8,
  kInt8 = 9,
  kFloat64 = 10,
  kComplex128 = 11,
  kUInt64 = 12,
  kResource = 13,
  kVariant = 14,
  kUInt32 = 15,
  kUInt16 = 16,
  kInt4 = 17,
};
const char* TensorTypeName(TensorType t);
// Bytes per element, 0 for types without a fixed element size (string, resource, variant, int4).
size_t TensorTypeSize(TensorType t);

// Builtin operator codes used by name in the importer (values from the schema).
namespace op {
enum : int32_t {
  kAdd = 0, kAveragePool2D = 1, kConcatenation = 2, kConv2D = 3, kDepthwiseConv2D = 4,
  kDepthToSpace = 5, kDequantize = 6, kEmbeddingLookup = 7, kFloor = 8, kFullyConnected = 9,
  kHashtableLookup = 10, kL2Normalization = 11, kL2Pool2D = 12, kLocalResponseNormalization = 13,
  kLogistic = 14, kLshProjection = 15, kLstm = 16, kMaxPool2D = 17, kMul = 18, kRelu = 19,
  kReluN1To1 = 20, kRelu6 = 21, kReshape = 22, kResizeBilinear = 23, kRnn = 24, kSoftmax = 25,
  kSpaceToDepth = 26, kSvdf = 27, kTanh = 28, kCall = 31, kCustom = 32, kPad = 34, kGather = 36,
  kBatchToSpaceNd = 37, kSpaceToBatchNd = 38, kTranspose = 39, kMean = 40, kSub = 41, kDiv = 42,
  kSqueeze = 43, kStridedSlice = 45, kExp = 47, kTopKV2 = 48, kSplit = 49, kLogSoftmax = 50,
  kCast = 53, kPrelu = 54, kMaximum = 55, kArgMax = 56, kMinimum = 57, kLess = 58, kNeg = 59,
  kPadV2 = 60, kGreater = 61, kGreaterEqual = 62, kLessEqual = 63, kSelect = 64, kSlice = 65,
  kSin = 66, kTransposeConv = 67, kTile = 69, kExpandDims = 70, kEqual = 71, kNotEqual = 72,
  kLog = 73, kSum = 74, kSqrt = 75, kRsqrt = 76, kPow = 78, kArgMin = 79, kReduceProd = 81,
  kReduceMax = 82, kPack = 83, kLogicalOr = 84, kLogicalAnd = 86, kLogicalNot = 87,
  kUnpack = 88, kReduceMin = 89, kReduceAny = 91, kSquare = 92, kFill = 94,
  kResizeNearestNeighbor = 97, kLeakyRelu = 98, kSquaredDifference = 99, kMirrorPad = 100,
  kAbs = 101, kSplitV = 102, kRank = 110, kElu = 111, kQuantize = 114, kHardSwish = 117,
  kIf = 118, kWhile = 119, kSelectV2 = 123, kDensify = 124, kBatchMatMul = 126, kPlaceholderForGreaterOpCodes = 127,
  kCallOnce = 129, kReduceAll = 140, kGelu = 150,
};
}  // namespace op
// Name of a builtin operator ("CONV_2D"), or nullptr for codes this reader does not know.
const char* BuiltinOperatorName(int32_t code);
constexpr int32_t kMaxKnownBuiltinOperator = 161;

// Padding / ActivationFunctionType enums of the schema.
enum class Padding : int8_t { kSame = 0, kValid = 1 };
enum class Activation : int8_t {
  kNone = 0, kRelu = 1, kReluN1To1 = 2, kRelu6 = 3, kTanh = 4, kSignBit = 5,
};
const char* ActivationName(Activation a);

struct Quantization {
  std::vector<float> min, max;
  std::vector<float> scale;
  std::vector<int64_t> zero_point;
  int32_t quantized_dimension = 0;
  bool has_custom_details = false;  // QuantizationDetails union set (not representable in NNAPI)
  bool empty() const { return scale.empty() && zero_point.empty() && !has_custom_details; }
  bool per_channel() const { return scale.size() > 1; }
};

// Sparse tensor encoding (TACO-style), see SparsityParameters in the schema. Index vectors of
// any width are widened to int32.
struct DimensionMetadata {
  enum Format : int8_t { kDense = 0, kSparseCsr = 1 };
  int8_t format = kDense;
  int32_t dense_size = 0;
  std::vector<int32_t> array_segments;
  std::vector<int32_t> array_indices;
};
struct Sparsity {
  std::vector<int32_t> traversal_order;
  std::vector<int32_t> block_map;
  std::vector<DimensionMetadata> dim_metadata;
};

struct Tensor {
  std::vector<int32_t> shape;
  std::vector<int32_t> shape_signature;  // empty when absent
  bool has_shape_signature = false;
  TensorType type = TensorType::kFloat32;
  uint32_t buffer = 0;
  std::string name;
  bool has_quantization = false;
  Quantization quantization;
  bool is_variable = false;
  bool is_sparse = false;
  Sparsity sparsity;  // valid when is_sparse
  bool has_rank = false;
};

// Union type index of the BuiltinOptions union (schema declaration order, 0 = NONE), for the
// options tables this reader decodes.
namespace opt {
enum : uint8_t {
  kNone = 0, kConv2D = 1, kDepthwiseConv2D = 2, kPool2D = 5, kFullyConnected = 8, kSoftmax = 9,
  kConcatenation = 10, kAdd = 11, kL2Norm = 12, kLocalResponseNormalization = 13,
  kResizeBilinear = 15, kCall = 16, kReshape = 17, kSpaceToDepth = 19, kMul = 21, kPad = 22,
  kGather = 23, kReducer = 27, kSub = 28, kDiv = 29, kSqueeze = 30, kStridedSlice = 32,
  kSplit = 35, kLogSoftmax = 36, kCast = 37, kArgMax = 40, kArgMin = 57, kPadV2 = 43, kTransposeConv = 49,
  kPack = 59, kUnpack = 64, kResizeNearestNeighbor = 74, kLeakyRelu = 75, kMirrorPad = 77,
  kSplitV = 79, kHardSwish = 91, kIf = 92, kWhile = 93, kDepthToSpace = 94, kBatchMatMul = 101,
  kCallOnce = 103, kGelu = 116,
};
}  // namespace opt

// Decoded builtin options: one flat record holding the fields of every options table the
// importer uses (fields not belonging to the operator's options keep their schema defaults).
struct OperatorOptions {
  uint8_t type = opt::kNone;  // union type actually stored in the file
  Padding padding = Padding::kSame;
  int32_t stride_w = 0, stride_h = 0;
  int32_t dilation_w = 1, dilation_h = 1;
  int32_t filter_w = 0, filter_h = 0;
  int32_t depth_multiplier = 0;
  Activation activation = Activation::kNone;
  int32_t axis = 0;
  int32_t batch_dims = 0;
  float beta = 0.f;        // softmax
  float alpha = 0.f;       // leaky relu
  float bias = 0.f;        // LRN
  float lrn_alpha = 0.f, lrn_beta = 0.f;
  int32_t radius = 0;
  bool keep_num_dims = false;
  uint8_t weights_format = 0;
  bool keep_dims = false;
  bool align_corners = false, half_pixel_centers = false;
  std::vector<int32_t> new_shape;
  bool has_new_shape = false;
  std::vector<int32_t> squeeze_dims;
  int32_t block_size = 0;
  int32_t begin_mask = 0, end_mask = 0, ellipsis_mask = 0, new_axis_mask = 0,
          shrink_axis_mask = 0;
  bool strided_slice_offset = false;
  int32_t num_splits = 0;
  int32_t values_count = 0;  // pack
  int32_t num = 0;           // unpack
  TensorType in_data_type = TensorType::kFloat32, out_data_type = TensorType::kFloat32;
  TensorType output_type = TensorType::kInt64;  // arg max/min
  uint8_t mirror_pad_mode = 0;
  bool adj_x = false, adj_y = false;
  bool approximate = false;  // gelu
  int32_t subgraph = -1, subgraph2 = -1;  // call / if (then, else) / while (cond, body) / call_once
};

struct Operator {
  uint32_t opcode_index = 0;
  std::vector<int32_t> inputs;   // -1 = optional input omitted
  std::vector<int32_t> outputs;
  std::vector<int32_t> intermediates;
  OperatorOptions options;
  // Custom options as a byte range of the file (size 0 when absent).
  uint64_t custom_options_offset = 0;
  uint64_t custom_options_size = 0;
};

struct OperatorCode {
  int32_t builtin_code = 0;  // resolved from builtin_code / deprecated_builtin_code
  int8_t deprecated_builtin_code = 0;
  int32_t raw_builtin_code = 0;
  std::string custom_code;
  int32_t version = 1;
};

struct Buffer {
  // Byte range of the data in the file; size 0 = no data. `external` is set when the range came
  // from the offset/size fields (data stored after the flatbuffer in large models).
  uint64_t offset = 0;
  uint64_t size = 0;
  bool external = false;
};

struct SubGraph {
  std::vector<Tensor> tensors;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  std::vector<Operator> operators;
  std::string name;
};

struct Model {
  uint32_t version = 0;
  std::vector<OperatorCode> operator_codes;
  std::vector<SubGraph> subgraphs;
  std::string description;
  std::vector<Buffer> buffers;
  // The bytes the model was parsed from (not owned).
  const uint8_t* data = nullptr;
  size_t size = 0;

  const uint8_t* BufferData(uint32_t index) const {
    return index < buffers.size() && buffers[index].size ? data + buffers[index].offset : nullptr;
  }
  // Display name of an operator's code: builtin name, "CUSTOM(name)" or "UNKNOWN(n)".
  std::string OpName(const Operator& op) const;
};

// Parses and structurally validates a TFLite flatbuffer held in `data[0, size)`. Every offset,
// vtable, vector and string is checked to lie inside the buffer; external buffer ranges are
// checked against `size`. On failure returns false and sets `*error` to a message naming what is
// wrong. `data` must outlive `*out` (the model refers to it).
bool ParseModel(const uint8_t* data, size_t size, Model* out, std::string* error);

// Expands the sparse constant tensor `t` (whose stored values are `values`, `value_bytes` long)
// into dense row-major bytes. Every index is bounds-checked; returns false with a message on
// inconsistent sparsity data.
bool DensifyTensor(const Tensor& t, const uint8_t* values, size_t value_bytes, std::vector<uint8_t>* dense,
                   std::string* error);

// Semantic checks on a parsed model: tensor/buffer/opcode/subgraph indices in range, buffer
// sizes consistent with shapes and types, quantization parameters consistent with shapes.
bool ValidateModel(const Model& model, std::string* error);

// A model file mapped read-only into memory. Keeps the descriptor open so the importer can
// hand the same file to ANeuralNetworksMemory_createFromFd.
class ModelFile {
 public:
  ModelFile() = default;
  ~ModelFile();
  ModelFile(const ModelFile&) = delete;
  ModelFile& operator=(const ModelFile&) = delete;

  // Maps `path`, parses and validates it.
  bool Open(const std::string& path, std::string* error);

  const Model& model() const { return model_; }
  int fd() const { return fd_; }
  size_t file_size() const { return size_; }
  const uint8_t* data() const { return data_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  Model model_;
};

}  // namespace nnapi_tflite
