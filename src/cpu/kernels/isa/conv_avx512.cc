// AVX-512 (F/BW/VL/DQ) builds of the convolution micro-kernels: the float GEMM tile, exact
// 16-lane requantization and the pairwise quant8 depthwise kernel. Compiled with the AVX-512
// flags (CMakeLists.txt) and only called when nn::isaLevel() is kAvx512; see conv_isa.h for the
// include rules that keep this file's code out of the baseline library.
#include <cstddef>
#include <cstdint>

#include "cpu/kernels/isa/intrinsics.h"

#include "cpu/kernels/isa/conv_isa.h"

namespace nn {
namespace isa_avx512 {
namespace {

// ---- float GEMM tile ----------------------------------------------------------------------

template <int MR>
void floatTile(const float* const* rows, const float* tile, uint32_t k, const float* biasTile,
               float* acc) {
  __m512 a0[MR], a1[MR];
  const __m512 b0 = _mm512_loadu_ps(biasTile), b1 = _mm512_loadu_ps(biasTile + 16);
  for (int r = 0; r < MR; ++r) {
    a0[r] = b0;
    a1[r] = b1;
  }
  for (uint32_t kk = 0; kk < k; ++kk, tile += kConvTileN) {
    const __m512 w0 = _mm512_loadu_ps(tile), w1 = _mm512_loadu_ps(tile + 16);
    for (int r = 0; r < MR; ++r) {
      const __m512 x = _mm512_set1_ps(rows[r][kk]);
      a0[r] = _mm512_fmadd_ps(x, w0, a0[r]);
      a1[r] = _mm512_fmadd_ps(x, w1, a1[r]);
    }
  }
  for (int r = 0; r < MR; ++r) {
    _mm512_storeu_ps(acc + r * kConvTileN, a0[r]);
    _mm512_storeu_ps(acc + r * kConvTileN + 16, a1[r]);
  }
}

// ---- requantization -----------------------------------------------------------------------

// conv::requantize on 16 lanes: the 64-bit products of even and odd lanes are formed
// separately (vpmuldq reads the low dword of each qword) and merged back.
inline __m512i requantize16(__m512i x, __m512i multiplier, __m512i shift) {
  const __m512i zero = _mm512_setzero_si512();
  const __m512i left = _mm512_max_epi32(shift, zero);
  const __m512i right = _mm512_max_epi32(_mm512_sub_epi32(zero, shift), zero);
  x = _mm512_sllv_epi32(x, left);
  const __m512i nudge = _mm512_set1_epi64(int64_t{1} << 30);
  __m512i even = _mm512_mul_epi32(x, multiplier);
  __m512i odd = _mm512_mul_epi32(_mm512_srli_epi64(x, 32), _mm512_srli_epi64(multiplier, 32));
  even = _mm512_srai_epi64(_mm512_add_epi64(even, nudge), 31);
  odd = _mm512_srai_epi64(_mm512_add_epi64(odd, nudge), 31);
  const __m512i high = _mm512_mask_blend_epi32(0xAAAA, even, _mm512_slli_epi64(odd, 32));
  const __m512i one = _mm512_set1_epi32(1);
  const __m512i mask = _mm512_sub_epi32(_mm512_sllv_epi32(one, right), one);
  const __m512i remainder = _mm512_and_si512(high, mask);
  const __m512i threshold =
      _mm512_add_epi32(_mm512_srai_epi32(mask, 1), _mm512_srli_epi32(high, 31));
  const __m512i result = _mm512_srav_epi32(high, right);
  return _mm512_mask_add_epi32(result, _mm512_cmpgt_epi32_mask(remainder, threshold), result,
                               one);
}

// out[c] = clamp(requantize(acc[c] + add[c] + rowOffset) + outZero), 16 lanes at a time.
template <typename TOut>
void requantizeStore(const int32_t* acc, const int32_t* add, int32_t rowOffset,
                     const int32_t* multiplier, const int32_t* shift, int32_t outZero,
                     int32_t lo, int32_t hi, uint32_t count, TOut* out) {
  const __m512i vRow = _mm512_set1_epi32(rowOffset), vZero = _mm512_set1_epi32(outZero);
  const __m512i vLo = _mm512_set1_epi32(lo), vHi = _mm512_set1_epi32(hi);
  for (uint32_t c = 0; c < count; c += 16) {
    const __mmask16 m = count - c >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (count - c)) - 1);
    __m512i x = _mm512_maskz_loadu_epi32(m, acc + c);
    if (add != nullptr) x = _mm512_add_epi32(x, _mm512_maskz_loadu_epi32(m, add + c));
    x = _mm512_add_epi32(x, vRow);
    __m512i v = requantize16(x, _mm512_maskz_loadu_epi32(m, multiplier + c),
                             _mm512_maskz_loadu_epi32(m, shift + c));
    v = _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(v, vZero), vLo), vHi);
    _mm_mask_storeu_epi8(out + c, m, _mm512_cvtepi32_epi8(v));
  }
}

