// Depthwise convolution kernels of the fast device: float32 and quant8 loops vectorized over
// channels, the quant8 one with the filter's zero point removed once and the reference's exact
// requantization. The row loops come from the run-time ISA table (conv_dispatch.h): AVX-512
// has a pairwise quant8 kernel (two taps per vpmaddwd) for depth multiplier 1.
#include <algorithm>
#include <cstring>

#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/conv_dispatch.h"
#include "cpu/kernels/conv_fast.h"

namespace nn {
namespace conv {
namespace {

inline uint32_t ceilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// Bytes rounded up to whole cache lines, so the buffers carved out of one slot stay aligned.
inline size_t lines(size_t bytes) { return (bytes + 63) / 64 * 64; }

// What both depthwise argument blocks have besides the window: channels and dilation.
template <typename Args>
void setDepthwiseArgs(const Geometry& g, Args* a) {
  a->channels = g.outC;
  a->dilationH = g.p.dilationH;
  a->dilationW = g.p.dilationW;
}

// The filter in the pairwise kernel's layout (conv_isa.h, kConvDwBlock).
void interleaveDepthwise(PackedDepthwiseFilter* f) {
  const uint32_t taps = f->taps, C = f->channels;
  const uint32_t pairs = (taps + 1) / 2, blocks = ceilDiv(C, kConvDwBlock);
  f->interleaved.assign(static_cast<size_t>(pairs) * blocks * 64, 0);
  for (uint32_t p = 0; p < pairs; ++p)
    for (uint32_t blk = 0; blk < blocks; ++blk)
      for (uint32_t half = 0; half < 2; ++half)
        for (uint32_t lane = 0; lane < 4; ++lane)
          for (uint32_t j = 0; j < 4; ++j) {
            const uint32_t c = blk * kConvDwBlock + 8 * lane + 4 * half + j;
            const size_t idx =
                (static_cast<size_t>(p) * blocks + blk) * 64 + half * 32 + (lane * 4 + j) * 2;
            if (c >= C) continue;
            f->interleaved[idx] = f->minusZero[static_cast<size_t>(2 * p) * C + c];
            if (2 * p + 1 < taps)
              f->interleaved[idx + 1] = f->minusZero[static_cast<size_t>(2 * p + 1) * C + c];
          }
}

// Depth multiplier 1 through the ISA's pairwise kernel: every tap (padding taps read a row of
// zero points, which contributes nothing) goes through vpmaddwd two at a time.
template <typename T, typename RowsFn>
void depthwiseQuantPairwise(const Geometry& g, const QuantParams& q, const T* input,
                            const PackedDepthwiseFilter& filter, const int32_t* bias, T* output,
                            ThreadPool* pool, KernelScratch& ks, RowsFn rowsFn) {
  ConvDepthwiseQuantArgs a{};
  setWindowArgs(g, &a);
  setDepthwiseArgs(g, &a);
  a.inputZeroPoint = q.inputZeroPoint;
  a.outputZeroPoint = q.outputZeroPoint;
  a.actMin = q.actMin;
  a.actMax = q.actMax;
  a.multiplier = q.multiplier.data();
  a.shift = q.shift.data();
  a.bias = bias;
  a.interleaved = filter.interleaved.data();
  a.input = input;
  a.output = output;
  const uint32_t taps = g.filterH * g.filterW, pairs = (taps + 1) / 2;
  // Per slot: accumulators, a row of zero points, tap and row pointers.
  const size_t accBytes = lines(sizeof(int32_t) * g.outC), zeroBytes = lines(sizeof(T) * g.outC);
  const size_t tapBytes = lines(sizeof(const T*) * pairs * 2);
  const size_t slotBytes = accBytes + zeroBytes + tapBytes + sizeof(const T*) * g.filterH;
  const size_t rows = static_cast<size_t>(g.batches) * g.outH;
  runSlotted<uint8_t>(pool, ks, rows, slotBytes, [&](size_t begin, size_t end, uint8_t* base) {
    rowsFn(a, begin, end, reinterpret_cast<int32_t*>(base), reinterpret_cast<T*>(base + accBytes),
           reinterpret_cast<const T**>(base + accBytes + zeroBytes),
           reinterpret_cast<const T**>(base + accBytes + zeroBytes + tapBytes));
  });
}

template <typename T>
void depthwiseQuantImpl(const Geometry& g, const QuantParams& q, const T* input,
                        const int16_t* filter, const int32_t* bias, T* output, ThreadPool* pool,
                        KernelScratch& ks) {
  const ConvIsaKernels& kernels = convIsaKernels();
  const size_t rows = static_cast<size_t>(g.batches) * g.outH;
  runSlotted<int32_t>(pool, ks, rows, g.outC, [&](size_t begin, size_t end, int32_t* acc) {
    // Locals so the compiler knows nothing below aliases the loop bounds.
    const uint32_t C = g.outC, inC = g.inC, outH = g.outH, outW = g.outW;
    const uint32_t mult = static_cast<uint32_t>(g.p.depthMultiplier);
    const int32_t zin = q.inputZeroPoint;
    const int32_t* multiplier = q.multiplier.data();
    const int32_t* shift = q.shift.data();
    int32_t* __restrict a = acc;
    for (size_t row = begin; row < end; ++row) {
      const uint32_t b = static_cast<uint32_t>(row / outH), oh = static_cast<uint32_t>(row % outH);
      for (uint32_t ow = 0; ow < outW; ++ow) {
        for (uint32_t c = 0; c < C; ++c) a[c] = bias[c];
        forEachTap(g, oh, ow, [&](uint32_t ih, uint32_t iw, uint32_t kh, uint32_t kw) {
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
        });
        T* out = output + outIndex(g, b, oh, ow);
        requantizeRow(kernels, a, nullptr, 0, multiplier, shift, q.outputZeroPoint, q.actMin,
                      q.actMax, C, out);
      }
    }
  });
}

template <typename T, typename RowsFn>
void depthwiseQuantDispatch(const Geometry& g, const QuantParams& q, const T* input,
                            const PackedDepthwiseFilter& filter, const int32_t* bias, T* output,
                            ThreadPool* pool, KernelScratch& ks, RowsFn pairwiseRows) {
  // The interleaved filter exists when init ran at a level with the pairwise kernel.
  if (pairwiseRows != nullptr && g.p.depthMultiplier == 1 && !filter.interleaved.empty() &&
      filter.taps == g.filterH * g.filterW && filter.channels == g.outC) {
    depthwiseQuantPairwise(g, q, input, filter, bias, output, pool, ks, pairwiseRows);
    return;
  }
  depthwiseQuantImpl(g, q, input, filter.minusZero.data(), bias, output, pool, ks);
}

}  // namespace

void fastDepthwiseFloat(const Geometry& g, const float* input, const float* filter,
                        const float* bias, float* output, ThreadPool* pool, KernelScratch& ks) {
  ConvDepthwiseFloatArgs a{};
  setFloatArgs(g, input, filter, bias, output, &a);
  setDepthwiseArgs(g, &a);
  a.depthMultiplier = static_cast<uint32_t>(g.p.depthMultiplier);
  // The register-blocked kernel where there is one (same summation order as the loop).
  const ConvIsaKernels& k = convIsaKernels();
  if (smallMapDepthwisePreferred(g)) {
    smallMapDepthwiseFloat(g, input, filter, bias, output, depthwisePool(pool, g));
    return;
  }
  if (k.depthwiseFloatRowsDirect != nullptr && a.depthMultiplier == 1)
    runFloatRows(k.depthwiseFloatRowsDirect, a, g, depthwisePool(pool, g), ks);
  else
    runFloatRows(k.depthwiseFloatRows, a, g, pool, ks);
}

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
  if (convIsaKernels().depthwiseQuantRowsU8 != nullptr)
    interleaveDepthwise(out);
  else
    out->interleaved.clear();
}

void fastDepthwiseQuant(const Geometry& g, const QuantParams& q, bool signedData,
                        const void* input, const PackedDepthwiseFilter& filter,
                        const int32_t* bias, void* output, ThreadPool* pool, KernelScratch& ks) {
  const ConvIsaKernels& kernels = convIsaKernels();
  if (signedData)
    depthwiseQuantDispatch(g, q, static_cast<const int8_t*>(input), filter, bias,
                           static_cast<int8_t*>(output), pool, ks, kernels.depthwiseQuantRowsS8);
  else
    depthwiseQuantDispatch(g, q, static_cast<const uint8_t*>(input), filter, bias,
                           static_cast<uint8_t*>(output), pool, ks, kernels.depthwiseQuantRowsU8);
}

}  // namespace conv
}  // namespace nn
