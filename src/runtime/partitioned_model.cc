#include "runtime/partitioned_model.h"

#include <algorithm>
#include <chrono>

#include "hal/log.h"

namespace nn {
namespace {

// The alignment RuntimeModel gives CONSTANT_COPY values (kernels read them in place).
constexpr size_t kConstantAlignment = 8;
// First buffer size of a temporary whose shape is only known at execution.
constexpr size_t kMinGuessBytes = 64;
constexpr uint64_t kMaxGuessBytes = 64ull << 20;
// A step re-runs after growing its temporaries; the second run has what the first reported,
// more attempts only guard against a driver whose shapes keep changing.
constexpr int kMaxStepAttempts = 3;
// runStep's signal that a value crossing steps is zero-sized (never leaves this file).
constexpr ErrorStatus kZeroSizedCrossing = static_cast<ErrorStatus>(1001);

uint64_t nowNs() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

// Moves an operand's CONSTANT_COPY bytes from `from` into `to`, updating its location.
void rehomeConstant(Operand* o, const std::vector<uint8_t>& from, std::vector<uint8_t>* to) {
  if (o->lifetime != Lifetime::CONSTANT_COPY) return;
  const size_t offset = (to->size() + kConstantAlignment - 1) / kConstantAlignment *
                        kConstantAlignment;
  to->resize(offset);
  to->insert(to->end(), from.begin() + o->location.offset,
             from.begin() + o->location.offset + o->location.length);
  o->location.offset = static_cast<uint32_t>(offset);
}

bool isConstantLike(Lifetime l) {
  return l == Lifetime::CONSTANT_COPY || l == Lifetime::CONSTANT_REFERENCE ||
         l == Lifetime::NO_VALUE || l == Lifetime::SUBGRAPH;
}

size_t guessBytes(const CrossingValue& t) {
  if (isFullySpecified(t.type, t.dimensions)) return byteSize(t.type, t.dimensions);
  // Unknown dimensions count as 1; a step that needs more reports its shape and runs again,
  // so the guess is capped rather than trusted (declared dimensions can be absurd).
  Dims known = t.dimensions;
  for (uint32_t& d : known) d = std::max<uint32_t>(d, 1);
  const uint64_t bytes = std::min<uint64_t>(byteSize(t.type, known), kMaxGuessBytes);
  return std::max<size_t>(kMinGuessBytes, static_cast<size_t>(bytes));
}

}  // namespace

Result<StepLayout> buildStepModels(const Model& model, const std::vector<PartitionStep>& steps) {
  const Subgraph& main = model.main;
  const size_t n = main.operands.size();
  std::vector<int32_t> producerStep(n, -1), inputPos(n, -1), outputPos(n, -1);
  std::vector<uint8_t> readElsewhere(n, 0);
  for (size_t s = 0; s < steps.size(); ++s)
    for (uint32_t op : steps[s].operations)
      for (uint32_t out : main.operations[op].outputs) producerStep[out] = static_cast<int32_t>(s);
  for (size_t s = 0; s < steps.size(); ++s)
    for (uint32_t op : steps[s].operations)
      for (uint32_t in : main.operations[op].inputs)
        if (producerStep[in] >= 0 && producerStep[in] != static_cast<int32_t>(s))
          readElsewhere[in] = 1;
  for (size_t i = 0; i < main.inputIndexes.size(); ++i)
    if (inputPos[main.inputIndexes[i]] < 0) inputPos[main.inputIndexes[i]] = static_cast<int32_t>(i);
  for (size_t i = 0; i < main.outputIndexes.size(); ++i) {
    const uint32_t o = main.outputIndexes[i];
    if (producerStep[o] < 0) {
      return makeError(ErrorStatus::INVALID_ARGUMENT,
                       "model output %zu (operand %u) is not produced by an operation; such a "
                       "model is not split across devices",
                       i, o);
    }
    if (outputPos[o] < 0) outputPos[o] = static_cast<int32_t>(i);
  }
  StepLayout layout;
  std::vector<int32_t> tempIndex(n, -1);
  for (uint32_t o = 0; o < n; ++o) {
    if (!readElsewhere[o]) continue;
    tempIndex[o] = static_cast<int32_t>(layout.temps.size());
    layout.temps.push_back(CrossingValue{o, main.operands[o].type, main.operands[o].dimensions});
  }

  for (size_t s = 0; s < steps.size(); ++s) {
    auto m = std::make_shared<Model>();
    m->relaxComputationFloat32toFloat16 = model.relaxComputationFloat32toFloat16;
    m->pools = model.pools;  // CONSTANT_REFERENCE operands keep their pool indexes
    StepModel sm;
    bool controlFlow = false;
    std::vector<int32_t> newIndex(n, -1);
    auto mapOperand = [&](uint32_t old, bool producedHere) -> uint32_t {
      if (newIndex[old] >= 0) return static_cast<uint32_t>(newIndex[old]);
      Operand o = main.operands[old];
      const uint32_t idx = static_cast<uint32_t>(m->main.operands.size());
      if (isConstantLike(o.lifetime)) {
        rehomeConstant(&o, model.operandValues, &m->operandValues);
      } else if (producedHere) {
        if (outputPos[old] >= 0 || tempIndex[old] >= 0) {
          o.lifetime = Lifetime::SUBGRAPH_OUTPUT;
          m->main.outputIndexes.push_back(idx);
          sm.outputs.push_back(StepIo{-1, outputPos[old], tempIndex[old]});
        } else {
          o.lifetime = Lifetime::TEMPORARY_VARIABLE;
        }
      } else {
        o.lifetime = Lifetime::SUBGRAPH_INPUT;
        m->main.inputIndexes.push_back(idx);
        sm.inputs.push_back(StepIo{inputPos[old], -1, tempIndex[old]});
      }
      o.location.pointer = nullptr;
      m->main.operands.push_back(std::move(o));
      newIndex[old] = static_cast<int32_t>(idx);
      return idx;
    };
    for (uint32_t opIndex : steps[s].operations) {
      const Operation& op = main.operations[opIndex];
      controlFlow |= op.type == OperationType::IF || op.type == OperationType::WHILE;
      Operation copy;
      copy.type = op.type;
      for (uint32_t in : op.inputs) {
        const bool producedHere = producerStep[in] == static_cast<int32_t>(s);
        // An input produced later in this very step is impossible: steps are in order.
        copy.inputs.push_back(mapOperand(in, producedHere));
      }
      for (uint32_t out : op.outputs) copy.outputs.push_back(mapOperand(out, true));
      m->main.operations.push_back(std::move(copy));
    }
    for (const StepIo& in : sm.inputs) {
      if (in.mainInput < 0 && in.temp < 0) {
        return makeError(ErrorStatus::INVALID_ARGUMENT,
                         "partition step %zu reads an operand that nothing produces", s);
      }
    }
    if (controlFlow) {
      // The whole set of referenced subgraphs goes along (SUBGRAPH operands index it), each
      // with its constants moved into this step's values.
      m->referenced = model.referenced;
      for (Subgraph& sg : m->referenced)
        for (Operand& o : sg.operands) rehomeConstant(&o, model.operandValues, &m->operandValues);
    }
    sm.model = std::move(m);
    layout.steps.push_back(std::move(sm));
  }
  return layout;
}

// ---------------------------------------------------------------------------------------
// Execution

class PartitionedPreparedModel::State : public ExecutionState {
 public:
  std::vector<std::unique_ptr<ExecutionState>> stepStates;
  std::vector<Request> requests;                     // per step, reused
  std::vector<std::vector<OutputShape>> stepShapes;  // per step, reused
  std::vector<std::vector<uint8_t>> buffers;         // per temporary, grow-only
  std::vector<RequestArgument> produced;  // per temporary: where it lives and its actual dims
  std::unique_ptr<ExecutionState> fallbackState;  // for runWhole, made at its first use
};

PartitionedPreparedModel::PartitionedPreparedModel(std::shared_ptr<const Model> model,
                                                   std::vector<Step> steps,
                                                   std::vector<CrossingValue> temps)
    : model_(std::move(model)),
      steps_(std::move(steps)),
      temps_(std::move(temps)),
      sizeHints_(new std::atomic<size_t>[temps_.size()]) {
  for (size_t t = 0; t < temps_.size(); ++t) sizeHints_[t].store(guessBytes(temps_[t]));
}

std::unique_ptr<ExecutionState> PartitionedPreparedModel::createExecutionState() const {
  auto st = std::make_unique<State>();
  st->stepStates.resize(steps_.size());
  st->requests.resize(steps_.size());
  st->stepShapes.resize(steps_.size());
  for (size_t s = 0; s < steps_.size(); ++s) {
    st->stepStates[s] = steps_[s].prepared->createExecutionState();
    st->requests[s].inputs.resize(steps_[s].io.inputs.size());
    st->requests[s].outputs.resize(steps_[s].io.outputs.size());
  }
  st->buffers.resize(temps_.size());
  st->produced.resize(temps_.size());
  for (size_t t = 0; t < temps_.size(); ++t)
    st->buffers[t].resize(std::max<size_t>(sizeHints_[t].load(std::memory_order_relaxed), 1));
  return st;
}

Status PartitionedPreparedModel::execute(const Request& request, const ExecuteOptions& options,
                                         ExecutionState* state,
                                         std::vector<OutputShape>* outputShapes,
                                         Timing* timing) const {
  const Subgraph& main = model_->main;
  if (request.inputs.size() != main.inputIndexes.size() ||
      request.outputs.size() != main.outputIndexes.size()) {
    return makeError(ErrorStatus::INVALID_ARGUMENT,
                     "partitioned model: request has %zu inputs / %zu outputs, the model %zu / %zu",
                     request.inputs.size(), request.outputs.size(), main.inputIndexes.size(),
                     main.outputIndexes.size());
  }
  std::unique_ptr<ExecutionState> local;
  State* st = static_cast<State*>(state);
  if (st == nullptr) {
    local = createExecutionState();
    st = static_cast<State*>(local.get());
  }
  std::vector<OutputShape> ownShapes;
  std::vector<OutputShape>& shapes = outputShapes != nullptr ? *outputShapes : ownShapes;
  shapes.resize(main.outputIndexes.size());
  for (size_t i = 0; i < shapes.size(); ++i) {
    const Dims& declared = request.outputs[i].dimensions;
    shapes[i].dimensions = declared.empty() ? main.operands[main.outputIndexes[i]].dimensions
                                            : declared;
    shapes[i].isSufficient = true;
  }
  Timing total{0, 0};
  for (size_t s = 0; s < steps_.size(); ++s) {
    // Checked between steps too: a device runs its step whole, however long it takes.
    if (options.deadlineNs != 0 && nowNs() > options.deadlineNs) {
      return makeError(ErrorStatus::MISSED_DEADLINE_PERSISTENT,
                       "execution: deadline passed before partition step %zu of %zu (%s)", s,
                       steps_.size(), steps_[s].device->name().c_str());
    }
    Status stepStatus = runStep(s, request, options, st, &shapes, &total);
    if (stepStatus.code() == kZeroSizedCrossing)
      return runWhole(request, options, st, outputShapes, timing, stepStatus.message());
    if (!stepStatus.ok()) return stepStatus;
  }
  if (timing != nullptr) *timing = options.measureTiming ? total : Timing{};
  return kOk;
}

Status PartitionedPreparedModel::runStep(size_t s, const Request& request,
                                         const ExecuteOptions& options, State* st,
                                         std::vector<OutputShape>* mainShapes,
                                         Timing* total) const {
  const Step& step = steps_[s];
  Request& r = st->requests[s];
  r.pools.assign(request.pools.begin(), request.pools.end());
  for (size_t k = 0; k < step.io.inputs.size(); ++k) {
    const StepIo& io = step.io.inputs[k];
    r.inputs[k] = io.mainInput >= 0 ? request.inputs[io.mainInput] : st->produced[io.temp];
  }
  for (size_t k = 0; k < step.io.outputs.size(); ++k) {
    const StepIo& io = step.io.outputs[k];
    RequestArgument& a = r.outputs[k];
    if (io.mainOutput >= 0 && (io.temp < 0 || !request.outputs[io.mainOutput].hasNoValue)) {
      // Straight into the caller's buffer; a later step reads it from there.
      a = request.outputs[io.mainOutput];
    } else {
      std::vector<uint8_t>& buf = st->buffers[io.temp];
      a.hasNoValue = false;
      a.location = DataLocation{buf.data(), 0, 0, static_cast<uint32_t>(buf.size())};
      a.dimensions.clear();
    }
  }
  std::vector<OutputShape>& shapes = st->stepShapes[s];
  for (int attempt = 0;; ++attempt) {
    Timing t;
    const Status status = step.prepared->execute(r, options, st->stepStates[s].get(), &shapes, &t);
    const bool insufficient = status.code() == ErrorStatus::OUTPUT_INSUFFICIENT_SIZE;
    if (!status.ok() && !insufficient) {
      return Status(status.code(),
                    formatString("partition step %zu (%s, %zu operations from #%u): %s", s,
                                 step.device->name().c_str(), step.operations.size(),
                                 step.operations.front(),
                                 status.message().empty() ? toString(status.code())
                                                          : status.message().c_str()));
    }
    // The driver's answer is checked before it sizes anything (plugins are untrusted).
    if (shapes.size() != step.io.outputs.size()) {
      return makeError(ErrorStatus::GENERAL_FAILURE,
                       "partition step %zu (%s): the driver returned %zu output shapes for %zu "
                       "outputs", s, step.device->name().c_str(), shapes.size(),
                       step.io.outputs.size());
    }
    bool mainShort = false, grew = false;
    for (size_t k = 0; k < shapes.size(); ++k) {
      const StepIo& io = step.io.outputs[k];
      const OutputShape& os = shapes[k];
      // Mirrors the set-up above: the runtime's buffer unless the caller's output is used.
      const bool inTemp =
          io.temp >= 0 && (io.mainOutput < 0 || request.outputs[io.mainOutput].hasNoValue);
      if (io.mainOutput >= 0) (*mainShapes)[io.mainOutput] = os;
      if (!os.isSufficient && !inTemp) {
        mainShort = true;
        continue;
      }
      if (os.isSufficient) {
        if (io.temp < 0 || insufficient) continue;
        // Where the next steps find it, with the dimensions it actually has.
        const CrossingValue& tv = temps_[io.temp];
        if (!os.dimensions.empty() && elementCount(os.dimensions) == 0) {
          return Status(kZeroSizedCrossing,
                        formatString("temporary operand %u is zero-sized (%s) after partition "
                                     "step %zu (%s)", tv.operand,
                                     toString(os.dimensions).c_str(), s,
                                     step.device->name().c_str()));
        }
        if (!isFullySpecified(tv.type, os.dimensions) ||
            byteSize(tv.type, os.dimensions) > r.outputs[k].location.length) {
          return makeError(ErrorStatus::GENERAL_FAILURE,
                           "partition step %zu (%s): output %zu reported shape %s, which does not "
                           "fit its %u-byte buffer", s, step.device->name().c_str(), k,
                           toString(os.dimensions).c_str(), r.outputs[k].location.length);
        }
        RequestArgument& p = st->produced[io.temp];
        p.hasNoValue = false;
        p.location = r.outputs[k].location;
        p.location.length = static_cast<uint32_t>(byteSize(tv.type, os.dimensions));
        p.dimensions.assign(os.dimensions.begin(), os.dimensions.end());
        continue;
      }
      // A temporary in the runtime's buffer: grow it to the reported shape and run again.
      const CrossingValue& tv = temps_[io.temp];
      if (!isFullySpecified(tv.type, os.dimensions)) {
        return makeError(ErrorStatus::GENERAL_FAILURE,
                         "partition step %zu (%s): output %zu is too small but the driver "
                         "reported no usable shape (%s)", s, step.device->name().c_str(), k,
                         toString(os.dimensions).c_str());
      }
      const size_t bytes = byteSize(tv.type, os.dimensions);
      if (bytes > UINT32_MAX) {
        return makeError(ErrorStatus::GENERAL_FAILURE,
                         "partition step %zu: temporary operand %u needs %zu bytes (over 4 GiB)",
                         s, tv.operand, bytes);
      }
      std::vector<uint8_t>& buf = st->buffers[io.temp];
      if (buf.size() < bytes) buf.resize(bytes);
      r.outputs[k].location = DataLocation{buf.data(), 0, 0, static_cast<uint32_t>(buf.size())};
      size_t hint = sizeHints_[io.temp].load(std::memory_order_relaxed);
      while (hint < bytes &&
             !sizeHints_[io.temp].compare_exchange_weak(hint, bytes, std::memory_order_relaxed)) {
      }
      grew = true;
    }
    if (mainShort) {
      return makeError(ErrorStatus::OUTPUT_INSUFFICIENT_SIZE,
                       "execution: an output buffer is too small for the computed output shape "
                       "(partition step %zu on %s)", s, step.device->name().c_str());
    }
    if (!insufficient) {
      if (options.measureTiming) {
        auto add = [](uint64_t* sum, uint64_t v) {
          *sum = (*sum == kNoTiming || v == kNoTiming) ? kNoTiming : *sum + v;
        };
        add(&total->timeOnDeviceNs, t.timeOnDeviceNs);
        add(&total->timeInDriverNs, t.timeInDriverNs);
      }
      return kOk;
    }
    if (!grew || attempt + 1 >= kMaxStepAttempts) {
      return makeError(ErrorStatus::GENERAL_FAILURE,
                       "partition step %zu (%s): the driver keeps reporting an output too small "
                       "after %d attempts", s, step.device->name().c_str(), attempt + 1);
    }
  }
}

Status PartitionedPreparedModel::runWhole(const Request& request, const ExecuteOptions& options,
                                          State* st, std::vector<OutputShape>* outputShapes,
                                          Timing* timing, const std::string& why) const {
  if (fallbackDevice_ == nullptr) {
    return makeError(ErrorStatus::GENERAL_FAILURE,
                     "execution: %s; NNAPI cannot pass a zero-sized tensor between devices and "
                     "no device of this compilation runs the whole model",
                     why.c_str());
  }
  std::call_once(fallbackOnce_, [&] {
    fallbackStatus_ = fallbackDevice_->prepareModel(model_, fallbackOptions_, &fallback_);
    if (fallbackStatus_.ok() && fallback_ == nullptr)
      fallbackStatus_ = makeError(ErrorStatus::GENERAL_FAILURE, "no prepared model returned");
    logInfo("execution: %s; this model now runs unsplit on %s when that happens",
            why.c_str(), fallbackDevice_->name().c_str());
  });
  if (!fallbackStatus_.ok()) {
    return makeError(fallbackStatus_.code(), "execution: %s; preparing the whole model on %s "
                     "failed: %s", why.c_str(), fallbackDevice_->name().c_str(),
                     fallbackStatus_.message().c_str());
  }
  if (st->fallbackState == nullptr) st->fallbackState = fallback_->createExecutionState();
  return fallback_->execute(request, options, st->fallbackState.get(), outputShapes, timing);
}

}  // namespace nn
