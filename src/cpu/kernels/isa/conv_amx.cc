// The int8 GEMM block with AMX-INT8 (tdpbusd / tdpbssd: 16x16 int32 tiles, each instruction
// summing 64 byte products per element). Compiled with the AVX-512 + AMX flags
// (CMakeLists.txt) and only called from conv_amx.cc once the processor and the kernel's
// XTILEDATA permission allow it (nn::amxInt8Usable()); see conv_isa.h for the include rules.
// Integer sums are exact, so the accumulators equal the VNNI and portable tiles'.
#include <cstddef>
#include <cstdint>

#include "cpu/kernels/isa/intrinsics.h"

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

// GCC 12's tile load/store macros are asm statements without memory operands: the compiler
// does not know they read A/B or write acc. A compiler barrier before the loads and after the
// stores keeps the surrounding C++ memory accesses in order.
inline void compilerBarrier() { asm volatile("" ::: "memory"); }

// Tiles 0..3: the 2x2 grid of 16x16 int32 accumulators (rows 0-15 / 16-31 x columns 0-15 /
// 16-31); 4, 5: the two 16-row slices of A (64 bytes of k each); 6, 7: the two 16-column halves
// of B (16 groups of 4 k each). All 16 rows x 64 bytes, so one configuration serves every call.
// The sums stay in tiles 0..3 for amxStore: the caller requantizes the previous block between
// the two, while the tile unit works through these products.
// (Tile numbers are immediates.)
#define NN_AMX_DOT(C, A, B)                     \
  do {                                           \
    if (kSignedA) _tile_dpbssd(C, A, B);         \
    else _tile_dpbusd(C, A, B);                  \
  } while (0)

template <bool kSignedA, bool kTwoRowTiles, bool kTwoColTiles>
void compute(const uint8_t* a, size_t lda, size_t aStep, const int8_t* b, uint32_t k64) {
  compilerBarrier();
  // The first k block's top row tiles (0, 1) before the bottom ones (2, 3) are zeroed: the
  // bottom tiles may still be draining to memory (amxStore stores 0, 1 first), and the tile
  // unit can start on the top half meanwhile.
  const uint8_t* a1 = a + 16 * lda;
  _tile_zero(0);
  if (kTwoColTiles) _tile_zero(1);
  _tile_loadd(4, a, static_cast<long>(lda));
  _tile_loadd(6, b, 4 * kConvTileN);
  if (kTwoColTiles) _tile_loadd(7, b + 64, 4 * kConvTileN);
  NN_AMX_DOT(0, 4, 6);
  if (kTwoColTiles) NN_AMX_DOT(1, 4, 7);
  if (kTwoRowTiles) {
    _tile_zero(2);
    if (kTwoColTiles) _tile_zero(3);
    _tile_loadd(5, a1, static_cast<long>(lda));
    NN_AMX_DOT(2, 5, 6);
    if (kTwoColTiles) NN_AMX_DOT(3, 5, 7);
  }
  a += aStep;
  a1 += aStep;
  for (uint32_t kb = 64; kb < k64; kb += 64, a += aStep, a1 += aStep) {
    // B for k in [kb, kb + 64): 16 groups of 128 bytes (32 columns x 4 k) from kb / 4.
    const int8_t* bb = b + static_cast<size_t>(kb) * kConvTileN;
    _tile_loadd(4, a, static_cast<long>(lda));
    _tile_loadd(6, bb, 4 * kConvTileN);
    if (kTwoColTiles) _tile_loadd(7, bb + 64, 4 * kConvTileN);
    if (kTwoRowTiles) _tile_loadd(5, a1, static_cast<long>(lda));
    NN_AMX_DOT(0, 4, 6);
    if (kTwoColTiles) NN_AMX_DOT(1, 4, 7);
    if (kTwoRowTiles) {
      NN_AMX_DOT(2, 5, 6);
      if (kTwoColTiles) NN_AMX_DOT(3, 5, 7);
    }
  }
}
#undef NN_AMX_DOT

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

