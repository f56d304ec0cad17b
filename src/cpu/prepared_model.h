// The CPU driver's prepared model: shapes inferred at compilation where possible, one arena
// for temporaries with lifetime-based reuse, per-operation state (packed weights) built once,
// and referenced subgraphs (IF/WHILE bodies) planned alongside the main graph.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "hal/device.h"
#include "cpu/kernel.h"
#include "spec/operation.h"

namespace nn {
namespace conv {
struct PackedHalfBlock;  // kernels/block_half.h
}  // namespace conv
struct ConvAddPlan;  // kernels/conv_add.h

// The execution plan of one subgraph.
struct SubgraphPlan {
  const Subgraph* subgraph = nullptr;
  std::vector<uint32_t> order;              // execution order of the operations
  std::vector<const OperationSpec*> specs;  // per operation: its catalog entry
  std::vector<const CpuKernel*> kernels;    // per operation: its CPU kernel
  std::vector<Status (*)(OpContext&)> execute;  // per operation: the device's kernel function
  std::vector<OperandSlot> templateSlots;   // constants bound, static shapes inferred
  std::vector<uint8_t> opStatic;            // per operation: prepare already done
  std::vector<std::unique_ptr<OpState>> states;  // per operation, built by init, then read-only
  // Per operation whose step runs a fused pair (pairKind): the partner operation's index, whose
  // own step is skipped; kNoPartner elsewhere. Empty when no pair is fused.
  static constexpr uint32_t kNoPartner = UINT32_MAX;
  std::vector<uint32_t> fusedExpansion;
  std::vector<uint8_t> runByPartner;  // per operation: one its partner's step runs
  // Per operation with fusedExpansion set: which pair its step runs.
  //   kExpandDepthwise: a DEPTHWISE_CONV_2D and the 1x1 CONV_2D producing its input
  //     (kernels/expand_depthwise.h, runExpandDepthwise);
  //   kDepthwiseProject: a 1x1 CONV_2D and the DEPTHWISE_CONV_2D producing its input
  //     (runDepthwiseProject), fusedExpansion naming that depthwise layer;
  //   kConvAdd: an ADD and the 1x1 CONV_2D with at most 16 input channels producing one of its
  //     inputs, in float16 in a relaxed model, else in float32 (kernels/conv_add.h);
  //   kConvResidual: an ADD and the 1x1 CONV_2D on the float16 or float32 GEMM producing one of
  //     its inputs (kernels/gemm_half_residual.h, conv_fast.h), with thirdOp's PAD when set;
  //   kHalfBlock: a float16 inverted bottleneck on a small map (kernels/block_half.h) — the
  //     1x1 expansion (fusedExpansion), the depthwise layer and the 1x1 projection
  //     (halfBlocks) — at the step of its residual ADD, or of the projection without one.
  // Empty when fusedExpansion is.
  enum PairKind : uint8_t {
    kExpandDepthwise,
    kDepthwiseProject,
    kConvAdd,
    kConvResidual,
    kHalfBlock
  };
  std::vector<uint8_t> pairKind;
  // Per operation: a third operation its pair's step runs too (its input read there instead of
  // its output) — for a kConvResidual ADD, the zero channel PAD producing its other input; for a
  // kDepthwiseProject 1x1 layer, the stem CONV_2D producing the depthwise layer's input — else
  // kNoPartner. Empty when fusedExpansion is.
  std::vector<uint32_t> thirdOp;
  // Per operation with pairKind kHalfBlock: the block's other layers and its weights packed
  // for the threads' shares. Empty unless a block is fused.
  struct HalfBlockStep {
    uint32_t depthwise = kNoPartner, project = kNoPartner;
    std::shared_ptr<const conv::PackedHalfBlock> weights;
  };
  std::vector<HalfBlockStep> halfBlocks;
  // Per operation with pairKind kConvAdd: the pair as prepared (weights packed in float16).
  // Empty unless such a pair is fused.
  std::vector<std::shared_ptr<const ConvAddPlan>> convAdds;
  // Per operation: an ADD of a float32 kConvAdd / kConvResidual pair, placed over the
  // convolution's output (planArena). Empty unless such a pair is fused.
  std::vector<uint8_t> addOverConvOutput;
  std::vector<size_t> arenaOffset;          // per operand; SIZE_MAX = not in the arena
  std::vector<int32_t> outputPosition;      // per operand: index in outputIndexes or -1
  size_t arenaSize = 0;
  bool fullyStatic = false;
};

class CpuExecutionState;

class CpuPreparedModel : public PreparedModel {
 public:
  // Returns the error of the first operation that cannot be prepared. `threads` is the
  // driver thread count (<= 0: ThreadPool::defaultThreadCount()).
  static Status create(std::shared_ptr<const Model> model, bool referenceKernels, int threads,
                       std::shared_ptr<PreparedModel>* out);

  std::unique_ptr<ExecutionState> createExecutionState() const override;
  void recycleExecutionState(std::unique_ptr<ExecutionState> state) const override;
  Status execute(const Request& request, const ExecuteOptions& options, ExecutionState* state,
                 std::vector<OutputShape>* outputShapes, Timing* timing) const override;

 private:
  CpuPreparedModel() = default;
  Status buildPlan(const Subgraph& sg, bool inferShapes, SubgraphPlan* plan);
  void pairExpansions(SubgraphPlan* plan);
  // Issue 10 (first inference): pools one execution state with the kernels' warm hooks run.
  void warmFirstExecutionState();

  friend class ExecutionRunner;
  // Runs referenced subgraph `subgraph` for IF/WHILE within one execution (`st`, `env`).
  Status runReferenced(uint32_t subgraph, const std::vector<const OperandSlot*>& inputs,
                       std::vector<OwnedTensor>* outputs, CpuExecutionState* st,
                       const ExecutionEnv& env) const;

  std::shared_ptr<const Model> model_;
  ExecutionEnv env_;
  bool reference_ = false;  // the reference device: executeReference where a kernel has one
  SubgraphPlan main_;
  std::vector<SubgraphPlan> referenced_;
  // Execution states of finished executions, reused by the next ones.
  mutable std::mutex poolMutex_;
  mutable std::vector<std::unique_ptr<ExecutionState>> statePool_;
};

}  // namespace nn
