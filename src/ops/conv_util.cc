#include "ops/operation.h"
#include "ops/conv_util.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "cpu/thread_pool.h"

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__)
// GCC 12's AVX-512 headers seed unused result lanes from a self-initialized variable, which
// -Wmaybe-uninitialized reports at every inlined use.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#define NNAPI_CONV_AVX512 1
#else
#define NNAPI_CONV_AVX512 0
#endif
#if NNAPI_CONV_AVX512 && defined(__AVX512VNNI__)
#define NNAPI_CONV_VNNI 1
#else
#define NNAPI_CONV_VNNI 0
#endif

namespace nn {
namespace conv {

// =========================================================================================
// Signature

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

bool constantInput(const OpContext& ctx, uint32_t i) {
  return ctx.isConstantInput(i) && ctx.hasInputData(i) && ctx.inputSlot(i).shapeKnown;
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

Status resolveGeometry(OpContext& ctx, bool depthwise, Geometry* g) {
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
  if (filter.rank() != 4) return ctx.fail("input 1 (filter): expected rank 4, got %u", filter.rank());
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

Status quantParamsFor(OpContext& ctx, int32_t activation, uint32_t outChannels, QuantParams* q) {
  std::string error;
  if (!computeQuantParams(ctx.inputShape(0), ctx.inputShape(1), ctx.inputShape(2),
                          ctx.outputShape(0), activation, outChannels, q, &error))
    return ctx.fail("%s", error.c_str());
  return kOk;
}

Status cachedQuantParams(OpContext& ctx, int32_t activation, uint32_t outChannels,
                         const QuantParams* cached, QuantParams* local, const QuantParams** q) {
  if (cached != nullptr) {
    *q = cached;
    return kOk;
  }
  *q = local;
  return quantParamsFor(ctx, activation, outChannels, local);
}

Status finishPrepare(OpContext& ctx, const Geometry& g) {
  if (isQuant(ctx.inputType(0))) {
    QuantParams q;
    NN_RETURN_IF_ERROR(quantParamsFor(ctx, g.p.activation, g.outC, &q));
  }
  if (g.p.nchw) return ctx.setOutputDims(0, {g.batches, g.outC, g.outH, g.outW});
  return ctx.setOutputDims(0, {g.batches, g.outH, g.outW, g.outC});
}

XnnConvConfig xnnConvConfig(const Geometry& g, uint32_t groups, size_t groupInputChannels,
                            size_t groupOutputChannels, bool depthwise) {
  XnnConvConfig c;
  c.padTop = static_cast<uint32_t>(g.p.padTop);
  c.padRight = static_cast<uint32_t>(g.p.padRight);
  c.padBottom = static_cast<uint32_t>(g.p.padBottom);
  c.padLeft = static_cast<uint32_t>(g.p.padLeft);
  c.kernelH = g.filterH;
  c.kernelW = g.filterW;
  c.strideH = static_cast<uint32_t>(g.p.strideH);
  c.strideW = static_cast<uint32_t>(g.p.strideW);
  c.dilationH = static_cast<uint32_t>(g.p.dilationH);
  c.dilationW = static_cast<uint32_t>(g.p.dilationW);
  c.groups = groups;
  c.groupInputChannels = groupInputChannels;
  c.groupOutputChannels = groupOutputChannels;
  c.depthwise = depthwise;
  activationRangeFloat(g.p.activation, &c.outputMin, &c.outputMax);
  return c;
}

// =========================================================================================
// Layout

namespace {
template <typename T>
void transpose3(const T* in, T* out, uint32_t n, uint32_t a, uint32_t b) {
  // For each of n images: [a][b] -> [b][a].
  for (uint32_t i = 0; i < n; ++i) {
    const T* src = in + static_cast<size_t>(i) * a * b;
    T* dst = out + static_cast<size_t>(i) * a * b;
    for (uint32_t x = 0; x < a; ++x)
      for (uint32_t y = 0; y < b; ++y) dst[static_cast<size_t>(y) * a + x] = src[static_cast<size_t>(x) * b + y];
  }
}
void transposeBytes(const void* in, void* out, uint32_t n, uint32_t a, uint32_t b,
                    uint32_t elemSize) {
  switch (elemSize) {
    case 1: transpose3(static_cast<const uint8_t*>(in), static_cast<uint8_t*>(out), n, a, b); break;
    case 2: transpose3(static_cast<const uint16_t*>(in), static_cast<uint16_t*>(out), n, a, b); break;
    default: transpose3(static_cast<const uint32_t*>(in), static_cast<uint32_t*>(out), n, a, b); break;
  }
}
}  // namespace

uint8_t* layoutScratch(int slot, size_t bytes) {
  thread_local std::vector<uint8_t> buffers[2];
  std::vector<uint8_t>& b = buffers[slot];
  if (b.size() < bytes) b.resize(bytes);
  return b.data();
}

void nchwToNhwc(const void* in, void* out, uint32_t n, uint32_t c, uint32_t h, uint32_t w,
                uint32_t elemSize) {
  transposeBytes(in, out, n, c, h * w, elemSize);
}
void nhwcToNchw(const void* in, void* out, uint32_t n, uint32_t h, uint32_t w, uint32_t c,
                uint32_t elemSize) {
  transposeBytes(in, out, n, h * w, c, elemSize);
}

void halfToFloat(const Half* in, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<float>(in[i]);
}
void floatToHalf(const float* in, Half* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<Half>(in[i]);
}

// =========================================================================================
// Reference kernels: direct transcriptions of the spec formulas.

namespace {
inline size_t nhwc(const Geometry& g, uint32_t b, uint32_t h, uint32_t w) {
  return ((static_cast<size_t>(b) * g.inH + h) * g.inW + w) * g.inC;
}
inline size_t outIndex(const Geometry& g, uint32_t b, uint32_t h, uint32_t w) {
  return ((static_cast<size_t>(b) * g.outH + h) * g.outW + w) * g.outC;
}
// Input row/column of filter tap k for output position o, or -1 when it falls in padding.
inline int32_t tapPos(uint32_t o, uint32_t k, int32_t stride, int32_t pad, int32_t dilation,
                      uint32_t size) {
  const int64_t pos = static_cast<int64_t>(o) * stride - pad + static_cast<int64_t>(k) * dilation;
  return pos >= 0 && pos < size ? static_cast<int32_t>(pos) : -1;
}
}  // namespace

void refConvFloat(const Geometry& g, const float* input, const float* filter, const float* bias,
                  float* output) {
  float lo, hi;
  activationRangeFloat(g.p.activation, &lo, &hi);
  for (uint32_t b = 0; b < g.batches; ++b)
    for (uint32_t oh = 0; oh < g.outH; ++oh)
      for (uint32_t ow = 0; ow < g.outW; ++ow)
        for (uint32_t oc = 0; oc < g.outC; ++oc) {
          float sum = 0.f;
          for (uint32_t kh = 0; kh < g.filterH; ++kh) {
            const int32_t ih = tapPos(oh, kh, g.p.strideH, g.p.padTop, g.p.dilationH, g.inH);
            if (ih < 0) continue;
            for (uint32_t kw = 0; kw < g.filterW; ++kw) {
              const int32_t iw = tapPos(ow, kw, g.p.strideW, g.p.padLeft, g.p.dilationW, g.inW);
              if (iw < 0) continue;
              const float* in = input + nhwc(g, b, ih, iw);
              const float* f = filter + ((static_cast<size_t>(oc) * g.filterH + kh) * g.filterW + kw) * g.inC;
              for (uint32_t ic = 0; ic < g.inC; ++ic) sum += in[ic] * f[ic];
            }
          }
          sum += bias[oc];
          output[outIndex(g, b, oh, ow) + oc] = std::min(hi, std::max(lo, sum));
        }
}

void refDepthwiseFloat(const Geometry& g, const float* input, const float* filter,
                       const float* bias, float* output) {
  float lo, hi;
  activationRangeFloat(g.p.activation, &lo, &hi);
  const uint32_t m = static_cast<uint32_t>(g.p.depthMultiplier);
  for (uint32_t b = 0; b < g.batches; ++b)
    for (uint32_t oh = 0; oh < g.outH; ++oh)
      for (uint32_t ow = 0; ow < g.outW; ++ow)
        for (uint32_t oc = 0; oc < g.outC; ++oc) {
          const uint32_t ic = oc / m;
          float sum = 0.f;
          for (uint32_t kh = 0; kh < g.filterH; ++kh) {
            const int32_t ih = tapPos(oh, kh, g.p.strideH, g.p.padTop, g.p.dilationH, g.inH);
            if (ih < 0) continue;
            for (uint32_t kw = 0; kw < g.filterW; ++kw) {
              const int32_t iw = tapPos(ow, kw, g.p.strideW, g.p.padLeft, g.p.dilationW, g.inW);
              if (iw < 0) continue;
              sum += input[nhwc(g, b, ih, iw) + ic] *
                     filter[(static_cast<size_t>(kh) * g.filterW + kw) * g.outC + oc];
            }
          }
          sum += bias[oc];
          output[outIndex(g, b, oh, ow) + oc] = std::min(hi, std::max(lo, sum));
        }
}

namespace {
template <typename T>
inline T finishQuant(int32_t acc, const QuantParams& q, uint32_t channel) {
  int32_t v = multiplyByQuantizedMultiplier(acc, q.multiplier[channel], q.shift[channel]);
  v += q.outputZeroPoint;
  v = std::max(q.actMin, std::min(q.actMax, v));
  return static_cast<T>(v);
}
}  // namespace

template <typename TIn, typename TFilter>
void refConvQuant(const Geometry& g, const QuantParams& q, const TIn* input,
                  const TFilter* filter, const int32_t* bias, TIn* output) {
  for (uint32_t b = 0; b < g.batches; ++b)
    for (uint32_t oh = 0; oh < g.outH; ++oh)
      for (uint32_t ow = 0; ow < g.outW; ++ow)
        for (uint32_t oc = 0; oc < g.outC; ++oc) {
          int32_t acc = 0;
          for (uint32_t kh = 0; kh < g.filterH; ++kh) {
            const int32_t ih = tapPos(oh, kh, g.p.strideH, g.p.padTop, g.p.dilationH, g.inH);
            if (ih < 0) continue;
            for (uint32_t kw = 0; kw < g.filterW; ++kw) {
              const int32_t iw = tapPos(ow, kw, g.p.strideW, g.p.padLeft, g.p.dilationW, g.inW);
              if (iw < 0) continue;
              const TIn* in = input + nhwc(g, b, ih, iw);
              const TFilter* f = filter + ((static_cast<size_t>(oc) * g.filterH + kh) * g.filterW + kw) * g.inC;
              for (uint32_t ic = 0; ic < g.inC; ++ic)
                acc += (static_cast<int32_t>(in[ic]) - q.inputZeroPoint) *
                       (static_cast<int32_t>(f[ic]) - q.filterZeroPoint);
            }
          }
          acc += bias[oc];
          output[outIndex(g, b, oh, ow) + oc] = finishQuant<TIn>(acc, q, oc);
        }
}

template <typename TIn, typename TFilter>
void refDepthwiseQuant(const Geometry& g, const QuantParams& q, const TIn* input,
                       const TFilter* filter, const int32_t* bias, TIn* output) {
  const uint32_t m = static_cast<uint32_t>(g.p.depthMultiplier);
  for (uint32_t b = 0; b < g.batches; ++b)
    for (uint32_t oh = 0; oh < g.outH; ++oh)
      for (uint32_t ow = 0; ow < g.outW; ++ow)
        for (uint32_t oc = 0; oc < g.outC; ++oc) {
          const uint32_t ic = oc / m;
          int32_t acc = 0;
          for (uint32_t kh = 0; kh < g.filterH; ++kh) {
            const int32_t ih = tapPos(oh, kh, g.p.strideH, g.p.padTop, g.p.dilationH, g.inH);
            if (ih < 0) continue;
            for (uint32_t kw = 0; kw < g.filterW; ++kw) {
              const int32_t iw = tapPos(ow, kw, g.p.strideW, g.p.padLeft, g.p.dilationW, g.inW);
              if (iw < 0) continue;
              acc += (static_cast<int32_t>(input[nhwc(g, b, ih, iw) + ic]) - q.inputZeroPoint) *
                     (static_cast<int32_t>(
                          filter[(static_cast<size_t>(kh) * g.filterW + kw) * g.outC + oc]) -
                      q.filterZeroPoint);
            }
          }
          acc += bias[oc];
          output[outIndex(g, b, oh, ow) + oc] = finishQuant<TIn>(acc, q, oc);
        }
}

void refFullyConnectedFloat(uint32_t batches, uint32_t units, uint32_t k, int32_t activation,
                            const float* input, const float* weights, const float* bias,
                            float* output) {
  float lo, hi;
  activationRangeFloat(activation, &lo, &hi);
  for (uint32_t b = 0; b < batches; ++b)
    for (uint32_t u = 0; u < units; ++u) {
      float sum = 0.f;
      for (uint32_t i = 0; i < k; ++i)
        sum += input[static_cast<size_t>(b) * k + i] * weights[static_cast<size_t>(u) * k + i];
      sum += bias[u];
      output[static_cast<size_t>(b) * units + u] = std::min(hi, std::max(lo, sum));
    }
}

template <typename T>
void refFullyConnectedQuant(uint32_t batches, uint32_t units, uint32_t k, const QuantParams& q,
                            const T* input, const T* weights, const int32_t* bias, T* output) {
  for (uint32_t b = 0; b < batches; ++b)
    for (uint32_t u = 0; u < units; ++u) {
      int32_t acc = 0;
      for (uint32_t i = 0; i < k; ++i)
        acc += (static_cast<int32_t>(input[static_cast<size_t>(b) * k + i]) - q.inputZeroPoint) *
               (static_cast<int32_t>(weights[static_cast<size_t>(u) * k + i]) - q.filterZeroPoint);
      acc += bias[u];
      output[static_cast<size_t>(b) * units + u] = finishQuant<T>(acc, q, u);
    }
}

template void refConvQuant<uint8_t, uint8_t>(const Geometry&, const QuantParams&, const uint8_t*,
                                             const uint8_t*, const int32_t*, uint8_t*);
template void refConvQuant<uint8_t, int8_t>(const Geometry&, const QuantParams&, const uint8_t*,
                                            const int8_t*, const int32_t*, uint8_t*);
template void refConvQuant<int8_t, int8_t>(const Geometry&, const QuantParams&, const int8_t*,
                                           const int8_t*, const int32_t*, int8_t*);
template void refDepthwiseQuant<uint8_t, uint8_t>(const Geometry&, const QuantParams&,
                                                  const uint8_t*, const uint8_t*, const int32_t*,
                                                  uint8_t*);
template void refDepthwiseQuant<uint8_t, int8_t>(const Geometry&, const QuantParams&,
                                                 const uint8_t*, const int8_t*, const int32_t*,
                                                 uint8_t*);
template void refDepthwiseQuant<int8_t, int8_t>(const Geometry&, const QuantParams&,
                                                const int8_t*, const int8_t*, const int32_t*,
                                                int8_t*);
template void refFullyConnectedQuant<uint8_t>(uint32_t, uint32_t, uint32_t, const QuantParams&,
                                              const uint8_t*, const uint8_t*, const int32_t*,
                                              uint8_t*);
template void refFullyConnectedQuant<int8_t>(uint32_t, uint32_t, uint32_t, const QuantParams&,
                                             const int8_t*, const int8_t*, const int32_t*,
                                             int8_t*);

// =========================================================================================
// Fast kernels

namespace {

constexpr uint32_t kTileN = 32;  // output columns per packed weight tile
constexpr uint32_t kMaxMR = 6;   // rows per micro-kernel call
constexpr uint32_t kRowBlock = 48;     // rows per parallel task (multiple of kMaxMR)
constexpr uint32_t kColBlockTiles = 8; // column tiles per parallel task

// Per-thread scratch reused across executions. Callers take .data() once: every access to
// a thread_local object goes through the TLS wrapper.
template <typename T>
T* scratchBuffer(std::vector<T>& buffer, size_t count) {
  if (buffer.size() < count) buffer.resize(count);
  return buffer.data();
}

inline uint32_t ceilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// A row provider fills (or points at) the GEMM's left-hand row for global row index `row`:
//   float:  const float* (uint32_t row, float* scratch)
//   quant8: const uint8_t* (uint32_t row, uint8_t* scratch, int32_t* sum)
// `scratch` holds at least the row's padded length; quant8 providers also return the sum of
// the row's first k entries.

// ---- float GEMM ---------------------------------------------------------------------------

typedef float v16f __attribute__((vector_size(64), aligned(4)));

// By pointer rather than by value: returning a 64-byte vector is ABI-sensitive on targets
// without AVX-512.
inline void loadV(v16f* v, const float* p) { memcpy(v, p, sizeof(*v)); }
inline void storeV(float* p, const v16f* v) { memcpy(p, v, sizeof(*v)); }

// acc[r][0..32) = bias + sum_k rows[r][k] * tile[k][0..32)
template <int MR>
void floatMicroKernel(const float* const* rows, const float* tile, uint32_t k,
                      const float* biasTile, float* acc) {
  v16f a0[MR], a1[MR];
  v16f b0, b1;
  loadV(&b0, biasTile);
  loadV(&b1, biasTile + 16);
  for (int r = 0; r < MR; ++r) {
    a0[r] = b0;
    a1[r] = b1;
  }
  for (uint32_t kk = 0; kk < k; ++kk) {
    v16f w0, w1;
    loadV(&w0, tile + static_cast<size_t>(kk) * kTileN);
    loadV(&w1, tile + static_cast<size_t>(kk) * kTileN + 16);
    for (int r = 0; r < MR; ++r) {
      const float x = rows[r][kk];
      a0[r] += x * w0;
      a1[r] += x * w1;
    }
  }
  for (int r = 0; r < MR; ++r) {
    storeV(acc + r * kTileN, &a0[r]);
    storeV(acc + r * kTileN + 16, &a1[r]);
  }
}

void floatMicroDispatch(uint32_t mr, const float* const* rows, const float* tile, uint32_t k,
                        const float* biasTile, float* acc) {
  switch (mr) {
    case 1: floatMicroKernel<1>(rows, tile, k, biasTile, acc); break;
    case 2: floatMicroKernel<2>(rows, tile, k, biasTile, acc); break;
    case 3: floatMicroKernel<3>(rows, tile, k, biasTile, acc); break;
    case 4: floatMicroKernel<4>(rows, tile, k, biasTile, acc); break;
    case 5: floatMicroKernel<5>(rows, tile, k, biasTile, acc); break;
    default: floatMicroKernel<6>(rows, tile, k, biasTile, acc); break;
  }
}

// output[m][n] = clamp(bias[n] + sum_k row(m)[k] * W[n][k]).
template <typename RowFn>
void floatGemm(uint32_t m, const PackedFloatWeights& w, const float* bias, int32_t activation,
               const RowFn& rowFn, float* output, ThreadPool* pool) {
  const uint32_t n = w.n, k = w.k;
  const uint32_t tiles = ceilDiv(n, kTileN);
  thread_local std::vector<float> biasBuffer;
  float* biasPadded = scratchBuffer(biasBuffer, static_cast<size_t>(tiles) * kTileN);
  std::fill(biasPadded, biasPadded + static_cast<size_t>(tiles) * kTileN, 0.f);
  if (bias) std::copy(bias, bias + n, biasPadded);
  float lo, hi;
  activationRangeFloat(activation, &lo, &hi);
  const uint32_t rowBlocks = ceilDiv(m, kRowBlock);
  const uint32_t colBlocks = ceilDiv(tiles, kColBlockTiles);
  runParallel(pool, static_cast<size_t>(rowBlocks) * colBlocks, [&](size_t begin, size_t end) {
    thread_local std::vector<float> panelBuffer;
    float* panel = scratchBuffer(panelBuffer, static_cast<size_t>(kRowBlock) * std::max<uint32_t>(k, 1));
    const float* rowPtr[kRowBlock];
    float acc[kMaxMR * kTileN];
    for (size_t task = begin; task < end; ++task) {
      const uint32_t rb = static_cast<uint32_t>(task / colBlocks);
      const uint32_t cb = static_cast<uint32_t>(task % colBlocks);
      const uint32_t m0 = rb * kRowBlock, m1 = std::min(m, m0 + kRowBlock);
      for (uint32_t r = m0; r < m1; ++r)
        rowPtr[r - m0] = rowFn(r, panel + static_cast<size_t>(r - m0) * k);
      const uint32_t t1 = std::min(tiles, (cb + 1) * kColBlockTiles);
      for (uint32_t t = cb * kColBlockTiles; t < t1; ++t) {
        const float* tile = w.data.data() + static_cast<size_t>(t) * k * kTileN;
        const uint32_t c0 = t * kTileN, cn = std::min(kTileN, n - c0);
        for (uint32_t r0 = m0; r0 < m1; r0 += kMaxMR) {
          const uint32_t mr = std::min(kMaxMR, m1 - r0);
          floatMicroDispatch(mr, rowPtr + (r0 - m0), tile, k, biasPadded + c0, acc);
          for (uint32_t r = 0; r < mr; ++r) {
            float* out = output + static_cast<size_t>(r0 + r) * n + c0;
            const float* a = acc + r * kTileN;
            for (uint32_t c = 0; c < cn; ++c) out[c] = std::min(hi, std::max(lo, a[c]));
          }
        }
      }
    }
  });
}

// ---- quant8 GEMM --------------------------------------------------------------------------

// acc[r][0..32) = sum_k rows[r][k] (u8) * tile[k][0..32) (s8), k in steps of 4.
template <int MR>
void quantMicroKernel(const uint8_t* const* rows, const int8_t* tile, uint32_t k4,
                      int32_t* acc) {
#if NNAPI_CONV_VNNI
  __m512i a0[MR], a1[MR];
  for (int r = 0; r < MR; ++r) {
    a0[r] = _mm512_setzero_si512();
    a1[r] = _mm512_setzero_si512();
  }
  for (uint32_t kk = 0; kk < k4; kk += 4) {
    const __m512i w0 = _mm512_loadu_si512(tile);
    const __m512i w1 = _mm512_loadu_si512(tile + 64);
    tile += 128;
    for (int r = 0; r < MR; ++r) {
      int32_t quad;
      memcpy(&quad, rows[r] + kk, 4);
      const __m512i x = _mm512_set1_epi32(quad);
      a0[r] = _mm512_dpbusd_epi32(a0[r], x, w0);
      a1[r] = _mm512_dpbusd_epi32(a1[r], x, w1);
    }
  }
  for (int r = 0; r < MR; ++r) {
    _mm512_storeu_si512(acc + r * kTileN, a0[r]);
    _mm512_storeu_si512(acc + r * kTileN + 16, a1[r]);
  }
#else
  for (int r = 0; r < MR; ++r) {
    int32_t* out = acc + r * kTileN;
    for (uint32_t c = 0; c < kTileN; ++c) out[c] = 0;
    const int8_t* t = tile;
    for (uint32_t kk = 0; kk < k4; kk += 4, t += 4 * kTileN) {
      for (uint32_t c = 0; c < kTileN; ++c) {
        int32_t s = 0;
        for (uint32_t i = 0; i < 4; ++i)
          s += static_cast<int32_t>(rows[r][kk + i]) * static_cast<int32_t>(t[c * 4 + i]);
        out[c] += s;
      }
    }
  }
#endif
}

void quantMicroDispatch(uint32_t mr, const uint8_t* const* rows, const int8_t* tile, uint32_t k4,
                        int32_t* acc) {
  switch (mr) {
    case 1: quantMicroKernel<1>(rows, tile, k4, acc); break;
    case 2: quantMicroKernel<2>(rows, tile, k4, acc); break;
    case 3: quantMicroKernel<3>(rows, tile, k4, acc); break;
    case 4: quantMicroKernel<4>(rows, tile, k4, acc); break;
    case 5: quantMicroKernel<5>(rows, tile, k4, acc); break;
    default: quantMicroKernel<6>(rows, tile, k4, acc); break;
  }
}

inline int32_t wrapAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
inline int32_t wrapMul(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
}

#if NNAPI_CONV_AVX512
// requantize() on 16 lanes: the 64-bit products of even and odd lanes are formed separately
// (vpmuldq reads the low dword of each qword) and merged back.
inline __m512i requantize16(__m512i x, __m512i multiplier, __m512i shift) {
  const __m512i zero = _mm512_setzero_si512();
  const __m512i left = _mm512_max_epi32(shift, zero);
  const __m512i right = _mm512_max_epi32(_mm512_sub_epi32(zero, shift), zero);
  x = _mm512_sllv_epi32(x, left);
  const __m512i nudge = _mm512_set1_epi64(int64_t{1} << 30);
  __m512i even = _mm512_mul_epi32(x, multiplier);
  __m512i odd = _mm512_mul_epi32(_mm512_srli_epi64(x, 32), _mm512_srli_epi64(multiplier, 32));
  even = _mm512_srai_epi64(_mm512_add_epi64(even, nudge), 31);
  odd = _mm512_srai_epi64(_mm512_add_epi64(odd, nudge), 31);
  const __m512i high = _mm512_mask_blend_epi32(0xAAAA, even, _mm512_slli_epi64(odd, 32));
  const __m512i one = _mm512_set1_epi32(1);
  const __m512i mask = _mm512_sub_epi32(_mm512_sllv_epi32(one, right), one);
  const __m512i remainder = _mm512_and_si512(high, mask);
  const __m512i threshold = _mm512_add_epi32(_mm512_srai_epi32(mask, 1), _mm512_srli_epi32(high, 31));
  const __m512i result = _mm512_srav_epi32(high, right);
  return _mm512_mask_add_epi32(result, _mm512_cmpgt_epi32_mask(remainder, threshold), result, one);
}

// out[c] = clamp(requantize(acc[c] + add[c] + rowOffset) + outZero), 16 lanes at a time.
template <typename TOut>
inline void requantizeStore(const int32_t* acc, const int32_t* add, int32_t rowOffset,
                            const int32_t* multiplier, const int32_t* shift, int32_t outZero,
                            int32_t lo, int32_t hi, uint32_t count, TOut* out) {
  const __m512i vRow = _mm512_set1_epi32(rowOffset), vZero = _mm512_set1_epi32(outZero);
  const __m512i vLo = _mm512_set1_epi32(lo), vHi = _mm512_set1_epi32(hi);
  for (uint32_t c = 0; c < count; c += 16) {
    const __mmask16 m = count - c >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (count - c)) - 1);
    __m512i x = _mm512_maskz_loadu_epi32(m, acc + c);
    if (add != nullptr) x = _mm512_add_epi32(x, _mm512_maskz_loadu_epi32(m, add + c));
    x = _mm512_add_epi32(x, vRow);
    __m512i v = requantize16(x, _mm512_maskz_loadu_epi32(m, multiplier + c),
                             _mm512_maskz_loadu_epi32(m, shift + c));
    v = _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(v, vZero), vLo), vHi);
    _mm_mask_storeu_epi8(out + c, m, _mm512_cvtepi32_epi8(v));
  }
}
#endif

// Writes requantized values of one tile row. `columnOffset` already folds in bias and the
// zero-point terms that depend on the column only; `rowOffset` those of the row only.
template <typename TOut>
void requantizeRow(const int32_t* acc, const int32_t* columnOffset, int32_t rowOffset,
                   const int32_t* multiplier, const int32_t* shift, int32_t outZero,
                   int32_t lo, int32_t hi, uint32_t count, TOut* out) {
#if NNAPI_CONV_AVX512
  requantizeStore(acc, columnOffset, rowOffset, multiplier, shift, outZero, lo, hi, count, out);
  return;
#endif
  for (uint32_t c = 0; c < count; ++c) {
    const int32_t x = wrapAdd(wrapAdd(acc[c], columnOffset[c]), rowOffset);
    int32_t v = requantize(x, multiplier[c], shift[c]) + outZero;
    v = std::max(lo, std::min(hi, v));
    out[c] = static_cast<TOut>(v);
  }
}

// The real sum is  sum (a - za)(w - zw)  with a = A - ka and w = W + kw, where A are the
// unsigned bytes the kernel reads and W the signed stored weights. Writing za' = za + ka and
// zw' = zw - kw it expands to
//   sum A*W - zw' * sum A - za' * sum W + k * za' * zw',
// which the kernel evaluates in wrapping int32 arithmetic (exact, since the true sum fits).
template <typename TOut, typename RowFn>
void quantGemm(uint32_t m, const PackedQuantWeights& w, const QuantParams& q,
               int32_t inputZeroPrime, const int32_t* bias, const RowFn& rowFn,
               TOut* output, ThreadPool* pool) {
  const uint32_t n = w.n, k = w.k, k4 = w.k4;
  const uint32_t tiles = ceilDiv(n, kTileN);
  const int32_t zwp = w.zeroPointPrime;
  thread_local std::vector<int32_t> columnOffsetBuffer;
  int32_t* columnOffset = scratchBuffer(columnOffsetBuffer, n);
  const int32_t constant = wrapMul(wrapMul(static_cast<int32_t>(k), inputZeroPrime), zwp);
  for (uint32_t c = 0; c < n; ++c)
    columnOffset[c] = wrapAdd(wrapAdd(bias ? bias[c] : 0, -wrapMul(inputZeroPrime, w.columnSums[c])),
                              constant);
  const uint32_t rowBlocks = ceilDiv(m, kRowBlock);
  const uint32_t colBlocks = ceilDiv(tiles, kColBlockTiles);
  runParallel(pool, static_cast<size_t>(rowBlocks) * colBlocks, [&](size_t begin, size_t end) {
    thread_local std::vector<uint8_t> panelBuffer;
    uint8_t* panel = scratchBuffer(panelBuffer, static_cast<size_t>(kRowBlock) * std::max<uint32_t>(k4, 4));
    const uint8_t* rowPtr[kRowBlock];
    int32_t rowOffset[kRowBlock];
    alignas(64) int32_t acc[kMaxMR * kTileN];
    for (size_t task = begin; task < end; ++task) {
      const uint32_t rb = static_cast<uint32_t>(task / colBlocks);
      const uint32_t cb = static_cast<uint32_t>(task % colBlocks);
      const uint32_t m0 = rb * kRowBlock, m1 = std::min(m, m0 + kRowBlock);
      for (uint32_t r = m0; r < m1; ++r) {
        int32_t sum = 0;
        rowPtr[r - m0] = rowFn(r, panel + static_cast<size_t>(r - m0) * k4, &sum);
        rowOffset[r - m0] = -wrapMul(zwp, sum);
      }
      const uint32_t t1 = std::min(tiles, (cb + 1) * kColBlockTiles);
      for (uint32_t t = cb * kColBlockTiles; t < t1; ++t) {
        const int8_t* tile = w.data.data() + static_cast<size_t>(t) * k4 * kTileN;
        const uint32_t c0 = t * kTileN, cn = std::min(kTileN, n - c0);
        for (uint32_t r0 = m0; r0 < m1; r0 += kMaxMR) {
          const uint32_t mr = std::min(kMaxMR, m1 - r0);
          quantMicroDispatch(mr, rowPtr + (r0 - m0), tile, k4, acc);
          for (uint32_t r = 0; r < mr; ++r)
            requantizeRow(acc + r * kTileN, columnOffset + c0, rowOffset[r0 - m0 + r],
                          q.multiplier.data() + c0, q.shift.data() + c0, q.outputZeroPoint,
                          q.actMin, q.actMax, cn, output + static_cast<size_t>(r0 + r) * n + c0);
        }
      }
    }
  });
}

inline int32_t sumBytes(const uint8_t* p, uint32_t count) {
  int32_t s = 0;
  for (uint32_t i = 0; i < count; ++i) s += p[i];
  return s;
}

// Copies `count` input bytes into the unsigned domain the kernel reads.
inline void copyToUnsigned(const uint8_t* src, uint8_t* dst, uint32_t count, bool signedData) {
  if (signedData) {
    for (uint32_t i = 0; i < count; ++i) dst[i] = src[i] ^ 0x80;
  } else if (count < 16) {  // a few channels (first layers): a call to memcpy would dominate
    for (uint32_t i = 0; i < count; ++i) dst[i] = src[i];
  } else {
    memcpy(dst, src, count);
  }
}

}  // namespace

