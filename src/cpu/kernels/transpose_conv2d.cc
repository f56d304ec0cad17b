// TRANSPOSE_CONV_2D kernels.
//
// Reference device: the scatter loop of the spec in conv_reference (every input pixel adds
// input * filter into a window of the output). Fast device: float32 with constant filter and
// bias goes to XNNPACK's deconvolution (weights packed at compilation); everything else uses a
// gather kernel parallel over output rows, with the filter repacked as [kh][kw][ic][oc] so the
// innermost loop runs over output channels. Integer accumulation makes the quantized results
// identical whatever the summation order. The rest (init, type dispatch, float16 widening,
// XNNPACK fallback, quantization parameters) is conv_driver.h's.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/conv_dispatch.h"
#include "cpu/kernels/conv_driver.h"
#include "cpu/kernels/conv_reference.h"
#include "cpu/xnnpack_util.h"

namespace nn {
namespace {

using namespace conv;  // NOLINT: the family's types and helpers

constexpr uint32_t kFilter = 1, kBias = 2;

// ---- fast kernels (NHWC): gather over output rows --------------------------------------

// Filter [oc][kh][kw][ic] -> [kh][kw][ic][oc], minus the zero point for quantized filters.
template <typename TOut, typename TIn>
void repackFilter(const Geometry& g, const TIn* filter, int32_t zeroPoint, std::vector<TOut>* out) {
  const size_t taps = static_cast<size_t>(g.filterH) * g.filterW;
  out->resize(taps * g.inC * g.outC);
  for (uint32_t oc = 0; oc < g.outC; ++oc)
    for (size_t t = 0; t < taps; ++t)
      for (uint32_t ic = 0; ic < g.inC; ++ic)
        (*out)[(t * g.inC + ic) * g.outC + oc] =
            static_cast<TOut>(static_cast<TOut>(filter[(oc * taps + t) * g.inC + ic]) -
                              static_cast<TOut>(zeroPoint));
}

// Calls tap(ih, iw, kh, kw) for every input pixel feeding output pixel (oh, ow).
template <typename Fn>
inline void forEachSource(const Geometry& g, uint32_t oh, uint32_t ow, const Fn& tap) {
  for (uint32_t kh = 0; kh < g.filterH; ++kh) {
    const int64_t th = static_cast<int64_t>(oh) + g.p.padTop - kh;
    if (th < 0 || th % g.p.strideH != 0) continue;
    const int64_t ih = th / g.p.strideH;
    if (ih >= g.inH) continue;
    for (uint32_t kw = 0; kw < g.filterW; ++kw) {
      const int64_t tw = static_cast<int64_t>(ow) + g.p.padLeft - kw;
      if (tw < 0 || tw % g.p.strideW != 0) continue;
      const int64_t iw = tw / g.p.strideW;
      if (iw >= g.inW) continue;
      tap(static_cast<uint32_t>(ih), static_cast<uint32_t>(iw), kh, kw);
    }
  }
}

// The row loop comes from the run-time ISA table (conv_dispatch.h).
void fastTransposeFloat(const Geometry& g, const float* input, const float* filterT,
                        const float* bias, float* output, ThreadPool* pool,
                        KernelScratch& ks) {
  ConvTransposeFloatArgs a{};
  setFloatArgs(g, input, filterT, bias, output, &a);
  a.outC = g.outC;
  runFloatRows(convIsaKernels().transposeFloatRows, a, g, pool, ks);
}

template <typename T>
void fastTransposeQuant(const Geometry& g, const QuantParams& q, const T* input,
                        const int32_t* filterT, const int32_t* bias, T* output, ThreadPool* pool,
                        KernelScratch& ks) {
  const uint32_t C = g.outC;
  const size_t rows = static_cast<size_t>(g.batches) * g.outH;
  runSlotted<int32_t>(pool, ks, rows, C, [&](size_t begin, size_t end, int32_t* acc) {
    for (size_t row = begin; row < end; ++row) {
      const uint32_t b = static_cast<uint32_t>(row / g.outH);
      const uint32_t oh = static_cast<uint32_t>(row % g.outH);
      for (uint32_t ow = 0; ow < g.outW; ++ow) {
        std::copy(bias, bias + C, acc);
        forEachSource(g, oh, ow, [&](uint32_t ih, uint32_t iw, uint32_t kh, uint32_t kw) {
          const T* in = input + nhwc(g, b, ih, iw);
          const int32_t* f = filterT + (static_cast<size_t>(kh) * g.filterW + kw) * g.inC * C;
          for (uint32_t ic = 0; ic < g.inC; ++ic, f += C) {
            const int32_t x = static_cast<int32_t>(in[ic]) - q.inputZeroPoint;
            for (uint32_t oc = 0; oc < C; ++oc) acc[oc] += x * f[oc];
          }
        });
        T* o = output + outIndex(g, b, oh, ow);
        for (uint32_t oc = 0; oc < C; ++oc) {
          int32_t v = requantize(acc[oc], q.multiplier[oc], q.shift[oc]) + q.outputZeroPoint;
          o[oc] = static_cast<T>(std::max(q.actMin, std::min(q.actMax, v)));
        }
      }
    }
  });
}

// ---- state -----------------------------------------------------------------------------

// Built by init, read-only while executing.
struct TransposeConvState : public PreparedConv {
  std::optional<std::vector<int32_t>> quantFilter;  // repacked constant quant8 filter
  std::optional<std::vector<float>> floatFilter;    // repacked constant float16/float32 filter
};

// One execution's XNNPACK operator, recreated if the geometry changes.
using TransposeConvScratch = XnnScratch<XnnDeconvolution>;
// The type of this operation's table (at the end of the file).
using Kernels = OpKernels<Geometry, TransposeConvState, TransposeConvScratch>;

// XNNPACK takes non-negative paddings plus an adjustment (< stride) that extends the output
// at the bottom/right: a negative tail padding maps onto it.
bool xnnConfig(const Geometry& g, XnnDeconvConfig* c, uint32_t* adjH, uint32_t* adjW) {
  const auto split = [](int32_t tail, int32_t stride, uint32_t* pad, uint32_t* adj) {
    if (tail >= 0) {
      *pad = static_cast<uint32_t>(tail);
      *adj = 0;
      return true;
    }
    if (-tail >= stride) return false;
    *pad = 0;
    *adj = static_cast<uint32_t>(-tail);
    return true;
  };
  if (!split(g.p.padBottom, g.p.strideH, &c->padBottom, adjH) ||
      !split(g.p.padRight, g.p.strideW, &c->padRight, adjW))
    return false;
  c->padTop = static_cast<uint32_t>(g.p.padTop);
  c->padLeft = static_cast<uint32_t>(g.p.padLeft);
  c->kernelH = g.filterH;
  c->kernelW = g.filterW;
  c->strideH = static_cast<uint32_t>(g.p.strideH);
  c->strideW = static_cast<uint32_t>(g.p.strideW);
  c->groups = 1;
  c->groupInputChannels = g.inC;
  c->groupOutputChannels = g.outC;
  activationRangeFloat(g.p.activation, &c->outputMin, &c->outputMax);
  return true;
}

void repackFloatFilter(OpContext& ctx, const Geometry& g, std::vector<float>* out) {
  if (ctx.inputType(kFilter) == OperandType::TENSOR_FLOAT16)
    repackFilter<float>(g, ctx.input<Half>(kFilter), 0, out);
  else
    repackFilter<float>(g, ctx.input<float>(kFilter), 0, out);
}

void repackQuantFilter(OpContext& ctx, const Geometry& g, std::vector<int32_t>* out) {
  const Shape& f = ctx.inputShape(kFilter);
  if (f.type == OperandType::TENSOR_QUANT8_ASYMM)
    repackFilter<int32_t>(g, ctx.input<uint8_t>(kFilter), f.zeroPoint, out);
  else if (f.type == OperandType::TENSOR_QUANT8_ASYMM_SIGNED)
    repackFilter<int32_t>(g, ctx.input<int8_t>(kFilter), f.zeroPoint, out);
  else
    repackFilter<int32_t>(g, ctx.input<int8_t>(kFilter), 0, out);  // per-channel: symmetric
}

bool xnnpackSupported(const Geometry& g) {
  // XNNPACK's deconvolution crashes (a null indirection row in its igemm, or a fault in
  // setup) when an output extent is smaller than the stride or a padding covers a whole
  // kernel extent, i.e. when some output phase has no input tap: those shapes take the
  // gather kernel (issue 9).
  if (g.outH < static_cast<uint32_t>(g.p.strideH) || g.outW < static_cast<uint32_t>(g.p.strideW))
    return false;
  if (g.p.padTop >= static_cast<int32_t>(g.filterH) ||
      g.p.padBottom >= static_cast<int32_t>(g.filterH) ||
      g.p.padLeft >= static_cast<int32_t>(g.filterW) ||
      g.p.padRight >= static_cast<int32_t>(g.filterW))
    return false;
  XnnDeconvConfig c;
  uint32_t adjH = 0, adjW = 0;
  return xnnConfig(g, &c, &adjH, &adjW) && xnnDeconvolutionSupported(c);
}

void prepareQuantFilter(OpContext& ctx, const Geometry& g, TransposeConvState& st) {
  repackQuantFilter(ctx, g, &st.quantFilter.emplace());
}
void prepareFloatFilter(OpContext& ctx, const Geometry& g, TransposeConvState& st) {
  repackFloatFilter(ctx, g, &st.floatFilter.emplace());
}

// ---- execution -------------------------------------------------------------------------

// False (with *error set) when this execution's operator cannot be created or run.
bool runXnnpack(OpContext& ctx, const Geometry& g, TransposeConvScratch& sc, const float* in,
                float* out, std::string* error) {
  XnnDeconvConfig want;
  uint32_t adjH = 0, adjW = 0;
  *error = "geometry not expressible";
  bool ok = xnnConfig(g, &want, &adjH, &adjW);
  if (ok && !(sc.xnn.valid() && sameConfig(sc.xnn.config(), want)))
    ok = sc.xnn.create(want, ctx.input<float>(kFilter), ctx.input<float>(kBias), error);
  return ok && sc.xnn.run(g.batches, g.inH, g.inW, adjH, adjW, in, out, ctx.threadPool(), error);
}

// The gather kernel on float32 data (float32 without XNNPACK, float16 widened).
void portableFloat(OpContext& ctx, const Geometry& g, const TransposeConvState& st,
                   TransposeConvScratch& sc, const float* in, const float* bias, float* out) {
  const PreparedOrNow<std::vector<float>> f(st.floatFilter, repackFloatFilter, ctx, g);
  fastTransposeFloat(g, in, f->data(), bias, out, ctx.threadPool(), sc.kernel);
}

void quant(OpContext& ctx, const Geometry& g, const TransposeConvState& st,
           TransposeConvScratch& sc, const QuantParams& q, const void* in, void* out) {
  const PreparedOrNow<std::vector<int32_t>> f(st.quantFilter, repackQuantFilter, ctx, g);
  const int32_t* bias = ctx.input<int32_t>(kBias);
  if (signedData(ctx))
    fastTransposeQuant(g, q, static_cast<const int8_t*>(in), f->data(), bias,
                       static_cast<int8_t*>(out), ctx.threadPool(), sc.kernel);
  else
    fastTransposeQuant(g, q, static_cast<const uint8_t*>(in), f->data(), bias,
                       static_cast<uint8_t*>(out), ctx.threadPool(), sc.kernel);
}

// In OpKernels order: geometry, reference kernels, init's hooks, the fast device's kernels.
constexpr Kernels kTranspose = {resolveTransposeGeometry, &kTransposeReference, xnnpackSupported,
    prepareQuantFilter, prepareFloatFilter, nullptr, runXnnpack, portableFloat, quant};

}  // namespace

NN_DEFINE_CONV_KERNEL(TRANSPOSE_CONV_2D, kTranspose);

}  // namespace nn
