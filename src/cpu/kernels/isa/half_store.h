// The float16 kernels' store of 32 result lanes into an output that is either float16 or
// float32. For AVX512-FP16 translation units only; internal linkage (the ISA files' ODR rule,
// conv_isa.h).
#pragma once

#include <cstdint>

#include "cpu/kernels/isa/intrinsics.h"

namespace nn {
namespace {

// Lanes m of r: float16 bits to `out`, or, where `outF` is not null, widened to float32 at
// outF (the same element offset).
inline void storeHalfOrFloat(__m512h r, __mmask32 m, uint16_t* out, float* outF) {
  if (outF == nullptr) {
    _mm512_mask_storeu_epi16(out, m, _mm512_castph_si512(r));
    return;
  }
  const __m256h low = _mm512_castph512_ph256(r);
  const __m256h high = _mm256_castpd_ph(_mm512_extractf64x4_pd(_mm512_castph_pd(r), 1));
  _mm512_mask_storeu_ps(outF, static_cast<__mmask16>(m), _mm512_cvtxph_ps(low));
  _mm512_mask_storeu_ps(outF + 16, static_cast<__mmask16>(m >> 16), _mm512_cvtxph_ps(high));
}

}  // namespace
}  // namespace nn
