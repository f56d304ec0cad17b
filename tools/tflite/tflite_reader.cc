// .tflite reader: walks the flatbuffer with FlatBufferView, using the field ids (declaration
// order) of the TensorFlow Lite schema.

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>

#include "flatbuffer_view.h"
#include "tflite_model.h"

namespace nnapi_tflite {

namespace {

const char* const kBuiltinNames[] = {
    "ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D", "DEPTH_TO_SPACE",
    "DEQUANTIZE", "EMBEDDING_LOOKUP", "FLOOR", "FULLY_CONNECTED", "HASHTABLE_LOOKUP",
    "L2_NORMALIZATION", "L2_POOL_2D", "LOCAL_RESPONSE_NORMALIZATION", "LOGISTIC",
    "LSH_PROJECTION", "LSTM", "MAX_POOL_2D", "MUL", "RELU", "RELU_N1_TO_1", "RELU6", "RESHAPE",
    "RESIZE_BILINEAR", "RNN", "SOFTMAX", "SPACE_TO_DEPTH", "SVDF", "TANH", "CONCAT_EMBEDDINGS",
    "SKIP_GRAM", "CALL", "CUSTOM", "EMBEDDING_LOOKUP_SPARSE", "PAD", "UNIDIRECTIONAL_SEQUENCE_RNN",
    "GATHER", "BATCH_TO_SPACE_ND", "SPACE_TO_BATCH_ND", "TRANSPOSE", "MEAN", "SUB", "DIV",
    "SQUEEZE", "UNIDIRECTIONAL_SEQUENCE_LSTM", "STRIDED_SLICE", "BIDIRECTIONAL_SEQUENCE_RNN",
    "EXP", "TOPK_V2", "SPLIT", "LOG_SOFTMAX", "DELEGATE", "BIDIRECTIONAL_SEQUENCE_LSTM", "CAST",
    "PRELU", "MAXIMUM", "ARG_MAX", "MINIMUM", "LESS", "NEG", "PADV2", "GREATER", "GREATER_EQUAL",
    "LESS_EQUAL", "SELECT", "SLICE", "SIN", "TRANSPOSE_CONV", "SPARSE_TO_DENSE", "TILE",
    "EXPAND_DIMS", "EQUAL", "NOT_EQUAL", "LOG", "SUM", "SQRT", "RSQRT", "SHAPE", "POW", "ARG_MIN",
    "FAKE_QUANT", "REDUCE_PROD", "REDUCE_MAX", "PACK", "LOGICAL_OR", "ONE_HOT", "LOGICAL_AND",
    "LOGICAL_NOT", "UNPACK", "REDUCE_MIN", "FLOOR_DIV", "REDUCE_ANY", "SQUARE", "ZEROS_LIKE",
    "FILL", "FLOOR_MOD", "RANGE", "RESIZE_NEAREST_NEIGHBOR", "LEAKY_RELU", "SQUARED_DIFFERENCE",
    "MIRROR_PAD", "ABS", "SPLIT_V", "UNIQUE", "CEIL", "REVERSE_V2", "ADD_N", "GATHER_ND", "COS",
    "WHERE", "RANK", "ELU", "REVERSE_SEQUENCE", "MATRIX_DIAG", "QUANTIZE", "MATRIX_SET_DIAG",
    "ROUND", "HARD_SWISH", "IF", "WHILE", "NON_MAX_SUPPRESSION_V4", "NON_MAX_SUPPRESSION_V5",
    "SCATTER_ND", "SELECT_V2", "DENSIFY", "SEGMENT_SUM", "BATCH_MATMUL",
    "PLACEHOLDER_FOR_GREATER_OP_CODES", "CUMSUM", "CALL_ONCE", "BROADCAST_TO", "RFFT2D", "CONV_3D",
    "IMAG", "REAL", "COMPLEX_ABS", "HASHTABLE", "HASHTABLE_FIND", "HASHTABLE_IMPORT",
    "HASHTABLE_SIZE", "REDUCE_ALL", "CONV_3D_TRANSPOSE", "VAR_HANDLE", "READ_VARIABLE",
    "ASSIGN_VARIABLE", "BROADCAST_ARGS", "RANDOM_STANDARD_NORMAL", "BUCKETIZE", "RANDOM_UNIFORM",
    "MULTINOMIAL", "GELU", "DYNAMIC_UPDATE_SLICE", "RELU_0_TO_1", "UNSORTED_SEGMENT_PROD",
    "UNSORTED_SEGMENT_MAX", "UNSORTED_SEGMENT_SUM", "ATAN2", "UNSORTED_SEGMENT_MIN", "SIGN",
    "BITCAST", "BITWISE_XOR", "RIGHT_SHIFT",
};
static_assert(sizeof(kBuiltinNames) / sizeof(kBuiltinNames[0]) == kMaxKnownBuiltinOperator + 1,
              "builtin operator name table out of sync");

// Field ids (declaration order in the schema; a union occupies two ids: type, then value).
namespace f {
enum Model { kModelVersion = 0, kModelOperatorCodes = 1, kModelSubgraphs = 2,
             kModelDescription = 3, kModelBuffers = 4 };
enum OperatorCode { kOcDeprecatedBuiltin = 0, kOcCustomCode = 1, kOcVersion = 2, kOcBuiltin = 3 };
enum SubGraph { kSgTensors = 0, kSgInputs = 1, kSgOutputs = 2, kSgOperators = 3, kSgName = 4 };
enum Tensor { kTShape = 0, kTType = 1, kTBuffer = 2, kTName = 3, kTQuantization = 4,
              kTIsVariable = 5, kTSparsity = 6, kTShapeSignature = 7, kTHasRank = 8 };
enum Quant { kQMin = 0, kQMax = 1, kQScale = 2, kQZeroPoint = 3, kQDetailsType = 4,
             kQDetails = 5, kQQuantizedDimension = 6 };
enum Operator { kOpOpcodeIndex = 0, kOpInputs = 1, kOpOutputs = 2, kOpBuiltinOptionsType = 3,
                kOpBuiltinOptions = 4, kOpCustomOptions = 5, kOpCustomOptionsFormat = 6,
                kOpMutatingVariableInputs = 7, kOpIntermediates = 8,
                kOpLargeCustomOptionsOffset = 9, kOpLargeCustomOptionsSize = 10 };
enum Buffer { kBufData = 0, kBufOffset = 1, kBufSize = 2 };
}  // namespace f

class Reader {
 public:
  Reader(const uint8_t* data, size_t size)
      : fb_(data, size),
        // Caps what the parsed model may allocate: honest files materialise far less than their
        // own size, while hostile ones can make many tables share one large vector.
        budget_((uint64_t{16} << 20) + static_cast<uint64_t>(size) * 8) {}

