#include "runtime/sl_prepared_model.h"

#include <cstring>

#include "hal/log.h"

namespace nn {
namespace sl {
namespace {

// Larger ranks are garbage: no NNAPI operation produces them, and the rank sizes a buffer.
constexpr uint32_t kMaxOutputRank = 16;

// A request argument's host address, or null with *error set.
uint8_t* argumentAddress(const Request& request, const RequestArgument& arg, std::string* error) {
  if (arg.location.pointer != nullptr) return static_cast<uint8_t*>(arg.location.pointer);
  if (arg.location.poolIndex >= request.pools.size() ||
      request.pools[arg.location.poolIndex] == nullptr) {
    *error = formatString("memory pool %u does not exist", arg.location.poolIndex);
    return nullptr;
  }
  const Memory* pool = request.pools[arg.location.poolIndex];
  if (!pool->contains(arg.location.offset, arg.location.length)) {
    *error = formatString("bytes %u..+%u lie outside memory pool %u", arg.location.offset,
                          arg.location.length, arg.location.poolIndex);
    return nullptr;
  }
  return pool->data() + arg.location.offset;
}

// Frees an SL execution on every path.
struct ExecutionGuard {
  const NnApiSLDriverImplFL5& t;
  ANeuralNetworksExecution* e = nullptr;
  ~ExecutionGuard() {
    if (e != nullptr) t.ANeuralNetworksExecution_free(e);
  }
};

}  // namespace

Status SlPreparedModel::execute(const Request& request, const ExecuteOptions& options,
                                ExecutionState*, std::vector<OutputShape>* outputShapes,
                                Timing* timing) const {
  const NnApiSLDriverImplFL5& t = device_.driver().table.base;
  const Subgraph& main = model_->main;
  outputShapes->assign(request.outputs.size(), OutputShape());
  if (request.inputs.size() != main.inputIndexes.size() ||
      request.outputs.size() != main.outputIndexes.size())
    return Status(ErrorStatus::INVALID_ARGUMENT,
                  device_.context() + "request does not match the model's inputs and outputs");
  if (options.deadlineNs != 0 && nowNs() >= options.deadlineNs)
    return Status(ErrorStatus::MISSED_DEADLINE_TRANSIENT,
                  device_.context() + "the deadline passed before the computation started");

  ExecutionGuard guard{t};
  int r = t.ANeuralNetworksExecution_create(compilation_, &guard.e);
  if (r != ANEURALNETWORKS_NO_ERROR || guard.e == nullptr)
    return fail("ANeuralNetworksExecution_create", r == 0 ? ANEURALNETWORKS_OP_FAILED : r);
  ANeuralNetworksExecution* e = guard.e;

  for (int pass = 0; pass < 2; ++pass) {
    const bool isInput = pass == 0;
    const auto& args = isInput ? request.inputs : request.outputs;
    const auto& indexes = isInput ? main.inputIndexes : main.outputIndexes;
    for (size_t i = 0; i < args.size(); ++i) {
      const RequestArgument& arg = args[i];
      const int32_t index = static_cast<int32_t>(i);
      const char* call = isInput ? "ANeuralNetworksExecution_setInput"
                                 : "ANeuralNetworksExecution_setOutput";
      uint8_t* address = nullptr;
      size_t length = 0;
      if (!arg.hasNoValue) {
        std::string error;
        address = argumentAddress(request, arg, &error);
        if (address == nullptr)
          return Status(ErrorStatus::INVALID_ARGUMENT,
                        formatString("%s%s %zu: %s", device_.context().c_str(),
                                     isInput ? "input" : "output", i, error.c_str()));
        length = arg.location.length;
      }
      ANeuralNetworksOperandType type{};
      const ANeuralNetworksOperandType* typePtr = nullptr;
      if (!arg.dimensions.empty()) {
        const Operand& operand = main.operands[indexes[i]];
        type = slOperandType(operand, replay_->slOperandTypeCode(operand.type), arg.dimensions);
        typePtr = &type;
      }
      r = isInput ? t.ANeuralNetworksExecution_setInput(e, index, typePtr, address, length)
                  : t.ANeuralNetworksExecution_setOutput(e, index, typePtr, address, length);
      if (r != ANEURALNETWORKS_NO_ERROR) return fail(call, r, formatString("(%zu)", i));
    }
  }
  r = t.ANeuralNetworksExecution_setLoopTimeout(e, options.loopTimeoutNs);
  if (r != ANEURALNETWORKS_NO_ERROR) return fail("ANeuralNetworksExecution_setLoopTimeout", r);
  if (options.deadlineNs != 0 && options.deadlineNs != UINT64_MAX) {
    const uint64_t now = nowNs();
    if (now >= options.deadlineNs)
      return Status(ErrorStatus::MISSED_DEADLINE_TRANSIENT,
                    device_.context() + "the deadline passed before the computation started");
    r = t.ANeuralNetworksExecution_setTimeout(e, options.deadlineNs - now);
    if (r != ANEURALNETWORKS_NO_ERROR) return fail("ANeuralNetworksExecution_setTimeout", r);
  }
  if (options.measureTiming) {
    r = t.ANeuralNetworksExecution_setMeasureTiming(e, true);
    if (r != ANEURALNETWORKS_NO_ERROR)
      return fail("ANeuralNetworksExecution_setMeasureTiming", r);
  }
  if (options.extensionAttributes != nullptr) {
    const auto add = device_.driver().table.ANeuralNetworksExecution_addExtensionAttribute;
    if (add == nullptr)
      return Status(ErrorStatus::INVALID_ARGUMENT,
                    device_.context() + "the execution has extension attributes but the plugin's "
                                        "table is older than feature level 8 (no "
                                        "ANeuralNetworksExecution_addExtensionAttribute)");
    for (const ExtensionAttribute& a : *options.extensionAttributes) {
      r = add(e, a.extension.c_str(), a.code, a.data.empty() ? nullptr : a.data.data(),
              a.data.size());
      if (r != ANEURALNETWORKS_NO_ERROR)
        return fail("ANeuralNetworksExecution_addExtensionAttribute", r,
                    formatString("(%s:%u)", a.extension.c_str(), a.code));
    }
  }

  const int computed = t.ANeuralNetworksExecution_compute(e);
  if (computed != ANEURALNETWORKS_NO_ERROR &&
      computed != ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE)
    return fail("ANeuralNetworksExecution_compute", computed);
  Status shapes = readOutputShapes(e, request, computed, outputShapes);
  if (!shapes.ok()) return shapes;
  if (computed == ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE)
    return fail("ANeuralNetworksExecution_compute", computed);

  if (options.measureTiming && timing != nullptr) {
    uint64_t onHardware = kNoTiming, inDriver = kNoTiming;
    if (t.ANeuralNetworksExecution_getDuration(e, ANEURALNETWORKS_DURATION_ON_HARDWARE,
                                               &onHardware) != ANEURALNETWORKS_NO_ERROR)
      onHardware = kNoTiming;
    if (t.ANeuralNetworksExecution_getDuration(e, ANEURALNETWORKS_DURATION_IN_DRIVER,
                                               &inDriver) != ANEURALNETWORKS_NO_ERROR)
      inDriver = kNoTiming;
    // Time on the hardware is part of the time in the driver; the reverse is garbage.
    if (onHardware != kNoTiming && inDriver != kNoTiming && onHardware > inDriver)
      onHardware = inDriver = kNoTiming;
    timing->timeOnDeviceNs = onHardware;
    timing->timeInDriverNs = inDriver;
  }
  return kOk;
}

Status SlPreparedModel::readOutputShapes(ANeuralNetworksExecution* e, const Request& request,
                                         int computed,
                                         std::vector<OutputShape>* outputShapes) const {
  const NnApiSLDriverImplFL5& t = device_.driver().table.base;
  const Subgraph& main = model_->main;
  bool anyInsufficient = false;
  for (size_t i = 0; i < request.outputs.size(); ++i) {
    const RequestArgument& arg = request.outputs[i];
    const Operand& operand = main.operands[main.outputIndexes[i]];
    const Dims& expected = arg.dimensions.empty() ? operand.dimensions : arg.dimensions;
    uint32_t rank = UINT32_MAX;
    const int rr = t.ANeuralNetworksExecution_getOutputOperandRank(e, static_cast<int32_t>(i),
                                                                   &rank);
    if (rr != ANEURALNETWORKS_NO_ERROR && rr != ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE)
      return fail("ANeuralNetworksExecution_getOutputOperandRank", rr, formatString("(%zu)", i));
    if (rank > kMaxOutputRank)
      return garbage(formatString("output %zu has rank %u (at most %u)", i, rank,
                                  kMaxOutputRank));
    Dims dims(rank, 0);
    if (rank > 0) {
      const int rd = t.ANeuralNetworksExecution_getOutputOperandDimensions(
          e, static_cast<int32_t>(i), dims.data());
      if (rd != ANEURALNETWORKS_NO_ERROR && rd != ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE)
        return fail("ANeuralNetworksExecution_getOutputOperandDimensions", rd,
                    formatString("(%zu)", i));
    }
    const bool sufficient = rr == ANEURALNETWORKS_NO_ERROR;
    anyInsufficient |= !sufficient;
    // The reported shape must refine what the model (or the request) fixed.
    if (isTensorType(operand.type) && !expected.empty()) {
      bool matches = expected.size() == dims.size();
      for (size_t d = 0; matches && d < dims.size(); ++d)
        matches = expected[d] == 0 || expected[d] == dims[d];
      if (!matches)
        return garbage(formatString("output %zu has dimensions %s, the model says %s", i,
                                    toString(dims).c_str(), toString(expected).c_str()));
    }
    if (sufficient && isTensorType(operand.type) && !arg.hasNoValue) {
      const uint64_t bytes = elementCount(dims) * elementSize(operand.type);
      if (bytes > arg.location.length)
        return garbage(formatString("output %zu reported sufficient with dimensions %s "
                                    "(%llu bytes) for a %u-byte buffer",
                                    i, toString(dims).c_str(),
                                    static_cast<unsigned long long>(bytes), arg.location.length));
    }
    (*outputShapes)[i] = OutputShape{std::move(dims), sufficient};
  }
  if (computed == ANEURALNETWORKS_NO_ERROR && anyInsufficient)
    return garbage("compute succeeded but an output is reported insufficient");
  if (computed == ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE && !anyInsufficient)
    return garbage("compute returned OUTPUT_INSUFFICIENT_SIZE but every output is sufficient");
  return kOk;
}

}  // namespace sl
}  // namespace nn