bool haveVnniKernel() { return NNAPI_CONV_VNNI != 0; }

void packFloatWeights(const float* w, uint32_t n, uint32_t k, PackedFloatWeights* out) {
  out->n = n;
  out->k = k;
  const uint32_t tiles = ceilDiv(n, kTileN);
  out->data.assign(static_cast<size_t>(tiles) * k * kTileN, 0.f);
  for (uint32_t t = 0; t < tiles; ++t)
    for (uint32_t c = 0; c < kTileN && t * kTileN + c < n; ++c) {
      const float* src = w + static_cast<size_t>(t * kTileN + c) * k;
      float* dst = out->data.data() + static_cast<size_t>(t) * k * kTileN + c;
      for (uint32_t kk = 0; kk < k; ++kk) dst[static_cast<size_t>(kk) * kTileN] = src[kk];
    }
}

void packQuantWeights(const void* weights, bool unsignedSource, int32_t zeroPoint, uint32_t n,
                      uint32_t k, PackedQuantWeights* out) {
  out->n = n;
  out->k = k;
  out->k4 = (k + 3) / 4 * 4;
  out->unsignedSource = unsignedSource;
  out->zeroPointPrime = unsignedSource ? zeroPoint - 128 : zeroPoint;
  const uint32_t tiles = ceilDiv(n, kTileN);
  out->data.assign(static_cast<size_t>(tiles) * out->k4 * kTileN, 0);
  out->columnSums.assign(n, 0);
  const uint8_t* src = static_cast<const uint8_t*>(weights);
  // Layout: [tile][k/4][32 columns][4 consecutive k].
  for (uint32_t col = 0; col < n; ++col) {
    const uint32_t t = col / kTileN, c = col % kTileN;
    int8_t* tileBase = out->data.data() + static_cast<size_t>(t) * out->k4 * kTileN;
    int32_t sum = 0;
    for (uint32_t kk = 0; kk < k; ++kk) {
      const uint8_t raw = src[static_cast<size_t>(col) * k + kk];
      const int8_t v = unsignedSource ? static_cast<int8_t>(static_cast<int32_t>(raw) - 128)
                                      : static_cast<int8_t>(raw);
      tileBase[(static_cast<size_t>(kk / 4) * kTileN + c) * 4 + kk % 4] = v;
      sum += v;
    }
    out->columnSums[col] = sum;
  }
}