  bool Parse(Model* m) {
    m->data = fb_.data();
    m->size = fb_.size();
    if (fb_.size() >= 8 && std::memcmp(fb_.data() + 4, "TFL3", 4) != 0) {
      std::string id;
      for (int i = 4; i < 8; ++i) {
        char c = static_cast<char>(fb_.data()[i]);
        id += (c >= 32 && c < 127) ? c : '?';
      }
      return fb_.Fail("not a TFLite model: file identifier is '" + id + "', expected 'TFL3'");
    }
    FbTable root;
    if (!fb_.Root(&root)) return false;
    if (!fb_.GetU32(root, f::kModelVersion, 0, &m->version, "Model.version")) return false;
    bool present;
    if (!fb_.GetString(root, f::kModelDescription, &m->description, &present,
                       "Model.description"))
      return false;
    if (!Charge(m->description.size())) return false;

    FbVector v;
    if (!fb_.GetVector(root, f::kModelOperatorCodes, 4, &v, &present, "Model.operator_codes"))
      return false;
    if (!Charge(static_cast<uint64_t>(v.count) * sizeof(OperatorCode))) return false;
    m->operator_codes.resize(v.count);
    for (uint32_t i = 0; i < v.count; ++i) {
      fb_.set_context("operator_code " + std::to_string(i) + ": ");
      if (!ParseOperatorCode(v, i, &m->operator_codes[i])) return false;
    }

    if (!fb_.GetVector(root, f::kModelBuffers, 4, &v, &present, "Model.buffers")) return false;
    if (!Charge(static_cast<uint64_t>(v.count) * sizeof(Buffer))) return false;
    m->buffers.resize(v.count);
    for (uint32_t i = 0; i < v.count; ++i) {
      fb_.set_context("buffer " + std::to_string(i) + ": ");
      if (!ParseBuffer(v, i, &m->buffers[i])) return false;
    }

    fb_.set_context("");
    if (!fb_.GetVector(root, f::kModelSubgraphs, 4, &v, &present, "Model.subgraphs")) return false;
    if (v.count == 0) return fb_.Fail("model has no subgraphs");
    if (!Charge(static_cast<uint64_t>(v.count) * sizeof(SubGraph))) return false;
    m->subgraphs.resize(v.count);
    for (uint32_t i = 0; i < v.count; ++i) {
      if (!ParseSubGraph(v, i, &m->subgraphs[i])) return false;
    }
    fb_.set_context("");
    return true;
  }

  const std::string& error() const { return fb_.error(); }

 private:
  bool Charge(uint64_t bytes) {
    if (bytes > budget_) {
      return fb_.Fail("model needs more memory than its size allows (shared or oversized vectors)");
    }
    budget_ -= bytes;
    return true;
  }

  template <typename T>
  bool ReadScalarVector(const FbTable& t, int id, std::vector<T>* out, bool* present,
                        const char* name) {
    FbVector v;
    if (!fb_.GetVector(t, id, sizeof(T), &v, present, name)) return false;
    if (!Charge(static_cast<uint64_t>(v.count) * sizeof(T))) return false;
    out->resize(v.count);
    if (v.count) std::memcpy(out->data(), fb_.data() + v.data, static_cast<size_t>(v.count) * sizeof(T));
    return true;
  }