// ---- requantization of a block --------------------------------------------------------------
//
// conv::requantize (x * M, doubling high half rounded at bit 31, then a rounding right shift
// by e with ties away from zero) folded into one rounding of the 64-bit product, for the
// usual right shifts 1 <= e <= kMaxFastShift and M >= 0:
//   high = floor((p + 2^30) / 2^31), p = x * M
//   result = floor((high + 2^(e-1) - [high < 0]) / 2^e)
//          = floor((p + 2^30 + 2^(30+e) - [p < 0] * 2^31 + outZero * 2^(31+e)) / 2^(31+e))
// (nested floors of integers; p in [-2^30, 0) has high = 0 and gives 0 either way, so the sign
// of p may replace that of high; the output zero point is a whole multiple of the divisor).
// With |p| < 2^62 and e <= 22 the sum stays inside int64. About 14 vector operations per 16
// outputs instead of the two-step form's 22, the block's clamp done on packed bytes; 9 with a
// RELU-like lower bound (folded16<false>, no sign term) and bounded sums (the column term inside the
// constant, requantizeRowPairs). Other columns (a left shift, a huge right shift) take the
// two-step form. (nnapi_bench_amx_gemm, 112x112 32 -> 64 on Sapphire Rapids: the requantization
// of the AMX GEMM went from 140 to 92 us of the GEMM's 190 -> 140 us.)
constexpr int32_t kMaxFastShift = 22;

// Per 16 columns: the per-lane terms of both forms.
struct Columns16 {
  __mmask16 lanes;
  bool fast;  // every lane in the folded form's range
  __m512i offset;
  // folded form: even / odd lanes as 64-bit; constEvenWithOffset / constOddWithOffset add
  // offset * M (the column term folded into the constant, see requantizeRowPairs)
  __m512i multiplier, multiplierOdd, constEven, constOdd, shiftEven, shiftOdd;
  __m512i constEvenWithOffset, constOddWithOffset;
  // two-step form (conv_avx512.cc's requantize16)
  __m512i left, right, mask, halfMask;
};

inline Columns16 columns16(const int32_t* offset, const int32_t* multiplier, const int32_t* shift,
                           uint32_t count, int32_t outZero) {
  Columns16 c;
  c.lanes = count >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << count) - 1);
  const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi32(1);
  // Lanes past `count` get shift -1, multiplier 0: harmless values for either form.
  const __m512i sh = _mm512_mask_loadu_epi32(_mm512_set1_epi32(-1), c.lanes, shift);
  c.offset = _mm512_maskz_loadu_epi32(c.lanes, offset);
  c.multiplier = _mm512_maskz_loadu_epi32(c.lanes, multiplier);
  c.multiplierOdd = _mm512_srli_epi64(c.multiplier, 32);
  const __m512i e = _mm512_sub_epi32(zero, sh);  // right shift
  c.fast = _mm512_cmpgt_epi32_mask(one, e) == 0 &&
           _mm512_cmpgt_epi32_mask(e, _mm512_set1_epi32(kMaxFastShift)) == 0 &&
           _mm512_cmpgt_epi32_mask(zero, c.multiplier) == 0;
  if (c.fast) {
    const __m512i low32 = _mm512_set1_epi64(0xFFFFFFFFll);
    const __m512i eEven = _mm512_and_si512(e, low32), eOdd = _mm512_srli_epi64(e, 32);
    const __m512i c30 = _mm512_set1_epi64(int64_t{1} << 30);
    const __m512i z = _mm512_set1_epi64(outZero);
    const __m512i s31 = _mm512_set1_epi64(31);
    // 2^30 + 2^(30+e) + outZero * 2^(31+e)
    c.constEven = _mm512_add_epi64(_mm512_add_epi64(c30, _mm512_sllv_epi64(c30, eEven)),
                                   _mm512_sllv_epi64(z, _mm512_add_epi64(eEven, s31)));
    c.constOdd = _mm512_add_epi64(_mm512_add_epi64(c30, _mm512_sllv_epi64(c30, eOdd)),
                                  _mm512_sllv_epi64(z, _mm512_add_epi64(eOdd, s31)));
    // Even results end in the low half of each 64-bit lane (shift 31 + e), odd ones in the
    // high half (shift e - 1: the high half of z >> (e - 1) is z >> (31 + e)).
    c.shiftEven = _mm512_add_epi64(eEven, s31);
    c.shiftOdd = _mm512_sub_epi64(eOdd, _mm512_set1_epi64(1));
    // |offset * M| < 2^62 and |constant| < 2^62: the sum stays inside int64.
    c.constEvenWithOffset = _mm512_add_epi64(c.constEven, _mm512_mul_epi32(c.offset, c.multiplier));
    c.constOddWithOffset = _mm512_add_epi64(
        c.constOdd, _mm512_mul_epi32(_mm512_srli_epi64(c.offset, 32), c.multiplierOdd));
  } else {
    c.left = _mm512_max_epi32(sh, zero);
    c.right = _mm512_max_epi32(e, zero);
    c.mask = _mm512_sub_epi32(_mm512_sllv_epi32(one, c.right), one);
    c.halfMask = _mm512_srai_epi32(c.mask, 1);
  }
  return c;
}

