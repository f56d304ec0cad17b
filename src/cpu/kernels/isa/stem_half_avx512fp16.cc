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

// The float16 sums acc[r] of filter rows [kh0, kh1) for R pixels.
template <int R>
inline void sumTaps(const StemHalfArgs& a, const uint32_t* in, uint32_t kh0, uint32_t kh1,
                    __m512h (&acc)[R]) {
  const uint32_t span = a.filterW * a.channels;
  const size_t rowStride = static_cast<size_t>(a.padW) * a.channels;
  const size_t pixStride = static_cast<size_t>(a.strideW) * a.channels;
  const _Float16* w = reinterpret_cast<const _Float16*>(a.w);
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
}

// pixels() for at most 24 output channels and an even R: the float16 sums' channels 16-23 of
// two pixels widened by one conversion (a 256-bit vector gathered by one vpermt2q), 3 float32
// sum vectors per pixel pair instead of 4. Per flush (every filter row) and pixel pair 10
// vector operations instead of 14 on the two ports the FMAs use (vcvtph2ps is two of them);
// the same float32 arithmetic per channel, so the same bits.
template <int R>
inline void pixelsPaired(const StemHalfArgs& a, const uint32_t* in, uint32_t rowsPerBlock,
                         uint16_t* out, float* outF) {
  static_assert(R % 2 == 0, "pixel pairs");
  constexpr int P = R / 2;
  alignas(64) float sums[P][48];
  const __m512 b0 = _mm512_loadu_ps(a.bias), b1 = _mm512_loadu_ps(a.bias + 16);
  // Channels 16-23 of both pixels: lanes 0-7 pixel 2p, 8-15 pixel 2p + 1.
  const __m512 bHi = _mm512_shuffle_f32x4(b1, b1, 0x44);
  // Quadwords 4, 5 (float16 channels 16-23) of the first and of the second vector.
  const __m512i gather = _mm512_set_epi64(13, 12, 5, 4, 13, 12, 5, 4);
  for (uint32_t kh0 = 0; kh0 < a.filterH; kh0 += rowsPerBlock) {
    const uint32_t kh1 = kh0 + rowsPerBlock < a.filterH ? kh0 + rowsPerBlock : a.filterH;
    __m512h acc[R];
    sumTaps<R>(a, in, kh0, kh1, acc);
    const bool first = kh0 == 0;
#pragma GCC unroll 8
    for (int p = 0; p < P; ++p) {
      const __m512h x = acc[2 * p], y = acc[2 * p + 1];
      const __m512 lx = _mm512_cvtxph_ps(_mm512_castph512_ph256(x));
      const __m512 ly = _mm512_cvtxph_ps(_mm512_castph512_ph256(y));
      const __m512i hv =
          _mm512_permutex2var_epi64(_mm512_castph_si512(x), gather, _mm512_castph_si512(y));
      const __m512 h = _mm512_cvtxph_ps(_mm256_castsi256_ph(_mm512_castsi512_si256(hv)));
      float* sp = sums[p];
      _mm512_store_ps(sp, _mm512_add_ps(first ? b0 : _mm512_load_ps(sp), lx));
      _mm512_store_ps(sp + 16, _mm512_add_ps(first ? b0 : _mm512_load_ps(sp + 16), ly));
      _mm512_store_ps(sp + 32, _mm512_add_ps(first ? bHi : _mm512_load_ps(sp + 32), h));
    }
  }
  const __m512 lo = _mm512_set1_ps(a.outputMin), hi = _mm512_set1_ps(a.outputMax);
  const uint32_t n = a.n;
  // Channels 16.. of a pixel: n - 16 (at most 8) lanes.
  const __mmask16 hm = static_cast<__mmask16>(n > 16 ? (1u << (n - 16)) - 1 : 0);
  const __mmask16 lm = static_cast<__mmask16>(n >= 16 ? 0xFFFF : (1u << n) - 1);
#pragma GCC unroll 8
  for (int p = 0; p < P; ++p) {
    const float* sp = sums[p];
    const __m512 vx = _mm512_min_ps(_mm512_max_ps(_mm512_load_ps(sp), lo), hi);
    const __m512 vy = _mm512_min_ps(_mm512_max_ps(_mm512_load_ps(sp + 16), lo), hi);
    const __m512 vh = _mm512_min_ps(_mm512_max_ps(_mm512_load_ps(sp + 32), lo), hi);
    const size_t ox = static_cast<size_t>(2 * p) * n, oy = ox + n;
    if (outF != nullptr) {
      _mm512_mask_storeu_ps(outF + ox, lm, vx);
      _mm512_mask_storeu_ps(outF + oy, lm, vy);
      _mm256_mask_storeu_ps(outF + ox + 16, static_cast<__mmask8>(hm), _mm512_castps512_ps256(vh));
      _mm256_mask_storeu_ps(outF + oy + 16, static_cast<__mmask8>(hm), _mm512_extractf32x8_ps(vh, 1));
    } else {
      constexpr int kRound = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
      const __m256i hh = _mm512_cvtps_ph(vh, kRound);
      _mm256_mask_storeu_epi16(out + ox, lm, _mm512_cvtps_ph(vx, kRound));
      _mm256_mask_storeu_epi16(out + oy, lm, _mm512_cvtps_ph(vy, kRound));
      _mm_mask_storeu_epi16(out + ox + 16, static_cast<__mmask8>(hm), _mm256_castsi256_si128(hh));
      _mm_mask_storeu_epi16(out + oy + 16, static_cast<__mmask8>(hm), _mm256_extracti128_si256(hh, 1));
    }
  }
}

template <int R>
inline void pixels(const StemHalfArgs& a, const uint32_t* in, uint32_t rowsPerBlock,
                   __mmask32 nMask, uint16_t* out, float* outF) {
  if constexpr (R % 2 == 0) {
    if (a.n <= 24) return pixelsPaired<R>(a, in, rowsPerBlock, out, outF);
  }
  alignas(64) float sums[R][32];
  const __m512 b0 = _mm512_loadu_ps(a.bias), b1 = _mm512_loadu_ps(a.bias + 16);
  for (uint32_t kh0 = 0; kh0 < a.filterH; kh0 += rowsPerBlock) {
    const uint32_t kh1 = kh0 + rowsPerBlock < a.filterH ? kh0 + rowsPerBlock : a.filterH;
    __m512h acc[R];
    sumTaps<R>(a, in, kh0, kh1, acc);
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
