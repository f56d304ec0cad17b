// The 1x1 CONV_2D + residual ADD pair in float16 arithmetic (conv_add_isa.h). Compiled
// with the AVX-512 and AVX512-FP16 flags; include rules as in conv_isa.h.
#include <cstddef>
#include <cstdint>

#include "cpu/kernels/isa/conv_add_isa.h"
#include "cpu/kernels/isa/half_store.h"
#include "cpu/kernels/isa/intrinsics.h"
#include "cpu/kernels/isa/lane_mask.h"
#include "cpu/kernels/isa/static_flags.h"

namespace nn {
namespace isa_avx512fp16 {
namespace {

// 32 residual lanes (masked by m) as float16.
template <bool ResHalf>
inline __m512h loadResidual(const ConvAddHalfArgs& a, size_t at, __mmask32 m) {
  if (ResHalf) return _mm512_castsi512_ph(_mm512_maskz_loadu_epi16(m, a.rh + at));
  const __m256h low = _mm512_cvtxps_ph(_mm512_maskz_loadu_ps(static_cast<__mmask16>(m), a.rf + at));
  const __m256h high =
      _mm512_cvtxps_ph(_mm512_maskz_loadu_ps(static_cast<__mmask16>(m >> 16), a.rf + at + 16));
  return _mm512_castpd_ph(
      _mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_castph_pd(low)), _mm256_castph_pd(high), 1));
}

template <bool OutHalf>
inline void storeOut(const ConvAddHalfArgs& a, size_t at, __mmask32 m, __m512h r) {
  storeHalfOrFloat(r, m, OutHalf ? a.oh + at : nullptr, OutHalf ? nullptr : a.of + at);
}

// P pixels from row r (x as float16 at xb, P rows of k): P independent accumulators per
// 32-column group, each input value broadcast from memory into its FMA. The forms are template
// arguments so that the per-pixel epilogue has no branches (and no clamp of the CONV_2D's
// result without a fused activation: min / max share the FMA ports).
template <int P, bool ConvClamp, bool ResHalf, bool OutHalf>
inline void pixels(const ConvAddHalfArgs& a, const _Float16* xb, size_t r, __m512h convLo,
                   __m512h convHi, __m512h outLo, __m512h outHi) {
  const uint32_t n = a.n, k = a.k, nPad = (n + kConvAddLanes - 1) / kConvAddLanes * kConvAddLanes;
  for (uint32_t c = 0; c < n; c += kConvAddLanes) {
    const __mmask32 m = laneMask32(n - c);
    const __m512h b = _mm512_castsi512_ph(_mm512_loadu_si512(a.bias + c));
    __m512h acc[P];
#pragma GCC unroll 8
    for (int p = 0; p < P; ++p) acc[p] = b;
    for (uint32_t j = 0; j < k; ++j) {
      const __m512h w =
          _mm512_castsi512_ph(_mm512_loadu_si512(a.w + static_cast<size_t>(j) * nPad + c));
#pragma GCC unroll 8
      for (int p = 0; p < P; ++p)
        acc[p] = _mm512_fmadd_ph(_mm512_set1_ph(xb[p * k + j]), w, acc[p]);
    }
#pragma GCC unroll 8
    for (int p = 0; p < P; ++p) {
      const size_t at = (r + p) * n + c;
      // max(lo, s) and min(hi, .) return s where s is NaN, as the unpaired kernels' clamps.
      const __m512h conv =
          ConvClamp ? _mm512_min_ph(convHi, _mm512_max_ph(convLo, acc[p])) : acc[p];
      const __m512h sum = _mm512_add_ph(loadResidual<ResHalf>(a, at, m), conv);
      storeOut<OutHalf>(a, at, m, _mm512_min_ph(outHi, _mm512_max_ph(outLo, sum)));
    }
  }
}

template <bool ConvClamp, bool ResHalf, bool OutHalf>
void rows(const ConvAddHalfArgs& a, size_t rowBegin, size_t rowEnd) {
  constexpr int kBlock = 8;  // pixels at a time: 8 FMA chains hide the FMA latency
  const __m512h convLo = _mm512_set1_ph(static_cast<_Float16>(a.convMin));
  const __m512h convHi = _mm512_set1_ph(static_cast<_Float16>(a.convMax));
  const __m512h outLo = _mm512_set1_ph(static_cast<_Float16>(a.outMin));
  const __m512h outHi = _mm512_set1_ph(static_cast<_Float16>(a.outMax));
  const uint32_t k = a.k;
  alignas(64) _Float16 buf[kBlock * kConvAddMaxK];
  for (size_t r = rowBegin; r < rowEnd; r += kBlock) {
    const int P = rowEnd - r >= kBlock ? kBlock : static_cast<int>(rowEnd - r);
    const size_t count = static_cast<size_t>(P) * k;
    const _Float16* xb;
    if (a.xh != nullptr) {
      xb = reinterpret_cast<const _Float16*>(a.xh + r * k);
    } else {
      // The block's inputs rounded to float16 once (P * k contiguous floats).
      const float* src = a.xf + r * k;
      for (size_t i = 0; i < count; i += 16) {
        const __mmask16 m =
            count - i >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (count - i)) - 1);
        const __m256h h = _mm512_cvtxps_ph(_mm512_maskz_loadu_ps(m, src + i));
        _mm256_mask_storeu_epi16(buf + i, m, _mm256_castph_si256(h));
      }
      xb = buf;
    }
    if (P == kBlock) {
      pixels<kBlock, ConvClamp, ResHalf, OutHalf>(a, xb, r, convLo, convHi, outLo, outHi);
    } else {
      for (int p = 0; p < P; ++p)
        pixels<1, ConvClamp, ResHalf, OutHalf>(a, xb + p * k, r + p, convLo, convHi, outLo, outHi);
    }
  }
}

}  // namespace

void convAddHalfRows(const ConvAddHalfArgs& a, size_t rowBegin, size_t rowEnd) {
  // Without a fused activation the bounds are -FLT_MAX and FLT_MAX (activationRangeFloat),
  // infinite in float16: the clamp would change nothing.
  const bool convClamp = a.convMin > -3.0e38f || a.convMax < 3.0e38f;
  withFlags(
      [&](auto clamp, auto rh, auto oh) {
        rows<decltype(clamp)::value, decltype(rh)::value, decltype(oh)::value>(a, rowBegin,
                                                                               rowEnd);
      },
      convClamp, a.rh != nullptr, a.oh != nullptr);
}

}  // namespace isa_avx512fp16
}  // namespace nn
