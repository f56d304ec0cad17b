// AVX-512 direct float32 kernels for the shapes where the 2022 XNNPACK leaves most of each
// vector empty or reloads its weights for every tap (issue 10):
//  - depthwise, depth multiplier 1: a pass computes kDwPixels output pixels of one 16-channel
//    block, so each tap's weights are loaded once per pass and the accumulators are
//    independent (no FMA latency chain); 8 channels at stride 1 run as pixel pairs (two
//    neighbouring pixels' 8 channels are 16 contiguous floats in NHWC, in and out).
//  - CONV_2D with few output channels: at dilation 1 the window of one output pixel in input
//    row ih is filterW * inC contiguous floats, and so is the filter's row: a pass takes 16
//    output pixels, multiplies each window row with the filter row lane by lane, and reduces
//    the 16 accumulators to one vector of 16 sums with 15 adds.
// Accumulation starts from the bias and adds taps in filter order (depthwise), the same
// order as the portable loop. Compiled with the AVX-512 flags; see conv_isa.h for the include
// rules that keep this file's code out of the baseline library.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cpu/kernels/isa/intrinsics.h"
#include "cpu/kernels/isa/lane_mask.h"

#include "cpu/kernels/isa/conv_isa.h"

namespace nn {
namespace isa_avx512 {
namespace {

constexpr int kDwPixels = 8;  // output pixels per depthwise pass
constexpr uint32_t kDwChunk = 64;  // channels per sweep over a row (see the row loop)

// A compile-time count passed to a generic lambda (no <type_traits> here: see conv_isa.h).
template <int N>
struct Count {
  static constexpr int value = N;
};

inline int32_t ceilDivPos(int64_t a, int64_t b) {  // b > 0; ceil(a / b) for any sign of a
  return static_cast<int32_t>(a >= 0 ? (a + b - 1) / b : -((-a) / b));
}
inline int32_t floorDivPos(int64_t a, int64_t b) {
  return static_cast<int32_t>(a >= 0 ? a / b : -((-a + b - 1) / b));
}
inline int32_t clampTo(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

// Taps [begin, end) of a window starting at input position `start` (may be negative) that land
// inside [0, size).
inline void validTaps(int32_t start, int32_t dilation, uint32_t taps, uint32_t size,
                      int32_t* begin, int32_t* end) {
  *begin = clampTo(ceilDivPos(-static_cast<int64_t>(start), dilation), 0, static_cast<int32_t>(taps));
  *end = clampTo(floorDivPos(static_cast<int64_t>(size) - 1 - start, dilation) + 1, *begin,
                 static_cast<int32_t>(taps));
}

// Output columns [lo, hi) whose whole window row lies inside the input.
inline void interiorColumns(uint32_t outW, uint32_t inW, uint32_t filterW, int32_t stride,
                            int32_t pad, int32_t dilation, int32_t* lo, int32_t* hi) {
  const int64_t span = static_cast<int64_t>(filterW - 1) * dilation;
  *lo = clampTo(ceilDivPos(pad, stride), 0, static_cast<int32_t>(outW));
  *hi = clampTo(floorDivPos(static_cast<int64_t>(inW) - 1 - span + pad, stride) + 1, *lo,
                static_cast<int32_t>(outW));
}

inline __m512 clampV(__m512 v, __m512 lo, __m512 hi) {
  return _mm512_min_ps(_mm512_max_ps(v, lo), hi);
}

// ---- depthwise ----------------------------------------------------------------------------

// What one output row of a depthwise pass needs.
struct DwRow {
  const float* in;      // input image of this batch
  float* out;           // output row
  int32_t ih0;          // input row of tap kh = 0
  int32_t khBegin, khEnd;
};

// NB output positions of one channel block at once. Position j reads its taps from
// base + j * inStep + (kh - khBegin) * rowStep + kw * tapStep and writes out + j * outStep;
// `weight(t)` is tap t's vector (t = kh * filterW + kw).
template <int NB, typename Weight>
inline void dwPass(const float* base, size_t inStep, size_t rowStep, size_t tapStep,
                   int32_t khBegin, int32_t khEnd, uint32_t filterW, __mmask16 m, __m512 bias,
                   const Weight& weight, __m512 lo, __m512 hi, float* out, size_t outStep) {
  __m512 acc[NB];
#pragma GCC unroll 16
  for (int j = 0; j < NB; ++j) acc[j] = bias;
  for (int32_t kh = khBegin; kh < khEnd; ++kh) {
    const float* row = base + static_cast<size_t>(kh - khBegin) * rowStep;
    for (uint32_t kw = 0; kw < filterW; ++kw) {
      const __m512 w = weight(kh * filterW + kw);
      const float* p = row + kw * tapStep;
#pragma GCC unroll 16
      for (int j = 0; j < NB; ++j)
        acc[j] = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, p + j * inStep), w, acc[j]);
    }
  }
#pragma GCC unroll 16
  for (int j = 0; j < NB; ++j) _mm512_mask_storeu_ps(out + j * outStep, m, clampV(acc[j], lo, hi));
}

// dwPass at stride S (1 or 2) and dilation 1 with filter width FW: each input vector of a filter
// row is loaded once and feeds every output position it is a tap of (S * (NB - 1) + FW loads
// for NB * FW FMAs instead of NB * FW); the weights of a filter row stay in registers.
template <int NB, int FW, int S, typename Weight>
inline void dwPassSliding(const float* base, size_t step, size_t rowStep, int32_t khBegin,
                          int32_t khEnd, __mmask16 m, __m512 bias, const Weight& weight,
                          __m512 lo, __m512 hi, float* out, size_t outStep) {
  __m512 acc[NB];
#pragma GCC unroll 16
  for (int j = 0; j < NB; ++j) acc[j] = bias;
  for (int32_t kh = khBegin; kh < khEnd; ++kh) {
    const float* row = base + static_cast<size_t>(kh - khBegin) * rowStep;
    __m512 w[FW];
#pragma GCC unroll 8
    for (int kw = 0; kw < FW; ++kw) w[kw] = weight(kh * FW + kw);
#pragma GCC unroll 32
    for (int x = 0; x < S * (NB - 1) + FW; ++x) {
      const __m512 v = _mm512_maskz_loadu_ps(m, row + x * step);
#pragma GCC unroll 8
      for (int kw = 0; kw < FW; ++kw) {
        const int j = (x - kw) / S;
        if (x >= kw && (x - kw) % S == 0 && j < NB) acc[j] = _mm512_fmadd_ps(v, w[kw], acc[j]);
      }
    }
  }
#pragma GCC unroll 16
  for (int j = 0; j < NB; ++j) _mm512_mask_storeu_ps(out + j * outStep, m, clampV(acc[j], lo, hi));
}

// One output pixel at column ow, channel blocks [c0, c0 + 16 * NBLK) (the last one masked by
// `last`), skipping the taps that fall into the padding. The blocks are independent
// accumulators, so the FMA chains overlap.
template <int NBLK>
inline void dwEdgeBlocks(const ConvDepthwiseFloatArgs& g, const DwRow& r, int32_t ow, uint32_t c0,
                         __mmask16 last, __m512 lo, __m512 hi) {
  const uint32_t C = g.channels;
  const int32_t iw0 = ow * g.strideW - g.padLeft;
  int32_t kwBegin, kwEnd;
  validTaps(iw0, g.dilationW, g.filterW, g.inW, &kwBegin, &kwEnd);
  __mmask16 m[NBLK];
  __m512 acc[NBLK];
  for (int k = 0; k < NBLK; ++k) {
    m[k] = k == NBLK - 1 ? last : __mmask16(0xFFFF);
    acc[k] = _mm512_maskz_loadu_ps(m[k], g.bias + c0 + 16 * k);
  }
  for (int32_t kh = r.khBegin; kh < r.khEnd; ++kh) {
    const float* row = r.in + static_cast<size_t>(r.ih0 + kh * g.dilationH) * g.inW * C + c0;
    for (int32_t kw = kwBegin; kw < kwEnd; ++kw) {
      const float* f = g.filter + static_cast<size_t>(kh * g.filterW + kw) * C + c0;
      const float* x = row + static_cast<size_t>(iw0 + kw * g.dilationW) * C;
      for (int k = 0; k < NBLK; ++k)
        acc[k] = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m[k], x + 16 * k),
                                 _mm512_maskz_loadu_ps(m[k], f + 16 * k), acc[k]);
    }
  }
  float* out = r.out + static_cast<size_t>(ow) * C + c0;
  for (int k = 0; k < NBLK; ++k)
    _mm512_mask_storeu_ps(out + 16 * k, m[k], clampV(acc[k], lo, hi));
}

