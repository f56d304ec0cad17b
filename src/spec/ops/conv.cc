#include "spec/ops/conv.h"

#include <string>

#include "spec/ops/common.h"

namespace nn {
namespace conv {

bool parseSignature(uint32_t numInputs, bool depthwise, OperandType splitType, Signature* sig,
                    std::string* error) {
  const uint32_t d = depthwise ? 1 : 0;
  const uint32_t implicitCount = 7 + d;
  const uint32_t explicitCount = 10 + d;
  const uint32_t split = 7 + d;  // first input whose type tells the forms apart
  *sig = Signature{};
  if (numInputs < implicitCount) {
    *error = formatString("expected at least %u inputs, got %u", implicitCount, numInputs);
    return false;
  }
  uint32_t base = 0;
  if (numInputs >= explicitCount && splitType == OperandType::INT32) {
    sig->explicitPadding = true;
    sig->padLeft = 3;
    sig->padRight = 4;
    sig->padTop = 5;
    sig->padBottom = 6;
    sig->strideW = 7;
    sig->strideH = 8;
    if (depthwise) sig->depthMultiplier = 9;
    sig->activation = 9 + d;
    base = explicitCount;
  } else {
    if (numInputs > implicitCount && splitType != OperandType::BOOL) {
      *error = formatString(
          "with %u inputs, input %u must be BOOL (layout, implicit padding) or INT32 (explicit "
          "padding, which needs at least %u inputs), got %s",
          numInputs, split, explicitCount, toString(splitType));
      return false;
    }
    sig->padding = 3;
    sig->strideW = 4;
    sig->strideH = 5;
    if (depthwise) sig->depthMultiplier = 6;
    sig->activation = 6 + d;
    base = implicitCount;
  }
  const uint32_t extra = numInputs - base;
  if (extra == 2) {
    *error = formatString("input %u gives a width dilation factor but the height factor (input %u) "
                          "is missing; both are required",
                          base + 1, base + 2);
    return false;
  }
  if (extra > 3) {
    *error = formatString("expected at most %u inputs for %s padding, got %u", base + 3,
                          sig->explicitPadding ? "explicit" : "implicit", numInputs);
    return false;
  }
  if (extra >= 1) sig->layout = static_cast<int32_t>(base);
  if (extra == 3) {
    sig->dilationW = static_cast<int32_t>(base + 1);
    sig->dilationH = static_cast<int32_t>(base + 2);
  }
  return true;
}


bool isQuant(OperandType t) {
  return t == OperandType::TENSOR_QUANT8_ASYMM || t == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
}

Status checkDataType(ValidationContext& c, OperandType inType) {
  switch (inType) {
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_QUANT8_ASYMM:
      break;
    case OperandType::TENSOR_FLOAT16:
      c.requireFeatureLevel(kFeatureLevel3);
      break;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      c.requireFeatureLevel(kFeatureLevel4);
      break;
    default:
      return c.fail(
          "input 0: unsupported type %s (expected TENSOR_FLOAT32, TENSOR_FLOAT16, "
          "TENSOR_QUANT8_ASYMM or TENSOR_QUANT8_ASYMM_SIGNED)",
          toString(inType));
  }
  return kOk;
}

Status checkFilterType(ValidationContext& c, OperandType inType, bool* perChannel) {
  const bool quant = isQuant(inType);
  const OperandType filterType = c.inputType(1);
  *perChannel = quant && filterType == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL;
  if (*perChannel) {
    c.requireFeatureLevel(kFeatureLevel3);
  } else if (filterType != inType) {
    return c.fail("input 1 (filter): expected %s%s, got %s", toString(inType),
                  quant ? " or TENSOR_QUANT8_SYMM_PER_CHANNEL" : "", toString(filterType));
  }
  return kOk;
}

Status checkPerChannelFilter(ValidationContext& c, uint32_t channelDim, const char* channelWord) {
  const Operand& filter = c.input(1);
  if (!filter.channelQuant)
    return c.fail("input 1 (filter): TENSOR_QUANT8_SYMM_PER_CHANNEL needs per-channel scales");
  if (filter.channelQuant->channelDim != channelDim)
    return c.fail("input 1 (filter): per-channel quantization dimension must be %u, got %u",
                  channelDim, filter.channelQuant->channelDim);
  if (filter.dimensions.size() == 4 && filter.dimensions[channelDim] != 0 &&
      filter.channelQuant->scales.size() != filter.dimensions[channelDim])
    return c.fail("input 1 (filter): %zu per-channel scales for %u %s",
                  filter.channelQuant->scales.size(), filter.dimensions[channelDim], channelWord);
  return kOk;
}

Status validateTensorOperands(ValidationContext& c) {
  const OperandType inType = c.inputType(0);
  NN_RETURN_IF_ERROR(checkDataType(c, inType));
  bool perChannel = false;
  NN_RETURN_IF_ERROR(checkFilterType(c, inType, &perChannel));
  NN_RETURN_IF_ERROR(c.checkInputType(2, isQuant(inType) ? OperandType::TENSOR_INT32 : inType));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({inType}));
  NN_RETURN_IF_ERROR(c.checkInputRank(0, 4));
  NN_RETURN_IF_ERROR(c.checkInputRank(1, 4));
  NN_RETURN_IF_ERROR(c.checkInputRank(2, 1));
  if (perChannel) return checkPerChannelFilter(c, 0, "output channels");
  return kOk;
}

namespace {

Status checkScalarValue(ValidationContext& c, int32_t index, const char* what, int32_t minValue) {
  if (index < 0 || c.isOmitted(index)) return kOk;
  int32_t v = 0;
  if (c.constantScalar(index, &v) && v < minValue)
    return c.fail("input %d (%s) must be >= %d, got %d", index, what, minValue, v);
  return kOk;
}

}  // namespace

Status validateConv(ValidationContext& c, bool depthwise) {
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  const uint32_t d = depthwise ? 1 : 0;
  if (c.numInputs() < 7 + d)
    return c.fail("expected %u to %u inputs, got %u", 7 + d, 13 + d, c.numInputs());
  Signature sig;
  std::string error;
  const OperandType splitType =
      c.numInputs() > 7 + d ? c.inputType(7 + d) : OperandType::INT32;
  if (!parseSignature(c.numInputs(), depthwise, splitType, &sig, &error))
    return c.fail("%s", error.c_str());

  const OperandType inType = c.inputType(0);
  NN_RETURN_IF_ERROR(checkDataType(c, inType));
  const bool quant = isQuant(inType);
  bool perChannel = false;
  NN_RETURN_IF_ERROR(checkFilterType(c, inType, &perChannel));
  if (c.isOmitted(0) || c.isOmitted(1) || c.isOmitted(2))
    return c.fail("inputs 0 (input), 1 (filter) and 2 (bias) are required");
  NN_RETURN_IF_ERROR(c.checkInputType(2, quant ? OperandType::TENSOR_INT32 : inType));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({inType}));

