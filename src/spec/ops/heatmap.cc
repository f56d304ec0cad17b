// HEATMAP_MAX_KEYPOINT (API level 29): signature and output shapes. The keypoint search is in
// cpu/kernels/heatmap.cc.
#include "spec/operation.h"
#include "spec/ops/detection.h"

namespace nn {
namespace detection {

Status heatmapDims(const ShapeContext& ctx, bool nchw, HeatmapDims* d) {
  NN_RETURN_IF_ERROR(checkRank(ctx, 0, 4));
  NN_RETURN_IF_ERROR(checkRank(ctx, 1, 2));
  const Dims& hd = ctx.inputShape(0).dims;
  d->boxes = hd[0];
  d->size = hd[2];
  d->keypoints = nchw ? hd[1] : hd[3];
  NN_RETURN_IF_ERROR(checkDim(ctx, 0, nchw ? 3 : 1, d->size, "the heatmap width (square maps)"));
  if (d->size < 2) return ctx.fail("input 0: heatmaps must be at least 2x2, got %ux%u", d->size,
                                    d->size);
  NN_RETURN_IF_ERROR(checkDim(ctx, 1, 0, d->boxes, "the number of heatmaps"));
  return checkDim(ctx, 1, 1, 4, "4");
}

}  // namespace detection

namespace {

using namespace detection;  // NOLINT: type names and signature checks

Status validate(ValidationContext& c) {
  c.requireFeatureLevel(kFeatureLevel3);
  if (c.numInputs() != 3) return c.fail("expected 3 inputs, got %u", c.numInputs());
  const OperandType t = c.inputType(0);
  if (t == kF32 || t == kF16) {
    NN_RETURN_IF_ERROR(checkSignature(c, {t, t, OperandType::BOOL}, {t, t}));
  } else if (t == kQ8 || t == kQ8S) {
    if (t == kQ8S) c.requireFeatureLevel(kFeatureLevel4);
    NN_RETURN_IF_ERROR(checkSignature(c, {t, kQ16A, OperandType::BOOL}, {t, kQ16A}));
    NN_RETURN_IF_ERROR(checkBoxQuant(c, c.input(1), "input 1 (boxes)"));
    NN_RETURN_IF_ERROR(checkBoxQuant(c, c.output(1), "output 1 (keypoints)"));
  } else {
    return c.fail("input 0: unsupported type %s (expected TENSOR_FLOAT32, TENSOR_FLOAT16, "
                  "TENSOR_QUANT8_ASYMM or TENSOR_QUANT8_ASYMM_SIGNED)",
                  toString(t));
  }
  NN_RETURN_IF_ERROR(c.checkInputRank(0, 4));
  return c.checkInputRank(1, 2);
}

Status inferShapes(ShapeContext& ctx) {
  if (!ctx.hasInputData(kHeatmapLayoutInput)) return kDeferred;
  HeatmapDims d;
  NN_RETURN_IF_ERROR(heatmapDims(ctx, ctx.scalar<uint8_t>(kHeatmapLayoutInput) != 0, &d));
  NN_RETURN_IF_ERROR(ctx.setOutputDims(0, {d.boxes, d.keypoints}));
  return ctx.setOutputDims(1, {d.boxes, d.keypoints, 2});
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(HEATMAP_MAX_KEYPOINT, validate, inferShapes);

}  // namespace nn
