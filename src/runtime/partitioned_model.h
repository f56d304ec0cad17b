// A model split across devices: a PreparedModel (the driver interface) made of steps, each a
// sub-model prepared on its own device. Executions run the steps in order; values crossing
// steps ("temporaries") live in the runtime's per-execution state, the model's own inputs
// and outputs pass straight from the request to the steps that read or write them.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "hal/device.h"
#include "runtime/partitioner.h"

namespace nn {

// Where a step input comes from / a step output goes.
struct StepIo {
  int32_t mainInput = -1;   // index into the request's inputs
  int32_t mainOutput = -1;  // index into the request's outputs
  int32_t temp = -1;        // index of a value crossing steps
};

struct StepModel {
  std::shared_ptr<const Model> model;
  std::vector<StepIo> inputs;   // per model->main.inputIndexes
  std::vector<StepIo> outputs;  // per model->main.outputIndexes
};

// A value one step produces and a later step reads.
struct CrossingValue {
  uint32_t operand = 0;  // in the main graph
  OperandType type = OperandType::TENSOR_FLOAT32;
  Dims dimensions;       // as declared in the main graph (0 = unknown)
};

struct StepLayout {
  std::vector<StepModel> steps;  // one per plan step
  std::vector<CrossingValue> temps;
};

// Builds each step's sub-model from the main graph: its operations, operands, constants
// (CONSTANT_COPY bytes copied into its own operandValues, CONSTANT_REFERENCE pools shared),
// the referenced subgraphs when it holds IF/WHILE, and the relax flag. Fails when a model
// output is not produced by any operation (an input or constant passed through), which the
// split execution does not handle.
Result<StepLayout> buildStepModels(const Model& model, const std::vector<PartitionStep>& steps);

class PartitionedPreparedModel : public PreparedModel {
 public:
  struct Step {
    const Device* device = nullptr;
    std::vector<uint32_t> operations;  // main-graph indices (for messages)
    StepModel io;
    std::shared_ptr<PreparedModel> prepared;
  };
  PartitionedPreparedModel(std::shared_ptr<const Model> model, std::vector<Step> steps,
                           std::vector<CrossingValue> temps);

  std::unique_ptr<ExecutionState> createExecutionState() const override;
  Status execute(const Request& request, const ExecuteOptions& options, ExecutionState* state,
                 std::vector<OutputShape>* outputShapes, Timing* timing) const override;

  // The device that runs an execution unsplit when a value crossing steps turns out
  // zero-sized: NNAPI cannot hand a zero-sized tensor to a step as an input (a 0 dimension
  // there means "unknown"), so that execution runs the whole model on `device` instead,
  // prepared at its first need. Without one, such an execution fails with a clear reason.
  void setWholeModelFallback(const Device* device, const PrepareOptions& options) {
    fallbackDevice_ = device;
    fallbackOptions_ = options;
  }

  const std::vector<Step>& steps() const { return steps_; }
  const std::vector<CrossingValue>& temps() const { return temps_; }

 private:
  class State;
  Status runStep(size_t index, const Request& request, const ExecuteOptions& options,
                 State* st, std::vector<OutputShape>* outputShapes, Timing* total) const;

  Status runWhole(const Request& request, const ExecuteOptions& options, State* st,
                  std::vector<OutputShape>* outputShapes, Timing* timing,
                  const std::string& why) const;

  std::shared_ptr<const Model> model_;
  std::vector<Step> steps_;
  const Device* fallbackDevice_ = nullptr;
  PrepareOptions fallbackOptions_;
  mutable std::once_flag fallbackOnce_;
  mutable std::shared_ptr<PreparedModel> fallback_;  // written once under fallbackOnce_
  mutable Status fallbackStatus_;
  std::vector<CrossingValue> temps_;
  // Bytes each temporary needed last time (any execution): the first guess for the buffers
  // of new executions, so dynamic-shape temporaries are sized right after one run. Relaxed
  // atomics: a stale value only costs one re-run of a step.
  std::unique_ptr<std::atomic<size_t>[]> sizeHints_;
};

}  // namespace nn