  // Scalars.
  const int32_t intScalars[] = {sig.padding, sig.padLeft, sig.padRight, sig.padTop,
                                sig.padBottom, sig.strideW, sig.strideH, sig.depthMultiplier,
                                sig.activation};
  for (int32_t i : intScalars) {
    if (i < 0) continue;
    if (c.isOmitted(i)) return c.fail("input %d is required", i);
    NN_RETURN_IF_ERROR(c.checkInputType(i, OperandType::INT32));
  }
  if (sig.layout >= 0) {
    c.requireFeatureLevel(kFeatureLevel3);
    NN_RETURN_IF_ERROR(c.checkInputType(sig.layout, OperandType::BOOL));
  }
  if (sig.dilationW >= 0) {
    c.requireFeatureLevel(kFeatureLevel3);
    NN_RETURN_IF_ERROR(c.checkInputType(sig.dilationW, OperandType::INT32));
    NN_RETURN_IF_ERROR(c.checkInputType(sig.dilationH, OperandType::INT32));
  }
  NN_RETURN_IF_ERROR(checkScalarValue(c, sig.padLeft, "left padding", 0));
  NN_RETURN_IF_ERROR(checkScalarValue(c, sig.padRight, "right padding", 0));
  NN_RETURN_IF_ERROR(checkScalarValue(c, sig.padTop, "top padding", 0));
  NN_RETURN_IF_ERROR(checkScalarValue(c, sig.padBottom, "bottom padding", 0));
  NN_RETURN_IF_ERROR(checkScalarValue(c, sig.strideW, "width stride", 1));
  NN_RETURN_IF_ERROR(checkScalarValue(c, sig.strideH, "height stride", 1));
  NN_RETURN_IF_ERROR(checkScalarValue(c, sig.depthMultiplier, "depth multiplier", 1));
  NN_RETURN_IF_ERROR(checkScalarValue(c, sig.dilationW, "width dilation factor", 1));
  NN_RETURN_IF_ERROR(checkScalarValue(c, sig.dilationH, "height dilation factor", 1));
  int32_t v = 0;
  if (sig.padding >= 0 && c.constantScalar(sig.padding, &v) && v != kPaddingSame &&
      v != kPaddingValid)
    return c.fail("input %d (padding scheme) must be 1 (SAME) or 2 (VALID), got %d", sig.padding,
                  v);
  if (c.constantScalar(sig.activation, &v) && !isValidFusedActivation(v))
    return c.fail("input %d (fused activation) must be 0..3, got %d", sig.activation, v);

