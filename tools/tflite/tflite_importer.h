// TFLite -> NNAPI importer.
//
// Two stages:
//  1. PlanImport() maps the TFLite graph onto an NnGraph: NNAPI operands and operations described
//     as plain data, with constants either referring to byte ranges of the model file (zero-copy)
//     or to storage owned by the graph (folded / converted values, scalars). It makes no NNAPI
//     call, so it is testable and fuzzable without the runtime.
//  2. BuildNnapiModel() replays the NnGraph through the public NNAPI C API.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "half_convert.h"
#include "tflite_model.h"

struct ANeuralNetworksModel;
struct ANeuralNetworksMemory;

namespace nnapi_tflite {

struct NnOperand {
  enum class Lifetime { kTemporary, kInput, kOutput, kConstFile, kConstOwned };
  int32_t type = 0;  // ANEURALNETWORKS_* OperandCode
  std::vector<uint32_t> dims;
  float scale = 0.f;
  int32_t zero_point = 0;
  std::vector<float> channel_scales;  // TENSOR_QUANT8_SYMM_PER_CHANNEL
  uint32_t channel_dim = 0;
  Lifetime lifetime = Lifetime::kTemporary;
  uint64_t file_offset = 0;  // kConstFile: byte range of the model file
  uint64_t length = 0;       // kConstFile / kConstOwned: value size in bytes
  int32_t owned = -1;        // kConstOwned: index into NnGraph::owned
  int32_t tflite_tensor = -1;  // originating TFLite tensor, -1 for importer-made operands
};

struct NnOperation {
  int32_t type = 0;  // ANEURALNETWORKS_* OperationCode
  std::vector<uint32_t> inputs;
  std::vector<uint32_t> outputs;
  int32_t tflite_op = -1;  // index of the TFLite operator it came from
};

// Bytes of a constant the importer made: a moved-in vector (scalars, shapes, small tables), or
// a block of the graph's ConstantArena (folded weights).
class OwnedBytes {
 public:
  explicit OwnedBytes(std::vector<uint8_t> v) : vec_(std::move(v)), data_(vec_.data()), size_(vec_.size()) {}
  // A block the arena owns (it outlives this object: both belong to the same NnGraph).
  OwnedBytes(uint8_t* block, size_t n) : data_(block), size_(n) {}
  OwnedBytes(const OwnedBytes&) = delete;
  OwnedBytes& operator=(const OwnedBytes&) = delete;
  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  std::vector<uint8_t> vec_;
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

struct NnGraph {
  std::vector<NnOperand> operands;
  std::vector<NnOperation> operations;
  std::vector<uint32_t> inputs;   // operand indices, in model input order
  std::vector<uint32_t> outputs;  // operand indices, in model output order
  // Storage for constants the importer creates; each vector's data stays put once created.
  std::vector<std::unique_ptr<OwnedBytes>> owned;
  // Where the large folded constants live (owned[] entries point into it).
  ConstantArena const_arena;
  // Bytes of constants referenced from the file / owned by the graph.
  uint64_t file_const_bytes = 0;
  uint64_t owned_const_bytes = 0;
};

// How one TFLite operator was handled.
struct OpReport {
  int32_t index = 0;
  std::string tflite_name;  // "CONV_2D", "CUSTOM(Convolution2DTransposeBias)"
  enum class Status { kMapped, kFolded, kUnsupported } status = Status::kMapped;
  std::vector<std::string> nnapi_ops;  // NNAPI operations emitted, in order
  std::string detail;                  // why folded / unsupported, or notes
};

struct ImportReport {
  std::vector<OpReport> ops;
  int unsupported = 0;
  int folded = 0;
  // First unsupported operator as a one-line message ("operator 12 (GELU): no NNAPI equivalent").
  std::string first_error;
  // Tensors that became extra model inputs/outputs because a neighbour was unsupported
  // (only with ImportOptions::allow_partial).
  int boundary_inputs = 0, boundary_outputs = 0;
};

struct ImportOptions {
  int subgraph = 0;
  // Keep going past unsupported operators: they are reported, and the tensors crossing the
  // boundary become model inputs/outputs so the mapped part still forms a valid NNAPI model.
  bool allow_partial = false;
  // Fold DEQUANTIZE of constant tensors into float32 constants.
  bool fold_dequantize = true;
  // Except a float16 constant whose DEQUANTIZE feeds only 1x1 CONV_2D filters: it stays a
  // TENSOR_FLOAT16 constant read from the file, widened by a CAST, which the CPU driver fuses
  // into the convolution (it widens the weights while packing them). Saves materializing the
  // float32 weights at import (issue 10: ~55 MB for pose_landmark_heavy); other devices run
  // the CAST. Only with fold_dequantize.
  bool half_conv_filters = true;
  // ANeuralNetworksModel_relaxComputationFloat32toFloat16(model, true) before the model is
  // finished (what TFLite's NNAPI delegate does with allow_fp16): float32 arithmetic may then
  // run in float16 range and precision.
  bool relax_float32_to_float16 = false;
};

// Returns true when every operator was mapped or folded. The report is filled in either case;
// `graph` holds the mapped part (complete when true is returned).
bool PlanImport(const Model& model, const ImportOptions& options, NnGraph* graph,
                ImportReport* report);

// Name of an NNAPI operation / operand code ("CONV_2D", "TENSOR_FLOAT32"); "UNKNOWN_OPERATION" /
// "UNKNOWN_TYPE" for codes without one. Operation names are the runtime's (ANNLinux_operationName,
// looked up in the running process), so without libneuralnetworks loaded every operation is
// "UNKNOWN_OPERATION".
const char* NnOperationName(int32_t type);
const char* NnOperandTypeName(int32_t type);

// An NNAPI model built from a TFLite model. Owns the model, the memory object mapping the file
// and the graph (whose owned storage NNAPI may reference until the model is freed).
class ImportedModel {
 public:
  ImportedModel() = default;
  ~ImportedModel();
  ImportedModel(const ImportedModel&) = delete;
  ImportedModel& operator=(const ImportedModel&) = delete;

  ANeuralNetworksModel* model() const { return model_; }
  const NnGraph& graph() const { return graph_; }
  NnGraph& mutable_graph() { return graph_; }

 private:
  friend bool BuildNnapiModel(NnGraph&& graph, int fd, size_t file_size, ImportedModel* out,
                              std::string* error, bool relaxed);
  NnGraph graph_;
  ANeuralNetworksModel* model_ = nullptr;
  ANeuralNetworksMemory* memory_ = nullptr;
};

// Creates and finishes the NNAPI model for `graph`. File constants are referenced through one
// ANeuralNetworksMemory created from `fd` (the mapped model file, `file_size` bytes).
// `relaxed`: the model is marked relaxComputationFloat32toFloat16 before it is finished.
bool BuildNnapiModel(NnGraph&& graph, int fd, size_t file_size, ImportedModel* out,
                     std::string* error, bool relaxed = false);

// Convenience: PlanImport (strict) + BuildNnapiModel for a mapped file.
bool ImportModelFile(const ModelFile& file, const ImportOptions& options, ImportedModel* out,
                     ImportReport* report, std::string* error);

}  // namespace nnapi_tflite
