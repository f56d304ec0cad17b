// Mappers for element-wise builtins: arithmetic, comparisons and logic, activations, softmax,
// normalization and SELECT.
#include "tflite_mappers.h"

namespace nnapi_tflite {
namespace detail {

bool MapSimpleOp(Planner& p, const Operator& op, int32_t nn, size_t inputs) {
  if (!p.NeedInputs(op, inputs, inputs) || !p.NeedOutputs(op, 1)) return false;
  std::vector<uint32_t> ins;
  for (size_t k = 0; k < inputs; ++k) {
    uint32_t x = p.In(op, k);
    if (x == kNoOperand) return false;
    ins.push_back(x);
  }
  uint32_t out = p.Out(op, 0);
  if (!p.Ok({out})) return false;
  p.Emit(nn, ins, {out});
  return true;
}

// DEQUANTIZE of a float16 tensor is an exact widening: NNAPI's CAST (its DEQUANTIZE takes
// only 8-bit inputs). Reached for the float16 filters the importer leaves unfolded
// (ImportOptions::half_conv_filters) and for run-time tensors.
bool MapDequantize(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 1, 1) || !p.NeedOutputs(op, 1)) return false;
  uint32_t x = p.In(op, 0);
  if (x == kNoOperand) return false;
  const bool half = p.Operand(x).type == ANEURALNETWORKS_TENSOR_FLOAT16;
  return MapSimpleOp(p, op, half ? ANEURALNETWORKS_CAST : ANEURALNETWORKS_DEQUANTIZE, 1);
}

bool MapArithmeticOp(Planner& p, const Operator& op, int32_t nn, uint8_t options) {
  if (!p.NeedInputs(op, 2, 2) || !p.NeedOutputs(op, 1) || !p.NeedOptions(op, options)) return false;
  uint32_t a = p.In(op, 0), b = p.In(op, 1), out = p.Out(op, 0);
  if (!p.Ok({a, b, out})) return false;
  Planner::Act act;
  if (!p.PlanAct(op.options.activation, out, true, &act)) return false;
  p.Emit(nn, {a, b, p.I32(act.fuse)}, {act.main_out});
  p.FinishAct(act);
  return true;
}

// (a - b)^2 as SUB then MUL of the difference with itself.
bool MapSquaredDifference(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 2, 2) || !p.NeedOutputs(op, 1)) return false;
  uint32_t a = p.In(op, 0), b = p.In(op, 1), out = p.Out(op, 0);
  if (!p.Ok({a, b, out})) return false;
  uint32_t d = p.Temp(out, p.Operand(out).dims);
  p.Emit(ANEURALNETWORKS_SUB, {a, b, p.I32(0)}, {d});
  p.Emit(ANEURALNETWORKS_MUL, {d, d, p.I32(0)}, {out});
  return true;
}

bool MapSquare(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 1, 1) || !p.NeedOutputs(op, 1)) return false;
  uint32_t a = p.In(op, 0), out = p.Out(op, 0);
  if (!p.Ok({a, out})) return false;
  p.Emit(ANEURALNETWORKS_MUL, {a, a, p.I32(0)}, {out});
  return true;
}

bool MapL2Normalization(Planner& p, const Operator& op) {
  if (!p.NeedOptions(op, opt::kL2Norm)) return false;
  // NNAPI's L2_NORMALIZATION has no FuseCode input.
  if (op.options.activation != Activation::kNone) {
    return p.Fail("fused activation on L2_NORMALIZATION is not supported");
  }
  return MapSimpleOp(p, op, ANEURALNETWORKS_L2_NORMALIZATION, 1);
}

bool MapElu(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 1, 1) || !p.NeedOutputs(op, 1)) return false;
  uint32_t a = p.In(op, 0), out = p.Out(op, 0);
  if (!p.Ok({a, out})) return false;
  // TFLite's ELU has a fixed alpha of 1; NNAPI takes it as an input.
  p.Emit(ANEURALNETWORKS_ELU, {a, p.FloatScalar(1.f, a)}, {out});
  return true;
}

bool MapLeakyRelu(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 1, 1) || !p.NeedOutputs(op, 1) || !p.NeedOptions(op, opt::kLeakyRelu)) return false;
  uint32_t a = p.In(op, 0), out = p.Out(op, 0);
  if (!p.Ok({a, out})) return false;
  if (p.Operand(a).type != ANEURALNETWORKS_TENSOR_FLOAT32) {
    return p.Fail("LEAKY_RELU is only mapped for float32 (as PRELU with a constant slope)");
  }
  uint32_t alpha = p.OwnedConst<float>(ANEURALNETWORKS_TENSOR_FLOAT32, {1}, {op.options.alpha});
  p.Emit(ANEURALNETWORKS_PRELU, {a, alpha}, {out});
  return true;
}

bool MapSoftmax(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 1, 1) || !p.NeedOutputs(op, 1) || !p.NeedOptions(op, opt::kSoftmax)) return false;
  uint32_t in = p.In(op, 0), out = p.Out(op, 0);
  if (!p.Ok({in, out})) return false;
  p.Emit(ANEURALNETWORKS_SOFTMAX, {in, p.FloatScalar(op.options.beta, in)}, {out});
  return true;
}

bool MapLogSoftmax(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 1, 1) || !p.NeedOutputs(op, 1)) return false;
  uint32_t in = p.In(op, 0), out = p.Out(op, 0);
  if (!p.Ok({in, out})) return false;
  // TFLite's LOG_SOFTMAX is over the last axis with beta 1.
  p.Emit(ANEURALNETWORKS_LOG_SOFTMAX, {in, p.FloatScalar(1.f, in), p.I32(-1)}, {out});
  return true;
}

bool MapLocalResponseNormalization(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 1, 1) || !p.NeedOutputs(op, 1) || !p.NeedOptions(op, opt::kLocalResponseNormalization))
    return false;
  const OperatorOptions& o = op.options;
  uint32_t in = p.In(op, 0), out = p.Out(op, 0);
  if (!p.Ok({in, out})) return false;
  p.Emit(ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION,
         {in, p.I32(o.radius), p.FloatScalar(o.bias, in), p.FloatScalar(o.lrn_alpha, in),
          p.FloatScalar(o.lrn_beta, in)},
         {out});
  return true;
}

bool MapSelect(Planner& p, const Operator& op) {
  if (!p.NeedInputs(op, 3, 3) || !p.NeedOutputs(op, 1)) return false;
  uint32_t c = p.In(op, 0), a = p.In(op, 1), b = p.In(op, 2), out = p.Out(op, 0);
  if (!p.Ok({c, a, b, out})) return false;
  // SELECT_V2 broadcasts; NNAPI's SELECT does not, so only equal shapes map.
  const std::vector<uint32_t> od = p.Operand(out).dims;
  if (p.Operand(c).dims != od || p.Operand(a).dims != od || p.Operand(b).dims != od) {
    return p.Fail("broadcasting SELECT has no NNAPI equivalent (shapes must match)");
  }
  p.Emit(ANEURALNETWORKS_SELECT, {c, a, b}, {out});
  return true;
}

}  // namespace detail
}  // namespace nnapi_tflite
