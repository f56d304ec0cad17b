// The operation interface. Every operation is defined once, in its own file under src/ops/:
//   validate : signature check against the spec (operand counts, types per feature level,
//              constant scalar rules). Shared by the runtime (model finish) and drivers.
//   prepare  : output-shape inference from input shapes and scalar parameters. Run at
//              compilation when inputs are known, otherwise at execution.
//   init     : optional; build per-operation state once per prepared model (packed weights,
//              chosen kernel). Constant inputs are readable here.
//   execute  : the kernel.
// Registration: NN_REGISTER_OPERATION(ADD, validate, prepare, execute[, init]).
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "hal/log.h"
#include "hal/types.h"

namespace nn {

class ThreadPool;

// An operand's concrete type and shape as a kernel sees it.
struct Shape {
  OperandType type = OperandType::TENSOR_FLOAT32;
  Dims dims;
  float scale = 0.f;
  int32_t zeroPoint = 0;
  const ChannelQuant* channelQuant = nullptr;

  uint32_t rank() const { return static_cast<uint32_t>(dims.size()); }
  uint32_t dim(uint32_t i) const { return dims[i]; }
  uint64_t count() const { return elementCount(dims); }
  size_t bytes() const { return static_cast<size_t>(count()) * elementSize(type); }
};

// ---------------------------------------------------------------------------------------
// Validation

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

  // Records "OP (operation #k): <message>" as the error and returns INVALID_ARGUMENT.
  Status fail(const char* fmt, ...) __attribute__((format(printf, 2, 3)));
  // The signature needs at least this feature level.
  void requireFeatureLevel(int64_t level) {
    if (level > minFeatureLevel_) minFeatureLevel_ = level;
  }
  int64_t minFeatureLevel() const { return minFeatureLevel_; }
  // The signature is valid per the spec but this build has no kernel for it yet; drivers
  // report the operation as unsupported with this reason.
  void notImplemented(const char* fmt, ...) __attribute__((format(printf, 2, 3)));
  bool implemented() const { return notImplementedReason_.empty(); }
  const std::string& notImplementedReason() const { return notImplementedReason_; }

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
  std::string notImplementedReason_;
};

// ---------------------------------------------------------------------------------------
// Preparation / execution

// Per-operation state created by init (packed weights etc.).
class OpState {
 public:
  virtual ~OpState() = default;
};

// One operand as the executor holds it.
struct OperandSlot {
  Shape shape;
  uint8_t* data = nullptr;   // null when the value is not available yet
  size_t capacity = 0;       // bytes available at data
  bool omitted = false;      // NO_VALUE or an omitted request argument
  bool shapeKnown = false;   // shape.dims are final (a 0 then means zero-sized)
  bool isConstant = false;
  int32_t subgraph = -1;     // MODEL operands: index into Model::referenced
};

// A tensor produced by a referenced subgraph run (IF/WHILE), owning its bytes.
struct OwnedTensor {
  Shape shape;
  std::vector<uint8_t> data;
};

// Lets control-flow operations run referenced subgraphs through the executor.
class SubgraphRunner {
 public:
  virtual ~SubgraphRunner() = default;
  virtual size_t inputCount(uint32_t subgraph) const = 0;
  virtual size_t outputCount(uint32_t subgraph) const = 0;
  // Runs referenced subgraph `subgraph` on `inputs` (shape + data each); fills `outputs`.
  virtual Status run(uint32_t subgraph, const std::vector<const OperandSlot*>& inputs,
                     std::vector<OwnedTensor>* outputs) const = 0;
};

struct ExecutionEnv {
  ThreadPool* threadPool = nullptr;
  bool relaxed = false;
  bool referenceKernels = false;  // the reference device: use the simple kernels only
  uint64_t loopTimeoutNs = 2000000000ull;
  uint64_t deadlineNs = 0;        // absolute CLOCK_MONOTONIC; 0 = none
  const Model* model = nullptr;
  const SubgraphRunner* runner = nullptr;
  bool executing = false;         // false while the model is being prepared (compilation)
};