// requantize(x) + outZero for 16 lanes in the folded form (int32, before the clamp).
// kSignFix false drops the [p < 0] term, valid where the activation's lower bound is at least
// the output zero point: for x < 0 both forms give at most outZero (the exact one rounds
// requantize(x) <= 0; without the term p + 2^30 + 2^(30+e) < 2^(31+e)), so both clamp to lo,
// and for x >= 0 the term is 0. Saves 4 of the 13 operations per 16 outputs (2 on port 0).
template <bool kSignFix>
inline __m512i folded16(const Columns16& c, __m512i x) {
  const __m512i c31 = _mm512_set1_epi64(int64_t{1} << 31);
  const __m512i pe = _mm512_mul_epi32(x, c.multiplier);
  const __m512i po = _mm512_mul_epi32(_mm512_srli_epi64(x, 32), c.multiplierOdd);
  __m512i ze = _mm512_add_epi64(pe, c.constEven);
  __m512i zo = _mm512_add_epi64(po, c.constOdd);
  if (kSignFix) {
    ze = _mm512_mask_sub_epi64(ze, _mm512_movepi64_mask(pe), ze, c31);
    zo = _mm512_mask_sub_epi64(zo, _mm512_movepi64_mask(po), zo, c31);
  }
  return _mm512_mask_blend_epi32(0xAAAA, _mm512_srav_epi64(ze, c.shiftEven),
                                 _mm512_srav_epi64(zo, c.shiftOdd));
}

// The same in two steps (any shift; conv_avx512.cc's requantize16).
inline __m512i twoStep16(const Columns16& c, __m512i x, __m512i outZero) {
  const __m512i one = _mm512_set1_epi32(1);
  const __m512i nudge = _mm512_set1_epi64(int64_t{1} << 30);
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
  return _mm512_add_epi32(v, outZero);
}

template <bool kRowOffset, bool kSignFix>
inline __m512i value16(const Columns16& c, const int32_t* acc, __m512i rowOffset,
                       __m512i outZero) {
  __m512i x = _mm512_add_epi32(_mm512_loadu_si512(acc), c.offset);
  if (kRowOffset) x = _mm512_add_epi32(x, rowOffset);
  return c.fast ? folded16<kSignFix>(c, x) : twoStep16(c, x, outZero);
}

