// CONV_2D kernels.
//
// Reference device: the direct loops of conv_reference. Fast device: float32 goes to XNNPACK
// with weights packed once at compilation when filter and bias are constants, and to our
// packed GEMM when they are not (or XNNPACK is absent). Quant8 always uses our int8 GEMM whose
// requantization is bit-exact with the reference. The rest (init, type dispatch, float16
// widening, XNNPACK fallback, quantization parameters) is conv_driver.h's.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/conv_driver.h"
#include "cpu/kernels/conv_fast.h"
#include "cpu/kernels/conv_reference.h"
#include "cpu/kernels/expand_depthwise.h"
#include "cpu/kernels/expand_depthwise_half.h"
#include "cpu/kernels/gemm_half.h"
#include "cpu/kernels/gemm_half_residual.h"
#include "cpu/kernels/block_half.h"
#include "cpu/kernels/depthwise_half_rows.h"
#include "cpu/kernels/isa/block_half_isa.h"
#include "cpu/kernels/depthwise_project.h"
#include "cpu/kernels/eltwise_half.h"
#include "cpu/kernels/stem_half.h"
#include "cpu/xnnpack_util.h"
#include "spec/ops/common.h"

namespace nn {
namespace {

using namespace conv;  // NOLINT: the family's types and helpers

// Built by init, read-only while executing.
struct ConvState : public PreparedConv {
  std::optional<PackedQuantWeights> quantWeights;  // constant quant8 filter
  std::optional<PackedFloatWeights> floatWeights;  // constant float16, or float32 without XNNPACK
  // Instead of floatWeights, a constant filter of a 1x1 convolution computed in
  // float16 (relaxed model or float16 data, halfGemmPreferred).
  std::optional<PackedHalfWeights> halfWeights;
  // Besides floatWeights, a relaxed model's stem convolution for the float16 kernel
  // (halfStemKernelPreferred).
  std::optional<PackedHalfStem> halfStem;
  // floatWeights where they are float32 panels: the kernels that read the panels themselves
  // (the stems, the expansion and projection pairs) take only those; the panel GEMM takes the
  // float16 form too (packFloatWeightsHalf).
  const PackedFloatWeights* float32Panels() const {
    return floatWeights && !floatWeights->halfPanels() ? &*floatWeights : nullptr;
  }
};

// One execution's XNNPACK operator, recreated only if the padding changes (implicit padding
// with an input whose size is only known at execution).
using Conv2dScratch = XnnScratch<XnnConvolution>;
// The type of this operation's table (at the end of the file).
using Kernels = OpKernels<Geometry, ConvState, Conv2dScratch>;

XnnConvConfig xnnConfig(const Geometry& g) {
  return xnnConvConfig(g, 1, g.inC, g.outC, /*depthwise=*/false);
}

// Not where the narrow direct kernel measured faster (conv_direct.cc): portableFloat takes it.
bool xnnpackSupported(const Geometry& g) {
  return !narrowConvPreferred(g) && !panelGemmPreferred(g) &&  // the panel GEMM
         !stemGemmPreferred(g) &&
         xnnConvolutionSupported(xnnConfig(g));
}

void packFloatFilter(OpContext& ctx, const Geometry& g, PackedFloatWeights* out) {
  const uint32_t k = g.filterH * g.filterW * g.inC;
  if (ctx.inputType(1) == OperandType::TENSOR_FLOAT16) {
    packFloatWeights(ctx.input<Half>(1), g.outC, k, out);
  } else {
    packFloatWeights(ctx.input<float>(1), g.outC, k, out);
  }
}

void packQuantFilter(OpContext& ctx, const Geometry& g, PackedQuantWeights* out) {
  const Shape& f = ctx.inputShape(1);
  const bool unsignedFilter = f.type == OperandType::TENSOR_QUANT8_ASYMM;
  const int32_t zero = f.type == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL ? 0 : f.zeroPoint;
  packQuantWeights(ctx.inputData(1), unsignedFilter, zero, g.outC, g.filterH * g.filterW * g.inC,
                   out);
}

void prepareFloatFilter(OpContext& ctx, const Geometry& g, ConvState& st) {
  if (halfStemKernelPreferred(ctx, g) && ctx.inputType(1) == OperandType::TENSOR_FLOAT32)
    packHalfStem(ctx.input<float>(1), g.outC, g.filterH, g.filterW, g.inC,
                 &st.halfStem.emplace());
  if (halfGemmPreferred(ctx, g)) {
    const uint32_t k = g.filterH * g.filterW * g.inC;
    if (ctx.inputType(1) == OperandType::TENSOR_FLOAT16)
      packHalfWeights(ctx.input<Half>(1), g.outC, k, &st.halfWeights.emplace());
    else
      packHalfWeights(ctx.input<float>(1), g.outC, k, &st.halfWeights.emplace());
    return;
  }
  if (ctx.inputType(1) == OperandType::TENSOR_FLOAT32 && narrowConvPreferred(g)) return;
  if (ctx.inputType(1) == OperandType::TENSOR_FLOAT16 && halfPanelsPreferred(g) &&
      packFloatWeightsHalf(ctx.input<Half>(1), g.outC, g.inC, &st.floatWeights.emplace()))
    return;
  packFloatFilter(ctx, g, &st.floatWeights.emplace());
}
void prepareQuantFilter(OpContext& ctx, const Geometry& g, ConvState& st) {
  packQuantFilter(ctx, g, &st.quantWeights.emplace());
}

bool runXnnpack(OpContext& ctx, const Geometry& g, Conv2dScratch& sc, const float* in, float* out,
                std::string* error) {
  return runXnnConvolution(ctx, g, xnnConfig(g), sc.xnn, in, out, error);
}

// The packed float GEMM, or the direct kernel for few output channels (float32 filter).
void portableFloat(OpContext& ctx, const Geometry& g, const ConvState& st, Conv2dScratch& sc,
                   const float* in, const float* bias, float* out) {
  if (st.halfStem && halfStemKernelPreferred(ctx, g)) {
    halfStemConv(g, in, *st.halfStem, bias, nullptr, out, ctx.threadPool(), sc.kernel);
    return;
  }
  if (st.halfWeights) {  // A 1x1 stride-1 convolution, its rows the input pixels
    halfGemmFloat(g.batches * g.outH * g.outW, in, g.inC, *st.halfWeights, bias, g.p.activation,
                  out, ctx.threadPool(), sc.kernel);
    return;
  }
  if (ctx.inputType(1) == OperandType::TENSOR_FLOAT32 && narrowConvPreferred(g)) {
    fastNarrowConvFloat(g, in, ctx.input<float>(1), bias, out, ctx.threadPool(), sc.kernel);
    return;
  }
  const PreparedOrNow<PackedFloatWeights> w(st.floatWeights, packFloatFilter, ctx, g);
  fastConvFloat(g, in, *w, bias, out, ctx.threadPool(), sc.kernel);
}

// Float16 data (a TENSOR_FLOAT16 model, or the CPU driver's float16 temporaries of a relaxed
// one): the float16 GEMM reads and writes the float16 tensors as they are.
bool halfData(OpContext& ctx, const Geometry& g, const ConvState& st, Conv2dScratch& sc) {
  if (st.halfStem && halfStemKernelPreferred(ctx, g) &&
      ctx.inputType(2) == OperandType::TENSOR_FLOAT32) {
    halfStemConv(g, ctx.input<float>(0), *st.halfStem, ctx.input<float>(2), ctx.output<Half>(0),
                 nullptr, ctx.threadPool(), sc.kernel);
    return true;
  }
  if (st.float32Panels() && halfStemPreferred(ctx, g) &&
      ctx.inputType(2) == OperandType::TENSOR_FLOAT32) {
    stemGemmHalfOut(g, ctx.input<float>(0), *st.float32Panels(), ctx.input<float>(2),
                    ctx.output<Half>(0), ctx.threadPool(), sc.kernel);
    return true;
  }
  if (!st.halfWeights || g.p.nchw) return false;
  const bool halfIn = ctx.inputType(0) == OperandType::TENSOR_FLOAT16;
  const bool halfOut = ctx.outputShape(0).type == OperandType::TENSOR_FLOAT16;
  const float* bias = ctx.inputType(2) == OperandType::TENSOR_FLOAT16
                          ? widenInput(ctx, 2, sc.wideBias)
                          : ctx.input<float>(2);
  halfGemmMixed(g.batches * g.outH * g.outW, halfIn ? nullptr : ctx.input<float>(0),
                halfIn ? ctx.input<Half>(0) : nullptr, g.inC, *st.halfWeights, bias,
                g.p.activation, halfOut ? nullptr : ctx.output<float>(0),
                halfOut ? ctx.output<Half>(0) : nullptr, ctx.threadPool(), sc.kernel);
  return true;
}

// The int8 GEMM.
void quant(OpContext& ctx, const Geometry& g, const ConvState& st, Conv2dScratch& sc,
           const QuantParams& q, const void* in, void* out) {
  const PreparedOrNow<PackedQuantWeights> w(st.quantWeights, packQuantFilter, ctx, g);
  fastConvQuant(g, q, signedData(ctx), in, *w, ctx.input<int32_t>(2), out, ctx.threadPool(),
                sc.kernel);
}

// In OpKernels order: geometry, reference kernels, init's hooks, the fast device's kernels.
constexpr Kernels kConv2d = {resolveWindowGeometry<false>, &kConvReference, xnnpackSupported,
    prepareQuantFilter, prepareFloatFilter, nullptr, runXnnpack, portableFloat, quant, halfData};

}  // namespace

NN_DEFINE_CONV_KERNEL(CONV_2D, kConv2d);

// ---- the expansion + depthwise band fusion (expand_depthwise.h) ---------------------------

namespace {

std::atomic<uint64_t> gExpandDepthwiseRuns{0};

bool floatTensor(const OpContext& ctx, uint32_t input) {
  return ctx.inputType(input) == OperandType::TENSOR_FLOAT32;
}

// The pair's description from the two contexts, or false where it does not apply.
bool describeExpandDepthwise(const OpContext& conv, const OpContext& dw, ExpandDepthwise* f) {
  // The expansion's filter may be float16 (graph_fusion.h folds its CAST): init packed it
  // widened, exactly.
  if (conv.numInputs() < 3 || dw.numInputs() < 3 || !floatTensor(conv, 0) ||
      (!floatTensor(conv, 1) && conv.inputType(1) != OperandType::TENSOR_FLOAT16) ||
      !floatTensor(conv, 2) || !floatTensor(dw, 0) ||
      !floatTensor(dw, 1) || !floatTensor(dw, 2) ||
      conv.outputShape(0).type != OperandType::TENSOR_FLOAT32 ||
      dw.outputShape(0).type != OperandType::TENSOR_FLOAT32 || !constantInput(conv, 1) ||
      !constantInput(conv, 2) || !constantInput(dw, 1) || !constantInput(dw, 2))
    return false;
  const auto* cs = static_cast<const ConvState*>(conv.state());
  const auto* ds = static_cast<const PreparedConv*>(dw.state());
  if (cs == nullptr || ds == nullptr || !cs->float32Panels() || cs->halfWeights ||
      cs->useXnnpack)
    return false;
  if (resolveGeometry(conv, false, &f->expand) != kOk ||
      resolveGeometry(dw, true, &f->depthwise) != kOk)
    return false;
  // Only where the depthwise layer would run on XNNPACK: the row kernel sums in its order.
  if (!ds->useXnnpack) return false;
  f->weights = cs->float32Panels();
  f->expandBias = conv.input<float>(2);
  f->depthwiseFilter = dw.input<float>(1);
  f->depthwiseBias = dw.input<float>(2);
  return expandDepthwiseAvailable(*f);
}

}  // namespace

bool bandFusionEnabled() {
  const char* v = getenv("NNAPI_CPU_BAND_FUSION");
  return v == nullptr || strcmp(v, "0") != 0;
}

namespace {

// The float16 pair of a relaxed model (expand_depthwise_half.h): the expansion on the float16
// GEMM with a float16 output (its halfData path), the depthwise layer on the float16 kernel
// reading and writing float16 (its halfData path), float32 bias.
bool describeExpandDepthwiseHalf(const OpContext& conv, const OpContext& dw,
                                 ExpandDepthwiseHalf* f) {
  if (!conv.relaxed() || !dw.relaxed() || conv.numInputs() < 3 || dw.numInputs() < 3 ||
      (!floatTensor(conv, 0) && conv.inputType(0) != OperandType::TENSOR_FLOAT16) ||
      !floatTensor(conv, 2) || !constantInput(conv, 1) || !constantInput(conv, 2) ||
      conv.outputShape(0).type != OperandType::TENSOR_FLOAT16 ||
      dw.inputType(0) != OperandType::TENSOR_FLOAT16 ||
      dw.outputShape(0).type != OperandType::TENSOR_FLOAT16)
    return false;
  const auto* cs = static_cast<const ConvState*>(conv.state());
  if (cs == nullptr || !cs->halfWeights || cs->halfStem || cs->useXnnpack) return false;
  if (resolveGeometry(conv, false, &f->expand) != kOk ||
      resolveGeometry(dw, true, &f->depthwise) != kOk)
    return false;
  f->weights = &*cs->halfWeights;
  f->expandBias = conv.input<float>(2);
  f->depthwiseWeights = preparedHalfDepthwise(dw, f->depthwise);
  return expandDepthwiseHalfAvailable(*f);
}

std::atomic<uint64_t> gExpandDepthwiseHalfRuns{0};

}  // namespace

bool expandDepthwiseFusable(const OpContext& conv, const OpContext& depthwise) {
  ExpandDepthwise f;
  ExpandDepthwiseHalf h;
  return describeExpandDepthwise(conv, depthwise, &f) ||
         describeExpandDepthwiseHalf(conv, depthwise, &h);
}

uint64_t expandDepthwiseHalfRuns() {
  return gExpandDepthwiseHalfRuns.load(std::memory_order_relaxed);
}

Status runExpandDepthwise(OpContext& conv, OpContext& depthwise) {
  ExpandDepthwise f;
  if (!describeExpandDepthwise(conv, depthwise, &f)) {
    ExpandDepthwiseHalf h;
    if (!describeExpandDepthwiseHalf(conv, depthwise, &h))
      return depthwise.fail("the expansion + depthwise band fusion no longer applies");
    if (depthwise.outputShape(0).count() == 0) return kOk;
    Conv2dScratch fallback;
    Conv2dScratch& sc = scratchOr(depthwise, fallback);
    const bool halfIn = conv.inputType(0) == OperandType::TENSOR_FLOAT16;
    expandDepthwiseHalf(h, halfIn ? nullptr : conv.input<float>(0),
                        halfIn ? conv.input<Half>(0) : nullptr, depthwise.output<Half>(0),
                        depthwise.threadPool(), sc.kernel);
    gExpandDepthwiseRuns.fetch_add(1, std::memory_order_relaxed);
    gExpandDepthwiseHalfRuns.fetch_add(1, std::memory_order_relaxed);
    return kOk;
  }
  if (depthwise.outputShape(0).count() == 0) return kOk;
  Conv2dScratch fallback;
  Conv2dScratch& sc = scratchOr(depthwise, fallback);
  expandDepthwiseFloat(f, conv.input<float>(0), depthwise.output<float>(0),
                       depthwise.threadPool(), sc.kernel);
  gExpandDepthwiseRuns.fetch_add(1, std::memory_order_relaxed);
  return kOk;
}

uint64_t expandDepthwiseRuns() { return gExpandDepthwiseRuns.load(std::memory_order_relaxed); }

// ---- the depthwise + 1x1 projection band fusion (depthwise_project.h) --------------------

namespace {

std::atomic<uint64_t> gDepthwiseProjectRuns{0};
std::atomic<uint64_t> gDepthwiseProjectStemRuns{0};

// The pair's description from the two contexts, or false where it does not apply: both
// layers float32 on the kernels they would take apart (the depthwise layer on the direct
// kernel, not XNNPACK nor the float16 kernel; the 1x1 layer on the float32 panel GEMM, not
// XNNPACK nor the float16 GEMM).
bool describeDepthwiseProject(const OpContext& dw, const OpContext& conv, DepthwiseProject* f) {
  if (conv.numInputs() < 3 || dw.numInputs() < 3 || !floatTensor(dw, 0) ||
      !floatTensor(dw, 1) || !floatTensor(dw, 2) || !floatTensor(conv, 0) ||
      (!floatTensor(conv, 1) && conv.inputType(1) != OperandType::TENSOR_FLOAT16) ||
      !floatTensor(conv, 2) || dw.outputShape(0).type != OperandType::TENSOR_FLOAT32 ||
      conv.outputShape(0).type != OperandType::TENSOR_FLOAT32 || !constantInput(conv, 1) ||
      !constantInput(conv, 2) || !constantInput(dw, 1) || !constantInput(dw, 2))
    return false;
  const auto* cs = static_cast<const ConvState*>(conv.state());
  const auto* ds = static_cast<const PreparedConv*>(dw.state());
  if (cs == nullptr || ds == nullptr || !cs->float32Panels() || cs->halfWeights ||
      cs->useXnnpack || ds->useXnnpack)
    return false;
  if (resolveGeometry(dw, true, &f->depthwise) != kOk ||
      resolveGeometry(conv, false, &f->project) != kOk)
    return false;
  f->depthwiseFilter = dw.input<float>(1);
  f->depthwiseBias = dw.input<float>(2);
  f->weights = cs->float32Panels();
  f->projectBias = conv.input<float>(2);
  return depthwiseProjectAvailable(*f);
}


// The stem's part of f (describeDepthwiseProject first): a float32 CONV_2D with constant
// weights on the im2col GEMM, as portableFloat runs it alone (not the float16 stem kernel nor
// XNNPACK).
bool describeStem(const OpContext& stem, DepthwiseProject* f) {
  if (stem.numInputs() < 3 || !floatTensor(stem, 0) || !floatTensor(stem, 2) ||
      (!floatTensor(stem, 1) && stem.inputType(1) != OperandType::TENSOR_FLOAT16) ||
      stem.outputShape(0).type != OperandType::TENSOR_FLOAT32 || !constantInput(stem, 1) ||
      !constantInput(stem, 2))
    return false;
  const auto* ss = static_cast<const ConvState*>(stem.state());
  if (ss == nullptr || !ss->float32Panels() || ss->halfWeights || ss->halfStem ||
      ss->useXnnpack)
    return false;
  if (resolveGeometry(stem, false, &f->stem) != kOk) return false;
  if (stem.inputType(1) == OperandType::TENSOR_FLOAT32 && narrowConvPreferred(f->stem))
    return false;
  f->stemWeights = ss->float32Panels();
  f->stemBias = stem.input<float>(2);
  return depthwiseProjectStemAvailable(*f);
}

}  // namespace

bool depthwiseProjectFusable(const OpContext& depthwise, const OpContext& conv) {
  DepthwiseProject f;
  return describeDepthwiseProject(depthwise, conv, &f);
}

bool depthwiseProjectStemFusable(const OpContext& stem, const OpContext& depthwise,
                                 const OpContext& conv) {
  DepthwiseProject f;
  return describeDepthwiseProject(depthwise, conv, &f) && describeStem(stem, &f);
}

Status runDepthwiseProject(OpContext& depthwise, OpContext& conv, OpContext* stem) {
  DepthwiseProject f;
  if (!describeDepthwiseProject(depthwise, conv, &f) ||
      (stem != nullptr && !describeStem(*stem, &f)))
    return conv.fail("the depthwise + 1x1 band fusion no longer applies");
  if (conv.outputShape(0).count() == 0) return kOk;
  Conv2dScratch fallback;
  Conv2dScratch& sc = scratchOr(conv, fallback);
  depthwiseProjectFloat(f, stem != nullptr ? stem->input<float>(0) : depthwise.input<float>(0),
                        conv.output<float>(0), conv.threadPool(), sc.kernel);
  if (stem != nullptr) gDepthwiseProjectStemRuns.fetch_add(1, std::memory_order_relaxed);
  gDepthwiseProjectRuns.fetch_add(1, std::memory_order_relaxed);
  return kOk;
}

uint64_t depthwiseProjectRuns() { return gDepthwiseProjectRuns.load(std::memory_order_relaxed); }
uint64_t depthwiseProjectStemRuns() {
  return gDepthwiseProjectStemRuns.load(std::memory_order_relaxed);
}

// ---- the float16 1x1 layer + residual ADD fusion (gemm_half_residual.h) ------------------

namespace {

std::atomic<uint64_t> gConvResidualRuns{0};

bool halfOrFloat(OperandType t) {
  return t == OperandType::TENSOR_FLOAT32 || t == OperandType::TENSOR_FLOAT16;
}

// A PAD of the channel axis only, at its end, with zeros (the float16 storage pass keeps a PAD's
// type: input and output both float16 or both float32): its input's channel count.
bool channelTailPad(const OpContext& pad, uint32_t* inC) {
  if (pad.type() != OperationType::PAD || pad.numInputs() != 2 || pad.numOutputs() != 1 ||
      !constantInput(pad, 1) || !halfOrFloat(pad.inputType(0)) ||
      pad.inputType(0) != pad.outputShape(0).type || pad.inputShape(0).dims.size() != 4 ||
      pad.inputShape(1).dims != Dims{4, 2})
    return false;
  const int32_t* p = pad.input<int32_t>(1);
  for (int i = 0; i < 7; ++i)
    if (p[i] != 0) return false;
  const Dims& in = pad.inputShape(0).dims;
  const Dims& out = pad.outputShape(0).dims;
  if (p[7] <= 0 || out.size() != 4 || in[0] != out[0] || in[1] != out[1] || in[2] != out[2] ||
      static_cast<uint64_t>(in[3]) + static_cast<uint64_t>(p[7]) != out[3])
    return false;
  *inC = in[3];
  return true;
}

// The fusion's description, or false where it does not apply: a relaxed model's 1x1 layer on the
// float16 GEMM (its packed weights, float32 bias) whose output is input `convAt` of `add`, an ADD
// the float16 ADD kernel takes (half_ops::addTakes), the other input the shortcut, or the
// output of `pad` (optional: a zero PAD of the channels' tail that only this ADD reads), whose
// input then is the shortcut. Data pointers are set when the contexts have data.
bool describeConvResidual(const OpContext& conv, const OpContext& add, const OpContext* pad,
                          HalfGemmResidual* f) {
  if (!conv.relaxed() || conv.numInputs() < 3 || conv.numOutputs() != 1 ||
      add.type() != OperationType::ADD || add.numInputs() != 3 || add.numOutputs() != 1 ||
      !constantInput(add, 2) || !half_ops::addTakes(add) ||
      !halfOrFloat(conv.inputType(0)) || conv.inputType(2) != OperandType::TENSOR_FLOAT32 ||
      !halfOrFloat(conv.outputShape(0).type))
    return false;
  const auto* cs = static_cast<const ConvState*>(conv.state());
  if (cs == nullptr || !cs->halfWeights || cs->halfStem || cs->useXnnpack) return false;
  Geometry g;
  if (resolveGeometry(conv, false, &g) != kOk) return false;
  if (g.p.nchw || g.filterH != 1 || g.filterW != 1 || g.p.strideH != 1 || g.p.strideW != 1 ||
      g.p.padTop != 0 || g.p.padLeft != 0 || g.p.padBottom != 0 || g.p.padRight != 0 ||
      cs->halfWeights->n != g.outC || cs->halfWeights->k != g.inC)
    return false;
  const int resAt = shortcutInput(conv, add);
  const int32_t activation = add.scalar<int32_t>(2);
  if (resAt < 0 || !isValidFusedActivation(activation) ||
      add.outputShape(0).dims != conv.outputShape(0).dims)
    return false;
  const std::vector<uint32_t>& ins = add.operation().inputs;
  uint32_t resC = g.outC;
  if (pad != nullptr) {
    if (pad->operation().outputs[0] != ins[resAt] || !channelTailPad(*pad, &resC)) return false;
  }
  f->m = g.batches * g.outH * g.outW;
  f->weights = &*cs->halfWeights;
  f->convActivation = g.p.activation;
  f->convHalfOut = conv.outputShape(0).type == OperandType::TENSOR_FLOAT16;
  f->resC = resC;
  f->addActivation = activation;
  f->bias = conv.input<float>(2);
  if (conv.inputType(0) == OperandType::TENSOR_FLOAT16) f->ah = conv.input<Half>(0);
  else f->a = conv.input<float>(0);
  const OpContext& resOwner = pad != nullptr ? *pad : add;
  const uint32_t resIndex = pad != nullptr ? 0 : resAt;
  if (resOwner.inputType(resIndex) == OperandType::TENSOR_FLOAT16)
    f->resH = resOwner.input<Half>(resIndex);
  else
    f->res = resOwner.input<float>(resIndex);
  if (add.outputShape(0).type == OperandType::TENSOR_FLOAT16) f->outH = add.output<Half>(0);
  else f->out = add.output<float>(0);
  return true;
}

// The float32 form: a 1x1 layer on the float32 panel GEMM (float32 data, packed weights, the
// path fastConvFloat takes alone) whose output is an input of `add` (float32, one shape, no
// broadcast), the other input the shortcut or the output of `pad` as above. The GEMM adds the
// shortcut in its epilogue (panelGemmFloatResidual): the ADD's sums and clamp, the same bits as
// the two layers, and the PAD's zeros are never written.
// BlazeFace's blocks in float32 (face_detection_short_range: 64x64x24->28 with a PAD of 4
// channels, 16 such blocks) spent 12% of the model in the PADs and ADDs.
struct FloatGemmResidual {
  uint32_t m = 0, resC = 0;
  const PackedFloatWeights* weights = nullptr;
  const float* bias = nullptr;
  int32_t convActivation = 0, addActivation = 0;
  const float* a = nullptr;
  const float* res = nullptr;
  float* out = nullptr;
};

bool describeConvResidualFloat(const OpContext& conv, const OpContext& add, const OpContext* pad,
                               FloatGemmResidual* f) {
  if (!panelGemmAvailable() || conv.numInputs() < 3 || conv.numOutputs() != 1 ||
      add.type() != OperationType::ADD || add.numInputs() != 3 || add.numOutputs() != 1 ||
      !constantInput(add, 2) || conv.inputType(0) != OperandType::TENSOR_FLOAT32 ||
      conv.inputType(2) != OperandType::TENSOR_FLOAT32 ||
      conv.outputShape(0).type != OperandType::TENSOR_FLOAT32 ||
      add.inputType(0) != OperandType::TENSOR_FLOAT32 ||
      add.inputType(1) != OperandType::TENSOR_FLOAT32 ||
      add.outputShape(0).type != OperandType::TENSOR_FLOAT32)
    return false;
  const auto* cs = static_cast<const ConvState*>(conv.state());
  if (cs == nullptr || !cs->floatWeights || cs->halfWeights || cs->halfStem || cs->useXnnpack)
    return false;
  Geometry g;
  if (resolveGeometry(conv, false, &g) != kOk) return false;
  if (g.p.nchw || g.filterH != 1 || g.filterW != 1 || g.p.strideH != 1 || g.p.strideW != 1 ||
      !panelGemmPreferred(g) || cs->floatWeights->n != g.outC || cs->floatWeights->k != g.inC)
    return false;
  const int resAt = shortcutInput(conv, add);
  const int32_t activation = add.scalar<int32_t>(2);
  const Dims& d = add.outputShape(0).dims;
  if (resAt < 0 || !isValidFusedActivation(activation) || conv.outputShape(0).dims != d ||
      add.inputShape(0).dims != d || add.inputShape(1).dims != d)
    return false;
  const std::vector<uint32_t>& ins = add.operation().inputs;
  uint32_t resC = g.outC;
  if (pad != nullptr) {
    if (pad->operation().outputs[0] != ins[resAt] || !channelTailPad(*pad, &resC) ||
        pad->inputType(0) != OperandType::TENSOR_FLOAT32)
      return false;
  }
  f->m = g.batches * g.outH * g.outW;
  f->weights = &*cs->floatWeights;
  f->bias = conv.input<float>(2);
  f->convActivation = g.p.activation;
  f->addActivation = activation;
  f->resC = resC;
  f->a = conv.input<float>(0);
  f->res = pad != nullptr ? pad->input<float>(0) : add.input<float>(resAt);
  f->out = add.output<float>(0);
  return true;
}

}  // namespace

bool convResidualFusable(const OpContext& conv, const OpContext& add, const OpContext* pad,
                         bool* float32) {
  HalfGemmResidual f;
  FloatGemmResidual ff;
  const bool half = describeConvResidual(conv, add, pad, &f);
  const bool single = !half && describeConvResidualFloat(conv, add, pad, &ff);
  if (float32 != nullptr) *float32 = single;
  return half || single;
}

Status runConvResidual(OpContext& conv, OpContext& add, const OpContext* pad) {
  HalfGemmResidual f;
  FloatGemmResidual ff;
  const bool half = describeConvResidual(conv, add, pad, &f);
  if (!half && !describeConvResidualFloat(conv, add, pad, &ff))
    return add.fail("the 1x1 + residual ADD fusion no longer applies");
  if (add.outputShape(0).count() == 0) return kOk;
  if (half) {
    Conv2dScratch fallback;
    Conv2dScratch& sc = scratchOr(conv, fallback);
    halfGemmResidual(f, conv.threadPool(), sc.kernel);
  } else {
    panelGemmFloatResidual(ff.m, ff.a, ff.weights->k, *ff.weights, ff.bias, ff.convActivation,
                           ff.res, ff.resC, ff.addActivation, ff.out, conv.threadPool());
  }
  gConvResidualRuns.fetch_add(1, std::memory_order_relaxed);
  return kOk;
}

uint64_t convResidualRuns() { return gConvResidualRuns.load(std::memory_order_relaxed); }

// ---- the float16 inverted bottleneck as one parallel region (block_half.h) -----------------

namespace {

std::atomic<uint64_t> gHalfBlockRuns{0};

// A relaxed model's 1x1 stride-1 unpadded NHWC CONV_2D on the float16 GEMM (packed weights, a
// float32 bias, constant filter and bias) reading float16 or float32 data: its geometry.
bool halfPointwise(const OpContext& conv, Geometry* g) {
  if (!conv.relaxed() || conv.type() != OperationType::CONV_2D || conv.numInputs() < 3 ||
      conv.numOutputs() != 1 || !halfOrFloat(conv.inputType(0)) ||
      !halfOrFloat(conv.inputType(1)) || conv.inputType(2) != OperandType::TENSOR_FLOAT32 ||
      !constantInput(conv, 1) || !constantInput(conv, 2) ||
      !halfOrFloat(conv.outputShape(0).type))
    return false;
  const auto* cs = static_cast<const ConvState*>(conv.state());
  if (cs == nullptr || !cs->halfWeights || cs->halfStem || cs->useXnnpack) return false;
  if (resolveGeometry(conv, false, g) != kOk) return false;
  return !g->p.nchw && g->filterH == 1 && g->filterW == 1 && g->p.strideH == 1 &&
         g->p.strideW == 1 && g->p.padTop == 0 && g->p.padLeft == 0 && g->p.padBottom == 0 &&
         g->p.padRight == 0 && cs->halfWeights->n == g->outC && cs->halfWeights->k == g->inC;
}

// The filter of a CONV_2D as float32 (a float16 one widened, exactly).
void filterValues(const OpContext& conv, std::vector<float>* out) {
  const size_t count = conv.inputShape(1).count();
  out->resize(count);
  if (conv.inputType(1) == OperandType::TENSOR_FLOAT16) {
    halfToFloat(conv.input<Half>(1), out->data(), count);
  } else {
    std::copy(conv.input<float>(1), conv.input<float>(1) + count, out->begin());
  }
}

// The block's description (without its packed weights), or false where it does not apply.
// Data pointers are set when the contexts have data.
bool describeHalfBlock(const OpContext& expand, const OpContext& dw, const OpContext& project,
                       const OpContext* add, HalfBlock* f) {
  if (!halfGemmAvailable()) return false;
  Geometry ge, gd, gp;
  if (!halfPointwise(expand, &ge) || !halfPointwise(project, &gp)) return false;
  if (expand.outputShape(0).type != OperandType::TENSOR_FLOAT16 ||
      project.inputType(0) != OperandType::TENSOR_FLOAT16 ||
      ge.inH * ge.inW > kHalfBlockMaxPixels || gp.inH * gp.inW > kHalfBlockMaxOutPixels ||
      ge.outC < kHalfBlockMinExpansion * ge.inC)
    return false;
  // The depthwise layer as it would run apart on the float16 kernel (depthwise_conv2d.cc):
  // float32 constant filter and bias, float16 data both sides, at least kHalfDwMinChannels.
  if (dw.type() != OperationType::DEPTHWISE_CONV_2D || dw.numInputs() < 3 ||
      dw.numOutputs() != 1 || dw.inputType(1) != OperandType::TENSOR_FLOAT32 ||
      dw.inputType(2) != OperandType::TENSOR_FLOAT32 || !constantInput(dw, 1) ||
      !constantInput(dw, 2) || dw.outputShape(0).type != OperandType::TENSOR_FLOAT16 ||
      resolveGeometry(dw, true, &gd) != kOk || !halfDepthwisePreferred(dw, gd) ||
      gd.inC < kHalfDwMinChannels || gd.inC != ge.outC || gd.outC != gp.inC ||
      gd.batches != ge.batches || gd.inH != ge.inH || gd.inW != ge.inW ||
      gp.inH != gd.outH || gp.inW != gd.outW || gp.batches != gd.batches)
    return false;
  f->inPixels = ge.batches * ge.inH * ge.inW;
  f->outPixels = gp.batches * gp.inH * gp.inW;
  f->k = ge.inC;
  f->n = gp.outC;
  f->expandActivation = ge.p.activation;
  f->depthwise = halfDepthwiseArgs(gd);  // channels: each share's, set by halfBlock
  f->depthwiseChannelRows = halfDepthwiseChannelRowsPreferred(gd);
  f->projectBias = project.input<float>(2);
  f->projectActivation = gp.p.activation;
  if (expand.inputType(0) == OperandType::TENSOR_FLOAT16) f->ah = expand.input<Half>(0);
  else f->a = expand.input<float>(0);
  if (add == nullptr) {
    if (project.outputShape(0).type == OperandType::TENSOR_FLOAT16)
      f->outH = project.output<Half>(0);
    else
      f->out = project.output<float>(0);
    return true;
  }
  // The ADD as the 1x1 + residual fusion takes it, without a PAD.
  HalfGemmResidual r;
  if (!describeConvResidual(project, *add, nullptr, &r) || r.resC != gp.outC) return false;
  f->roundProject = r.convHalfOut;
  f->res = r.res;
  f->resH = r.resH;
  f->addActivation = r.addActivation;
  f->out = r.out;
  f->outH = r.outH;
  return true;
}

}  // namespace

std::shared_ptr<const PackedHalfBlock> prepareHalfBlock(const OpContext& expand,
                                                        const OpContext& depthwise,
                                                        const OpContext& project,
                                                        const OpContext* add, int threads) {
  HalfBlock f;
  if (threads < 2 || !describeHalfBlock(expand, depthwise, project, add, &f)) return nullptr;
  const uint32_t h = depthwise.inputShape(0).dims[3];
  // Shares of at least 32 channels (one depthwise vector).
  const uint32_t chunks = std::min<uint32_t>({static_cast<uint32_t>(threads), kBlockHalfMaxParts,
                                              h / 32});
  if (chunks < 2) return nullptr;
  std::vector<float> e, p;
  filterValues(expand, &e);
  filterValues(project, &p);
  const Shape& df = depthwise.inputShape(1);
  auto packed = std::make_shared<PackedHalfBlock>();
  packHalfBlock(e.data(), expand.input<float>(2), depthwise.input<float>(1),
                depthwise.input<float>(2), p.data(), f.k, h, f.n, df.dims[1] * df.dims[2], chunks,
                packed.get());
  return packed;
}

Status runHalfBlock(const PackedHalfBlock& packed, OpContext& expand, OpContext& depthwise,
                    OpContext& project, OpContext* add) {
  HalfBlock f;
  if (!describeHalfBlock(expand, depthwise, project, add, &f))
    return project.fail("the float16 inverted bottleneck fusion no longer applies");
  if (f.outPixels == 0 || f.n == 0) return kOk;
  f.packed = &packed;
  Conv2dScratch fallback;
  Conv2dScratch& sc = scratchOr(project, fallback);
  halfBlock(f, project.threadPool(), sc.kernel);
  gHalfBlockRuns.fetch_add(1, std::memory_order_relaxed);
  return kOk;
}

uint64_t halfBlockRuns() { return gHalfBlockRuns.load(std::memory_order_relaxed); }

}  // namespace nn