  bool ParseOperatorCode(const FbVector& v, uint32_t i, OperatorCode* oc) {
    FbTable t;
    if (!fb_.VectorTable(v, i, "OperatorCode", &t)) return false;
    bool present;
    if (!fb_.GetI8(t, f::kOcDeprecatedBuiltin, 0, &oc->deprecated_builtin_code,
                   "OperatorCode.deprecated_builtin_code") ||
        !fb_.GetString(t, f::kOcCustomCode, &oc->custom_code, &present, "OperatorCode.custom_code") ||
        !fb_.GetI32(t, f::kOcVersion, 1, &oc->version, "OperatorCode.version") ||
        !fb_.GetI32(t, f::kOcBuiltin, 0, &oc->raw_builtin_code, "OperatorCode.builtin_code"))
      return false;
    if (!Charge(oc->custom_code.size())) return false;
    // Old writers only fill the byte-sized deprecated field; new ones write both, with the byte
    // saturated at PLACEHOLDER_FOR_GREATER_OP_CODES for codes above 127. The larger wins.
    oc->builtin_code = std::max<int32_t>(oc->raw_builtin_code, oc->deprecated_builtin_code);
    if (oc->builtin_code < 0) {
      return fb_.Fail("negative builtin code " + std::to_string(oc->builtin_code));
    }
    return true;
  }

  bool ParseBuffer(const FbVector& v, uint32_t i, Buffer* b) {
    FbTable t;
    if (!fb_.VectorTable(v, i, "Buffer", &t)) return false;
    FbVector data;
    bool present;
    uint64_t off, size;
    if (!fb_.GetVector(t, f::kBufData, 1, &data, &present, "Buffer.data") ||
        !fb_.GetU64(t, f::kBufOffset, 0, &off, "Buffer.offset") ||
        !fb_.GetU64(t, f::kBufSize, 0, &size, "Buffer.size"))
      return false;
    // Large models keep data after the flatbuffer; the schema defines offset <= 1 as "unused".
    if (off > 1) {
      if (present && data.count) return fb_.Fail("has both inline data and an external offset");
      if (off > fb_.size() || size > fb_.size() - off) {
        return fb_.Fail("external data [" + std::to_string(off) + ", +" + std::to_string(size) +
                        ") extends past the end of the file (" + std::to_string(fb_.size()) +
                        " bytes)");
      }
      b->offset = off;
      b->size = size;
      b->external = true;
    } else {
      b->offset = data.data;
      b->size = data.count;
    }
    return true;
  }

  bool ParseSubGraph(const FbVector& v, uint32_t i, SubGraph* sg) {
    std::string sgctx = "subgraph " + std::to_string(i) + ": ";
    fb_.set_context(sgctx);
    FbTable t;
    if (!fb_.VectorTable(v, i, "SubGraph", &t)) return false;
    bool present;
    if (!fb_.GetString(t, f::kSgName, &sg->name, &present, "SubGraph.name")) return false;
    if (!Charge(sg->name.size())) return false;
    if (!ReadScalarVector(t, f::kSgInputs, &sg->inputs, &present, "SubGraph.inputs") ||
        !ReadScalarVector(t, f::kSgOutputs, &sg->outputs, &present, "SubGraph.outputs"))
      return false;
    FbVector tv;
    if (!fb_.GetVector(t, f::kSgTensors, 4, &tv, &present, "SubGraph.tensors")) return false;
    if (!Charge(static_cast<uint64_t>(tv.count) * sizeof(Tensor))) return false;
    sg->tensors.resize(tv.count);
    for (uint32_t k = 0; k < tv.count; ++k) {
      fb_.set_context(sgctx + "tensor " + std::to_string(k) + ": ");
      if (!ParseTensor(tv, k, &sg->tensors[k])) return false;
    }
    fb_.set_context(sgctx);
    FbVector ov;
    if (!fb_.GetVector(t, f::kSgOperators, 4, &ov, &present, "SubGraph.operators")) return false;
    if (!Charge(static_cast<uint64_t>(ov.count) * sizeof(Operator))) return false;
    sg->operators.resize(ov.count);
    for (uint32_t k = 0; k < ov.count; ++k) {
      fb_.set_context(sgctx + "operator " + std::to_string(k) + ": ");
      if (!ParseOperator(ov, k, &sg->operators[k])) return false;
    }
    return true;
  }

