#include "cpu/prepared_model.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <map>

#include "cpu/thread_pool.h"
#include "hal/log.h"
#include "hal/validation.h"

namespace nn {
namespace {

constexpr size_t kArenaAlignment = 64;
constexpr size_t kNotInArena = SIZE_MAX;

size_t alignUp(size_t v, size_t a) { return (v + a - 1) / a * a; }

uint64_t nowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + ts.tv_nsec;
}

ThreadPool* sharedThreadPool() {
  // One pool per process: creating threads per compilation would make small models pay for
  // thread start-up, and executions of different compilations then share the cores fairly.
  static ThreadPool pool(ThreadPool::defaultThreadCount());
  return &pool;
}

struct AlignedFree {
  void operator()(uint8_t* p) const { free(p); }
};

// Per-execution storage: operand slots, the arena, and buffers for shapes known only at run time.
class CpuExecutionState : public ExecutionState {
 public:
  std::vector<OperandSlot> slots;
  std::unique_ptr<uint8_t, AlignedFree> arena;
  size_t arenaSize = 0;
  std::vector<std::vector<uint8_t>> dynamic;  // per operand, used when not in the arena
  std::vector<uint8_t> insufficient;          // per model output
  bool initialized = false;
};

// True when the inferred dims agree with the declared ones (0 = unknown, empty = unknown rank).
bool compatible(const Dims& declared, const Dims& actual) {
  if (declared.empty()) return true;
  if (declared.size() != actual.size()) return false;
  for (size_t i = 0; i < declared.size(); ++i)
    if (declared[i] != 0 && declared[i] != actual[i]) return false;
  return true;
}

}  // namespace

Status CpuPreparedModel::create(std::shared_ptr<const Model> model, bool referenceKernels,
                                std::shared_ptr<PreparedModel>* out) {
  std::shared_ptr<CpuPreparedModel> pm(new CpuPreparedModel());
  pm->model_ = std::move(model);
  pm->env_.threadPool = sharedThreadPool();
  pm->env_.relaxed = pm->model_->relaxComputationFloat32toFloat16;
  pm->env_.referenceKernels = referenceKernels;
  pm->env_.model = pm->model_.get();
  NN_RETURN_IF_ERROR(pm->prepare());
  *out = std::move(pm);
  return kOk;
}

Status CpuPreparedModel::prepare() {
  const Subgraph& sg = model_->main;
  if (!topologicalOrder(sg, &order_)) {
    logError("CPU driver: the model graph has a cycle");
    return ErrorStatus::INVALID_ARGUMENT;
  }
  const size_t numOperands = sg.operands.size();
  templateSlots_.assign(numOperands, OperandSlot{});
  for (size_t i = 0; i < numOperands; ++i) {
    const Operand& o = sg.operands[i];
    OperandSlot& s = templateSlots_[i];
    s.shape.type = o.type;
    s.shape.dims = o.dimensions;
    s.shape.scale = o.scale;
    s.shape.zeroPoint = o.zeroPoint;
    s.shape.channelQuant = o.channelQuant.get();
    switch (o.lifetime) {
      case Lifetime::CONSTANT_COPY:
        s.data = const_cast<uint8_t*>(model_->operandValues.data()) + o.location.offset;
        s.capacity = o.location.length;
        s.shapeKnown = true;
        s.isConstant = true;
        break;
      case Lifetime::CONSTANT_REFERENCE:
        s.data = model_->pools[o.location.poolIndex]->data() + o.location.offset;
        s.capacity = o.location.length;
        s.shapeKnown = true;
        s.isConstant = true;
        break;
      case Lifetime::NO_VALUE:
        s.omitted = true;
        s.shapeKnown = true;
        break;
      case Lifetime::SUBGRAPH_INPUT:
        s.shapeKnown = isFullySpecified(o.type, o.dimensions);
        break;
      case Lifetime::SUBGRAPH:
        s.shapeKnown = true;
        s.isConstant = true;
        break;
      default:
        s.shapeKnown = false;
    }
  }
  // Static shape inference in execution order.
  opStatic_.assign(sg.operations.size(), 0);
  states_.resize(sg.operations.size());
  fullyStatic_ = true;
  for (uint32_t opIndex : order_) {
    const Operation& op = sg.operations[opIndex];
    const OperationDef* def = findOperation(op.type);
    if (def == nullptr) {
      logError("CPU driver: operation #%u (%s) is not implemented", opIndex, toString(op.type));
      return ErrorStatus::INVALID_ARGUMENT;
    }
    bool inputsKnown = true;
    for (uint32_t in : op.inputs) {
      const OperandSlot& s = templateSlots_[in];
      if (!s.shapeKnown) inputsKnown = false;
      // Scalars that come from model inputs carry their values only at execution.
      if (!s.omitted && s.data == nullptr && isScalarType(s.shape.type) &&
          s.shape.type != OperandType::SUBGRAPH)
        inputsKnown = false;
    }
    Status s = kDeferred;
    if (inputsKnown) {
      OpContext ctx(op, opIndex, templateSlots_.data(), env_, &states_[opIndex]);
      s = def->prepare(ctx);
      if (s != kOk && s != kDeferred) return s;
    }
    if (s == kOk) {
      for (uint32_t outIndex : op.outputs) {
        OperandSlot& out = templateSlots_[outIndex];
        if (!out.shapeKnown) {
          logError("CPU driver: operation #%u (%s) did not infer the shape of operand %u", opIndex,
                   toString(op.type), outIndex);
          return ErrorStatus::GENERAL_FAILURE;
        }
        if (!compatible(sg.operands[outIndex].dimensions, out.shape.dims)) {
          logError("%s (operation #%u): output operand %u is declared %s but the inputs give %s",
                   toString(op.type), opIndex, outIndex,
                   toString(sg.operands[outIndex].dimensions).c_str(),
                   toString(out.shape.dims).c_str());
          return ErrorStatus::INVALID_ARGUMENT;
        }
      }
      opStatic_[opIndex] = 1;
    } else {
      fullyStatic_ = false;
      for (uint32_t outIndex : op.outputs) templateSlots_[outIndex].shapeKnown = false;
    }
  }
  for (uint32_t opIndex : order_) {
    const Operation& op = sg.operations[opIndex];
    const OperationDef* def = findOperation(op.type);
    if (def->init != nullptr) {
      OpContext ctx(op, opIndex, templateSlots_.data(), env_, &states_[opIndex]);
      NN_RETURN_IF_ERROR(def->init(ctx));
    }
  }
  planArena();
  return kOk;
}

