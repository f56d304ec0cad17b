// The small-n float16 1x1 convolution (gemm_half_small_isa.h). Compiled with the AVX-512 and
// AVX512-FP16 flags; include rules as in conv_isa.h.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cpu/kernels/isa/intrinsics.h"

#include "cpu/kernels/isa/gemm_half_small_isa.h"

namespace nn {
namespace isa_avx512fp16 {
namespace {

// permutex2var indices: the even and the odd 16-bit lanes of two vectors (a's 16, then b's).
alignas(64) constexpr uint16_t kEven[32] = {0,  2,  4,  6,  8,  10, 12, 14, 16, 18, 20,
                                            22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42,
                                            44, 46, 48, 50, 52, 54, 56, 58, 60, 62};
alignas(64) constexpr uint16_t kOdd[32] = {1,  3,  5,  7,  9,  11, 13, 15, 17, 19, 21,
                                           23, 25, 27, 29, 31, 33, 35, 37, 39, 41, 43,
                                           45, 47, 49, 51, 53, 55, 57, 59, 61, 63};

inline __m512h pairSums(__m512h a, __m512h b, __m512i even, __m512i odd) {
  const __m512i ai = _mm512_castph_si512(a), bi = _mm512_castph_si512(b);
  return _mm512_add_ph(_mm512_castsi512_ph(_mm512_permutex2var_epi16(ai, even, bi)),
                       _mm512_castsi512_ph(_mm512_permutex2var_epi16(ai, odd, bi)));
}

}  // namespace

void gemmHalfSmallN(const GemmHalfArgs& g, uint32_t rowBegin, uint32_t rowEnd) {
  const uint32_t n = g.n, k = g.k, quads = k / 4;
  const uint32_t groups = (n + kHalfNarrowGroup - 1) / kHalfNarrowGroup;
  const size_t stride = static_cast<size_t>(groups) * kHalfNarrowGroup * 4;  // narrow layout
  // w[v][j]: lane 4c + i = weight of column 8v + c, input 4j + i (from the narrow layout's
  // [k][group][column][4 copies]).
  alignas(64) uint16_t w[2][kHalfSmallMaxK / 4][32];
  alignas(64) uint16_t bias[2][32];
  for (uint32_t v = 0; v < groups; ++v) {
    for (uint32_t j = 0; j < quads; ++j)
      for (uint32_t c = 0; c < 8; ++c)
        for (uint32_t i = 0; i < 4; ++i)
          w[v][j][4 * c + i] = g.packed[(4 * j + i) * stride + v * 32 + c * 4];
    // Lane 8p + c of the reduced vector is row p, column c.
    for (uint32_t l = 0; l < 32; ++l) {
      const uint32_t col = 8 * v + l % 8;
      const _Float16 b = static_cast<_Float16>(g.bias != nullptr && col < n ? g.bias[col] : 0.f);
      std::memcpy(&bias[v][l], &b, 2);
    }
  }
  const __m512i even = _mm512_load_si512(kEven), odd = _mm512_load_si512(kOdd);
  const __m512h lo = _mm512_set1_ph(static_cast<_Float16>(g.outputMin));
  const __m512h hi = _mm512_set1_ph(static_cast<_Float16>(g.outputMax));
  // 8 rows at a time: 8 independent FMA chains (two ports, 4-cycle latency).
  constexpr uint32_t kRows = 8;
  alignas(64) uint16_t tail[kRows * kHalfSmallMaxK];
  for (uint32_t r = rowBegin; r < rowEnd; r += kRows) {
    const uint32_t rows = rowEnd - r < kRows ? rowEnd - r : kRows;
    const uint16_t* x = g.ah + static_cast<size_t>(r) * k;
    if (rows < kRows) {
      // The last rows, zero-padded.
      std::memset(tail, 0, sizeof(tail));
      std::memcpy(tail, x, static_cast<size_t>(rows) * k * 2);
      x = tail;
    }
    for (uint32_t v = 0; v < groups; ++v) {
      __m512h acc[kRows];
#pragma GCC unroll 8
      for (uint32_t p = 0; p < kRows; ++p) acc[p] = _mm512_setzero_ph();
      for (uint32_t j = 0; j < quads; ++j) {
        const __m512h wv = _mm512_castsi512_ph(_mm512_load_si512(w[v][j]));
#pragma GCC unroll 8
        for (uint32_t p = 0; p < kRows; ++p) {
          uint64_t q;
          std::memcpy(&q, x + static_cast<size_t>(p) * k + 4 * j, 8);
          const __m512h b = _mm512_castsi512_ph(_mm512_set1_epi64(static_cast<long long>(q)));
          acc[p] = _mm512_fmadd_ph(b, wv, acc[p]);
        }
      }
      const __m512h b = _mm512_castsi512_ph(_mm512_load_si512(bias[v]));
      const uint32_t col = 8 * v, cols = n - col < 8 ? n - col : 8;
      const __mmask8 cm = static_cast<__mmask8>((1u << cols) - 1);
      for (uint32_t h = 0; h < kRows; h += 4) {
        const __m512h s01 = pairSums(acc[h], acc[h + 1], even, odd);
        const __m512h s23 = pairSums(acc[h + 2], acc[h + 3], even, odd);
        // max(lo, s) and min(hi, .) return s where s is NaN (as the other float16 kernels).
        const __m512h u = _mm512_min_ph(
            hi, _mm512_max_ph(lo, _mm512_add_ph(pairSums(s01, s23, even, odd), b)));
        const __m512i ui = _mm512_castph_si512(u);
        uint16_t* out = g.ch + static_cast<size_t>(r + h) * n + col;
        if (h < rows) _mm_mask_storeu_epi16(out, cm, _mm512_castsi512_si128(ui));
        if (h + 1 < rows) _mm_mask_storeu_epi16(out + n, cm, _mm512_extracti32x4_epi32(ui, 1));
        if (h + 2 < rows)
          _mm_mask_storeu_epi16(out + 2 * n, cm, _mm512_extracti32x4_epi32(ui, 2));
        if (h + 3 < rows)
          _mm_mask_storeu_epi16(out + 3 * n, cm, _mm512_extracti32x4_epi32(ui, 3));
      }
    }
  }
}

}  // namespace isa_avx512fp16
}  // namespace nn
