// The float16 depthwise convolution (gemm_half_isa.h) with AVX512-FP16: 32 channels per
// vector. For each output pixel, up to four 32-channel vectors are computed at once (four
// independent accumulator chains; neighbouring pixels' chains overlap in the out-of-order
// window), every tap a float16 load and one FMA: with float16 data in memory the kernel reads
// and writes half the bytes of the float32 one, and its FMAs do twice the lanes. A float32
// output (read by a layer without a float16 kernel) is summed in float32 (slideWide, pixelWide).
// Compiled with the AVX-512 and AVX512-FP16 flags; include rules as in conv_isa.h.
#include <cstddef>
#include <cstdint>

#include "cpu/kernels/isa/intrinsics.h"
#include "cpu/kernels/isa/lane_mask.h"

#include "cpu/kernels/isa/gemm_half_isa.h"
#include "cpu/kernels/isa/half_store.h"

namespace nn {
namespace isa_avx512fp16 {
namespace {

inline int32_t clampTo(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : (v > hi ? hi : v); }
inline int32_t ceilDivPos(int64_t a, int64_t b) {
  return static_cast<int32_t>(a >= 0 ? (a + b - 1) / b : -((-a) / b));
}
inline int32_t floorDivPos(int64_t a, int64_t b) {
  return static_cast<int32_t>(a >= 0 ? a / b : -((-a + b - 1) / b));
}
// Taps [begin, end) of a window starting at `start` (may be negative) inside [0, size).
inline void validTaps(int32_t start, int32_t dilation, uint32_t taps, uint32_t size,
                      int32_t* begin, int32_t* end) {
  *begin = clampTo(ceilDivPos(-static_cast<int64_t>(start), dilation), 0, static_cast<int32_t>(taps));
  *end = clampTo(floorDivPos(static_cast<int64_t>(size) - 1 - start, dilation) + 1, *begin,
                 static_cast<int32_t>(taps));
}

// NV vectors of channels [c0, c0 + 32 * NV) of one output pixel. `in` points at channel c0 of
// the window's tap (khBegin, kwBegin); `w` at channel c0 of that tap's filter row.
template <int NV>
inline void pixel(const uint16_t* in, size_t tapStepW, size_t tapStepH, const uint16_t* w,
                  size_t wStride, uint32_t filterW, int32_t khCount, int32_t kwCount,
                  const uint16_t* bias, __mmask32 lastMask, __m512h lo, __m512h hi,
                  uint16_t* out, float* outF) {
  __m512h acc[NV];
#pragma GCC unroll 4
  for (int v = 0; v < NV; ++v) acc[v] = _mm512_castsi512_ph(_mm512_loadu_si512(bias + 32 * v));
  for (int32_t kh = 0; kh < khCount; ++kh) {
    const uint16_t* row = in + kh * tapStepH;
    const uint16_t* wr = w + static_cast<size_t>(kh) * filterW * wStride;
    for (int32_t kw = 0; kw < kwCount; ++kw) {
      const uint16_t* p = row + kw * tapStepW;
      const uint16_t* q = wr + kw * wStride;
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) {
        const __mmask32 m = v == NV - 1 ? lastMask : __mmask32(0xFFFFFFFFu);
        const __m512h x = _mm512_castsi512_ph(_mm512_maskz_loadu_epi16(m, p + 32 * v));
        const __m512h f = _mm512_castsi512_ph(_mm512_loadu_si512(q + 32 * v));
        acc[v] = _mm512_fmadd_ph(x, f, acc[v]);
      }
    }
  }
#pragma GCC unroll 4
  for (int v = 0; v < NV; ++v) {
    const __mmask32 m = v == NV - 1 ? lastMask : __mmask32(0xFFFFFFFFu);
    const __m512h r = _mm512_min_ph(_mm512_max_ph(acc[v], lo), hi);
    storeHalfOrFloat(r, m, out + 32 * v, outF != nullptr ? outF + 32 * v : nullptr);
  }
}

// NB neighbouring output pixels of one 32-channel vector at stride S with filter width FW
// (dilation 1 along W), their windows wholly inside the row: each input vector of a filter row
// is loaded once and feeds every output pixel it is a tap of (S * (NB - 1) + FW loads for
// NB * FW FMAs), the row's FW weight vectors stay in registers and the NB accumulators are
// independent chains. `in` points at the first pixel's tap (khBegin, 0), `w` at that tap's
// weights; pixels are `pix` elements apart in the input, `outStep` in the output. EDGE: some
// windows reach past the row (the padding), input column col0 + i exists only within
// [0, inW): the other taps are skipped (`in` then only gives offsets, nothing outside is read).
template <int NB, int FW, int S, bool EDGE>
inline void slide(const uint16_t* in, size_t pix, size_t rowStep, int32_t khCount,
                  const uint16_t* w, size_t wStride, const uint16_t* bias, __mmask32 m,
                  __m512h lo, __m512h hi, uint16_t* out, float* outF, size_t outStep,
                  int32_t col0, int32_t inW) {
  __m512h acc[NB];
  const __m512h b = _mm512_castsi512_ph(_mm512_loadu_si512(bias));
#pragma GCC unroll 8
  for (int j = 0; j < NB; ++j) acc[j] = b;
  for (int32_t kh = 0; kh < khCount; ++kh) {
    const uint16_t* row = in + static_cast<size_t>(kh) * rowStep;
    const uint16_t* wr = w + static_cast<size_t>(kh) * FW * wStride;
    __m512h wv[FW];
#pragma GCC unroll 5
    for (int kw = 0; kw < FW; ++kw)
      wv[kw] = _mm512_castsi512_ph(_mm512_loadu_si512(wr + kw * wStride));
#pragma GCC unroll 24
    for (int i = 0; i < S * (NB - 1) + FW; ++i) {
      if (EDGE && (col0 + i < 0 || col0 + i >= inW)) continue;
      const __m512h x = _mm512_castsi512_ph(_mm512_maskz_loadu_epi16(m, row + i * pix));
#pragma GCC unroll 8
      for (int j = 0; j < NB; ++j) {
        const int kw = i - j * S;
        if (kw >= 0 && kw < FW) acc[j] = _mm512_fmadd_ph(x, wv[kw], acc[j]);
      }
    }
  }
#pragma GCC unroll 8
  for (int j = 0; j < NB; ++j)
    storeHalfOrFloat(_mm512_min_ph(_mm512_max_ph(acc[j], lo), hi), m, out + j * outStep,
                     outF != nullptr ? outF + j * outStep : nullptr);
}

// The float32-accumulating forms (a float32 output, read by a layer without a float16
// kernel): the float16 inputs, weights and bias widened exactly, the taps summed in float32, so
// that such a layer adds only the rounding of its float16 input and weights, not a float16 sum
// (a depthwise layer in float16 arithmetic before the narrow float32 projections of
// hand_landmark_full moved its outputs by 1.1% of their largest value, more than the 1% its
// relaxed agreement test allows).
inline void widen(__m512i bits, __m512* low, __m512* high) {
  *low = _mm512_cvtph_ps(_mm512_castsi512_si256(bits));
  *high = _mm512_cvtph_ps(_mm512_extracti64x4_epi64(bits, 1));
}
inline void storeWide(__m512 r0, __m512 r1, __mmask32 m, __m512 lo, __m512 hi, float* outF) {
  _mm512_mask_storeu_ps(outF, static_cast<__mmask16>(m), _mm512_min_ps(_mm512_max_ps(r0, lo), hi));
  _mm512_mask_storeu_ps(outF + 16, static_cast<__mmask16>(m >> 16),
                        _mm512_min_ps(_mm512_max_ps(r1, lo), hi));
}
inline __m512 widenBound(__m512h b) { return _mm512_cvtxph_ps(_mm512_castph512_ph256(b)); }
// 32 float16 lanes (masked by m) loaded and widened as two halves, each a masked 16-lane load
// converted on its own (no shuffle of a 32-lane vector).
inline void widenLoad(const uint16_t* p, __mmask32 m, __m512* low, __m512* high) {
  *low = _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(static_cast<__mmask16>(m), p));
  *high = _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(static_cast<__mmask16>(m >> 16), p + 16));
}