// ---- quant8 depthwise, depth multiplier 1 ---------------------------------------------------

// Input row/column of filter tap k for output position o, or -1 when it falls in padding.
inline int32_t tapPos(uint32_t o, uint32_t k, int32_t stride, int32_t pad, int32_t dilation,
                      uint32_t size) {
  const int64_t pos = static_cast<int64_t>(o) * stride - pad + static_cast<int64_t>(k) * dilation;
  return pos >= 0 && pos < size ? static_cast<int32_t>(pos) : -1;
}

inline __m512i widen(__m256i v, bool isSigned) {
  return isSigned ? _mm512_cvtepi8_epi16(v) : _mm512_cvtepu8_epi16(v);
}

// Every tap (padding taps read a row of zero points, which contributes nothing) goes through
// vpmaddwd two at a time; sums are exact in int32, so the result equals the scalar kernel's.
template <typename T, bool kSigned>
void depthwiseQuantRows(const ConvDepthwiseQuantArgs& g, size_t rowBegin, size_t rowEnd,
                        int32_t* acc, T* zeroRow, const T** tapIn, const T** rowBase) {
  const uint32_t C = g.channels, outH = g.outH, outW = g.outW;
  const uint32_t taps = g.filterH * g.filterW, pairs = (taps + 1) / 2;
  const uint32_t blocks = (C + kConvDwBlock - 1) / kConvDwBlock;
  const int32_t zin = g.inputZeroPoint;
  const T* input = static_cast<const T*>(g.input);
  T* output = static_cast<T*>(g.output);
  for (uint32_t c = 0; c < C; ++c) zeroRow[c] = static_cast<T>(zin);
  const __m512i vzin = _mm512_set1_epi16(static_cast<int16_t>(zin));
  const __m512i idx0 = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
  const __m512i idx1 =
      _mm512_setr_epi32(8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
  const size_t pixelStride = g.inC;
  for (size_t row = rowBegin; row < rowEnd; ++row) {
    const uint32_t b = static_cast<uint32_t>(row / outH), oh = static_cast<uint32_t>(row % outH);
    for (uint32_t kh = 0; kh < g.filterH; ++kh) {
      const int32_t ih = tapPos(oh, kh, g.strideH, g.padTop, g.dilationH, g.inH);
      rowBase[kh] = ih < 0 ? nullptr
                           : input + (static_cast<size_t>(b) * g.inH + ih) * g.inW * pixelStride;
    }
    for (uint32_t ow = 0; ow < outW; ++ow) {
      uint32_t t = 0;
      const int64_t iw0 = static_cast<int64_t>(ow) * g.strideW - g.padLeft;
      for (uint32_t kh = 0; kh < g.filterH; ++kh) {
        for (uint32_t kw = 0; kw < g.filterW; ++kw, ++t) {
          const int64_t iw = iw0 + static_cast<int64_t>(kw) * g.dilationW;
          tapIn[t] = rowBase[kh] == nullptr || iw < 0 || iw >= g.inW
                         ? zeroRow
                         : rowBase[kh] + static_cast<size_t>(iw) * pixelStride;
        }
      }
      if (taps % 2) tapIn[taps] = zeroRow;  // its weights are zero
      for (uint32_t blk = 0; blk < blocks; ++blk) {
        const uint32_t c0 = blk * kConvDwBlock, rem = C - c0;
        const __mmask32 m = rem >= 32 ? __mmask32(0xFFFFFFFFu) : __mmask32((1u << rem) - 1);
        __m512i accLo = _mm512_setzero_si512(), accHi = _mm512_setzero_si512();
        const int16_t* w = g.interleaved + static_cast<size_t>(blk) * 64;
        for (uint32_t p = 0; p < pairs; ++p, w += static_cast<size_t>(blocks) * 64) {
          const __m256i r0 = _mm256_maskz_loadu_epi8(m, tapIn[2 * p] + c0);
          const __m256i r1 = _mm256_maskz_loadu_epi8(m, tapIn[2 * p + 1] + c0);
          const __m512i x0 = _mm512_sub_epi16(widen(r0, kSigned), vzin);
          const __m512i x1 = _mm512_sub_epi16(widen(r1, kSigned), vzin);
          accLo = _mm512_add_epi32(accLo, _mm512_madd_epi16(_mm512_unpacklo_epi16(x0, x1),
                                                            _mm512_loadu_si512(w)));
          accHi = _mm512_add_epi32(accHi, _mm512_madd_epi16(_mm512_unpackhi_epi16(x0, x1),
                                                            _mm512_loadu_si512(w + 32)));
        }
        const __mmask16 m0 = static_cast<__mmask16>(m), m1 = static_cast<__mmask16>(m >> 16);
        const __m512i out0 = _mm512_add_epi32(_mm512_permutex2var_epi32(accLo, idx0, accHi),
                                              _mm512_maskz_loadu_epi32(m0, g.bias + c0));
        _mm512_mask_storeu_epi32(acc + c0, m0, out0);
        if (m1 != 0) {
          const __m512i out1 = _mm512_add_epi32(_mm512_permutex2var_epi32(accLo, idx1, accHi),
                                                _mm512_maskz_loadu_epi32(m1, g.bias + c0 + 16));
          _mm512_mask_storeu_epi32(acc + c0 + 16, m1, out1);
        }
      }
      T* out = output + ((static_cast<size_t>(b) * outH + oh) * outW + ow) * C;
      requantizeStore<T>(acc, nullptr, 0, g.multiplier, g.shift, g.outputZeroPoint, g.actMin,
                         g.actMax, C, out);
    }
  }
}

}  // namespace