// One output pixel at column ow, every channel, eight blocks at a time (each block's FMA
// chain has one FMA per tap; eight chains keep both FMA units busy).
inline void dwEdgePixelAll(const ConvDepthwiseFloatArgs& g, const DwRow& r, int32_t ow,
                           __m512 lo, __m512 hi) {
  const uint32_t C = g.channels;
  uint32_t c0 = 0;
  for (; C >= c0 + 128; c0 += 128) dwEdgeBlocks<8>(g, r, ow, c0, 0xFFFF, lo, hi);
  for (; C > c0 + 48; c0 += 64) dwEdgeBlocks<4>(g, r, ow, c0, laneMask16(C - c0 - 48), lo, hi);
  if (c0 >= C) return;
  const uint32_t left = C - c0;  // 1..48
  if (left > 32) dwEdgeBlocks<3>(g, r, ow, c0, laneMask16(left - 32), lo, hi);
  else if (left > 16) dwEdgeBlocks<2>(g, r, ow, c0, laneMask16(left - 16), lo, hi);
  else dwEdgeBlocks<1>(g, r, ow, c0, laneMask16(left), lo, hi);
}

// Interior columns [begin, end) of one channel block, kDwPixels at a time, then one at a time.
template <typename Weight>
inline void dwInterior(const ConvDepthwiseFloatArgs& g, const DwRow& r, int32_t begin,
                       int32_t end, uint32_t c0, __mmask16 m, __m512 bias, const Weight& weight,
                       __m512 lo, __m512 hi) {
  const uint32_t C = g.channels;
  const size_t inStep = static_cast<size_t>(g.strideW) * C;
  const size_t rowStep = static_cast<size_t>(g.dilationH) * g.inW * C;
  const size_t tapStep = static_cast<size_t>(g.dilationW) * C;
  // Input row of tap khBegin (rows above it may not exist).
  const float* rowBase =
      r.in + static_cast<size_t>(r.ih0 + r.khBegin * g.dilationH) * g.inW * C + c0;
  int32_t ow = begin;
  if (g.dilationW == 1 && (g.strideW == 1 || g.strideW == 2) &&
      (g.filterW == 3 || g.filterW == 5)) {
    // The sliding passes: kDwPixels, then 4 output columns at a time.
    const auto sliding = [&](auto nb) {
      constexpr int NB = decltype(nb)::value;
      const float* base = rowBase + static_cast<ptrdiff_t>(ow * g.strideW - g.padLeft) * C;
      float* out = r.out + static_cast<size_t>(ow) * C + c0;
      const int key = g.filterW * 10 + g.strideW;
      if (key == 31)
        dwPassSliding<NB, 3, 1>(base, C, rowStep, r.khBegin, r.khEnd, m, bias, weight, lo, hi,
                                out, C);
      else if (key == 32)
        dwPassSliding<NB, 3, 2>(base, C, rowStep, r.khBegin, r.khEnd, m, bias, weight, lo, hi,
                                out, C);
      else if (key == 51)
        dwPassSliding<NB, 5, 1>(base, C, rowStep, r.khBegin, r.khEnd, m, bias, weight, lo, hi,
                                out, C);
      else
        dwPassSliding<NB, 5, 2>(base, C, rowStep, r.khBegin, r.khEnd, m, bias, weight, lo, hi,
                                out, C);
    };
    for (; ow + kDwPixels <= end; ow += kDwPixels)
      sliding(Count<kDwPixels>());
    for (; ow + 4 <= end; ow += 4) sliding(Count<4>());
  }
  for (; ow + kDwPixels <= end; ow += kDwPixels) {
    const float* base = rowBase + static_cast<ptrdiff_t>(ow * g.strideW - g.padLeft) * C;
    dwPass<kDwPixels>(base, inStep, rowStep, tapStep, r.khBegin, r.khEnd, g.filterW, m, bias,
                      weight, lo, hi, r.out + static_cast<size_t>(ow) * C + c0, C);
  }
  for (; ow < end; ++ow) {
    const float* base = rowBase + static_cast<ptrdiff_t>(ow * g.strideW - g.padLeft) * C;
    dwPass<1>(base, inStep, rowStep, tapStep, r.khBegin, r.khEnd, g.filterW, m, bias, weight, lo,
              hi, r.out + static_cast<size_t>(ow) * C + c0, C);
  }
}