void fastConvFloat(const Geometry& g, const float* input, const PackedFloatWeights& w,
                   const float* bias, float* output, ThreadPool* pool) {
  const uint32_t m = g.batches * g.outH * g.outW;
  const Params& p = g.p;
  const bool direct = g.filterH == 1 && g.filterW == 1 && p.padLeft == 0 && p.padTop == 0 &&
                      p.padRight == 0 && p.padBottom == 0;
  const uint32_t plane = g.outH * g.outW;
  auto rowFn = [&](uint32_t row, float* scratch) -> const float* {
    const uint32_t b = row / plane, oh = (row % plane) / g.outW, ow = row % g.outW;
    if (direct)
      return input + nhwc(g, b, oh * p.strideH, ow * p.strideW);
    float* dst = scratch;
    for (uint32_t kh = 0; kh < g.filterH; ++kh) {
      const int32_t ih = tapPos(oh, kh, p.strideH, p.padTop, p.dilationH, g.inH);
      for (uint32_t kw = 0; kw < g.filterW; ++kw, dst += g.inC) {
        const int32_t iw = ih < 0 ? -1 : tapPos(ow, kw, p.strideW, p.padLeft, p.dilationW, g.inW);
        if (iw < 0)
          std::fill(dst, dst + g.inC, 0.f);
        else
          memcpy(dst, input + nhwc(g, b, ih, iw), g.inC * sizeof(float));
      }
    }
    return scratch;
  };
  floatGemm(m, w, bias, p.activation, rowFn, output, pool);
}

