// DENSIFY (experimental, code 20000): expands a tensor stored in TFLite's sparse format
// into a dense one.
//
// Inputs: 0 the stored values (rank 1), 1 traversal order [L], 2 block map [k], 3 per-level
// format [L] (0 dense, 1 CSR), 4 per-level size [L], then for each traversal level l the CSR
// arrays: 5+2l segments, 6+2l indices (ignored for dense levels). The output has rank n = L - k.
// The first n traversal levels walk original dimensions, the last k walk blocks; block b
// refines original dimension blockMap[b]. Unstored elements are zero (the zero point for
// asymmetric quantized types).
//
// Every piece of metadata may come from a model input, so the sparse structure is checked in
// full before any value is read or written: shape inference checks it when the data is
// already there (a compile-time error for constants), the kernel (cpu/kernels/densify.cc)
// checks it again because a static plan does not rerun shape inference for each request.
#include <algorithm>
#include <string>
#include <vector>

#include "spec/operation.h"
#include "spec/ops/densify.h"

namespace nn {
namespace densify {
namespace {

bool isSupportedValueType(OperandType t) {
  switch (t) {
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_FLOAT16:
    case OperandType::TENSOR_INT32:
    case OperandType::TENSOR_BOOL8:
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT16_ASYMM:
    case OperandType::TENSOR_QUANT16_SYMM:
      return true;
    default:
      return false;
  }
}

Status readArray(const ShapeContext& ctx, uint32_t i, IntArray* out) {
  *out = IntArray{};
  if (ctx.isOmitted(i)) return kOk;
  const Shape& s = ctx.inputShape(i);
  if (s.rank() != 1)
    return ctx.fail("input %u: expected a rank-1 TENSOR_INT32, got rank %u", i, s.rank());
  out->size = s.dim(0);
  out->data = ctx.input<int32_t>(i);
  if (out->size > 0 && out->data == nullptr) out->available = false;
  return kOk;
}

}  // namespace

// Reads inputs 1..4 and derives the output shape. Returns kDeferred when a value needed for
// the shape is not available yet.
Status buildLayout(const ShapeContext& ctx, Layout* layout) {
  IntArray order, blockMap, format, dims;
  NN_RETURN_IF_ERROR(readArray(ctx, kTraversalOrder, &order));
  NN_RETURN_IF_ERROR(readArray(ctx, kBlockMap, &blockMap));
  NN_RETURN_IF_ERROR(readArray(ctx, kDimFormat, &format));
  NN_RETURN_IF_ERROR(readArray(ctx, kDimensions, &dims));
  const uint32_t levels = order.size;
  if (levels == 0) return ctx.fail("input 1 (traversal order) must not be empty");
  if (ctx.numInputs() != kFirstLevelArray + 2ull * levels)
    return ctx.fail("a traversal order of %u levels needs %llu inputs, got %u", levels,
                    static_cast<unsigned long long>(kFirstLevelArray + 2ull * levels),
                    ctx.numInputs());
  if (format.size != levels)
    return ctx.fail("input 3 (dimension formats) has %u entries, expected %u (one per level)",
                    format.size, levels);
  if (dims.size != levels)
    return ctx.fail("input 4 (dimensions) has %u entries, expected %u (one per level)", dims.size,
                    levels);
  if (blockMap.size >= levels)
    return ctx.fail("input 2 (block map) has %u entries; it must have fewer than the %u levels",
                    blockMap.size, levels);
  if (!order.available || !blockMap.available || !dims.available) return kDeferred;

  const uint32_t rank = levels - blockMap.size;
  layout->levels = levels;
  layout->rank = rank;
  layout->levelSize.assign(levels, 0);
  layout->levelDim.assign(levels, 0);
  layout->levelStride.assign(levels, 0);
  layout->format.clear();
  if (format.available) {
    layout->format.assign(format.data, format.data + levels);
    for (uint32_t l = 0; l < levels; ++l)
      if (format[l] != kDense && format[l] != kSparseCsr)
        return ctx.fail("input 3 (dimension formats): level %u has format %d, expected 0 (dense) "
                        "or 1 (sparse CSR)", l, format[l]);
  }
  for (uint32_t l = 0; l < levels; ++l) {
    if (dims[l] < 0)
      return ctx.fail("input 4 (dimensions): level %u has negative size %d", l, dims[l]);
    layout->levelSize[l] = static_cast<uint32_t>(dims[l]);
  }
  // The first n levels walk the original dimensions and the rest the blocks, each exactly once.
  std::vector<uint8_t> seen(levels, 0);
  for (uint32_t l = 0; l < levels; ++l) {
    const int32_t t = order[l];
    const bool blockLevel = l >= rank;
    const int32_t lo = blockLevel ? static_cast<int32_t>(rank) : 0;
    const int32_t hi = blockLevel ? static_cast<int32_t>(levels) : static_cast<int32_t>(rank);
    if (t < lo || t >= hi)
      return ctx.fail("input 1 (traversal order): entry %u is %d, expected %s in [%d, %d)", l, t,
                      blockLevel ? "a block dimension" : "an original dimension", lo, hi);
    if (seen[t]++)
      return ctx.fail("input 1 (traversal order): dimension %d appears more than once", t);
    if (blockLevel) {
      const int32_t d = blockMap[t - rank];
      if (d < 0 || d >= static_cast<int32_t>(rank))
        return ctx.fail("input 2 (block map): entry %d is %d, expected an original dimension in "
                        "[0, %u)", t - static_cast<int32_t>(rank), d, rank);
      layout->levelDim[l] = static_cast<uint32_t>(d);
    } else {
      layout->levelDim[l] = static_cast<uint32_t>(t);
    }
  }
  // Output dimension d is its outer level's size times the sizes of the blocks refining it.
  // A coordinate step at a level moves by the row-major stride of its dimension times the
  // sizes of the blocks of that dimension traversed after it.
  std::vector<uint64_t> dimSize(rank, 1);
  for (uint32_t l = levels; l-- > 0;) {
    const uint32_t d = layout->levelDim[l];
    layout->levelStride[l] = dimSize[d];  // completed below with the row-major stride of d
    dimSize[d] *= layout->levelSize[l];
    if (dimSize[d] > kMaxOutputElements)
      return ctx.fail("output dimension %u would exceed %llu elements", d,
                      static_cast<unsigned long long>(kMaxOutputElements));
  }
  layout->outDims.assign(dimSize.begin(), dimSize.end());
  bool zeroSized = false;
  for (uint64_t n : dimSize) zeroSized = zeroSized || n == 0;
  uint64_t count = 1;
  uint64_t stride = 1;
  for (uint32_t d = rank; d-- > 0;) {
    for (uint32_t l = 0; l < levels; ++l)
      if (layout->levelDim[l] == d) layout->levelStride[l] *= stride;
    stride *= dimSize[d];
    if (zeroSized) {
      // Nothing is written; only keep the arithmetic from overflowing.
      stride = std::min(stride, kMaxOutputElements);
      continue;
    }
    count = stride;
    if (count > kMaxOutputElements)
      return ctx.fail("the output %s would exceed %llu elements",
                      toString(layout->outDims).c_str(),
                      static_cast<unsigned long long>(kMaxOutputElements));
  }
  layout->outCount = zeroSized ? 0 : count;
  return kOk;
}

// Checks the CSR arrays of every sparse level and that the structure addresses exactly the
// stored values. After this the traversal stays within every array and the output.
Status checkStructure(const ShapeContext& ctx, const Layout& layout, uint64_t valueCount,
                      std::vector<IntArray>* segmentsOut, std::vector<IntArray>* indicesOut) {
  std::vector<IntArray>& segments = *segmentsOut;
  std::vector<IntArray>& indices = *indicesOut;
  segments.assign(layout.levels, IntArray{});
  indices.assign(layout.levels, IntArray{});
  // Number of positions (parents) entering the current level.
  uint64_t positions = 1;
  for (uint32_t l = 0; l < layout.levels; ++l) {
    const uint32_t segInput = kFirstLevelArray + 2 * l;
    const uint32_t idxInput = segInput + 1;
    if (layout.format[l] == kDense) {
      // Saturates far above any array length, so an absurd count still fails the checks below.
      const uint64_t size = layout.levelSize[l];
      positions = size != 0 && positions > kPositionLimit / size ? kPositionLimit : positions * size;
      continue;
    }
    IntArray& seg = segments[l];
    IntArray& idx = indices[l];
    NN_RETURN_IF_ERROR(readArray(ctx, segInput, &seg));
    NN_RETURN_IF_ERROR(readArray(ctx, idxInput, &idx));
    if (!seg.available || !idx.available) return kDeferred;
    if (seg.size != positions + 1)
      return ctx.fail("input %u (level %u segments): expected %llu entries (one more than the %llu "
                      "positions of the level above), got %u", segInput, l,
                      static_cast<unsigned long long>(positions + 1),
                      static_cast<unsigned long long>(positions), seg.size);
    if (seg[0] != 0)
      return ctx.fail("input %u (level %u segments): must start at 0, got %d", segInput, l, seg[0]);
    for (uint32_t p = 0; p + 1 < seg.size; ++p) {
      if (seg[p + 1] < seg[p])
        return ctx.fail("input %u (level %u segments): not non-decreasing, entry %u is %d after "
                        "%d", segInput, l, p + 1, seg[p + 1], seg[p]);
    }
    if (static_cast<uint64_t>(seg[seg.size - 1]) != idx.size)
      return ctx.fail("input %u (level %u segments): ends at %d but input %u (indices) has %u "
                      "entries", segInput, l, seg[seg.size - 1], idxInput, idx.size);
    for (uint32_t i = 0; i < idx.size; ++i) {
      if (idx[i] < 0 || static_cast<uint32_t>(idx[i]) >= layout.levelSize[l])
        return ctx.fail("input %u (level %u indices): entry %u is %d, outside [0, %u)", idxInput, l,
                        i, idx[i], layout.levelSize[l]);
    }
    positions = idx.size;
  }
  if (positions != valueCount)
    return ctx.fail("the sparsity structure addresses %llu values but input 0 holds %llu",
                    static_cast<unsigned long long>(positions),
                    static_cast<unsigned long long>(valueCount));
  return kOk;
}

namespace {

Status validate(ValidationContext& c) {
  if (c.numInputs() < kFirstLevelArray || (c.numInputs() - kFirstLevelArray) % 2 != 0)
    return c.fail("expected 5 + 2 * (traversal levels) inputs, got %u", c.numInputs());
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  const OperandType type = c.inputType(kValues);
  if (!isSupportedValueType(type))
    return c.fail("input 0: unsupported type %s", toString(type));
  NN_RETURN_IF_ERROR(c.checkInputRank(kValues, 1));
  for (uint32_t i = 1; i < c.numInputs(); ++i) {
    NN_RETURN_IF_ERROR(c.checkInputType(i, OperandType::TENSOR_INT32));
    if (!c.isOmitted(i)) NN_RETURN_IF_ERROR(c.checkInputRank(i, 1));
  }
  if (c.isOmitted(kTraversalOrder) || c.isOmitted(kDimFormat) || c.isOmitted(kDimensions))
    return c.fail("inputs 1 (traversal order), 3 (formats) and 4 (dimensions) are required");
  const Operand& order = c.input(kTraversalOrder);
  if (order.dimensions.size() == 1 && order.dimensions[0] != 0 &&
      c.numInputs() != kFirstLevelArray + 2ull * order.dimensions[0])
    return c.fail("a traversal order of %u levels needs %llu inputs, got %u", order.dimensions[0],
                  static_cast<unsigned long long>(kFirstLevelArray + 2ull * order.dimensions[0]),
                  c.numInputs());
  if (c.outputType(0) != type)
    return c.fail("output 0: expected %s (the type of input 0), got %s", toString(type),
                  toString(c.outputType(0)));
  const Operand& in = c.input(kValues);
  const Operand& out = c.output(0);
  if (isQuantizedType(type) && (in.scale != out.scale || in.zeroPoint != out.zeroPoint))
    return c.fail("output 0: scale/zeroPoint %g/%d must equal input 0's %g/%d", out.scale,
                  out.zeroPoint, in.scale, in.zeroPoint);
  // The output rank is levels - blocks when both counts are known (an operand of dimensions
  // {0} that is not omitted has an unknown length).
  const Operand& blockMap = c.input(kBlockMap);
  const bool blocksKnown = c.isOmitted(kBlockMap) ||
                           (blockMap.dimensions.size() == 1 && blockMap.dimensions[0] != 0);
  if (!out.dimensions.empty() && blocksKnown && order.dimensions.size() == 1 &&
      order.dimensions[0] != 0) {
    const uint32_t levels = order.dimensions[0];
    const uint32_t blocks = c.isOmitted(kBlockMap) ? 0 : blockMap.dimensions[0];
    if (blocks >= levels)
      return c.fail("input 2 (block map) has %u entries; it must have fewer than the %u levels",
                    blocks, levels);
    if (out.dimensions.size() != levels - blocks)
      return c.fail("output 0: expected rank %u (levels %u - blocks %u), got %zu", levels - blocks,
                    levels, blocks, out.dimensions.size());
  }
  // Experimental: no feature level covers it, so none is required here.
  return kOk;
}

Status inferShapes(ShapeContext& ctx) {
  const Shape& values = ctx.inputShape(kValues);
  if (values.rank() != 1)
    return ctx.fail("input 0: expected rank 1 (the stored values), got rank %u", values.rank());
  Layout layout;
  NN_RETURN_IF_ERROR(buildLayout(ctx, &layout));
  // The CSR arrays do not change the shape; check them now when their values are known so a
  // malformed constant structure fails compilation.
  if (!layout.format.empty()) {
    std::vector<IntArray> segments, indices;
    const Status s = checkStructure(ctx, layout, values.dim(0), &segments, &indices);
    if (s != kOk && s != kDeferred) return s;
  }
  return ctx.setOutputDims(0, layout.outDims);
}

}  // namespace
}  // namespace densify

// The block map and the per-level CSR arrays are empty for unblocked tensors and dense levels;
// an empty constant (setOperandValue(NULL, 0)) or an empty model input (setInput(NULL, 0)) is
// recorded as omitted, so these inputs must be allowed to be. The optional-input mask covers
// 64 inputs, i.e. up to 29 traversal levels with omitted arrays.
NN_DEFINE_OPERATION_SPEC_OPTIONAL(DENSIFY, densify::validate, densify::inferShapes,
                                  {2,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18,
                                   19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33,
                                   34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
                                   49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63});

}  // namespace nn
