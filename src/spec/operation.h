// What an operation *is*, independent of any driver: its signature check per feature level
// (validate), its output-shape inference (inferShapes) and which inputs may be omitted. One
// OperationSpec per entry of NN_FOR_EACH_OPERATION, defined next to its helpers in
// src/spec/ops/ and collected by the catalog (spec/catalog.h). Depends on canonical types only:
// the runtime validates models with it and every driver (CPU or plugin) infers shapes with it.
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>

#include "hal/types.h"

namespace nn {

using Half = _Float16;

// An operand's concrete type and shape as shape inference and kernels see it.
struct Shape {
  OperandType type = OperandType::TENSOR_FLOAT32;
  Dims dims;
  float scale = 0.f;
  int32_t zeroPoint = 0;
  const ChannelQuant* channelQuant = nullptr;

  uint32_t rank() const { return static_cast<uint32_t>(dims.size()); }
  uint32_t dim(uint32_t i) const { return dims[i]; }
  uint64_t count() const { return elementCount(dims); }
  // Saturating (SIZE_MAX for a shape whose size does not fit), never wrapped.
  size_t bytes() const { return static_cast<size_t>(byteSize(type, dims)); }
};

// An operand's declared type, dimensions and quantization as a Shape.
inline Shape shapeOf(const Operand& o) {
  Shape s;
  s.type = o.type;
  s.dims = o.dimensions;
  s.scale = o.scale;
  s.zeroPoint = o.zeroPoint;
  s.channelQuant = o.channelQuant.get();
  return s;
}

// One operand as an executor holds it: shape plus (when known) its bytes.
struct OperandSlot {
  Shape shape;
  uint8_t* data = nullptr;   // null when the value is not available yet
  size_t capacity = 0;       // bytes available at data
  bool omitted = false;      // NO_VALUE or an omitted request argument
  bool shapeKnown = false;   // shape.dims are final (a 0 then means zero-sized)
  bool isConstant = false;
  int32_t subgraph = -1;     // MODEL operands: index into Model::referenced
};

// ---------------------------------------------------------------------------------------
// Validation (structure and types, at ANeuralNetworksModel_addOperation / finish)

class ValidationContext {
 public:
  ValidationContext(const Model& model, const Subgraph& subgraph, uint32_t operationIndex);

  OperationType type() const { return op_.type; }
  const char* name() const { return toString(op_.type); }
  uint32_t operationIndex() const { return index_; }
  uint32_t numInputs() const { return static_cast<uint32_t>(op_.inputs.size()); }
  uint32_t numOutputs() const { return static_cast<uint32_t>(op_.outputs.size()); }
  const Operand& input(uint32_t i) const { return subgraph_.operands[op_.inputs[i]]; }
  const Operand& output(uint32_t i) const { return subgraph_.operands[op_.outputs[i]]; }
  OperandType inputType(uint32_t i) const { return input(i).type; }
  OperandType outputType(uint32_t i) const { return output(i).type; }
  uint32_t inputOperandIndex(uint32_t i) const { return op_.inputs[i]; }
  // Omitted optional input (NO_VALUE lifetime).
  bool isOmitted(uint32_t i) const { return input(i).lifetime == Lifetime::NO_VALUE; }
  bool isConstant(uint32_t i) const;
  // Bytes of a constant input, or nullptr when the value is only known at execution.
  const void* constantData(uint32_t i) const;
  template <typename T>
  bool constantScalar(uint32_t i, T* out) const {
    const void* p = constantData(i);
    if (p == nullptr || input(i).location.length < sizeof(T)) return false;
    memcpy(out, p, sizeof(T));
    return true;
  }
  // The subgraph referenced by a SUBGRAPH-typed input (IF/WHILE), or nullptr.
  const Subgraph* referencedSubgraph(uint32_t i) const;
  const Model& model() const { return model_; }
  bool relaxed() const { return model_.relaxComputationFloat32toFloat16; }

  // An INVALID_ARGUMENT error "OP (operation #k): <message>".
  Status fail(const char* fmt, ...) const __attribute__((format(printf, 2, 3)));
  // The signature needs at least this feature level.
  void requireFeatureLevel(int64_t level) {
    if (level > minFeatureLevel_) minFeatureLevel_ = level;
  }
  int64_t minFeatureLevel() const { return minFeatureLevel_; }

  // Common checks; each fails with a message naming the operand and the expectation.
  Status checkInputCount(uint32_t min, uint32_t max);
  Status checkOutputCount(uint32_t count);
  // Checks the types of inputs 0..types.size()-1 (omitted inputs are skipped).
  Status checkInputTypes(std::initializer_list<OperandType> types);
  Status checkOutputTypes(std::initializer_list<OperandType> types);
  Status checkInputType(uint32_t i, OperandType type);
  // Rank must be known to be <= max (unknown rank passes).
  Status checkInputRankAtMost(uint32_t i, uint32_t max);
  Status checkInputRank(uint32_t i, uint32_t rank);

