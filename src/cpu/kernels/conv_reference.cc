#include "cpu/kernels/conv_reference.h"

#include <algorithm>
#include <type_traits>
#include <vector>

#include "cpu/kernels/conv_common.h"
#include "spec/ops/common.h"

namespace nn {
namespace conv {
namespace {

// What differs between the float32 and the quant8 form of a reference kernel: the product of
// an input and a filter element, and how a sum becomes an output element. The loops below are
// written once over these, so both forms sum in the same (spec) order.
struct FloatArith {
  using Acc = float;
  float lo, hi;
  explicit FloatArith(int32_t activation) { activationRangeFloat(activation, &lo, &hi); }
  float product(float x, float w) const { return x * w; }
  float finish(float acc, float bias, uint32_t) const {
    return std::min(hi, std::max(lo, acc + bias));
  }
};

// T: uint8_t or int8_t output. Filters may be uint8 or int8 (per-channel filters are int8,
// with filterZeroPoint 0).
template <typename T>
struct QuantArith {
  using Acc = int32_t;
  const QuantParams& q;
  template <typename TIn, typename TFilter>
  int32_t product(TIn x, TFilter w) const {
    return (static_cast<int32_t>(x) - q.inputZeroPoint) *
           (static_cast<int32_t>(w) - q.filterZeroPoint);
  }
  T finish(int32_t acc, int32_t bias, uint32_t channel) const {
    int32_t v = multiplyByQuantizedMultiplier(acc + bias, q.multiplier[channel], q.shift[channel]);
    v += q.outputZeroPoint;
    return static_cast<T>(std::max(q.actMin, std::min(q.actMax, v)));
  }
};

// The direct form of the windowed convolutions: every output element (b, oh, ow, oc) starts
// from zero, takes taps(acc, b, ih, iw, kh, kw, oc) for each filter tap inside the input, then
// its bias and the finish.
template <typename Arith, typename TBias, typename TOut, typename Taps>
void directWindow(const Geometry& g, const Arith& a, const TBias* bias, TOut* output,
                  const Taps& taps) {
  forEachOutput(g, [&](uint32_t b, uint32_t oh, uint32_t ow, uint32_t oc) {
    typename Arith::Acc acc = 0;
    forEachTap(g, oh, ow, [&](uint32_t ih, uint32_t iw, uint32_t kh, uint32_t kw) {
      taps(acc, b, ih, iw, kh, kw, oc);
    });
    output[outIndex(g, b, oh, ow) + oc] = a.finish(acc, bias[oc], oc);
  });
}

// CONV_2D and GROUPED_CONV_2D: output channel oc sums over the `groupIn` input channels of its
// group (all of them for CONV_2D); filter [outC][filterH][filterW][groupIn].
template <typename Arith, typename TIn, typename TFilter, typename TBias, typename TOut>
void directConv(const Geometry& g, uint32_t groupIn, uint32_t groupOut, const Arith& a,
                const TIn* input, const TFilter* filter, const TBias* bias, TOut* output) {
  directWindow(
      g, a, bias, output,
      [&](typename Arith::Acc& acc, uint32_t b, uint32_t ih, uint32_t iw, uint32_t kh, uint32_t kw,
          uint32_t oc) {
        const TIn* in = input + nhwc(g, b, ih, iw) + static_cast<size_t>(oc / groupOut) * groupIn;
        const TFilter* f =
            filter + ((static_cast<size_t>(oc) * g.filterH + kh) * g.filterW + kw) * groupIn;
        for (uint32_t ic = 0; ic < groupIn; ++ic) acc += a.product(in[ic], f[ic]);
      });
}

// One struct per operation: its loop as run(geometry, arith, input, filter, bias, output), so
// referenceTable can instantiate it for each type pair.
struct ConvLoop {
  template <typename Arith, typename TIn, typename TFilter, typename TBias, typename TOut>
  static void run(const Geometry& g, const Arith& a, const TIn* input, const TFilter* filter,
                  const TBias* bias, TOut* output) {
    directConv(g, g.inC, g.outC, a, input, filter, bias, output);
  }
};

struct GroupedLoop {
  template <typename Arith, typename TIn, typename TFilter, typename TBias, typename TOut>
  static void run(const GroupedGeometry& gg, const Arith& a, const TIn* input,
                  const TFilter* filter, const TBias* bias, TOut* output) {
    directConv(gg.g, gg.groupIn, gg.groupOut, a, input, filter, bias, output);
  }
};

// DEPTHWISE_CONV_2D: output channel oc reads input channel oc / depthMultiplier; filter
// [filterH][filterW][outC].
struct DepthwiseLoop {
  template <typename Arith, typename TIn, typename TFilter, typename TBias, typename TOut>
  static void run(const Geometry& g, const Arith& a, const TIn* input, const TFilter* filter,
                  const TBias* bias, TOut* output) {
    const uint32_t m = static_cast<uint32_t>(g.p.depthMultiplier);
    directWindow(g, a, bias, output,
                 [&](typename Arith::Acc& acc, uint32_t b, uint32_t ih, uint32_t iw, uint32_t kh,
                     uint32_t kw, uint32_t oc) {
                   const size_t f = (static_cast<size_t>(kh) * g.filterW + kw) * g.outC + oc;
                   acc += a.product(input[nhwc(g, b, ih, iw) + oc / m], filter[f]);
                 });
  }
};

// TRANSPOSE_CONV_2D in the scatter form of the spec: every input pixel adds input * filter into
// a window of the output; filter [outC][filterH][filterW][inC]; g.p.pad* may have negative
// tails.
struct TransposeLoop {
  static size_t outPixel(const Geometry& g, uint32_t b, int64_t h, int64_t w) {
    return ((static_cast<size_t>(b) * g.outH + static_cast<size_t>(h)) * g.outW +
            static_cast<size_t>(w)) *
           g.outC;
  }