void CpuPreparedModel::planArena() {
  const Subgraph& sg = model_->main;
  const size_t numOperands = sg.operands.size();
  arenaOffset_.assign(numOperands, kNotInArena);
  // Live interval of each statically-shaped temporary, in execution steps.
  std::vector<int64_t> first(numOperands, -1), last(numOperands, -1);
  for (size_t step = 0; step < order_.size(); ++step) {
    const Operation& op = sg.operations[order_[step]];
    for (uint32_t o : op.outputs)
      if (first[o] < 0) first[o] = static_cast<int64_t>(step);
    for (uint32_t i : op.inputs) last[i] = static_cast<int64_t>(step);
  }
  struct Item {
    uint32_t operand;
    size_t size;
  };
  std::vector<Item> items;
  for (uint32_t i = 0; i < numOperands; ++i) {
    const OperandSlot& s = templateSlots_[i];
    if (sg.operands[i].lifetime != Lifetime::TEMPORARY_VARIABLE || !s.shapeKnown || first[i] < 0)
      continue;
    if (last[i] < first[i]) last[i] = first[i];  // written but never read
    items.push_back({i, alignUp(std::max<size_t>(s.shape.bytes(), 1), kArenaAlignment)});
  }
  // Largest first, each at the lowest offset that does not collide with a placed buffer
  // whose live interval overlaps.
  std::stable_sort(items.begin(), items.end(),
                   [](const Item& a, const Item& b) { return a.size > b.size; });
  struct Placed {
    size_t offset, size;
    int64_t first, last;
  };
  std::vector<Placed> placed;
  arenaSize_ = 0;
  for (const Item& item : items) {
    std::vector<std::pair<size_t, size_t>> busy;
    for (const Placed& p : placed)
      if (!(p.last < first[item.operand] || last[item.operand] < p.first))
        busy.push_back({p.offset, p.offset + p.size});
    std::sort(busy.begin(), busy.end());
    size_t offset = 0;
    for (const auto& b : busy) {
      if (offset + item.size <= b.first) break;
      offset = std::max(offset, b.second);
    }
    arenaOffset_[item.operand] = offset;
    placed.push_back({offset, item.size, first[item.operand], last[item.operand]});
    arenaSize_ = std::max(arenaSize_, offset + item.size);
  }
}