// 8 channels at stride 1: interior columns [begin, end) as pixel pairs (16 lanes = two
// pixels' channels, contiguous in input and output), an odd last column on its own.
inline void dwPairs(const ConvDepthwiseFloatArgs& g, const DwRow& r, int32_t begin, int32_t end,
                    __m512 lo, __m512 hi) {
  const __m512 bias = _mm512_broadcast_f32x8(_mm256_loadu_ps(g.bias));
  const auto weight = [&](uint32_t t) {
    return _mm512_broadcast_f32x8(_mm256_loadu_ps(g.filter + static_cast<size_t>(t) * 8));
  };
  const size_t rowStep = static_cast<size_t>(g.dilationH) * g.inW * 8;
  const size_t tapStep = static_cast<size_t>(g.dilationW) * 8;
  const float* rowBase = r.in + static_cast<size_t>(r.ih0 + r.khBegin * g.dilationH) * g.inW * 8;
  int32_t ow = begin;
  const __mmask16 all = 0xFFFF;
  for (; ow + 2 * kDwPixels <= end; ow += 2 * kDwPixels)
    dwPass<kDwPixels>(rowBase + static_cast<ptrdiff_t>(ow - g.padLeft) * 8, 16, rowStep, tapStep,
                      r.khBegin, r.khEnd, g.filterW, all, bias, weight, lo, hi,
                      r.out + static_cast<size_t>(ow) * 8, 16);
  for (; ow + 2 <= end; ow += 2)
    dwPass<1>(rowBase + static_cast<ptrdiff_t>(ow - g.padLeft) * 8, 16, rowStep, tapStep,
              r.khBegin, r.khEnd, g.filterW, all, bias, weight, lo, hi,
              r.out + static_cast<size_t>(ow) * 8, 16);
  if (ow < end) dwEdgeBlocks<1>(g, r, ow, 0, 0xFF, lo, hi);
}

// ---- CONV_2D with few output channels ------------------------------------------------------

