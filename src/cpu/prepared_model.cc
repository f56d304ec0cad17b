#include "cpu/prepared_model.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <map>

#include "cpu/graph_fusion.h"
#include "cpu/kernels/conv_add.h"
#include "cpu/kernels/expand_depthwise.h"
#include "cpu/memory_limits.h"
#include "cpu/prefaulted_buffer.h"
#include "cpu/thread_pool.h"
#include "hal/log.h"
#include "spec/catalog.h"
#include "spec/model_validation.h"

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

struct AlignedFree {
  void operator()(uint8_t* p) const { free(p); }
};

}  // namespace

// Per-execution storage: operand slots, the arena, buffers for shapes known only at run time,
// and each operation's scratch (main graph and referenced subgraphs).
class CpuExecutionState : public ExecutionState {
 public:
  std::vector<std::unique_ptr<OpScratch>> scratch;
  std::vector<std::vector<std::unique_ptr<OpScratch>>> referencedScratch;
  std::vector<OperandSlot> slots;
  std::unique_ptr<uint8_t, AlignedFree> arena;
  size_t arenaSize = 0;
  std::vector<std::vector<uint8_t>> dynamic;  // per operand, used when not in the arena
  std::vector<uint8_t> insufficient;          // per model output
  bool initialized = false;
  bool slotsFromTemplate = true;  // false after a run that re-inferred shapes

  // Points the slots of the plan's static temporaries into the arena.
  void bindArena(const std::vector<size_t>& arenaOffset) {
    for (size_t i = 0; i < slots.size(); ++i) {
      if (arenaOffset[i] == kNotInArena) continue;
      slots[i].data = arena.get() + arenaOffset[i];
      slots[i].capacity = arenaSize - arenaOffset[i];
    }
  }
};

// IF/WHILE run referenced subgraphs through this, bound to one execution.
class ExecutionRunner : public SubgraphRunner {
 public:
  ExecutionRunner(const CpuPreparedModel* pm, CpuExecutionState* st, const ExecutionEnv& env)
      : pm_(pm), st_(st), env_(env) {
    env_.runner = this;
  }
  const ExecutionEnv& env() const { return env_; }
  size_t inputCount(uint32_t subgraph) const override {
    return subgraph < pm_->referenced_.size()
               ? pm_->referenced_[subgraph].subgraph->inputIndexes.size()
               : 0;
  }
  size_t outputCount(uint32_t subgraph) const override {
    return subgraph < pm_->referenced_.size()
               ? pm_->referenced_[subgraph].subgraph->outputIndexes.size()
               : 0;
  }
  Status run(uint32_t subgraph, const std::vector<const OperandSlot*>& inputs,
             std::vector<OwnedTensor>* outputs) const override {
    return pm_->runReferenced(subgraph, inputs, outputs, st_, env_);
  }

 private:
  const CpuPreparedModel* pm_;
  CpuExecutionState* st_;
  ExecutionEnv env_;
};

namespace {

// Output shapes of one operation: the kernel's own run-time resolution where it has one
// (data-dependent shapes), the catalog's inference otherwise.
Status inferOutputShapes(const CpuKernel& kernel, const OperationSpec& spec, OpContext& ctx) {
  return kernel.resolveShapes ? kernel.resolveShapes(ctx) : spec.inferShapes(ctx);
}

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
                                int threads, std::shared_ptr<PreparedModel>* out) {
  std::shared_ptr<CpuPreparedModel> pm(new CpuPreparedModel());
  // The fast device runs the graph with activations and paddings fused into their
  // neighbours (same values; cpu/graph_fusion.h); the reference device runs it as given.
  if (!referenceKernels && cpuFusionEnabled()) {
    std::shared_ptr<const Model> fused = fuseForCpu(model, nullptr);
    if (fused != nullptr) model = std::move(fused);
  }
  pm->model_ = std::move(model);
  pm->env_.threadPool = ThreadPool::shared(threads);
  pm->env_.relaxed = pm->model_->relaxComputationFloat32toFloat16;
  pm->reference_ = referenceKernels;
  // Referenced subgraphs get their shapes at run time from their callers (IF/WHILE).
  pm->referenced_.resize(pm->model_->referenced.size());
  for (size_t i = 0; i < pm->model_->referenced.size(); ++i)
    NN_RETURN_IF_ERROR(pm->buildPlan(pm->model_->referenced[i], false, &pm->referenced_[i]));
  NN_RETURN_IF_ERROR(pm->buildPlan(pm->model_->main, true, &pm->main_));
  pm->warmFirstExecutionState();
  *out = std::move(pm);
  return kOk;
}