  bool ParseTensor(const FbVector& v, uint32_t i, Tensor* tensor) {
    FbTable t;
    if (!fb_.VectorTable(v, i, "Tensor", &t)) return false;
    bool present;
    int8_t type;
    FbTable sub;
    if (!ReadScalarVector(t, f::kTShape, &tensor->shape, &present, "Tensor.shape") ||
        !fb_.GetI8(t, f::kTType, 0, &type, "Tensor.type") ||
        !fb_.GetU32(t, f::kTBuffer, 0, &tensor->buffer, "Tensor.buffer") ||
        !fb_.GetString(t, f::kTName, &tensor->name, &present, "Tensor.name") ||
        !fb_.GetBool(t, f::kTIsVariable, false, &tensor->is_variable, "Tensor.is_variable") ||
        !fb_.GetTable(t, f::kTSparsity, &sub, &tensor->is_sparse, "Tensor.sparsity") ||
        (tensor->is_sparse && !ParseSparsity(sub, &tensor->sparsity)) ||
        !ReadScalarVector(t, f::kTShapeSignature, &tensor->shape_signature,
                          &tensor->has_shape_signature, "Tensor.shape_signature") ||
        !fb_.GetBool(t, f::kTHasRank, false, &tensor->has_rank, "Tensor.has_rank"))
      return false;
    if (!Charge(tensor->name.size())) return false;
    if (type < 0 || type > static_cast<int8_t>(TensorType::kInt4)) {
      return fb_.Fail("unknown tensor type " + std::to_string(type));
    }
    tensor->type = static_cast<TensorType>(type);
    FbTable q;
    if (!fb_.GetTable(t, f::kTQuantization, &q, &tensor->has_quantization,
                      "Tensor.quantization"))
      return false;
    if (tensor->has_quantization) {
      Quantization& qp = tensor->quantization;
      uint8_t details_type;
      if (!ReadScalarVector(q, f::kQMin, &qp.min, &present, "QuantizationParameters.min") ||
          !ReadScalarVector(q, f::kQMax, &qp.max, &present, "QuantizationParameters.max") ||
          !ReadScalarVector(q, f::kQScale, &qp.scale, &present, "QuantizationParameters.scale") ||
          !ReadScalarVector(q, f::kQZeroPoint, &qp.zero_point, &present,
                            "QuantizationParameters.zero_point") ||
          !fb_.GetU8(q, f::kQDetailsType, 0, &details_type, "QuantizationParameters.details_type") ||
          !fb_.GetI32(q, f::kQQuantizedDimension, 0, &qp.quantized_dimension,
                      "QuantizationParameters.quantized_dimension"))
        return false;
      qp.has_custom_details = details_type != 0;
    }
    return true;
  }

  // SparsityParameters: traversal_order 0, block_map 1, dim_metadata 2.
  // DimensionMetadata: format 0, dense_size 1, array_segments (type 2, value 3),
  // array_indices (type 4, value 5); SparseIndexVector = Int32Vector | Uint16Vector | Uint8Vector,
  // each a table whose field 0 is `values`.
  bool ParseSparsity(const FbTable& t, Sparsity* sp) {
    bool present;
    if (!ReadScalarVector(t, 0, &sp->traversal_order, &present, "SparsityParameters.traversal_order") ||
        !ReadScalarVector(t, 1, &sp->block_map, &present, "SparsityParameters.block_map"))
      return false;
    FbVector dm;
    if (!fb_.GetVector(t, 2, 4, &dm, &present, "SparsityParameters.dim_metadata")) return false;
    if (!Charge(static_cast<uint64_t>(dm.count) * sizeof(DimensionMetadata))) return false;
    sp->dim_metadata.resize(dm.count);
    for (uint32_t i = 0; i < dm.count; ++i) {
      FbTable d;
      if (!fb_.VectorTable(dm, i, "DimensionMetadata", &d)) return false;
      DimensionMetadata& m = sp->dim_metadata[i];
      if (!fb_.GetI8(d, 0, 0, &m.format, "DimensionMetadata.format") ||
          !fb_.GetI32(d, 1, 0, &m.dense_size, "DimensionMetadata.dense_size") ||
          !ReadIndexVector(d, 2, &m.array_segments, "DimensionMetadata.array_segments") ||
          !ReadIndexVector(d, 4, &m.array_indices, "DimensionMetadata.array_indices"))
        return false;
      if (m.format != DimensionMetadata::kDense && m.format != DimensionMetadata::kSparseCsr) {
        return fb_.Fail("sparsity dimension " + std::to_string(i) + ": unknown format " + std::to_string(m.format));
      }
    }
    return true;
  }

  bool ReadIndexVector(const FbTable& t, int type_id, std::vector<int32_t>* out, const char* name) {
    uint8_t type;
    if (!fb_.GetU8(t, type_id, 0, &type, name)) return false;
    FbTable v;
    bool present;
    if (!fb_.GetTable(t, type_id + 1, &v, &present, name)) return false;
    if (!present) return true;
    FbVector vec;
    uint32_t es = type == 1 ? 4 : type == 2 ? 2 : type == 3 ? 1 : 0;
    if (es == 0) return fb_.Fail(std::string(name) + ": unknown index vector type " + std::to_string(type));
    if (!fb_.GetVector(v, 0, es, &vec, &present, name)) return false;
    if (!Charge(static_cast<uint64_t>(vec.count) * 4)) return false;
    out->resize(vec.count);
    for (uint32_t i = 0; i < vec.count; ++i) {
      size_t p = vec.data + static_cast<size_t>(i) * es;
      (*out)[i] = es == 4 ? fb_.Load<int32_t>(p) : es == 2 ? fb_.Load<uint16_t>(p) : fb_.Load<uint8_t>(p);
    }
    return true;
  }