void fastConvQuant(const Geometry& g, const QuantParams& q, bool signedData, const void* input,
                   const PackedQuantWeights& w, const int32_t* bias, void* output,
                   ThreadPool* pool) {
  const uint32_t m = g.batches * g.outH * g.outW;
  const uint32_t k = w.k, k4 = w.k4;
  const Params& p = g.p;
  const uint8_t* in = static_cast<const uint8_t*>(input);
  const bool direct = !signedData && k == k4 && g.filterH == 1 && g.filterW == 1 &&
                      p.padLeft == 0 && p.padTop == 0 && p.padRight == 0 && p.padBottom == 0;
  const int32_t zaPrime = q.inputZeroPoint + (signedData ? 128 : 0);
  const uint8_t padByte = static_cast<uint8_t>(zaPrime);
  const uint32_t plane = g.outH * g.outW;
  auto rowFn = [&](uint32_t row, uint8_t* scratch, int32_t* sum) -> const uint8_t* {
    const uint32_t b = row / plane, oh = (row % plane) / g.outW, ow = row % g.outW;
    if (direct) {
      const uint8_t* src = in + nhwc(g, b, oh * p.strideH, ow * p.strideW);
      *sum = sumBytes(src, k);
      return src;
    }
    uint8_t* dst = scratch;
    for (uint32_t kh = 0; kh < g.filterH; ++kh) {
      const int32_t ih = tapPos(oh, kh, p.strideH, p.padTop, p.dilationH, g.inH);
      for (uint32_t kw = 0; kw < g.filterW; ++kw, dst += g.inC) {
        const int32_t iw = ih < 0 ? -1 : tapPos(ow, kw, p.strideW, p.padLeft, p.dilationW, g.inW);
        if (iw < 0)
          memset(dst, padByte, g.inC);
        else
          copyToUnsigned(in + nhwc(g, b, ih, iw), dst, g.inC, signedData);
      }
    }
    memset(scratch + k, 0, k4 - k);
    *sum = sumBytes(scratch, k);
    return scratch;
  };
  if (signedData)
    quantGemm(m, w, q, zaPrime, bias, rowFn, static_cast<int8_t*>(output), pool);
  else
    quantGemm(m, w, q, zaPrime, bias, rowFn, static_cast<uint8_t*>(output), pool);
}