// Sums each of 16 vectors into one lane. Slot s ends up in lane 4 * (s % 4) + s / 4, so the
// caller fills slot s with pixel kNarrowSlotPixel[s] to get pixels in order.
inline __m512 reduce16(const __m512* v) {
  __m512 r[8], s[4], t[2];
  for (int i = 0; i < 8; ++i) {
    const __m512 a = v[2 * i], b = v[2 * i + 1];
    r[i] = _mm512_add_ps(_mm512_shuffle_f32x4(a, b, _MM_SHUFFLE(1, 0, 1, 0)),
                         _mm512_shuffle_f32x4(a, b, _MM_SHUFFLE(3, 2, 3, 2)));
  }
  for (int i = 0; i < 4; ++i) {
    const __m512 a = r[2 * i], b = r[2 * i + 1];
    s[i] = _mm512_add_ps(_mm512_shuffle_f32x4(a, b, _MM_SHUFFLE(2, 0, 2, 0)),
                         _mm512_shuffle_f32x4(a, b, _MM_SHUFFLE(3, 1, 3, 1)));
  }
  for (int i = 0; i < 2; ++i) {
    const __m512 a = s[2 * i], b = s[2 * i + 1];
    t[i] = _mm512_add_ps(_mm512_shuffle_ps(a, b, _MM_SHUFFLE(1, 0, 1, 0)),
                         _mm512_shuffle_ps(a, b, _MM_SHUFFLE(3, 2, 3, 2)));
  }
  return _mm512_add_ps(_mm512_shuffle_ps(t[0], t[1], _MM_SHUFFLE(2, 0, 2, 0)),
                       _mm512_shuffle_ps(t[0], t[1], _MM_SHUFFLE(3, 1, 3, 1)));
}
constexpr int kNarrowSlotPixel[16] = {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15};

// One output pixel (any column, padding taps skipped), every output channel.
void narrowEdgePixel(const ConvDirectFloatArgs& g, const float* in, int32_t ih0, int32_t khBegin,
                     int32_t khEnd, int32_t ow, float* out) {
  const int32_t iw0 = ow * g.strideW - g.padLeft;
  int32_t kwBegin, kwEnd;
  validTaps(iw0, 1, g.filterW, g.inW, &kwBegin, &kwEnd);
  const uint32_t inC = g.inC;
  const uint32_t span = static_cast<uint32_t>(kwEnd - kwBegin) * inC;
  for (uint32_t oc = 0; oc < g.outC; ++oc) {
    __m512 acc = _mm512_setzero_ps();
    for (int32_t kh = khBegin; kh < khEnd; ++kh) {
      const float* x = in + (static_cast<size_t>(ih0 + kh) * g.inW + iw0 + kwBegin) * inC;
      const float* w =
          g.filter + ((static_cast<size_t>(oc) * g.filterH + kh) * g.filterW + kwBegin) * inC;
      for (uint32_t i = 0; i < span; i += 16) {
        const __mmask16 m = laneMask16(span - i);
        acc = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, x + i), _mm512_maskz_loadu_ps(m, w + i),
                              acc);
      }
    }
    const float v = _mm512_reduce_add_ps(acc) + g.bias[oc];
    const float c = v > g.outputMin ? v : g.outputMin;
    out[static_cast<size_t>(ow) * g.outC + oc] = c < g.outputMax ? c : g.outputMax;
  }
}

// Interior columns [ow0, ow0 + n), n <= 16: every window row is filterW * inC contiguous floats.
void narrowPass(const ConvDirectFloatArgs& g, const float* in, int32_t ih0, int32_t khBegin,
                int32_t khEnd, int32_t ow0, uint32_t n, float* out) {
  const uint32_t inC = g.inC, span = g.filterW * inC;
  const __m512 lo = _mm512_set1_ps(g.outputMin), hi = _mm512_set1_ps(g.outputMax);
  const __mmask16 store = laneMask16(n);
  const float* px[16];  // window start of each slot's pixel in tap row 0 (beyond n: repeats)
  for (int s = 0; s < 16; ++s) {
    const uint32_t p = static_cast<uint32_t>(kNarrowSlotPixel[s]) < n
                           ? static_cast<uint32_t>(kNarrowSlotPixel[s]) : n - 1;
    px[s] = in + static_cast<ptrdiff_t>((ow0 + static_cast<int32_t>(p)) * g.strideW - g.padLeft) * inC;
  }
  const size_t rowStep = static_cast<size_t>(g.inW) * inC;
  for (uint32_t oc = 0; oc < g.outC; ++oc) {
    __m512 acc[16];
#pragma GCC unroll 16
    for (int s = 0; s < 16; ++s) acc[s] = _mm512_setzero_ps();
    for (int32_t kh = khBegin; kh < khEnd; ++kh) {
      const size_t rowOff = static_cast<size_t>(ih0 + kh) * rowStep;
      const float* w = g.filter + (static_cast<size_t>(oc) * g.filterH + kh) * span;
      for (uint32_t i = 0; i < span; i += 16) {
        const __mmask16 m = laneMask16(span - i);
        const __m512 wv = _mm512_maskz_loadu_ps(m, w + i);
#pragma GCC unroll 16
        for (int s = 0; s < 16; ++s)
          acc[s] = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, px[s] + rowOff + i), wv, acc[s]);
      }
    }
    const __m512 v = clampV(_mm512_add_ps(reduce16(acc), _mm512_set1_ps(g.bias[oc])), lo, hi);
    if (g.outC == 1) {
      _mm512_mask_storeu_ps(out + ow0, store, v);
    } else {
      const __m512i idx = _mm512_mullo_epi32(
          _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
          _mm512_set1_epi32(static_cast<int32_t>(g.outC)));
      _mm512_mask_i32scatter_ps(out + static_cast<size_t>(ow0) * g.outC + oc, store, idx, v, 4);
    }
  }
}

}  // namespace

