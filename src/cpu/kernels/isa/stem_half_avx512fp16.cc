// The float16 stem convolution (stem_half_isa.h) with AVX512-FP16: one 32-lane vector holds
// all output channels of a pixel; per filter tap, one packed weight vector and, for each of R
// pixels, the input value broadcast from the padded pairs image (vpbroadcastd from memory) and
// one FMA. The taps of up to kStemHalfKBlock terms (whole filter rows) are summed in float16,
// then added into float32 sums (bias first); clamp and output conversion in float32.
// Compiled with the AVX-512 and AVX512-FP16 flags; include rules as in conv_isa.h.
#include <cstddef>
#include <cstdint>

#include "cpu/kernels/isa/intrinsics.h"

#include "cpu/kernels/isa/stem_half_isa.h"

namespace nn {
namespace isa_avx512fp16 {
namespace {

// R: float16 accumulators in registers, one per pixel, each taking one FMA per tap. With 8 the
// 4-cycle FMA latency on two ports left no slack (8 chains of 8 FMAs per tap) and the 16
// float32 sums filled the rest of the registers; with the sums in L1 (read and written once per
// filter-row block, a few loads against the taps' broadcasts) 16 chains fit: the 5x5 stem of
// face_detection_short_range (64x64x24, blocks of 16 pixels) took 0.87-0.89x the time on one
// thread (12: 0.90x, 10: 0.94x; in-process A/B). The same arithmetic per pixel, so the same
// bits.
constexpr int kPixels = 16;

template <int R>
inline void pixels(const StemHalfArgs& a, const uint32_t* in, uint32_t rowsPerBlock,
                   __mmask32 nMask, uint16_t* out, float* outF) {
  const uint32_t span = a.filterW * a.channels;
  const size_t rowStride = static_cast<size_t>(a.padW) * a.channels;
  const size_t pixStride = static_cast<size_t>(a.strideW) * a.channels;
  const _Float16* w = reinterpret_cast<const _Float16*>(a.w);
  alignas(64) float sums[R][32];
  const __m512 b0 = _mm512_loadu_ps(a.bias), b1 = _mm512_loadu_ps(a.bias + 16);
  for (uint32_t kh0 = 0; kh0 < a.filterH; kh0 += rowsPerBlock) {
    const uint32_t kh1 = kh0 + rowsPerBlock < a.filterH ? kh0 + rowsPerBlock : a.filterH;
    __m512h acc[R];
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) acc[r] = _mm512_setzero_ph();
    for (uint32_t kh = kh0; kh < kh1; ++kh) {
      const uint32_t* src = in + kh * rowStride;
      const _Float16* wr = w + static_cast<size_t>(kh) * span * kStemHalfLanes;
      for (uint32_t t = 0; t < span; ++t) {
        const __m512h wv = _mm512_loadu_ph(wr + static_cast<size_t>(t) * kStemHalfLanes);
#pragma GCC unroll 16
        for (int r = 0; r < R; ++r) {
          const __m512h x = _mm512_castsi512_ph(
              _mm512_set1_epi32(static_cast<int>(src[r * pixStride + t])));
          acc[r] = _mm512_fmadd_ph(x, wv, acc[r]);
        }
      }
    }
    const bool first = kh0 == 0;
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) {
      const __m512 p0 = _mm512_cvtxph_ps(_mm512_castph512_ph256(acc[r]));
      const __m512 p1 = _mm512_cvtxph_ps(
          _mm256_castpd_ph(_mm512_extractf64x4_pd(_mm512_castph_pd(acc[r]), 1)));
      _mm512_store_ps(sums[r], _mm512_add_ps(first ? b0 : _mm512_load_ps(sums[r]), p0));
      _mm512_store_ps(sums[r] + 16, _mm512_add_ps(first ? b1 : _mm512_load_ps(sums[r] + 16), p1));
    }
  }
  const __m512 lo = _mm512_set1_ps(a.outputMin), hi = _mm512_set1_ps(a.outputMax);
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) {
    const __m512 v0 = _mm512_min_ps(_mm512_max_ps(_mm512_load_ps(sums[r]), lo), hi);
    const __m512 v1 = _mm512_min_ps(_mm512_max_ps(_mm512_load_ps(sums[r] + 16), lo), hi);
    if (outF != nullptr) {
      float* o = outF + static_cast<size_t>(r) * a.n;
      _mm512_mask_storeu_ps(o, static_cast<__mmask16>(nMask), v0);
      _mm512_mask_storeu_ps(o + 16, static_cast<__mmask16>(nMask >> 16), v1);
    } else {
      const __m256i h0 = _mm512_cvtps_ph(v0, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
      const __m256i h1 = _mm512_cvtps_ph(v1, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
      _mm512_mask_storeu_epi16(out + static_cast<size_t>(r) * a.n, nMask,
                               _mm512_inserti64x4(_mm512_castsi256_si512(h0), h1, 1));
    }
  }
}

template <int R>
inline void pixelsUpTo(uint32_t count, const StemHalfArgs& a, const uint32_t* in,
                       uint32_t rowsPerBlock, __mmask32 nMask, uint16_t* out, float* outF) {
  if constexpr (R > 1) {
    if (count < static_cast<uint32_t>(R))
      return pixelsUpTo<R - 1>(count, a, in, rowsPerBlock, nMask, out, outF);
  }
  pixels<R>(a, in, rowsPerBlock, nMask, out, outF);
}

// Padded row y (image row y - padTop, columns shifted by padLeft, zero outside) rounded to
// float16 pairs at dst (padW * channels words).
void padRow(const StemHalfArgs& a, int32_t y, uint32_t* dst) {
  // Word i of 16 converted values to words 2i and 2i + 1.
  alignas(64) static constexpr uint16_t kPairs[32] = {0, 0, 1, 1, 2,  2,  3,  3,  4,  4,  5,
                                                      5, 6, 6, 7, 7, 8,  8,  9,  9,  10, 10,
                                                      11, 11, 12, 12, 13, 13, 14, 14, 15, 15};
  const uint32_t c = a.channels;
  const size_t rowWords = static_cast<size_t>(a.padW) * c;
  const int32_t iy = y - a.padTop;
  // Padded columns [x0, x1) come from the image.
  const int32_t x0 = a.padLeft > 0 ? a.padLeft : 0;
  int32_t x1 = a.padLeft + static_cast<int32_t>(a.inW);
  if (x1 > static_cast<int32_t>(a.padW)) x1 = static_cast<int32_t>(a.padW);
  if (iy < 0 || iy >= static_cast<int32_t>(a.inH) || x1 <= x0) {
    for (size_t i = 0; i < rowWords; ++i) dst[i] = 0;
    return;
  }
  for (size_t i = 0; i < static_cast<size_t>(x0) * c; ++i) dst[i] = 0;
  for (size_t i = static_cast<size_t>(x1) * c; i < rowWords; ++i) dst[i] = 0;
  const __m512i pairs = _mm512_load_si512(kPairs);
  const float* src = a.image + (static_cast<size_t>(iy) * a.inW + (x0 - a.padLeft)) * c;
  uint32_t* o = dst + static_cast<size_t>(x0) * c;
  const size_t count = static_cast<size_t>(x1 - x0) * c;
  for (size_t i = 0; i < count; i += 16) {
    const size_t left = count - i;
    const __mmask16 m = left >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << left) - 1);
    const __m256i h = _mm512_cvtps_ph(_mm512_maskz_loadu_ps(m, src + i),
                                      _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    _mm512_mask_storeu_epi32(o + i, m, _mm512_permutexvar_epi16(pairs, _mm512_castsi256_si512(h)));
  }
}

}  // namespace