std::unique_ptr<ExecutionState> CpuPreparedModel::createExecutionState() const {
  {
    std::lock_guard<std::mutex> lock(poolMutex_);
    if (!statePool_.empty()) {
      std::unique_ptr<ExecutionState> st = std::move(statePool_.back());
      statePool_.pop_back();
      return st;
    }
  }
  auto st = std::make_unique<CpuExecutionState>();
  st->slots = templateSlots_;
  st->arenaSize = arenaSize_;
  if (arenaSize_ > 0)
    st->arena.reset(static_cast<uint8_t*>(aligned_alloc(kArenaAlignment, alignUp(arenaSize_, kArenaAlignment))));
  st->dynamic.resize(templateSlots_.size());
  st->insufficient.assign(model_->main.outputIndexes.size(), 0);
  st->initialized = true;
  return st;
}

void CpuPreparedModel::recycleExecutionState(std::unique_ptr<ExecutionState> state) const {
  constexpr size_t kMaxPooledStates = 4;
  if (state == nullptr) return;
  std::lock_guard<std::mutex> lock(poolMutex_);
  if (statePool_.size() < kMaxPooledStates) statePool_.push_back(std::move(state));
}

Status CpuPreparedModel::execute(const Request& request, const ExecuteOptions& options,
                                 ExecutionState* externalState,
                                 std::vector<OutputShape>* outputShapes, Timing* timing) const {
  const uint64_t start = options.measureTiming ? nowNs() : 0;
  const Subgraph& sg = model_->main;
  std::unique_ptr<ExecutionState> localState;
  CpuExecutionState* st = static_cast<CpuExecutionState*>(externalState);
  if (st == nullptr || !st->initialized) {
    localState = createExecutionState();
    st = static_cast<CpuExecutionState*>(localState.get());
  }
  if (request.inputs.size() != sg.inputIndexes.size() ||
      request.outputs.size() != sg.outputIndexes.size()) {
    logError("CPU driver: request has %zu inputs / %zu outputs, the model %zu / %zu",
             request.inputs.size(), request.outputs.size(), sg.inputIndexes.size(),
             sg.outputIndexes.size());
    return ErrorStatus::INVALID_ARGUMENT;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<OperandSlot>& slots = st->slots;
  if (!fullyStatic_) slots = templateSlots_;  // shapes are re-inferred every run
  // Static temporaries live in the arena.
  for (size_t i = 0; i < slots.size(); ++i) {
    if (arenaOffset_[i] != kNotInArena) {
      slots[i].data = st->arena.get() + arenaOffset_[i];
      slots[i].capacity = st->arenaSize - arenaOffset_[i];
    }
  }
  auto resolve = [&](const RequestArgument& arg) -> uint8_t* {
    if (arg.location.pointer != nullptr) return static_cast<uint8_t*>(arg.location.pointer);
    if (arg.location.poolIndex >= request.pools.size()) return nullptr;
    const Memory* m = request.pools[arg.location.poolIndex];
    if (!m->contains(arg.location.offset, arg.location.length)) return nullptr;
    return m->data() + arg.location.offset;
  };
  for (size_t i = 0; i < sg.inputIndexes.size(); ++i) {
    const RequestArgument& arg = request.inputs[i];
    OperandSlot& s = slots[sg.inputIndexes[i]];
    const Operand& o = sg.operands[sg.inputIndexes[i]];
    if (arg.hasNoValue) {
      s.omitted = true;
      s.data = nullptr;
      s.capacity = 0;
      s.shapeKnown = true;
      continue;
    }
    s.omitted = false;
    s.data = resolve(arg);
    s.capacity = arg.location.length;
    if (!arg.dimensions.empty()) s.shape.dims = arg.dimensions;
    else s.shape.dims = o.dimensions;
    if (!isFullySpecified(o.type, s.shape.dims)) {
      logError("execution: input %zu (operand %u) has unspecified dimensions %s; pass them with "
               "the type argument of setInput", i, sg.inputIndexes[i], toString(s.shape.dims).c_str());
      return ErrorStatus::INVALID_ARGUMENT;
    }
    if (s.data == nullptr && s.shape.bytes() > 0) {
      logError("execution: input %zu has no data", i);
      return ErrorStatus::INVALID_ARGUMENT;
    }
    if (s.shape.bytes() > s.capacity) {
      logError("execution: input %zu needs %zu bytes for %s but the buffer has %zu", i,
               s.shape.bytes(), toString(s.shape.dims).c_str(), s.capacity);
      return ErrorStatus::INVALID_ARGUMENT;
    }
    s.shapeKnown = true;
  }
  // Model outputs are written straight into the caller's buffers when they fit.
  std::fill(st->insufficient.begin(), st->insufficient.end(), 0);
  for (size_t i = 0; i < sg.outputIndexes.size(); ++i) {
    const RequestArgument& arg = request.outputs[i];
    OperandSlot& s = slots[sg.outputIndexes[i]];
    if (arg.hasNoValue) {
      s.data = nullptr;
      s.capacity = 0;
    } else {
      s.data = resolve(arg);
      s.capacity = arg.location.length;
    }
    if (fullyStatic_ && (s.data == nullptr || s.shape.bytes() > s.capacity)) {
      if (!arg.hasNoValue && s.shape.bytes() > s.capacity) st->insufficient[i] = 1;
      std::vector<uint8_t>& scratch = st->dynamic[sg.outputIndexes[i]];
      scratch.resize(std::max<size_t>(s.shape.bytes(), 1));
      s.data = scratch.data();
      s.capacity = scratch.size();
    }
  }
  auto outputIndexOf = [&](uint32_t operand) -> int {
    for (size_t i = 0; i < sg.outputIndexes.size(); ++i)
      if (sg.outputIndexes[i] == operand) return static_cast<int>(i);
    return -1;
  };

  ExecutionEnv env = env_;
  env.loopTimeoutNs = options.loopTimeoutNs;
  for (uint32_t opIndex : order_) {
    const Operation& op = sg.operations[opIndex];
    const OperationDef* def = findOperation(op.type);
    OpContext ctx(op, opIndex, slots.data(), env, &states_[opIndex]);
    if (!opStatic_[opIndex]) {
      for (uint32_t in : op.inputs) {
        if (!slots[in].shapeKnown) {
          logError("%s (operation #%u): input operand %u has no shape", toString(op.type), opIndex, in);
          return ErrorStatus::GENERAL_FAILURE;
        }
      }
      const Status ps = def->prepare(ctx);
      if (ps != kOk) {
        if (ps == kDeferred) {
          logError("%s (operation #%u): could not infer output shapes", toString(op.type), opIndex);
          return ErrorStatus::GENERAL_FAILURE;
        }
        return ps;
      }
      for (uint32_t outIndex : op.outputs) {
        OperandSlot& out = slots[outIndex];
        const int pos = outputIndexOf(outIndex);
        const Dims& declared = pos >= 0 && !request.outputs[pos].dimensions.empty()
                                   ? request.outputs[pos].dimensions
                                   : sg.operands[outIndex].dimensions;
        if (!out.shapeKnown || !compatible(declared, out.shape.dims)) {
          logError("%s (operation #%u): output operand %u is declared %s but the inputs give %s",
                   toString(op.type), opIndex, outIndex, toString(declared).c_str(),
                   toString(out.shape.dims).c_str());
          return ErrorStatus::INVALID_ARGUMENT;
        }
        const size_t bytes = out.shape.bytes();
        if (pos >= 0 && out.data != nullptr && bytes <= out.capacity) continue;
        if (pos >= 0 && !request.outputs[pos].hasNoValue) st->insufficient[pos] = 1;
        std::vector<uint8_t>& buf = st->dynamic[outIndex];
        if (buf.size() < std::max<size_t>(bytes, 1)) buf.resize(std::max<size_t>(bytes, 1));
        out.data = buf.data();
        out.capacity = buf.size();
      }
    }
    const Status es = def->execute(ctx);
    if (es != kOk) return es;
    if (options.deadlineNs != 0 && nowNs() > options.deadlineNs) {
      logError("execution: deadline passed after operation #%u", opIndex);
      return ErrorStatus::MISSED_DEADLINE_PERSISTENT;
    }
  }
  bool anyInsufficient = false;
  if (outputShapes != nullptr) outputShapes->resize(sg.outputIndexes.size());
  for (size_t i = 0; i < sg.outputIndexes.size(); ++i) {
    const bool sufficient = st->insufficient[i] == 0;
    anyInsufficient |= !sufficient;
    if (outputShapes != nullptr) {
      OutputShape& os = (*outputShapes)[i];
      os.dimensions = slots[sg.outputIndexes[i]].shape.dims;
      os.isSufficient = sufficient;
    }
  }
  if (timing != nullptr) {
    if (options.measureTiming) {
      const uint64_t elapsed = nowNs() - start;
      timing->timeOnDeviceNs = elapsed;
      timing->timeInDriverNs = elapsed;
    } else {
      *timing = Timing{};
    }
  }
  if (anyInsufficient) {
    logError("execution: an output buffer is too small for the computed output shape");
    return ErrorStatus::OUTPUT_INSUFFICIENT_SIZE;
  }
  return kOk;
}

}  // namespace nn
