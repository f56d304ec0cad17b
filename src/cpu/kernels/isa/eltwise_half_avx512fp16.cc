// ADD and MAX_POOL_2D on the float16 temporaries of relaxed models (eltwise_half_isa.h).
// Compiled with the AVX-512 and AVX512-FP16 flags; include rules as in conv_isa.h.
#include <cstddef>
#include <cstdint>

#include "cpu/kernels/isa/intrinsics.h"
#include "cpu/kernels/isa/lane_mask.h"

#include "cpu/kernels/isa/eltwise_half_isa.h"
#include "cpu/kernels/isa/static_flags.h"

namespace nn {
namespace isa_avx512fp16 {
namespace {

// 16 lanes of one input as float32.
inline __m512 load16(const uint16_t* h, const float* f, size_t i, __mmask16 m) {
  if (h != nullptr) return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, h + i));
  return _mm512_maskz_loadu_ps(m, f + i);
}

// Both inputs of one form, the output of one form: the loop below has no per-element branch.
template <bool AH, bool BH, bool OH>
void addLoop(const AddHalfArgs& a, size_t begin, size_t end) {
  const __m512 lo = _mm512_set1_ps(a.outputMin), hi = _mm512_set1_ps(a.outputMax);
  for (size_t i = begin; i < end; i += 16) {
    const __mmask16 m = laneMask16(end - i);
    const __m512 x = AH ? _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, a.ah + i))
                        : _mm512_maskz_loadu_ps(m, a.af + i);
    const __m512 y = BH ? _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, a.bh + i))
                        : _mm512_maskz_loadu_ps(m, a.bf + i);
    // max(lo, s) and min(hi, .) return s where s is NaN (the second operand).
    const __m512 s = _mm512_min_ps(hi, _mm512_max_ps(lo, _mm512_add_ps(x, y)));
    if (OH) {
      _mm256_mask_storeu_epi16(a.oh + i, m,
                               _mm512_cvtps_ph(s, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    } else {
      _mm512_mask_storeu_ps(a.of + i, m, s);
    }
  }
}

}  // namespace

void addHalf(const AddHalfArgs& a, size_t begin, size_t end) {
  withFlags(
      [&](auto ah, auto bh, auto oh) {
        addLoop<decltype(ah)::value, decltype(bh)::value, decltype(oh)::value>(a, begin, end);
      },
      a.ah != nullptr, a.bh != nullptr, a.oh != nullptr);
}

