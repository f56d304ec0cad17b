// The inverted bottleneck's reduction pass (block_half_isa.h). Compiled with the AVX-512 and
// AVX512-FP16 flags; include rules as in conv_isa.h.
#include <cstddef>
#include <cstdint>

#include "cpu/kernels/isa/intrinsics.h"
#include "cpu/kernels/isa/lane_mask.h"

#include "cpu/kernels/isa/block_half_isa.h"

namespace nn {
namespace isa_avx512fp16 {
namespace {

// min(hi, max(lo, s)): both return s where s is NaN (the second operand).
inline __m512 clamp(__m512 s, __m512 lo, __m512 hi) {
  return _mm512_min_ps(hi, _mm512_max_ps(lo, s));
}

inline __m512 roundHalf(__m512 s) {
  return _mm512_cvtph_ps(_mm512_cvtps_ph(s, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}

template <bool RES, bool RH, bool OH>
void rows(const BlockReduceHalfArgs& a, size_t rowBegin, size_t rowEnd) {
  const __m512 cLo = _mm512_set1_ps(a.convMin), cHi = _mm512_set1_ps(a.convMax);
  const __m512 aLo = _mm512_set1_ps(a.addMin), aHi = _mm512_set1_ps(a.addMax);
  const size_t n = a.n;
  for (size_t r = rowBegin; r < rowEnd; ++r) {
    const size_t o = r * n;
    for (size_t j = 0; j < n; j += 16) {
      const __mmask16 m = laneMask16(n - j);
      __m512 s = a.bias != nullptr ? _mm512_maskz_loadu_ps(m, a.bias + j) : _mm512_setzero_ps();
      for (uint32_t p = 0; p < a.parts; ++p)
        s = _mm512_add_ps(s, _mm512_maskz_loadu_ps(m, a.partial[p] + o + j));
      s = clamp(s, cLo, cHi);
      if (a.roundConv) s = roundHalf(s);
      if (RES) {
        const __m512 res = RH ? _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, a.rh + o + j))
                              : _mm512_maskz_loadu_ps(m, a.rf + o + j);
        s = clamp(_mm512_add_ps(s, res), aLo, aHi);
      }
      if (OH) {
        _mm256_mask_storeu_epi16(a.oh + o + j, m,
                                 _mm512_cvtps_ph(s, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
      } else {
        _mm512_mask_storeu_ps(a.of + o + j, m, s);
      }
    }
  }
}

}  // namespace

void reduceBlockHalf(const BlockReduceHalfArgs& a, size_t rowBegin, size_t rowEnd) {
  const bool res = a.rh != nullptr || a.rf != nullptr, rh = a.rh != nullptr, oh = a.oh != nullptr;
  if (!res) {
    if (oh) rows<false, false, true>(a, rowBegin, rowEnd);
    else rows<false, false, false>(a, rowBegin, rowEnd);
  } else if (rh) {
    if (oh) rows<true, true, true>(a, rowBegin, rowEnd);
    else rows<true, true, false>(a, rowBegin, rowEnd);
  } else {
    if (oh) rows<true, false, true>(a, rowBegin, rowEnd);
    else rows<true, false, false>(a, rowBegin, rowEnd);
  }
}

}  // namespace isa_avx512fp16
}  // namespace nn
