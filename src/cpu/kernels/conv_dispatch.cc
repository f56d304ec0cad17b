#include "cpu/kernels/conv_dispatch.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "cpu/isa.h"
#include "cpu/kernels/conv_common.h"

namespace nn {

// ---- portable builds (baseline x86-64) ----------------------------------------------------

namespace isa_baseline {
namespace {

typedef float v16f __attribute__((vector_size(64), aligned(4)));

// By pointer rather than by value: returning a 64-byte vector is ABI-sensitive on targets
// without AVX-512.
inline void loadV(v16f* v, const float* p) { memcpy(v, p, sizeof(*v)); }
inline void storeV(float* p, const v16f* v) { memcpy(p, v, sizeof(*v)); }

template <int MR>
void floatTile(const float* const* rows, const float* tile, uint32_t k, const float* biasTile,
               float* acc) {
  v16f a0[MR], a1[MR];
  v16f b0, b1;
  loadV(&b0, biasTile);
  loadV(&b1, biasTile + 16);
  for (int r = 0; r < MR; ++r) {
    a0[r] = b0;
    a1[r] = b1;
  }
  for (uint32_t kk = 0; kk < k; ++kk) {
    v16f w0, w1;
    loadV(&w0, tile + static_cast<size_t>(kk) * kConvTileN);
    loadV(&w1, tile + static_cast<size_t>(kk) * kConvTileN + 16);
    for (int r = 0; r < MR; ++r) {
      const float x = rows[r][kk];
      a0[r] += x * w0;
      a1[r] += x * w1;
    }
  }
  for (int r = 0; r < MR; ++r) {
    storeV(acc + r * kConvTileN, &a0[r]);
    storeV(acc + r * kConvTileN + 16, &a1[r]);
  }
}

template <int MR>
void quantTile(const uint8_t* const* rows, const int8_t* tile, uint32_t k4, int32_t* acc) {
  for (int r = 0; r < MR; ++r) {
    int32_t* out = acc + r * kConvTileN;
    for (uint32_t c = 0; c < kConvTileN; ++c) out[c] = 0;
    const int8_t* t = tile;
    for (uint32_t kk = 0; kk < k4; kk += 4, t += 4 * kConvTileN) {
      for (uint32_t c = 0; c < kConvTileN; ++c) {
        int32_t s = 0;
        for (uint32_t i = 0; i < 4; ++i)
          s += static_cast<int32_t>(rows[r][kk + i]) * static_cast<int32_t>(t[c * 4 + i]);
        out[c] += s;
      }
    }
  }
}

inline int32_t wrapAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

template <typename TOut>
void requantizeStore(const int32_t* acc, const int32_t* add, int32_t rowOffset,
                     const int32_t* multiplier, const int32_t* shift, int32_t outZero,
                     int32_t lo, int32_t hi, uint32_t count, TOut* out) {
  for (uint32_t c = 0; c < count; ++c) {
    const int32_t x = wrapAdd(add != nullptr ? wrapAdd(acc[c], add[c]) : acc[c], rowOffset);
    int32_t v = conv::requantize(x, multiplier[c], shift[c]) + outZero;
    v = std::max(lo, std::min(hi, v));
    out[c] = static_cast<TOut>(v);
  }
}

// Calls fn(std::integral_constant<int, MR>) for MR = mr: the tiles are instantiated for each
// row count up to 6 (kConvMaxMR), which every other count also takes.
template <typename Fn>
void withRowCount(uint32_t mr, const Fn& fn) {
  switch (mr) {
    case 1: fn(std::integral_constant<int, 1>()); break;
    case 2: fn(std::integral_constant<int, 2>()); break;
    case 3: fn(std::integral_constant<int, 3>()); break;
    case 4: fn(std::integral_constant<int, 4>()); break;
    case 5: fn(std::integral_constant<int, 5>()); break;
    default: fn(std::integral_constant<int, 6>()); break;
  }
}

}  // namespace

void convFloatMicroKernel(uint32_t mr, const float* const* rows, const float* tile, uint32_t k,
                          const float* biasTile, float* acc) {
  withRowCount(mr, [&](auto rowCount) {
    floatTile<decltype(rowCount)::value>(rows, tile, k, biasTile, acc);
  });
}

void convQuantMicroKernel(uint32_t mr, const uint8_t* const* rows, const int8_t* tile,
                          uint32_t k4, int32_t* acc) {
  withRowCount(mr, [&](auto rowCount) {
    quantTile<decltype(rowCount)::value>(rows, tile, k4, acc);
  });
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

#include "cpu/kernels/isa/conv_depthwise_float.inc"
#include "cpu/kernels/isa/conv_transpose_float.inc"

}  // namespace isa_baseline

// ---- selection ----------------------------------------------------------------------------

namespace conv {
namespace {

ConvIsaKernels selectKernels() {
  // The portable build of every entry point (it has no pairwise depthwise kernel), then what
  // each level the processor reaches replaces.
  ConvIsaKernels k{isa_baseline::convFloatMicroKernel,   isa_baseline::convQuantMicroKernel,
                   isa_baseline::convRequantizeU8,       isa_baseline::convRequantizeS8,
                   /*depthwiseQuantRowsU8=*/nullptr,     /*depthwiseQuantRowsS8=*/nullptr,
                   isa_baseline::convDepthwiseFloatRows, isa_baseline::convTransposeFloatRows,
                   /*depthwiseFloatRowsDirect=*/nullptr, /*narrowConvFloatRows=*/nullptr,
                   /*gemmFloatPanels=*/nullptr,          /*packFloatTile=*/nullptr,
                   /*packHalfTile=*/nullptr,             /*packHalfTileBits=*/nullptr,
                   /*im2colFloatRows=*/nullptr,
                   /*depthwiseFloatSmallMap=*/nullptr,
                   /*depthwise3x3FloatRowXnnOrder=*/nullptr,
                   /*depthwiseProjectRow=*/nullptr};
  const int level = static_cast<int>(isaLevel());
  if (level >= static_cast<int>(IsaLevel::kAvx2)) {
    k.floatMicroKernel = isa_avx2::convFloatMicroKernel;
    k.depthwiseFloatRows = isa_avx2::convDepthwiseFloatRows;
    k.transposeFloatRows = isa_avx2::convTransposeFloatRows;
  }
  if (level >= static_cast<int>(IsaLevel::kAvx512)) {
    k.floatMicroKernel = isa_avx512::convFloatMicroKernel;
    k.requantizeU8 = isa_avx512::convRequantizeU8;
    k.requantizeS8 = isa_avx512::convRequantizeS8;
    k.depthwiseQuantRowsU8 = isa_avx512::convDepthwiseQuantRowsU8;
    k.depthwiseQuantRowsS8 = isa_avx512::convDepthwiseQuantRowsS8;
    k.depthwiseFloatRows = isa_avx512::convDepthwiseFloatRows;
    k.transposeFloatRows = isa_avx512::convTransposeFloatRows;
    k.depthwiseFloatRowsDirect = isa_avx512::convDepthwiseFloatRowsDirect;
    k.narrowConvFloatRows = isa_avx512::convNarrowFloatRows;
    k.gemmFloatPanels = isa_avx512::gemmFloatPanels;
    k.packFloatTile = isa_avx512::packFloatTile;
    k.packHalfTile = isa_avx512::packHalfTile;
    k.packHalfTileBits = isa_avx512::packHalfTileBits;
    k.im2colFloatRows = isa_avx512::convIm2colFloatRows;
    k.depthwiseFloatSmallMap = isa_avx512::convDepthwiseFloatSmallMap;
    k.depthwise3x3FloatRowXnnOrder = isa_avx512::convDepthwise3x3FloatRowXnnOrder;
    k.depthwiseProjectRow = isa_avx512::depthwiseProjectRow;
    if (cpuFeatures().avx512vnni) k.quantMicroKernel = isa_avx512vnni::convQuantMicroKernel;
  }
  return k;
}

}  // namespace

const ConvIsaKernels& convIsaKernels() {
  static const ConvIsaKernels kernels = selectKernels();
  return kernels;
}

}  // namespace conv
}  // namespace nn