void convFloatMicroKernel(uint32_t mr, const float* const* rows, const float* tile, uint32_t k,
                          const float* biasTile, float* acc) {
  switch (mr) {
    case 1: floatTile<1>(rows, tile, k, biasTile, acc); break;
    case 2: floatTile<2>(rows, tile, k, biasTile, acc); break;
    case 3: floatTile<3>(rows, tile, k, biasTile, acc); break;
    case 4: floatTile<4>(rows, tile, k, biasTile, acc); break;
    case 5: floatTile<5>(rows, tile, k, biasTile, acc); break;
    default: floatTile<6>(rows, tile, k, biasTile, acc); break;
  }
}

void convRequantizeU8(const int32_t* acc, const int32_t* add, int32_t rowOffset,
                      const int32_t* multiplier, const int32_t* shift, int32_t outZero,
                      int32_t lo, int32_t hi, uint32_t count, uint8_t* out) {
  requantizeStore(acc, add, rowOffset, multiplier, shift, outZero, lo, hi, count, out);
}

void convRequantizeS8(const int32_t* acc, const int32_t* add, int32_t rowOffset,
                      const int32_t* multiplier, const int32_t* shift, int32_t outZero,
                      int32_t lo, int32_t hi, uint32_t count, int8_t* out) {
  requantizeStore(acc, add, rowOffset, multiplier, shift, outZero, lo, hi, count, out);
}

void convDepthwiseQuantRowsU8(const ConvDepthwiseQuantArgs& a, size_t rowBegin, size_t rowEnd,
                              int32_t* acc, uint8_t* zeroRow, const uint8_t** taps,
                              const uint8_t** rowBase) {
  depthwiseQuantRows<uint8_t, false>(a, rowBegin, rowEnd, acc, zeroRow, taps, rowBase);
}

void convDepthwiseQuantRowsS8(const ConvDepthwiseQuantArgs& a, size_t rowBegin, size_t rowEnd,
                              int32_t* acc, int8_t* zeroRow, const int8_t** taps,
                              const int8_t** rowBase) {
  depthwiseQuantRows<int8_t, true>(a, rowBegin, rowEnd, acc, zeroRow, taps, rowBase);
}

#include "cpu/kernels/isa/conv_depthwise_float.inc"
#include "cpu/kernels/isa/conv_transpose_float.inc"

}  // namespace isa_avx512
}  // namespace nn