void convDepthwiseFloatRowsDirect(const ConvDepthwiseFloatArgs& g, size_t rowBegin,
                                  size_t rowEnd, float*) {
  const uint32_t C = g.channels, outH = g.outH, outW = g.outW;
  const __m512 lo = _mm512_set1_ps(g.outputMin), hi = _mm512_set1_ps(g.outputMax);
  int32_t owLo, owHi;
  interiorColumns(outW, g.inW, g.filterW, g.strideW, g.padLeft, g.dilationW, &owLo, &owHi);
  const bool pairs = C == 8 && g.strideW == 1;
  for (size_t row = rowBegin; row < rowEnd; ++row) {
    const uint32_t b = static_cast<uint32_t>(row / outH), oh = static_cast<uint32_t>(row % outH);
    DwRow r;
    r.in = g.input + static_cast<size_t>(b) * g.inH * g.inW * C;
    r.out = g.output + (static_cast<size_t>(b) * outH + oh) * outW * C;
    r.ih0 = static_cast<int32_t>(oh) * g.strideH - g.padTop;
    validTaps(r.ih0, g.dilationH, g.filterH, g.inH, &r.khBegin, &r.khEnd);
    if (r.khBegin == r.khEnd) {  // the whole window in padding (a folded PAD can do that)
      for (uint32_t ow = 0; ow < outW; ++ow)
        for (uint32_t c0 = 0; c0 < C; c0 += 16) {
          const __mmask16 m = laneMask16(C - c0);
          _mm512_mask_storeu_ps(r.out + static_cast<size_t>(ow) * C + c0, m,
                                clampV(_mm512_maskz_loadu_ps(m, g.bias + c0), lo, hi));
        }
      continue;
    }
    for (int32_t ow = 0; ow < owLo; ++ow) dwEdgePixelAll(g, r, ow, lo, hi);
    for (int32_t ow = owHi; ow < static_cast<int32_t>(outW); ++ow)
      dwEdgePixelAll(g, r, ow, lo, hi);
    if (pairs) {
      dwPairs(g, r, owLo, owHi, lo, hi);
      continue;
    }
    // Pixel blocks outer, channel blocks inner: the input is read in address order. Blocks of
    // kDwPixels, then one of 4; the last few columns as single pixels over all channels (whose
    // channel blocks are independent FMA chains).
    const auto blocks = [&](int32_t begin, int32_t end, uint32_t cBegin, uint32_t cEnd) {
      for (uint32_t c0 = cBegin; c0 < cEnd; c0 += 16) {
        const __mmask16 m = laneMask16(C - c0);
        const __m512 bias = _mm512_maskz_loadu_ps(m, g.bias + c0);
        const auto weight = [&](uint32_t t) {
          return _mm512_maskz_loadu_ps(m, g.filter + static_cast<size_t>(t) * C + c0);
        };
        dwInterior(g, r, begin, end, c0, m, bias, weight, lo, hi);
      }
    };
    // Channels in chunks of kDwChunk, so the input pixels a block reads stay in L1 when the
    // channels are many.
    for (uint32_t cc = 0; cc < C; cc += kDwChunk) {
      const uint32_t ce = C - cc > kDwChunk ? cc + kDwChunk : C;
      int32_t ow = owLo;
      for (; ow + kDwPixels <= owHi; ow += kDwPixels) blocks(ow, ow + kDwPixels, cc, ce);
      if (ow + 4 <= owHi) blocks(ow, ow + 4, cc, ce);
    }
    const int32_t tail = owLo + (owHi - owLo) / kDwPixels * kDwPixels +
                         ((owHi - owLo) % kDwPixels >= 4 ? 4 : 0);
    for (int32_t ow = tail; ow < owHi; ++ow) dwEdgePixelAll(g, r, ow, lo, hi);
  }
}

void convNarrowFloatRows(const ConvDirectFloatArgs& g, size_t rowBegin, size_t rowEnd, float*) {
  const uint32_t outH = g.outH, outW = g.outW;
  int32_t owLo, owHi;
  interiorColumns(outW, g.inW, g.filterW, g.strideW, g.padLeft, 1, &owLo, &owHi);
  for (size_t row = rowBegin; row < rowEnd; ++row) {
    const uint32_t b = static_cast<uint32_t>(row / outH), oh = static_cast<uint32_t>(row % outH);
    const float* in = g.input + static_cast<size_t>(b) * g.inH * g.inW * g.inC;
    float* out = g.output + (static_cast<size_t>(b) * outH + oh) * outW * g.outC;
    const int32_t ih0 = static_cast<int32_t>(oh) * g.strideH - g.padTop;
    int32_t khBegin, khEnd;
    validTaps(ih0, 1, g.filterH, g.inH, &khBegin, &khEnd);
    for (int32_t ow = 0; ow < owLo; ++ow) narrowEdgePixel(g, in, ih0, khBegin, khEnd, ow, out);
    int32_t ow = owLo;
    for (; ow + 4 <= owHi; ow += 16) {
      const uint32_t n = static_cast<uint32_t>(owHi - ow < 16 ? owHi - ow : 16);
      narrowPass(g, in, ih0, khBegin, khEnd, ow, n, out);
    }
    // Fewer than 4 left: a pass would compute 16 slots for them.
    for (; ow < owHi; ++ow) narrowEdgePixel(g, in, ih0, khBegin, khEnd, ow, out);
    for (int32_t ow = owHi; ow < static_cast<int32_t>(outW); ++ow)
      narrowEdgePixel(g, in, ih0, khBegin, khEnd, ow, out);
  }
}