namespace {

// Moves each MAX_POOL_2D / AVERAGE_POOL_2D whose data input is also read by other operations
// to right after the last producer of its inputs. The topological order follows one branch
// to its end first, so a pooled shortcut (hand_landmark_lite: 112x112x16 read by the 1x1
// expansion and by the pool of the residual branch) otherwise ran after the 3.2 MB expansion,
// its stride-2 depthwise and the projection, and read its input back from L3; hoisted, it reads
// it while it is in L2 and the expansion's output stays in L2 for the depthwise (1 thread:
// pool 0.77x, depthwise 0.93x the time). Only the order changes, no value.
// Quadratic in the number of operations (a scan and a move per pool), so only for graphs of the
// size real models have: a hostile graph of 100k pools would otherwise take seconds here.
constexpr size_t kMaxHoistOperations = 4096;
void hoistSharedPools(const Subgraph& sg, std::vector<uint32_t>* order) {
  if (sg.operations.size() > kMaxHoistOperations) return;
  std::vector<int64_t> writer(sg.operands.size(), -1);
  std::vector<uint32_t> readers(sg.operands.size(), 0);
  for (uint32_t i = 0; i < sg.operations.size(); ++i) {
    for (uint32_t o : sg.operations[i].outputs)
      if (o < writer.size()) writer[o] = i;
    for (uint32_t in : sg.operations[i].inputs)
      if (in < readers.size()) ++readers[in];
  }
  std::vector<size_t> position(sg.operations.size());
  for (size_t qi = 0; qi < order->size(); ++qi) {
    const Operation& op = sg.operations[(*order)[qi]];
    if ((op.type != OperationType::MAX_POOL_2D && op.type != OperationType::AVERAGE_POOL_2D) ||
        op.inputs.empty() || op.inputs[0] >= readers.size() || readers[op.inputs[0]] < 2)
      continue;
    for (size_t i = 0; i < qi; ++i) position[(*order)[i]] = i;
    size_t target = 0;  // first position after every producer of the pool's inputs
    for (uint32_t in : op.inputs)
      if (in < writer.size() && writer[in] >= 0)
        target = std::max(target, position[static_cast<size_t>(writer[in])] + 1);
    if (target >= qi) continue;
    const uint32_t q = (*order)[qi];
    order->erase(order->begin() + static_cast<ptrdiff_t>(qi));
    order->insert(order->begin() + static_cast<ptrdiff_t>(target), q);
  }
}

// Static temporaries larger than maxOperandBytes() (or together larger than it) fail the
// preparation with a clear error rather than an allocation failure at execution.
Status planArena(SubgraphPlan* plan) {
  const Subgraph& sg = *plan->subgraph;
  const size_t numOperands = sg.operands.size();
  plan->arenaOffset.assign(numOperands, kNotInArena);
  // Live interval of each statically-shaped temporary, in execution steps.
  std::vector<int64_t> first(numOperands, -1), last(numOperands, -1);
  for (size_t step = 0; step < plan->order.size(); ++step) {
    const Operation& op = sg.operations[plan->order[step]];
    for (uint32_t o : op.outputs)
      if (first[o] < 0) first[o] = static_cast<int64_t>(step);
    for (uint32_t i : op.inputs) last[i] = static_cast<int64_t>(step);
    // A fused depthwise step reads the expansion's input (runOperations).
    if (!plan->fusedExpansion.empty() &&
        plan->fusedExpansion[plan->order[step]] != SubgraphPlan::kNoPartner)
      last[sg.operations[plan->fusedExpansion[plan->order[step]]].inputs[0]] =
          static_cast<int64_t>(step);
    // A fused ADD step reads the skipped PAD's input too, a fused projection step the stem's.
    if (!plan->thirdOp.empty() &&
        plan->thirdOp[plan->order[step]] != SubgraphPlan::kNoPartner)
      last[sg.operations[plan->thirdOp[plan->order[step]]].inputs[0]] =
          static_cast<int64_t>(step);
  }
  // A float32 ADD / SUB / MUL / DIV without broadcasting one of whose inputs is a temporary read
  // for the last time there writes its output over that input (out[i] depends only on the
  // inputs' element i, and every kernel reads element i before writing it): the output joins
  // the input's buffer, whose interval then extends over the output's. The residual ADDs of
  // the MediaPipe models otherwise stream a third tensor (face_detection_full_range's
  // 96x96x32 ADDs: 1.2 MB each, read back from beyond L2).
  auto temporary = [&](uint32_t i) {
    return sg.operands[i].lifetime == Lifetime::TEMPORARY_VARIABLE &&
           plan->templateSlots[i].shapeKnown && first[i] >= 0;
  };
  std::vector<uint32_t> group(numOperands);
  for (uint32_t i = 0; i < numOperands; ++i) group[i] = i;
  for (size_t step = 0; step < plan->order.size(); ++step) {
    const Operation& op = sg.operations[plan->order[step]];
    if (op.type != OperationType::ADD && op.type != OperationType::SUB &&
        op.type != OperationType::MUL && op.type != OperationType::DIV)
      continue;
    if (op.inputs.size() < 2 || op.outputs.size() != 1) continue;
    const uint32_t o = op.outputs[0];
    const auto diesHere = [&](uint32_t i) {
      return temporary(i) && last[i] == static_cast<int64_t>(step) &&
             first[i] < static_cast<int64_t>(step);
    };
    // The first input when it dies here, else the second (a residual ADD's either operand).
    bool firstDies = diesHere(op.inputs[0]);
    // An ADD run with the 1x1 CONV_2D writing one of its inputs in float32 (kConvAdd,
    // kConvResidual: addOverConvOutput) writes over that convolution's output, which is never
    // written then: not over the shortcut, which its kernels read in the rows just before they
    // write them (where a vector's tail is masked, a store and the next row's load overlap in
    // address range and the load waits for the store; face_detection_short_range's float32
    // 64x64x24 block took 73 us in place over the shortcut, 44 us apart from it).
    const uint32_t opIndex = plan->order[step];
    if (!plan->addOverConvOutput.empty() && plan->addOverConvOutput[opIndex]) {
      const uint32_t convOut = sg.operations[plan->fusedExpansion[opIndex]].outputs[0];
      if (op.inputs[0] != convOut && op.inputs[1] != convOut) continue;
      firstDies = op.inputs[0] == convOut;
    }
    const uint32_t x = firstDies ? op.inputs[0] : op.inputs[1];
    const uint32_t y = firstDies ? op.inputs[1] : op.inputs[0];
    if (x == y || !diesHere(x) || !temporary(o) || first[o] != static_cast<int64_t>(step))
      continue;
    const OperandSlot &sx = plan->templateSlots[x], &so = plan->templateSlots[o],
                      &sy = plan->templateSlots[y];
    if (so.shape.type != OperandType::TENSOR_FLOAT32 || sx.shape.type != so.shape.type ||
        !sy.shapeKnown || sx.shape.dims != so.shape.dims || sy.shape.dims != so.shape.dims)
      continue;
    group[o] = group[x];
  }
  // Each group's interval: from its first member's first step to its last member's last.
  std::vector<int64_t> groupFirst(first), groupLast(last);
  for (uint32_t i = 0; i < numOperands; ++i) {
    if (!temporary(i)) continue;
    const uint32_t g = group[i];
    if (g == i) continue;
    groupFirst[g] = std::min(groupFirst[g], first[i]);
    groupLast[g] = std::max({groupLast[g], last[i], first[i]});
  }
  struct Item {
    uint32_t operand;
    size_t size;
  };
  std::vector<Item> items;
  for (uint32_t i = 0; i < numOperands; ++i) {
    const OperandSlot& s = plan->templateSlots[i];
    if (sg.operands[i].lifetime != Lifetime::TEMPORARY_VARIABLE || !s.shapeKnown || first[i] < 0)
      continue;
    if (s.shape.bytes() > maxOperandBytes()) {
      return makeError(ErrorStatus::GENERAL_FAILURE,
                       "CPU driver: temporary operand %u of shape %s would need more than the "
                       "limit of %zu bytes (NNAPI_MAX_OPERAND_BYTES)",
                       i, toString(s.shape.dims).c_str(), maxOperandBytes());
    }
    if (group[i] != i) continue;  // placed with its group's first member
    first[i] = groupFirst[i];
    last[i] = std::max(groupLast[i], first[i]);  // written but never read: its own step
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
  plan->arenaSize = 0;
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
    plan->arenaOffset[item.operand] = offset;
    for (uint32_t i = 0; i < numOperands; ++i)
      if (group[i] == item.operand && i != item.operand) plan->arenaOffset[i] = offset;
    placed.push_back({offset, item.size, first[item.operand], last[item.operand]});
    plan->arenaSize = std::max(plan->arenaSize, offset + item.size);
    if (plan->arenaSize > maxOperandBytes()) {
      return makeError(ErrorStatus::GENERAL_FAILURE,
                       "CPU driver: the model's temporaries need more than the limit of %zu "
                       "bytes at once (NNAPI_MAX_OPERAND_BYTES)",
                       maxOperandBytes());
    }
  }
  return kOk;
}

// Runs a plan's operations over `slots`. With a request (the main graph), model outputs are
// written to the caller's buffers when they fit and flagged in `insufficient` otherwise.
// `reprepareAll` re-infers every shape (used when an input the plan assumed present is omitted).
Status runOperations(const SubgraphPlan& plan, std::vector<OperandSlot>& slots,
                     std::vector<std::vector<uint8_t>>& dynamic, const ExecutionEnv& runEnv,
                     const Request* request, uint8_t* insufficient, bool reprepareAll,
                     std::vector<std::unique_ptr<OpScratch>>& scratch,
                     ThreadPool::ExecutionSample* poolSample = nullptr) {
  const Subgraph& sg = *plan.subgraph;
  // The pool may change between operations (contention adaptation, cpu/contention.h).
  ExecutionEnv env = runEnv;
  // Fused expansion + depthwise pairs (CpuPreparedModel::pairExpansions) run at the depthwise
  // step; not when shapes are inferred again (they were planned for the static ones).
  const bool pairs = !plan.fusedExpansion.empty() && !reprepareAll;
  for (uint32_t opIndex : plan.order) {
    if (pairs && plan.runByPartner[opIndex]) continue;
    if (poolSample != nullptr && env.threadPool != nullptr)
      env.threadPool = env.threadPool->checkExecution(poolSample);
    const Operation& op = sg.operations[opIndex];
    const OperationSpec& spec = *plan.specs[opIndex];
    const CpuKernel& kernel = *plan.kernels[opIndex];
    OpContext ctx(op, opIndex, slots.data(), env, plan.states[opIndex].get(), &scratch[opIndex]);
    if (reprepareAll || !plan.opStatic[opIndex]) {
      for (uint32_t i = 0; i < op.inputs.size(); ++i) {
        if (slots[op.inputs[i]].omitted && !inputMayBeOmitted(spec, i)) {
          return makeError(ErrorStatus::INVALID_ARGUMENT,
                           "%s (operation #%u): input %u (operand %u) is required but was omitted",
                           toString(op.type), opIndex, i, op.inputs[i]);
        }
      }
      for (uint32_t in : op.inputs) {
        if (!slots[in].shapeKnown) {
          return makeError(ErrorStatus::GENERAL_FAILURE,
                           "%s (operation #%u): input operand %u has no shape", toString(op.type),
                           opIndex, in);
        }
      }
      const Status ps = inferOutputShapes(kernel, spec, ctx);
      if (ps != kOk) {
        if (ps == kDeferred) {
          return makeError(ErrorStatus::GENERAL_FAILURE,
                           "%s (operation #%u): could not infer output shapes", toString(op.type),
                           opIndex);
        }
        return ps;
      }
      for (uint32_t outIndex : op.outputs) {
        OperandSlot& out = slots[outIndex];
        const int pos = plan.outputPosition[outIndex];
        const Dims& declared = request != nullptr && pos >= 0 &&
                                       !request->outputs[pos].dimensions.empty()
                                   ? request->outputs[pos].dimensions
                                   : sg.operands[outIndex].dimensions;
        if (!out.shapeKnown || !compatible(declared, out.shape.dims)) {
          return makeError(
              ErrorStatus::INVALID_ARGUMENT,
              "%s (operation #%u): output operand %u is declared %s but the inputs give %s",
              toString(op.type), opIndex, outIndex, toString(declared).c_str(),
              toString(out.shape.dims).c_str());
        }
        const size_t bytes = out.shape.bytes();
        if (request != nullptr && pos >= 0) {
          if (out.data != nullptr && bytes <= out.capacity) continue;
          if (!request->outputs[pos].hasNoValue) {
            // Stop before computing a tensor the caller cannot receive (it may be huge); the
            // caller reports the shapes known so far.
            insufficient[pos] = 1;
            return makeError(ErrorStatus::OUTPUT_INSUFFICIENT_SIZE,
                             "%s (operation #%u): output %d (operand %u) needs %zu bytes for "
                             "%s, the buffer has %zu",
                             toString(op.type), opIndex, pos, outIndex, bytes,
                             toString(out.shape.dims).c_str(), out.capacity);
          }
        }
        if (bytes > maxOperandBytes()) {
          return makeError(ErrorStatus::GENERAL_FAILURE,
                           "%s (operation #%u): output operand %u of shape %s would need %s "
                           "bytes, more than the limit of %zu (NNAPI_MAX_OPERAND_BYTES)",
                           toString(op.type), opIndex, outIndex, toString(out.shape.dims).c_str(),
                           bytes == SIZE_MAX ? "more than 2^64" : formatString("%zu", bytes).c_str(),
                           maxOperandBytes());
        }
        std::vector<uint8_t>& buf = dynamic[outIndex];
        if (buf.size() < std::max<size_t>(bytes, 1)) buf.resize(std::max<size_t>(bytes, 1));
        out.data = buf.data();
        out.capacity = buf.size();
      }
    }
    Status es = kOk;
    if (pairs && plan.fusedExpansion[opIndex] != SubgraphPlan::kNoPartner) {
      const uint32_t c = plan.fusedExpansion[opIndex];
      OpContext convCtx(sg.operations[c], c, slots.data(), env, plan.states[c].get(),
                        &scratch[c]);
      switch (plan.pairKind[opIndex]) {
        case SubgraphPlan::kExpandDepthwise:
          es = runExpandDepthwise(convCtx, ctx);
          break;
        case SubgraphPlan::kDepthwiseProject: {
          const uint32_t st = plan.thirdOp[opIndex];
          if (st != SubgraphPlan::kNoPartner) {
            OpContext stemCtx(sg.operations[st], st, slots.data(), env, plan.states[st].get(),
                              &scratch[st]);
            es = runDepthwiseProject(convCtx, ctx, &stemCtx);
          } else {
            es = runDepthwiseProject(convCtx, ctx);
          }
          break;
        }
        case SubgraphPlan::kConvAdd:
          es = runConvAdd(*plan.convAdds[opIndex], convCtx, ctx);
          break;
        case SubgraphPlan::kHalfBlock: {
          const SubgraphPlan::HalfBlockStep& b = plan.halfBlocks[opIndex];
          OpContext dwCtx(sg.operations[b.depthwise], b.depthwise, slots.data(), env,
                          plan.states[b.depthwise].get(), &scratch[b.depthwise]);
          if (b.project == opIndex) {
            es = runHalfBlock(*b.weights, convCtx, dwCtx, ctx, nullptr);
          } else {
            OpContext projectCtx(sg.operations[b.project], b.project, slots.data(), env,
                                 plan.states[b.project].get(), &scratch[b.project]);
            es = runHalfBlock(*b.weights, convCtx, dwCtx, projectCtx, &ctx);
          }
          break;
        }
        case SubgraphPlan::kConvResidual: {
          const uint32_t p = plan.thirdOp[opIndex];
          if (p != SubgraphPlan::kNoPartner) {
            OpContext padCtx(sg.operations[p], p, slots.data(), env, plan.states[p].get(),
                             &scratch[p]);
            es = runConvResidual(convCtx, ctx, &padCtx);
          } else {
            es = runConvResidual(convCtx, ctx, nullptr);
          }
          break;
        }
      }
    } else {
      es = plan.execute[opIndex](ctx);
    }
    if (es != kOk) return es;
    if (env.deadlineNs != 0 && nowNs() > env.deadlineNs) {
      return makeError(ErrorStatus::MISSED_DEADLINE_PERSISTENT,
                       "execution: deadline passed after operation #%u (%s)", opIndex,
                       toString(op.type));
    }
  }
  return kOk;
}

}  // namespace

