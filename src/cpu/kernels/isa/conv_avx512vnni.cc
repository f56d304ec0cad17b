// The int8 GEMM tile with AVX-512 VNNI (vpdpbusd: four u8 x s8 products summed into each int32
// lane). Compiled with the AVX-512 + VNNI flags (CMakeLists.txt) and only called when
// nn::isaLevel() is kAvx512 and the processor has VNNI; see conv_isa.h for the include rules.
// Integer sums are exact, so the results equal the portable tile's.
#include <cstddef>
#include <cstdint>

#include "cpu/kernels/isa/intrinsics.h"

#include "cpu/kernels/isa/conv_isa.h"

namespace nn {
namespace isa_avx512vnni {
namespace {

template <int MR>
void quantTile(const uint8_t* const* rows, const int8_t* tile, uint32_t k4, int32_t* acc) {
  __m512i a0[MR], a1[MR];
  for (int r = 0; r < MR; ++r) {
    a0[r] = _mm512_setzero_si512();
    a1[r] = _mm512_setzero_si512();
  }
  for (uint32_t kk = 0; kk < k4; kk += 4, tile += 4 * kConvTileN) {
    const __m512i w0 = _mm512_loadu_si512(tile);
    const __m512i w1 = _mm512_loadu_si512(tile + 64);
    for (int r = 0; r < MR; ++r) {
      int32_t quad;  // four consecutive row bytes, broadcast to every lane
      __builtin_memcpy(&quad, rows[r] + kk, 4);
      const __m512i x = _mm512_set1_epi32(quad);
      a0[r] = _mm512_dpbusd_epi32(a0[r], x, w0);
      a1[r] = _mm512_dpbusd_epi32(a1[r], x, w1);
    }
  }
  for (int r = 0; r < MR; ++r) {
    _mm512_storeu_si512(acc + r * kConvTileN, a0[r]);
    _mm512_storeu_si512(acc + r * kConvTileN + 16, a1[r]);
  }
}

}  // namespace

void convQuantMicroKernel(uint32_t mr, const uint8_t* const* rows, const int8_t* tile,
                          uint32_t k4, int32_t* acc) {
  switch (mr) {
    case 1: quantTile<1>(rows, tile, k4, acc); break;
    case 2: quantTile<2>(rows, tile, k4, acc); break;
    case 3: quantTile<3>(rows, tile, k4, acc); break;
    case 4: quantTile<4>(rows, tile, k4, acc); break;
    case 5: quantTile<5>(rows, tile, k4, acc); break;
    default: quantTile<6>(rows, tile, k4, acc); break;
  }
}

}  // namespace isa_avx512vnni
}  // namespace nn