namespace {

// NP neighbouring interior output pixels (every tap inside the input) of one 16-channel
// block, in XNNPACK's order: NP independent FMA chains. Pixel j's tap (kh, kw) is at
// rows[kh] + j * step + kw * px.
// PX, SW (when not 0): the pixel stride and horizontal stride as constants, so that every
// tap's address is a displacement from three row pointers (with run-time strides the 8-pixel
// block ran out of registers for the offsets).
template <int NP, size_t PX = 0, int SW = 0>
inline void dwXnnOrderPixels(const float* const* rows, size_t pxRt, size_t stepRt,
                             const float* filter, size_t tapStride, __mmask16 m, __m512 bias,
                             __m512 lo, __m512 hi, float* out, size_t outPx) {
  const size_t px = PX != 0 ? PX : pxRt, step = PX != 0 ? PX * SW : stepRt;
  __m512 acc[NP];
  for (int j = 0; j < NP; ++j) acc[j] = bias;
  for (int kx = 0; kx < 3; ++kx)
    for (int ky = 0; ky < 3; ++ky) {
      const __m512 wt =
          _mm512_maskz_loadu_ps(m, filter + static_cast<size_t>(ky * 3 + kx) * tapStride);
      const float* src = rows[ky] + kx * px;
      for (int j = 0; j < NP; ++j)
        acc[j] = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, src + j * step), wt, acc[j]);
    }
  for (int j = 0; j < NP; ++j)
    _mm512_mask_storeu_ps(out + j * outPx, m, _mm512_min_ps(_mm512_max_ps(acc[j], lo), hi));
}

}  // namespace

void convDepthwise3x3FloatRowXnnOrder(const ConvDepthwise3x3RowArgs& a) {
  const uint32_t C = a.channels, outW = a.outW, inW = a.inW;
  const __m512 lo = _mm512_set1_ps(a.outputMin), hi = _mm512_set1_ps(a.outputMax);
  const __m512 zero = _mm512_setzero_ps();
  const int32_t sW = a.strideW, padLeft = a.padLeft;
  const size_t px = a.inPixelStride, step = static_cast<size_t>(sW) * px;
  const size_t tapStride = a.filterTapStride, outPx = a.outPixelStride;
  int32_t owLo, owHi;
  interiorColumns(outW, inW, 3, sW, padLeft, 1, &owLo, &owHi);
  // Any pixel, all channels: taps outside the input multiply zeros, as XNNPACK's zero buffer.
  const auto pixel = [&](int32_t ow) {
    const int32_t iw0 = ow * sW - padLeft;
    for (uint32_t c0 = 0; c0 < C; c0 += 16) {
      const __mmask16 m = laneMask16(C - c0);
      __m512 acc = _mm512_maskz_loadu_ps(m, a.bias + c0);
      for (int32_t kx = 0; kx < 3; ++kx) {
        const int32_t iw = iw0 + kx;
        const bool col = iw >= 0 && iw < static_cast<int32_t>(inW);
        for (int32_t ky = 0; ky < 3; ++ky) {
          const float* tap = a.filter + static_cast<size_t>(ky * 3 + kx) * tapStride + c0;
          const __m512 x =
              col && a.rows[ky] != nullptr
                  ? _mm512_maskz_loadu_ps(m, a.rows[ky] + static_cast<size_t>(iw) * px + c0)
                  : zero;
          acc = _mm512_fmadd_ps(x, _mm512_maskz_loadu_ps(m, tap), acc);
        }
      }
      _mm512_mask_storeu_ps(a.out + static_cast<size_t>(ow) * outPx + c0, m,
                            _mm512_min_ps(_mm512_max_ps(acc, lo), hi));
    }
  };
  int32_t ow = 0;
  for (; ow < owLo; ++ow) pixel(ow);
  if (a.rows[0] != nullptr && a.rows[1] != nullptr && a.rows[2] != nullptr) {
    // Pixel blocks outer, channel blocks inner: the input read in address order.
    const auto blocks = [&](auto np, int32_t at) {
      constexpr int NP = decltype(np)::value;
      const size_t first = static_cast<size_t>(at * sW - padLeft) * px;
      for (uint32_t c0 = 0; c0 < C; c0 += 16) {
        const __mmask16 m = laneMask16(C - c0);
        const float* rows[3] = {a.rows[0] + first + c0, a.rows[1] + first + c0,
                                a.rows[2] + first + c0};
        const __m512 bias = _mm512_maskz_loadu_ps(m, a.bias + c0);
        float* o = a.out + static_cast<size_t>(at) * outPx + c0;
        if (px == 32 && sW == 2)  // the band fusion's full 32-channel tiles
          dwXnnOrderPixels<NP, 32, 2>(rows, px, step, a.filter + c0, tapStride, m, bias, lo, hi,
                                      o, outPx);
        else
          dwXnnOrderPixels<NP>(rows, px, step, a.filter + c0, tapStride, m, bias, lo, hi, o,
                               outPx);
      }
    };
    for (; ow + 8 <= owHi; ow += 8) blocks(Count<8>{}, ow);
    for (; ow + 4 <= owHi; ow += 4) blocks(Count<4>{}, ow);
    for (; ow < owHi; ++ow) blocks(Count<1>{}, ow);
  }
  for (; ow < static_cast<int32_t>(outW); ++ow) pixel(ow);
}