// Rows r and r + 1 (32 columns each: a, b of row r, c, d of row r + 1) to bytes: saturating
// packs (the type's range; the activation clamp follows on the bytes), then the dwords of the
// 128-bit lanes back in order: row r in the low 32 bytes, row r + 1 in the high.
template <typename TOut>
inline __m512i packRows(__m512i a, __m512i b, __m512i c, __m512i d, __m512i lo, __m512i hi) {
  const __m512i ab = _mm512_packs_epi32(a, b), cd = _mm512_packs_epi32(c, d);
  __m512i bytes;
  if (sizeof(TOut) == 1 && static_cast<TOut>(-1) < 0) {
    bytes = _mm512_packs_epi16(ab, cd);
    bytes = _mm512_min_epi8(_mm512_max_epi8(bytes, lo), hi);
  } else {
    bytes = _mm512_packus_epi16(ab, cd);
    bytes = _mm512_min_epu8(_mm512_max_epu8(bytes, lo), hi);
  }
  // Lane L holds dwords a[L], b[L], c[L], d[L] (4 bytes each); output dword j = 4v + L.
  const __m512i order =
      _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  return _mm512_permutexvar_epi32(order, bytes);
}

// folded16 of acc (+ row term) with the column term in the constants: one addition fewer
// per 16 outputs. Equal to adding the column term to x first only while that sum does not wrap
// (the caller's sumsInRange).
// The [p < 0] term is of the whole product p = (x + offset) * M: p < 0 exactly where the sum
// with the folded constant is below the constant without the column term.
template <bool kRowOffset, bool kSignFix>
inline __m512i foldedWithOffset16(const Columns16& c, const int32_t* acc, __m512i rowOffset) {
  const __m512i c31 = _mm512_set1_epi64(int64_t{1} << 31);
  __m512i x = _mm512_loadu_si512(acc);
  if (kRowOffset) x = _mm512_add_epi32(x, rowOffset);
  __m512i ze = _mm512_add_epi64(_mm512_mul_epi32(x, c.multiplier), c.constEvenWithOffset);
  __m512i zo = _mm512_add_epi64(_mm512_mul_epi32(_mm512_srli_epi64(x, 32), c.multiplierOdd),
                                c.constOddWithOffset);
  if (kSignFix) {
    ze = _mm512_mask_sub_epi64(ze, _mm512_cmplt_epi64_mask(ze, c.constEven), ze, c31);
    zo = _mm512_mask_sub_epi64(zo, _mm512_cmplt_epi64_mask(zo, c.constOdd), zo, c31);
  }
  return _mm512_mask_blend_epi32(0xAAAA, _mm512_srav_epi64(ze, c.shiftEven),
                                 _mm512_srav_epi64(zo, c.shiftOdd));
}

// Whole row pairs of a block whose columns all take the folded form, without the
// per-vector branches of the general loop below (kTwo: more than 16 columns; the stores are
// masked to the block's columns).
template <typename TOut, bool kRowOffset, bool kSignFix, bool kTwo>
void requantizeRowPairs(const Columns16& c0, const Columns16& c1, const int32_t* acc,
                        uint32_t pairs, const int32_t* rowOffset, __m512i vLo, __m512i vHi,
                        __mmask32 storeMask, TOut* out, size_t ldo) {
  const __m512i none = _mm512_setzero_si512();
  for (uint32_t i = 0; i < pairs; ++i) {
    const uint32_t r = 2 * i;
    const int32_t* p = acc + r * kConvTileN;
    const __m512i o0 = kRowOffset ? _mm512_set1_epi32(rowOffset[r]) : none;
    const __m512i o1 = kRowOffset ? _mm512_set1_epi32(rowOffset[r + 1]) : none;
    const __m512i a = foldedWithOffset16<kRowOffset, kSignFix>(c0, p, o0);
    const __m512i b = kTwo ? foldedWithOffset16<kRowOffset, kSignFix>(c1, p + 16, o0) : none;
    const __m512i c = foldedWithOffset16<kRowOffset, kSignFix>(c0, p + kConvTileN, o1);
    const __m512i d =
        kTwo ? foldedWithOffset16<kRowOffset, kSignFix>(c1, p + kConvTileN + 16, o1) : none;
    const __m512i bytes = packRows<TOut>(a, b, c, d, vLo, vHi);
    TOut* o = out + r * ldo;
    _mm256_mask_storeu_epi8(o, storeMask, _mm512_castsi512_si256(bytes));
    _mm256_mask_storeu_epi8(o + ldo, storeMask, _mm512_extracti64x4_epi64(bytes, 1));
  }
}

