// GROUPED_CONV_2D kernels.
//
// Reference device: the direct loops of conv_reference. Fast device: float32 with constant
// filter and bias goes to XNNPACK's grouped convolution (weights packed at compilation); the
// other cases run the CONV_2D GEMM kernels once per group on a copy of the group's input
// channels (a single group needs no copy). The rest (init, type dispatch, float16 widening,
// XNNPACK fallback, quantization parameters) is conv_driver.h's.
#include <cstring>
#include <string>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/conv_driver.h"
#include "cpu/kernels/conv_fast.h"
#include "cpu/kernels/conv_reference.h"
#include "cpu/xnnpack_util.h"

namespace nn {
namespace {

using namespace conv;  // NOLINT: the family's types and helpers

constexpr uint32_t kFilter = 1, kBias = 2;

// The geometry of one group as a plain convolution.
Geometry groupGeometry(const GroupedGeometry& gg) {
  Geometry g = gg.g;
  g.inC = gg.groupIn;
  g.outC = gg.groupOut;
  return g;
}

// ---- per-group GEMM ----------------------------------------------------------------------

// The per-group channel slices of input and output (multi-group models only).
struct GroupedSlices {
  ScratchBuffer groupInput, groupOutput;
};

// Copies `width` elements of each of `rows` pixels from src (stride srcStride) to dst
// (stride dstStride).
void copyChannels(const uint8_t* src, size_t srcStride, uint8_t* dst, size_t dstStride,
                  size_t width, size_t rows) {
  for (size_t r = 0; r < rows; ++r) memcpy(dst + r * dstStride, src + r * srcStride, width);
}

// Runs kernel(groupGeometry, group, groupInput, groupOutput) for each group, slicing the NHWC
// input/output channels through copies in `sc` when there is more than one group.
template <typename Kernel>
void perGroup(const GroupedGeometry& gg, uint32_t elemSize, const void* input, void* output,
              GroupedSlices& sc, const Kernel& kernel) {
  const Geometry& g = gg.g;
  const Geometry sub = groupGeometry(gg);
  if (gg.groups == 1) {
    kernel(sub, 0u, input, output);
    return;
  }
  const size_t inPixels = static_cast<size_t>(g.batches) * g.inH * g.inW;
  const size_t outPixels = static_cast<size_t>(g.batches) * g.outH * g.outW;
  uint8_t* in = sc.groupInput.get<uint8_t>(inPixels * gg.groupIn * elemSize);
  uint8_t* out = sc.groupOutput.get<uint8_t>(outPixels * gg.groupOut * elemSize);
  const uint8_t* src = static_cast<const uint8_t*>(input);
  uint8_t* dst = static_cast<uint8_t*>(output);
  for (uint32_t group = 0; group < gg.groups; ++group) {
    copyChannels(src + static_cast<size_t>(group) * gg.groupIn * elemSize, g.inC * elemSize, in,
                 gg.groupIn * elemSize, gg.groupIn * elemSize, inPixels);
    kernel(sub, group, static_cast<const void*>(in), static_cast<void*>(out));
    copyChannels(out, gg.groupOut * elemSize,
                 dst + static_cast<size_t>(group) * gg.groupOut * elemSize, g.outC * elemSize,
                 gg.groupOut * elemSize, outPixels);
  }
}

// ---- state -----------------------------------------------------------------------------

// Built by init, read-only while executing.
struct GroupedState : public PreparedConv {
  std::vector<QuantParams> groupQuant;           // `quant` split per group (when quantReady)
  std::vector<PackedQuantWeights> quantWeights;  // per group, constant quant8 filter
  std::vector<PackedFloatWeights> floatWeights;  // per group, constant float filter
};

struct GroupedScratch : public XnnScratch<XnnConvolution>, public GroupedSlices {};
// The type of this operation's table (at the end of the file).
using Kernels = OpKernels<GroupedGeometry, GroupedState, GroupedScratch>;

XnnConvConfig xnnConfig(const GroupedGeometry& gg) {
  return xnnConvConfig(gg.g, gg.groups, gg.groupIn, gg.groupOut, /*depthwise=*/false);
}

bool xnnpackSupported(const GroupedGeometry& gg) {
  return xnnConvolutionSupported(xnnConfig(gg));
}

// Splits whole-tensor quantization parameters into one set per group.
void splitQuant(const GroupedGeometry& gg, const QuantParams& q, std::vector<QuantParams>* out) {
  out->assign(gg.groups, q);
  for (uint32_t group = 0; group < gg.groups; ++group) {
    QuantParams& p = (*out)[group];
    const size_t first = static_cast<size_t>(group) * gg.groupOut;
    p.multiplier.assign(q.multiplier.begin() + first, q.multiplier.begin() + first + gg.groupOut);
    p.shift.assign(q.shift.begin() + first, q.shift.begin() + first + gg.groupOut);
  }
}

void packFloatGroups(OpContext& ctx, const GroupedGeometry& gg,
                     std::vector<PackedFloatWeights>* out) {
  const size_t k = static_cast<size_t>(gg.g.filterH) * gg.g.filterW * gg.groupIn;
  const size_t count = static_cast<size_t>(gg.g.outC) * k;
  std::vector<float> converted;
  const float* f = nullptr;
  if (ctx.inputType(kFilter) == OperandType::TENSOR_FLOAT16) {
    converted.resize(count);
    halfToFloat(ctx.input<Half>(kFilter), converted.data(), count);
    f = converted.data();
  } else {
    f = ctx.input<float>(kFilter);
  }
  out->resize(gg.groups);
  for (uint32_t group = 0; group < gg.groups; ++group)
    packFloatWeights(f + static_cast<size_t>(group) * gg.groupOut * k, gg.groupOut,
                     static_cast<uint32_t>(k), &(*out)[group]);
}

void packQuantGroups(OpContext& ctx, const GroupedGeometry& gg,
                     std::vector<PackedQuantWeights>* out) {
  const Shape& f = ctx.inputShape(kFilter);
  const bool unsignedFilter = f.type == OperandType::TENSOR_QUANT8_ASYMM;
  const int32_t zero = f.type == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL ? 0 : f.zeroPoint;
  const size_t k = static_cast<size_t>(gg.g.filterH) * gg.g.filterW * gg.groupIn;
  const uint8_t* data = static_cast<const uint8_t*>(ctx.inputData(kFilter));
  out->resize(gg.groups);
  for (uint32_t group = 0; group < gg.groups; ++group)
    packQuantWeights(data + static_cast<size_t>(group) * gg.groupOut * k, unsignedFilter, zero,
                     gg.groupOut, static_cast<uint32_t>(k), &(*out)[group]);
}

void prepareQuant(const GroupedGeometry& gg, GroupedState& st) {
  splitQuant(gg, st.quant, &st.groupQuant);
}
void prepareQuantFilter(OpContext& ctx, const GroupedGeometry& gg, GroupedState& st) {
  packQuantGroups(ctx, gg, &st.quantWeights);
}
void prepareFloatFilter(OpContext& ctx, const GroupedGeometry& gg, GroupedState& st) {
  packFloatGroups(ctx, gg, &st.floatWeights);
}

// ---- execution -------------------------------------------------------------------------

bool runXnnpack(OpContext& ctx, const GroupedGeometry& gg, GroupedScratch& sc, const float* in,
                float* out, std::string* error) {
  return runXnnConvolution(ctx, gg.g, xnnConfig(gg), sc.xnn, in, out, error);
}

// The per-group GEMM on float32 data (float32 without XNNPACK, float16 widened).
void portableFloat(OpContext& ctx, const GroupedGeometry& gg, const GroupedState& st,
                   GroupedScratch& sc, const float* in, const float* bias, float* out) {
  const PreparedOrNow<std::vector<PackedFloatWeights>> w(
      st.floatWeights.size() == gg.groups ? &st.floatWeights : nullptr,
      [&](std::vector<PackedFloatWeights>* p) { packFloatGroups(ctx, gg, p); });
  perGroup(gg, sizeof(float), in, out, sc,
           [&](const Geometry& sub, uint32_t group, const void* gin, void* gout) {
             fastConvFloat(sub, static_cast<const float*>(gin), (*w)[group],
                           bias + static_cast<size_t>(group) * gg.groupOut,
                           static_cast<float*>(gout), ctx.threadPool(), sc.kernel);
           });
}

void quant(OpContext& ctx, const GroupedGeometry& gg, const GroupedState& st, GroupedScratch& sc,
           const QuantParams& q, const void* in, void* out) {
  const PreparedOrNow<std::vector<QuantParams>> groupQuant(
      st.quantReady ? &st.groupQuant : nullptr,
      [&](std::vector<QuantParams>* p) { splitQuant(gg, q, p); });
  const PreparedOrNow<std::vector<PackedQuantWeights>> w(
      st.quantWeights.size() == gg.groups ? &st.quantWeights : nullptr,
      [&](std::vector<PackedQuantWeights>* p) { packQuantGroups(ctx, gg, p); });
  const bool isSigned = signedData(ctx);
  const int32_t* bias = ctx.input<int32_t>(kBias);
  perGroup(gg, 1, in, out, sc,
           [&](const Geometry& sub, uint32_t group, const void* gin, void* gout) {
             fastConvQuant(sub, (*groupQuant)[group], isSigned, gin, (*w)[group],
                           bias + static_cast<size_t>(group) * gg.groupOut, gout,
                           ctx.threadPool(), sc.kernel);
           });
}

// In OpKernels order: geometry, reference kernels, init's hooks, the fast device's kernels.
constexpr Kernels kGrouped = {resolveGroupedGeometry, &kGroupedReference, xnnpackSupported,
    prepareQuantFilter, prepareFloatFilter, prepareQuant, runXnnpack, portableFloat, quant};

}  // namespace

NN_DEFINE_CONV_KERNEL(GROUPED_CONV_2D, kGrouped);

}  // namespace nn
