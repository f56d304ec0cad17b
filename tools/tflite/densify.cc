// Sparse (TACO-format) constant tensors -> dense bytes, for folding DENSIFY at import.
//
// The stored values are visited in traversal order: a DENSE level enumerates 0..dense_size-1, a
// SPARSE_CSR level enumerates the coordinates listed in array_indices for the segment of its
// parent position. The last k traversal dimensions are block dimensions: block b refines original
// dimension block_map[b], whose coordinate is outer * block_size + inner.
#include <cstring>
#include <string>
#include <vector>

#include "tflite_model.h"

namespace nnapi_tflite {

namespace {

constexpr size_t kMaxLevels = 8;

struct Densifier {
  const Tensor& t;
  const Sparsity& sp;
  const uint8_t* values;
  size_t value_count;
  size_t es;
  size_t n;                          // original rank
  std::vector<int64_t> level_size;   // size of each traversal level's dimension
  std::vector<int32_t> coord;        // current coordinate per traversal level
  std::vector<int64_t> block_size;   // per original dim (1 = not blocked)
  std::vector<int64_t> block_level;  // per original dim: traversal level of its block dim, -1 if none
  std::vector<int64_t> outer_level;  // per original dim: traversal level of its outer dim
  std::vector<int64_t> strides;      // dense row-major strides of the original shape
  std::vector<uint8_t>* out;
  std::string err;

  bool Fail(const std::string& m) {
    if (err.empty()) err = m;
    return false;
  }