Status CpuPreparedModel::buildPlan(const Subgraph& sg, bool inferShapes, SubgraphPlan* plan) {
  plan->subgraph = &sg;
  if (!topologicalOrder(sg, &plan->order)) {
    return makeError(ErrorStatus::INVALID_ARGUMENT, "CPU driver: the model graph has a cycle");
  }
  hoistSharedPools(sg, &plan->order);
  const size_t numOperands = sg.operands.size();
  plan->outputPosition.assign(numOperands, -1);
  for (size_t i = 0; i < sg.outputIndexes.size(); ++i)
    plan->outputPosition[sg.outputIndexes[i]] = static_cast<int32_t>(i);
  std::vector<OperandSlot>& slots = plan->templateSlots;
  slots.assign(numOperands, OperandSlot{});
  for (size_t i = 0; i < numOperands; ++i) {
    const Operand& o = sg.operands[i];
    OperandSlot& s = slots[i];
    s.shape = shapeOf(o);
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
        s.shapeKnown = inferShapes && isFullySpecified(o.type, o.dimensions);
        break;
      case Lifetime::SUBGRAPH:
        s.shapeKnown = true;
        s.isConstant = true;
        s.subgraph = static_cast<int32_t>(o.location.offset);
        break;
      default:
        s.shapeKnown = false;
    }
  }
  plan->specs.assign(sg.operations.size(), nullptr);
  plan->kernels.assign(sg.operations.size(), nullptr);
  plan->execute.assign(sg.operations.size(), nullptr);
  for (uint32_t opIndex = 0; opIndex < sg.operations.size(); ++opIndex) {
    const OperationType type = sg.operations[opIndex].type;
    const OperationSpec* spec = findOperationSpec(type);
    const CpuKernel* kernel = findCpuKernel(type);
    if (spec == nullptr || kernel == nullptr)
      return makeError(ErrorStatus::INVALID_ARGUMENT,
                       "CPU driver: operation #%u (%s) is not implemented", opIndex,
                       operationName(type).c_str());
    plan->specs[opIndex] = spec;
    plan->kernels[opIndex] = kernel;
    // The reference device runs the simple kernel where an operation has a separate one.
    plan->execute[opIndex] = reference_ && kernel->executeReference
                                 ? kernel->executeReference
                                 : kernel->execute;
  }
  plan->opStatic.assign(sg.operations.size(), 0);
  plan->states.clear();
  plan->states.resize(sg.operations.size());
  plan->fullyStatic = inferShapes;
  for (uint32_t opIndex : plan->order) {
    const Operation& op = sg.operations[opIndex];
    bool inputsKnown = inferShapes;
    for (uint32_t in : op.inputs) {
      const OperandSlot& s = slots[in];
      if (!s.shapeKnown) inputsKnown = false;
      // Scalars that come from model inputs carry their values only at execution.
      if (!s.omitted && s.data == nullptr && isScalarType(s.shape.type) &&
          s.shape.type != OperandType::SUBGRAPH)
        inputsKnown = false;
    }
    Status s = kDeferred;
    if (inputsKnown) {
      OpContext ctx(op, opIndex, slots.data(), env_, &plan->states[opIndex]);
      s = inferOutputShapes(*plan->kernels[opIndex], *plan->specs[opIndex], ctx);
      if (s != kOk && s != kDeferred) return s;
    }
    if (s == kOk) {
      for (uint32_t outIndex : op.outputs) {
        OperandSlot& out = slots[outIndex];
        if (!out.shapeKnown) {
          return makeError(ErrorStatus::GENERAL_FAILURE,
                           "CPU driver: operation #%u (%s) did not infer the shape of operand %u",
                           opIndex, toString(op.type), outIndex);
        }
        if (!compatible(sg.operands[outIndex].dimensions, out.shape.dims)) {
          return makeError(
              ErrorStatus::INVALID_ARGUMENT,
              "%s (operation #%u): output operand %u is declared %s but the inputs give %s",
              toString(op.type), opIndex, outIndex,
              toString(sg.operands[outIndex].dimensions).c_str(), toString(out.shape.dims).c_str());
        }
      }
      plan->opStatic[opIndex] = 1;
    } else {
      plan->fullyStatic = false;
      for (uint32_t outIndex : op.outputs) slots[outIndex].shapeKnown = false;
    }
  }
  for (uint32_t opIndex : plan->order) {
    const Operation& op = sg.operations[opIndex];
    const CpuKernel& kernel = *plan->kernels[opIndex];
    // init builds state for the fast kernel; a separate reference kernel does not use it.
    if (kernel.init != nullptr && !(reference_ && kernel.executeReference)) {
      OpContext ctx(op, opIndex, slots.data(), env_, &plan->states[opIndex]);
      NN_RETURN_IF_ERROR(kernel.init(ctx));
    }
  }
  if (!reference_ && inferShapes && bandFusionEnabled()) pairExpansions(plan);
  return planArena(plan);
}

