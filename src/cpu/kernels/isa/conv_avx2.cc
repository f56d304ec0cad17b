// AVX2 + FMA builds of the convolution family's float kernels: the GEMM tile and the depthwise
// rows. Compiled with -mavx2 -mfma (CMakeLists.txt) and only called when nn::isaLevel() is at
// least kAvx2; see conv_isa.h for the include rules that keep this code out of the baseline
// library.
#include <cstddef>
#include <cstdint>

#include <immintrin.h>

#include "cpu/kernels/isa/conv_isa.h"

namespace nn {
namespace isa_avx2 {
namespace {

// One 16-column half of the 32-column tile: 6 rows x 2 accumulators fit the 16 ymm registers
// with the two weight vectors. Each output is bias + FMAs over k in order, the same operations
// (so the same bits) as the AVX-512 tile.
template <int MR>
void floatHalfTile(const float* const* rows, const float* tile, uint32_t k,
                   const float* biasTile, float* acc) {
  __m256 a0[MR], a1[MR];
  const __m256 b0 = _mm256_loadu_ps(biasTile), b1 = _mm256_loadu_ps(biasTile + 8);
  for (int r = 0; r < MR; ++r) {
    a0[r] = b0;
    a1[r] = b1;
  }
  for (uint32_t kk = 0; kk < k; ++kk, tile += kConvTileN) {
    const __m256 w0 = _mm256_loadu_ps(tile), w1 = _mm256_loadu_ps(tile + 8);
    for (int r = 0; r < MR; ++r) {
      const __m256 x = _mm256_broadcast_ss(rows[r] + kk);
      a0[r] = _mm256_fmadd_ps(x, w0, a0[r]);
      a1[r] = _mm256_fmadd_ps(x, w1, a1[r]);
    }
  }
  for (int r = 0; r < MR; ++r) {
    _mm256_storeu_ps(acc + r * kConvTileN, a0[r]);
    _mm256_storeu_ps(acc + r * kConvTileN + 8, a1[r]);
  }
}

template <int MR>
void floatTile(const float* const* rows, const float* tile, uint32_t k, const float* biasTile,
               float* acc) {
  floatHalfTile<MR>(rows, tile, k, biasTile, acc);
  floatHalfTile<MR>(rows, tile + 16, k, biasTile + 16, acc + 16);
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

#include "cpu/kernels/isa/conv_depthwise_float.inc"
#include "cpu/kernels/isa/conv_transpose_float.inc"

}  // namespace isa_avx2
}  // namespace nn
