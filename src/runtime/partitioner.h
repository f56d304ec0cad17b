// Partitioning: which device runs each operation of a model's main graph, and how the
// operations group into steps (modeled on AOSP's ModelBuilder::partitionTheWork).
//
// Each operation goes to the best of the devices that claim it (getSupportedOperations), by
// the devices' Capabilities for the operation's first input type and the compilation's
// preference; ties go to the earlier device in the candidate list. Operations then group
// into steps, each a maximal set of operations of one device that can run together once the
// earlier steps are done. IF and WHILE go whole, with the subgraphs they reference, to a
// device that claims them: the runtime does not split inside control flow.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hal/device.h"

namespace nn {

struct PartitionStep {
  const Device* device = nullptr;
  std::vector<uint32_t> operations;  // indices into model.main.operations, in execution order
};

struct PartitionPlan {
  std::vector<const Device*> operationDevice;  // per operation of model.main
  std::vector<PartitionStep> steps;            // in execution order
  // supported[d][i]: devices[d] claims operation i (kept for fallback decisions).
  std::vector<std::vector<bool>> supported;
};

// Fails with INVALID_ARGUMENT naming the first operation (index and name) that no candidate
// device supports, and why each device declined it.
Result<PartitionPlan> partitionModel(const Model& model, const std::vector<const Device*>& devices,
                                     int32_t preference);

// The figure a device is compared by for one operation (lower is better).
float operationCost(const Model& model, const Operation& op, const Capabilities& caps,
                    int32_t preference);

// Groups operations, each already assigned to a device, into steps (exposed for tests).
std::vector<PartitionStep> groupIntoSteps(const Subgraph& main,
                                          const std::vector<const Device*>& operationDevice,
                                          const std::vector<const Device*>& deviceOrder);

}  // namespace nn
