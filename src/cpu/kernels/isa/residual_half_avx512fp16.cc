// The residual ADD on a 1x1 convolution's output rows (residual_half_isa.h). Compiled with the
// AVX-512 and AVX512-FP16 flags; include rules as in conv_isa.h.
#include <cstddef>
#include <cstdint>

#include "cpu/kernels/isa/intrinsics.h"
#include "cpu/kernels/isa/lane_mask.h"

#include "cpu/kernels/isa/residual_half_isa.h"
#include "cpu/kernels/isa/static_flags.h"

namespace nn {
namespace isa_avx512fp16 {
namespace {

template <bool H>
inline __m512 load16(const uint16_t* h, const float* f, size_t i, __mmask16 m) {
  if (H) return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, h + i));
  return _mm512_maskz_loadu_ps(m, f + i);
}

template <bool OH>
inline void store16(uint16_t* h, float* f, size_t i, __mmask16 m, __m512 s) {
  if (OH) {
    const __m256i v = _mm512_cvtps_ph(s, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    if (m == __mmask16(0xFFFF))
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(h + i), v);
    else
      _mm256_mask_storeu_epi16(h + i, m, v);
  } else {
    _mm512_mask_storeu_ps(f + i, m, s);
  }
}

// clamp(s) = min(hi, max(lo, s)); max(lo, s) and min(hi, .) return s where s is NaN (the second
// operand), as addHalf. With hi = +inf (no activation, RELU) the min returns s whatever s is, so
// HI false leaves it out (the float32 forms are bound by the conversions and these operations
// on the two vector ports).
template <bool HI>
inline __m512 clampSum(__m512 x, __m512 y, __m512 lo, __m512 hi) {
  const __m512 s = _mm512_max_ps(lo, _mm512_add_ps(x, y));
  return HI ? _mm512_min_ps(hi, s) : s;
}

// Elements [begin, end) of c, res and out at the same index (resC == n: contiguous rows).
template <bool CH, bool RH, bool OH, bool HI>
void flat(const ResidualAddHalfArgs& a, size_t begin, size_t end) {
  const __m512 lo = _mm512_set1_ps(a.outputMin), hi = _mm512_set1_ps(a.outputMax);
  for (size_t i = begin; i < end; i += 16) {
    const __mmask16 m = laneMask16(end - i);
    const __m512 x = load16<CH>(a.ch, a.cf, i, m);
    const __m512 y = load16<RH>(a.rh, a.rf, i, m);
    store16<OH>(a.oh, a.of, i, m, clampSum<HI>(x, y, lo, hi));
  }
}

// Row by row: the residual's lanes past resC load as +0 (masked loads zero them). The masks of
// a row's 16-lane pieces are the same for every row (computed once for up to kPieces pieces).
constexpr size_t kPieces = 16;
template <bool CH, bool RH, bool OH, bool HI>
void padded(const ResidualAddHalfArgs& a, size_t rowBegin, size_t rowEnd) {
  const __m512 lo = _mm512_set1_ps(a.outputMin), hi = _mm512_set1_ps(a.outputMax);
  const size_t n = a.n, rc = a.resC, pieces = (n + 15) / 16;
  __mmask16 m[kPieces], mr[kPieces];
  for (size_t p = 0; p < pieces && p < kPieces; ++p) {
    const size_t j = 16 * p;
    m[p] = laneMask16(n - j);
    mr[p] = j < rc ? static_cast<__mmask16>(laneMask16(rc - j) & m[p]) : __mmask16(0);
  }
  for (size_t r = rowBegin; r < rowEnd; ++r) {
    const size_t co = r * n, ro = r * rc;
    for (size_t p = 0, j = 0; j < n; ++p, j += 16) {
      const __mmask16 mp = p < kPieces ? m[p] : laneMask16(n - j);
      const __mmask16 mrp =
          p < kPieces ? mr[p]
                      : (j < rc ? static_cast<__mmask16>(laneMask16(rc - j) & mp) : __mmask16(0));
      const __m512 x = load16<CH>(a.ch, a.cf, co + j, mp);
      const __m512 y = load16<RH>(a.rh, a.rf, ro + j, mrp);
      store16<OH>(a.oh, a.of, co + j, mp, clampSum<HI>(x, y, lo, hi));
    }
  }
}

// All float16: the sum of two float16 values rounded to float16 directly is the float32 sum
// rounded once (float32 has more than 2 * 11 + 2 significant bits, so rounding it first cannot
// change the float16 result), and the clamps' bounds (0, +-1, 6, +-inf) are float16 values:
// the same bits in 32-lane float16 arithmetic, without conversions (which made the float32 form
// cost as much as the GEMM's epilogue).
inline __m512h sumHalf(__m512h x, __m512h y, __m512h lo, __m512h hi) {
  // max(lo, s) and min(hi, .) return s where s is NaN (the second operand), as above.
  return _mm512_min_ph(hi, _mm512_max_ph(lo, _mm512_add_ph(x, y)));
}
void flatHalf(const ResidualAddHalfArgs& a, size_t begin, size_t end) {
  const __m512h lo = _mm512_set1_ph(static_cast<_Float16>(a.outputMin));
  const __m512h hi = _mm512_set1_ph(static_cast<_Float16>(a.outputMax));
  size_t i = begin;
  for (; i + 32 <= end; i += 32) {
    const __m512h x = _mm512_castsi512_ph(_mm512_loadu_si512(a.ch + i));
    const __m512h y = _mm512_castsi512_ph(_mm512_loadu_si512(a.rh + i));
    _mm512_storeu_si512(a.oh + i, _mm512_castph_si512(sumHalf(x, y, lo, hi)));
  }
  if (i < end) {
    const __mmask32 m = laneMask32(end - i);
    const __m512h x = _mm512_castsi512_ph(_mm512_maskz_loadu_epi16(m, a.ch + i));
    const __m512h y = _mm512_castsi512_ph(_mm512_maskz_loadu_epi16(m, a.rh + i));
    _mm512_mask_storeu_epi16(a.oh + i, m, _mm512_castph_si512(sumHalf(x, y, lo, hi)));
  }
}
void paddedHalf(const ResidualAddHalfArgs& a, size_t rowBegin, size_t rowEnd) {
  const __m512h lo = _mm512_set1_ph(static_cast<_Float16>(a.outputMin));
  const __m512h hi = _mm512_set1_ph(static_cast<_Float16>(a.outputMax));
  const size_t n = a.n, rc = a.resC;
  for (size_t r = rowBegin; r < rowEnd; ++r) {
    const size_t co = r * n, ro = r * rc;
    for (size_t j = 0; j < n; j += 32) {
      const __mmask32 m = laneMask32(n - j);
      const __mmask32 mr = j < rc ? laneMask32(rc - j) & m : __mmask32(0);
      const __m512h x = _mm512_castsi512_ph(_mm512_maskz_loadu_epi16(m, a.ch + co + j));
      const __m512h y = _mm512_castsi512_ph(_mm512_maskz_loadu_epi16(mr, a.rh + ro + j));
      _mm512_mask_storeu_epi16(a.oh + co + j, m, _mm512_castph_si512(sumHalf(x, y, lo, hi)));
    }
  }
}

template <bool CH, bool RH, bool OH, bool HI>
void rowsClamped(const ResidualAddHalfArgs& a, size_t rowBegin, size_t rowEnd) {
  if (a.resC == a.n) {
    flat<CH, RH, OH, HI>(a, rowBegin * a.n, rowEnd * a.n);
  } else {
    padded<CH, RH, OH, HI>(a, rowBegin, rowEnd);
  }
}

template <bool CH, bool RH, bool OH>
void rows(const ResidualAddHalfArgs& a, size_t rowBegin, size_t rowEnd) {
  if (CH && RH && OH) {
    if (a.resC == a.n)
      flatHalf(a, rowBegin * a.n, rowEnd * a.n);
    else
      paddedHalf(a, rowBegin, rowEnd);
    return;
  }
  if (a.outputMax == __builtin_inff())
    rowsClamped<CH, RH, OH, false>(a, rowBegin, rowEnd);
  else
    rowsClamped<CH, RH, OH, true>(a, rowBegin, rowEnd);
}

}  // namespace

void addResidualRows(const ResidualAddHalfArgs& a, size_t rowBegin, size_t rowEnd) {
  withFlags(
      [&](auto ch, auto rh, auto oh) {
        rows<decltype(ch)::value, decltype(rh)::value, decltype(oh)::value>(a, rowBegin, rowEnd);
      },
      a.ch != nullptr, a.rh != nullptr, a.oh != nullptr);
}

}  // namespace isa_avx512fp16
}  // namespace nn
