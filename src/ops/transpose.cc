// TRANSPOSE. The fast path first simplifies the permutation (drops size-1 dimensions and
// merges input dimensions that stay adjacent), then either copies contiguous inner runs
// with memcpy or does a cache-tiled 2-D transpose per outer slab. The reference device
// uses a plain per-element index mapping.
#include "ops/operation.h"
#include "ops/reduce_util.h"

namespace nn {
namespace {

using namespace shape_ops;

Status validateTranspose(ValidationContext& c) {
  NN_RETURN_IF_ERROR(reduce_ops::validateDataTensorOp(c, 1, 2));
  if (hasOptionalInput(c, 1)) {
    NN_RETURN_IF_ERROR(c.checkInputType(1, kI32));
    NN_RETURN_IF_ERROR(c.checkInputRank(1, 1));
  }
  return checkOutputLikeInput(c, 0, 0);
}

// The permutation, defaulting to the reversed dimension order.
Status readPerm(OpContext& ctx, std::vector<int32_t>* perm) {
  const uint32_t rank = ctx.inputShape(0).rank();
  perm->resize(rank);
  if (ctx.numInputs() < 2 || ctx.isOmitted(1)) {
    for (uint32_t i = 0; i < rank; ++i) (*perm)[i] = static_cast<int32_t>(rank - 1 - i);
    return kOk;
  }
  if (!ctx.hasInputData(1)) return kDeferred;
  const Shape& p = ctx.inputShape(1);
  if (p.rank() != 1 || p.dims[0] != rank)
    return ctx.fail("input 1 (perm): expected shape [%u], got %s", rank, toString(p.dims).c_str());
  *perm = readInt32Vector(ctx, 1);
  std::vector<bool> seen(rank, false);
  for (uint32_t i = 0; i < rank; ++i) {
    const int32_t v = (*perm)[i];
    if (v < 0 || v >= static_cast<int32_t>(rank))
      return ctx.fail("input 1 (perm): entry %u is %d, out of range [0, %u)", i, v, rank);
    if (seen[v]) return ctx.fail("input 1 (perm): %d appears twice; not a permutation", v);
    seen[v] = true;
  }
  return kOk;
}

Status prepareTranspose(OpContext& ctx) {
  const Dims& in = ctx.inputShape(0).dims;
  if (in.size() > 4) return ctx.fail("input 0: rank %zu exceeds the maximum 4", in.size());
  std::vector<int32_t> perm;
  NN_RETURN_IF_ERROR(readPerm(ctx, &perm));
  Dims out(in.size());
  for (size_t i = 0; i < in.size(); ++i) out[i] = in[perm[i]];
  return ctx.setOutputDims(0, std::move(out));
}

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

Status executeTranspose(OpContext& ctx) {
  const Shape& in = ctx.inputShape(0);
  if (in.count() == 0) return kOk;
  std::vector<int32_t> perm;
  NN_RETURN_IF_ERROR(readPerm(ctx, &perm));
  const bool reference = ctx.useReferenceKernels();
  return withElementType(elementSize(in.type), [&](auto tag) {
    using T = decltype(tag);
    const T* src = ctx.input<T>(0);
    T* dst = ctx.output<T>(0);
    if (reference) {
      transposeReference(src, dst, in.dims, perm);
    } else {
      transposeFast(src, dst, in.dims, perm);
    }
    return kOk;
  });
}

}  // namespace

NN_REGISTER_OPERATION(TRANSPOSE, validateTranspose, prepareTranspose, executeTranspose);

}  // namespace nn

namespace nn {
NN_OPTIONAL_INPUTS(TRANSPOSE, {1});  // perm: omitted reverses the axes
}  // namespace nn
