// IF and WHILE kernels. The referenced models run through the executor's SubgraphRunner;
// output shapes are only known after the selected branch / the loop ran, so the work happens
// in resolveShapes (at execution; at compilation it defers) and execute copies the results
// out. The results live in this execution's scratch: executions of one compilation may run
// concurrently.
#include <cstring>
#include <ctime>
#include <vector>

#include "cpu/kernel.h"

namespace nn {
namespace {

struct ControlFlowScratch : OpScratch {
  std::vector<OwnedTensor> results;
};

Status noScratch(const OpContext& ctx) {
  return makeError(ErrorStatus::GENERAL_FAILURE,
                   "%s (operation #%u): no per-execution storage for the results", ctx.name(),
                   ctx.operationIndex());
}

uint64_t nowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + ts.tv_nsec;
}

OperandSlot viewOf(const OwnedTensor& t) {
  OperandSlot s;
  s.shape = t.shape;
  s.data = const_cast<uint8_t*>(t.data.data());
  s.capacity = t.data.size();
  s.shapeKnown = true;
  return s;
}

Status resolveIf(OpContext& ctx) {
  if (!ctx.env().executing || ctx.env().runner == nullptr) return kDeferred;
  if (ctx.isOmitted(0) || !ctx.hasInputData(0)) return ctx.fail("the condition has no value");
  const Shape& condShape = ctx.inputShape(0);
  if (condShape.count() != 1)
    return ctx.fail("the condition must have exactly one element, got shape %s",
                    toString(condShape.dims).c_str());
  const bool cond = ctx.input<uint8_t>(0)[0] != 0;
  const int32_t branch = ctx.inputSlot(cond ? 1 : 2).subgraph;
  std::vector<const OperandSlot*> inputs;
  for (uint32_t i = 3; i < ctx.numInputs(); ++i) inputs.push_back(&ctx.inputSlot(i));
  ControlFlowScratch* st = ctx.scratchAs<ControlFlowScratch>();
  if (st == nullptr) return noScratch(ctx);
  NN_RETURN_IF_ERROR(ctx.env().runner->run(static_cast<uint32_t>(branch), inputs, &st->results));
  if (st->results.size() != ctx.numOutputs())
    return ctx.fail("the branch produced %zu outputs, expected %u", st->results.size(),
                    ctx.numOutputs());
  for (uint32_t i = 0; i < ctx.numOutputs(); ++i)
    NN_RETURN_IF_ERROR(ctx.setOutputDims(i, st->results[i].shape.dims));
  return kOk;
}

Status copyResults(OpContext& ctx) {
  auto* st = static_cast<ControlFlowScratch*>(ctx.scratch());
  if (st == nullptr || st->results.size() < ctx.numOutputs())
    return ctx.fail("no results were computed");
  for (uint32_t i = 0; i < ctx.numOutputs(); ++i) {
    const std::vector<uint8_t>& bytes = st->results[i].data;
    if (!bytes.empty()) memcpy(ctx.outputData(i), bytes.data(), bytes.size());
  }
  st->results.clear();
  return kOk;
}

Status resolveWhile(OpContext& ctx) {
  const SubgraphRunner* runner = ctx.env().runner;
  if (!ctx.env().executing || runner == nullptr) return kDeferred;
  for (uint32_t i = 2; i < ctx.numInputs(); ++i)
    if (!ctx.isOmitted(i) && !ctx.hasInputData(i)) return kDeferred;
  const uint32_t cond = static_cast<uint32_t>(ctx.inputSlot(0).subgraph);
  const uint32_t body = static_cast<uint32_t>(ctx.inputSlot(1).subgraph);
  const uint32_t m = ctx.numOutputs();
  const uint32_t loopInputs = ctx.numInputs() - 2;
  const uint32_t k = static_cast<uint32_t>(runner->outputCount(body)) - m;
  ControlFlowScratch* st = ctx.scratchAs<ControlFlowScratch>();
  if (st == nullptr) return noScratch(ctx);
  // Loop-carried values (input-output and state-only) are owned copies.
  std::vector<OwnedTensor> carried(m + k);
  for (uint32_t i = 0; i < m + k; ++i) {
    const OperandSlot& s = ctx.inputSlot(2 + i);
    carried[i].shape = s.shape;
    carried[i].data.assign(s.data, s.data + (s.data ? s.shape.bytes() : 0));
  }
  std::vector<OperandSlot> views(loopInputs);
  std::vector<const OperandSlot*> inputs(loopInputs);
  for (uint32_t i = m + k; i < loopInputs; ++i) inputs[i] = &ctx.inputSlot(2 + i);
  std::vector<OwnedTensor> condOut, bodyOut;
  const uint64_t start = nowNs();
  const uint64_t timeout = ctx.env().loopTimeoutNs;
  DeadlinePoll deadline(ctx, 1);
  for (;;) {
    for (uint32_t i = 0; i < m + k; ++i) {
      views[i] = viewOf(carried[i]);
      inputs[i] = &views[i];
    }
    NN_RETURN_IF_ERROR(runner->run(cond, inputs, &condOut));
    if (condOut.empty() || condOut[0].data.empty())
      return ctx.fail("the condition model produced no value");
    if (condOut[0].data[0] == 0) break;
    NN_RETURN_IF_ERROR(runner->run(body, inputs, &bodyOut));
    if (bodyOut.size() != m + k)
      return ctx.fail("the body model produced %zu outputs, expected %u", bodyOut.size(), m + k);
    carried.swap(bodyOut);
    // The execution's deadline, once per iteration (the body's operations check it too).
    if (deadline.expired()) return deadline.missed();
    if (nowNs() - start > timeout) {
      return makeError(ErrorStatus::MISSED_DEADLINE_TRANSIENT,
                       "WHILE (operation #%u): the loop did not finish within the loop timeout "
                       "of %llu ns",
                       ctx.operationIndex(), static_cast<unsigned long long>(timeout));
    }
  }
  carried.resize(m);
  st->results = std::move(carried);
  for (uint32_t i = 0; i < m; ++i)
    NN_RETURN_IF_ERROR(ctx.setOutputDims(i, st->results[i].shape.dims));
  return kOk;
}

}  // namespace

NN_DEFINE_CPU_KERNEL_FULL(IF, copyResults, nullptr, nullptr, resolveIf);
NN_DEFINE_CPU_KERNEL_FULL(WHILE, copyResults, nullptr, nullptr, resolveWhile);

}  // namespace nn