void stemHalfRows(const StemHalfArgs& a, uint32_t rowBegin, uint32_t rowEnd, uint32_t* scratch) {
  const uint32_t span = a.filterW * a.channels;
  uint32_t rowsPerBlock = span > 0 ? kStemHalfKBlock / span : 1;
  if (rowsPerBlock == 0) rowsPerBlock = 1;
  const __mmask32 nMask = a.n >= 32 ? __mmask32(0xFFFFFFFFu) : __mmask32((1u << a.n) - 1);
  const size_t rowWords = static_cast<size_t>(a.padW) * a.channels;
  for (uint32_t oy = rowBegin; oy < rowEnd; ++oy) {
    // The window rows of this output row (with stride < filterH some were converted for the
    // previous one too: converting again is cheaper than keeping a large copy in L2).
    for (uint32_t kh = 0; kh < a.filterH; ++kh)
      padRow(a, static_cast<int32_t>(oy * a.strideH + kh), scratch + kh * rowWords);
    // Blocks of evened-out sizes (64 columns: 11, 11, 11, 11, 10, 10): a short last block
    // would leave too few FMA chains.
    for (uint32_t ox = 0; ox < a.outW;) {
      const uint32_t left = a.outW - ox, blocks = (left + kPixels - 1) / kPixels;
      const uint32_t count = (left + blocks - 1) / blocks;
      const size_t o = (static_cast<size_t>(oy) * a.outW + ox) * a.n;
      pixelsUpTo<kPixels>(count, a, scratch + static_cast<size_t>(ox) * a.strideW * a.channels,
                          rowsPerBlock, nMask, a.out != nullptr ? a.out + o : nullptr,
                          a.outF != nullptr ? a.outF + o : nullptr);
      ox += count;
    }
  }
}

}  // namespace isa_avx512fp16
}  // namespace nn