template <typename TOut, bool kRowOffset, bool kSignFix>
void requantizeBlockT(const int32_t* acc, uint32_t rows, uint32_t cols,
                      const int32_t* columnOffset, const int32_t* rowOffset,
                      const int32_t* multiplier, const int32_t* shift, int32_t outZero,
                      int32_t lo, int32_t hi, TOut* out, size_t ldo, bool sumsInRange) {
  const __m512i vZero = _mm512_set1_epi32(outZero);
  const __m512i vLo = _mm512_set1_epi8(static_cast<char>(lo));
  const __m512i vHi = _mm512_set1_epi8(static_cast<char>(hi));
  const Columns16 c0 = columns16(columnOffset, multiplier, shift, cols, outZero);
  const bool two = cols > 16;
  const Columns16 c1 = two ? columns16(columnOffset + 16, multiplier + 16, shift + 16,
                                       cols - 16, outZero)
                           : c0;
  const __mmask32 storeMask = cols >= 32 ? ~__mmask32{0} : ((__mmask32{1} << cols) - 1);
  const __m512i none = _mm512_setzero_si512();
  uint32_t r = 0;
  if (sumsInRange && c0.fast && c1.fast) {
    if (two)
      requantizeRowPairs<TOut, kRowOffset, kSignFix, true>(c0, c1, acc, rows / 2, rowOffset, vLo,
                                                           vHi, storeMask, out, ldo);
    else
      requantizeRowPairs<TOut, kRowOffset, kSignFix, false>(c0, c1, acc, rows / 2, rowOffset,
                                                            vLo, vHi, storeMask, out, ldo);
    r = rows / 2 * 2;
  }
  for (; r < rows; r += 2) {
    const int32_t* p = acc + r * kConvTileN;
    const bool second = r + 1 < rows;  // a last odd row packs zeros as its partner
    const __m512i o0 = kRowOffset ? _mm512_set1_epi32(rowOffset[r]) : none;
    const __m512i o1 = kRowOffset && second ? _mm512_set1_epi32(rowOffset[r + 1]) : none;
    const __m512i a = value16<kRowOffset, kSignFix>(c0, p, o0, vZero);
    const __m512i b = two ? value16<kRowOffset, kSignFix>(c1, p + 16, o0, vZero) : none;
    const __m512i c = second ? value16<kRowOffset, kSignFix>(c0, p + kConvTileN, o1, vZero) : none;
    const __m512i d = second && two ? value16<kRowOffset, kSignFix>(c1, p + kConvTileN + 16, o1, vZero)
                                    : none;
    const __m512i bytes = packRows<TOut>(a, b, c, d, vLo, vHi);
    TOut* o = out + r * ldo;
    if (storeMask == ~__mmask32{0}) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), _mm512_castsi512_si256(bytes));
      if (second)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + ldo),
                            _mm512_extracti64x4_epi64(bytes, 1));
    } else {
      _mm256_mask_storeu_epi8(o, storeMask, _mm512_castsi512_si256(bytes));
      if (second) _mm256_mask_storeu_epi8(o + ldo, storeMask, _mm512_extracti64x4_epi64(bytes, 1));
    }
  }
}

