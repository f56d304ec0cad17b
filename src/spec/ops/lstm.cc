// LSTM: one time step of a long short-term memory cell with the optional CIFG (coupled input
// and forget gates), peephole connections, projection layer, cell/projection clipping and
// (feature level 3) layer normalization. Signature, optional-input rules and output shapes;
// the cell runs in cpu/kernels/lstm.cc.
#include <string>

#include "spec/ops/dim_math.h"
#include "spec/operation.h"
#include "spec/ops/lstm.h"
#include "spec/ops/recurrent.h"

namespace nn {
namespace lstm_op {

using namespace lstm;  // NOLINT: the slot names are the LSTM op's input numbers

namespace {

constexpr uint32_t kRequired[] = {kInput, kOutputStateIn, kCellStateIn, kActivation, kCellClip,
                                  kProjClip};

// The LSTM op's inputs are the logical cell slots 0..26 themselves.
template <typename Has>
std::string checkCombination(uint32_t numInputs, Has has, Config* cfg) {
  for (uint32_t i : kRequired)
    if (!has(i)) return formatString("input %u is required but has no value", i);
  return lstm::checkCombination(numInputs == 27, /*auxSlots=*/false,
                                [&](uint32_t i) { return i < numInputs && has(i); }, cfg);
}

}  // namespace

Status configure(const ShapeContext& ctx, Config* cfg, Sizes* d) {
  const uint32_t n = ctx.numInputs();
  // A model input may still be omitted at execution (setInput with no buffer), which changes
  // the configuration and the scratch size: decide only once every input is bound.
  for (uint32_t i : {kInputToInput, kRecToInput, kCellToInput, kCellToForget, kCellToOutput,
                     kInputGateBias, kProjWeights, kProjBias, kInputLayerNorm, kForgetLayerNorm,
                     kCellLayerNorm, kOutputLayerNorm})
    if (i < n && !ctx.isOmitted(i) && !ctx.hasInputData(i)) return kDeferred;
  const std::string err = checkCombination(
      n, [&](uint32_t i) { return !ctx.isOmitted(i); }, cfg);
  if (!err.empty()) return ctx.fail("%s", err.c_str());

  const Shape& input = ctx.inputShape(kInput);
  if (input.rank() != 2) return ctx.fail("input 0: expected rank 2, got %u", input.rank());
  const Shape& i2o = ctx.inputShape(kInputToOutput);
  const Shape& r2o = ctx.inputShape(kRecToOutput);
  if (i2o.rank() != 2) return ctx.fail("input 4: expected rank 2, got %u", i2o.rank());
  if (r2o.rank() != 2) return ctx.fail("input 8: expected rank 2, got %u", r2o.rank());
  d->batch = input.dim(0);
  d->input = input.dim(1);
  d->cell = i2o.dim(0);
  d->output = r2o.dim(1);
  const std::string shapeErr = checkWeightShapes(
      [&](uint32_t slot) -> const Shape* {
        return slot < n && !ctx.isOmitted(slot) ? &ctx.inputShape(slot) : nullptr;
      },
      *d, *cfg);
  if (!shapeErr.empty()) return ctx.fail("%s", shapeErr.c_str());
  const Dims hDims{d->batch, d->output}, cDims{d->batch, d->cell};
  if (ctx.inputShape(kOutputStateIn).dims != hDims)
    return ctx.fail("input 18 (output state): expected shape %s, got %s",
                    toString(hDims).c_str(), toString(ctx.inputShape(kOutputStateIn).dims).c_str());
  if (ctx.inputShape(kCellStateIn).dims != cDims)
    return ctx.fail("input 19 (cell state): expected shape %s, got %s", toString(cDims).c_str(),
                    toString(ctx.inputShape(kCellStateIn).dims).c_str());
  for (uint32_t i : {kActivation, kCellClip, kProjClip})
    if (!ctx.hasInputData(i)) return kDeferred;
  const int32_t act = ctx.scalar<int32_t>(kActivation);
  if (!recurrent::isValidActivation(act)) return ctx.fail("input 20: invalid activation %d", act);
  for (uint32_t i : {kCellClip, kProjClip}) {
    const float clipValue = recurrent::floatScalar(ctx, i);
    if (!(clipValue >= 0.f))
      return ctx.fail("input %u: clip threshold must be >= 0, got %g", i, clipValue);
  }
  return kOk;
}

namespace {

Status validate(ValidationContext& c) {
  const uint32_t n = c.numInputs();
  if (n != 23 && n != 27) return c.fail("expected 23 or 27 inputs, got %u", n);
  if (n == 27) c.requireFeatureLevel(kFeatureLevel3);
  NN_RETURN_IF_ERROR(c.checkOutputCount(4));
  if (c.isOmitted(kInput)) return c.fail("input 0 is required but has no value");
  const OperandType t = c.inputType(kInput);
  OperandType scalarType = OperandType::FLOAT32;
  if (t == OperandType::TENSOR_FLOAT16) {
    c.requireFeatureLevel(kFeatureLevel3);
    scalarType = OperandType::FLOAT16;
  } else if (t != OperandType::TENSOR_FLOAT32) {
    return c.fail("input 0: expected TENSOR_FLOAT32 or TENSOR_FLOAT16, got %s", toString(t));
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (i == kActivation) {
      NN_RETURN_IF_ERROR(c.checkInputType(i, OperandType::INT32));
    } else if (i == kCellClip || i == kProjClip) {
      NN_RETURN_IF_ERROR(c.checkInputType(i, scalarType));
    } else {
      NN_RETURN_IF_ERROR(c.checkInputType(i, t));
    }
  }
  NN_RETURN_IF_ERROR(c.checkOutputTypes({t, t, t, t}));

  Config cfg;
  const std::string err =
      checkCombination(n, [&](uint32_t i) { return !c.isOmitted(i); }, &cfg);
  if (!err.empty()) return c.fail("%s", err.c_str());

  int32_t act;
  if (c.constantScalar(kActivation, &act) && !recurrent::isValidActivation(act))
    return c.fail("input 20: activation must be 0 (none), 1 (relu), 2 (relu1), 3 (relu6), "
                  "4 (tanh) or 6 (sigmoid), got %d",
                  act);
  for (uint32_t i : {kCellClip, kProjClip}) {
    float clip = 0.f;
    bool known = false;
    if (scalarType == OperandType::FLOAT16) {
      Half h;
      if ((known = c.constantScalar(i, &h))) clip = static_cast<float>(h);
    } else {
      known = c.constantScalar(i, &clip);
    }
    if (known && !(clip >= 0.f))
      return c.fail("input %u (%s clip) must be >= 0 (0 disables clipping), got %g", i,
                    i == kCellClip ? "cell" : "projection", clip);
  }
  return kOk;
}

Status inferShapes(ShapeContext& ctx) {
  Config cfg;
  Sizes d;
  const Status s = configure(ctx, &cfg, &d);
  if (s != kOk) return s;
  uint32_t scratch;
  if (!dim_math::productDim({d.cell, cfg.cifg ? 3u : 4u}, &scratch))
    return ctx.fail("output 0 (scratch buffer): %u cells x %u gates do not fit a 32-bit dimension",
                    d.cell, cfg.cifg ? 3u : 4u);
  NN_RETURN_IF_ERROR(ctx.setOutputDims(kScratch, {d.batch, scratch}));
  NN_RETURN_IF_ERROR(ctx.setOutputDims(kOutputStateOut, {d.batch, d.output}));
  NN_RETURN_IF_ERROR(ctx.setOutputDims(kCellStateOut, {d.batch, d.cell}));
  return ctx.setOutputDims(kOutput, {d.batch, d.output});
}

}  // namespace
}  // namespace lstm_op

// The CIFG, peephole, projection and layer-normalization inputs; checkCombination decides
// which combinations are legal.
NN_DEFINE_OPERATION_SPEC_OPTIONAL(LSTM, lstm_op::validate, lstm_op::inferShapes,
                                  {1, 5, 9, 10, 11, 12, 16, 17, 23, 24, 25, 26});

}  // namespace nn
