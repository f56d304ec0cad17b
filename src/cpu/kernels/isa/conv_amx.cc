// The int8 GEMM block with AMX-INT8 (tdpbusd / tdpbssd: 16x16 int32 tiles, each instruction
// summing 64 byte products per element). Compiled with the AVX-512 + AMX flags
// (CMakeLists.txt) and only called from conv_amx.cc once the processor and the kernel's
// XTILEDATA permission allow it (nn::amxInt8Usable()); see conv_isa.h for the include rules.
// Integer sums are exact, so the accumulators equal the VNNI and portable tiles'.
#include <cstddef>
#include <cstdint>

#pragma GCC diagnostic push
// GCC 12's AVX-512 headers trip -Wmaybe-uninitialized (see conv_avx512.cc).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include "cpu/kernels/isa/conv_isa.h"

namespace nn {
namespace isa_amx {
namespace {

// The 64-byte LDTILECFG operand (palette 1).
struct TileConfig {
  uint8_t palette;
  uint8_t startRow;
  uint8_t reserved[14];
  uint16_t colsb[16];
  uint8_t rows[16];
};

// Tiles 0..3: the 2x2 grid of 16x16 int32 accumulators (rows 0-15 / 16-31 x columns 0-15 /
// 16-31); 4, 5: the two 16-row slices of A (64 bytes of k each); 6, 7: the two 16-column halves
// of B (16 groups of 4 k each). All 16 rows x 64 bytes, so one configuration serves every call.
template <bool kSignedA>
void block(const uint8_t* a, size_t lda, const int8_t* b, uint32_t k64, int32_t* acc) {
  _tile_zero(0);
  _tile_zero(1);
  _tile_zero(2);
  _tile_zero(3);
  const uint8_t* a1 = a + 16 * lda;
  for (uint32_t kb = 0; kb < k64; kb += 64) {
    // B for k in [kb, kb + 64): 16 groups of 128 bytes (32 columns x 4 k) from kb / 4.
    const int8_t* bb = b + static_cast<size_t>(kb) * kConvTileN;
    _tile_loadd(4, a + kb, static_cast<long>(lda));
    _tile_loadd(6, bb, 4 * kConvTileN);
    _tile_loadd(7, bb + 64, 4 * kConvTileN);
    _tile_loadd(5, a1 + kb, static_cast<long>(lda));
    if (kSignedA) {
      _tile_dpbssd(0, 4, 6);
      _tile_dpbssd(1, 4, 7);
      _tile_dpbssd(2, 5, 6);
      _tile_dpbssd(3, 5, 7);
    } else {
      _tile_dpbusd(0, 4, 6);
      _tile_dpbusd(1, 4, 7);
      _tile_dpbusd(2, 5, 6);
      _tile_dpbusd(3, 5, 7);
    }
  }
  constexpr long ldc = kConvTileN * sizeof(int32_t);
  _tile_stored(0, acc, ldc);
  _tile_stored(1, acc + 16, ldc);
  _tile_stored(2, acc + 16 * kConvTileN, ldc);
  _tile_stored(3, acc + 16 * kConvTileN + 16, ldc);
}

// Sum of `k` bytes read as uint8 (signedA: as int8).
int32_t rowSum(const uint8_t* p, uint32_t k, bool signedA) {
  const __m512i flip = _mm512_set1_epi8(static_cast<char>(0x80));
  __m512i s = _mm512_setzero_si512();
  uint32_t i = 0;
  for (; i < k; i += 64) {
    const uint32_t left = k - i;
    const __mmask64 mask = left >= 64 ? ~__mmask64{0} : ((__mmask64{1} << left) - 1);
    __m512i v = _mm512_maskz_loadu_epi8(mask, p + i);
    // int8 read as uint8 + 128 (bytes past k stay 0); the 128 * k is taken off below.
    if (signedA) v = _mm512_maskz_mov_epi8(mask, _mm512_xor_si512(v, flip));
    s = _mm512_add_epi64(s, _mm512_sad_epu8(v, _mm512_setzero_si512()));
  }
  const int64_t total = _mm512_reduce_add_epi64(s);
  return static_cast<int32_t>(signedA ? total - 128 * static_cast<int64_t>(k) : total);
}

// conv::requantize on 16 lanes for fixed columns: the per-column terms are hoisted out of the
// row loop (see conv_avx512.cc's requantize16, of which this is the same arithmetic).
struct Columns16 {
  __m512i offset, multiplier, multiplierOdd, left, right, mask, halfMask;
  __mmask16 lanes;
};

inline Columns16 columns16(const int32_t* offset, const int32_t* multiplier, const int32_t* shift,
                           uint32_t count) {
  Columns16 c;
  c.lanes = count >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << count) - 1);
  const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi32(1);
  const __m512i sh = _mm512_maskz_loadu_epi32(c.lanes, shift);
  c.offset = _mm512_maskz_loadu_epi32(c.lanes, offset);
  c.multiplier = _mm512_maskz_loadu_epi32(c.lanes, multiplier);
  c.multiplierOdd = _mm512_srli_epi64(c.multiplier, 32);
  c.left = _mm512_max_epi32(sh, zero);
  c.right = _mm512_max_epi32(_mm512_sub_epi32(zero, sh), zero);
  c.mask = _mm512_sub_epi32(_mm512_sllv_epi32(one, c.right), one);
  c.halfMask = _mm512_srai_epi32(c.mask, 1);
  return c;
}

template <typename TOut>
inline void requantizeRow16(const Columns16& c, const int32_t* acc, __m512i rowOffset,
                            __m512i outZero, __m512i lo, __m512i hi, TOut* out) {
  const __m512i one = _mm512_set1_epi32(1);
  const __m512i nudge = _mm512_set1_epi64(int64_t{1} << 30);
  __m512i x = _mm512_add_epi32(_mm512_add_epi32(_mm512_loadu_si512(acc), c.offset), rowOffset);
  x = _mm512_sllv_epi32(x, c.left);
  __m512i even = _mm512_mul_epi32(x, c.multiplier);
  __m512i odd = _mm512_mul_epi32(_mm512_srli_epi64(x, 32), c.multiplierOdd);
  even = _mm512_srai_epi64(_mm512_add_epi64(even, nudge), 31);
  odd = _mm512_srai_epi64(_mm512_add_epi64(odd, nudge), 31);
  const __m512i high = _mm512_mask_blend_epi32(0xAAAA, even, _mm512_slli_epi64(odd, 32));
  const __m512i remainder = _mm512_and_si512(high, c.mask);
  const __m512i threshold = _mm512_add_epi32(c.halfMask, _mm512_srli_epi32(high, 31));
  __m512i v = _mm512_srav_epi32(high, c.right);
  v = _mm512_mask_add_epi32(v, _mm512_cmpgt_epi32_mask(remainder, threshold), v, one);
  v = _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(v, outZero), lo), hi);
  _mm_mask_storeu_epi8(out, c.lanes, _mm512_cvtepi32_epi8(v));
}

