// TRANSPOSE on the CPU. The fast kernel first simplifies the permutation (drops size-1
// dimensions and merges input dimensions that stay adjacent), then either copies contiguous
// inner runs with memcpy or does a cache-tiled 2-D transpose per outer slab. The reference
// device uses a plain per-element index mapping.
#include <algorithm>
#include <cstring>
#include <vector>

#include "cpu/kernel.h"
#include "spec/ops/shape_util.h"
#include "spec/ops/transpose.h"

namespace nn {
namespace {

using namespace shape_ops;

template <typename T>
void transposeReference(const T* src, T* dst, const Dims& in, const std::vector<int32_t>& perm) {
  const size_t rank = in.size();
  const std::vector<size_t> inStrides = stridesOf(in);
  Dims out(rank);
  std::vector<size_t> srcStride(rank);
  for (size_t i = 0; i < rank; ++i) {
    out[i] = in[perm[i]];
    srcStride[i] = inStrides[perm[i]];
  }
  const size_t total = elementCount(out);
  std::vector<uint32_t> idx(rank, 0);
  for (size_t o = 0; o < total; ++o) {
    size_t s = 0;
    for (size_t k = 0; k < rank; ++k) s += idx[k] * srcStride[k];
    dst[o] = src[s];
    for (size_t k = rank; k-- > 0;) {
      if (++idx[k] < out[k]) break;
      idx[k] = 0;
    }
  }
}

// Drops size-1 dimensions and fuses input dimensions that remain consecutive in the output.
void simplify(const Dims& in, const std::vector<int32_t>& perm, Dims* dims,
              std::vector<int32_t>* newPerm) {
  std::vector<int32_t> keep;  // input dims kept, in input order
  std::vector<int32_t> remap(in.size(), -1);
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] != 1) {
      remap[i] = static_cast<int32_t>(keep.size());
      keep.push_back(static_cast<int32_t>(i));
    }
  }
  std::vector<int32_t> p;  // permutation over kept dims
  for (int32_t q : perm)
    if (remap[q] >= 0) p.push_back(remap[q]);
  Dims d;
  for (int32_t k : keep) d.push_back(in[k]);
  // Fuse runs p[j], p[j]+1, ... into one dimension.
  std::vector<int32_t> groupOf(d.size(), -1);
  std::vector<std::vector<int32_t>> groups;
  for (size_t j = 0; j < p.size(); ++j) {
    if (j > 0 && p[j] == p[j - 1] + 1) {
      groups.back().push_back(p[j]);
    } else {
      groups.push_back({p[j]});
    }
  }
  // Order groups by their first input dimension to get the fused input shape.
  std::vector<int32_t> order(groups.size());
  for (size_t g = 0; g < groups.size(); ++g) order[g] = static_cast<int32_t>(g);
  std::sort(order.begin(), order.end(),
            [&](int32_t a, int32_t b) { return groups[a][0] < groups[b][0]; });
  std::vector<int32_t> fusedIndex(groups.size());
  dims->clear();
  for (size_t k = 0; k < order.size(); ++k) {
    fusedIndex[order[k]] = static_cast<int32_t>(k);
    uint32_t size = 1;
    for (int32_t q : groups[order[k]]) size *= d[q];
    dims->push_back(size);
  }
  newPerm->clear();
  for (size_t g = 0; g < groups.size(); ++g) newPerm->push_back(fusedIndex[g]);
}

