// RESHAPE and SQUEEZE: shape-only operations; their signatures and output shapes.
#include "spec/operation.h"
#include "spec/ops/dim_math.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace shape_ops;

// ---- RESHAPE ---------------------------------------------------------------------------

Status validateReshape(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(2, 2));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  NN_RETURN_IF_ERROR(checkTensorTypeSince(
      c, 0, {{kF32, kFeatureLevel1}, {kQ8, kFeatureLevel1}, {kF16, kFeatureLevel3},
             {kQ8S, kFeatureLevel4}, {kI32, kFeatureLevel6}}));
  NN_RETURN_IF_ERROR(requirePresent(c, 1));
  NN_RETURN_IF_ERROR(c.checkInputType(1, kI32));
  NN_RETURN_IF_ERROR(c.checkInputRank(1, 1));
  NN_RETURN_IF_ERROR(c.checkInputRankAtMost(0, 4));
  NN_RETURN_IF_ERROR(checkOutputLikeInput(c, 0, 0));
  if (const void* p = c.constantData(1)) {
    const size_t n = c.input(1).location.length / sizeof(int32_t);
    int wildcards = 0;
    for (size_t i = 0; i < n; ++i) {
      int32_t v;
      memcpy(&v, static_cast<const uint8_t*>(p) + i * 4, 4);
      if (v == -1) ++wildcards;
      else if (v < 0)
        return c.fail("input 1 (shape): entry %zu is %d; entries must be >= 0 or -1", i, v);
    }
    if (wildcards > 1) return c.fail("input 1 (shape): %d entries are -1, at most one allowed",
                                     wildcards);
  }
  return kOk;
}

Status inferReshape(ShapeContext& ctx) {
  if (!ctx.hasInputData(1)) return kDeferred;  // shape values arrive with the request
  const Shape& shapeT = ctx.inputShape(1);
  if (shapeT.rank() != 1)
    return ctx.fail("input 1 (shape): expected a 1-D tensor, got rank %u", shapeT.rank());
  const std::vector<int32_t> target = readInt32Vector(ctx, 1);
  const uint64_t inCount = ctx.inputShape(0).count();
  int wildcard = -1;
  uint64_t known = 1;
  Dims out(target.size());
  for (size_t i = 0; i < target.size(); ++i) {
    const int32_t v = target[i];
    if (v == -1) {
      if (wildcard >= 0)
        return ctx.fail("input 1 (shape): entries %d and %zu are both -1, at most one allowed",
                        wildcard, i);
      wildcard = static_cast<int>(i);
      continue;
    }
    if (v < 0) return ctx.fail("input 1 (shape): entry %zu is %d; must be >= 0 or -1", i, v);
    out[i] = static_cast<uint32_t>(v);
    known = dim_math::mulSat(known, static_cast<uint64_t>(v));  // never wraps to match
  }
  if (wildcard >= 0) {
    if (known == 0 || inCount % known != 0)
      return ctx.fail("input 1 (shape): cannot infer the -1 entry: %llu input elements are not a "
                      "multiple of %llu",
                      (unsigned long long)inCount, (unsigned long long)known);
    const uint64_t inferred = inCount / known;
    if (inferred > UINT32_MAX) return ctx.fail("inferred dimension %llu is too large",
                                               (unsigned long long)inferred);
    out[wildcard] = static_cast<uint32_t>(inferred);
  } else if (known != inCount) {
    return ctx.fail("input 1 (shape): %s holds %llu elements but the input %s holds %llu",
                    toString(out).c_str(), (unsigned long long)known,
                    toString(ctx.inputShape(0).dims).c_str(), (unsigned long long)inCount);
  }
  return ctx.setOutputDims(0, std::move(out));
}

// ---- SQUEEZE ---------------------------------------------------------------------------

Status validateSqueeze(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(1, 2));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel2);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(
      c, 0, {{kF32, kFeatureLevel2}, {kQ8, kFeatureLevel2}, {kF16, kFeatureLevel3},
             {kQ8S, kFeatureLevel4}}));
  if (hasOptionalInput(c, 1)) {
    NN_RETURN_IF_ERROR(c.checkInputType(1, kI32));
    NN_RETURN_IF_ERROR(c.checkInputRank(1, 1));
  }
  NN_RETURN_IF_ERROR(c.checkInputRankAtMost(0, 4));
  return checkOutputLikeInput(c, 0, 0);
}

Status inferSqueeze(ShapeContext& ctx) {
  const Dims& in = ctx.inputShape(0).dims;
  const int32_t rank = static_cast<int32_t>(in.size());
  if (rank > 4) return ctx.fail("input 0: rank %d exceeds the maximum 4", rank);
  std::vector<bool> squeeze(rank, false);
  bool explicitAxes = false;
  if (ctx.numInputs() > 1 && !ctx.isOmitted(1) && !ctx.inputSlot(1).shapeKnown) return kDeferred;
  // An empty axes tensor means "squeeze every size-1 dimension", like an omitted one.
  if (ctx.numInputs() > 1 && !ctx.isOmitted(1) && ctx.inputShape(1).count() > 0) {
    if (!ctx.hasInputData(1)) return kDeferred;
    if (ctx.inputShape(1).rank() != 1)
      return ctx.fail("input 1 (axes): expected a 1-D tensor, got rank %u",
                      ctx.inputShape(1).rank());
    explicitAxes = true;
    for (int32_t a : readInt32Vector(ctx, 1)) {
      if (a < -rank || a >= rank)
        return ctx.fail("input 1 (axes): axis %d is out of range [%d, %d)", a, -rank, rank);
      const int32_t axis = a < 0 ? a + rank : a;
      if (in[axis] != 1)
        return ctx.fail("input 1 (axes): cannot squeeze dimension %d of size %u (must be 1)",
                        axis, in[axis]);
      squeeze[axis] = true;
    }
  }
  Dims out;
  for (int32_t i = 0; i < rank; ++i) {
    const bool drop = explicitAxes ? squeeze[i] : in[i] == 1;
    if (!drop) out.push_back(in[i]);
  }
  if (out.empty()) out.push_back(1);
  return ctx.setOutputDims(0, std::move(out));
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(RESHAPE, validateReshape, inferReshape);
// squeeze dims (input 1): omitted squeezes every size-1 axis.
NN_DEFINE_OPERATION_SPEC_OPTIONAL(SQUEEZE, validateSqueeze, inferSqueeze, {1});

}  // namespace nn
