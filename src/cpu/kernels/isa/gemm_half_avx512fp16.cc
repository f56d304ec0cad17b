// The float16 GEMM (gemm_half_isa.h) with AVX512-FP16: 32 multiply-adds per
// instruction, twice float32's. A row block of a is rounded to float16 once into the caller's
// scratch (each value twice, see toHalfPairs); then, as in the float32 panel GEMM (gemm_float_avx512.cc), every 64-column weight
// tile is swept over the block's rows, a few rows at a time. The products are summed in
// float16 registers over kHalfKBlock values of k, and each such partial sum is widened and added
// into float32 sums: the float16 rounding error then stays that of a
// short sum instead of growing with k. Bias, the float32 sums (kept in the output between
// blocks) and the activation clamp are float32. Per k, one weight vector per 32 columns and one broadcast float16 pair per row.
// Compiled with the AVX-512 and AVX512-FP16 flags; include rules as in conv_isa.h.
#include <cstddef>
#include <cstdint>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include "cpu/kernels/isa/gemm_half_isa.h"

namespace nn {
namespace isa_avx512fp16 {
namespace {

constexpr uint32_t kTile = kHalfTileN;
// Rows per register block: 8 rows x 64 columns = 16 float16 accumulators; with a tile of at most
// 32 columns left, 16 rows x 32 columns (the same count).
constexpr int kMR2 = 8, kMR1 = 16;

inline __mmask16 laneMask(uint32_t n) {
  return n >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << n) - 1);
}

// Word i of 16 converted values to words 2i and 2i + 1: one vpermw.
alignas(64) constexpr uint16_t kPairs[32] = {0, 0, 1, 1, 2,  2,  3,  3,  4,  4,  5,
                                             5, 6, 6, 7, 7, 8,  8,  9,  9,  10, 10,
                                             11, 11, 12, 12, 13, 13, 14, 14, 15, 15};

// Up to 16 values of a row as float16 words: float32 rounded, float16 taken as they are.
inline __m256i halfWords(const float* src, __mmask16 m) {
  return _mm256_castph_si256(_mm512_cvtxps_ph(_mm512_maskz_loadu_ps(m, src)));
}
inline __m256i halfWords(const uint16_t* src, __mmask16 m) {
  return _mm256_maskz_loadu_epi16(m, src);
}

// Rows [0, rows) of a (float32 or float16, row r at a + r * lda) as float16 into dst, row
// stride k, each value twice in a 32-bit word: then a dword broadcast (vpbroadcastd from
// memory, a plain load uop) fills all 32 float16 lanes. A word broadcast (vpbroadcastw, or the
// FMA's {1to32} operand) also takes a port-5 shuffle uop, and port 5 is one of the two FMA
// ports: with one per FMA the kernel ran at half the FMA rate (nnapi_bench_direct --half).
template <typename T>
void toHalfPairs(const T* a, size_t lda, uint32_t rows, uint32_t k, uint32_t* dst) {
  const __mmask16 tail = laneMask(k % 16);
  const __m512i pairs = _mm512_load_si512(kPairs);
  for (uint32_t r = 0; r < rows; ++r) {
    const T* src = a + static_cast<size_t>(r) * lda;
    uint32_t* out = dst + static_cast<size_t>(r) * k;
    for (uint32_t kk = 0; kk < k; kk += 16) {
      const __mmask16 m = k - kk >= 16 ? __mmask16(0xFFFF) : tail;
      _mm512_mask_storeu_epi32(
          out + kk, m,
          _mm512_permutexvar_epi16(pairs, _mm512_castsi256_si512(halfWords(src + kk, m))));
    }
  }
}

// Rows [0, MR) of the paired float16 block a (row stride k) times NV 32-column vectors of one
// packed tile w; c row r at c + r * ldc, columns masked by m[0..2 * NV). The float32 sums live
// in c itself between blocks of k (written unclamped, bias first, clamped after the last one):
// 16 float16 accumulators in registers, the independent FMA chains two FMA ports with a
// 4-cycle latency need to stay busy (with float32 accumulators in registers too, only 8 fit,
// and the kernel ran at about 55% of the float16 FMA peak).
// With a float16 output `ch` (same row stride), the last block's clamped sums go there instead
// (rounded once), and `c` only holds the sums between blocks of k.
template <int MR, int NV>
inline void block(const uint32_t* a, uint32_t k, const _Float16* w, const __m512* bias,
                  __m512 lo, __m512 hi, const __mmask16* m, float* c, uint16_t* ch,
                  size_t ldc) {
  // Once at least: with k = 0 the output is the clamped bias.
  for (uint32_t k0 = 0; k0 < k || k0 == 0; k0 += kHalfKBlock) {
    const uint32_t k1 = k - k0 > kHalfKBlock ? k0 + kHalfKBlock : k;
    __m512h h[MR][NV];
#pragma GCC unroll 16
    for (int r = 0; r < MR; ++r)
#pragma GCC unroll 2
      for (int v = 0; v < NV; ++v) h[r][v] = _mm512_setzero_ph();
#pragma GCC unroll 2
    for (uint32_t kk = k0; kk < k1; ++kk) {
      const _Float16* wk = w + static_cast<size_t>(kk) * kTile;
      const __m512h w0 = _mm512_loadu_ph(wk);
      const __m512h w1 = NV == 2 ? _mm512_loadu_ph(wk + 32) : w0;
#pragma GCC unroll 16
      for (int r = 0; r < MR; ++r) {
        const __m512h x = _mm512_castsi512_ph(
            _mm512_set1_epi32(static_cast<int>(a[static_cast<size_t>(r) * k + kk])));
        h[r][0] = _mm512_fmadd_ph(x, w0, h[r][0]);
        if (NV == 2) h[r][NV - 1] = _mm512_fmadd_ph(x, w1, h[r][NV - 1]);
      }
    }
    const bool first = k0 == 0, last = k1 == k;
#pragma GCC unroll 16
    for (int r = 0; r < MR; ++r) {
      float* out = c + r * ldc;
#pragma GCC unroll 2
      for (int v = 0; v < NV; ++v) {
        const __m256h low = _mm512_castph512_ph256(h[r][v]);
        const __m256h high =
            _mm256_castpd_ph(_mm512_extractf64x4_pd(_mm512_castph_pd(h[r][v]), 1));
        const int j0 = 2 * v, j1 = 2 * v + 1;
        __m512 s0 = first ? bias[j0] : _mm512_maskz_loadu_ps(m[j0], out + 16 * j0);
        __m512 s1 = first ? bias[j1] : _mm512_maskz_loadu_ps(m[j1], out + 16 * j1);
        s0 = _mm512_add_ps(s0, _mm512_cvtxph_ps(low));
        s1 = _mm512_add_ps(s1, _mm512_cvtxph_ps(high));
        if (last) {
          s0 = _mm512_min_ps(_mm512_max_ps(s0, lo), hi);
          s1 = _mm512_min_ps(_mm512_max_ps(s1, lo), hi);
          if (ch != nullptr) {
            uint16_t* hout = ch + r * ldc;
            _mm256_mask_storeu_epi16(hout + 16 * j0, m[j0],
                                     _mm256_castph_si256(_mm512_cvtxps_ph(s0)));
            _mm256_mask_storeu_epi16(hout + 16 * j1, m[j1],
                                     _mm256_castph_si256(_mm512_cvtxps_ph(s1)));
            continue;
          }
        }
        _mm512_mask_storeu_ps(out + 16 * j0, m[j0], s0);
        _mm512_mask_storeu_ps(out + 16 * j1, m[j1], s1);
      }
    }
  }
}

// block<mr, NV> for a run-time mr in [1, M].
template <int NV, int M>
inline void blockUpTo(uint32_t mr, const uint32_t* a, uint32_t k, const _Float16* w,
                      const __m512* bias, __m512 lo, __m512 hi, const __mmask16* m, float* c,
                      uint16_t* ch, size_t ldc) {
  if constexpr (M > 1) {
    if (mr < static_cast<uint32_t>(M))
      return blockUpTo<NV, M - 1>(mr, a, k, w, bias, lo, hi, m, c, ch, ldc);
  }
  block<M, NV>(a, k, w, bias, lo, hi, m, c, ch, ldc);
}

// Rows [0, rows) of the converted block (output rows from c) for one tile, in register blocks
// of evened-out sizes (as gemm_float_avx512.cc's tileRows).
template <int NV>
inline void tileRows(const uint32_t* a, uint32_t rows, uint32_t k, const _Float16* w,
                     const __m512* bias, __m512 lo, __m512 hi, const __mmask16* m, float* c,
                     uint16_t* ch, size_t ldc) {
  constexpr uint32_t MR = NV == 2 ? kMR2 : kMR1;
  for (uint32_t r = 0; r < rows;) {
    const uint32_t left = rows - r, blocks = (left + MR - 1) / MR;
    const uint32_t mr = (left + blocks - 1) / blocks;
    blockUpTo<NV, MR>(mr, a + static_cast<size_t>(r) * k, k, w, bias, lo, hi, m,
                      c + static_cast<size_t>(r) * ldc,
                      ch != nullptr ? ch + static_cast<size_t>(r) * ldc : nullptr, ldc);
    r += mr;
  }
}

}  // namespace

