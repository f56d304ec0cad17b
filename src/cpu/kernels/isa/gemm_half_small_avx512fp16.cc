// The small-n float16 1x1 convolution (gemm_half_small_isa.h). Compiled with the AVX-512 and
// AVX512-FP16 flags; include rules as in conv_isa.h.
//
// Against the narrow kernel (gemm_half_avx512fp16.cc), which puts 4 rows in a vector: the rows
// are read in place (a row's 4 consecutive inputs broadcast as one 64-bit word) instead of
// being transposed into 4-row groups first, and the sums stay float16 (k <= 64: at most 16
// terms per lane and a tree of 4) instead of being widened, transposed and added up in float32:
// with k = 24-42, as in BlazeFace's 1x1 layers, those steps cost more than the FMAs.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cpu/kernels/isa/intrinsics.h"

#include "cpu/kernels/isa/gemm_half_small_isa.h"

namespace nn {
namespace isa_avx512fp16 {
namespace {

// permutex2var indices: the even and the odd 16-bit lanes of two vectors (a's 16, then b's).
alignas(64) constexpr uint16_t kEven[32] = {0,  2,  4,  6,  8,  10, 12, 14, 16, 18, 20,
                                            22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42,
                                            44, 46, 48, 50, 52, 54, 56, 58, 60, 62};
alignas(64) constexpr uint16_t kOdd[32] = {1,  3,  5,  7,  9,  11, 13, 15, 17, 19, 21,
                                           23, 25, 27, 29, 31, 33, 35, 37, 39, 41, 43,
                                           45, 47, 49, 51, 53, 55, 57, 59, 61, 63};

inline __m512h pairSums(__m512h a, __m512h b, __m512i even, __m512i odd) {
  const __m512i ai = _mm512_castph_si512(a), bi = _mm512_castph_si512(b);
  return _mm512_add_ph(_mm512_castsi512_ph(_mm512_permutex2var_epi16(ai, even, bi)),
                       _mm512_castsi512_ph(_mm512_permutex2var_epi16(ai, odd, bi)));
}

struct SmallCtx {
  uint32_t n, k, groups;
  const _Float16* w;      // [ceil(k / 4)][groups][32]
  const uint16_t* bias;   // [groups][32]: lane 8p + c = column 8v + c
  __m512h lo, hi;         // the convolution's clamp
  const GemmHalfArgs* g;  // residual fields
  __m512h addLo, addHi;
  __m512i even, odd;
};

inline __m512h broadcastQuad(const uint16_t* p) {
  uint64_t q;
  std::memcpy(&q, p, sizeof(q));
  return _mm512_castsi512_ph(_mm512_set1_epi64(static_cast<long long>(q)));
}

// acc[p][v] = the float16 sum over quads [j0, j1) of k of row p of x (row stride k) times
// column group g0 + v of the small-n weights w ([quad][groups][32]): per quad, the NG weight
// vectors times a row's 4 inputs broadcast as one 64-bit word. The last part of a quad past k
// (its words past k belong to the next row) is masked.
template <int NG, int R>
inline void sumQuads(const _Float16* w, uint32_t groups, uint32_t g0, const uint16_t* x,
                     uint32_t k, uint32_t j0, uint32_t j1, __m512h (&acc)[R][NG]) {
  const uint32_t whole = k / 4, part = k % 4;
#pragma GCC unroll 8
  for (int p = 0; p < R; ++p)
#pragma GCC unroll 6
    for (int v = 0; v < NG; ++v) acc[p][v] = _mm512_setzero_ph();
  auto quad = [&](uint32_t j, bool partial, __m512i keep) {
    __m512h wv[NG];
#pragma GCC unroll 6
    for (int v = 0; v < NG; ++v)
      wv[v] = _mm512_castsi512_ph(
          _mm512_loadu_si512(w + (static_cast<size_t>(j) * groups + g0 + v) * 32));
#pragma GCC unroll 8
    for (int p = 0; p < R; ++p) {
      __m512h b = broadcastQuad(x + static_cast<size_t>(p) * k + 4 * j);
      if (partial) b = _mm512_castsi512_ph(_mm512_and_si512(_mm512_castph_si512(b), keep));
#pragma GCC unroll 6
      for (int v = 0; v < NG; ++v) acc[p][v] = _mm512_fmadd_ph(b, wv[v], acc[p][v]);
    }
  };
  const uint32_t jw = j1 < whole ? j1 : whole;
#pragma GCC unroll 2
  for (uint32_t j = j0; j < jw; ++j) quad(j, false, _mm512_setzero_si512());
  if (part != 0 && j1 > whole)
    quad(whole, true,
         _mm512_set1_epi64(static_cast<long long>((uint64_t{1} << (16 * part)) - 1)));
}

// Rows [0, rows) (rows <= R) of x (row stride k; every row readable for ceil(k / 4) * 4 values)
// into out (row stride n); `row0` is the block's first row in the whole GEMM (the residual's).
template <int NG, int R>
void rowBlock(const SmallCtx& c, const uint16_t* x, uint32_t rows, uint32_t row0, uint16_t* out) {
  __m512h acc[R][NG];
  sumQuads<NG, R>(c.w, c.groups, 0, x, c.k, 0, (c.k + 3) / 4, acc);
  const GemmHalfArgs& g = *c.g;
  const uint32_t n = c.n;
#pragma GCC unroll 6
  for (int v = 0; v < NG; ++v) {
    const __m512h bias = _mm512_castsi512_ph(_mm512_load_si512(c.bias + 32 * v));
    const uint32_t col = 8 * v, cols = n - col < 8 ? n - col : 8;
    const __mmask8 cm = static_cast<__mmask8>((1u << cols) - 1);
    const uint32_t rc = g.resC;
    const uint32_t resCols = col >= rc ? 0 : (rc - col < 8 ? rc - col : 8);
    const __mmask8 rm = static_cast<__mmask8>((1u << resCols) - 1);
#pragma GCC unroll 2
    for (int h = 0; h < R; h += 4) {
      const __m512h s01 = pairSums(acc[h][v], acc[h + 1][v], c.even, c.odd);
      const __m512h s23 = pairSums(acc[h + 2][v], acc[h + 3][v], c.even, c.odd);
      // max(lo, s) and min(hi, .) return s where s is NaN (as the other float16 kernels).
      __m512h u = _mm512_min_ph(
          c.hi, _mm512_max_ph(c.lo, _mm512_add_ph(pairSums(s01, s23, c.even, c.odd), bias)));
      if (g.residual) {
        __m128i r[4];
        for (int i = 0; i < 4; ++i) {
          const uint32_t row = static_cast<uint32_t>(h + i);
          r[i] = row < rows && rm != 0
                     ? _mm_maskz_loadu_epi16(rm, g.rh + static_cast<size_t>(row0 + row) * rc + col)
                     : _mm_setzero_si128();
        }
        __m512i res = _mm512_castsi128_si512(r[0]);
        res = _mm512_inserti32x4(res, r[1], 1);
        res = _mm512_inserti32x4(res, r[2], 2);
        res = _mm512_inserti32x4(res, r[3], 3);
        u = _mm512_min_ph(c.addHi,
                          _mm512_max_ph(c.addLo, _mm512_add_ph(u, _mm512_castsi512_ph(res))));
      }
      const __m512i ui = _mm512_castph_si512(u);
      uint16_t* o = out + static_cast<size_t>(h) * n + col;
      if (static_cast<uint32_t>(h) < rows) _mm_mask_storeu_epi16(o, cm, _mm512_castsi512_si128(ui));
      if (static_cast<uint32_t>(h) + 1 < rows)
        _mm_mask_storeu_epi16(o + n, cm, _mm512_extracti32x4_epi32(ui, 1));
      if (static_cast<uint32_t>(h) + 2 < rows)
        _mm_mask_storeu_epi16(o + 2 * n, cm, _mm512_extracti32x4_epi32(ui, 2));
      if (static_cast<uint32_t>(h) + 3 < rows)
        _mm_mask_storeu_epi16(o + 3 * n, cm, _mm512_extracti32x4_epi32(ui, 3));
    }
  }
}

// Rows per register block: R x NG float16 accumulators, at most 24 (the FMA chains two ports
// with a 4-cycle latency need, and registers left for the NG weight vectors and a broadcast).
template <int NG>
constexpr int smallRowsPerBlock() {
  return NG <= 3 ? 8 : 4;
}

template <int NG>
void rows(const SmallCtx& c, uint32_t rowBegin, uint32_t rowEnd) {
  constexpr int R = smallRowsPerBlock<NG>();
  const GemmHalfArgs& g = *c.g;
  const uint32_t k = c.k;
  // The last rows of a block shorter than R, and with k not a multiple of 4 the block holding
  // the GEMM's last row (whose last quad would be read past the input), zero-padded here.
  alignas(64) uint16_t tail[R * kHalfSmallMaxK + 4];
  for (uint32_t r = rowBegin; r < rowEnd; r += R) {
    const uint32_t count = rowEnd - r < static_cast<uint32_t>(R) ? rowEnd - r : R;
    const uint16_t* x = g.ah + static_cast<size_t>(r) * k;
    if (count < static_cast<uint32_t>(R) || (k % 4 != 0 && r + R >= g.m)) {
      std::memset(tail, 0, sizeof(tail));
      std::memcpy(tail, x, static_cast<size_t>(count) * k * sizeof(uint16_t));
      x = tail;
    }
    rowBlock<NG, R>(c, x, count, r, g.ch + static_cast<size_t>(r) * c.n);
  }
}

// The float32-sum form (gemmHalfSmallNFloat): each lane's float16 sum runs over at most
// kWideQuads quads of k; then two rows' vectors are added pairwise in float16 (two partials of at
// most 4 * kWideQuads terms), widened, added pairwise once more in float32 and into float32
// totals kept over the blocks of k.
constexpr uint32_t kWideQuads = 16;

struct WideCtx {
  uint32_t n, k, groups;  // groups: of the whole layout (its row stride per quad)
  const _Float16* w;  // [ceil(k / 4)][groups][32]
  const float* bias;  // [groups][16]: lane 8q + c = column 8v + c
  __m512 lo, hi, addLo, addHi;
  const GemmHalfArgs* g;
  __m512i even, odd;    // 16-bit lanes (pairSums)
  __m512i even32, odd32;  // 32-bit lanes
};

alignas(64) constexpr uint32_t kEven32[16] = {0, 2, 4, 6, 8, 10, 12, 14,
                                              16, 18, 20, 22, 24, 26, 28, 30};
alignas(64) constexpr uint32_t kOdd32[16] = {1, 3, 5, 7, 9, 11, 13, 15,
                                             17, 19, 21, 23, 25, 27, 29, 31};

// Two rows' 8 columns (lane 8q + c = row q, column c) of a float32 [rows][stride] or float16
// array at column col, the lanes past `cols` (mask) and of a missing second row zero.
inline __m512 loadRowPair(const float* f, const uint16_t* h, size_t stride, size_t row,
                          uint32_t col, __mmask8 m, bool second) {
  if (f != nullptr) {
    const __m256 a = _mm256_maskz_loadu_ps(m, f + row * stride + col);
    const __m256 b = second ? _mm256_maskz_loadu_ps(m, f + (row + 1) * stride + col)
                            : _mm256_setzero_ps();
    return _mm512_insertf32x8(_mm512_castps256_ps512(a), b, 1);
  }
  const __m128i a = _mm_maskz_loadu_epi16(m, h + row * stride + col);
  const __m128i b =
      second ? _mm_maskz_loadu_epi16(m, h + (row + 1) * stride + col) : _mm_setzero_si128();
  return _mm512_cvtph_ps(_mm256_inserti128_si256(_mm256_castsi128_si256(a), b, 1));
}

// Rows [0, rows) (rows <= R) of x, the NG column groups from g0.
template <int NG, int R>
void rowBlockWide(const WideCtx& c, const uint16_t* x, uint32_t rows, uint32_t row0,
                  uint32_t g0) {
  const uint32_t k = c.k, quads = (k + 3) / 4;
  __m512 tot[R / 2][NG];
#pragma GCC unroll 4
  for (int q = 0; q < R / 2; ++q)
#pragma GCC unroll 6
    for (int v = 0; v < NG; ++v) tot[q][v] = _mm512_setzero_ps();
  for (uint32_t j0 = 0; j0 < quads; j0 += kWideQuads) {
    const uint32_t j1 = quads - j0 < kWideQuads ? quads : j0 + kWideQuads;
    __m512h acc[R][NG];
    sumQuads<NG, R>(c.w, c.groups, g0, x, k, j0, j1, acc);
#pragma GCC unroll 4
    for (int q = 0; q < R / 2; ++q)
#pragma GCC unroll 6
      for (int v = 0; v < NG; ++v) {
        // Lanes 2c + h of the low half: row 2q, column c; of the high half row 2q + 1.
        const __m512i s =
            _mm512_castph_si512(pairSums(acc[2 * q][v], acc[2 * q + 1][v], c.even, c.odd));
        const __m512 a = _mm512_cvtph_ps(_mm512_castsi512_si256(s));
        const __m512 b = _mm512_cvtph_ps(_mm512_extracti64x4_epi64(s, 1));
        tot[q][v] = _mm512_add_ps(
            tot[q][v], _mm512_add_ps(_mm512_permutex2var_ps(a, c.even32, b),
                                     _mm512_permutex2var_ps(a, c.odd32, b)));
      }
  }
  const GemmHalfArgs& g = *c.g;
  const uint32_t n = c.n;
#pragma GCC unroll 6
  for (int v = 0; v < NG; ++v) {
    const __m512 bias = _mm512_load_ps(c.bias + 16 * (g0 + v));
    const uint32_t col = 8 * (g0 + v), cols = n - col < 8 ? n - col : 8;
    const __mmask8 cm = static_cast<__mmask8>((1u << cols) - 1);
    const uint32_t rc = g.resC;
    const uint32_t resCols = col >= rc ? 0 : (rc - col < 8 ? rc - col : 8);
    const __mmask8 rm = static_cast<__mmask8>((1u << resCols) - 1);
#pragma GCC unroll 4
    for (int q = 0; q < R / 2; ++q) {
      const uint32_t h = static_cast<uint32_t>(2 * q);
      if (h >= rows) break;
      const bool second = h + 1 < rows;
      // max(lo, s) and min(hi, .) return s where s is NaN, as the narrow kernel's clamp.
      __m512 u = _mm512_min_ps(c.hi, _mm512_max_ps(c.lo, _mm512_add_ps(tot[q][v], bias)));
      if (g.residual) {
        const __m512 r = rm != 0 ? loadRowPair(g.rf, g.rh, rc, row0 + h, col, rm, second)
                                 : _mm512_setzero_ps();
        u = _mm512_min_ps(c.addHi, _mm512_max_ps(c.addLo, _mm512_add_ps(u, r)));
      }
      const size_t o = static_cast<size_t>(row0 + h) * n + col;
      if (g.c != nullptr) {
        _mm256_mask_storeu_ps(g.c + o, cm, _mm512_castps512_ps256(u));
        if (second) _mm256_mask_storeu_ps(g.c + o + n, cm, _mm512_extractf32x8_ps(u, 1));
      } else {
        const __m256i hv = _mm512_cvtps_ph(u, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        _mm_mask_storeu_epi16(g.ch + o, cm, _mm256_castsi256_si128(hv));
        if (second) _mm_mask_storeu_epi16(g.ch + o + n, cm, _mm256_extracti128_si256(hv, 1));
      }
    }
  }
}

// The most column groups a row block of R rows takes at once: R x NG float16 accumulators,
// R / 2 x NG float32 totals and NG weight vectors within the 32 registers (8 rows: 2 groups;
// 4 rows: 6, the layout's widest chunk).
template <int R>
constexpr uint32_t wideChunkGroups() {
  static_assert(R == 4 || R == 8, "row blocks of 4 or 8 rows");
  return R == 8 ? 2 : 6;
}

// The ng (at most wideChunkGroups<R>()) column groups from g0 of a row block of R rows.
template <int R>
void chunkWide(const WideCtx& c, const uint16_t* x, uint32_t rows, uint32_t row0, uint32_t g0,
               uint32_t ng) {
  if constexpr (wideChunkGroups<R>() == 2) {
    if (ng == 1)
      rowBlockWide<1, R>(c, x, rows, row0, g0);
    else
      rowBlockWide<2, R>(c, x, rows, row0, g0);
  } else {
    switch (ng) {
      case 1: rowBlockWide<1, R>(c, x, rows, row0, g0); break;
      case 2: rowBlockWide<2, R>(c, x, rows, row0, g0); break;
      case 3: rowBlockWide<3, R>(c, x, rows, row0, g0); break;
      case 4: rowBlockWide<4, R>(c, x, rows, row0, g0); break;
      case 5: rowBlockWide<5, R>(c, x, rows, row0, g0); break;
      default: rowBlockWide<6, R>(c, x, rows, row0, g0); break;
    }
  }
}

// Row blocks of R rows; in each, the column groups in chunks of equal size (but the last) of at
// most wideChunkGroups<R>(), while the block's rows stay in L1.
template <int R>
void rowsWide(const WideCtx& c, uint32_t rowBegin, uint32_t rowEnd) {
  const GemmHalfArgs& g = *c.g;
  const uint32_t k = c.k;
  constexpr uint32_t kMaxGroups = wideChunkGroups<R>();
  const uint32_t chunks = (c.groups + kMaxGroups - 1) / kMaxGroups;
  const uint32_t per = (c.groups + chunks - 1) / chunks;
  // As rows(): short blocks and the block holding the GEMM's last row with k not a multiple
  // of 4 read a zero-padded copy.
  alignas(64) uint16_t tail[R * kHalfSmallWideMaxK + 4];
  for (uint32_t r = rowBegin; r < rowEnd; r += R) {
    const uint32_t count = rowEnd - r < static_cast<uint32_t>(R) ? rowEnd - r : R;
    const uint16_t* x = g.ah + static_cast<size_t>(r) * k;
    if (count < static_cast<uint32_t>(R) || (k % 4 != 0 && r + R >= g.m)) {
      std::memset(tail, 0, (static_cast<size_t>(R) * k + 4) * sizeof(uint16_t));
      std::memcpy(tail, x, static_cast<size_t>(count) * k * sizeof(uint16_t));
      x = tail;
    }
    for (uint32_t g0 = 0; g0 < c.groups; g0 += per)
      chunkWide<R>(c, x, count, r, g0, c.groups - g0 < per ? c.groups - g0 : per);
  }
}

}  // namespace

void gemmHalfSmallNFloat(const GemmHalfArgs& g, uint32_t rowBegin, uint32_t rowEnd) {
  const uint32_t n = g.n, k = g.k;
  const uint32_t groups = (n + kHalfNarrowGroup - 1) / kHalfNarrowGroup;
  alignas(64) float bias[kHalfSmallWideMaxN / kHalfNarrowGroup][16];
  for (uint32_t v = 0; v < groups; ++v)
    for (uint32_t l = 0; l < 16; ++l) {
      const uint32_t col = 8 * v + l % 8;
      bias[v][l] = g.bias != nullptr && col < n ? g.bias[col] : 0.f;
    }
  WideCtx c{};
  c.n = n;
  c.k = k;
  c.groups = groups;
  c.w = reinterpret_cast<const _Float16*>(g.small);
  c.bias = &bias[0][0];
  c.lo = _mm512_set1_ps(g.outputMin);
  c.hi = _mm512_set1_ps(g.outputMax);
  c.addLo = _mm512_set1_ps(g.residual ? g.addMin : 0.f);
  c.addHi = _mm512_set1_ps(g.residual ? g.addMax : 0.f);
  c.g = &g;
  c.even = _mm512_load_si512(kEven);
  c.odd = _mm512_load_si512(kOdd);
  c.even32 = _mm512_load_si512(kEven32);
  c.odd32 = _mm512_load_si512(kOdd32);
  // Eight rows per block where the row's groups fit one chunk of them, else four.
  if (groups <= wideChunkGroups<8>())
    rowsWide<8>(c, rowBegin, rowEnd);
  else
    rowsWide<4>(c, rowBegin, rowEnd);
}

void gemmHalfSmallN(const GemmHalfArgs& g, uint32_t rowBegin, uint32_t rowEnd) {
  const uint32_t n = g.n, k = g.k;
  const uint32_t groups = (n + kHalfNarrowGroup - 1) / kHalfNarrowGroup;
  alignas(64) uint16_t bias[kHalfSmallMaxN / kHalfNarrowGroup][32];
  for (uint32_t v = 0; v < groups; ++v)
    // Lane 8p + c of the reduced vector is row p, column c.
    for (uint32_t l = 0; l < 32; ++l) {
      const uint32_t col = 8 * v + l % 8;
      const _Float16 b = static_cast<_Float16>(g.bias != nullptr && col < n ? g.bias[col] : 0.f);
      std::memcpy(&bias[v][l], &b, 2);
    }
  SmallCtx c{};
  c.n = n;
  c.k = k;
  c.groups = groups;
  c.w = reinterpret_cast<const _Float16*>(g.small);
  c.bias = &bias[0][0];
  c.lo = _mm512_set1_ph(static_cast<_Float16>(g.outputMin));
  c.hi = _mm512_set1_ph(static_cast<_Float16>(g.outputMax));
  c.g = &g;
  c.addLo = _mm512_set1_ph(static_cast<_Float16>(g.residual ? g.addMin : 0.f));
  c.addHi = _mm512_set1_ph(static_cast<_Float16>(g.residual ? g.addMax : 0.f));
  c.even = _mm512_load_si512(kEven);
  c.odd = _mm512_load_si512(kOdd);
  switch (groups) {
    case 1: rows<1>(c, rowBegin, rowEnd); break;
    case 2: rows<2>(c, rowBegin, rowEnd); break;
    case 3: rows<3>(c, rowBegin, rowEnd); break;
    case 4: rows<4>(c, rowBegin, rowEnd); break;
    case 5: rows<5>(c, rowBegin, rowEnd); break;
    default: rows<6>(c, rowBegin, rowEnd); break;
  }
}

}  // namespace isa_avx512fp16
}  // namespace nn