template <typename T>
void transposeFast(const T* src, T* dst, const Dims& inDims, const std::vector<int32_t>& permIn) {
  Dims in;
  std::vector<int32_t> perm;
  simplify(inDims, permIn, &in, &perm);
  const size_t rank = in.size();
  const size_t total = elementCount(in);
  bool identity = true;
  for (size_t i = 0; i < rank; ++i) identity = identity && perm[i] == static_cast<int32_t>(i);
  if (identity) {
    memcpy(dst, src, total * sizeof(T));
    return;
  }
  // Pad to rank 4 with leading size-1 dimensions so one loop nest serves every case.
  const size_t pad = 4 - rank;
  const std::vector<size_t> inStrides = stridesOf(in);
  uint32_t od[4];
  size_t ss[4];  // source stride for each output dimension
  for (size_t i = 0; i < 4; ++i) {
    if (i < pad) {
      od[i] = 1;
      ss[i] = 0;
    } else {
      od[i] = in[perm[i - pad]];
      ss[i] = inStrides[perm[i - pad]];
    }
  }
  if (ss[3] == 1) {
    // Innermost dimension unchanged (cannot happen after fusion unless identity), kept for safety.
    const size_t run = od[3];
    for (uint32_t a = 0; a < od[0]; ++a)
      for (uint32_t b = 0; b < od[1]; ++b)
        for (uint32_t c = 0; c < od[2]; ++c) {
          memcpy(dst, src + a * ss[0] + b * ss[1] + c * ss[2], run * sizeof(T));
          dst += run;
        }
    return;
  }
  // The output dimension j that reads the input's contiguous dimension (stride 1).
  size_t j = 0;
  for (size_t i = 0; i < 4; ++i)
    if (ss[i] == 1 && od[i] != 1) j = i;
  size_t ds[4];
  ds[3] = 1;
  for (size_t i = 3; i-- > 0;) ds[i] = ds[i + 1] * od[i + 1];
  // Loop over the two dimensions (j, 3) in tiles; the others form the outer slabs.
  constexpr uint32_t kTile = 32;
  uint32_t ext[4] = {od[0], od[1], od[2], od[3]};
  ext[j] = 1;
  ext[3] = 1;
  for (uint32_t a = 0; a < ext[0]; ++a)
    for (uint32_t b = 0; b < ext[1]; ++b)
      for (uint32_t c = 0; c < ext[2]; ++c) {
        const T* s0 = src + a * ss[0] + b * ss[1] + c * ss[2];
        T* d0 = dst + a * ds[0] + b * ds[1] + c * ds[2];
        for (uint32_t r0 = 0; r0 < od[j]; r0 += kTile) {
          const uint32_t r1 = std::min(od[j], r0 + kTile);
          for (uint32_t c0 = 0; c0 < od[3]; c0 += kTile) {
            const uint32_t c1 = std::min(od[3], c0 + kTile);
            for (uint32_t r = r0; r < r1; ++r) {
              const T* s = s0 + r;  // ss[j] == 1
              T* d = d0 + r * ds[j];
              for (uint32_t q = c0; q < c1; ++q) d[q] = s[q * ss[3]];
            }
          }
        }
      }
}

// Runs `kernel(src, dst, inDims, perm)` for the element width of input 0.
template <typename Kernel>
Status run(OpContext& ctx, Kernel kernel) {
  const Shape& in = ctx.inputShape(0);
  if (in.count() == 0) return kOk;
  std::vector<int32_t> perm;
  NN_RETURN_IF_ERROR(transpose_ops::readPerm(ctx, &perm));
  return withElementType(elementSize(in.type), [&](auto tag) {
    using T = decltype(tag);
    kernel(ctx.input<T>(0), ctx.output<T>(0), in.dims, perm);
    return kOk;
  });
}

Status execute(OpContext& ctx) {
  return run(ctx, [](auto src, auto dst, const Dims& in, const std::vector<int32_t>& perm) {
    transposeFast(src, dst, in, perm);
  });
}

Status executeReference(OpContext& ctx) {
  return run(ctx, [](auto src, auto dst, const Dims& in, const std::vector<int32_t>& perm) {
    transposeReference(src, dst, in, perm);
  });
}

}  // namespace

NN_DEFINE_CPU_KERNEL_FULL(TRANSPOSE, execute, executeReference, nullptr, nullptr);

}  // namespace nn