void gemmHalfPanels(const GemmHalfArgs& g, uint32_t rowBegin, uint32_t rowEnd,
                    uint32_t tileBegin, uint32_t tileEnd, uint32_t* scratch) {
  const uint32_t k = g.k, n = g.n;
  const __m512 lo = _mm512_set1_ps(g.outputMin), hi = _mm512_set1_ps(g.outputMax);
  const bool halfOut = g.ch != nullptr;
  const size_t blockRows = halfGemmBlockRows(k, n, halfOut);
  uint32_t* ah = scratch;
  // A float16 output: the block's float32 sums after the converted rows.
  float* sums = reinterpret_cast<float*>(scratch + blockRows * (k > 0 ? k : 1));
  const _Float16* packed = reinterpret_cast<const _Float16*>(g.packed);
  for (uint32_t r0 = rowBegin; r0 < rowEnd;) {
    const uint32_t rows =
        rowEnd - r0 > blockRows ? static_cast<uint32_t>(blockRows) : rowEnd - r0;
    if (g.ah != nullptr)
      toHalfPairs(g.ah + r0 * g.lda, g.lda, rows, k, ah);
    else
      toHalfPairs(g.a + r0 * g.lda, g.lda, rows, k, ah);
    float* cBlock = halfOut ? sums : g.c + static_cast<size_t>(r0) * n;
    for (uint32_t t = tileBegin; t < tileEnd; ++t) {
      const uint32_t c0 = t * kTile, cols = n - c0 < kTile ? n - c0 : kTile;
      __mmask16 m[4];
      __m512 bias[4];
      for (uint32_t j = 0; j < 4; ++j) {
        m[j] = laneMask(cols > 16 * j ? cols - 16 * j : 0);
        bias[j] = g.bias ? _mm512_maskz_loadu_ps(m[j], g.bias + c0 + 16 * j) : _mm512_setzero_ps();
      }
      const _Float16* w = packed + static_cast<size_t>(t) * k * kTile;
      float* c = cBlock + c0;
      uint16_t* ch = halfOut ? g.ch + static_cast<size_t>(r0) * n + c0 : nullptr;
      if (cols > 32)
        tileRows<2>(ah, rows, k, w, bias, lo, hi, m, c, ch, n);
      else
        tileRows<1>(ah, rows, k, w, bias, lo, hi, m, c, ch, n);
    }
    r0 += rows;
  }
}

}  // namespace isa_avx512fp16
}  // namespace nn