  bool ParseOperator(const FbVector& v, uint32_t i, Operator* op) {
    FbTable t;
    if (!fb_.VectorTable(v, i, "Operator", &t)) return false;
    bool present;
    uint8_t options_type;
    if (!fb_.GetU32(t, f::kOpOpcodeIndex, 0, &op->opcode_index, "Operator.opcode_index") ||
        !ReadScalarVector(t, f::kOpInputs, &op->inputs, &present, "Operator.inputs") ||
        !ReadScalarVector(t, f::kOpOutputs, &op->outputs, &present, "Operator.outputs") ||
        !ReadScalarVector(t, f::kOpIntermediates, &op->intermediates, &present,
                          "Operator.intermediates") ||
        !fb_.GetU8(t, f::kOpBuiltinOptionsType, 0, &options_type, "Operator.builtin_options_type"))
      return false;
    FbTable opts;
    bool has_opts;
    if (!fb_.GetTable(t, f::kOpBuiltinOptions, &opts, &has_opts, "Operator.builtin_options"))
      return false;
    if (has_opts && options_type == 0) return fb_.Fail("builtin_options present with type NONE");
    if (!has_opts) options_type = 0;
    op->options.type = options_type;
    if (has_opts && !ParseOptions(opts, &op->options)) return false;

    FbVector custom;
    uint64_t large_off, large_size;
    if (!fb_.GetVector(t, f::kOpCustomOptions, 1, &custom, &present, "Operator.custom_options") ||
        !fb_.GetU64(t, f::kOpLargeCustomOptionsOffset, 0, &large_off,
                    "Operator.large_custom_options_offset") ||
        !fb_.GetU64(t, f::kOpLargeCustomOptionsSize, 0, &large_size,
                    "Operator.large_custom_options_size"))
      return false;
    if (large_off > 1) {
      if (present && custom.count) return fb_.Fail("has both custom_options and large_custom_options");
      if (large_off > fb_.size() || large_size > fb_.size() - large_off) {
        return fb_.Fail("large custom options [" + std::to_string(large_off) + ", +" +
                        std::to_string(large_size) + ") extend past the end of the file");
      }
      op->custom_options_offset = large_off;
      op->custom_options_size = large_size;
    } else if (present) {
      op->custom_options_offset = custom.data;
      op->custom_options_size = custom.count;
    }
    return true;
  }

  bool ReadPadding(const FbTable& t, int id, OperatorOptions* o) {
    int8_t p;
    if (!fb_.GetI8(t, id, 0, &p, "padding")) return false;
    if (p != 0 && p != 1) return fb_.Fail("invalid padding " + std::to_string(p));
    o->padding = static_cast<Padding>(p);
    return true;
  }
  bool ReadActivation(const FbTable& t, int id, OperatorOptions* o) {
    int8_t a;
    if (!fb_.GetI8(t, id, 0, &a, "fused_activation_function")) return false;
    if (a < 0 || a > 5) return fb_.Fail("invalid fused activation " + std::to_string(a));
    o->activation = static_cast<Activation>(a);
    return true;
  }
  bool ReadType(const FbTable& t, int id, TensorType def, TensorType* out, const char* name) {
    int8_t v;
    if (!fb_.GetI8(t, id, static_cast<int8_t>(def), &v, name)) return false;
    if (v < 0 || v > static_cast<int8_t>(TensorType::kInt4)) {
      return fb_.Fail(std::string("invalid tensor type ") + std::to_string(v) + " in " + name);
    }
    *out = static_cast<TensorType>(v);
    return true;
  }

