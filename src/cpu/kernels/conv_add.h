// A 1x1 CONV_2D with few input channels (at most kConvAddMaxK) and the ADD that alone reads its
// output (a residual block's last layer and its shortcut sum), run together. Such a layer
// (face_detection_full_range's 96x96 blocks: 8 -> 32 channels) writes 32 channels per pixel
// from 8 and the ADD reads them back; together each output pixel is a few FMAs, the residual
// add and one store, and the CONV_2D's output is never written. The plan (prepared_model.cc,
// pairExpansions) prepares the pair once both operations are initialized, then runs it at the
// ADD's step and skips the CONV_2D's. Two kernels (isa/conv_add_isa.h):
// - a relaxed model where the processor has AVX512-FP16: float16 arithmetic
//   (isa/conv_add_half_avx512fp16.cc; too narrow in k for the float16 GEMM, apart the layer
//   runs on the float32 GEMM). Values within relaxed precision of the two layers run apart
//   (float16 sums of at most 16 products and a float16 residual add);
// - otherwise, every tensor float32 and AVX-512, k <= kConvAddFloatMaxK: float32 arithmetic
//   (isa/conv_add_float_avx512.cc) with the panel GEMM's sums and the ADD's, the same bits as
//   the two layers run apart.
// Tests: tests/internal/conv_add_test.cc. Turned off with the other band fusions by
// NNAPI_CPU_BAND_FUSION=0.
#pragma once

#include <cstdint>
#include <memory>

#include "cpu/kernel.h"
#include "cpu/kernels/isa/conv_add_isa.h"
#include "cpu/thread_pool.h"

namespace nn {

// The pair as prepared at compilation (prepareConvAdd): which kernel, its weights and bias
// packed for it, the shape, which ADD input is the convolution's, the clamps. Immutable.
struct ConvAddPlan;
// Non-null when `conv` (a CONV_2D, after init) and `add` (the ADD reading its output at input 0
// or 1, after init), both with static shapes, run as one: a 1x1 stride-1 unpadded NHWC
// convolution with constant filter and bias, k <= kConvAddMaxK, n <= kConvAddMaxN, the ADD's
// inputs and output of one shape; and either a relaxed model with AVX512-FP16 and float32 or
// float16 data everywhere, or AVX-512, float32 data everywhere, k <= kConvAddFloatMaxK and a
// convolution the panel GEMM would take alone (neither capped by NNAPI_CPU_ISA).
std::shared_ptr<const ConvAddPlan> prepareConvAdd(const OpContext& conv, const OpContext& add);
// Whether `plan` runs the float32 kernel (else the float16 one).
bool convAddIsFloat32(const ConvAddPlan& plan);
// Runs the pair `plan` was prepared for (the same operations, shapes as at compilation).
Status runConvAdd(const ConvAddPlan& plan, OpContext& conv, OpContext& add);
// How many times runConvAdd has run in this process (for the tests).
uint64_t convAddRuns();

namespace conv {
// The kernel on plain arrays (for the tests): weights [n][k] and bias [n] float32 are rounded
// to float16 and packed here; `pool` may be null.
void convAddHalf(size_t pixels, const ConvAddHalfArgs& shape, const float* weights,
                 const float* bias, ThreadPool* pool);
}  // namespace conv

}  // namespace nn