// Each DEPTHWISE_CONV_2D whose input is a temporary that only it reads, written by a CONV_2D,
// both with static shapes, where the kernels take the pair (expandDepthwiseFusable): the
// depthwise step runs both, the CONV_2D's step nothing. The intermediate keeps its arena
// place (unused) so that the rest of the plan is unchanged; the CONV_2D's input lives until
// the depthwise step (planArena).
void CpuPreparedModel::pairExpansions(SubgraphPlan* plan) {
  const Subgraph& sg = *plan->subgraph;
  const size_t numOps = sg.operations.size();
  std::vector<uint32_t> writer(sg.operands.size(), SubgraphPlan::kNoPartner);
  std::vector<uint32_t> readers(sg.operands.size(), 0);
  for (uint32_t i = 0; i < numOps; ++i) {
    for (uint32_t o : sg.operations[i].outputs)
      if (o < writer.size()) writer[o] = i;
    for (uint32_t in : sg.operations[i].inputs)
      if (in < readers.size()) ++readers[in];
  }
  // A temporary that one operation writes and only one reads, not a model output.
  auto fusableTemporary = [&](uint32_t t) {
    return t < sg.operands.size() && sg.operands[t].lifetime == Lifetime::TEMPORARY_VARIABLE &&
           readers[t] == 1 && plan->outputPosition[t] < 0 &&
           writer[t] != SubgraphPlan::kNoPartner;
  };
  // Operation `op` of `type`, static, not paired yet, with one output and inputs.
  std::vector<uint8_t> paired(numOps, 0);
  auto candidate = [&](uint32_t op, OperationType type) {
    const Operation& o = sg.operations[op];
    return o.type == type && plan->opStatic[op] && !paired[op] && o.outputs.size() == 1 &&
           !o.inputs.empty();
  };
  auto addPair = [&](uint32_t step, uint32_t partner, SubgraphPlan::PairKind kind) {
    if (plan->fusedExpansion.empty()) {
      plan->fusedExpansion.assign(numOps, SubgraphPlan::kNoPartner);
      plan->runByPartner.assign(numOps, 0);
      plan->pairKind.assign(numOps, SubgraphPlan::kExpandDepthwise);
      plan->thirdOp.assign(numOps, SubgraphPlan::kNoPartner);
    }
    plan->fusedExpansion[step] = partner;
    plan->pairKind[step] = kind;
    plan->runByPartner[partner] = 1;
    paired[step] = paired[partner] = 1;
  };
  auto context = [&](uint32_t op) {
    return OpContext(sg.operations[op], op, plan->templateSlots.data(), env_, &plan->states[op]);
  };
  // First the float16 inverted bottlenecks on small maps (prepareHalfBlock): 1x1 expansion ->
  // depthwise -> 1x1 projection, each output a temporary only the next reads, and the
  // residual ADD reading the projection when only it reads that; the step of the ADD (else of
  // the projection) runs the block as one parallel region, the other layers' steps nothing.
  const int threads = env_.threadPool != nullptr ? env_.threadPool->numThreads() : 1;
  for (uint32_t p = 0; p < numOps && threads > 1; ++p) {
    if (!candidate(p, OperationType::CONV_2D)) continue;
    const uint32_t dt = sg.operations[p].inputs[0];
    if (!fusableTemporary(dt) || !candidate(writer[dt], OperationType::DEPTHWISE_CONV_2D))
      continue;
    const uint32_t d = writer[dt];
    const uint32_t et = sg.operations[d].inputs[0];
    if (!fusableTemporary(et) || !candidate(writer[et], OperationType::CONV_2D)) continue;
    const uint32_t e = writer[et];
    // The ADD: the only reader of the projection's output, its other input not that output.
    uint32_t a = SubgraphPlan::kNoPartner;
    const uint32_t pt = sg.operations[p].outputs[0];
    if (fusableTemporary(pt)) {
      for (uint32_t i = 0; i < numOps; ++i) {
        const Operation& op = sg.operations[i];
        if (candidate(i, OperationType::ADD) && op.inputs.size() == 3 &&
            (op.inputs[0] == pt) != (op.inputs[1] == pt)) {
          a = i;
          break;
        }
      }
    }
    OpContext eCtx = context(e), dCtx = context(d), pCtx = context(p);
    std::shared_ptr<const conv::PackedHalfBlock> w;
    if (a != SubgraphPlan::kNoPartner) {
      OpContext aCtx = context(a);
      w = prepareHalfBlock(eCtx, dCtx, pCtx, &aCtx, threads);
    }
    if (w == nullptr) {
      a = SubgraphPlan::kNoPartner;
      w = prepareHalfBlock(eCtx, dCtx, pCtx, nullptr, threads);
    }
    if (w == nullptr) continue;
    const uint32_t step = a != SubgraphPlan::kNoPartner ? a : p;
    addPair(step, e, SubgraphPlan::kHalfBlock);
    if (plan->halfBlocks.empty()) plan->halfBlocks.resize(numOps);
    plan->halfBlocks[step] = {d, p, std::move(w)};
    for (uint32_t other : {d, p}) {
      if (other == step) continue;
      plan->runByPartner[other] = 1;
      paired[other] = 1;
    }
  }
  for (uint32_t d = 0; d < numOps; ++d) {
    if (!candidate(d, OperationType::DEPTHWISE_CONV_2D)) continue;
    const uint32_t t = sg.operations[d].inputs[0];
    if (!fusableTemporary(t) || !candidate(writer[t], OperationType::CONV_2D)) continue;
    const uint32_t c = writer[t];
    OpContext convCtx = context(c), dwCtx = context(d);
    if (expandDepthwiseFusable(convCtx, dwCtx)) addPair(d, c, SubgraphPlan::kExpandDepthwise);
  }
  // Then each 1x1 CONV_2D whose input is a temporary that only it reads, written by a
  // DEPTHWISE_CONV_2D not paired above (depthwiseProjectFusable): the 1x1 layer's step runs
  // both, the depthwise layer's nothing.
  for (uint32_t p = 0; p < numOps; ++p) {
    if (!candidate(p, OperationType::CONV_2D)) continue;
    const uint32_t t = sg.operations[p].inputs[0];
    if (!fusableTemporary(t) || !candidate(writer[t], OperationType::DEPTHWISE_CONV_2D)) continue;
    const uint32_t d = writer[t];
    OpContext dwCtx = context(d), convCtx = context(p);
    if (!depthwiseProjectFusable(dwCtx, convCtx)) continue;
    addPair(p, d, SubgraphPlan::kDepthwiseProject);
    // And the stem writing the depthwise layer's input (depthwiseProjectStemFusable), run by
    // the same step as thirdOp names it.
    const uint32_t st = sg.operations[d].inputs[0];
    if (fusableTemporary(st) && candidate(writer[st], OperationType::CONV_2D)) {
      OpContext stemCtx = context(writer[st]);
      if (depthwiseProjectStemFusable(stemCtx, dwCtx, convCtx)) {
        plan->thirdOp[p] = writer[st];
        plan->runByPartner[writer[st]] = 1;
        paired[writer[st]] = 1;
      }
    }
  }
  // Then each ADD one of whose inputs is a temporary that only it reads, written by a 1x1
  // CONV_2D not paired above: the ADD's step runs both — with the small-k kernel in float16 or
  // float32 (prepareConvAdd, conv_add.h) or else with the float16 or float32 GEMM's rows
  // (convResidualFusable), then also the zero channel PAD writing the ADD's other input when
  // only the ADD reads that (BlazeFace's widening shortcuts). The float32 forms' ADD writes
  // over the convolution's output (addOverConvOutput, planArena).
  for (uint32_t a = 0; a < numOps; ++a) {
    const Operation& add = sg.operations[a];
    if (!candidate(a, OperationType::ADD) || add.inputs.size() != 3 ||
        add.inputs[0] == add.inputs[1])
      continue;
    for (uint32_t at = 0; at < 2 && !paired[a]; ++at) {
      const uint32_t t = add.inputs[at];
      if (!fusableTemporary(t) || !candidate(writer[t], OperationType::CONV_2D)) continue;
      const uint32_t c = writer[t];
      OpContext convCtx = context(c), addCtx = context(a);
      auto overConv = [&] {
        if (plan->addOverConvOutput.empty()) plan->addOverConvOutput.assign(numOps, 0);
        plan->addOverConvOutput[a] = 1;
      };
      if (std::shared_ptr<const ConvAddPlan> ca = prepareConvAdd(convCtx, addCtx)) {
        addPair(a, c, SubgraphPlan::kConvAdd);
        if (convAddIsFloat32(*ca)) overConv();
        if (plan->convAdds.empty()) plan->convAdds.resize(numOps);
        plan->convAdds[a] = std::move(ca);
        continue;
      }
      uint32_t pad = SubgraphPlan::kNoPartner;
      bool float32 = false;
      const uint32_t r = add.inputs[1 - at];
      if (fusableTemporary(r) && candidate(writer[r], OperationType::PAD)) {
        OpContext padCtx = context(writer[r]);
        if (convResidualFusable(convCtx, addCtx, &padCtx, &float32)) pad = writer[r];
      }
      if (pad == SubgraphPlan::kNoPartner &&
          !convResidualFusable(convCtx, addCtx, nullptr, &float32))
        continue;
      addPair(a, c, SubgraphPlan::kConvResidual);
      if (float32) overConv();
      if (pad != SubgraphPlan::kNoPartner) {
        plan->thirdOp[a] = pad;
        plan->runByPartner[pad] = 1;
        paired[pad] = 1;
      }
    }
  }
}

