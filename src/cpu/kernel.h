// The CPU driver's kernel interface. An operation's CPU code (src/cpu/kernels/) provides a
// CpuKernel: `execute` (the fast device's kernel), optionally a separate `executeReference`
// (the reference device's simple kernel), an optional `init` run once per prepared model to
// build read-only per-operation state (packed weights), and an optional `resolveShapes` for
// operations whose output shapes depend on running them (IF/WHILE, NMS-style outputs).
// What an operation *is* (validation, shape inference) lives in the catalog (src/spec/).
#pragma once

#include <time.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "spec/operation.h"

namespace nn {

class ThreadPool;

// Per-operation state created by init (packed weights etc.).
class OpState {
 public:
  virtual ~OpState() = default;
};

// Per-execution, per-operation mutable state (e.g. an XNNPACK operator set up for this
// execution's buffers, scratch buffers, IF/WHILE results). Lives in the execution state, so
// concurrent executions of one prepared model never share it; created lazily by the kernel
// on first use and kept for the next computations of the same execution state.
class OpScratch {
 public:
  virtual ~OpScratch() = default;
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
  uint64_t loopTimeoutNs = 2000000000ull;
  uint64_t deadlineNs = 0;        // absolute CLOCK_MONOTONIC; 0 = none
  const SubgraphRunner* runner = nullptr;
  bool executing = false;         // false while the model is being prepared (compilation)
};

// The kernel's view: shapes and data (ShapeContext) plus the driver's resources.
class OpContext : public ShapeContext {
 public:
  // During execution: the read-only state init built, and this execution's scratch.
  OpContext(const Operation& op, uint32_t operationIndex, OperandSlot* slots,
            const ExecutionEnv& env, const OpState* state, std::unique_ptr<OpScratch>* scratch)
      : ShapeContext(op, operationIndex, slots, env.relaxed),
        env_(env),
        state_(state),
        scratch_(scratch) {}
  // During compilation (shape inference, init): init may set the state; there is no scratch.
  OpContext(const Operation& op, uint32_t operationIndex, OperandSlot* slots,
            const ExecutionEnv& env, std::unique_ptr<OpState>* initState)
      : ShapeContext(op, operationIndex, slots, env.relaxed), env_(env), initState_(initState) {}

  ThreadPool* threadPool() const { return env_.threadPool; }
  const ExecutionEnv& env() const { return env_; }
  // Read-only: built once by init, shared by concurrent executions.
  const OpState* state() const { return initState_ ? initState_->get() : state_; }
  // Only init (compilation) stores state; at execution this is a no-op.
  void setState(std::unique_ptr<OpState> s) {
    if (initState_) *initState_ = std::move(s);
  }
  // This execution's scratch for this operation (nullptr until set, and always during init).
  OpScratch* scratch() const { return scratch_ ? scratch_->get() : nullptr; }
  // Returns the scratch of type T, creating it on first use; nullptr when the executor
  // provides no per-execution storage (compilation).
  template <typename T>
  T* scratchAs() const {
    if (scratch_ == nullptr) return nullptr;
    if (!*scratch_) *scratch_ = std::make_unique<T>();
    return static_cast<T*>(scratch_->get());
  }
  // Drops this execution's scratch for the operation (a warm hook that could not finish).
  void resetScratch() const {
    if (scratch_ != nullptr) scratch_->reset();
  }

 private:
  const ExecutionEnv& env_;
  const OpState* state_ = nullptr;
  std::unique_ptr<OpState>* initState_ = nullptr;
  std::unique_ptr<OpScratch>* scratch_ = nullptr;
};

// CLOCK_MONOTONIC in nanoseconds, the clock of ExecutionEnv::deadlineNs (a vDSO call, ~20 ns).
inline uint64_t monotonicNowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// Lets a kernel whose work grows with data (sampling ratios, sample counts, loop trip counts,
// large GEMMs) stop soon after the execution's deadline instead of only between operations.
// Reads the clock once every `every` calls of expired(), so a poll in an inner loop costs a
// counter increment; pick `every` so that that many iterations take well under a millisecond.
class DeadlinePoll {
 public:
  DeadlinePoll(const OpContext& ctx, uint32_t every)
      : ctx_(ctx), deadlineNs_(ctx.env().executing ? ctx.env().deadlineNs : 0),
        every_(every ? every : 1) {}
  // True once the deadline has passed (and stays true).
  bool expired() {
    if (deadlineNs_ == 0) return false;
    if (passed_) return true;
    if (++count_ < every_) return false;
    count_ = 0;
    passed_ = monotonicNowNs() > deadlineNs_;
    return passed_;
  }
  // The error a kernel returns when expired() said so.
  Status missed() const {
    return makeError(ErrorStatus::MISSED_DEADLINE_PERSISTENT,
                     "%s (operation #%u): deadline passed during the computation", ctx_.name(),
                     ctx_.operationIndex());
  }

 private:
  const OpContext& ctx_;
  uint64_t deadlineNs_;
  uint32_t every_;
  uint32_t count_ = 0;
  bool passed_ = false;
};

struct CpuKernel {
  OperationType type;
  Status (*execute)(OpContext&);
  Status (*executeReference)(OpContext&);  // null: the reference device runs `execute`
  Status (*init)(OpContext&);              // null: no per-operation state
  Status (*resolveShapes)(OpContext&);     // null: the catalog's inferShapes
  // Optional, fast device only: at compilation, creates this operation's per-execution scratch
  // in the execution state the compilation pools for its first execution (XNNPACK operators
  // packed and set up, buffers sized) without computing anything, so the first execution runs
  // at steady-state speed. Called only for operations whose shapes are all known at compilation,
  // with the arena bound (model inputs and outputs have no data yet). A failure is not an
  // error: the execution then does the work itself.
  Status (*warm)(OpContext&) = nullptr;
};

// The kernel a device runs for `type` (nullptr when the CPU driver has none).
const CpuKernel* findCpuKernel(OperationType type);

// In the operation's kernel file:
//   NN_DEFINE_CPU_KERNEL(ADD, execute);
//   NN_DEFINE_CPU_KERNEL_FULL(CONV_2D, execute, executeReference, init, nullptr);
#define NN_DEFINE_CPU_KERNEL_FULL(opType, executeFn, referenceFn, initFn, resolveFn)   \
  extern const ::nn::CpuKernel kCpuKernel_##opType;                                     \
  const ::nn::CpuKernel kCpuKernel_##opType{::nn::OperationType::opType, executeFn,     \
                                            referenceFn, initFn, resolveFn}
// With a warm hook as well (see CpuKernel::warm).
#define NN_DEFINE_CPU_KERNEL_WARM(opType, executeFn, referenceFn, initFn, resolveFn, warmFn) \
  extern const ::nn::CpuKernel kCpuKernel_##opType;                                          \
  const ::nn::CpuKernel kCpuKernel_##opType{::nn::OperationType::opType, executeFn,          \
                                            referenceFn, initFn, resolveFn, warmFn}
#define NN_DEFINE_CPU_KERNEL(opType, executeFn) \
  NN_DEFINE_CPU_KERNEL_FULL(opType, executeFn, nullptr, nullptr, nullptr)

}  // namespace nn
