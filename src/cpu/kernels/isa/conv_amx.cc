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

}  // namespace

void amxConfigure() {
  alignas(64) TileConfig cfg = {};
  cfg.palette = 1;
  for (int t = 0; t < 8; ++t) {
    cfg.colsb[t] = 64;
    cfg.rows[t] = 16;
  }
  _tile_loadconfig(&cfg);
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
