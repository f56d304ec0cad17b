// A relaxed model's 1x1 CONV_2D with few input channels (at most kConvAddMaxK) and the ADD
// that alone reads its output (a residual block's last layer and its shortcut sum), run
// together in float16 arithmetic where the processor has AVX512-FP16
// (isa/conv_add_half_avx512fp16.cc). Such a layer (face_detection_full_range's 96x96 blocks:
// 8 -> 32 channels) is too narrow in k for the float16 GEMM, so apart it runs on the float32
// GEMM, writes 32 float32 channels per pixel and the ADD reads them back; together each
// output pixel is 8 float16 FMAs, the residual add and one float16 store. The plan
// (prepared_model.cc, pairExpansions) prepares the pair once both operations are initialized,
// then runs it at the ADD's step and skips the CONV_2D's; the CONV_2D's output is never written.
// Values within relaxed precision of the two layers run apart (float16 sums of at most 16
// products and a float16 residual add; tests/internal/conv_add_half_test.cc). Turned off with
// the other band fusions by NNAPI_CPU_BAND_FUSION=0.
#pragma once

#include <cstdint>
#include <memory>

#include "cpu/kernel.h"
#include "cpu/kernels/isa/conv_add_half_isa.h"
#include "cpu/thread_pool.h"

namespace nn {

// The pair as prepared at compilation (prepareConvAdd): the weights and bias packed in float16
// for the kernel, the shape, which ADD input is the convolution's, the clamps. Immutable.
struct ConvAddPlan;
// Non-null when `conv` (a CONV_2D, after init) and `add` (the ADD reading its output at input 0
// or 1, after init), both with static shapes, run as one: a relaxed model, AVX512-FP16 (not
// capped by NNAPI_CPU_ISA), a 1x1 stride-1 unpadded NHWC convolution with constant filter and
// bias, k <= kConvAddMaxK, n <= kConvAddMaxN, the ADD's inputs and output of one shape,
// float32 or float16 data everywhere.
std::shared_ptr<const ConvAddPlan> prepareConvAdd(const OpContext& conv, const OpContext& add);
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
