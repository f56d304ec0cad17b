// DENSIFY kernel (experimental, code 20000): expands a tensor stored in TFLite's sparse format
// into a dense one, after checking the sparse structure again (spec/ops/densify.h).
#include <algorithm>
#include <vector>

#include "cpu/kernel.h"
#include "spec/ops/densify.h"

namespace nn {
namespace densify {
namespace {

bool hasZeroPoint(OperandType t) {
  return t == OperandType::TENSOR_QUANT8_ASYMM || t == OperandType::TENSOR_QUANT8_ASYMM_SIGNED ||
         t == OperandType::TENSOR_QUANT16_ASYMM;
}

template <typename T>
void scatter(const Layout& layout, const std::vector<IntArray>& segments,
             const std::vector<IntArray>& indices, const T* values, T zero, T* out) {
  std::fill(out, out + layout.outCount, zero);
  if (layout.outCount == 0) return;
  const uint32_t levels = layout.levels;
  // Depth-first walk without recursion: per level the current and end position, the dense
  // base position and the output offset accumulated from the levels above.
  std::vector<uint64_t> cur(levels), end(levels), base(levels), offset(levels + 1, 0);
  auto enter = [&](uint32_t l, uint64_t parent) {
    if (layout.format[l] == kDense) {
      base[l] = parent * layout.levelSize[l];
      cur[l] = 0;
      end[l] = layout.levelSize[l];
    } else {
      cur[l] = static_cast<uint64_t>(segments[l][parent]);
      end[l] = static_cast<uint64_t>(segments[l][parent + 1]);
    }
  };
  enter(0, 0);
  uint32_t l = 0;
  for (;;) {
    if (cur[l] == end[l]) {
      if (l == 0) break;
      --l;
      ++cur[l];
      continue;
    }
    const bool dense = layout.format[l] == kDense;
    const uint64_t coord = dense ? cur[l] : static_cast<uint64_t>(indices[l][cur[l]]);
    const uint64_t position = dense ? base[l] + cur[l] : cur[l];
    offset[l + 1] = offset[l] + coord * layout.levelStride[l];
    if (l + 1 == levels) {
      out[offset[l + 1]] = values[position];
      ++cur[l];
    } else {
      ++l;
      enter(l, position);
    }
  }
}

Status execute(OpContext& ctx) {
  Layout layout;
  const Status ls = buildLayout(ctx, &layout);
  if (ls == kDeferred) return ctx.fail("the sparsity metadata has no value at execution");
  NN_RETURN_IF_ERROR(ls);
  if (layout.format.empty()) return ctx.fail("input 3 (dimension formats) has no value");
  if (layout.outDims != ctx.outputShape(0).dims)
    return ctx.fail("output 0: shape %s does not match the sparsity metadata %s",
                    toString(ctx.outputShape(0).dims).c_str(), toString(layout.outDims).c_str());
  const Shape& valuesShape = ctx.inputShape(kValues);
  std::vector<IntArray> segments, indices;
  const Status ss = checkStructure(ctx, layout, valuesShape.dim(0), &segments, &indices);
  if (ss == kDeferred) return ctx.fail("a segments/indices input has no value at execution");
  NN_RETURN_IF_ERROR(ss);
  if (layout.outCount == 0) return kOk;

  const OperandType type = valuesShape.type;
  const int32_t zp = hasZeroPoint(type) ? valuesShape.zeroPoint : 0;
  switch (elementSize(type)) {
    case 1: {
      // uint8 and int8 storage share the bit pattern of the zero point's low byte.
      const uint8_t zero = static_cast<uint8_t>(zp);
      scatter(layout, segments, indices, ctx.input<uint8_t>(kValues), zero,
              ctx.output<uint8_t>(0));
      return kOk;
    }
    case 2: {
      const uint16_t zero = static_cast<uint16_t>(zp);
      scatter(layout, segments, indices, ctx.input<uint16_t>(kValues), zero,
              ctx.output<uint16_t>(0));
      return kOk;
    }
    case 4:
      // Float zero and integer zero are both all-zero bits.
      scatter(layout, segments, indices, ctx.input<uint32_t>(kValues), uint32_t{0},
              ctx.output<uint32_t>(0));
      return kOk;
    default:
      return ctx.fail("input 0: unsupported type %s", toString(type));
  }
}

}  // namespace
}  // namespace densify

NN_DEFINE_CPU_KERNEL(DENSIFY, densify::execute);

}  // namespace nn