  bool Visit(size_t level, size_t pos) {
    if (level == sp.dim_metadata.size()) {
      if (pos >= value_count) return Fail("sparse value index " + std::to_string(pos) + " beyond the " +
                                          std::to_string(value_count) + " stored values");
      size_t linear = 0;
      for (size_t d = 0; d < n; ++d) {
        int64_t c = coord[static_cast<size_t>(outer_level[d])];
        if (block_level[d] >= 0) c = c * block_size[d] + coord[static_cast<size_t>(block_level[d])];
        linear += static_cast<size_t>(c) * static_cast<size_t>(strides[d]);
      }
      std::memcpy(out->data() + linear * es, values + pos * es, es);
      return true;
    }
    const DimensionMetadata& m = sp.dim_metadata[level];
    if (m.format == DimensionMetadata::kDense) {
      for (int64_t i = 0; i < m.dense_size; ++i) {
        coord[level] = static_cast<int32_t>(i);
        if (!Visit(level + 1, pos * static_cast<size_t>(m.dense_size) + static_cast<size_t>(i))) return false;
      }
      return true;
    }
    if (pos + 1 >= m.array_segments.size()) {
      return Fail("sparsity level " + std::to_string(level) + ": segment " + std::to_string(pos) + " missing");
    }
    int64_t lo = m.array_segments[pos], hi = m.array_segments[pos + 1];
    if (lo < 0 || hi < lo || static_cast<size_t>(hi) > m.array_indices.size()) {
      return Fail("sparsity level " + std::to_string(level) + ": bad segment [" + std::to_string(lo) + ", " +
                  std::to_string(hi) + ")");
    }
    for (int64_t i = lo; i < hi; ++i) {
      int32_t c = m.array_indices[static_cast<size_t>(i)];
      if (c < 0 || c >= level_size[level]) {
        return Fail("sparsity level " + std::to_string(level) + ": index " + std::to_string(c) + " out of range " +
                    std::to_string(level_size[level]));
      }
      coord[level] = c;
      if (!Visit(level + 1, static_cast<size_t>(i))) return false;
    }
    return true;
  }
};

}  // namespace

bool DensifyTensor(const Tensor& t, const uint8_t* values, size_t value_bytes, std::vector<uint8_t>* dense,
                   std::string* error) {
  auto fail = [&](const std::string& m) {
    *error = "sparse tensor '" + t.name + "': " + m;
    return false;
  };
  if (!t.is_sparse) return fail("not sparse");
  const Sparsity& sp = t.sparsity;
  const size_t es = TensorTypeSize(t.type);
  if (es == 0) return fail(std::string("type ") + TensorTypeName(t.type) + " cannot be densified");
  const size_t n = t.shape.size(), levels = sp.traversal_order.size(), k = sp.block_map.size();
  if (levels != n + k || sp.dim_metadata.size() != levels || levels > kMaxLevels) {
    return fail("traversal_order has " + std::to_string(levels) + " entries, dim_metadata " +
                std::to_string(sp.dim_metadata.size()) + ", rank " + std::to_string(n) + " + " + std::to_string(k) +
                " block dims");
  }
  std::vector<bool> seen(levels, false);
  for (size_t i = 0; i < levels; ++i) {
    int32_t d = sp.traversal_order[i];
    bool ok = d >= 0 && static_cast<size_t>(d) < levels && !seen[static_cast<size_t>(d)] &&
              (i < n) == (static_cast<size_t>(d) < n);
    if (!ok) return fail("traversal_order is not a valid permutation");
    seen[static_cast<size_t>(d)] = true;
  }
  uint64_t total = 1;
  for (int32_t d : t.shape) {
    if (d < 0) return fail("negative dimension");
    total *= static_cast<uint64_t>(d);
    if (total > (uint64_t{1} << 32)) return fail("too many elements");
  }

  Densifier z{t, sp, values, value_bytes / es, es, n, {}, {}, {}, {}, {}, {}, dense, {}};
  z.block_size.assign(n, 1);
  z.block_level.assign(n, -1);
  z.outer_level.assign(n, -1);
  std::vector<int64_t> dim_size(levels, 0);  // blocked size of each (original or block) dimension
  for (size_t d = 0; d < n; ++d) dim_size[d] = t.shape[d];
  for (size_t i = 0; i < levels; ++i) {
    size_t d = static_cast<size_t>(sp.traversal_order[i]);
    if (d < n) {
      z.outer_level[d] = static_cast<int64_t>(i);
    } else {
      size_t b = d - n;
      int32_t orig = sp.block_map[b];
      if (orig < 0 || static_cast<size_t>(orig) >= n || z.block_level[static_cast<size_t>(orig)] >= 0) {
        return fail("block_map entry " + std::to_string(orig) + " invalid");
      }
      const DimensionMetadata& m = sp.dim_metadata[i];
      if (m.format != DimensionMetadata::kDense || m.dense_size <= 0 || t.shape[static_cast<size_t>(orig)] % m.dense_size) {
        return fail("block dimension " + std::to_string(b) + " must be dense with a size dividing dimension " +
                    std::to_string(orig));
      }
      z.block_level[static_cast<size_t>(orig)] = static_cast<int64_t>(i);
      z.block_size[static_cast<size_t>(orig)] = m.dense_size;
      dim_size[d] = m.dense_size;
    }
  }
  for (size_t d = 0; d < n; ++d) dim_size[d] /= z.block_size[d];
  z.level_size.resize(levels);
  uint64_t positions = 1;
  for (size_t i = 0; i < levels; ++i) {
    z.level_size[i] = dim_size[static_cast<size_t>(sp.traversal_order[i])];
    const DimensionMetadata& m = sp.dim_metadata[i];
    if (m.format == DimensionMetadata::kDense) {
      if (m.dense_size != z.level_size[i]) {
        return fail("dense level " + std::to_string(i) + " has size " + std::to_string(m.dense_size) + ", expected " +
                    std::to_string(z.level_size[i]));
      }
      positions *= static_cast<uint64_t>(m.dense_size);
    } else {
      if (m.array_segments.size() != positions + 1) {
        return fail("sparse level " + std::to_string(i) + " has " + std::to_string(m.array_segments.size()) +
                    " segment bounds, expected " + std::to_string(positions + 1));
      }
      positions = m.array_indices.size();
    }
    if (positions > total) return fail("more stored positions than dense elements");
  }
  if (positions != z.value_count || value_bytes % es) {
    return fail(std::to_string(positions) + " stored positions but " + std::to_string(value_bytes) + " value bytes");
  }
  // A legitimately sparse tensor expands, but not without bound: cap the dense size relative to
  // what is stored (98% sparsity still fits) and absolutely.
  const uint64_t dense_bytes = total * es;
  if (dense_bytes > 64 * static_cast<uint64_t>(value_bytes) + (1u << 20) || dense_bytes > (uint64_t{1} << 30)) {
    return fail("dense form (" + std::to_string(dense_bytes) + " bytes) is implausibly large for " +
                std::to_string(value_bytes) + " stored bytes");
  }
  z.strides.assign(n, 1);
  for (size_t d = n; d-- > 1;) z.strides[d - 1] = z.strides[d] * t.shape[d];
  z.coord.assign(levels, 0);
  dense->assign(static_cast<size_t>(total) * es, 0);
  if (total == 0) return true;
  if (!z.Visit(0, 0)) return fail(z.err);
  return true;
}

}  // namespace nnapi_tflite
