// The CPU driver's prepared model: shapes inferred at compilation where possible, one arena
// for temporaries with lifetime-based reuse, per-operation state (packed weights) built once.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "hal/device.h"
#include "ops/operation.h"

namespace nn {

class ThreadPool;

class CpuPreparedModel : public PreparedModel {
 public:
  // Returns the error of the first operation that cannot be prepared.
  static Status create(std::shared_ptr<const Model> model, bool referenceKernels,
                       std::shared_ptr<PreparedModel>* out);

  std::unique_ptr<ExecutionState> createExecutionState() const override;
  void recycleExecutionState(std::unique_ptr<ExecutionState> state) const override;
  Status execute(const Request& request, const ExecuteOptions& options, ExecutionState* state,
                 std::vector<OutputShape>* outputShapes, Timing* timing) const override;

  // Introspection for tests/benchmarks.
  bool fullyStatic() const { return fullyStatic_; }
  size_t arenaBytes() const { return arenaSize_; }

 private:
  CpuPreparedModel() = default;
  Status prepare();
  void planArena();

  std::shared_ptr<const Model> model_;
  ExecutionEnv env_;
  std::vector<uint32_t> order_;                 // execution order of main's operations
  std::vector<OperandSlot> templateSlots_;      // constants bound, static shapes inferred
  std::vector<uint8_t> opStatic_;               // per operation: prepare already done
  mutable std::vector<std::unique_ptr<OpState>> states_;  // per operation
  std::vector<size_t> arenaOffset_;             // per operand; SIZE_MAX = not in the arena
  size_t arenaSize_ = 0;
  bool fullyStatic_ = false;
  // Kernels keep mutable state (e.g. XNNPACK operators are set up per run), so the
  // computations of one prepared model are serialized.
  mutable std::mutex mutex_;
  // Execution states of finished executions, reused by the next ones.
  mutable std::mutex poolMutex_;
  mutable std::vector<std::unique_ptr<ExecutionState>> statePool_;
};

}  // namespace nn
