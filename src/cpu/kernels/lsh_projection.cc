// LSH_PROJECTION kernel: projects the rows of the input to bits by the sign of a (weighted)
// sum of row hashes, one bit per hash seed.
//
// The NNAPI reference hashes, for every seed and input row, the bytes of the seed as a float32
// followed by the raw bytes of the row with FarmHash's Fingerprint64 (farmhash "na" Hash64),
// converts the signed 64-bit fingerprint to double, weights it and sums over rows; the bit is
// 1 when the sum is > 0. The fingerprint below is an implementation of that public algorithm,
// checked against the conformance vectors.
#include <cstring>
#include <utility>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/recurrent_util.h"
#include "spec/ops/recurrent.h"

namespace nn {
namespace {

// ---- FarmHash Fingerprint64 (farmhashna::Hash64) -----------------------------------------

constexpr uint64_t kK0 = 0xc3a5c85c97cb3127ULL;
constexpr uint64_t kK1 = 0xb492b66fbe98f273ULL;
constexpr uint64_t kK2 = 0x9ae16a3b2f90404fULL;

inline uint64_t load64(const uint8_t* p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;  // little-endian host (x86-64 / aarch64 Linux)
}
inline uint32_t load32(const uint8_t* p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
inline uint64_t rotr(uint64_t v, int s) { return s == 0 ? v : (v >> s) | (v << (64 - s)); }
inline uint64_t shiftMix(uint64_t v) { return v ^ (v >> 47); }

inline uint64_t hash16(uint64_t u, uint64_t v, uint64_t mul) {
  uint64_t a = (u ^ v) * mul;
  a ^= a >> 47;
  uint64_t b = (v ^ a) * mul;
  b ^= b >> 47;
  return b * mul;
}

uint64_t hashLen0to16(const uint8_t* s, size_t len) {
  if (len >= 8) {
    const uint64_t mul = kK2 + len * 2;
    const uint64_t a = load64(s) + kK2;
    const uint64_t b = load64(s + len - 8);
    const uint64_t c = rotr(b, 37) * mul + a;
    const uint64_t d = (rotr(a, 25) + b) * mul;
    return hash16(c, d, mul);
  }
  if (len >= 4) {
    const uint64_t mul = kK2 + len * 2;
    const uint64_t a = load32(s);
    return hash16(len + (a << 3), load32(s + len - 4), mul);
  }
  if (len > 0) {
    const uint32_t y = static_cast<uint32_t>(s[0]) + (static_cast<uint32_t>(s[len >> 1]) << 8);
    const uint32_t z = static_cast<uint32_t>(len) + (static_cast<uint32_t>(s[len - 1]) << 2);
    return shiftMix(y * kK2 ^ z * kK0) * kK2;
  }
  return kK2;
}

uint64_t hashLen17to32(const uint8_t* s, size_t len) {
  const uint64_t mul = kK2 + len * 2;
  const uint64_t a = load64(s) * kK1;
  const uint64_t b = load64(s + 8);
  const uint64_t c = load64(s + len - 8) * mul;
  const uint64_t d = load64(s + len - 16) * kK2;
  return hash16(rotr(a + b, 43) + rotr(c, 30) + d, a + rotr(b + kK2, 18) + c, mul);
}

uint64_t hashLen33to64(const uint8_t* s, size_t len) {
  const uint64_t mul = kK2 + len * 2;
  const uint64_t a = load64(s) * kK2;
  const uint64_t b = load64(s + 8);
  const uint64_t c = load64(s + len - 8) * mul;
  const uint64_t d = load64(s + len - 16) * kK2;
  const uint64_t y = rotr(a + b, 43) + rotr(c, 30) + d;
  const uint64_t z = hash16(y, a + rotr(b + kK2, 18) + c, mul);
  const uint64_t e = load64(s + 16) * mul;
  const uint64_t f = load64(s + 24);
  const uint64_t g = (y + load64(s + len - 32)) * mul;
  const uint64_t h = (z + load64(s + len - 24)) * mul;
  return hash16(rotr(e + f, 43) + rotr(g, 30) + h, e + rotr(f + a, 18) + g, mul);
}

// 16 bytes of state from 32 input bytes plus two seeds.
inline std::pair<uint64_t, uint64_t> weakHash32(const uint8_t* s, uint64_t a, uint64_t b) {
  const uint64_t w = load64(s), x = load64(s + 8), y = load64(s + 16), z = load64(s + 24);
  a += w;
  b = rotr(b + a + z, 21);
  const uint64_t c = a;
  a += x;
  a += y;
  b += rotr(a, 44);
  return {a + z, b + c};
}

}  // namespace

// Exposed (not in a header) for the unit tests.
uint64_t lshFingerprint64(const uint8_t* s, size_t len) {
  if (len <= 16) return hashLen0to16(s, len);
  if (len <= 32) return hashLen17to32(s, len);
  if (len <= 64) return hashLen33to64(s, len);

  const uint64_t seed = 81;
  uint64_t x = seed;
  uint64_t y = seed * kK1 + 113;
  uint64_t z = shiftMix(y * kK2 + 113) * kK2;
  std::pair<uint64_t, uint64_t> v{0, 0}, w{0, 0};
  x = x * kK2 + load64(s);

  // The loop consumes 64-byte blocks and leaves 1..64 bytes, handled as the last 64 bytes.
  const uint8_t* end = s + ((len - 1) / 64) * 64;
  const uint8_t* last64 = end + ((len - 1) & 63) - 63;
  do {
    x = rotr(x + y + v.first + load64(s + 8), 37) * kK1;
    y = rotr(y + v.second + load64(s + 48), 42) * kK1;
    x ^= w.second;
    y += v.first + load64(s + 40);
    z = rotr(z + w.first, 33) * kK1;
    v = weakHash32(s, v.second * kK1, x + w.first);
    w = weakHash32(s + 32, z + w.second, y + load64(s + 16));
    std::swap(z, x);
    s += 64;
  } while (s != end);
  const uint64_t mul = kK1 + ((z & 0xff) << 1);
  s = last64;
  w.first += ((len - 1) & 63);
  v.first += w.first;
  w.first += v.first;
  x = rotr(x + y + v.first + load64(s + 8), 37) * mul;
  y = rotr(y + v.second + load64(s + 48), 42) * mul;
  x ^= w.second * 9;
  y += v.first * 9 + load64(s + 40);
  z = rotr(z + w.first, 33) * mul;
  v = weakHash32(s, v.second * mul, x + w.first);
  w = weakHash32(s + 32, z + w.second, y + load64(s + 16));
  std::swap(z, x);
  return hash16(hash16(v.first, w.first, mul) + shiftMix(y) * kK0 + z,
                hash16(v.second, w.second, mul) + x, mul);
}

namespace {

using namespace lsh;  // NOLINT: the operand numbering and projection types

Status execute(OpContext& ctx) {
  NN_RETURN_IF_ERROR(checkWeight(ctx));
  const int32_t type = ctx.scalar<int32_t>(kType);
  const Shape& hash = ctx.inputShape(kHash);
  const Shape& input = ctx.inputShape(kInput);
  const uint32_t numHash = hash.dim(0), numBits = hash.dim(1);
  const uint32_t rows = input.dim(0);
  recurrent::FloatIn seeds(ctx, kHash);
  recurrent::FloatIn weights(ctx, kWeight);  // null when omitted: every row weighs 1
  const uint8_t* inBytes = static_cast<const uint8_t*>(ctx.inputData(kInput));
  const size_t rowBytes = rows == 0 ? 0 : input.bytes() / rows;

  std::vector<uint8_t> key(sizeof(float) + rowBytes);
  auto signBit = [&](float seed) -> int32_t {
    double score = 0.0;
    memcpy(key.data(), &seed, sizeof(float));
    for (uint32_t r = 0; r < rows; ++r) {
      if (rowBytes) memcpy(key.data() + sizeof(float), inBytes + r * rowBytes, rowBytes);
      const int64_t fp = static_cast<int64_t>(lshFingerprint64(key.data(), key.size()));
      const double value = static_cast<double>(fp);
      score += weights ? static_cast<double>(weights.get()[r]) * value : value;
    }
    return score > 0 ? 1 : 0;
  };

  int32_t* out = ctx.output<int32_t>(0);
  const float* s = seeds.get();
  for (uint32_t i = 0; i < numHash; ++i) {
    if (type == kDense) {
      for (uint32_t j = 0; j < numBits; ++j) *out++ = signBit(s[i * numBits + j]);
    } else {
      uint32_t signature = 0;
      for (uint32_t j = 0; j < numBits; ++j)
        signature = (signature << 1) | static_cast<uint32_t>(signBit(s[i * numBits + j]));
      if (type == kSparse) signature += i * (numBits >= 32 ? 0u : (1u << numBits));
      *out++ = static_cast<int32_t>(signature);
    }
  }
  return kOk;
}

}  // namespace

NN_DEFINE_CPU_KERNEL(LSH_PROJECTION, execute);

}  // namespace nn
