// Run-time choice of the convolution family's micro-kernels: one table per process, filled
// from nn::isaLevel() / nn::cpuFeatures() (so capped by NNAPI_CPU_ISA) the first time a kernel
// asks. Every entry has a portable build (isa_baseline, in conv_dispatch.cc); wider builds are in
// src/cpu/kernels/isa/. The quant8 entries give identical results at every level.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpu/kernels/isa/conv_isa.h"

namespace nn {
namespace conv {

struct ConvIsaKernels {
  void (*floatMicroKernel)(uint32_t mr, const float* const* rows, const float* tile, uint32_t k,
                           const float* biasTile, float* acc);
  void (*quantMicroKernel)(uint32_t mr, const uint8_t* const* rows, const int8_t* tile,
                           uint32_t k4, int32_t* acc);
  void (*requantizeU8)(const int32_t* acc, const int32_t* add, int32_t rowOffset,
                       const int32_t* multiplier, const int32_t* shift, int32_t outZero,
                       int32_t lo, int32_t hi, uint32_t count, uint8_t* out);
  void (*requantizeS8)(const int32_t* acc, const int32_t* add, int32_t rowOffset,
                       const int32_t* multiplier, const int32_t* shift, int32_t outZero,
                       int32_t lo, int32_t hi, uint32_t count, int8_t* out);
  // The pairwise depthwise kernel (depth multiplier 1, interleaved filter); null when this
  // level has none and the portable loop runs instead.
  void (*depthwiseQuantRowsU8)(const ConvDepthwiseQuantArgs& a, size_t rowBegin, size_t rowEnd,
                               int32_t* acc, uint8_t* zeroRow, const uint8_t** taps,
                               const uint8_t** rowBase);
  void (*depthwiseQuantRowsS8)(const ConvDepthwiseQuantArgs& a, size_t rowBegin, size_t rowEnd,
                               int32_t* acc, int8_t* zeroRow, const int8_t** taps,
                               const int8_t** rowBase);
  void (*depthwiseFloatRows)(const ConvDepthwiseFloatArgs& a, size_t rowBegin, size_t rowEnd,
                             float* acc);
  void (*transposeFloatRows)(const ConvTransposeFloatArgs& a, size_t rowBegin, size_t rowEnd,
                             float* acc);
};

const ConvIsaKernels& convIsaKernels();

// Requantizes one row through the table (the templates pick the U8/S8 entry).
inline void requantizeRow(const ConvIsaKernels& k, const int32_t* acc, const int32_t* add,
                          int32_t rowOffset, const int32_t* multiplier, const int32_t* shift,
                          int32_t outZero, int32_t lo, int32_t hi, uint32_t count, uint8_t* out) {
  k.requantizeU8(acc, add, rowOffset, multiplier, shift, outZero, lo, hi, count, out);
}
inline void requantizeRow(const ConvIsaKernels& k, const int32_t* acc, const int32_t* add,
                          int32_t rowOffset, const int32_t* multiplier, const int32_t* shift,
                          int32_t outZero, int32_t lo, int32_t hi, uint32_t count, int8_t* out) {
  k.requantizeS8(acc, add, rowOffset, multiplier, shift, outZero, lo, hi, count, out);
}

}  // namespace conv
}  // namespace nn
