// The float16 GEMM (gemm_half_isa.h) with AVX512-FP16: 32 multiply-adds per
// instruction, twice float32's. A row block of a is rounded to float16 once into the caller's
// scratch (each value twice, see toHalfPairs); then, as in the float32 panel GEMM (gemm_float_avx512.cc), every 64-column weight
// tile is swept over the block's rows, a few rows at a time. The products are summed in
// float16 registers over kHalfKBlock values of k, two such partial sums added in float16, and
// that widened and added into float32 sums: the float16 rounding error then stays that of a
// short sum instead of growing with k. Bias, the float32 sums (kept in the output between
// blocks) and the activation clamp are float32. Per k, one weight vector per 32 columns and one broadcast float16 pair per row.
// Compiled with the AVX-512 and AVX512-FP16 flags; include rules as in conv_isa.h.
#include <cstddef>
#include <cstdint>

#include "cpu/kernels/isa/intrinsics.h"
#include "cpu/kernels/isa/lane_mask.h"
#include "cpu/kernels/isa/tile_prefetch.h"

#include "cpu/kernels/isa/gemm_half_isa.h"

namespace nn {
namespace isa_avx512fp16 {
namespace {

constexpr uint32_t kTile = kHalfTileN;
// Rows per register block: 8 rows x 64 columns = 16 float16 accumulators; with a tile of at most
// 32 columns left, 16 rows x 32 columns (the same count).
constexpr int kMR2 = 8, kMR1 = 16;

// Whether the output clamp can be left out: no activation ([lowest, max]) into a float16 output
// or one only a residual ADD reads (gemm_half_residual.cc: `residual`, `feedsAdd`); as in the
// 1x1 projections before BlazeFace's residual ADDs. 2-4 vector operations per accumulator of
// an epilogue that with a short k (24-96 there) costs a good part of the FMAs' time. The same
// bits for any sum but NaN (the clamp turned it into lowest, now it stays NaN): +-inf clamped
// to +-max rounds to float16 +-inf, and the ADD's own clamp (at least as wide) gives the same
// result for +-max as for +-inf.
inline bool unboundedClampFree(const GemmHalfArgs& g) {
  return g.outputMin == -__FLT_MAX__ && g.outputMax == __FLT_MAX__ &&
         (g.ch != nullptr || g.residual || g.feedsAdd);
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
  const __mmask16 tail = laneMask16(k % 16);
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

// The float16 sums h[r][v] over k steps [k0, k1) of rows [0, MR) of the paired float16 block a
// (row stride k) times NV 32-column vectors of one packed tile w. With PF, line kk of `pf` is
// prefetched into L2 at step kk (see block).
template <int MR, int NV, bool PF>
inline void sumBlock(const uint32_t* a, uint32_t k, uint32_t k0, uint32_t k1, const _Float16* w,
                     const char* pf, __m512h (&h)[MR][NV]) {
#pragma GCC unroll 16
  for (int r = 0; r < MR; ++r)
#pragma GCC unroll 2
    for (int v = 0; v < NV; ++v) h[r][v] = _mm512_setzero_ph();
#pragma GCC unroll 2
  for (uint32_t kk = k0; kk < k1; ++kk) {
    if (PF) _mm_prefetch(pf + static_cast<size_t>(kk) * 64, _MM_HINT_T1);
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
}

// Rows [0, MR) of the paired float16 block a (row stride k) times NV 32-column vectors of one
// packed tile w; c row r at c + r * ldc, columns masked by m[0..2 * NV). The float32 sums live
// in c itself between blocks of k (written unclamped, bias first, clamped after the last one):
// 16 float16 accumulators in registers, the independent FMA chains two FMA ports with a
// 4-cycle latency need to stay busy (with float32 accumulators in registers too, only 8 fit,
// and the kernel ran at about 55% of the float16 FMA peak).
// With a float16 output `ch` (same row stride), the last block's clamped sums go there instead
// (rounded once), and `c` only holds the sums between blocks of k.
// With PF, line kk of `pf` (64 bytes each, k lines) is prefetched into L2 at step kk: a slice
// of the next weight tile (see tileRows).
template <int MR, int NV, bool PF = false>
inline void block(const uint32_t* a, uint32_t k, const _Float16* w, const __m512* bias,
                  __m512 lo, __m512 hi, bool clamp, const __mmask16* m, float* c,
                  uint16_t* ch, size_t ldc, const char* pf = nullptr) {
  // Two blocks' float16 sums are added in float16 before they are widened (the first block's
  // kept in L1 meanwhile): one widening, a float32 load, add and store per accumulator and
  // 2 * kHalfKBlock terms, where those took about a fifth of the FMA ports' time. Each sum of
  // products stays kHalfKBlock terms long, plus one float16 addition (summing 64 terms in one
  // accumulator instead moved hand_landmark_lite's relaxed output, `nnapi run` seeds 1-40,
  // from a mean 0.87% to 1.17% of max |fp32|; this way 0.87%, p90 1.28 -> 1.45%). Layers with
  // k over 128: nnapi_bench_direct --half 0.92-0.96x the time on one thread.
  alignas(64) _Float16 stash[MR][NV][32];
  bool pending = false, first = true;
  // Once at least: with k = 0 the output is the clamped bias.
  for (uint32_t k0 = 0; k0 < k || k0 == 0; k0 += kHalfKBlock) {
    const uint32_t k1 = k - k0 > kHalfKBlock ? k0 + kHalfKBlock : k;
    __m512h h[MR][NV];
    sumBlock<MR, NV, PF>(a, k, k0, k1, w, pf, h);
    const bool last = k1 == k;
    if (!last && !pending) {
#pragma GCC unroll 16
      for (int r = 0; r < MR; ++r)
#pragma GCC unroll 2
        for (int v = 0; v < NV; ++v) _mm512_store_ph(stash[r][v], h[r][v]);
      pending = true;
      continue;
    }
    if (pending) {
#pragma GCC unroll 16
      for (int r = 0; r < MR; ++r)
#pragma GCC unroll 2
        for (int v = 0; v < NV; ++v) h[r][v] = _mm512_add_ph(_mm512_load_ph(stash[r][v]), h[r][v]);
      pending = false;
    }
    const bool wasFirst = first;
    first = false;
#pragma GCC unroll 16
    for (int r = 0; r < MR; ++r) {
      float* out = c + r * ldc;
#pragma GCC unroll 2
      for (int v = 0; v < NV; ++v) {
        const __m256h low = _mm512_castph512_ph256(h[r][v]);
        const __m256h high =
            _mm256_castpd_ph(_mm512_extractf64x4_pd(_mm512_castph_pd(h[r][v]), 1));
        const int j0 = 2 * v, j1 = 2 * v + 1;
        __m512 s0 = wasFirst ? bias[j0] : _mm512_maskz_loadu_ps(m[j0], out + 16 * j0);
        __m512 s1 = wasFirst ? bias[j1] : _mm512_maskz_loadu_ps(m[j1], out + 16 * j1);
        s0 = _mm512_add_ps(s0, _mm512_cvtxph_ps(low));
        s1 = _mm512_add_ps(s1, _mm512_cvtxph_ps(high));
        if (last) {
          if (clamp) {
            s0 = _mm512_min_ps(_mm512_max_ps(s0, lo), hi);
            s1 = _mm512_min_ps(_mm512_max_ps(s1, lo), hi);
          }
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

// block() for a short k (at most kHalfCarryBlocks blocks of kHalfKBlock terms) with a float16
// output (`ch`): each block's float16 sum is added in float16 to the previous blocks' total,
// carried in the output itself, and the last one gets the float16-rounded bias added and the
// clamp in float16 (the bounds 0, +-1, 6 and +-inf are exact, rounding is monotonic) before the
// store. block() instead widens every block's sums, adds them and the bias in float32 and
// rounds once: per accumulator and block a widening, a float32 load, add and store, and the
// narrowing at the end, which took 20-30% of such layers' time with k = 16-128 (the 16- to
// 112-channel inputs of the landmark models' expansions). The difference: at most
// kHalfCarryBlocks - 1 float16 roundings of the running total (next to the up to kHalfKBlock of
// each block's own float16 sum) and the bias's own rounding. Relaxed hand and face models over
// 100 random inputs: the same spread of max |relaxed - fp32| / max |fp32| as with float32
// carries (medians 0.81/0.57/0.36% against 0.78/0.58/0.37% for hand_landmark_lite/full and
// face_detection_short_range); carrying every k in float16 moved hand_landmark_lite up to
// 2.5% over 20 inputs (1.75% with float32 carries), so longer k keeps them.
constexpr uint32_t kHalfCarryBlocks = 4;
template <int MR, int NV>
inline void blockShortHalf(const uint32_t* a, uint32_t k, const _Float16* w,
                           const __m512h* bias, __m512h lo, __m512h hi, bool clamp,
                           const __mmask32* m, uint16_t* ch, size_t ldc) {
  for (uint32_t k0 = 0; k0 < k; k0 += kHalfKBlock) {
    const uint32_t k1 = k - k0 > kHalfKBlock ? k0 + kHalfKBlock : k;
    __m512h h[MR][NV];
    sumBlock<MR, NV, false>(a, k, k0, k1, w, nullptr, h);
    const bool first = k0 == 0, last = k1 == k;
#pragma GCC unroll 16
    for (int r = 0; r < MR; ++r)
#pragma GCC unroll 2
      for (int v = 0; v < NV; ++v) {
        uint16_t* out = ch + r * ldc + 32 * v;
        __m512h s = h[r][v];
        if (!first) s = _mm512_add_ph(s, _mm512_castsi512_ph(_mm512_maskz_loadu_epi16(m[v], out)));
        if (last) {
          s = _mm512_add_ph(s, bias[v]);
          if (clamp) s = _mm512_min_ph(_mm512_max_ph(s, lo), hi);
        }
        _mm512_mask_storeu_epi16(out, m[v], _mm512_castph_si512(s));
      }
  }
}
template <int NV, int M>
inline void blockShortHalfUpTo(uint32_t mr, const uint32_t* a, uint32_t k, const _Float16* w,
                               const __m512h* bias, __m512h lo, __m512h hi, bool clamp,
                               const __mmask32* m, uint16_t* ch, size_t ldc) {
  if constexpr (M > 1) {
    if (mr < static_cast<uint32_t>(M))
      return blockShortHalfUpTo<NV, M - 1>(mr, a, k, w, bias, lo, hi, clamp, m, ch, ldc);
  }
  blockShortHalf<M, NV>(a, k, w, bias, lo, hi, clamp, m, ch, ldc);
}
// tileRows for blockShortHalf (the weights of such a short k stay in L1: no prefetch).
template <int NV>
inline void tileRowsShortHalf(const uint32_t* a, uint32_t rows, uint32_t k, const _Float16* w,
                              const __m512h* bias, __m512h lo, __m512h hi, bool clamp,
                              const __mmask32* m, uint16_t* ch, size_t ldc) {
  constexpr uint32_t MR = NV == 2 ? kMR2 : kMR1;
  for (uint32_t r = 0; r < rows;) {
    const uint32_t left = rows - r, blocks = (left + MR - 1) / MR;
    const uint32_t mr = (left + blocks - 1) / blocks;
    blockShortHalfUpTo<NV, MR>(mr, a + static_cast<size_t>(r) * k, k, w, bias, lo, hi, clamp,
                               m, ch + static_cast<size_t>(r) * ldc, ldc);
    r += mr;
  }
}

// block<mr, NV> for a run-time mr in [1, M].
template <int NV, int M, bool PF = false>
inline void blockUpTo(uint32_t mr, const uint32_t* a, uint32_t k, const _Float16* w,
                      const __m512* bias, __m512 lo, __m512 hi, bool clamp, const __mmask16* m,
                      float* c, uint16_t* ch, size_t ldc, const char* pf = nullptr) {
  if constexpr (M > 1) {
    if (mr < static_cast<uint32_t>(M))
      return blockUpTo<NV, M - 1, PF>(mr, a, k, w, bias, lo, hi, clamp, m, c, ch, ldc, pf);
  }
  block<M, NV, PF>(a, k, w, bias, lo, hi, clamp, m, c, ch, ldc, pf);
}

// Rows [0, rows) of the converted block (output rows from c) for one tile, in register blocks
// of evened-out sizes (as gemm_float_avx512.cc's tileRows). `next` (may be null): the weight
// tile the caller takes after this one, prefetched by the first two register blocks
// (TilePrefetch; relaxed pose_landmark_heavy, whose 8x8 layers sweep weights from L3 once per
// row block, took 0.92-0.96x the time with it).
template <int NV>
inline void tileRows(const uint32_t* a, uint32_t rows, uint32_t k, const _Float16* w,
                     const __m512* bias, __m512 lo, __m512 hi, bool clamp, const __mmask16* m,
                     float* c, uint16_t* ch, size_t ldc, const _Float16* next) {
  constexpr uint32_t MR = NV == 2 ? kMR2 : kMR1;
  TilePrefetch prefetch(next, k);
  for (uint32_t r = 0; r < rows;) {
    const uint32_t left = rows - r, blocks = (left + MR - 1) / MR;
    const uint32_t mr = (left + blocks - 1) / blocks;
    const uint32_t* ar = a + static_cast<size_t>(r) * k;
    float* cr = c + static_cast<size_t>(r) * ldc;
    uint16_t* chr = ch != nullptr ? ch + static_cast<size_t>(r) * ldc : nullptr;
    if (const char* pf = prefetch.take()) {
      blockUpTo<NV, MR, true>(mr, ar, k, w, bias, lo, hi, clamp, m, cr, chr, ldc, pf);
    } else {
      blockUpTo<NV, MR>(mr, ar, k, w, bias, lo, hi, clamp, m, cr, chr, ldc);
    }
    r += mr;
  }
}


// ---- the narrow kernel (n <= kHalfNarrowMaxN) ----------------------------------------------
// Rows in groups of 4, columns in groups of 8: one 32-lane float16 vector holds lane 4j + i =
// row i, column j of a group. Per k, a row group's 4 values broadcast as one 64-bit word
// (vpbroadcastq from memory: a load uop, no shuffle), times each column group's packed weight
// vector. 16, 24 or 40 output columns then fill 2, 3 or 5 vectors completely, where the
// 64-column tiles above use a 32-lane vector per row at 1/2, 3/4 or 5/8 of its lanes and need
// a broadcast per row instead of one per 4 rows.

// Rows [0, rows) of a, rounded to float16, as 4-row groups: dst[group][k][4] (row stride k
// words per row, i.e. 4k per group); the rows past `rows` of the last group are zero.
template <typename T>
void toHalfQuads(const T* a, size_t lda, uint32_t rows, uint32_t k, uint16_t* dst) {
  const __mmask16 tail = laneMask16(k % 16);
  for (uint32_t r0 = 0; r0 < rows; r0 += 4) {
    const T* src[4];
    bool have[4];
    for (uint32_t i = 0; i < 4; ++i) {
      have[i] = r0 + i < rows;
      src[i] = a + static_cast<size_t>(have[i] ? r0 + i : r0) * lda;
    }
    uint16_t* out = dst + static_cast<size_t>(r0) * k;
    // Per 16 values of k: the 4x16 transpose in unpacks of 256-bit vectors (one uop each, on
    // either of two shuffle ports) and 16-byte stores of 2 k values x 4 rows each (past k
    // masked off by the quadword), instead of two 512-bit vpermt2w (several uops each on the
    // one 512-bit shuffle port). This conversion, where the input is first read, took about a
    // third of the narrow kernel's FMA time in face_detection_short_range's 24- to 48-channel
    // layers; much of it is waiting for those reads. The same words either way.
    for (uint32_t kk = 0; kk < k; kk += 16) {
      const uint32_t left = k - kk;
      const __mmask16 m = left >= 16 ? __mmask16(0xFFFF) : tail;
      __m256i v[4];
      for (uint32_t i = 0; i < 4; ++i)
        v[i] = have[i] ? halfWords(src[i] + kk, m) : _mm256_setzero_si256();
      // Per 128-bit lane (k 0-7 / 8-15): rows 0, 1 and rows 2, 3 interleaved, k 0-3 / 4-7 of it.
      const __m256i a = _mm256_unpacklo_epi16(v[0], v[1]), b = _mm256_unpackhi_epi16(v[0], v[1]);
      const __m256i c = _mm256_unpacklo_epi16(v[2], v[3]), d = _mm256_unpackhi_epi16(v[2], v[3]);
      // q[j]: k 2j, 2j + 1 (low lane) and 8 + 2j, 9 + 2j (high lane), 4 rows each.
      const __m256i q[4] = {_mm256_unpacklo_epi32(a, c), _mm256_unpackhi_epi32(a, c),
                            _mm256_unpacklo_epi32(b, d), _mm256_unpackhi_epi32(b, d)};
      uint16_t* o = out + 4 * kk;
      if (left >= 16) {
        for (int j = 0; j < 4; ++j) {
          _mm_storeu_si128(reinterpret_cast<__m128i*>(o + 8 * j), _mm256_castsi256_si128(q[j]));
          _mm_storeu_si128(reinterpret_cast<__m128i*>(o + 32 + 8 * j),
                           _mm256_extracti128_si256(q[j], 1));
        }
        continue;
      }
      // Quadword e of the stores at o + 8 * p holds k = 2p + e.
      const auto qm = [left](uint32_t p) {
        return static_cast<__mmask8>((2 * p < left ? 1u : 0u) | (2 * p + 1 < left ? 2u : 0u));
      };
      for (uint32_t j = 0; j < 4; ++j) {
        _mm_mask_storeu_epi64(o + 8 * j, qm(j), _mm256_castsi256_si128(q[j]));
        _mm_mask_storeu_epi64(o + 32 + 8 * j, qm(4 + j), _mm256_extracti128_si256(q[j], 1));
      }
    }
  }
}

// Float32 lanes 0..15 (sums of accumulator lanes 0..15: columns 0..3 of 4 rows) and 16..31
// (columns 4..7) to rows: lanes [8i + j] = row i (0, 1 in the first, 2, 3 in the second), column
// j (permutex2var indices).
alignas(64) constexpr uint32_t kRows01[16] = {0, 4, 8, 12, 16, 20, 24, 28,
                                              1, 5, 9, 13, 17, 21, 25, 29};
alignas(64) constexpr uint32_t kRows23[16] = {2, 6, 10, 14, 18, 22, 26, 30,
                                              3, 7, 11, 15, 19, 23, 27, 31};

struct NarrowCtx {
  const uint16_t* a;       // the converted block, 4-row groups
  uint32_t k, n, groups;   // groups: column groups (vectors per row group)
  const _Float16* w;       // [k][groups][32]
  const float* bias;       // [groups][32] in accumulator lane order (zero past n)
  __m512 lo, hi;
  bool clamp;  // see unboundedClampFree
  float* c;                // output row 0 of the block (row stride n), or null
  uint16_t* ch;            // float16 output instead
  const GemmHalfArgs* g;   // the residual's fields (g->residual)
  uint32_t row0;           // row of a, c and the residual at the block's row 0
};

// The residual ADD of a narrow block's 4 rows (gemm_half_isa.h, GemmHalfArgs::residual): q01 /
// q23 hold rows 0, 1 / 2, 3 of 8 columns from `col` (lanes 8i + j), clamped by the convolution's
// activation; they come back as the ADD's clamped float32 sums.
inline void addResidual(const NarrowCtx& x, uint32_t row, uint32_t rows, uint32_t col,
                        __m512& q01, __m512& q23) {
  const GemmHalfArgs& g = *x.g;
  if (g.roundConv) {
    q01 = _mm512_cvtph_ps(_mm512_cvtps_ph(q01, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    q23 = _mm512_cvtph_ps(_mm512_cvtps_ph(q23, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
  const uint32_t rc = g.resC;
  const uint32_t cols = col >= rc ? 0 : (rc - col < 8 ? rc - col : 8);
  const __mmask8 m = static_cast<__mmask8>((1u << cols) - 1);
  __m512 r[2];
  for (int h = 0; h < 2; ++h) {
    const uint32_t i0 = row + 2 * h, i1 = i0 + 1;
    const __mmask8 m0 = i0 < rows ? m : __mmask8(0), m1 = i1 < rows ? m : __mmask8(0);
    const size_t o0 = static_cast<size_t>(x.row0 + i0) * rc + col;
    const size_t o1 = static_cast<size_t>(x.row0 + i1) * rc + col;
    if (g.rh != nullptr) {
      const __m128i a0 = m0 ? _mm_maskz_loadu_epi16(m0, g.rh + o0) : _mm_setzero_si128();
      const __m128i a1 = m1 ? _mm_maskz_loadu_epi16(m1, g.rh + o1) : _mm_setzero_si128();
      r[h] = _mm512_cvtph_ps(_mm256_inserti128_si256(_mm256_castsi128_si256(a0), a1, 1));
    } else {
      const __m256 a0 = m0 ? _mm256_maskz_loadu_ps(m0, g.rf + o0) : _mm256_setzero_ps();
      const __m256 a1 = m1 ? _mm256_maskz_loadu_ps(m1, g.rf + o1) : _mm256_setzero_ps();
      r[h] = _mm512_insertf32x8(_mm512_castps256_ps512(a0), a1, 1);
    }
  }
  // As the float16 ADD kernel: max(lo, s) and min(hi, .) return s where s is NaN.
  const __m512 lo = _mm512_set1_ps(g.addMin), hi = _mm512_set1_ps(g.addMax);
  q01 = _mm512_min_ps(hi, _mm512_max_ps(lo, _mm512_add_ps(q01, r[0])));
  q23 = _mm512_min_ps(hi, _mm512_max_ps(lo, _mm512_add_ps(q23, r[1])));
}

// RG row groups (rows [0, rows) of them valid) by NG column groups: all of k, in blocks of
// kHalfKBlock float16 terms whose sums are added up in float32 in `sums` (bias first), the last
// block's clamped sums written to the rows.
template <int RG, int NG>
inline void narrowBlock(const NarrowCtx& x, const uint16_t* a, uint32_t rows, float* c,
                        uint16_t* ch) {
  const uint32_t k = x.k;
  alignas(64) float sums[RG * NG * 32];
  const __m512i rows01 = _mm512_load_si512(kRows01), rows23 = _mm512_load_si512(kRows23);
  for (uint32_t k0 = 0; k0 < k || k0 == 0; k0 += kHalfKBlock) {
    const uint32_t k1 = k - k0 > kHalfKBlock ? k0 + kHalfKBlock : k;
    __m512h h[RG][NG];
#pragma GCC unroll 16
    for (int r = 0; r < RG; ++r)
#pragma GCC unroll 8
      for (int v = 0; v < NG; ++v) h[r][v] = _mm512_setzero_ph();
#pragma GCC unroll 2
    for (uint32_t kk = k0; kk < k1; ++kk) {
      const _Float16* wk = x.w + static_cast<size_t>(kk) * NG * 32;
      __m512h wv[NG];
#pragma GCC unroll 8
      for (int v = 0; v < NG; ++v) wv[v] = _mm512_loadu_ph(wk + 32 * v);
#pragma GCC unroll 16
      for (int r = 0; r < RG; ++r) {
        uint64_t q;
        __builtin_memcpy(&q, a + (static_cast<size_t>(r) * k + kk) * 4, sizeof(q));
        const __m512h b = _mm512_castsi512_ph(_mm512_set1_epi64(static_cast<long long>(q)));
#pragma GCC unroll 8
        for (int v = 0; v < NG; ++v) h[r][v] = _mm512_fmadd_ph(b, wv[v], h[r][v]);
      }
    }
    const bool first = k0 == 0, last = k1 == k;
#pragma GCC unroll 16
    for (int r = 0; r < RG; ++r) {
#pragma GCC unroll 8
      for (int v = 0; v < NG; ++v) {
        float* s = sums + (r * NG + v) * 32;
        const __m512 p0 = _mm512_cvtxph_ps(_mm512_castph512_ph256(h[r][v]));
        const __m512 p1 = _mm512_cvtxph_ps(
            _mm256_castpd_ph(_mm512_extractf64x4_pd(_mm512_castph_pd(h[r][v]), 1)));
        __m512 s0 = _mm512_add_ps(first ? _mm512_load_ps(x.bias + 32 * v) : _mm512_load_ps(s), p0);
        __m512 s1 =
            _mm512_add_ps(first ? _mm512_load_ps(x.bias + 32 * v + 16) : _mm512_load_ps(s + 16), p1);
        if (!last) {
          _mm512_store_ps(s, s0);
          _mm512_store_ps(s + 16, s1);
          continue;
        }
        if (x.clamp) {
          s0 = _mm512_min_ps(_mm512_max_ps(s0, x.lo), x.hi);
          s1 = _mm512_min_ps(_mm512_max_ps(s1, x.lo), x.hi);
        }
        __m512 q01 = _mm512_permutex2var_ps(s0, rows01, s1);
        __m512 q23 = _mm512_permutex2var_ps(s0, rows23, s1);
        const uint32_t col = 8 * v, cols = x.n - col < 8 ? x.n - col : 8;
        const __mmask8 cm = static_cast<__mmask8>((1u << cols) - 1);
        const uint32_t row = 4 * r;
        if (x.g->residual) addResidual(x, row, rows, col, q01, q23);
        if (ch != nullptr) {
          const __m256i h01 = _mm512_cvtps_ph(q01, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
          const __m256i h23 = _mm512_cvtps_ph(q23, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
          uint16_t* o = ch + static_cast<size_t>(row) * x.n + col;
          if (row < rows) _mm_mask_storeu_epi16(o, cm, _mm256_castsi256_si128(h01));
          if (row + 1 < rows) _mm_mask_storeu_epi16(o + x.n, cm, _mm256_extracti128_si256(h01, 1));
          if (row + 2 < rows) _mm_mask_storeu_epi16(o + 2 * x.n, cm, _mm256_castsi256_si128(h23));
          if (row + 3 < rows) _mm_mask_storeu_epi16(o + 3 * x.n, cm, _mm256_extracti128_si256(h23, 1));
        } else {
          float* o = c + static_cast<size_t>(row) * x.n + col;
          if (row < rows) _mm256_mask_storeu_ps(o, cm, _mm512_castps512_ps256(q01));
          if (row + 1 < rows) _mm256_mask_storeu_ps(o + x.n, cm, _mm512_extractf32x8_ps(q01, 1));
          if (row + 2 < rows) _mm256_mask_storeu_ps(o + 2 * x.n, cm, _mm512_castps512_ps256(q23));
          if (row + 3 < rows) _mm256_mask_storeu_ps(o + 3 * x.n, cm, _mm512_extractf32x8_ps(q23, 1));
        }
      }
    }
  }
}

// narrowBlock<rg, NG> for a run-time rg in [1, RG].
template <int NG, int RG>
inline void narrowUpTo(uint32_t rg, const NarrowCtx& x, const uint16_t* a, uint32_t rows,
                       float* c, uint16_t* ch) {
  if constexpr (RG > 1) {
    if (rg < static_cast<uint32_t>(RG)) return narrowUpTo<NG, RG - 1>(rg, x, a, rows, c, ch);
  }
  narrowBlock<RG, NG>(x, a, rows, c, ch);
}

// Row groups per register block: about 24 float16 accumulators (the FMA chains two ports with a
// 4-cycle latency need, and registers left for the NG weight vectors and the broadcast).
template <int NG>
constexpr int narrowGroups() {
  return 24 / NG > 12 ? 12 : 24 / NG;
}

// All rows [0, rows) of the converted block, in register blocks of evened-out sizes.
template <int NG>
void narrowRows(const NarrowCtx& x, uint32_t rows) {
  constexpr uint32_t RG = narrowGroups<NG>();
  const uint32_t groups = (rows + 3) / 4;
  for (uint32_t g = 0; g < groups;) {
    const uint32_t left = groups - g, blocks = (left + RG - 1) / RG;
    const uint32_t rg = (left + blocks - 1) / blocks;
    const uint32_t row = 4 * g;
    NarrowCtx xr = x;
    xr.row0 = x.row0 + row;
    narrowUpTo<NG, RG>(rg, xr, x.a + static_cast<size_t>(row) * x.k, rows - row,
                       x.c != nullptr ? x.c + static_cast<size_t>(row) * x.n : nullptr,
                       x.ch != nullptr ? x.ch + static_cast<size_t>(row) * x.n : nullptr);
    g += rg;
  }
}

void narrowPanels(const GemmHalfArgs& g, uint32_t rowBegin, uint32_t rowEnd, uint32_t* scratch) {
  const uint32_t k = g.k, n = g.n, groups = (n + kHalfNarrowGroup - 1) / kHalfNarrowGroup;
  // Bias in accumulator lane order: lane 4j + i of group v's first 16 is column 8v + j (j < 4),
  // of its second 16 column 8v + 4 + j.
  alignas(64) float bias[kHalfNarrowMaxN / kHalfNarrowGroup * 32];
  for (uint32_t v = 0; v < groups; ++v)
    for (uint32_t l = 0; l < 32; ++l) {
      const uint32_t col = 8 * v + (l >= 16 ? 4 : 0) + (l % 16) / 4;
      bias[32 * v + l] = g.bias != nullptr && col < n ? g.bias[col] : 0.f;
    }
  NarrowCtx x{};
  x.g = &g;
  x.k = k;
  x.n = n;
  x.groups = groups;
  x.w = reinterpret_cast<const _Float16*>(g.packed);
  x.bias = bias;
  x.lo = _mm512_set1_ps(g.outputMin);
  x.hi = _mm512_set1_ps(g.outputMax);
  x.clamp = !unboundedClampFree(g);
  // Float16 words: half the uint32 scratch of the wide layout's pairs suffices (rows rounded up
  // to 4 fit since blocks are multiples of kHalfRowAlign rows).
  const size_t blockRows = halfGemmBlockRows(k, n, g.ch != nullptr);
  uint16_t* ah = reinterpret_cast<uint16_t*>(scratch);
  x.a = ah;
  // With lastBlockFirst the row blocks run from the last to the first (as in the float32 GEMM).
  const uint32_t blockCount =
      rowEnd > rowBegin ? static_cast<uint32_t>((rowEnd - rowBegin + blockRows - 1) / blockRows)
                        : 0;
  for (uint32_t bi = 0; bi < blockCount; ++bi) {
    const uint32_t b = g.lastBlockFirst ? blockCount - 1 - bi : bi;
    const uint32_t r0 = rowBegin + b * static_cast<uint32_t>(blockRows);
    const uint32_t rows =
        rowEnd - r0 > blockRows ? static_cast<uint32_t>(blockRows) : rowEnd - r0;
    if (g.ah != nullptr)
      toHalfQuads(g.ah + r0 * g.lda, g.lda, rows, k, ah);
    else
      toHalfQuads(g.a + r0 * g.lda, g.lda, rows, k, ah);
    x.c = g.ch != nullptr ? nullptr : g.c + static_cast<size_t>(r0) * n;
    x.ch = g.ch != nullptr ? g.ch + static_cast<size_t>(r0) * n : nullptr;
    x.row0 = r0;
    switch (groups) {
      case 1: narrowRows<1>(x, rows); break;
      case 2: narrowRows<2>(x, rows); break;
      case 3: narrowRows<3>(x, rows); break;
      case 4: narrowRows<4>(x, rows); break;
      case 5: narrowRows<5>(x, rows); break;
      default: narrowRows<6>(x, rows); break;
    }
  }
}

}  // namespace

void gemmHalfPanels(const GemmHalfArgs& g, uint32_t rowBegin, uint32_t rowEnd,
                    uint32_t tileBegin, uint32_t tileEnd, uint32_t* scratch) {
  if (g.narrow) {
    narrowPanels(g, rowBegin, rowEnd, scratch);
    return;
  }
  const uint32_t k = g.k, n = g.n;
  const __m512 lo = _mm512_set1_ps(g.outputMin), hi = _mm512_set1_ps(g.outputMax);
  const bool halfOut = g.ch != nullptr;
  const bool clamp = !unboundedClampFree(g);
  const size_t blockRows = halfGemmBlockRows(k, n, halfOut);
  uint32_t* ah = scratch;
  // A float16 output: the block's float32 sums after the converted rows.
  float* sums = reinterpret_cast<float*>(scratch + blockRows * (k > 0 ? k : 1));
  const _Float16* packed = reinterpret_cast<const _Float16*>(g.packed);
  const bool l1Weights =
      weightsStayInL1(static_cast<size_t>(k) * (tileEnd - tileBegin) * kTile * sizeof(_Float16));
  // A short k into a float16 output: the sums stay float16 (blockShortHalf).
  const bool shortHalf = halfOut && k > 0 && k <= kHalfKBlock * kHalfCarryBlocks;
  const __m512h loH = _mm512_set1_ph(static_cast<_Float16>(g.outputMin));
  const __m512h hiH = _mm512_set1_ph(static_cast<_Float16>(g.outputMax));
  // With lastBlockFirst the row blocks run from the last to the first (as in the float32 GEMM).
  const uint32_t blockCount =
      rowEnd > rowBegin ? static_cast<uint32_t>((rowEnd - rowBegin + blockRows - 1) / blockRows)
                        : 0;
  for (uint32_t bi = 0; bi < blockCount; ++bi) {
    const uint32_t b = g.lastBlockFirst ? blockCount - 1 - bi : bi;
    const uint32_t r0 = rowBegin + b * static_cast<uint32_t>(blockRows);
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
        m[j] = laneMask16(cols > 16 * j ? cols - 16 * j : 0);
        bias[j] = g.bias ? _mm512_maskz_loadu_ps(m[j], g.bias + c0 + 16 * j) : _mm512_setzero_ps();
      }
      const _Float16* w = packed + static_cast<size_t>(t) * k * kTile;
      float* c = cBlock + c0;
      uint16_t* ch = halfOut ? g.ch + static_cast<size_t>(r0) * n + c0 : nullptr;
      if (shortHalf) {
        __mmask32 m32[2];
        __m512h biasH[2];
        for (uint32_t v = 0; v < 2; ++v) {
          m32[v] = static_cast<__mmask32>(m[2 * v]) | static_cast<__mmask32>(m[2 * v + 1]) << 16;
          biasH[v] = _mm512_castsi512_ph(_mm512_inserti64x4(
              _mm512_castsi256_si512(_mm256_castph_si256(_mm512_cvtxps_ph(bias[2 * v]))),
              _mm256_castph_si256(_mm512_cvtxps_ph(bias[2 * v + 1])), 1));
        }
        if (cols > 32)
          tileRowsShortHalf<2>(ah, rows, k, w, biasH, loH, hiH, clamp, m32, ch, n);
        else
          tileRowsShortHalf<1>(ah, rows, k, w, biasH, loH, hiH, clamp, m32, ch, n);
        continue;
      }
      const _Float16* next =
          t + 1 < tileEnd && !l1Weights ? w + static_cast<size_t>(k) * kTile : nullptr;
      if (cols > 32)
        tileRows<2>(ah, rows, k, w, bias, lo, hi, clamp, m, c, ch, n, next);
      else
        tileRows<1>(ah, rows, k, w, bias, lo, hi, clamp, m, c, ch, n, next);
    }
  }
}

}  // namespace isa_avx512fp16
}  // namespace nn
