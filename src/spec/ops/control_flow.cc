// IF and WHILE (FL4): signatures, checked against the referenced models. Their output shapes
// are only known after the selected branch / the loop ran, so shape inference always defers;
// a driver runs the referenced models (the CPU driver: cpu/kernels/control_flow.cc).
#include "spec/operation.h"

namespace nn {
namespace {

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

// The outputs are whatever the branch or the loop body produces.
Status inferShapes(ShapeContext&) { return kDeferred; }

}  // namespace

NN_DEFINE_OPERATION_SPEC(IF, validateIf, inferShapes);
NN_DEFINE_OPERATION_SPEC(WHILE, validateWhile, inferShapes);

}  // namespace nn
