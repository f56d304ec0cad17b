// Internal to the importer (not part of its interface): the state PlanImport() keeps while it
// walks the TFLite operators, and the operations the per-builtin mappers (tflite_mappers*.cc)
// build NNAPI operations with. A mapper sees only this class, so a mapping reads as "check the
// operator, fetch its operands, emit NNAPI operations" without reaching into the graph directly.
#pragma once

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "tflite_importer.h"
#include "tflite_model.h"

namespace nnapi_tflite {
namespace detail {

// Returned instead of an operand index when an operand could not be created; the reason is
// already recorded through Planner::Fail, so callers just propagate the failure.
constexpr uint32_t kNoOperand = std::numeric_limits<uint32_t>::max();

class Planner {
 public:
  Planner(const Model& m, const ImportOptions& o, NnGraph* g, ImportReport* r)
      : m_(m), opt_(o), g_(g), r_(r), sg_(m.subgraphs[static_cast<size_t>(o.subgraph)]) {}

  // Maps every operator of the subgraph and sets the model inputs/outputs.
  bool Run();

  // ---- for mappers: the model and the operator being mapped ------------------------------

  const Model& model() const { return m_; }
  const Tensor& T(int32_t t) const { return sg_.tensors[static_cast<size_t>(t)]; }
  // True when the tensor has a value at import (in the file, or folded by the importer).
  bool HasData(int32_t t) const;
  // Records why the operator cannot be mapped (the first reason wins) and returns false.
  bool Fail(const std::string& why);
  // A note shown next to the operator in the report.
  void SetDetail(std::string detail) { cur_->detail = std::move(detail); }
  // The reason DENSIFY of `output` could not be folded, or nullptr.
  const std::string* DensifyError(int32_t output) const;

  // Tensor index of input k, -1 when absent or omitted.
  int32_t InIdx(const Operator& op, size_t k) const { return k < op.inputs.size() ? op.inputs[k] : -1; }
  // Operand of input / output k (kNoOperand on failure).
  uint32_t In(const Operator& op, size_t k);
  uint32_t Out(const Operator& op, size_t k);
  std::vector<int32_t> OutShape(const Operator& op, size_t k) const { return T(op.outputs[k]).shape; }

  bool NeedInputs(const Operator& op, size_t lo, size_t hi);
  bool NeedOutputs(const Operator& op, size_t n);
  // The stored builtin options must be `type` (or absent, meaning schema defaults).
  bool NeedOptions(const Operator& op, uint8_t type);
  bool PositiveStrides(const OperatorOptions& o);
  // Normalises a possibly negative axis against `rank`.
  bool Axis(int32_t axis, size_t rank, int32_t* out);
  static bool Ok(std::initializer_list<uint32_t> v) {
    for (uint32_t x : v) {
      if (x == kNoOperand) return false;
    }
    return true;
  }

  // ---- for mappers: operands --------------------------------------------------------------

  // The reference is invalidated by the next operand created; copy what must outlive that.
  const NnOperand& Operand(uint32_t o) const { return g_->operands[o]; }
  size_t Rank(uint32_t o) const { return g_->operands[o].dims.size(); }
  bool IsFloat(uint32_t o) const {
    int32_t t = g_->operands[o].type;
    return t == ANEURALNETWORKS_TENSOR_FLOAT32 || t == ANEURALNETWORKS_TENSOR_FLOAT16;
  }

  // Values of constant tensors the NNAPI operation takes as parameters.
  bool ConstInts(int32_t t, std::vector<int32_t>* out);  // INT32/INT64 (values must fit int32)
  bool ConstInt(int32_t t, int32_t* v);
  bool ConstFloat(int32_t t, float* v);  // one FLOAT32/FLOAT16 value