template <typename TOut>
void requantizeBlock(const int32_t* acc, uint32_t rows, uint32_t cols,
                     const int32_t* columnOffset, const int32_t* rowOffset,
                     const int32_t* multiplier, const int32_t* shift, int32_t outZero,
                     int32_t lo, int32_t hi, TOut* out, size_t ldo) {
  const __m512i vZero = _mm512_set1_epi32(outZero);
  const __m512i vLo = _mm512_set1_epi32(lo), vHi = _mm512_set1_epi32(hi);
  for (uint32_t c0 = 0; c0 < cols; c0 += 16) {
    const Columns16 c = columns16(columnOffset + c0, multiplier + c0, shift + c0, cols - c0);
    for (uint32_t r = 0; r < rows; ++r)
      requantizeRow16(c, acc + r * kConvTileN + c0, _mm512_set1_epi32(rowOffset[r]), vZero, vLo,
                      vHi, out + r * ldo + c0);
  }
}

}  // namespace

void amxRequantizeBlockU8(const int32_t* acc, uint32_t rows, uint32_t cols,
                          const int32_t* columnOffset, const int32_t* rowOffset,
                          const int32_t* multiplier, const int32_t* shift, int32_t outZero,
                          int32_t lo, int32_t hi, uint8_t* out, size_t ldo) {
  requantizeBlock(acc, rows, cols, columnOffset, rowOffset, multiplier, shift, outZero, lo, hi,
                  out, ldo);
}

void amxRequantizeBlockS8(const int32_t* acc, uint32_t rows, uint32_t cols,
                          const int32_t* columnOffset, const int32_t* rowOffset,
                          const int32_t* multiplier, const int32_t* shift, int32_t outZero,
                          int32_t lo, int32_t hi, int8_t* out, size_t ldo) {
  requantizeBlock(acc, rows, cols, columnOffset, rowOffset, multiplier, shift, outZero, lo, hi,
                  out, ldo);
}

void amxConfigure() {
  alignas(64) TileConfig cfg = {};
  cfg.palette = 1;
  for (int t = 0; t < 8; ++t) {
    cfg.colsb[t] = 64;
    cfg.rows[t] = 16;
  }
  // Not _tile_loadconfig: GCC 12's declares an 8-byte operand ("m" of a pointer), so the
  // compiler dropped the stores of colsb/rows as dead and LDTILECFG loaded palette 1 with no
  // rows configured, and the first tile instruction raised #UD (SIGILL) on real AMX.
  asm volatile("ldtilecfg %0" ::"m"(cfg));
}

void amxRelease() { _tile_release(); }

void amxQuantBlock(bool signedA, const uint8_t* a, size_t lda, const int8_t* b, uint32_t k64,
                   int32_t* acc) {
  if (signedA)
    block<true>(a, lda, b, k64, acc);
  else
    block<false>(a, lda, b, k64, acc);
}

void amxRowSums(bool signedA, const uint8_t* a, size_t lda, uint32_t rows, uint32_t k,
                int32_t* sums) {
  for (uint32_t r = 0; r < rows; ++r) sums[r] = rowSum(a + r * lda, k, signedA);
}

}  // namespace isa_amx
}  // namespace nn
