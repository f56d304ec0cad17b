// The AMX-INT8 GEMM of quant8 CONV_2D (1x1, stride 1, no padding) and FULLY_CONNECTED: rows
// read in place (equally spaced), weights in conv_gemm.cc's int8 tiles with k padded to a
// multiple of 64, 32x32 int32 blocks from the tile unit (isa/conv_amx.cc), then the same
// exact requantization as the VNNI/portable GEMM, so outputs are identical at every level.
// Used only where nn::amxInt8Usable(); otherwise w.amxData stays empty and nothing changes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/conv_fast.h"
#include "cpu/kernels/isa/conv_isa.h"
#include "cpu/thread_pool.h"
#include "spec/ops/conv.h"

namespace nn {
namespace conv {

// Adds w's AMX copy (w->k64, w->amxData) from its packed tiles when AMX-INT8 is usable.
void packAmxWeights(PackedQuantWeights* w);

// Whether amxQuantGemm takes an m-row GEMM with w: AMX packed, and enough rows to fill tiles
// (a few rows are nearly a matrix-vector product, where VNNI is about as fast).
bool amxGemmApplies(const PackedQuantWeights& w, uint32_t m);

// output[r][n] = requantize(bias + sum_k (A[r][k] - za)(W[n][k] - zw)) with A's row r at
// input + r * lda (uint8, or int8 if signedData), the rows spanning (m - 1) * lda + w.k bytes.
void amxQuantGemm(uint32_t m, const uint8_t* input, size_t lda, bool signedData,
                  const PackedQuantWeights& w, const QuantParams& q, const int32_t* bias,
                  void* output, ThreadPool* pool, KernelScratch& ks);

// The same GEMM with A's rows written by fill(context, row, dst) (k bytes as stored: uint8, or
// int8 if signedData), each thread filling the rows of its blocks into its own panel: im2col
// of a general quant8 CONV_2D without a whole im2col matrix.
using AmxRowFill = void (*)(const void* context, uint32_t row, uint8_t* dst);
void amxQuantGemmFilled(uint32_t m, AmxRowFill fill, const void* context, bool signedData,
                        const PackedQuantWeights& w, const QuantParams& q, const int32_t* bias,
                        void* output, ThreadPool* pool, KernelScratch& ks);

// ---- for tests ------------------------------------------------------------------------------

// The block-level operations the GEMM uses (isa/conv_isa.h's isa_amx signatures).
struct AmxBlockKernels {
  void (*configure)();
  void (*release)();
  // isa_amx::amxCompute / amxStore: C of one block (16 or 32 rows) kept between the two.
  void (*compute)(bool signedA, const uint8_t* a, size_t lda, size_t aStep, const int8_t* b,
                  uint32_t k64, uint32_t rows, uint32_t cols);
  void (*store)(uint32_t rows, uint32_t cols, int32_t* acc);
  void (*rowSums)(bool signedA, const uint8_t* a, size_t lda, uint32_t rows, uint32_t k,
                  int32_t* sums);
  isa_amx::AmxRequantizeBlockFn<uint8_t>* requantizeU8;
  isa_amx::AmxRequantizeBlockFn<int8_t>* requantizeS8;
};
// The tile unit's (only where amxInt8Usable()).
const AmxBlockKernels& amxHardwareKernels();
// Portable C++ with the tile instructions' arithmetic and exactly their memory reads, so the
// GEMM's blocking, padding and zero-point algebra are tested on processors without AMX; the
// block requantization is the AVX-512 one where the processor has AVX-512 (portable below).
const AmxBlockKernels& amxEmulatedKernels();
// packAmxWeights whether or not AMX is usable.
void packAmxWeightsAlways(PackedQuantWeights* w);
// amxQuantGemm with the given block operations.
void amxQuantGemmWith(const AmxBlockKernels& kernels, uint32_t m, const uint8_t* input,
                      size_t lda, bool signedData, const PackedQuantWeights& w,
                      const QuantParams& q, const int32_t* bias, void* output, ThreadPool* pool,
                      KernelScratch& ks);
// amxQuantGemmFilled with the given block operations.
void amxQuantGemmFilledWith(const AmxBlockKernels& kernels, uint32_t m, AmxRowFill fill,
                            const void* context, bool signedData, const PackedQuantWeights& w,
                            const QuantParams& q, const int32_t* bias, void* output,
                            ThreadPool* pool, KernelScratch& ks);

}  // namespace conv
}  // namespace nn