// slide() accumulating in float32 (two 16-lane sums per 32 channels, H of them: 1 where only
// the low 16 lanes are used, the 16 channels past a multiple of 32), float32 output.
template <int NB, int FW, int S, bool EDGE, int H>
inline void slideWideHalves(const uint16_t* in, size_t pix, size_t rowStep, int32_t khCount,
                            const uint16_t* w, size_t wStride, const uint16_t* bias, __mmask32 m,
                            __m512h loH, __m512h hiH, float* outF, size_t outStep, int32_t col0,
                            int32_t inW) {
  __m512 acc[NB][H];
  __m512 b[2];
  widen(_mm512_loadu_si512(bias), &b[0], &b[1]);
#pragma GCC unroll 8
  for (int j = 0; j < NB; ++j)
    for (int h = 0; h < H; ++h) acc[j][h] = b[h];
  for (int32_t kh = 0; kh < khCount; ++kh) {
    const uint16_t* row = in + static_cast<size_t>(kh) * rowStep;
    const uint16_t* wr = w + static_cast<size_t>(kh) * FW * wStride;
    __m512 wv[FW][2];
#pragma GCC unroll 5
    for (int kw = 0; kw < FW; ++kw) widen(_mm512_loadu_si512(wr + kw * wStride), &wv[kw][0], &wv[kw][1]);
#pragma GCC unroll 24
    for (int i = 0; i < S * (NB - 1) + FW; ++i) {
      if (EDGE && (col0 + i < 0 || col0 + i >= inW)) continue;
      __m512 x[2];
      if (H == 2) {
        widenLoad(row + i * pix, m, &x[0], &x[1]);
      } else {
        x[0] = _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(static_cast<__mmask16>(m), row + i * pix));
      }
#pragma GCC unroll 8
      for (int j = 0; j < NB; ++j) {
        const int kw = i - j * S;
        if (kw >= 0 && kw < FW)
          for (int h = 0; h < H; ++h) acc[j][h] = _mm512_fmadd_ps(x[h], wv[kw][h], acc[j][h]);
      }
    }
  }
  const __m512 lo = widenBound(loH), hi = widenBound(hiH);
