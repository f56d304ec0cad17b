// The narrow-channel float16 depthwise convolution (depthwise_half_narrow_isa.h). Compiled with
// the AVX-512 and AVX512-FP16 flags; include rules as in conv_isa.h.
#include <cstddef>
#include <cstdint>

#include "cpu/kernels/isa/depthwise_half_narrow_isa.h"
#include "cpu/kernels/isa/half_store.h"
#include "cpu/kernels/isa/intrinsics.h"

namespace nn {
namespace isa_avx512fp16 {
namespace {

// Lanes [lo, hi) set.
inline __mmask32 lanes(uint32_t lo, uint32_t hi) {
  if (hi <= lo) return 0;
  const uint32_t upTo = hi >= 32 ? 0xFFFFFFFFu : (1u << hi) - 1;
  return static_cast<__mmask32>(upTo & ~((1u << lo) - 1));
}

// 32 float16 lanes at `base` + `offset` elements (offset may be negative: the lanes outside
// the input are masked off and never touched; the address is formed as an integer).
inline __m512h load(const uint16_t* base, int64_t offset, __mmask32 m) {
  const uintptr_t at = reinterpret_cast<uintptr_t>(base) + static_cast<uintptr_t>(offset * 2);
  return _mm512_castsi512_ph(_mm512_maskz_loadu_epi16(m, reinterpret_cast<const void*>(at)));
}

// What every block of one call shares.
struct Ctx {
  const DepthwiseHalfArgs* a;
  uint32_t C, P;
  __mmask32 full;  // the P * C lanes of a group
  const __m512h* w;
  __m512h bias, lo, hi;
};

// Clamps and stores one group's result: np pixels at `out` (output element offset `at`).
inline void store(const Ctx& x, __m512h acc, size_t at, uint32_t np) {
  const DepthwiseHalfArgs& a = *x.a;
  // max(lo, s) and min(hi, .) return s where s is NaN (as depthwiseHalfRows).
  const __m512h r = _mm512_min_ph(x.hi, _mm512_max_ph(x.lo, acc));
  const __mmask32 m = lanes(0, np * x.C);
  storeHalfOrFloat(r, m, a.outF != nullptr ? nullptr : a.out + at,
                   a.outF != nullptr ? a.outF + at : nullptr);
}

// G groups of P pixels whose taps all lie inside the input row (`first`: the input column of
// the first pixel's first tap): whole vectors, G independent accumulators (the FMA latency).
template <int G>
inline void block(const Ctx& x, const uint16_t* image, int32_t ih0, int32_t first, size_t at) {
  const DepthwiseHalfArgs& a = *x.a;
  const uint32_t C = x.C, step = x.P * C;
  __m512h acc[G];
#pragma GCC unroll 8
  for (int g = 0; g < G; ++g) acc[g] = x.bias;
  for (uint32_t kh = 0; kh < a.filterH; ++kh) {
    const int32_t ih = ih0 + static_cast<int32_t>(kh);
    if (ih < 0 || ih >= static_cast<int32_t>(a.inH)) continue;
    const uint16_t* p = image + (static_cast<size_t>(ih) * a.inW + first) * C;
    const __m512h* wk = x.w + kh * a.filterW;
    for (uint32_t kw = 0; kw < a.filterW; ++kw, p += C) {
#pragma GCC unroll 8
      for (int g = 0; g < G; ++g)
        acc[g] = _mm512_fmadd_ph(
            _mm512_castsi512_ph(_mm512_maskz_loadu_epi16(x.full, p + g * step)), wk[kw], acc[g]);
    }
  }
#pragma GCC unroll 8
  for (int g = 0; g < G; ++g) store(x, acc[g], at + g * step, x.P);
}

// One group of np pixels at an edge: each tap's lanes masked to the pixels whose input column
// is inside the row.
inline void edgeGroup(const Ctx& x, const uint16_t* image, int32_t ih0, int32_t first, uint32_t np,
                      size_t at) {
  const DepthwiseHalfArgs& a = *x.a;
  const uint32_t C = x.C;
  const int32_t inW = static_cast<int32_t>(a.inW);
  __m512h acc = x.bias;
  for (uint32_t kh = 0; kh < a.filterH; ++kh) {
    const int32_t ih = ih0 + static_cast<int32_t>(kh);
    if (ih < 0 || ih >= static_cast<int32_t>(a.inH)) continue;
    const uint16_t* inRow = image + static_cast<size_t>(ih) * a.inW * C;
    for (uint32_t kw = 0; kw < a.filterW; ++kw) {
      // Pixel q of the group reads input column iw0 + q.
      const int32_t iw0 = first + static_cast<int32_t>(kw);
      const int32_t qLo = iw0 < 0 ? -iw0 : 0;
      const int32_t qHi =
          inW - iw0 < static_cast<int32_t>(np) ? inW - iw0 : static_cast<int32_t>(np);
      if (qHi <= qLo) continue;
      const __mmask32 m = lanes(static_cast<uint32_t>(qLo) * C, static_cast<uint32_t>(qHi) * C);
      acc = _mm512_fmadd_ph(load(inRow, static_cast<int64_t>(iw0) * C, m), x.w[kh * a.filterW + kw],
                            acc);
    }
  }
  store(x, acc, at, np);
}

}  // namespace

void depthwiseHalfNarrowRows(const DepthwiseHalfArgs& a, uint32_t rowBegin, uint32_t rowEnd) {
  const uint32_t C = a.channels, P = 32 / C;  // pixels per vector
  const uint32_t stride = (C + kHalfDwLanes - 1) / kHalfDwLanes * kHalfDwLanes;
  const uint32_t taps = a.filterH * a.filterW;
  // Lane l holds channel l % C of pixel l / C: the filter and bias repeated P times.
  alignas(64) uint16_t idx[32];
  for (uint32_t l = 0; l < 32; ++l) idx[l] = static_cast<uint16_t>(l < P * C ? l % C : 0);
  const __m512i spread = _mm512_load_si512(idx);
  __m512h w[kHalfDwNarrowMaxTaps];
  for (uint32_t t = 0; t < taps && t < kHalfDwNarrowMaxTaps; ++t)
    w[t] = _mm512_castsi512_ph(_mm512_permutexvar_epi16(
        spread, _mm512_loadu_si512(a.filter + static_cast<size_t>(t) * stride)));
  const __m512h bias =
      _mm512_castsi512_ph(_mm512_permutexvar_epi16(spread, _mm512_loadu_si512(a.bias)));
  Ctx x;
  x.a = &a;
  x.C = C;
  x.P = P;
  x.full = lanes(0, P * C);
  x.w = w;
  x.bias = bias;
  x.lo = _mm512_set1_ph(static_cast<_Float16>(a.outputMin));
  x.hi = _mm512_set1_ph(static_cast<_Float16>(a.outputMax));
  const int32_t inW = static_cast<int32_t>(a.inW);
  // Whether G groups from output column x0 lie inside the output row and read only inside
  // the input row.
  auto inside = [&](uint32_t x0, uint32_t G) {
    const int32_t first = static_cast<int32_t>(x0) - a.padLeft;
    return x0 + G * P <= a.outW && first >= 0 &&
           first + static_cast<int32_t>(G * P + a.filterW) - 1 <= inW;
  };
  for (uint32_t row = rowBegin; row < rowEnd; ++row) {
    const uint32_t b = row / a.outH, oh = row % a.outH;
    const uint16_t* image = a.in + static_cast<size_t>(b) * a.inH * a.inW * C;
    const size_t outRow = static_cast<size_t>(row) * a.outW * C;
    const int32_t ih0 = static_cast<int32_t>(oh) - a.padTop;
    for (uint32_t x0 = 0; x0 < a.outW;) {
      const int32_t first = static_cast<int32_t>(x0) - a.padLeft;
      const size_t at = outRow + static_cast<size_t>(x0) * C;
      if (inside(x0, 8)) {
        block<8>(x, image, ih0, first, at);
        x0 += 8 * P;
      } else if (inside(x0, 4)) {
        block<4>(x, image, ih0, first, at);
        x0 += 4 * P;
      } else if (inside(x0, 2)) {
        block<2>(x, image, ih0, first, at);
        x0 += 2 * P;
      } else {
        const uint32_t np = a.outW - x0 < P ? a.outW - x0 : P;
        edgeGroup(x, image, ih0, first, np, at);
        x0 += np;
      }
    }
  }
}

}  // namespace isa_avx512fp16
}  // namespace nn