  // Decodes the options tables the importer knows; others are left at their defaults.
  bool ParseOptions(const FbTable& t, OperatorOptions* o) {
    bool present;
    switch (o->type) {
      case opt::kConv2D:
        return ReadPadding(t, 0, o) && fb_.GetI32(t, 1, 0, &o->stride_w, "stride_w") &&
               fb_.GetI32(t, 2, 0, &o->stride_h, "stride_h") && ReadActivation(t, 3, o) &&
               fb_.GetI32(t, 4, 1, &o->dilation_w, "dilation_w_factor") &&
               fb_.GetI32(t, 5, 1, &o->dilation_h, "dilation_h_factor");
      case opt::kDepthwiseConv2D:
        return ReadPadding(t, 0, o) && fb_.GetI32(t, 1, 0, &o->stride_w, "stride_w") &&
               fb_.GetI32(t, 2, 0, &o->stride_h, "stride_h") &&
               fb_.GetI32(t, 3, 0, &o->depth_multiplier, "depth_multiplier") &&
               ReadActivation(t, 4, o) &&
               fb_.GetI32(t, 5, 1, &o->dilation_w, "dilation_w_factor") &&
               fb_.GetI32(t, 6, 1, &o->dilation_h, "dilation_h_factor");
      case opt::kPool2D:
        return ReadPadding(t, 0, o) && fb_.GetI32(t, 1, 0, &o->stride_w, "stride_w") &&
               fb_.GetI32(t, 2, 0, &o->stride_h, "stride_h") &&
               fb_.GetI32(t, 3, 0, &o->filter_w, "filter_width") &&
               fb_.GetI32(t, 4, 0, &o->filter_h, "filter_height") && ReadActivation(t, 5, o);
      case opt::kFullyConnected:
        return ReadActivation(t, 0, o) &&
               fb_.GetU8(t, 1, 0, &o->weights_format, "weights_format") &&
               fb_.GetBool(t, 2, false, &o->keep_num_dims, "keep_num_dims");
      case opt::kSoftmax:
        return fb_.GetF32(t, 0, 0.f, &o->beta, "beta");
      case opt::kConcatenation:
        return fb_.GetI32(t, 0, 0, &o->axis, "axis") && ReadActivation(t, 1, o);
      case opt::kAdd:
      case opt::kMul:
      case opt::kSub:
      case opt::kDiv:
      case opt::kL2Norm:
        return ReadActivation(t, 0, o);
      case opt::kLocalResponseNormalization:
        return fb_.GetI32(t, 0, 0, &o->radius, "radius") && fb_.GetF32(t, 1, 0.f, &o->bias, "bias") &&
               fb_.GetF32(t, 2, 0.f, &o->lrn_alpha, "alpha") &&
               fb_.GetF32(t, 3, 0.f, &o->lrn_beta, "beta");
      case opt::kResizeBilinear:  // ids 0 and 1 are the deprecated new_height/new_width
        return fb_.GetBool(t, 2, false, &o->align_corners, "align_corners") &&
               fb_.GetBool(t, 3, false, &o->half_pixel_centers, "half_pixel_centers");
      case opt::kResizeNearestNeighbor:
        return fb_.GetBool(t, 0, false, &o->align_corners, "align_corners") &&
               fb_.GetBool(t, 1, false, &o->half_pixel_centers, "half_pixel_centers");
      case opt::kCall: {
        uint32_t sg;
        if (!fb_.GetU32(t, 0, 0, &sg, "subgraph")) return false;
        o->subgraph = sg > static_cast<uint32_t>(std::numeric_limits<int32_t>::max())
                          ? std::numeric_limits<int32_t>::max()
                          : static_cast<int32_t>(sg);
        return true;
      }
      case opt::kReshape:
        return ReadScalarVector(t, 0, &o->new_shape, &o->has_new_shape, "new_shape");
      case opt::kSpaceToDepth:
      case opt::kDepthToSpace:
        return fb_.GetI32(t, 0, 0, &o->block_size, "block_size");
      case opt::kGather:
        return fb_.GetI32(t, 0, 0, &o->axis, "axis") &&
               fb_.GetI32(t, 1, 0, &o->batch_dims, "batch_dims");
      case opt::kReducer:
        return fb_.GetBool(t, 0, false, &o->keep_dims, "keep_dims");
      case opt::kSqueeze:
        return ReadScalarVector(t, 0, &o->squeeze_dims, &present, "squeeze_dims");
      case opt::kStridedSlice:
        return fb_.GetI32(t, 0, 0, &o->begin_mask, "begin_mask") &&
               fb_.GetI32(t, 1, 0, &o->end_mask, "end_mask") &&
               fb_.GetI32(t, 2, 0, &o->ellipsis_mask, "ellipsis_mask") &&
               fb_.GetI32(t, 3, 0, &o->new_axis_mask, "new_axis_mask") &&
               fb_.GetI32(t, 4, 0, &o->shrink_axis_mask, "shrink_axis_mask") &&
               fb_.GetBool(t, 5, false, &o->strided_slice_offset, "offset");
      case opt::kSplit:
      case opt::kSplitV:
        return fb_.GetI32(t, 0, 0, &o->num_splits, "num_splits");
      case opt::kCast:
        return ReadType(t, 0, TensorType::kFloat32, &o->in_data_type, "in_data_type") &&
               ReadType(t, 1, TensorType::kFloat32, &o->out_data_type, "out_data_type");
      case opt::kArgMax:
      case opt::kArgMin:
        return ReadType(t, 0, TensorType::kFloat32, &o->output_type, "output_type");
      case opt::kTransposeConv:
        return ReadPadding(t, 0, o) && fb_.GetI32(t, 1, 0, &o->stride_w, "stride_w") &&
               fb_.GetI32(t, 2, 0, &o->stride_h, "stride_h") && ReadActivation(t, 3, o);
      case opt::kPack:
        return fb_.GetI32(t, 0, 0, &o->values_count, "values_count") &&
               fb_.GetI32(t, 1, 0, &o->axis, "axis");
      case opt::kUnpack:
        return fb_.GetI32(t, 0, 0, &o->num, "num") && fb_.GetI32(t, 1, 0, &o->axis, "axis");
      case opt::kLeakyRelu:
        return fb_.GetF32(t, 0, 0.f, &o->alpha, "alpha");
      case opt::kMirrorPad:
        return fb_.GetU8(t, 0, 0, &o->mirror_pad_mode, "mode");
      case opt::kIf:
      case opt::kWhile:
        return fb_.GetI32(t, 0, 0, &o->subgraph, "subgraph_index") &&
               fb_.GetI32(t, 1, 0, &o->subgraph2, "subgraph_index");
      case opt::kCallOnce:
        return fb_.GetI32(t, 0, 0, &o->subgraph, "init_subgraph_index");
      case opt::kBatchMatMul:
        return fb_.GetBool(t, 0, false, &o->adj_x, "adj_x") &&
               fb_.GetBool(t, 1, false, &o->adj_y, "adj_y");
      case opt::kGelu:
        return fb_.GetBool(t, 0, false, &o->approximate, "approximate");
      default:
        return true;
    }
  }