  // Calls add(outputIndex, filterIndex) for every (output element, filter tap) pair that input
  // pixel (b, ih, iw) contributes to; filterIndex is the start of the ic run.
  template <typename Fn>
  static void forEachTarget(const Geometry& g, uint32_t b, uint32_t ih, uint32_t iw,
                            const Fn& add) {
    const int64_t oh0 = static_cast<int64_t>(ih) * g.p.strideH - g.p.padTop;
    const int64_t ow0 = static_cast<int64_t>(iw) * g.p.strideW - g.p.padLeft;
    for (uint32_t oc = 0; oc < g.outC; ++oc)
      for (uint32_t kh = 0; kh < g.filterH; ++kh) {
        const int64_t oh = oh0 + kh;
        if (oh < 0 || oh >= g.outH) continue;
        for (uint32_t kw = 0; kw < g.filterW; ++kw) {
          const int64_t ow = ow0 + kw;
          if (ow < 0 || ow >= g.outW) continue;
          add(outPixel(g, b, oh, ow) + oc,
              ((static_cast<size_t>(oc) * g.filterH + kh) * g.filterW + kw) * g.inC);
        }
      }
  }

  template <typename Arith, typename TIn, typename TFilter, typename TBias, typename TOut>
  static void run(const Geometry& g, const Arith& a, const TIn* input, const TFilter* filter,
                  const TBias* bias, TOut* output) {
    using Acc = typename Arith::Acc;
    const size_t outCount = static_cast<size_t>(g.batches) * g.outH * g.outW * g.outC;
    // float32 sums in the output itself; quant8 needs int32 sums beside it.
    std::vector<Acc> sums;
    Acc* acc = nullptr;
    if constexpr (std::is_same<Acc, TOut>::value) {
      acc = output;
    } else {
      sums.resize(outCount);
      acc = sums.data();
    }
    std::fill(acc, acc + outCount, Acc{0});
    for (uint32_t b = 0; b < g.batches; ++b)
      for (uint32_t ih = 0; ih < g.inH; ++ih)
        for (uint32_t iw = 0; iw < g.inW; ++iw) {
          const TIn* in = input + ((static_cast<size_t>(b) * g.inH + ih) * g.inW + iw) * g.inC;
          forEachTarget(g, b, ih, iw, [&](size_t o, size_t f) {
            for (uint32_t ic = 0; ic < g.inC; ++ic) acc[o] += a.product(in[ic], filter[f + ic]);
          });
        }
    for (size_t i = 0; i < outCount; ++i) {
      const uint32_t oc = static_cast<uint32_t>(i % g.outC);
      output[i] = a.finish(acc[i], bias[oc], oc);
    }
  }
};

// FULLY_CONNECTED: input [batches, inputSize], weights [units, inputSize].
struct FullyConnectedLoop {
  template <typename Arith, typename TIn, typename TFilter, typename TBias, typename TOut>
  static void run(const FcShape& s, const Arith& a, const TIn* input, const TFilter* weights,
                  const TBias* bias, TOut* output) {
    const uint32_t k = s.inputSize;
    for (uint32_t b = 0; b < s.batches; ++b)
      for (uint32_t u = 0; u < s.units; ++u) {
        typename Arith::Acc acc = 0;
        for (uint32_t i = 0; i < k; ++i)
          acc += a.product(input[static_cast<size_t>(b) * k + i],
                           weights[static_cast<size_t>(u) * k + i]);
        output[static_cast<size_t>(b) * s.units + u] = a.finish(acc, bias[u], u);
      }
  }
};

// An operation's table: Loop::run instantiated for float32 and each quant8 type pair.
template <typename Loop, typename Geo>
constexpr ReferenceKernels<Geo> referenceTable() {
  return {
      [](const Geo& g, const float* in, const float* filter, const float* bias, float* out) {
        Loop::run(g, FloatArith(dataLayout(g).activation), in, filter, bias, out);
      },
      [](const Geo& g, const QuantParams& q, const uint8_t* in, const uint8_t* filter,
         const int32_t* bias, uint8_t* out) {
        Loop::run(g, QuantArith<uint8_t>{q}, in, filter, bias, out);
      },
      [](const Geo& g, const QuantParams& q, const uint8_t* in, const int8_t* filter,
         const int32_t* bias, uint8_t* out) {
        Loop::run(g, QuantArith<uint8_t>{q}, in, filter, bias, out);
      },
      [](const Geo& g, const QuantParams& q, const int8_t* in, const int8_t* filter,
         const int32_t* bias, int8_t* out) {
        Loop::run(g, QuantArith<int8_t>{q}, in, filter, bias, out);
      },
  };
}

}  // namespace

const ReferenceKernels<Geometry> kConvReference = referenceTable<ConvLoop, Geometry>();
const ReferenceKernels<Geometry> kDepthwiseReference = referenceTable<DepthwiseLoop, Geometry>();
const ReferenceKernels<GroupedGeometry> kGroupedReference =
    referenceTable<GroupedLoop, GroupedGeometry>();
const ReferenceKernels<Geometry> kTransposeReference = referenceTable<TransposeLoop, Geometry>();
const ReferenceKernels<FcShape> kFullyConnectedReference =
    referenceTable<FullyConnectedLoop, FcShape>();

}  // namespace conv
}  // namespace nn