 private:
  const Model& model_;
  const Subgraph& subgraph_;
  const Operation& op_;
  uint32_t index_;
  int64_t minFeatureLevel_ = kFeatureLevel1;
};

// ---------------------------------------------------------------------------------------
// Shape inference (at compilation when the inputs are known, otherwise at execution)

// An operation's view of its operands while its output shapes are inferred: input shapes,
// the values of inputs that have them (constants; everything at execution), and the output
// shapes it sets. Drivers extend it (the CPU driver's OpContext adds its thread pool and
// per-operation state) but inference only ever needs this.
class ShapeContext {
 public:
  ShapeContext(const Operation& op, uint32_t operationIndex, OperandSlot* slots, bool relaxed)
      : op_(op), index_(operationIndex), slots_(slots), relaxed_(relaxed) {}
  virtual ~ShapeContext() = default;

  OperationType type() const { return op_.type; }
  const char* name() const { return toString(op_.type); }
  uint32_t operationIndex() const { return index_; }
  const Operation& operation() const { return op_; }
  uint32_t numInputs() const { return static_cast<uint32_t>(op_.inputs.size()); }
  uint32_t numOutputs() const { return static_cast<uint32_t>(op_.outputs.size()); }

  OperandSlot& inputSlot(uint32_t i) const { return slots_[op_.inputs[i]]; }
  OperandSlot& outputSlot(uint32_t i) const { return slots_[op_.outputs[i]]; }
  bool isOmitted(uint32_t i) const { return inputSlot(i).omitted; }
  const Shape& inputShape(uint32_t i) const { return inputSlot(i).shape; }
  OperandType inputType(uint32_t i) const { return inputSlot(i).shape.type; }
  bool hasInputData(uint32_t i) const { return inputSlot(i).data != nullptr; }
  bool isConstantInput(uint32_t i) const { return inputSlot(i).isConstant; }
  const void* inputData(uint32_t i) const { return inputSlot(i).data; }
  template <typename T>
  const T* input(uint32_t i) const { return reinterpret_cast<const T*>(inputSlot(i).data); }
  // Reads a scalar input; callers check hasInputData first during inference.
  template <typename T>
  T scalar(uint32_t i) const {
    T v{};
    if (inputSlot(i).data) memcpy(&v, inputSlot(i).data, sizeof(T));
    return v;
  }

  const Shape& outputShape(uint32_t i) const { return outputSlot(i).shape; }
  // Sets the inferred output dimensions; type and quantization stay as the model declares.
  Status setOutputDims(uint32_t i, Dims dims);
  void* outputData(uint32_t i) const { return outputSlot(i).data; }
  template <typename T>
  T* output(uint32_t i) const { return reinterpret_cast<T*>(outputSlot(i).data); }

  bool relaxed() const { return relaxed_; }

  // An INVALID_ARGUMENT error "OP (operation #k): <message>".
  Status fail(const char* fmt, ...) const __attribute__((format(printf, 2, 3)));

 private:
  const Operation& op_;
  uint32_t index_;
  OperandSlot* slots_;
  bool relaxed_;
};

// ---------------------------------------------------------------------------------------
// The catalog entry

struct OperationSpec {
  OperationType type;
  // Signature check (operand counts, types per feature level, constant scalar rules).
  Status (*validate)(ValidationContext&);
  // Output shapes from input shapes and scalar values; kDeferred when they depend on values
  // that are only known at execution (or, for data-dependent shapes, on running the op).
  Status (*inferShapes)(ShapeContext&);
  // Bit i set: input i may be omitted (NO_VALUE, or setInput(NULL, 0) at execution). Any
  // other omitted input is rejected before the operation's own code runs.
  uint64_t optionalInputs;
};

constexpr uint64_t inputMask(std::initializer_list<uint32_t> inputs) {
  uint64_t mask = 0;
  for (uint32_t i : inputs)
    if (i < 64) mask |= uint64_t{1} << i;
  return mask;
}

inline bool inputMayBeOmitted(const OperationSpec& spec, uint32_t index) {
  return index < 64 && ((spec.optionalInputs >> index) & 1u) != 0;
}

// In the operation's spec file (one per operation code; the catalog references it by name):
//   NN_DEFINE_OPERATION_SPEC(ADD, validate, inferShapes);
//   NN_DEFINE_OPERATION_SPEC_OPTIONAL(LSTM, validate, inferShapes, {1, 5, 9});
#define NN_DEFINE_OPERATION_SPEC_OPTIONAL(opType, validateFn, inferFn, ...)              \
  extern const ::nn::OperationSpec kOperationSpec_##opType;                              \
  const ::nn::OperationSpec kOperationSpec_##opType{::nn::OperationType::opType, validateFn, \
                                                    inferFn, ::nn::inputMask(__VA_ARGS__)}
#define NN_DEFINE_OPERATION_SPEC(opType, validateFn, inferFn) \
  NN_DEFINE_OPERATION_SPEC_OPTIONAL(opType, validateFn, inferFn, {})

// Early-return helpers for validate / inferShapes / kernel bodies.
#define NN_RETURN_IF_ERROR(expr)                 \
  do {                                           \
    ::nn::Status _s = (expr);                    \
    if (_s != ::nn::kOk) return _s;              \
  } while (0)
#define NN_CHECK_OR_FAIL(ctx, cond, ...)         \
  do {                                           \
    if (!(cond)) return (ctx).fail(__VA_ARGS__); \
  } while (0)

}  // namespace nn