template <typename TOut>
void requantizeBlock(const int32_t* acc, uint32_t rows, uint32_t cols,
                     const int32_t* columnOffset, const int32_t* rowOffset,
                     const int32_t* multiplier, const int32_t* shift, int32_t outZero,
                     int32_t lo, int32_t hi, TOut* out, size_t ldo, bool sumsInRange) {
  using Block = void (*)(const int32_t*, uint32_t, uint32_t, const int32_t*, const int32_t*,
                         const int32_t*, const int32_t*, int32_t, int32_t, int32_t, TOut*, size_t,
                         bool);
  // [has row offsets][needs the sign term]: the sign term matters only when the clamp lets
  // values below the output zero point through (not after a RELU-like activation).
  static constexpr Block kBlocks[2][2] = {
      {requantizeBlockT<TOut, false, false>, requantizeBlockT<TOut, false, true>},
      {requantizeBlockT<TOut, true, false>, requantizeBlockT<TOut, true, true>}};
  kBlocks[rowOffset != nullptr][lo < outZero](acc, rows, cols, columnOffset, rowOffset,
                                              multiplier, shift, outZero, lo, hi, out, ldo,
                                              sumsInRange);
}

}  // namespace

void amxRequantizeBlockU8(const int32_t* acc, uint32_t rows, uint32_t cols,
                          const int32_t* columnOffset, const int32_t* rowOffset,
                          const int32_t* multiplier, const int32_t* shift, int32_t outZero,
                          int32_t lo, int32_t hi, uint8_t* out, size_t ldo, bool sumsInRange) {
  requantizeBlock(acc, rows, cols, columnOffset, rowOffset, multiplier, shift, outZero, lo, hi,
                  out, ldo, sumsInRange);
}

void amxRequantizeBlockS8(const int32_t* acc, uint32_t rows, uint32_t cols,
                          const int32_t* columnOffset, const int32_t* rowOffset,
                          const int32_t* multiplier, const int32_t* shift, int32_t outZero,
                          int32_t lo, int32_t hi, int8_t* out, size_t ldo, bool sumsInRange) {
  requantizeBlock(acc, rows, cols, columnOffset, rowOffset, multiplier, shift, outZero, lo, hi,
                  out, ldo, sumsInRange);
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

namespace {
template <bool kSignedA>
void computeRowsCols(const uint8_t* a, size_t lda, size_t aStep, const int8_t* b, uint32_t k64,
                     uint32_t rows, uint32_t cols) {
  if (rows > 16) {
    if (cols > 16)
      compute<kSignedA, true, true>(a, lda, aStep, b, k64);
    else
      compute<kSignedA, true, false>(a, lda, aStep, b, k64);
  } else {
    if (cols > 16)
      compute<kSignedA, false, true>(a, lda, aStep, b, k64);
    else
      compute<kSignedA, false, false>(a, lda, aStep, b, k64);
  }
}
}  // namespace

void amxCompute(bool signedA, const uint8_t* a, size_t lda, size_t aStep, const int8_t* b,
                uint32_t k64, uint32_t rows, uint32_t cols) {
  if (signedA)
    computeRowsCols<true>(a, lda, aStep, b, k64, rows, cols);
  else
    computeRowsCols<false>(a, lda, aStep, b, k64, rows, cols);
}

void amxStore(uint32_t rows, uint32_t cols, int32_t* acc) {
  constexpr long ldc = kConvTileN * sizeof(int32_t);
  _tile_stored(0, acc, ldc);
  if (cols > 16) _tile_stored(1, acc + 16, ldc);
  if (rows > 16) {
    _tile_stored(2, acc + 16 * kConvTileN, ldc);
    if (cols > 16) _tile_stored(3, acc + 16 * kConvTileN + 16, ldc);
  }
  compilerBarrier();
}

void amxRowSums(bool signedA, const uint8_t* a, size_t lda, uint32_t rows, uint32_t k,
                int32_t* sums) {
  for (uint32_t r = 0; r < rows; ++r) sums[r] = rowSum(a + r * lda, k, signedA);
}

}  // namespace isa_amx
}  // namespace nn
