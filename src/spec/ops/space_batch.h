// Parameters of BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, DEPTH_TO_SPACE and SPACE_TO_DEPTH,
// read by shape inference and again by the CPU kernels. Each returns kDeferred until the
// values it needs are known.
#pragma once

#include <cstdint>

#include "spec/operation.h"

namespace nn {
namespace space_batch {

// The optional NCHW layout flag at input i (false when omitted).
Status readLayout(const ShapeContext& ctx, uint32_t i, bool* nchw);
// DEPTH_TO_SPACE / SPACE_TO_DEPTH: block_size (input 1), >= 1.
Status readBlock(const ShapeContext& ctx, int32_t* block);
// BATCH_TO_SPACE_ND: the [2] block sizes at input i, each >= 1.
Status readBlockShape(const ShapeContext& ctx, uint32_t i, int32_t block[2]);
// SPACE_TO_BATCH_ND: block sizes (input 1), [2, 2] paddings (input 2) and layout (input 3).
Status readSpaceToBatchParams(const ShapeContext& ctx, int32_t block[2], int32_t pads[4],
                              bool* nchw);

}  // namespace space_batch
}  // namespace nn