  NN_RETURN_IF_ERROR(c.checkInputRank(0, 4));
  NN_RETURN_IF_ERROR(c.checkInputRank(1, 4));
  NN_RETURN_IF_ERROR(c.checkInputRank(2, 1));

  const Operand& input = c.input(0);
  const Operand& filter = c.input(1);
  const Operand& output = c.output(0);
  if (perChannel) {
    NN_RETURN_IF_ERROR(checkPerChannelFilter(c, depthwise ? 3 : 0, "channels"));
  } else if (quant) {
    // Before feature level 3 the output scale had to exceed input.scale * filter.scale.
    if (!(output.scale > input.scale * filter.scale)) c.requireFeatureLevel(kFeatureLevel3);
  }
  return kOk;
}

// =========================================================================================
// Geometry

Status resolveGeometry(const ShapeContext& ctx, bool depthwise, Geometry* g) {
  const uint32_t d = depthwise ? 1 : 0;
  Signature sig;
  std::string error;
  const OperandType splitType =
      ctx.numInputs() > 7 + d ? ctx.inputType(7 + d) : OperandType::INT32;
  if (!parseSignature(ctx.numInputs(), depthwise, splitType, &sig, &error))
    return ctx.fail("%s", error.c_str());

  auto readInt = [&](int32_t index, int32_t defaultValue, int32_t* out) -> bool {
    if (index < 0 || ctx.isOmitted(index)) {
      *out = defaultValue;
      return true;
    }
    if (!ctx.hasInputData(index)) return false;
    *out = ctx.scalar<int32_t>(index);
    return true;
  };
  Params& p = g->p;
  p = Params{};
  int32_t paddingCode = 0;
  bool ok = readInt(sig.strideW, 1, &p.strideW) && readInt(sig.strideH, 1, &p.strideH) &&
            readInt(sig.depthMultiplier, 1, &p.depthMultiplier) &&
            readInt(sig.activation, 0, &p.activation) &&
            readInt(sig.dilationW, 1, &p.dilationW) && readInt(sig.dilationH, 1, &p.dilationH);
  if (sig.explicitPadding) {
    ok = ok && readInt(sig.padLeft, 0, &p.padLeft) && readInt(sig.padRight, 0, &p.padRight) &&
         readInt(sig.padTop, 0, &p.padTop) && readInt(sig.padBottom, 0, &p.padBottom);
  } else {
    ok = ok && readInt(sig.padding, 0, &paddingCode);
  }
  if (sig.layout >= 0 && !ctx.isOmitted(sig.layout)) {
    if (!ctx.hasInputData(sig.layout)) return kDeferred;
    p.nchw = ctx.scalar<uint8_t>(sig.layout) != 0;
  }
  if (!ok) return kDeferred;

  if (p.strideW < 1 || p.strideH < 1)
    return ctx.fail("strides must be >= 1, got width %d height %d", p.strideW, p.strideH);
  if (p.dilationW < 1 || p.dilationH < 1)
    return ctx.fail("dilation factors must be >= 1, got width %d height %d", p.dilationW,
                    p.dilationH);
  if (p.depthMultiplier < 1)
    return ctx.fail("depth multiplier must be >= 1, got %d", p.depthMultiplier);
  if (!isValidFusedActivation(p.activation))
    return ctx.fail("fused activation must be 0..3, got %d", p.activation);
  if (p.padLeft < 0 || p.padRight < 0 || p.padTop < 0 || p.padBottom < 0)
    return ctx.fail("paddings must be >= 0, got left %d right %d top %d bottom %d", p.padLeft,
                    p.padRight, p.padTop, p.padBottom);
  if (!sig.explicitPadding && paddingCode != kPaddingSame && paddingCode != kPaddingValid)
    return ctx.fail("padding scheme must be 1 (SAME) or 2 (VALID), got %d", paddingCode);

  const Shape& input = ctx.inputShape(0);
  const Shape& filter = ctx.inputShape(1);
  const Shape& bias = ctx.inputShape(2);
  if (input.rank() != 4) return ctx.fail("input 0: expected rank 4, got %u", input.rank());
  if (filter.rank() != 4)
    return ctx.fail("input 1 (filter): expected rank 4, got %u", filter.rank());
  if (bias.rank() != 1) return ctx.fail("input 2 (bias): expected rank 1, got %u", bias.rank());

  g->batches = input.dim(0);
  g->inH = input.dim(p.nchw ? 2 : 1);
  g->inW = input.dim(p.nchw ? 3 : 2);
  g->inC = input.dim(p.nchw ? 1 : 3);
  g->filterH = filter.dim(1);
  g->filterW = filter.dim(2);
  if (depthwise) {
    g->outC = filter.dim(3);
    if (filter.dim(0) != 1)
      return ctx.fail("input 1 (filter): dimension 0 must be 1, got %u", filter.dim(0));
    if (static_cast<uint64_t>(g->inC) * p.depthMultiplier != g->outC)
      return ctx.fail("filter depth %u must equal input depth %u * depth multiplier %d", g->outC,
                      g->inC, p.depthMultiplier);
  } else {
    g->outC = filter.dim(0);
    if (filter.dim(3) != g->inC)
      return ctx.fail("input 1 (filter): depth %u does not match input depth %u", filter.dim(3),
                      g->inC);
  }
  if (bias.dim(0) != g->outC)
    return ctx.fail("input 2 (bias): size %u does not match %u output channels", bias.dim(0),
                    g->outC);
  if (g->inH == 0 || g->inW == 0 || g->inC == 0 || g->outC == 0 || g->filterH == 0 ||
      g->filterW == 0)
    return ctx.fail("only the batch dimension may be 0 (input %s, filter %s)",
                    toString(input.dims).c_str(), toString(filter.dims).c_str());

  if (!sig.explicitPadding) {
    uint32_t head = 0, tail = 0;
    implicitPadding(g->inW, p.strideW, p.dilationW, g->filterW, paddingCode, &head, &tail);
    p.padLeft = static_cast<int32_t>(head);
    p.padRight = static_cast<int32_t>(tail);
    implicitPadding(g->inH, p.strideH, p.dilationH, g->filterH, paddingCode, &head, &tail);
    p.padTop = static_cast<int32_t>(head);
    p.padBottom = static_cast<int32_t>(tail);
  }
  if (!depthwise) {
    // The reference rejects paddings that reach past a whole (dilated) filter window.
    const int64_t effW = (static_cast<int64_t>(g->filterW) - 1) * p.dilationW + 1;
    const int64_t effH = (static_cast<int64_t>(g->filterH) - 1) * p.dilationH + 1;
    if (p.padLeft >= effW || p.padRight >= effW || p.padTop >= effH || p.padBottom >= effH)
      return ctx.fail(
          "paddings (left %d right %d top %d bottom %d) must be smaller than the effective "
          "filter size %lldx%lld",
          p.padLeft, p.padRight, p.padTop, p.padBottom, static_cast<long long>(effW),
          static_cast<long long>(effH));
  }
  if (!windowOutputSize(g->inW, g->filterW, p.strideW, p.dilationW, p.padLeft, p.padRight,
                        &g->outW) ||
      !windowOutputSize(g->inH, g->filterH, p.strideH, p.dilationH, p.padTop, p.padBottom,
                        &g->outH))
    return ctx.fail("filter %ux%u (dilation %dx%d) does not fit the padded input %ux%u",
                    g->filterH, g->filterW, p.dilationH, p.dilationW,
                    g->inH + p.padTop + p.padBottom, g->inW + p.padLeft + p.padRight);
  return kOk;
}