// Issue 10, first-inference latency. The first execution of a compilation used to create every
// XNNPACK operator (packing its weights: this XNNPACK has no weights cache) and fault in its
// arena, taking ~3x a steady-state run. Here the compilation builds one execution state, lets
// each operation with a warm hook create and set up its per-execution scratch on the state's
// arena (nothing is computed), touches the arena, and pools the state: the first execution
// takes it. Concurrent executions still create their own states lazily, so the prepared model
// stays immutable after create(). NNAPI_CPU_WARM=0 turns this off (comparisons, tests).
void CpuPreparedModel::warmFirstExecutionState() {
  if (reference_) return;  // the reference device keeps no per-execution operators
  if (const char* v = getenv("NNAPI_CPU_WARM"); v != nullptr && strcmp(v, "0") == 0) return;
  std::unique_ptr<ExecutionState> base = createExecutionState();
  auto* st = static_cast<CpuExecutionState*>(base.get());
  // The arena's pages are already mapped (createExecutionState prefaults it).
  if (main_.arenaSize > 0 && st->arena == nullptr) return;
  st->bindArena(main_.arenaOffset);
  const Subgraph& sg = *main_.subgraph;
  std::vector<uint32_t> ops;
  for (uint32_t opIndex : main_.order) {
    const CpuKernel& kernel = *main_.kernels[opIndex];
    // Only where the plan runs the kernel's own execute: the hook fills that kernel's scratch.
    // Nor for a fused pair (runExpandDepthwise uses neither kernel's operators).
    const bool paired = !main_.fusedExpansion.empty() &&
                        (main_.runByPartner[opIndex] ||
                         main_.fusedExpansion[opIndex] != SubgraphPlan::kNoPartner);
    if (main_.opStatic[opIndex] && kernel.warm != nullptr && !paired &&
        main_.execute[opIndex] == kernel.execute)
      ops.push_back(opIndex);
  }
  // Operations are independent here (each fills its own scratch slot and reads only the
  // read-only plan and slots), so the driver's threads share the packing.
  auto warmRange = [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const uint32_t opIndex = ops[i];
      OpContext ctx(sg.operations[opIndex], opIndex, st->slots.data(), env_,
                    main_.states[opIndex].get(), &st->scratch[opIndex]);
      Status s = kOk;
      try {
        s = main_.kernels[opIndex]->warm(ctx);
      } catch (const std::exception& e) {  // e.g. std::bad_alloc; not to escape a worker thread
        s = makeError(ErrorStatus::GENERAL_FAILURE, "%s", e.what());
      }
      if (!s.ok()) {
        logInfo("CPU driver: warming operation #%u failed (%s); the execution prepares it",
                opIndex, s.message().c_str());
        st->scratch[opIndex].reset();
      }
    }
  };
  if (env_.threadPool != nullptr) env_.threadPool->parallelFor(ops.size(), 1, warmRange);
  else warmRange(0, ops.size());
  recycleExecutionState(std::move(base));
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
  st->slots = main_.templateSlots;
  st->arenaSize = main_.arenaSize;
  if (main_.arenaSize > 0)
    // Prefaulted in one batch (prefaulted_buffer.h): every execution writes the whole arena
    // anyway, and a first execution faulting it in 4 KB at a time was slower than a steady one.
    st->arena.reset(static_cast<uint8_t*>(allocatePrefaulted(
        kArenaAlignment,
        // + one alignment unit: XNNPACK reads up to 16 bytes past an input's end.
        alignUp(main_.arenaSize, kArenaAlignment) + kArenaAlignment)));
  st->dynamic.resize(main_.templateSlots.size());
  st->scratch.resize(model_->main.operations.size());
  st->referencedScratch.resize(referenced_.size());
  for (size_t i = 0; i < referenced_.size(); ++i)
    st->referencedScratch[i].resize(referenced_[i].subgraph->operations.size());
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