  FlatBufferView fb_;
  uint64_t budget_;
};

std::string Join(const std::vector<int32_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

}  // namespace

const char* BuiltinOperatorName(int32_t code) {
  if (code < 0 || code > kMaxKnownBuiltinOperator) return nullptr;
  return kBuiltinNames[code];
}

const char* TensorTypeName(TensorType t) {
  static const char* const kNames[] = {
      "FLOAT32", "FLOAT16", "INT32", "UINT8", "INT64", "STRING", "BOOL", "INT16", "COMPLEX64",
      "INT8", "FLOAT64", "COMPLEX128", "UINT64", "RESOURCE", "VARIANT", "UINT32", "UINT16", "INT4"};
  int i = static_cast<int>(t);
  return i >= 0 && i < static_cast<int>(sizeof(kNames) / sizeof(kNames[0])) ? kNames[i] : "?";
}

size_t TensorTypeSize(TensorType t) {
  switch (t) {
    case TensorType::kFloat32: case TensorType::kInt32: case TensorType::kUInt32: return 4;
    case TensorType::kFloat16: case TensorType::kInt16: case TensorType::kUInt16: return 2;
    case TensorType::kUInt8: case TensorType::kInt8: case TensorType::kBool: return 1;
    case TensorType::kInt64: case TensorType::kFloat64: case TensorType::kUInt64:
    case TensorType::kComplex64: return 8;
    case TensorType::kComplex128: return 16;
    default: return 0;
  }
}

const char* ActivationName(Activation a) {
  switch (a) {
    case Activation::kNone: return "NONE";
    case Activation::kRelu: return "RELU";
    case Activation::kReluN1To1: return "RELU_N1_TO_1";
    case Activation::kRelu6: return "RELU6";
    case Activation::kTanh: return "TANH";
    case Activation::kSignBit: return "SIGN_BIT";
  }
  return "?";
}

std::string Model::OpName(const Operator& op) const {
  if (op.opcode_index >= operator_codes.size()) return "INVALID_OPCODE";
  const OperatorCode& oc = operator_codes[op.opcode_index];
  if (oc.builtin_code == op::kCustom) return "CUSTOM(" + oc.custom_code + ")";
  const char* n = BuiltinOperatorName(oc.builtin_code);
  return n ? n : "UNKNOWN(" + std::to_string(oc.builtin_code) + ")";
}

bool ParseModel(const uint8_t* data, size_t size, Model* out, std::string* error) {
  *out = Model();
  Reader r(data, size);
  if (!r.Parse(out)) {
    *error = r.error();
    *out = Model();
    return false;
  }
  return true;
}

bool ValidateModel(const Model& m, std::string* error) {
  auto fail = [&](const std::string& msg) {
    *error = msg;
    return false;
  };
  const size_t nbuf = m.buffers.size();
  const size_t nsub = m.subgraphs.size();
  for (size_t s = 0; s < nsub; ++s) {
    const SubGraph& sg = m.subgraphs[s];
    const std::string sctx = "subgraph " + std::to_string(s) + ": ";
    const size_t nt = sg.tensors.size();
    auto tensor_ok = [&](int32_t idx) { return idx >= 0 && static_cast<size_t>(idx) < nt; };
    for (size_t i = 0; i < nt; ++i) {
      const Tensor& t = sg.tensors[i];
      const std::string ctx = sctx + "tensor " + std::to_string(i) + ": ";
      if (t.buffer >= nbuf && !(t.buffer == 0 && nbuf == 0)) {
        return fail(ctx + "buffer index " + std::to_string(t.buffer) + " out of range (" +
                    std::to_string(nbuf) + " buffers)");
      }
      uint64_t elems = 1;
      bool overflow = false;
      for (size_t d = 0; d < t.shape.size(); ++d) {
        if (t.shape[d] < 0) return fail(ctx + "negative dimension in shape " + Join(t.shape));
        elems *= static_cast<uint64_t>(t.shape[d]);
        if (elems > (uint64_t{1} << 40)) overflow = true;
      }
      if (overflow) return fail(ctx + "shape " + Join(t.shape) + " has too many elements");
      if (t.has_shape_signature) {
        if (t.shape_signature.size() != t.shape.size()) {
          return fail(ctx + "shape_signature " + Join(t.shape_signature) + " has rank " +
                      std::to_string(t.shape_signature.size()) + ", shape " + Join(t.shape) +
                      " has rank " + std::to_string(t.shape.size()));
        }
        for (size_t d = 0; d < t.shape.size(); ++d) {
          int32_t sig = t.shape_signature[d];
          if (sig < -1 || (sig >= 0 && sig != t.shape[d])) {
            return fail(ctx + "shape_signature " + Join(t.shape_signature) +
                        " inconsistent with shape " + Join(t.shape));
          }
        }
      }
      if (t.has_quantization) {
        const Quantization& q = t.quantization;
        if (!q.zero_point.empty() && q.zero_point.size() != q.scale.size()) {
          return fail(ctx + "quantization has " + std::to_string(q.scale.size()) + " scales but " +
                      std::to_string(q.zero_point.size()) + " zero points");
        }
        for (float sc : q.scale) {
          if (!std::isfinite(sc) || sc < 0.f) {
            return fail(ctx + "quantization scale " + std::to_string(sc) + " is not a finite non-negative number");
          }
        }
        if (q.per_channel()) {
          int32_t qd = q.quantized_dimension;
          if (qd < 0 || static_cast<size_t>(qd) >= t.shape.size()) {
            return fail(ctx + "quantized_dimension " + std::to_string(qd) +
                        " out of range for shape " + Join(t.shape));
          }
          if (static_cast<size_t>(t.shape[qd]) != q.scale.size()) {
            return fail(ctx + std::to_string(q.scale.size()) +
                        " per-channel scales but dimension " + std::to_string(qd) + " of shape " +
                        Join(t.shape) + " has size " + std::to_string(t.shape[qd]));
          }
        }
      }
      if (t.buffer < nbuf && m.buffers[t.buffer].size != 0 && !t.is_sparse) {
        size_t es = TensorTypeSize(t.type);
        uint64_t have = m.buffers[t.buffer].size;
        if (es != 0) {
          uint64_t want = elems * es;
          if (have != want) {
            return fail(ctx + "buffer " + std::to_string(t.buffer) + " holds " +
                        std::to_string(have) + " bytes, shape " + Join(t.shape) + " of " +
                        TensorTypeName(t.type) + " needs " + std::to_string(want));
          }
        } else if (t.type == TensorType::kInt4) {
          uint64_t want = (elems + 1) / 2;
          if (have != want) {
            return fail(ctx + "buffer " + std::to_string(t.buffer) + " holds " +
                        std::to_string(have) + " bytes, INT4 shape " + Join(t.shape) + " needs " +
                        std::to_string(want));
          }
        }
      }
    }
    for (size_t i = 0; i < sg.inputs.size(); ++i) {
      if (!tensor_ok(sg.inputs[i])) {
        return fail(sctx + "input " + std::to_string(i) + ": tensor index " +
                    std::to_string(sg.inputs[i]) + " out of range (" + std::to_string(nt) + " tensors)");
      }
    }
    for (size_t i = 0; i < sg.outputs.size(); ++i) {
      if (!tensor_ok(sg.outputs[i])) {
        return fail(sctx + "output " + std::to_string(i) + ": tensor index " +
                    std::to_string(sg.outputs[i]) + " out of range (" + std::to_string(nt) + " tensors)");
      }
    }
    for (size_t o = 0; o < sg.operators.size(); ++o) {
      const Operator& op = sg.operators[o];
      const std::string ctx = sctx + "operator " + std::to_string(o) + ": ";
      if (op.opcode_index >= m.operator_codes.size()) {
        return fail(ctx + "opcode index " + std::to_string(op.opcode_index) + " out of range (" +
                    std::to_string(m.operator_codes.size()) + " operator codes)");
      }
      for (size_t k = 0; k < op.inputs.size(); ++k) {
        if (op.inputs[k] != -1 && !tensor_ok(op.inputs[k])) {
          return fail(ctx + "input " + std::to_string(k) + ": tensor index " +
                      std::to_string(op.inputs[k]) + " out of range (" + std::to_string(nt) + " tensors)");
        }
      }
      for (size_t k = 0; k < op.outputs.size(); ++k) {
        if (!tensor_ok(op.outputs[k])) {
          return fail(ctx + "output " + std::to_string(k) + ": tensor index " +
                      std::to_string(op.outputs[k]) + " out of range (" + std::to_string(nt) + " tensors)");
        }
      }
      for (size_t k = 0; k < op.intermediates.size(); ++k) {
        if (!tensor_ok(op.intermediates[k])) {
          return fail(ctx + "intermediate " + std::to_string(k) + ": tensor index " +
                      std::to_string(op.intermediates[k]) + " out of range");
        }
      }
      const OperatorOptions& oo = op.options;
      int32_t refs[2] = {-1, -1};
      int nrefs = 0;
      if (oo.type == opt::kCall || oo.type == opt::kCallOnce) {
        refs[0] = oo.subgraph;
        nrefs = 1;
      } else if (oo.type == opt::kIf || oo.type == opt::kWhile) {
        refs[0] = oo.subgraph;
        refs[1] = oo.subgraph2;
        nrefs = 2;
      }
      for (int r = 0; r < nrefs; ++r) {
        if (refs[r] < 0 || static_cast<size_t>(refs[r]) >= nsub) {
          return fail(ctx + "subgraph index " + std::to_string(refs[r]) + " out of range (" +
                      std::to_string(nsub) + " subgraphs)");
        }
      }
    }
  }
  return true;
}

ModelFile::~ModelFile() {
  if (data_) munmap(const_cast<uint8_t*>(data_), size_);
  if (fd_ >= 0) close(fd_);
}

bool ModelFile::Open(const std::string& path, std::string* error) {
  path_ = path;
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) {
    *error = path + ": " + std::strerror(errno);
    return false;
  }
  struct stat st;
  if (fstat(fd_, &st) != 0) {
    *error = path + ": " + std::strerror(errno);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    *error = path + ": not a regular file";
    return false;
  }
  size_ = static_cast<size_t>(st.st_size);
  if (size_ == 0) {
    *error = path + ": file is empty";
    return false;
  }
  void* p = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd_, 0);
  if (p == MAP_FAILED) {
    *error = path + ": mmap: " + std::strerror(errno);
    size_ = 0;
    return false;
  }
  data_ = static_cast<const uint8_t*>(p);
  std::string err;
  if (!ParseModel(data_, size_, &model_, &err) || !ValidateModel(model_, &err)) {
    *error = path + ": " + err;
    return false;
  }
  return true;
}

}  // namespace nnapi_tflite