  // A new temporary operand with the type and quantization of `like` and the given dims.
  uint32_t Temp(uint32_t like, const std::vector<uint32_t>& dims);
  template <typename V>
  uint32_t OwnedConst(int32_t type, const std::vector<uint32_t>& dims, const std::vector<V>& values,
                      float scale = 0.f) {
    NnOperand o;
    o.type = type;
    o.dims = dims;
    o.scale = scale;
    std::vector<uint8_t> bytes(values.size() * sizeof(V));
    if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    o.lifetime = NnOperand::Lifetime::kConstOwned;
    o.length = bytes.size();
    o.owned = Own(std::move(bytes));
    return AddOperand(std::move(o));
  }
  uint32_t I32(int32_t v) { return OwnedConst<int32_t>(ANEURALNETWORKS_INT32, {}, {v}); }
  uint32_t Bool(bool v) { return OwnedConst<uint8_t>(ANEURALNETWORKS_BOOL, {}, {uint8_t(v ? 1 : 0)}); }
  // Float scalar matching the precision of `like` (FLOAT16 for half-precision tensors).
  uint32_t FloatScalar(float v, uint32_t like);
  uint32_t I32Tensor(const std::vector<int32_t>& v) {
    return OwnedConst<int32_t>(ANEURALNETWORKS_TENSOR_INT32, {static_cast<uint32_t>(v.size())}, v);
  }
  // Bias input k of a convolution, or a zero bias of `channels` when TFLite omitted it.
  uint32_t BiasOrZero(const Operator& op, size_t k, uint32_t input, uint32_t filter, uint32_t channels);
  static int32_t PaddingCode(Padding p) {
    return p == Padding::kSame ? ANEURALNETWORKS_PADDING_SAME : ANEURALNETWORKS_PADDING_VALID;
  }

  // ---- for mappers: operations ------------------------------------------------------------

  void Emit(int32_t type, std::vector<uint32_t> ins, std::vector<uint32_t> outs);

  // Fused activation handling: NNAPI ops with a FuseCode input take RELU/RELU1/RELU6 directly;
  // TANH, and any activation on ops without a FuseCode input, becomes a separate operation.
  struct Act {
    int32_t fuse = ANEURALNETWORKS_FUSED_NONE;
    int32_t separate_op = -1;
    uint32_t main_out = kNoOperand;  // what the main operation writes
    uint32_t final_out = kNoOperand;
  };
  bool PlanAct(Activation a, uint32_t out, bool has_fuse_input, Act* act);
  void FinishAct(const Act& act) {
    if (act.separate_op >= 0) Emit(act.separate_op, {act.main_out}, {act.final_out});
  }

 private:
  bool MapOperator(const Operator& op);
  bool FinishIo();
  bool OperandTypeFor(const Tensor& t, NnOperand* o);
  uint32_t AddOperand(NnOperand o) {
    g_->operands.push_back(std::move(o));
    return static_cast<uint32_t>(g_->operands.size() - 1);
  }
  int32_t Own(std::vector<uint8_t> bytes);
  // The operand standing for TFLite tensor `t` (created on first use).
  uint32_t TensorOperand(int32_t t);
  uint32_t ZeroBias(uint32_t input, uint32_t filter, uint32_t channels);
  bool ConstBytes(int32_t t, const uint8_t** p, uint64_t* size) const;
  bool TryFoldDequantize(const Operator& op, std::string* why);
  bool TryFoldDensify(const Operator& op, std::string* why);

  const Model& m_;
  ImportOptions opt_;
  NnGraph* g_;
  ImportReport* r_;
  const SubGraph& sg_;
  std::vector<int32_t> tensor_operand_;
  std::vector<int32_t> folded_;  // per tensor: index into g_->owned of its folded value, or -1
  std::map<int32_t, std::string> densify_errors_;
  std::vector<bool> is_sg_input_, is_sg_output_, produced_;
  // Per tensor: read only as the filter (input 1) of CONV_2D operators, and by at least one.
  std::vector<bool> conv_filter_only_;
  OpReport* cur_ = nullptr;
  int32_t cur_op_ = -1;
  std::string err_;
};

}  // namespace detail
}  // namespace nnapi_tflite
