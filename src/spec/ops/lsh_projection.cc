// LSH_PROJECTION: signature and output shape. The hashing is in
// cpu/kernels/lsh_projection.cc.
#include "spec/ops/dim_math.h"
#include "spec/operation.h"
#include "spec/ops/recurrent.h"

namespace nn {
namespace lsh {

Status checkWeight(const ShapeContext& ctx) {
  if (ctx.isOmitted(kWeight) || !ctx.hasInputData(kWeight)) return kOk;
  const Shape& weight = ctx.inputShape(kWeight);
  const Shape& input = ctx.inputShape(kInput);
  if (weight.rank() != 1)
    return ctx.fail("input 2 (weight): expected rank 1, got %u", weight.rank());
  if (input.rank() < 1 || weight.dim(0) != input.dim(0))
    return ctx.fail("input 2 (weight): size %u must equal the number of input rows %u",
                    weight.dim(0), input.rank() ? input.dim(0) : 0);
  return kOk;
}

namespace {

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(4, 4));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  for (uint32_t i : {kHash, kInput, kType})
    if (c.isOmitted(i)) return c.fail("input %u is required but has no value", i);

  const OperandType hashType = c.inputType(kHash);
  if (hashType == OperandType::TENSOR_FLOAT16) {
    c.requireFeatureLevel(kFeatureLevel3);
  } else if (hashType != OperandType::TENSOR_FLOAT32) {
    return c.fail("input 0 (hash seeds): expected TENSOR_FLOAT32 or TENSOR_FLOAT16, got %s",
                  toString(hashType));
  }
  const OperandType inputType = c.inputType(kInput);
  switch (inputType) {
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_INT32:
    case OperandType::TENSOR_QUANT8_ASYMM:
      break;
    case OperandType::TENSOR_FLOAT16:
      c.requireFeatureLevel(kFeatureLevel3);
      break;
    default:
      return c.fail("input 1: expected TENSOR_FLOAT32, TENSOR_FLOAT16, TENSOR_INT32 or "
                    "TENSOR_QUANT8_ASYMM, got %s",
                    toString(inputType));
  }
  // The weight shares the hash tensor's float type.
  NN_RETURN_IF_ERROR(c.checkInputType(kWeight, hashType));
  NN_RETURN_IF_ERROR(c.checkInputType(kType, OperandType::INT32));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({OperandType::TENSOR_INT32}));
  NN_RETURN_IF_ERROR(c.checkInputRank(kHash, 2));
  NN_RETURN_IF_ERROR(c.checkInputRank(kWeight, 1));

  int32_t type;
  if (c.constantScalar(kType, &type)) {
    if (type == kSparse) {
      c.requireFeatureLevel(kFeatureLevel3);
    } else if (type != kSparseDeprecated && type != kDense) {
      return c.fail("input 3 (projection type): expected 1 (SPARSE_DEPRECATED), 2 (DENSE) or "
                    "3 (SPARSE), got %d",
                    type);
    }
  }
  return kOk;
}

Status inferShapes(ShapeContext& ctx) {
  if (ctx.isOmitted(kType)) return ctx.fail("input 3 (projection type) is required");
  if (!ctx.hasInputData(kType)) return kDeferred;
  const int32_t type = ctx.scalar<int32_t>(kType);
  if (type != kSparseDeprecated && type != kDense && type != kSparse)
    return ctx.fail("input 3 (projection type): expected 1, 2 or 3, got %d", type);

  const Shape& hash = ctx.inputShape(kHash);
  if (hash.rank() != 2) return ctx.fail("input 0 (hash seeds): expected rank 2, got %u", hash.rank());
  const uint32_t numHash = hash.dim(0), numBits = hash.dim(1);
  if (numBits > 32)
    return ctx.fail("input 0 (hash seeds): at most 32 bits per hash function, got %u", numBits);
  if (type == kSparse) {
    // The k * 2^bits offset must fit in an int32 signature.
    uint32_t log2Hash = 0;
    while ((1ull << log2Hash) < numHash) ++log2Hash;
    if (numBits + log2Hash > 32)
      return ctx.fail("input 0 (hash seeds): sparse projection needs bits (%u) + "
                      "ceil(log2(hash functions = %u)) <= 32",
                      numBits, numHash);
  }
  const Shape& input = ctx.inputShape(kInput);
  if (input.rank() < 1) return ctx.fail("input 1: expected rank >= 1, got 0");
  NN_RETURN_IF_ERROR(checkWeight(ctx));
  if (type == kDense) {
    uint32_t bits;
    if (!dim_math::productDim({numHash, numBits}, &bits))
      return ctx.fail("input 0 (hash): %u x %u output bits do not fit a 32-bit dimension", numHash,
                      numBits);
    return ctx.setOutputDims(0, {bits});
  }
  return ctx.setOutputDims(0, {numHash});
}

}  // namespace
}  // namespace lsh

// The weight may be omitted (every row then weighs 1).
NN_DEFINE_OPERATION_SPEC_OPTIONAL(LSH_PROJECTION, lsh::validate, lsh::inferShapes, {2});

}  // namespace nn
