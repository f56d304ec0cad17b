#include "runtime/partitioner.h"

#include <android/NeuralNetworks.h>

#include <algorithm>
#include <deque>


namespace nn {

float operationCost(const Model& model, const Operation& op, const Capabilities& caps,
                    int32_t preference) {
  PerformanceInfo perf;
  if (op.type == OperationType::IF) {
    perf = caps.ifPerformance;
  } else if (op.type == OperationType::WHILE) {
    perf = caps.whilePerformance;
  } else {
    // As in AOSP: the type of the first input stands for the operation's data type.
    const OperandType type = op.inputs.empty()
                                 ? OperandType::TENSOR_FLOAT32
                                 : model.main.operands[op.inputs[0]].type;
    if (model.relaxComputationFloat32toFloat16 && type == OperandType::TENSOR_FLOAT32) {
      perf = caps.relaxedFloat32toFloat16Tensor;
    } else if (model.relaxComputationFloat32toFloat16 && type == OperandType::FLOAT32) {
      perf = caps.relaxedFloat32toFloat16Scalar;
    } else {
      perf = caps.forOperandType(static_cast<int32_t>(type));
    }
  }
  return preference == ANEURALNETWORKS_PREFER_LOW_POWER ? perf.powerUsage : perf.execTime;
}

std::vector<PartitionStep> groupIntoSteps(const Subgraph& main,
                                          const std::vector<const Device*>& operationDevice,
                                          const std::vector<const Device*>& deviceOrder) {
  const size_t opCount = main.operations.size();
  std::vector<int32_t> producer(main.operands.size(), -1);
  for (uint32_t i = 0; i < opCount; ++i)
    for (uint32_t out : main.operations[i].outputs) producer[out] = static_cast<int32_t>(i);
  // pending[i]: distinct operands operation i still waits for; consumers: who waits for what.
  std::vector<uint32_t> pending(opCount, 0);
  std::vector<std::vector<uint32_t>> consumers(main.operands.size());
  for (uint32_t i = 0; i < opCount; ++i) {
    std::vector<uint32_t> ins = main.operations[i].inputs;
    std::sort(ins.begin(), ins.end());
    ins.erase(std::unique(ins.begin(), ins.end()), ins.end());
    for (uint32_t in : ins) {
      if (producer[in] < 0) continue;
      ++pending[i];
      consumers[in].push_back(i);
    }
  }
  auto deviceSlot = [&](const Device* d) {
    return static_cast<size_t>(std::find(deviceOrder.begin(), deviceOrder.end(), d) -
                               deviceOrder.begin());
  };
  // One ready queue per device. A step drains one device's queue, including operations that
  // become ready on that device while it drains, so independent branches of one device join
  // one step instead of being cut wherever the linear order alternates.
  std::vector<std::deque<uint32_t>> ready(deviceOrder.size());
  for (uint32_t i = 0; i < opCount; ++i)
    if (pending[i] == 0) ready[deviceSlot(operationDevice[i])].push_back(i);
  std::vector<PartitionStep> steps;
  for (;;) {
    size_t d = 0;
    while (d < ready.size() && ready[d].empty()) ++d;
    if (d == ready.size()) break;
    PartitionStep step;
    step.device = deviceOrder[d];
    while (!ready[d].empty()) {
      const uint32_t op = ready[d].front();
      ready[d].pop_front();
      step.operations.push_back(op);
      for (uint32_t out : main.operations[op].outputs) {
        for (uint32_t c : consumers[out]) {
          if (--pending[c] == 0) ready[deviceSlot(operationDevice[c])].push_back(c);
        }
      }
    }
    steps.push_back(std::move(step));
  }
  return steps;
}

Result<PartitionPlan> partitionModel(const Model& model, const std::vector<const Device*>& devices,
                                     int32_t preference) {
  const Subgraph& main = model.main;
  const size_t opCount = main.operations.size();
  PartitionPlan plan;
  plan.supported.resize(devices.size());
  std::vector<std::vector<std::string>> reasons(devices.size());
  std::vector<std::string> queryErrors(devices.size());
  for (size_t d = 0; d < devices.size(); ++d) {
    const Status s = devices[d]->getSupportedOperations(model, &plan.supported[d], &reasons[d]);
    // A device that cannot answer, or answers for the wrong number of operations (plugins are
    // untrusted), claims nothing.
    if (!s.ok() || plan.supported[d].size() != opCount) {
      queryErrors[d] =
          s.ok() ? formatString("answered for %zu operations, the model has %zu",
                                plan.supported[d].size(), opCount)
                 : formatString("could not check the model (%s)%s%s", toString(s.code()),
                                s.message().empty() ? "" : ": ", s.message().c_str());
      plan.supported[d].assign(opCount, false);
    }
    if (reasons[d].size() != opCount) reasons[d].assign(opCount, std::string());
    // A vendor operation runs only where its extension is declared, whatever a device
    // claims (a plugin is untrusted, and nothing else could know the operation's meaning).
    for (uint32_t i = 0; i < opCount; ++i) {
      const Operation& op = main.operations[i];
      if (!plan.supported[d][i] || !isExtension(op.type)) continue;
      const std::string extension = extensionName(extensionPrefixOf(static_cast<int32_t>(op.type)));
      bool declared = false;
      for (const Extension& e : devices[d]->extensions()) declared |= e.name == extension;
      if (!declared) {
        plan.supported[d][i] = false;
        reasons[d][i] = formatString("%s (operation #%u): the device does not declare extension "
                                     "'%s'",
                                     operationName(op.type).c_str(), i, extension.c_str());
      }
    }
  }
  std::vector<Capabilities> caps;
  for (const Device* d : devices) caps.push_back(d->capabilities());
  plan.operationDevice.assign(opCount, nullptr);
  for (uint32_t i = 0; i < opCount; ++i) {
    const Operation& op = main.operations[i];
    float best = 0.f;
    for (size_t d = 0; d < devices.size(); ++d) {
      if (!plan.supported[d][i]) continue;
      const float cost = operationCost(model, op, caps[d], preference);
      // Strictly better only: ties stay with the earlier device.
      if (plan.operationDevice[i] == nullptr || cost < best) {
        plan.operationDevice[i] = devices[d];
        best = cost;
      }
    }
    if (plan.operationDevice[i] == nullptr) {
      std::string why;
      for (size_t d = 0; d < devices.size(); ++d) {
        const std::string& r = queryErrors[d].empty() ? reasons[d][i] : queryErrors[d];
        why += formatString("%s%s%s%s", why.empty() ? "" : "; ", devices[d]->name().c_str(),
                            r.empty() ? "" : ": ", r.empty() ? "declined" : r.c_str());
      }
      return makeError(ErrorStatus::INVALID_ARGUMENT,
                       "operation #%u (%s) is supported by none of the devices (%s)", i,
                       operationName(op.type).c_str(),
                       devices.empty() ? "no device available" : why.c_str());
    }
  }
  plan.steps = groupIntoSteps(main, plan.operationDevice, devices);
  return plan;
}

}  // namespace nn