void fastFullyConnectedFloat(uint32_t batches, int32_t activation, const float* input,
                             const PackedFloatWeights& w, const float* bias, float* output,
                             ThreadPool* pool) {
  const uint32_t k = w.k;
  auto rowFn = [&](uint32_t row, float*) -> const float* {
    return input + static_cast<size_t>(row) * k;
  };
  floatGemm(batches, w, bias, activation, rowFn, output, pool);
}

void fastFullyConnectedQuant(uint32_t batches, const QuantParams& q, bool signedData,
                             const void* input, const PackedQuantWeights& w,
                             const int32_t* bias, void* output, ThreadPool* pool) {
  const uint32_t k = w.k, k4 = w.k4;
  const uint8_t* in = static_cast<const uint8_t*>(input);
  const bool direct = !signedData && k == k4;
  const int32_t zaPrime = q.inputZeroPoint + (signedData ? 128 : 0);
  auto rowFn = [&](uint32_t row, uint8_t* scratch, int32_t* sum) -> const uint8_t* {
    const uint8_t* src = in + static_cast<size_t>(row) * k;
    if (direct) {
      *sum = sumBytes(src, k);
      return src;
    }
    copyToUnsigned(src, scratch, k, signedData);
    memset(scratch + k, 0, k4 - k);
    *sum = sumBytes(scratch, k);
    return scratch;
  };
  if (signedData)
    quantGemm(batches, w, q, zaPrime, bias, rowFn, static_cast<int8_t*>(output), pool);
  else
    quantGemm(batches, w, q, zaPrime, bias, rowFn, static_cast<uint8_t*>(output), pool);
}

