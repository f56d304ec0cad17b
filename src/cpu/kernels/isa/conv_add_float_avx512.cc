// The 1x1 CONV_2D + residual ADD pair in float32 (conv_add_isa.h). Compiled with the AVX-512
// flags; include rules as in conv_isa.h.
#include <cstddef>
#include <cstdint>

#include "cpu/kernels/isa/conv_add_isa.h"
#include "cpu/kernels/isa/intrinsics.h"
#include "cpu/kernels/isa/lane_mask.h"

namespace nn {
namespace isa_avx512 {
namespace {

// P pixels from row r, G 16-column groups from column c: P * G independent FMA chains, each
// input value broadcast from memory into its FMAs.
template <int P, int G>
inline void pixels(const ConvAddFloatArgs& a, size_t r, uint32_t c, __m512 convLo, __m512 convHi,
                   __m512 outLo, __m512 outHi) {
  const uint32_t n = a.n, k = a.k;
  const uint32_t nPad = (n + kConvAddFloatLanes - 1) / kConvAddFloatLanes * kConvAddFloatLanes;
  __m512 acc[P][G];
#pragma GCC unroll 4
  for (int g = 0; g < G; ++g) {
    const __m512 b = _mm512_loadu_ps(a.bias + c + 16 * g);
#pragma GCC unroll 8
    for (int p = 0; p < P; ++p) acc[p][g] = b;
  }
  const float* x = a.x + r * k;
  for (uint32_t j = 0; j < k; ++j) {
    __m512 w[G];
#pragma GCC unroll 4
    for (int g = 0; g < G; ++g)
      w[g] = _mm512_loadu_ps(a.w + static_cast<size_t>(j) * nPad + c + 16 * g);
#pragma GCC unroll 8
    for (int p = 0; p < P; ++p) {
      const __m512 xv = _mm512_set1_ps(x[static_cast<size_t>(p) * k + j]);
#pragma GCC unroll 4
      for (int g = 0; g < G; ++g) acc[p][g] = _mm512_fmadd_ps(xv, w[g], acc[p][g]);
    }
  }
#pragma GCC unroll 8
  for (int p = 0; p < P; ++p)
#pragma GCC unroll 4
    for (int g = 0; g < G; ++g) {
      const uint32_t col = c + 16 * g;
      const __mmask16 m = laneMask16(n - col);
      const size_t at = (r + p) * n + col;
      // The panel GEMM's clamp, then the ADD's (which keeps a NaN sum: max(lo, s), min(hi, .)).
      const __m512 conv = _mm512_min_ps(_mm512_max_ps(acc[p][g], convLo), convHi);
      const __m512 sum = _mm512_add_ps(_mm512_maskz_loadu_ps(m, a.res + at), conv);
      _mm512_mask_storeu_ps(a.out + at, m, _mm512_min_ps(outHi, _mm512_max_ps(outLo, sum)));
    }
}

// P pixels from row r, every column: two groups at a time (2P accumulators), then one.
template <int P>
inline void pixelsAllColumns(const ConvAddFloatArgs& a, size_t r, __m512 convLo, __m512 convHi,
                             __m512 outLo, __m512 outHi) {
  uint32_t c = 0;
  for (; c + 16 < a.n; c += 32) pixels<P, 2>(a, r, c, convLo, convHi, outLo, outHi);
  if (c < a.n) pixels<P, 1>(a, r, c, convLo, convHi, outLo, outHi);
}

}  // namespace

void convAddFloatRows(const ConvAddFloatArgs& a, size_t rowBegin, size_t rowEnd) {
  constexpr int kBlock = 6;  // 12 accumulators over two column groups hide the FMA latency
  const __m512 convLo = _mm512_set1_ps(a.convMin), convHi = _mm512_set1_ps(a.convMax);
  const __m512 outLo = _mm512_set1_ps(a.outMin), outHi = _mm512_set1_ps(a.outMax);
  size_t r = rowBegin;
  for (; r + kBlock <= rowEnd; r += kBlock)
    pixelsAllColumns<kBlock>(a, r, convLo, convHi, outLo, outHi);
  for (; r < rowEnd; ++r) pixelsAllColumns<1>(a, r, convLo, convHi, outLo, outHi);
}

}  // namespace isa_avx512
}  // namespace nn