#pragma GCC unroll 8
  for (int j = 0; j < NB; ++j) {
    float* o = outF + j * outStep;
    _mm512_mask_storeu_ps(o, static_cast<__mmask16>(m), _mm512_min_ps(_mm512_max_ps(acc[j][0], lo), hi));
    if (H == 2)
      _mm512_mask_storeu_ps(o + 16, static_cast<__mmask16>(m >> 16),
                            _mm512_min_ps(_mm512_max_ps(acc[j][H - 1], lo), hi));
  }
}
template <int NB, int FW, int S, bool EDGE>
inline void slideWide(const uint16_t* in, size_t pix, size_t rowStep, int32_t khCount,
                      const uint16_t* w, size_t wStride, const uint16_t* bias, __mmask32 m,
                      __m512h loH, __m512h hiH, uint16_t*, float* outF, size_t outStep,
                      int32_t col0, int32_t inW) {
  if ((m >> 16) == 0)
    slideWideHalves<NB, FW, S, EDGE, 1>(in, pix, rowStep, khCount, w, wStride, bias, m, loH, hiH,
                                        outF, outStep, col0, inW);
  else
    slideWideHalves<NB, FW, S, EDGE, 2>(in, pix, rowStep, khCount, w, wStride, bias, m, loH, hiH,
                                        outF, outStep, col0, inW);
}