Status CpuPreparedModel::runReferenced(uint32_t subgraph,
                                       const std::vector<const OperandSlot*>& inputs,
                                       std::vector<OwnedTensor>* outputs, CpuExecutionState* st,
                                       const ExecutionEnv& env) const {
  if (subgraph >= referenced_.size()) {
    return makeError(ErrorStatus::INVALID_ARGUMENT,
                     "CPU driver: referenced model %u does not exist", subgraph);
  }
  const SubgraphPlan& plan = referenced_[subgraph];
  const Subgraph& sg = *plan.subgraph;
  if (inputs.size() != sg.inputIndexes.size()) {
    return makeError(ErrorStatus::INVALID_ARGUMENT,
                     "CPU driver: referenced model %u takes %zu inputs, got %zu", subgraph,
                     sg.inputIndexes.size(), inputs.size());
  }
  std::vector<OperandSlot> slots = plan.templateSlots;
  std::vector<std::vector<uint8_t>> dynamic(slots.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    OperandSlot& s = slots[sg.inputIndexes[i]];
    const OperandSlot& src = *inputs[i];
    s.shape.dims = src.shape.dims;
    s.data = src.data;
    s.capacity = src.capacity;
    s.omitted = src.omitted;
    s.shapeKnown = true;
  }
  NN_RETURN_IF_ERROR(runOperations(plan, slots, dynamic, env, nullptr, nullptr, false,
                                   st->referencedScratch[subgraph]));
  outputs->resize(sg.outputIndexes.size());
  for (size_t i = 0; i < sg.outputIndexes.size(); ++i) {
    const OperandSlot& s = slots[sg.outputIndexes[i]];
    OwnedTensor& t = (*outputs)[i];
    t.shape = s.shape;
    t.data.assign(s.data, s.data + s.shape.bytes());
  }
  return kOk;
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
    return makeError(ErrorStatus::INVALID_ARGUMENT,
                     "CPU driver: request has %zu inputs / %zu outputs, the model %zu / %zu",
                     request.inputs.size(), request.outputs.size(), sg.inputIndexes.size(),
                     sg.outputIndexes.size());
  }
  // No lock: the plan and every OpState are read-only here; all that a computation writes
  // lives in `st`, which belongs to this execution.
  ExecutionEnv env = env_;
  env.loopTimeoutNs = options.loopTimeoutNs;
  env.deadlineNs = options.deadlineNs;
  env.executing = true;
  // While other processes keep our workers waiting for a core, run on this thread only.
  ThreadPool::ExecutionSample poolSample;
  if (env.threadPool != nullptr) env.threadPool = env.threadPool->beginExecution(&poolSample);
  const ExecutionRunner runner(this, st, env);
  // Shapes inferred at compilation assumed every model input present; an optional input
  // omitted now sends this run down the dynamic path.
  bool staticRun = main_.fullyStatic;
  for (const RequestArgument& arg : request.inputs) staticRun = staticRun && !arg.hasNoValue;
  std::vector<OperandSlot>& slots = st->slots;
  if (!staticRun || !st->slotsFromTemplate) slots = main_.templateSlots;
  st->slotsFromTemplate = staticRun;
  if (main_.arenaSize > 0 && st->arena == nullptr) {
    return makeError(ErrorStatus::GENERAL_FAILURE,
                     "CPU driver: could not allocate the %zu-byte arena for temporaries",
                     main_.arenaSize);
  }
  // Static temporaries live in the arena.
  st->bindArena(main_.arenaOffset);
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
      return makeError(
          ErrorStatus::INVALID_ARGUMENT,
          "execution: input %zu (operand %u) has unspecified dimensions %s; pass them with "
          "the type argument of setInput",
          i, sg.inputIndexes[i], toString(s.shape.dims).c_str());
    }
    if (s.data == nullptr && s.shape.bytes() > 0) {
      return makeError(ErrorStatus::INVALID_ARGUMENT, "execution: input %zu has no data", i);
    }
    if (s.shape.bytes() > s.capacity) {
      return makeError(ErrorStatus::INVALID_ARGUMENT,
                       "execution: input %zu needs %zu bytes for %s but the buffer has %zu", i,
                       s.shape.bytes(), toString(s.shape.dims).c_str(), s.capacity);
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
    if (staticRun && (s.data == nullptr || s.shape.bytes() > s.capacity)) {
      if (!arg.hasNoValue && s.shape.bytes() > s.capacity) st->insufficient[i] = 1;
      if (st->insufficient[i]) continue;  // reported below without computing anything
      std::vector<uint8_t>& scratch = st->dynamic[sg.outputIndexes[i]];
      scratch.resize(std::max<size_t>(s.shape.bytes(), 1));
      s.data = scratch.data();
      s.capacity = scratch.size();
    }
  }
  bool anyInsufficient = false;
  for (uint8_t flag : st->insufficient) anyInsufficient |= flag != 0;
  Status run;
  if (!anyInsufficient) {
    run = runOperations(main_, slots, st->dynamic, runner.env(), &request, st->insufficient.data(),
                        main_.fullyStatic && !staticRun, st->scratch, &poolSample);
    if (env_.threadPool != nullptr) env_.threadPool->endExecution(poolSample);
    // A failure of the computation itself (shape rules on run-time values, out-of-range
    // indices, broadcasting) is OP_FAILED, as in the reference runtime: BAD_DATA is for the
    // arguments of the call, checked above. Deadlines and insufficient outputs keep theirs.
    if (!run.ok() && run.code() == ErrorStatus::INVALID_ARGUMENT)
      run = Status(ErrorStatus::GENERAL_FAILURE, run.message());
    if (!run.ok() && run.code() != ErrorStatus::OUTPUT_INSUFFICIENT_SIZE) return run;
  }
  anyInsufficient = false;
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
    if (!run.ok()) return run;  // names the operation and output that did not fit
    return makeError(ErrorStatus::OUTPUT_INSUFFICIENT_SIZE,
                     "execution: an output buffer is too small for the computed output shape");
  }
  return kOk;
}

}  // namespace nn