// ---- depthwise ----------------------------------------------------------------------------

void fastDepthwiseFloat(const Geometry& g, const float* input, const float* filter,
                        const float* bias, float* output, ThreadPool* pool) {
  runParallel(pool, static_cast<size_t>(g.batches) * g.outH, [&](size_t begin, size_t end) {
    const uint32_t C = g.outC, inC = g.inC, outH = g.outH, outW = g.outW;
    const uint32_t mult = static_cast<uint32_t>(g.p.depthMultiplier);
    float lo, hi;
    activationRangeFloat(g.p.activation, &lo, &hi);
    thread_local std::vector<float> accBuffer;
    float* __restrict a = scratchBuffer(accBuffer, C);
    for (size_t row = begin; row < end; ++row) {
      const uint32_t b = static_cast<uint32_t>(row / outH), oh = static_cast<uint32_t>(row % outH);
      for (uint32_t ow = 0; ow < outW; ++ow) {
        for (uint32_t c = 0; c < C; ++c) a[c] = bias[c];
        for (uint32_t kh = 0; kh < g.filterH; ++kh) {
          const int32_t ih = tapPos(oh, kh, g.p.strideH, g.p.padTop, g.p.dilationH, g.inH);
          if (ih < 0) continue;
          for (uint32_t kw = 0; kw < g.filterW; ++kw) {
            const int32_t iw = tapPos(ow, kw, g.p.strideW, g.p.padLeft, g.p.dilationW, g.inW);
            if (iw < 0) continue;
            const float* __restrict in = input + nhwc(g, b, ih, iw);
            const float* __restrict f = filter + (static_cast<size_t>(kh) * g.filterW + kw) * C;
            if (mult == 1) {
              for (uint32_t c = 0; c < C; ++c) a[c] += in[c] * f[c];
            } else {
              for (uint32_t ic = 0; ic < inC; ++ic)
                for (uint32_t j = 0; j < mult; ++j) a[ic * mult + j] += in[ic] * f[ic * mult + j];
            }
          }
        }
        float* __restrict out = output + outIndex(g, b, oh, ow);
        for (uint32_t c = 0; c < C; ++c) out[c] = std::min(hi, std::max(lo, a[c]));
      }
    }
  });
}

