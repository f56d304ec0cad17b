// IF and WHILE (FL4). The referenced models run through the executor's SubgraphRunner; output
// shapes are only known after the selected branch / the loop ran, so the work happens in
// prepare (always at execution time) and execute copies the results out.
#include <chrono>
#include <ctime>

#include "ops/operation.h"

namespace nn {
namespace {

struct ControlFlowState : OpState {
  std::vector<OwnedTensor> results;
};

ControlFlowState* stateOf(OpContext& ctx) {
  if (ctx.state() == nullptr) ctx.setState(std::make_unique<ControlFlowState>());
  return static_cast<ControlFlowState*>(ctx.state());
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

// Referenced-model operand types must agree with the operation's operands.
Status checkSignature(ValidationContext& c, const Subgraph& sg, const char* which,
                      uint32_t firstInput, uint32_t inputCount, uint32_t outputCount,
                      bool checkOutputs) {
  if (sg.inputIndexes.size() != inputCount)
    return c.fail("the %s model has %zu inputs, expected %u", which, sg.inputIndexes.size(),
                  inputCount);
  if (checkOutputs && sg.outputIndexes.size() != outputCount)
    return c.fail("the %s model has %zu outputs, expected %u", which, sg.outputIndexes.size(),
                  outputCount);
  for (uint32_t i = 0; i < inputCount && firstInput + i < c.numInputs(); ++i) {
    const Operand& inner = sg.operands[sg.inputIndexes[i]];
    if (inner.type != c.inputType(firstInput + i))
      return c.fail("input %u of the %s model is %s, the operation passes %s", i, which,
                    toString(inner.type), toString(c.inputType(firstInput + i)));
  }
  if (checkOutputs) {
    for (uint32_t i = 0; i < outputCount && i < c.numOutputs(); ++i) {
      const Operand& inner = sg.operands[sg.outputIndexes[i]];
      if (inner.type != c.outputType(i))
        return c.fail("output %u of the %s model is %s, the operation produces %s", i, which,
                      toString(inner.type), toString(c.outputType(i)));
    }
  }
  return kOk;
}

Status validateIf(ValidationContext& c) {
  c.requireFeatureLevel(kFeatureLevel4);
  if (c.numInputs() < 3) return c.fail("expected at least 3 inputs, got %u", c.numInputs());
  if (c.numOutputs() < 1) return c.fail("expected at least 1 output");
  if (c.isOmitted(0)) return c.fail("input 0 (the condition) must have a value");
  NN_RETURN_IF_ERROR(c.checkInputTypes(
      {OperandType::TENSOR_BOOL8, OperandType::SUBGRAPH, OperandType::SUBGRAPH}));
  const Subgraph* thenModel = c.referencedSubgraph(1);
  const Subgraph* elseModel = c.referencedSubgraph(2);
  // Before ANeuralNetworksModel_finish the referenced models are not attached yet; the
  // signature is checked again at finish.
  if (thenModel == nullptr || elseModel == nullptr) return kOk;
  const uint32_t n = c.numInputs() - 3;
  NN_RETURN_IF_ERROR(checkSignature(c, *thenModel, "then", 3, n, c.numOutputs(), true));
  NN_RETURN_IF_ERROR(checkSignature(c, *elseModel, "else", 3, n, c.numOutputs(), true));
  return kOk;
}

Status prepareIf(OpContext& ctx) {
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
  ControlFlowState* st = stateOf(ctx);
  NN_RETURN_IF_ERROR(ctx.env().runner->run(static_cast<uint32_t>(branch), inputs, &st->results));
  if (st->results.size() != ctx.numOutputs())
    return ctx.fail("the branch produced %zu outputs, expected %u", st->results.size(),
                    ctx.numOutputs());
  for (uint32_t i = 0; i < ctx.numOutputs(); ++i) ctx.setOutputDims(i, st->results[i].shape.dims);
  return kOk;
}

Status copyResults(OpContext& ctx) {
  ControlFlowState* st = static_cast<ControlFlowState*>(ctx.state());
  if (st == nullptr || st->results.size() < ctx.numOutputs())
    return ctx.fail("no results were computed");
  for (uint32_t i = 0; i < ctx.numOutputs(); ++i) {
    const std::vector<uint8_t>& bytes = st->results[i].data;
    if (!bytes.empty()) memcpy(ctx.outputData(i), bytes.data(), bytes.size());
  }
  st->results.clear();
  return kOk;
}

Status validateWhile(ValidationContext& c) {
  c.requireFeatureLevel(kFeatureLevel4);
  if (c.numInputs() < 3) return c.fail("expected at least 3 inputs, got %u", c.numInputs());
  if (c.numOutputs() < 1) return c.fail("expected at least 1 output");
  NN_RETURN_IF_ERROR(c.checkInputTypes({OperandType::SUBGRAPH, OperandType::SUBGRAPH}));
  const Subgraph* cond = c.referencedSubgraph(0);
  const Subgraph* body = c.referencedSubgraph(1);
  if (cond == nullptr || body == nullptr) return kOk;  // checked again at finish
  const uint32_t m = c.numOutputs();
  const uint32_t loopInputs = c.numInputs() - 2;
  if (body->outputIndexes.size() < m)
    return c.fail("the body model has %zu outputs, fewer than the %u operation outputs",
                  body->outputIndexes.size(), m);
  const uint32_t k = static_cast<uint32_t>(body->outputIndexes.size()) - m;
  if (loopInputs < m + k)
    return c.fail("%u loop inputs cannot feed %u input-output and %u state operands", loopInputs,
                  m, k);
  NN_RETURN_IF_ERROR(checkSignature(c, *body, "body", 2, loopInputs, 0, false));
  NN_RETURN_IF_ERROR(checkSignature(c, *cond, "condition", 2, loopInputs, 0, false));
  if (cond->outputIndexes.size() != 1 ||
      cond->operands[cond->outputIndexes[0]].type != OperandType::TENSOR_BOOL8)
    return c.fail("the condition model must have exactly one TENSOR_BOOL8 output");
  for (uint32_t i = 0; i < m; ++i) {
    if (body->operands[body->outputIndexes[i]].type != c.outputType(i))
      return c.fail("body output %u is %s, the operation output is %s", i,
                    toString(body->operands[body->outputIndexes[i]].type),
                    toString(c.outputType(i)));
  }
  return kOk;
}

Status prepareWhile(OpContext& ctx) {
  const SubgraphRunner* runner = ctx.env().runner;
  if (!ctx.env().executing || runner == nullptr) return kDeferred;
  for (uint32_t i = 2; i < ctx.numInputs(); ++i)
    if (!ctx.isOmitted(i) && !ctx.hasInputData(i)) return kDeferred;
  const uint32_t cond = static_cast<uint32_t>(ctx.inputSlot(0).subgraph);
  const uint32_t body = static_cast<uint32_t>(ctx.inputSlot(1).subgraph);
  const uint32_t m = ctx.numOutputs();
  const uint32_t loopInputs = ctx.numInputs() - 2;
  const uint32_t k = static_cast<uint32_t>(runner->outputCount(body)) - m;
  ControlFlowState* st = stateOf(ctx);
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
    if (nowNs() - start > timeout) {
      setLastError(formatString("WHILE (operation #%u): the loop did not finish within the loop "
                                "timeout of %llu ns", ctx.operationIndex(),
                                static_cast<unsigned long long>(timeout)));
      return ErrorStatus::MISSED_DEADLINE_TRANSIENT;
    }
  }
  carried.resize(m);
  st->results = std::move(carried);
  for (uint32_t i = 0; i < m; ++i) ctx.setOutputDims(i, st->results[i].shape.dims);
  return kOk;
}

}  // namespace

NN_REGISTER_OPERATION(IF, validateIf, prepareIf, copyResults);
NN_REGISTER_OPERATION(WHILE, validateWhile, prepareWhile, copyResults);

}  // namespace nn
