// AVX-512 float32 GEMM with the weight tile stationary (issue 10: XNNPACK's GEMM walks rows in
// its outer loop and re-reads the whole packed weight matrix, 1-2 MB in the low-resolution 1x1
// convolutions of the pose and hand models, from L3 for every few rows). Here the rows are cut
// into blocks that fit L2 with one weight tile; for each block every 32-column tile (k x 32
// floats) is swept over all the block's rows, kMR rows at a time: kMR x 32 accumulators in
// registers, per k one row element broadcast and two weight vectors, 2 * kMR FMAs. The bias is
// the accumulators' start and the activation clamp is the epilogue; the last tile's columns
// past n are masked (nothing is written past a row's n outputs).
// Compiled with the AVX-512 flags; see conv_isa.h for the include rules.
#include <cstddef>
#include <cstdint>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include "cpu/kernels/isa/conv_isa.h"

namespace nn {
namespace isa_avx512 {
namespace {

constexpr uint32_t kTile = kConvTileN;  // 32 output columns per packed tile
constexpr uint32_t kMR = 8;                 // rows per register block (16 accumulators)
// Floats of A per row block: 48K floats = 192 KB, with one weight tile (k x 32 floats) well
// inside the L2 of the processors this targets.
constexpr size_t kBlockFloats = 48 * 1024;

inline __mmask16 laneMask(uint32_t n) {
  return n >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << n) - 1);
}

// Rows [0, MR) of a (row r at a + r * lda) times NV vectors (16 columns each) of one packed
// tile; c row r at c + r * ldc.
template <int MR, int NV>
inline void block(const float* a, size_t lda, const float* w, uint32_t k, __m512 b0, __m512 b1,
                  __m512 lo, __m512 hi, __mmask16 m0, __mmask16 m1, float* c, size_t ldc) {
  __m512 acc0[MR], acc1[NV == 2 ? MR : 1];
  const float* row[MR];
#pragma GCC unroll 16
  for (int r = 0; r < MR; ++r) {
    acc0[r] = b0;
    if (NV == 2) acc1[r] = b1;
    row[r] = a + r * lda;
  }
#pragma GCC unroll 2
  for (uint32_t kk = 0; kk < k; ++kk) {
    const __m512 w0 = _mm512_loadu_ps(w + static_cast<size_t>(kk) * kTile);
    const __m512 w1 = NV == 2 ? _mm512_loadu_ps(w + static_cast<size_t>(kk) * kTile + 16) : w0;
#pragma GCC unroll 16
    for (int r = 0; r < MR; ++r) {
      const __m512 x = _mm512_set1_ps(row[r][kk]);
      acc0[r] = _mm512_fmadd_ps(x, w0, acc0[r]);
      if (NV == 2) acc1[r] = _mm512_fmadd_ps(x, w1, acc1[r]);
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < MR; ++r) {
    float* out = c + r * ldc;
    _mm512_mask_storeu_ps(out, m0, _mm512_min_ps(_mm512_max_ps(acc0[r], lo), hi));
    if (NV == 2)
      _mm512_mask_storeu_ps(out + 16, m1, _mm512_min_ps(_mm512_max_ps(acc1[r], lo), hi));
  }
}

// block<mr, NV> for a run-time mr in [1, M].
template <int NV, int M>
inline void blockUpTo(uint32_t mr, const float* a, size_t lda, const float* w, uint32_t k,
                      __m512 b0, __m512 b1, __m512 lo, __m512 hi, __mmask16 m0, __mmask16 m1,
                      float* c, size_t ldc) {
  if constexpr (M > 1) {
    if (mr < static_cast<uint32_t>(M))
      return blockUpTo<NV, M - 1>(mr, a, lda, w, k, b0, b1, lo, hi, m0, m1, c, ldc);
  }
  block<M, NV>(a, lda, w, k, b0, b1, lo, hi, m0, m1, c, ldc);
}

// Rows [r0, r1) of one tile in as few register blocks as MR allows, their sizes evened out
// (49 rows: 7 x 7, not 6 x 8 + 1: a one-row block reads the whole tile for 2 FMAs per k).
// A tile with at most 16 columns left (the last one) takes one vector per row and twice the
// rows per block.
template <int NV>
inline void tileRows(const GemmFloatArgs& g, uint32_t r0, uint32_t r1, const float* w,
                     uint32_t c0, __m512 b0, __m512 b1, __m512 lo, __m512 hi, __mmask16 m0,
                     __mmask16 m1) {
  constexpr uint32_t MR = NV == 2 ? kMR : 2 * kMR;
  const uint32_t k = g.k, n = g.n;
  for (uint32_t r = r0; r < r1;) {
    const uint32_t left = r1 - r, blocks = (left + MR - 1) / MR;
    const uint32_t mr = (left + blocks - 1) / blocks;
    blockUpTo<NV, MR>(mr, g.a + r * g.lda, g.lda, w, k, b0, b1, lo, hi, m0, m1,
                      g.c + static_cast<size_t>(r) * n + c0, n);
    r += mr;
  }
}

}  // namespace

void gemmFloatPanels(const GemmFloatArgs& g, uint32_t rowBegin, uint32_t rowEnd,
                     uint32_t tileBegin, uint32_t tileEnd) {
  const uint32_t k = g.k, n = g.n;
  const __m512 lo = _mm512_set1_ps(g.outputMin), hi = _mm512_set1_ps(g.outputMax);
  size_t blockRows = kBlockFloats / (k > 0 ? k : 1) / kMR * kMR;
  if (blockRows < static_cast<size_t>(kMR)) blockRows = kMR;
  // Weights that fit L1 with room to spare (the small-k, high-resolution 1x1 layers): 16 rows
  // at a time through every tile, so each output row is written whole while its lines are
  // in L1 instead of in one partial pass per tile over rows that no longer are.
  if (tileEnd - tileBegin >= 2 &&
      static_cast<size_t>(k) * (tileEnd - tileBegin) * kTile * sizeof(float) <= 32 * 1024)
    blockRows = 2 * kMR;
  for (uint32_t r0 = rowBegin; r0 < rowEnd;) {
    const uint32_t r1 =
        rowEnd - r0 > blockRows ? r0 + static_cast<uint32_t>(blockRows) : rowEnd;
    for (uint32_t t = tileBegin; t < tileEnd; ++t) {
      const uint32_t c0 = t * kTile, cols = n - c0 < kTile ? n - c0 : kTile;
      const __mmask16 m0 = laneMask(cols), m1 = laneMask(cols > 16 ? cols - 16 : 0);
      const __m512 b0 = g.bias ? _mm512_maskz_loadu_ps(m0, g.bias + c0) : _mm512_setzero_ps();
      const __m512 b1 =
          g.bias ? _mm512_maskz_loadu_ps(m1, g.bias + c0 + 16) : _mm512_setzero_ps();
      const float* w = g.packed + static_cast<size_t>(t) * k * kTile;
      if (cols > 16)
        tileRows<2>(g, r0, r1, w, c0, b0, b1, lo, hi, m0, m1);
      else
        tileRows<1>(g, r0, r1, w, c0, b0, b1, lo, hi, m0, m1);
    }
    r0 = r1;
  }
}

}  // namespace isa_avx512
}  // namespace nn
