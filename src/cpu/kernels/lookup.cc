// EMBEDDING_LOOKUP and HASHTABLE_LOOKUP on the CPU: select rows (slices along dimension 0)
// of a values tensor; each selected row is one memcpy.
#include <algorithm>
#include <cstring>

#include "cpu/kernel.h"

namespace nn {
namespace {

size_t rowBytes(const Shape& values) {
  size_t n = elementSize(values.type);
  for (size_t i = 1; i < values.dims.size(); ++i) n *= values.dims[i];
  return n;
}

// ---- EMBEDDING_LOOKUP -------------------------------------------------------------------

Status executeEmbeddingLookup(OpContext& ctx) {
  const Shape& values = ctx.inputShape(1);
  const uint32_t k = ctx.inputShape(0).dims[0];
  const int32_t* lookups = ctx.input<int32_t>(0);
  const size_t row = rowBytes(values);
  const uint8_t* src = ctx.input<uint8_t>(1);
  uint8_t* dst = ctx.output<uint8_t>(0);
  for (uint32_t i = 0; i < k; ++i) {
    const int32_t idx = lookups[i];
    if (idx < 0 || static_cast<uint32_t>(idx) >= values.dims[0])
      return ctx.fail("input 0 (lookups): entry %u is %d, out of range [0, %u)", i, idx,
                      values.dims[0]);
    if (row) memcpy(dst + i * row, src + size_t(idx) * row, row);
  }
  return kOk;
}

// ---- HASHTABLE_LOOKUP -------------------------------------------------------------------

Status executeHashtableLookup(OpContext& ctx) {
  const Shape& values = ctx.inputShape(2);
  const uint32_t k = ctx.inputShape(0).dims[0];
  const uint32_t n = ctx.inputShape(1).dims[0];
  const int32_t* lookups = ctx.input<int32_t>(0);
  const int32_t* keys = ctx.input<int32_t>(1);
  const size_t row = rowBytes(values);
  const uint8_t* src = ctx.input<uint8_t>(2);
  uint8_t* dst = ctx.output<uint8_t>(0);
  uint8_t* hits = ctx.output<uint8_t>(1);
  for (uint32_t i = 0; i < k; ++i) {
    // Keys are sorted ascending (a documented precondition), so binary search finds the row.
    const int32_t* it = std::lower_bound(keys, keys + n, lookups[i]);
    const bool hit = it != keys + n && *it == lookups[i];
    hits[i] = hit ? 1 : 0;
    if (row == 0) continue;
    if (hit) memcpy(dst + i * row, src + size_t(it - keys) * row, row);
    else memset(dst + i * row, 0, row);
  }
  return kOk;
}

}  // namespace

NN_DEFINE_CPU_KERNEL(EMBEDDING_LOOKUP, executeEmbeddingLookup);
NN_DEFINE_CPU_KERNEL(HASHTABLE_LOOKUP, executeHashtableLookup);

}  // namespace nn
