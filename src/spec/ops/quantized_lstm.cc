// QUANTIZED_16BIT_LSTM (feature level 3) and QUANTIZED_LSTM (feature level 4): signatures,
// the fixed quantization the 16-bit cell requires, the optional-input rules of the integer
// cell and output shapes. The integer arithmetic is in cpu/kernels/quantized_lstm.cc.
#include <cmath>

#include "spec/operation.h"
#include "spec/ops/lstm.h"

namespace nn {
namespace quantized_lstm {
namespace {

bool sameScale(float a, double b) { return std::abs(a - b) <= 1e-6 * std::abs(b); }

}  // namespace

// ---- QUANTIZED_16BIT_LSTM -------------------------------------------------------------

namespace q16 {
namespace {

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(15, 15));
  NN_RETURN_IF_ERROR(c.checkOutputCount(2));
  c.requireFeatureLevel(kFeatureLevel3);
  using T = OperandType;
  const T u8 = T::TENSOR_QUANT8_ASYMM, i32 = T::TENSOR_INT32, i16 = T::TENSOR_QUANT16_SYMM;
  for (uint32_t i = 0; i < 15; ++i)
    if (c.isOmitted(i)) return c.fail("input %u is required but has no value", i);
  NN_RETURN_IF_ERROR(c.checkInputTypes(
      {u8, u8, u8, u8, u8, u8, u8, u8, u8, i32, i32, i32, i32, i16, u8}));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({i16, u8}));
  return kOk;
}

Status inferShapes(ShapeContext& ctx) {
  const Shape& input = ctx.inputShape(kInput);
  const Shape& prevOutput = ctx.inputShape(kPrevOutput);
  const Shape& prevCell = ctx.inputShape(kPrevCellState);
  if (input.rank() != 2) return ctx.fail("input 0: expected rank 2, got %u", input.rank());
  if (prevOutput.rank() != 2)
    return ctx.fail("input 14: expected rank 2, got %u", prevOutput.rank());
  const uint32_t B = input.dim(0), I = input.dim(1), O = prevOutput.dim(1);
  for (uint32_t i : {kInput, kPrevOutput}) {
    const Shape& s = ctx.inputShape(i);
    if (s.scale != 1.f / 128.f || s.zeroPoint != 128)
      return ctx.fail("input %u: expected scale 1/128 and zero point 128, got %g and %d", i,
                      s.scale, s.zeroPoint);
  }
  if (prevOutput.dim(0) != B)
    return ctx.fail("input 14 (previous output): expected shape [%u, %u], got %s", B, O,
                    toString(prevOutput.dims).c_str());
  const Shape& w0 = ctx.inputShape(kInputToInput);
  if (w0.scale == 0.f) return ctx.fail("input 1: weights scale must be non-zero");
  for (uint32_t i = kInputToInput; i < kInputGateBias; ++i) {
    const Shape& w = ctx.inputShape(i);
    const Dims expected{O, i < kRecToInput ? I : O};
    if (w.dims != expected)
      return ctx.fail("input %u (weights): expected shape %s, got %s", i,
                      toString(expected).c_str(), toString(w.dims).c_str());
    if (w.scale != w0.scale || w.zeroPoint != w0.zeroPoint)
      return ctx.fail("input %u: all weights must share scale and zero point (%g, %d), got "
                      "(%g, %d)",
                      i, w0.scale, w0.zeroPoint, w.scale, w.zeroPoint);
  }
  for (uint32_t i = kInputGateBias; i < kPrevCellState; ++i) {
    const Shape& b = ctx.inputShape(i);
    if (b.dims != Dims{O})
      return ctx.fail("input %u (bias): expected shape [%u], got %s", i, O,
                      toString(b.dims).c_str());
    if (!sameScale(b.scale, w0.scale / 128.0) || b.zeroPoint != 0)
      return ctx.fail("input %u (bias): expected scale %g (weights scale / 128) and zero point "
                      "0, got %g and %d",
                      i, w0.scale / 128.0, b.scale, b.zeroPoint);
  }
  if (prevCell.dims != Dims{B, O})
    return ctx.fail("input 13 (previous cell state): expected shape [%u, %u], got %s", B, O,
                    toString(prevCell.dims).c_str());
  int log2;
  if (prevCell.zeroPoint != 0 || !checkedLog2(prevCell.scale, &log2) || log2 != -11)
    return ctx.fail("input 13 (previous cell state): expected scale 2^-11 (4 integer bits) and "
                    "zero point 0, got %g and %d",
                    prevCell.scale, prevCell.zeroPoint);
  NN_RETURN_IF_ERROR(ctx.setOutputDims(kCellStateOut, {B, O}));
  return ctx.setOutputDims(kOutput, {B, O});
}

}  // namespace
}  // namespace q16

// ---- QUANTIZED_LSTM -------------------------------------------------------------------