class OpContext {
 public:
  OpContext(const Operation& op, uint32_t operationIndex, OperandSlot* slots,
            const ExecutionEnv& env, std::unique_ptr<OpState>* state)
      : op_(op), index_(operationIndex), slots_(slots), env_(env), state_(state) {}

  OperationType type() const { return op_.type; }
  const char* name() const { return toString(op_.type); }
  uint32_t operationIndex() const { return index_; }
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
  // Reads a scalar input; callers check hasInputData first during prepare.
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

  ThreadPool* threadPool() const { return env_.threadPool; }
  bool relaxed() const { return env_.relaxed; }
  bool useReferenceKernels() const { return env_.referenceKernels; }
  const ExecutionEnv& env() const { return env_; }
  OpState* state() const { return state_ ? state_->get() : nullptr; }
  void setState(std::unique_ptr<OpState> s) {
    if (state_) *state_ = std::move(s);
  }

  // Records "OP (operation #k): <message>" and returns INVALID_ARGUMENT.
  Status fail(const char* fmt, ...) __attribute__((format(printf, 2, 3)));

 private:
  const Operation& op_;
  uint32_t index_;
  OperandSlot* slots_;
  const ExecutionEnv& env_;
  std::unique_ptr<OpState>* state_;
};

// ---------------------------------------------------------------------------------------
// Registry

struct OperationDef {
  OperationType type;
  Status (*validate)(ValidationContext&);
  Status (*prepare)(OpContext&);
  Status (*execute)(OpContext&);
  Status (*init)(OpContext&);  // may be null
  // Bit i set: input i may be omitted (NO_VALUE, or setInput(NULL, 0) at execution). Any
  // other omitted input is rejected before the operation's own code runs.
  uint64_t optionalInputs = 0;
};

// nullptr when no operation of that type is registered.
const OperationDef* findOperation(OperationType type);
// Whether input `index` of `def` may be omitted.
inline bool inputMayBeOmitted(const OperationDef& def, uint32_t index) {
  return index < 64 && ((def.optionalInputs >> index) & 1u) != 0;
}

struct OperationRegistrar {
  explicit OperationRegistrar(const OperationDef& def);
  // Declares optional inputs of an already registered (or later registered) operation.
  OperationRegistrar(OperationType type, std::initializer_list<uint32_t> optionalInputs);
};

// In an operation's file: NN_OPTIONAL_INPUTS(LSTM, {1, 5, 9});
#define NN_OPTIONAL_INPUTS(opType, ...)                                              \
  static const ::nn::OperationRegistrar kOptionalInputs_##opType(::nn::OperationType::opType, \
                                                                 __VA_ARGS__)

#define NN_REGISTER_OPERATION_IMPL(opType, validateFn, prepareFn, executeFn, initFn)       \
  static const ::nn::OperationRegistrar kRegistrar_##opType(::nn::OperationDef{             \
      ::nn::OperationType::opType, validateFn, prepareFn, executeFn, initFn})
#define NN_REGISTER_OPERATION(opType, validateFn, prepareFn, executeFn) \
  NN_REGISTER_OPERATION_IMPL(opType, validateFn, prepareFn, executeFn, nullptr)
#define NN_REGISTER_OPERATION_WITH_INIT(opType, validateFn, prepareFn, executeFn, initFn) \
  NN_REGISTER_OPERATION_IMPL(opType, validateFn, prepareFn, executeFn, initFn)

// Early-return helpers for validate/prepare/execute bodies.
#define NN_RETURN_IF_ERROR(expr)                        \
  do {                                                  \
    ::nn::Status _s = (expr);                           \
    if (_s != ::nn::kOk) return _s;                     \
  } while (0)
#define NN_CHECK_OR_FAIL(ctx, cond, ...) \
  do {                                   \
    if (!(cond)) return (ctx).fail(__VA_ARGS__); \
  } while (0)

}  // namespace nn