// pixel() accumulating in float32, float32 output.
template <int NV>
inline void pixelWide(const uint16_t* in, size_t tapStepW, size_t tapStepH, const uint16_t* w,
                      size_t wStride, uint32_t filterW, int32_t khCount, int32_t kwCount,
                      const uint16_t* bias, __mmask32 lastMask, __m512h loH, __m512h hiH,
                      float* outF) {
  __m512 acc[NV][2];
#pragma GCC unroll 4
  for (int v = 0; v < NV; ++v) widen(_mm512_loadu_si512(bias + 32 * v), &acc[v][0], &acc[v][1]);
  for (int32_t kh = 0; kh < khCount; ++kh) {
    const uint16_t* row = in + kh * tapStepH;
    const uint16_t* wr = w + static_cast<size_t>(kh) * filterW * wStride;
    for (int32_t kw = 0; kw < kwCount; ++kw) {
      const uint16_t* p = row + kw * tapStepW;
      const uint16_t* q = wr + kw * wStride;
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) {
        const __mmask32 m = v == NV - 1 ? lastMask : __mmask32(0xFFFFFFFFu);
        __m512 x0, x1, f0, f1;
        widenLoad(p + 32 * v, m, &x0, &x1);
        widen(_mm512_loadu_si512(q + 32 * v), &f0, &f1);
        acc[v][0] = _mm512_fmadd_ps(x0, f0, acc[v][0]);
        acc[v][1] = _mm512_fmadd_ps(x1, f1, acc[v][1]);
      }
    }
  }
  const __m512 lo = widenBound(loH), hi = widenBound(hiH);
#pragma GCC unroll 4
  for (int v = 0; v < NV; ++v) {
    const __mmask32 m = v == NV - 1 ? lastMask : __mmask32(0xFFFFFFFFu);
    storeWide(acc[v][0], acc[v][1], m, lo, hi, outF + 32 * v);
  }
}

using SlideFn = void (*)(const uint16_t*, size_t, size_t, int32_t, const uint16_t*, size_t,
                         const uint16_t*, __mmask32, __m512h, __m512h, uint16_t*, float*,
                         size_t, int32_t, int32_t);

// slide() for 8, 4, 2 and 1 pixels, inside the row ([0]) and at its edges ([1]): a row is
// taken 8 columns at a time, the rest in fewer (the small maps of the late layers have only a
// few).
struct Slides {
  SlideFn fn[2][4] = {};
};
template <int FW, int S, bool WIDE>
Slides slides() {
  Slides s;
  if constexpr (WIDE) {
    s.fn[0][0] = slideWide<8, FW, S, false>;
    s.fn[0][1] = slideWide<4, FW, S, false>;
    s.fn[0][2] = slideWide<2, FW, S, false>;
    s.fn[0][3] = slideWide<1, FW, S, false>;
    s.fn[1][0] = slideWide<8, FW, S, true>;
    s.fn[1][1] = slideWide<4, FW, S, true>;
    s.fn[1][2] = slideWide<2, FW, S, true>;
    s.fn[1][3] = slideWide<1, FW, S, true>;
  } else {
    s.fn[0][0] = slide<8, FW, S, false>;
    s.fn[0][1] = slide<4, FW, S, false>;
    s.fn[0][2] = slide<2, FW, S, false>;
    s.fn[0][3] = slide<1, FW, S, false>;
    s.fn[1][0] = slide<8, FW, S, true>;
    s.fn[1][1] = slide<4, FW, S, true>;
    s.fn[1][2] = slide<2, FW, S, true>;
    s.fn[1][3] = slide<1, FW, S, true>;
  }
  return s;
}
template <bool WIDE>
Slides slidesFor(uint32_t filterW, int32_t strideW, int32_t dilationW) {
  if (dilationW != 1) return {};
  if (filterW == 3)
    return strideW == 1 ? slides<3, 1, WIDE>() : strideW == 2 ? slides<3, 2, WIDE>() : Slides{};
  if (filterW == 5)
    return strideW == 1 ? slides<5, 1, WIDE>() : strideW == 2 ? slides<5, 2, WIDE>() : Slides{};
  return {};
}

}  // namespace

