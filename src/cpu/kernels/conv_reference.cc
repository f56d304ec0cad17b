#include "cpu/kernels/conv_reference.h"

#include <algorithm>

#include "cpu/kernels/conv_common.h"
#include "spec/ops/common.h"

namespace nn {
namespace conv {

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
              const float* f =
                  filter + ((static_cast<size_t>(oc) * g.filterH + kh) * g.filterW + kw) * g.inC;
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
              const TFilter* f =
                  filter + ((static_cast<size_t>(oc) * g.filterH + kh) * g.filterW + kw) * g.inC;
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

}  // namespace conv
}  // namespace nn