void maxPoolHalfRows(const MaxPoolHalfArgs& a, uint32_t rowBegin, uint32_t rowEnd) {
  const uint32_t C = a.channels;
  const __m512h lo = _mm512_set1_ph(static_cast<_Float16>(a.outputMin));
  const __m512h hi = _mm512_set1_ph(static_cast<_Float16>(a.outputMax));
  const __m512h lowest = _mm512_set1_ph(static_cast<_Float16>(-__builtin_inff16()));
  for (uint32_t row = rowBegin; row < rowEnd; ++row) {
    const uint32_t b = row / a.outH, oh = row % a.outH;
    const int32_t ih0 = static_cast<int32_t>(oh) * a.strideH - a.padTop;
    const int32_t khBegin = ih0 < 0 ? -ih0 : 0;
    const int32_t khEnd = static_cast<int32_t>(a.inH) - ih0 < static_cast<int32_t>(a.filterH)
                              ? static_cast<int32_t>(a.inH) - ih0
                              : static_cast<int32_t>(a.filterH);
    const uint16_t* image = a.in + static_cast<size_t>(b) * a.inH * a.inW * C;
    uint16_t* outRow = a.out + static_cast<size_t>(row) * a.outW * C;
    // 2x2 windows with both rows inside (the residual blocks' stride-2 shortcuts): the taps
    // unrolled, in the loop's order (the same bits), where the window is inside the row.
    const bool twoByTwo = a.filterH == 2 && a.filterW == 2 && khBegin == 0 && khEnd == 2;
    const uint16_t* row0 = image + static_cast<size_t>(ih0 > 0 ? ih0 : 0) * a.inW * C;
    for (uint32_t ow = 0; ow < a.outW; ++ow) {
      const int32_t iw0 = static_cast<int32_t>(ow) * a.strideW - a.padLeft;
      if (twoByTwo && iw0 >= 0 && iw0 + 2 <= static_cast<int32_t>(a.inW)) {
        const uint16_t* p0 = row0 + static_cast<size_t>(iw0) * C;
        const uint16_t* p1 = p0 + static_cast<size_t>(a.inW) * C;
        uint16_t* out = outRow + static_cast<size_t>(ow) * C;
        for (uint32_t c = 0; c < C; c += 32) {
          const __mmask32 m = laneMask32(C - c);
          __m512h acc = lowest;
          acc = _mm512_max_ph(_mm512_castsi512_ph(_mm512_maskz_loadu_epi16(m, p0 + c)), acc);
          acc = _mm512_max_ph(_mm512_castsi512_ph(_mm512_maskz_loadu_epi16(m, p0 + C + c)), acc);
          acc = _mm512_max_ph(_mm512_castsi512_ph(_mm512_maskz_loadu_epi16(m, p1 + c)), acc);
          acc = _mm512_max_ph(_mm512_castsi512_ph(_mm512_maskz_loadu_epi16(m, p1 + C + c)), acc);
          const __m512h r = _mm512_min_ph(hi, _mm512_max_ph(lo, acc));
          _mm512_mask_storeu_epi16(out + c, m, _mm512_castph_si512(r));
        }
        continue;
      }
      const int32_t kwBegin = iw0 < 0 ? -iw0 : 0;
      const int32_t kwEnd = static_cast<int32_t>(a.inW) - iw0 < static_cast<int32_t>(a.filterW)
                                ? static_cast<int32_t>(a.inW) - iw0
                                : static_cast<int32_t>(a.filterW);
      uint16_t* out = outRow + static_cast<size_t>(ow) * C;
      // A window wholly in the padding gives the clamped zero, as in the float32 kernel.
      const bool empty = khBegin >= khEnd || kwBegin >= kwEnd;
      for (uint32_t c = 0; c < C; c += 32) {
        const __mmask32 m = laneMask32(C - c);
        __m512h acc = empty ? _mm512_setzero_ph() : lowest;
        for (int32_t kh = khBegin; kh < khEnd; ++kh) {
          const uint16_t* p = image + (static_cast<size_t>(ih0 + kh) * a.inW + (iw0 + kwBegin)) * C + c;
          for (int32_t kw = kwBegin; kw < kwEnd; ++kw, p += C) {
            const __m512h x = _mm512_castsi512_ph(_mm512_maskz_loadu_epi16(m, p));
            // max(x, acc) returns acc where x is NaN: NaN taps are skipped, as std::max(acc, x)
            // in the float32 kernel does.
            acc = _mm512_max_ph(x, acc);
          }
        }
        const __m512h r = _mm512_min_ph(hi, _mm512_max_ph(lo, acc));
        _mm512_mask_storeu_epi16(out + c, m, _mm512_castph_si512(r));
      }
    }
  }
}

void spatialMeanHalf(const SpatialMeanHalfArgs& a) {
  const uint32_t c = a.channels;
  const __m512 count = _mm512_set1_ps(a.count);
  for (uint32_t b = 0; b < a.batches; ++b) {
    const uint16_t* src = a.in + static_cast<size_t>(b) * a.pixels * c;
    uint16_t* dst = a.out != nullptr ? a.out + static_cast<size_t>(b) * c : nullptr;
    // 64 channels (four float32 sums) per pass over the pixels.
    for (uint32_t c0 = 0; c0 < c; c0 += 64) {
      __mmask16 m[4];
      __m512 s[4];
      for (int j = 0; j < 4; ++j) {
        const uint32_t first = c0 + 16 * j;
        m[j] = laneMask16(first < c ? c - first : 0);
        s[j] = _mm512_setzero_ps();
      }
      for (size_t p = 0; p < a.pixels; ++p) {
        const uint16_t* row = src + p * c + c0;
#pragma GCC unroll 4
        for (int j = 0; j < 4; ++j)
          s[j] = _mm512_add_ps(s[j], _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m[j], row + 16 * j)));
      }
#pragma GCC unroll 4
      for (int j = 0; j < 4; ++j) {
        const __m512 q = _mm512_div_ps(s[j], count);
        if (a.outF != nullptr) {
          _mm512_mask_storeu_ps(a.outF + static_cast<size_t>(b) * c + c0 + 16 * j, m[j], q);
          continue;
        }
        _mm256_mask_storeu_epi16(dst + c0 + 16 * j, m[j],
                                 _mm512_cvtps_ph(q, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
      }
    }
  }
}

}  // namespace isa_avx512fp16
}  // namespace nn