namespace ql {

Status configure(const ShapeContext& ctx, Sizes* s) {
  for (uint32_t i : kOptional)
    if (!ctx.isOmitted(i) && !ctx.hasInputData(i)) return kDeferred;
  const Shape& input = ctx.inputShape(kInput);
  if (input.rank() != 2) return ctx.fail("input 0: expected rank 2, got %u", input.rank());
  const Shape& i2o = ctx.inputShape(kInputToOutput);
  const Shape& r2o = ctx.inputShape(kRecToOutput);
  if (i2o.rank() != 2) return ctx.fail("input 4: expected rank 2, got %u", i2o.rank());
  if (r2o.rank() != 2) return ctx.fail("input 8: expected rank 2, got %u", r2o.rank());
  s->batch = input.dim(0);
  s->input = input.dim(1);
  s->units = i2o.dim(0);
  s->output = r2o.dim(1);
  const uint32_t B = s->batch, I = s->input, C = s->units, O = s->output;
  struct Expect {
    uint32_t index;
    Dims dims;
  };
  const Expect expects[] = {
      {kInputToInput, {C, I}},  {kInputToForget, {C, I}},  {kInputToCell, {C, I}},
      {kInputToOutput, {C, I}}, {kRecToInput, {C, O}},     {kRecToForget, {C, O}},
      {kRecToCell, {C, O}},     {kRecToOutput, {C, O}},    {kCellToInput, {C}},
      {kCellToForget, {C}},     {kCellToOutput, {C}},      {kInputGateBias, {C}},
      {kForgetGateBias, {C}},   {kCellBias, {C}},          {kOutputGateBias, {C}},
      {kProjWeights, {O, C}},   {kProjBias, {O}},          {kPrevOutput, {B, O}},
      {kPrevCellState, {B, C}}, {kInputLayerNorm, {C}},    {kForgetLayerNorm, {C}},
      {kCellLayerNorm, {C}},    {kOutputLayerNorm, {C}},
  };
  for (const Expect& e : expects) {
    if (!has(ctx, e.index)) continue;
    if (ctx.inputShape(e.index).dims != e.dims)
      return ctx.fail("input %u: expected shape %s, got %s", e.index, toString(e.dims).c_str(),
                      toString(ctx.inputShape(e.index).dims).c_str());
  }
  const bool cifg = !has(ctx, kInputToInput);
  if (has(ctx, kRecToInput) == cifg)
    return ctx.fail("the input-to-input (1) and recurrent-to-input (5) weights must both have "
                    "values or both be omitted (CIFG)");
  if (has(ctx, kInputGateBias) == cifg)
    return ctx.fail("the input gate bias (12) must have a value exactly when the input-to-input "
                    "weights (1) do");
  const bool peephole = has(ctx, kCellToOutput);
  if (has(ctx, kCellToForget) != peephole || (!cifg && has(ctx, kCellToInput) != peephole) ||
      (cifg && has(ctx, kCellToInput)))
    return ctx.fail("the peephole weights (9-11) must all have values or all be omitted (9 "
                    "omitted with CIFG)");
  const bool layerNorm = has(ctx, kOutputLayerNorm);
  if (has(ctx, kForgetLayerNorm) != layerNorm || has(ctx, kCellLayerNorm) != layerNorm ||
      (!cifg && has(ctx, kInputLayerNorm) != layerNorm) || (cifg && has(ctx, kInputLayerNorm)))
    return ctx.fail("the layer normalization weights (20-23) must all have values or all be "
                    "omitted (20 omitted with CIFG)");
  if (has(ctx, kProjBias) && !has(ctx, kProjWeights))
    return ctx.fail("the projection bias (17) may only have a value when the projection "
                    "weights (16) do");
  if (!has(ctx, kProjWeights) && O != C)
    return ctx.fail("without projection weights the output size (%u) must equal the number of "
                    "units (%u)",
                    O, C);
  int cellShift;
  if (!checkedLog2(ctx.inputShape(kPrevCellState).scale, &cellShift) || cellShift > -9)
    return ctx.fail("input 19 (cell state): scale must be a power of two <= 2^-9, got %g",
                    ctx.inputShape(kPrevCellState).scale);
  return kOk;
}

namespace {

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(32, 32));
  NN_RETURN_IF_ERROR(c.checkOutputCount(3));
  c.requireFeatureLevel(kFeatureLevel4);
  using T = OperandType;
  const T s8 = T::TENSOR_QUANT8_ASYMM_SIGNED, w8 = T::TENSOR_QUANT8_SYMM,
          q16 = T::TENSOR_QUANT16_SYMM, i32 = T::TENSOR_INT32, f = T::FLOAT32;
  NN_RETURN_IF_ERROR(c.checkInputTypes({s8,  w8,  w8,  w8,  w8,  w8,  w8,  w8,  w8,  q16, q16,
                                        q16, i32, i32, i32, i32, w8,  i32, s8,  q16, q16, q16,
                                        q16, q16, f,   f,   f,   f,   f,   f,   T::INT32, f}));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({s8, q16, s8}));
  for (uint32_t i = 0; i < 32; ++i) {
    if (!c.isOmitted(i)) continue;
    bool optional = i == kCellClip || i == kProjClip;
    for (uint32_t o : kOptional) optional = optional || o == i;
    if (!optional) return c.fail("input %u is required but has no value", i);
  }
  return kOk;
}

Status inferShapes(ShapeContext& ctx) {
  Sizes s;
  const Status st = configure(ctx, &s);
  if (st != kOk) return st;
  NN_RETURN_IF_ERROR(ctx.setOutputDims(kOutputStateOut, {s.batch, s.output}));
  NN_RETURN_IF_ERROR(ctx.setOutputDims(kCellStateOut, {s.batch, s.units}));
  return ctx.setOutputDims(kOutput, {s.batch, s.output});
}

}  // namespace
}  // namespace ql
}  // namespace quantized_lstm

NN_DEFINE_OPERATION_SPEC(QUANTIZED_16BIT_LSTM, quantized_lstm::q16::validate,
                         quantized_lstm::q16::inferShapes);
// CIFG, peephole, projection and layer-normalization inputs, and the two clip scalars.
NN_DEFINE_OPERATION_SPEC_OPTIONAL(QUANTIZED_LSTM, quantized_lstm::ql::validate,
                                  quantized_lstm::ql::inferShapes,
                                  {1, 5, 9, 10, 11, 12, 16, 17, 20, 21, 22, 23, 24, 25});

}  // namespace nn
