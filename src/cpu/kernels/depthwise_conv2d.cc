// DEPTHWISE_CONV_2D kernels.
//
// Reference device: the direct loops of conv_reference. Fast device: float32 goes to XNNPACK
// (weights packed at compilation) when filter and bias are constants, else to a
// channel-vectorized loop; quant8 uses the same loop shape in int32 with the filter's zero
// point removed once, and requantizes exactly like the reference. The rest (init, type
// dispatch, float16 widening, XNNPACK fallback, quantization parameters) is conv_driver.h's.
#include <optional>
#include <string>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/conv_driver.h"
#include "cpu/kernels/conv_fast.h"
#include "cpu/kernels/conv_reference.h"
#include "cpu/kernels/gemm_half.h"
#include "cpu/xnnpack_util.h"

namespace nn {
namespace {

using namespace conv;  // NOLINT: the family's types and helpers

// Built by init, read-only while executing.
struct DepthwiseState : public PreparedConv {
  std::optional<PackedDepthwiseFilter> quantFilter;  // constant quant8 filter
  std::vector<float> floatFilter;  // constant float16 filter, widened (float32 is used as it is)
  // Float16 data of a relaxed model (halfDepthwisePreferred): filter and bias rounded.
  std::optional<PackedHalfDepthwise> halfFilter;
};

using DepthwiseScratch = XnnScratch<XnnConvolution>;
// The type of this operation's table (at the end of the file).
using Kernels = OpKernels<Geometry, DepthwiseState, DepthwiseScratch>;

XnnConvConfig xnnConfig(const Geometry& g) {
  return xnnConvConfig(g, g.inC, 1, static_cast<size_t>(g.p.depthMultiplier), /*depthwise=*/true);
}

// Not where the register-blocked direct kernel measured faster (conv_direct.cc): portableFloat
// (fastDepthwiseFloat) takes it.
bool xnnpackSupported(const Geometry& g) {
  return !directDepthwisePreferred(g) && xnnConvolutionSupported(xnnConfig(g));
}

void packQuantFilter(OpContext& ctx, const Geometry& g, PackedDepthwiseFilter* out) {
  const Shape& f = ctx.inputShape(1);
  const int32_t zero = f.type == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL ? 0 : f.zeroPoint;
  packDepthwiseFilter(ctx.inputData(1), f.type, zero, g.filterH * g.filterW, g.outC, out);
}

void prepareQuantFilter(OpContext& ctx, const Geometry& g, DepthwiseState& st) {
  packQuantFilter(ctx, g, &st.quantFilter.emplace());
}
void prepareFloatFilter(OpContext& ctx, const Geometry& g, DepthwiseState& st) {
  if (halfDepthwisePreferred(ctx, g) && ctx.inputType(1) == OperandType::TENSOR_FLOAT32 &&
      ctx.inputType(2) == OperandType::TENSOR_FLOAT32 && constantInput(ctx, 2)) {
    packHalfDepthwise(ctx.input<float>(1), ctx.input<float>(2), g.filterH * g.filterW, g.outC,
                      &st.halfFilter.emplace());
    return;
  }
  if (ctx.inputType(1) != OperandType::TENSOR_FLOAT16) return;
  st.floatFilter.resize(ctx.inputShape(1).count());
  halfToFloat(ctx.input<Half>(1), st.floatFilter.data(), st.floatFilter.size());
}

bool runXnnpack(OpContext& ctx, const Geometry& g, DepthwiseScratch& sc, const float* in,
                float* out, std::string* error) {
  return runXnnConvolution(ctx, g, xnnConfig(g), sc.xnn, in, out, error);
}

// The channel-vectorized loop. A float32 filter is used as it is; a float16 one is the copy
// init widened, or one widened now.
void portableFloat(OpContext& ctx, const Geometry& g, const DepthwiseState& st,
                   DepthwiseScratch& sc, const float* in, const float* bias, float* out) {
  const float* filter = ctx.input<float>(1);
  if (ctx.inputType(1) == OperandType::TENSOR_FLOAT16)
    filter = !st.floatFilter.empty() ? st.floatFilter.data() : widenInput(ctx, 1, sc.wideFilter);
  fastDepthwiseFloat(g, in, filter, bias, out, ctx.threadPool(), sc.kernel);
}

// Float16 input of a relaxed model (float16 or float32 output): the float16 kernel.
bool halfData(OpContext& ctx, const Geometry& g, const DepthwiseState& st, DepthwiseScratch&) {
  if (!st.halfFilter || !halfDepthwisePreferred(ctx, g)) return false;
  const bool halfOut = ctx.outputShape(0).type == OperandType::TENSOR_FLOAT16;
  halfDepthwise(g, ctx.input<Half>(0), *st.halfFilter, halfOut ? ctx.output<Half>(0) : nullptr,
                halfOut ? nullptr : ctx.output<float>(0), ctx.threadPool());
  return true;
}

// The same loop in int32.
void quant(OpContext& ctx, const Geometry& g, const DepthwiseState& st, DepthwiseScratch& sc,
           const QuantParams& q, const void* in, void* out) {
  const PreparedOrNow<PackedDepthwiseFilter> filter(st.quantFilter, packQuantFilter, ctx, g);
  fastDepthwiseQuant(g, q, signedData(ctx), in, *filter, ctx.input<int32_t>(2), out,
                     ctx.threadPool(), sc.kernel);
}

// In OpKernels order: geometry, reference kernels, init's hooks, the fast device's kernels.
constexpr Kernels kDepthwise = {resolveWindowGeometry<true>, &kDepthwiseReference, xnnpackSupported,
    prepareQuantFilter, prepareFloatFilter, nullptr, runXnnpack, portableFloat, quant, halfData};

}  // namespace

NN_DEFINE_CONV_KERNEL(DEPTHWISE_CONV_2D, kDepthwise);

namespace conv {
const PackedHalfDepthwise* preparedHalfDepthwise(const OpContext& ctx, const Geometry& g) {
  const auto* st = static_cast<const DepthwiseState*>(ctx.state());
  if (st == nullptr || !st->halfFilter || !halfDepthwisePreferred(ctx, g)) return nullptr;
  return &*st->halfFilter;
}
}  // namespace conv

}  // namespace nn