// =========================================================================================
// Quantization

bool computeQuantParams(const Shape& input, const Shape& filter, const Shape& bias,
                        const Shape& output, int32_t activation, uint32_t outChannels,
                        QuantParams* q, std::string* error) {
  q->inputZeroPoint = input.zeroPoint;
  q->outputZeroPoint = output.zeroPoint;
  const bool perChannel = filter.type == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL;
  q->filterZeroPoint = perChannel ? 0 : filter.zeroPoint;
  activationRangeQuantized(activation, output, &q->actMin, &q->actMax);
  q->multiplier.assign(outChannels, 0);
  q->shift.assign(outChannels, 0);
  if (perChannel) {
    if (filter.channelQuant == nullptr || filter.channelQuant->scales.size() != outChannels) {
      *error = formatString("filter has %zu per-channel scales for %u output channels",
                            filter.channelQuant ? filter.channelQuant->scales.size() : size_t{0},
                            outChannels);
      return false;
    }
  }
  for (uint32_t c = 0; c < outChannels; ++c) {
    Shape f = filter;
    Shape b = bias;
    if (perChannel) {
      f.scale = filter.channelQuant->scales[c];
      b.scale = f.scale * input.scale;  // the per-channel bias scale is implied
    }
    double real = 0;
    if (!convolutionMultiplier(input, f, b, output, &real)) {
      *error = formatString(
          "bias scale %g must equal input scale %g * filter scale %g, and the output scale "
          "(%g) must be positive",
          b.scale, input.scale, f.scale, output.scale);
      return false;
    }
    int shift = 0;
    if (!quantizeMultiplier(real, &q->multiplier[c], &shift)) {
      *error = formatString("requantization multiplier %g is not representable", real);
      return false;
    }
    q->shift[c] = shift;
  }
  return true;
}

Status quantParamsFor(const ShapeContext& ctx, int32_t activation, uint32_t outChannels,
                      QuantParams* q) {
  std::string error;
  if (!computeQuantParams(ctx.inputShape(0), ctx.inputShape(1), ctx.inputShape(2),
                          ctx.outputShape(0), activation, outChannels, q, &error))
    return ctx.fail("%s", error.c_str());
  return kOk;
}

Status setConvOutputShape(ShapeContext& ctx, const Geometry& g) {
  if (isQuant(ctx.inputType(0))) {
    QuantParams q;
    NN_RETURN_IF_ERROR(quantParamsFor(ctx, g.p.activation, g.outC, &q));
  }
  if (g.p.nchw) return ctx.setOutputDims(0, {g.batches, g.outC, g.outH, g.outW});
  return ctx.setOutputDims(0, {g.batches, g.outH, g.outW, g.outC});
}

}  // namespace conv
}  // namespace nn
