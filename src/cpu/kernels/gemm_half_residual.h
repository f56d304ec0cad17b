// A relaxed model's 1x1 CONV_2D on the float16 GEMM and the residual ADD that alone reads its
// output, run together (gemm_half_residual.cc): each thread computes a block of output rows into
// a buffer that stays in L1/L2 and adds the shortcut's rows to it at once, so the convolution's
// output is never written out and read back, and the ADD (and a zero PAD of the shortcut's
// channels that only this ADD reads: BlazeFace's blocks widen the shortcut that way) costs no
// pass and no thread hand-off of its own. The same bits as the operations run apart: the GEMM
// rounds its block as it would round its output tensor, and the ADD's arithmetic is the
// float16 ADD kernel's (eltwise_half.h).
#pragma once

#include <cstdint>

#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/gemm_half.h"
#include "cpu/thread_pool.h"

namespace nn {
namespace conv {

struct HalfGemmResidual {
  uint32_t m = 0;            // rows (pixels)
  const float* a = nullptr;  // the convolution's input [m][k], float32 ...
  const Half* ah = nullptr;  // ... or float16 (exactly one set)
  const PackedHalfWeights* weights = nullptr;
  const float* bias = nullptr;  // [n] or null
  int32_t convActivation = 0;
  bool convHalfOut = false;    // the convolution's output tensor is float16 (else float32)
  const float* res = nullptr;  // the shortcut [m][resC], float32 ...
  const Half* resH = nullptr;  // ... or float16 (exactly one set)
  uint32_t resC = 0;           // <= n; channels past it are a zero PAD's
  int32_t addActivation = 0;
  float* out = nullptr;  // the ADD's output [m][n], float32 ...
  Half* outH = nullptr;  // ... or float16 (exactly one set)
};

// Only where halfGemmAvailable().
void halfGemmResidual(const HalfGemmResidual& f, ThreadPool* pool, KernelScratch& ks);

}  // namespace conv
}  // namespace nn