void depthwiseHalfRows(const DepthwiseHalfArgs& a, uint32_t rowBegin, uint32_t rowEnd) {
  const uint32_t C = a.channels;
  const size_t wStride = (C + kHalfDwLanes - 1) / kHalfDwLanes * kHalfDwLanes;
  const __m512h lo = _mm512_set1_ph(static_cast<_Float16>(a.outputMin));
  const __m512h hi = _mm512_set1_ph(static_cast<_Float16>(a.outputMax));
  const size_t tapStepW = static_cast<size_t>(a.dilationW) * C;
  const size_t tapStepH = static_cast<size_t>(a.dilationH) * a.inW * C;
  // A float32 output is summed in float32 (see slideWide).
  const bool wide = a.outF != nullptr;
  const Slides slide = wide ? slidesFor<true>(a.filterW, a.strideW, a.dilationW)
                            : slidesFor<false>(a.filterW, a.strideW, a.dilationW);
  for (uint32_t row = rowBegin; row < rowEnd; ++row) {
    const uint32_t b = row / a.outH, oh = row % a.outH;
    const int32_t ih0 = static_cast<int32_t>(oh) * a.strideH - a.padTop;
    int32_t khBegin, khEnd;
    validTaps(ih0, a.dilationH, a.filterH, a.inH, &khBegin, &khEnd);
    const uint16_t* image = a.in + static_cast<size_t>(b) * a.inH * a.inW * C;
    // Output element offsets are the same for both output types; the unused pointer is null.
    uint16_t* outRow = a.out != nullptr ? a.out + static_cast<size_t>(row) * a.outW * C : nullptr;
    float* outRowF = a.outF != nullptr ? a.outF + static_cast<size_t>(row) * a.outW * C : nullptr;
    // 3x3 and 5x5 at strides 1 and 2: the whole row in blocks of 8, 4, 2 or 1 columns by
    // slide(), the edge form where a block's windows reach into the padding.
    if (slide.fn[0][0] != nullptr && khBegin < khEnd) {
      const int64_t interiorLo = (static_cast<int64_t>(a.padLeft) + a.strideW - 1) / a.strideW;
      const int64_t interiorHi =  // exclusive; may be below interiorLo
          static_cast<int64_t>(a.inW) - a.filterW + a.padLeft >= 0
              ? (static_cast<int64_t>(a.inW) - a.filterW + a.padLeft) / a.strideW + 1
              : 0;
      const uint16_t* base = image + static_cast<size_t>(ih0 + khBegin * a.dilationH) * a.inW * C;
      const uint16_t* w = a.filter + static_cast<size_t>(khBegin) * a.filterW * wStride;
      for (uint32_t o = 0; o < a.outW;) {
        const uint32_t left = a.outW - o;
        const int size = left >= 8 ? 0 : left >= 4 ? 1 : left >= 2 ? 2 : 3;
        const uint32_t nb = 8u >> size;
        const bool edge = static_cast<int64_t>(o) < interiorLo ||
                          static_cast<int64_t>(o) + nb > interiorHi;
        const SlideFn fn = slide.fn[edge ? 1 : 0][size];
        const int32_t col0 = static_cast<int32_t>(o) * a.strideW - a.padLeft;
        // Only an offset where col0 < 0: the edge form reads nothing before the row.
        const uint16_t* first = base + static_cast<ptrdiff_t>(col0) * static_cast<ptrdiff_t>(C);
        for (uint32_t c = 0; c < C; c += 32)
          fn(first + c, C, tapStepH, khEnd - khBegin, w + c, wStride, a.bias + c,
             laneMask32(C - c), lo, hi,
             outRow != nullptr ? outRow + static_cast<size_t>(o) * C + c : nullptr,
             outRowF != nullptr ? outRowF + static_cast<size_t>(o) * C + c : nullptr, C, col0,
             static_cast<int32_t>(a.inW));
        o += nb;
      }
      continue;
    }
    for (uint32_t ow = 0; ow < a.outW; ++ow) {
      const int32_t iw0 = static_cast<int32_t>(ow) * a.strideW - a.padLeft;
      int32_t kwBegin, kwEnd;
      validTaps(iw0, a.dilationW, a.filterW, a.inW, &kwBegin, &kwEnd);
      uint16_t* out = outRow != nullptr ? outRow + static_cast<size_t>(ow) * C : nullptr;
      float* outF = outRowF != nullptr ? outRowF + static_cast<size_t>(ow) * C : nullptr;
      if (khBegin >= khEnd || kwBegin >= kwEnd) {  // only padding: the clamped bias
        for (uint32_t c = 0; c < C; c += 32) {
          const __mmask32 m = laneMask32(C - c);
          const __m512h r = _mm512_min_ph(
              _mm512_max_ph(_mm512_castsi512_ph(_mm512_loadu_si512(a.bias + c)), lo), hi);
          storeHalfOrFloat(r, m, out != nullptr ? out + c : nullptr,
                           outF != nullptr ? outF + c : nullptr);
        }
        continue;
      }
      const uint16_t* first =
          image + (static_cast<size_t>(ih0 + khBegin * a.dilationH) * a.inW +
                   static_cast<size_t>(iw0 + kwBegin * a.dilationW)) * C;
      const uint16_t* w = a.filter + (static_cast<size_t>(khBegin) * a.filterW + kwBegin) * wStride;
      const int32_t khCount = khEnd - khBegin, kwCount = kwEnd - kwBegin;
      for (uint32_t c = 0; c < C;) {
        const uint32_t left = C - c;
        if (wide) {
          const uint32_t nv = left > 32 ? 2 : 1;
          const __mmask32 lastMask = laneMask32(left - 32 * (nv - 1));
          if (nv == 2)
            pixelWide<2>(first + c, tapStepW, tapStepH, w + c, wStride, a.filterW, khCount,
                         kwCount, a.bias + c, lastMask, lo, hi, outF + c);
          else
            pixelWide<1>(first + c, tapStepW, tapStepH, w + c, wStride, a.filterW, khCount,
                         kwCount, a.bias + c, lastMask, lo, hi, outF + c);
          c += 32 * nv;
          continue;
        }
        const uint32_t nv = left > 96 ? 4 : (left + 31) / 32;
        const __mmask32 lastMask = laneMask32(left - 32 * (nv - 1));
        switch (nv) {
          case 4:
            pixel<4>(first + c, tapStepW, tapStepH, w + c, wStride, a.filterW, khCount, kwCount,
                     a.bias + c, lastMask, lo, hi, out != nullptr ? out + c : nullptr,
                     outF != nullptr ? outF + c : nullptr);
            break;
          case 3:
            pixel<3>(first + c, tapStepW, tapStepH, w + c, wStride, a.filterW, khCount, kwCount,
                     a.bias + c, lastMask, lo, hi, out != nullptr ? out + c : nullptr,
                     outF != nullptr ? outF + c : nullptr);
            break;
          case 2:
            pixel<2>(first + c, tapStepW, tapStepH, w + c, wStride, a.filterW, khCount, kwCount,
                     a.bias + c, lastMask, lo, hi, out != nullptr ? out + c : nullptr,
                     outF != nullptr ? outF + c : nullptr);
            break;
          default:
            pixel<1>(first + c, tapStepW, tapStepH, w + c, wStride, a.filterW, khCount, kwCount,
                     a.bias + c, lastMask, lo, hi, out != nullptr ? out + c : nullptr,
                     outF != nullptr ? outF + c : nullptr);
            break;
        }
        c += 32 * nv;
      }
    }
  }
}

}  // namespace isa_avx512fp16
}  // namespace nn