namespace {

constexpr uint32_t kDwBlock = 32;  // channels per block of the pairwise kernel

#if NNAPI_CONV_AVX512
// Layout for the pairwise kernel: [tap pair][32-channel block][lo 32 | hi 32] int16, where
// "lo" holds channels 8L..8L+3 and "hi" channels 8L+4..8L+7 of each 128-bit lane L, each as
// (tap 2p, tap 2p+1) pairs: the order vpunpck{l,h}wd produces from two tap rows, so one
// vpmaddwd multiplies and sums two taps.
void interleaveDepthwise(PackedDepthwiseFilter* f) {
  const uint32_t taps = f->taps, C = f->channels;
  const uint32_t pairs = (taps + 1) / 2, blocks = ceilDiv(C, kDwBlock);
  f->interleaved.assign(static_cast<size_t>(pairs) * blocks * 64, 0);
  for (uint32_t p = 0; p < pairs; ++p)
    for (uint32_t blk = 0; blk < blocks; ++blk)
      for (uint32_t half = 0; half < 2; ++half)
        for (uint32_t lane = 0; lane < 4; ++lane)
          for (uint32_t j = 0; j < 4; ++j) {
            const uint32_t c = blk * kDwBlock + 8 * lane + 4 * half + j;
            const size_t idx = (static_cast<size_t>(p) * blocks + blk) * 64 + half * 32 + (lane * 4 + j) * 2;
            if (c >= C) continue;
            f->interleaved[idx] = f->minusZero[static_cast<size_t>(2 * p) * C + c];
            if (2 * p + 1 < taps) f->interleaved[idx + 1] = f->minusZero[static_cast<size_t>(2 * p + 1) * C + c];
          }
}

// Depth multiplier 1: every tap (padding taps read a row of zero points, which contributes
// nothing) goes through vpmaddwd two at a time.
template <typename T>
void depthwiseQuantPairwise(const Geometry& g, const QuantParams& q, const T* input,
                            const PackedDepthwiseFilter& filter, const int32_t* bias, T* output,
                            ThreadPool* pool) {
  runParallel(pool, static_cast<size_t>(g.batches) * g.outH, [&](size_t begin, size_t end) {
    const uint32_t C = g.outC, outH = g.outH, outW = g.outW;
    const uint32_t taps = g.filterH * g.filterW, pairs = (taps + 1) / 2;
    const uint32_t blocks = ceilDiv(C, kDwBlock);
    const int32_t zin = q.inputZeroPoint;
    thread_local std::vector<int32_t> accBuffer;
    thread_local std::vector<T> zeroRowBuffer;
    thread_local std::vector<const T*> tapBuffer;
    int32_t* __restrict a = scratchBuffer(accBuffer, C);
    T* zeroRow = scratchBuffer(zeroRowBuffer, C);
    std::fill(zeroRow, zeroRow + C, static_cast<T>(zin));
    const T** tapIn = scratchBuffer(tapBuffer, static_cast<size_t>(pairs) * 2);
    const int16_t* weights = filter.interleaved.data();
    const __m512i vzin = _mm512_set1_epi16(static_cast<int16_t>(zin));
    const __m512i idx0 = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
    const __m512i idx1 = _mm512_setr_epi32(8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
    thread_local std::vector<const T*> rowBuffer;
    const T** rowBase = scratchBuffer(rowBuffer, g.filterH);
    const size_t pixelStride = g.inC;
    for (size_t row = begin; row < end; ++row) {
      const uint32_t b = static_cast<uint32_t>(row / outH), oh = static_cast<uint32_t>(row % outH);
      for (uint32_t kh = 0; kh < g.filterH; ++kh) {
        const int32_t ih = tapPos(oh, kh, g.p.strideH, g.p.padTop, g.p.dilationH, g.inH);
        rowBase[kh] = ih < 0 ? nullptr : input + nhwc(g, b, ih, 0);
      }
      for (uint32_t ow = 0; ow < outW; ++ow) {
        uint32_t t = 0;
        const int64_t iw0 = static_cast<int64_t>(ow) * g.p.strideW - g.p.padLeft;
        for (uint32_t kh = 0; kh < g.filterH; ++kh) {
          for (uint32_t kw = 0; kw < g.filterW; ++kw, ++t) {
            const int64_t iw = iw0 + static_cast<int64_t>(kw) * g.p.dilationW;
            tapIn[t] = rowBase[kh] == nullptr || iw < 0 || iw >= g.inW
                           ? zeroRow
                           : rowBase[kh] + static_cast<size_t>(iw) * pixelStride;
          }
        }
        if (taps % 2) tapIn[taps] = zeroRow;  // its weights are zero
        for (uint32_t blk = 0; blk < blocks; ++blk) {
          const uint32_t c0 = blk * kDwBlock, rem = C - c0;
          const __mmask32 m = rem >= 32 ? __mmask32(0xFFFFFFFFu) : __mmask32((1u << rem) - 1);
          __m512i accLo = _mm512_setzero_si512(), accHi = _mm512_setzero_si512();
          const int16_t* w = weights + static_cast<size_t>(blk) * 64;
          for (uint32_t p = 0; p < pairs; ++p, w += static_cast<size_t>(blocks) * 64) {
            const __m256i r0 = _mm256_maskz_loadu_epi8(m, tapIn[2 * p] + c0);
            const __m256i r1 = _mm256_maskz_loadu_epi8(m, tapIn[2 * p + 1] + c0);
            const __m512i x0 = _mm512_sub_epi16(
                std::is_signed<T>::value ? _mm512_cvtepi8_epi16(r0) : _mm512_cvtepu8_epi16(r0), vzin);
            const __m512i x1 = _mm512_sub_epi16(
                std::is_signed<T>::value ? _mm512_cvtepi8_epi16(r1) : _mm512_cvtepu8_epi16(r1), vzin);
            accLo = _mm512_add_epi32(accLo, _mm512_madd_epi16(_mm512_unpacklo_epi16(x0, x1),
                                                              _mm512_loadu_si512(w)));
            accHi = _mm512_add_epi32(accHi, _mm512_madd_epi16(_mm512_unpackhi_epi16(x0, x1),
                                                              _mm512_loadu_si512(w + 32)));
          }
          const __mmask16 m0 = static_cast<__mmask16>(m), m1 = static_cast<__mmask16>(m >> 16);
          const __m512i out0 = _mm512_add_epi32(_mm512_permutex2var_epi32(accLo, idx0, accHi),
                                                _mm512_maskz_loadu_epi32(m0, bias + c0));
          _mm512_mask_storeu_epi32(a + c0, m0, out0);
          if (m1 != 0) {
            const __m512i out1 = _mm512_add_epi32(_mm512_permutex2var_epi32(accLo, idx1, accHi),
                                                  _mm512_maskz_loadu_epi32(m1, bias + c0 + 16));
            _mm512_mask_storeu_epi32(a + c0 + 16, m1, out1);
          }
        }
        requantizeStore<T>(a, nullptr, 0, q.multiplier.data(), q.shift.data(), q.outputZeroPoint,
                           q.actMin, q.actMax, C, output + outIndex(g, b, oh, ow));
      }
    }
  });
}
#endif

template <typename T>
void depthwiseQuantImpl(const Geometry& g, const QuantParams& q, const T* input,
                        const int16_t* filter, const int32_t* bias, T* output, ThreadPool* pool) {
  runParallel(pool, static_cast<size_t>(g.batches) * g.outH, [&](size_t begin, size_t end) {
    // Locals so the compiler knows nothing below aliases the loop bounds.
    const uint32_t C = g.outC, inC = g.inC, outH = g.outH, outW = g.outW;
    const uint32_t mult = static_cast<uint32_t>(g.p.depthMultiplier);
    const int32_t zin = q.inputZeroPoint;
    const int32_t* multiplier = q.multiplier.data();
    const int32_t* shift = q.shift.data();
    thread_local std::vector<int32_t> accBuffer;
    int32_t* __restrict a = scratchBuffer(accBuffer, C);
    for (size_t row = begin; row < end; ++row) {
      const uint32_t b = static_cast<uint32_t>(row / outH), oh = static_cast<uint32_t>(row % outH);
      for (uint32_t ow = 0; ow < outW; ++ow) {
        for (uint32_t c = 0; c < C; ++c) a[c] = bias[c];
        for (uint32_t kh = 0; kh < g.filterH; ++kh) {
          const int32_t ih = tapPos(oh, kh, g.p.strideH, g.p.padTop, g.p.dilationH, g.inH);
          if (ih < 0) continue;
          for (uint32_t kw = 0; kw < g.filterW; ++kw) {
            const int32_t iw = tapPos(ow, kw, g.p.strideW, g.p.padLeft, g.p.dilationW, g.inW);
            if (iw < 0) continue;
            const T* __restrict in = input + nhwc(g, b, ih, iw);
            const int16_t* __restrict f = filter + (static_cast<size_t>(kh) * g.filterW + kw) * C;
            if (mult == 1) {
              for (uint32_t c = 0; c < C; ++c)
                a[c] += (static_cast<int32_t>(in[c]) - zin) * static_cast<int32_t>(f[c]);
            } else {
              for (uint32_t ic = 0; ic < inC; ++ic) {
                const int32_t x = static_cast<int32_t>(in[ic]) - zin;
                for (uint32_t j = 0; j < mult; ++j) a[ic * mult + j] += x * f[ic * mult + j];
              }
            }
          }
        }
        T* out = output + outIndex(g, b, oh, ow);
#if NNAPI_CONV_AVX512
        requantizeStore<T>(a, nullptr, 0, multiplier, shift, q.outputZeroPoint, q.actMin, q.actMax,
                           C, out);
#else
        for (uint32_t c = 0; c < C; ++c) {
          int32_t v = requantize(a[c], multiplier[c], shift[c]) + q.outputZeroPoint;
          v = std::max(q.actMin, std::min(q.actMax, v));
          out[c] = static_cast<T>(v);
        }
#endif
      }
    }
  });
}

template <typename T>
void depthwiseQuantDispatch(const Geometry& g, const QuantParams& q, const T* input,
                            const PackedDepthwiseFilter& filter, const int32_t* bias, T* output,
                            ThreadPool* pool) {
#if NNAPI_CONV_AVX512
  if (g.p.depthMultiplier == 1 && !filter.interleaved.empty() &&
      filter.taps == g.filterH * g.filterW && filter.channels == g.outC) {
    depthwiseQuantPairwise(g, q, input, filter, bias, output, pool);
    return;
  }
#endif
  depthwiseQuantImpl(g, q, input, filter.minusZero.data(), bias, output, pool);
}

}  // namespace

void packDepthwiseFilter(const void* filter, OperandType type, int32_t zeroPoint, uint32_t taps,
                         uint32_t channels, PackedDepthwiseFilter* out) {
  out->taps = taps;
  out->channels = channels;
  const size_t count = static_cast<size_t>(taps) * channels;
  out->minusZero.resize(count);
  if (type == OperandType::TENSOR_QUANT8_ASYMM) {
    const uint8_t* f = static_cast<const uint8_t*>(filter);
    for (size_t i = 0; i < count; ++i) out->minusZero[i] = static_cast<int16_t>(f[i] - zeroPoint);
  } else {
    const int8_t* f = static_cast<const int8_t*>(filter);
    for (size_t i = 0; i < count; ++i) out->minusZero[i] = static_cast<int16_t>(f[i] - zeroPoint);
  }
#if NNAPI_CONV_AVX512
  interleaveDepthwise(out);
#else
  out->interleaved.clear();
#endif
}

void fastDepthwiseQuant(const Geometry& g, const QuantParams& q, bool signedData,
                        const void* input, const PackedDepthwiseFilter& filter,
                        const int32_t* bias, void* output, ThreadPool* pool) {
  if (signedData)
    depthwiseQuantDispatch(g, q, static_cast<const int8_t*>(input), filter, bias,
                           static_cast<int8_t*>(output), pool);
  else
    depthwiseQuantDispatch(g, q, static_cast<const uint8_t*>(input), filter, bias,
                           static_cast<uint8_t*>(output), pool);
}

}  // namespace conv
}  // namespace nn
