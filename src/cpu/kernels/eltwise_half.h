// ADD, MAX_POOL_2D and MEAN on float16 data with AVX512-FP16 (isa/eltwise_half_avx512fp16.cc):
// the operations between the convolutions of a relaxed model's residual blocks, whose tensors the
// CPU driver's graph pass stores in float16 (graph_fusion.h), read and write them as they are.
// The pass makes forms only these kernels accept: an ADD with one input float16 and the other
// float32, or a float16 output of float32 inputs.
#pragma once

#include <cstdint>

#include "cpu/kernel.h"
#include "spec/ops/pooling.h"

namespace nn {
namespace half_ops {

// Whether this processor and NNAPI_CPU_ISA have the kernels (as conv::halfGemmAvailable()).
bool available();

// An ADD this kernel computes: where available(), inputs and output all of one shape, each
// TENSOR_FLOAT16 or TENSOR_FLOAT32, at least one TENSOR_FLOAT16, and (all three float16) in a
// relaxed model. The result is the float32 sum of the (widened) inputs, clamped, rounded once
// where the output is float16: for float16 data the same bits as the portable kernel's.
bool addTakes(const OpContext& ctx);
void add(const OpContext& ctx, int32_t activation);

// A MAX_POOL_2D this kernel computes: where available(), NHWC float16 input and output (any
// model; max and the activation clamps are exact in float16, the same bits as widening).
bool maxPoolTakes(const OpContext& ctx, const pooling::PoolParams& p);
void maxPool(const OpContext& ctx, const pooling::PoolParams& p, const pooling::PoolGeometry& g);

// MEAN over H and W of NHWC float16 data into float16 (the average that ends image models, in a
// TENSOR_FLOAT16 model; relaxed models keep that tensor float32, graph_fusion.h):
// computes it and returns true where available(), the portable kernel's sums in the same order
// and the same bits; false elsewhere (nothing written).
bool spatialMean(const Half* in, Half* out, uint32_t batches, size_t pixels, uint32_t channels,
                 uint64_t count);
// The same into float32 (not rounded): a relaxed model's MEAN whose input the CPU driver stores
// in float16 (graph_fusion.cc) while its output stays float32.
bool spatialMean(const Half* in, float* out, uint32_t batches, size_t pixels, uint32_t channels,
                 uint64_t count);

}  // namespace half_ops
}  // namespace nn