// ---- the 3x3 depthwise + 1x1 projection pair, 24, 32, 40 or 56 channels ----------------------

namespace {

// NB pixel pairs from pair p0 of the depthwise row (V vectors of 16 lanes per pair, V * 8
// channels), every tap inside the padded rows.
template <int V, int NB>
inline void dwPairBlock(const DepthwiseProjectRowArgs& a, uint32_t p0, __m512 lo, __m512 hi,
                        float* o) {
  constexpr int C = 8 * V, P = 16 * V;
  __m512 acc[NB][V];
#pragma GCC unroll 16
  for (int j = 0; j < NB; ++j)
#pragma GCC unroll 8
    for (int v = 0; v < V; ++v) acc[j][v] = _mm512_loadu_ps(a.pairBias + 16 * v);
  for (int kh = 0; kh < 3; ++kh) {
    if (a.rows[kh] == nullptr) continue;
    const float* row = a.rows[kh] + static_cast<size_t>(p0) * P;
    // Keeps each tap's address a displacement from `row` (GCC otherwise folds p0 * P into one
    // register per tap offset and runs out of registers).
    __asm__("" : "+r"(row));
#pragma GCC unroll 3
    for (int kw = 0; kw < 3; ++kw) {
      __m512 w[V];
#pragma GCC unroll 8
      for (int v = 0; v < V; ++v) w[v] = _mm512_loadu_ps(a.pairFilter + (kh * 3 + kw) * P + 16 * v);
      const float* src = row + kw * C;
#pragma GCC unroll 16
      for (int j = 0; j < NB; ++j)
#pragma GCC unroll 8
        for (int v = 0; v < V; ++v)
          acc[j][v] = _mm512_fmadd_ps(_mm512_loadu_ps(src + j * P + 16 * v), w[v], acc[j][v]);
    }
  }
#pragma GCC unroll 16
  for (int j = 0; j < NB; ++j)
#pragma GCC unroll 8
    for (int v = 0; v < V; ++v) _mm512_storeu_ps(o + j * P + 16 * v, clampV(acc[j][v], lo, hi));
}

// NP output pixels from pixel px of the 1x1 layer (C inputs, at most 16 outputs).
template <int C, int NP>
inline void projectBlock(const DepthwiseProjectRowArgs& a, const float* x, uint32_t px, __m512 b,
                         __mmask16 m, __m512 lo, __m512 hi) {
  __m512 acc[NP];
#pragma GCC unroll 16
  for (int j = 0; j < NP; ++j) acc[j] = b;
#pragma GCC unroll 8
  for (int k = 0; k < C; ++k) {
    const __m512 w = _mm512_loadu_ps(a.packed + static_cast<size_t>(k) * kConvTileN);
#pragma GCC unroll 16
    for (int j = 0; j < NP; ++j) acc[j] = _mm512_fmadd_ps(_mm512_set1_ps(x[j * C + k]), w, acc[j]);
  }
  float* o = a.out + static_cast<size_t>(px) * a.n;
#pragma GCC unroll 16
  for (int j = 0; j < NP; ++j) _mm512_mask_storeu_ps(o + j * a.n, m, clampV(acc[j], lo, hi));
}

// NP pixel pairs from pixel px of the 1x1 layer with at most 8 outputs, from the depthwise
// pixels interleaved (xi[pair][k][2]): lane 2j of a pair's vector is its first pixel's output j,
// lane 2j + 1 its second's. Each lane is the same FMA chain as projectBlock's.
template <int C, int NP>
inline void projectPairBlock(const DepthwiseProjectRowArgs& a, const float* xi, uint32_t px,
                             __m512 b, __m512i unzip, __mmask16 m2, __m512 lo, __m512 hi) {
  __m512 acc[NP];
#pragma GCC unroll 16
  for (int j = 0; j < NP; ++j) acc[j] = b;
#pragma GCC unroll 8
  for (int k = 0; k < C; ++k) {
    const __m512 w = _mm512_load_ps(a.projectPairW + 16 * k);
#pragma GCC unroll 16
    for (int j = 0; j < NP; ++j) {
      double pair;  // both pixels' input k: one broadcast load
      std::memcpy(&pair, xi + 2 * (j * C + k), sizeof(pair));
      acc[j] = _mm512_fmadd_ps(_mm512_castpd_ps(_mm512_set1_pd(pair)), w, acc[j]);
    }
  }
  float* o = a.out + static_cast<size_t>(px) * a.n;
#pragma GCC unroll 16
  for (int j = 0; j < NP; ++j)
    _mm512_mask_storeu_ps(o + 2 * j * a.n, m2,
                          _mm512_permutexvar_ps(unzip, clampV(acc[j], lo, hi)));
}

// The NP pairs of depthwise pixels in dw ([pixel][C]) interleaved into xi ([pair][k][2]).
template <int C, int NP>
inline void interleavePairs(const float* dw, float* xi) {
  const __m512i lo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const __m512i hi = _mm512_add_epi32(lo, _mm512_set1_epi32(8));
#pragma GCC unroll 16
  for (int j = 0; j < NP; ++j)
#pragma GCC unroll 8
    for (int c0 = 0; c0 < C; c0 += 16) {
      const __mmask16 m = laneMask16(C - c0);
      const __m512 x0 = _mm512_maskz_loadu_ps(m, dw + (2 * j) * C + c0);
      const __m512 x1 = _mm512_maskz_loadu_ps(m, dw + (2 * j + 1) * C + c0);
      float* o = xi + 2 * (j * C + c0);
      _mm512_storeu_ps(o, _mm512_permutex2var_ps(x0, lo, x1));
      if (C - c0 > 8) _mm512_storeu_ps(o + 16, _mm512_permutex2var_ps(x0, hi, x1));
    }
}

// Block by block: the depthwise layer's 2 * NB pixels into dwRow, then the 1x1 layer's from
// them, so that the few lines of dwRow stay in L1 (with the whole depthwise row first, the
// ring rows, that row and the output row overflowed L1).
template <int V>
void depthwiseProjectRowV(const DepthwiseProjectRowArgs& a) {
  constexpr int NB = V == 3 ? 4 : V == 4 ? 3 : 2;  // 12 or 10-14 accumulators
  constexpr int C = 8 * V;
  const uint32_t pairs = (a.outW + 1) / 2;
  const __m512 dlo = _mm512_set1_ps(a.dwMin), dhi = _mm512_set1_ps(a.dwMax);
  const __m512 lo = _mm512_set1_ps(a.outMin), hi = _mm512_set1_ps(a.outMax);
  const __mmask16 m = laneMask16(a.n);
  const __m512 b = a.bias != nullptr ? _mm512_maskz_loadu_ps(m, a.bias) : _mm512_setzero_ps();
  // With at most 8 outputs (projectPairW): whole pixel pairs through projectPairBlock, the
  // lanes unzipped to [first pixel's n outputs, second's n].
  const bool pairOut = a.projectPairW != nullptr;
  // Pairs per projectPairBlock: at least 8 accumulators, to cover the FMA latency.
  constexpr int PG = NB * ((8 + NB - 1) / NB);
  alignas(64) float xi[2 * PG * C];
  alignas(64) int32_t unzipIdx[16] = {};
  for (uint32_t i = 0; i < 2 * a.n && i < 16; ++i)
    unzipIdx[i] = static_cast<int32_t>(i < a.n ? 2 * i : 2 * (i - a.n) + 1);
  const __m512i unzip = _mm512_load_si512(unzipIdx);
  const __mmask16 m2 = laneMask16(2 * a.n);
  const __m512 b2 = pairOut ? _mm512_load_ps(a.projectPairBias) : b;
  uint32_t p = 0;
  if (pairOut) {
    for (; p + PG <= pairs && 2 * (p + PG) <= a.outW; p += PG) {
      for (int s = 0; s < PG; s += NB) {
        dwPairBlock<V, NB>(a, p + s, dlo, dhi, a.dwRow);
        interleavePairs<C, NB>(a.dwRow, xi + 2 * s * C);
      }
      projectPairBlock<C, PG>(a, xi, 2 * p, b2, unzip, m2, lo, hi);
    }
  }
  for (; p + NB <= pairs; p += NB) {
    dwPairBlock<V, NB>(a, p, dlo, dhi, a.dwRow);
    if (2 * (p + NB) <= a.outW) {
      if (pairOut) {
        interleavePairs<C, NB>(a.dwRow, xi);
        projectPairBlock<C, NB>(a, xi, 2 * p, b2, unzip, m2, lo, hi);
      } else {
        projectBlock<C, 2 * NB>(a, a.dwRow, 2 * p, b, m, lo, hi);
      }
    } else {
      for (uint32_t px = 2 * p; px < a.outW; ++px)
        projectBlock<C, 1>(a, a.dwRow + static_cast<size_t>(px - 2 * p) * C, px, b, m, lo, hi);
    }
  }
  for (; p < pairs; ++p) {
    dwPairBlock<V, 1>(a, p, dlo, dhi, a.dwRow);
    if (pairOut && 2 * p + 2 <= a.outW) {
      interleavePairs<C, 1>(a.dwRow, xi);
      projectPairBlock<C, 1>(a, xi, 2 * p, b2, unzip, m2, lo, hi);
      continue;
    }
    for (uint32_t px = 2 * p; px < a.outW && px < 2 * p + 2; ++px)
      projectBlock<C, 1>(a, a.dwRow + static_cast<size_t>(px - 2 * p) * C, px, b, m, lo, hi);
  }
}

}  // namespace

void depthwiseProjectRow(const DepthwiseProjectRowArgs& a) {
  switch (a.channels) {
    case 24: depthwiseProjectRowV<3>(a); break;
    case 32: depthwiseProjectRowV<4>(a); break;
    case 40: depthwiseProjectRowV<5>(a); break;
    case 56: depthwiseProjectRowV<7>(a); break;
    default: break;  // the caller checks the channels (depthwiseProjectPairsApply)
  }
}

}  // namespace isa_avx512
}  // namespace nn
