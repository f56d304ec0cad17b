// The AMX-INT8 quant8 GEMM (src/cpu/kernels/conv_amx.h) against the GEMM the ISA table picks
// (VNNI / AVX-512 / portable, through fastFullyConnectedQuant on weights without the AMX copy)
// and a scalar reference written here: every output byte must be equal. The GEMM runs with the
// portable emulation of the tile instructions everywhere, and with the tile unit itself where
// AMX-INT8 is usable, on shapes whose rows, columns and depth are not multiples of the tiles,
// uint8 and int8 data, per-tensor and per-channel filters, nonzero zero points.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cpu/isa.h"
#include "cpu/kernels/conv_amx.h"
#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/conv_fast.h"
#include "cpu/thread_pool.h"

namespace nn {
namespace conv {
namespace {

struct Case {
  uint32_t m, n, k;
  bool signedData;
  bool perChannel;  // filter int8 with zero point 0 (else uint8/int8 with a zero point)
};

struct Problem {
  Case c;
  std::vector<uint8_t> input, weights;
  std::vector<int32_t> bias;
  QuantParams q;
  int32_t filterZero = 0;
  bool unsignedFilter = true;
};

Problem makeProblem(const Case& c, uint32_t seed) {
  std::mt19937 rng(seed);
  Problem p;
  p.c = c;
  p.input.resize(static_cast<size_t>(c.m) * c.k);
  p.weights.resize(static_cast<size_t>(c.n) * c.k);
  for (auto& b : p.input) b = static_cast<uint8_t>(rng());
  for (auto& b : p.weights) b = static_cast<uint8_t>(rng());
  p.bias.resize(c.n);
  for (auto& b : p.bias) b = static_cast<int32_t>(rng() % 20001) - 10000;
  p.unsignedFilter = !c.perChannel && !c.signedData;
  p.filterZero = c.perChannel ? 0 : static_cast<int32_t>(rng() % 200) - (p.unsignedFilter ? 0 : 100);
  p.q.inputZeroPoint = static_cast<int32_t>(rng() % 200) - (c.signedData ? 100 : 0);
  p.q.filterZeroPoint = p.filterZero;
  p.q.outputZeroPoint = static_cast<int32_t>(rng() % 100) - (c.signedData ? 50 : 0);
  p.q.actMin = c.signedData ? -128 : 0;
  p.q.actMax = c.signedData ? 127 : 255;
  if (rng() % 2) p.q.actMin += 10;  // a fused activation's narrower range now and then
  for (uint32_t i = 0; i < c.n; ++i) {
    p.q.multiplier.push_back(static_cast<int32_t>((1u << 30) + rng() % (1u << 30)));
    p.q.shift.push_back(-static_cast<int32_t>(6 + rng() % 8) - (c.k > 512 ? 2 : 0));
  }
  return p;
}

// The definition: requantize(bias + sum (a - za)(w - zw)) + outZero, clamped.
std::vector<uint8_t> reference(const Problem& p) {
  const Case& c = p.c;
  std::vector<uint8_t> out(static_cast<size_t>(c.m) * c.n);
  auto value = [](uint8_t b, bool isSigned) {
    return isSigned ? static_cast<int32_t>(static_cast<int8_t>(b)) : static_cast<int32_t>(b);
  };
  for (uint32_t r = 0; r < c.m; ++r)
    for (uint32_t col = 0; col < c.n; ++col) {
      int64_t sum = p.bias[col];
      for (uint32_t i = 0; i < c.k; ++i)
        sum += static_cast<int64_t>(value(p.input[r * c.k + i], c.signedData) - p.q.inputZeroPoint) *
               (value(p.weights[col * c.k + i], !p.unsignedFilter) - p.filterZero);
      int32_t v = requantize(static_cast<int32_t>(sum), p.q.multiplier[col], p.q.shift[col]) +
                  p.q.outputZeroPoint;
      v = std::max(p.q.actMin, std::min(p.q.actMax, v));
      out[static_cast<size_t>(r) * c.n + col] = static_cast<uint8_t>(v);
    }
  return out;
}

std::string describe(const Case& c) {
  return "m=" + std::to_string(c.m) + " n=" + std::to_string(c.n) + " k=" + std::to_string(c.k) +
         (c.signedData ? " int8" : " uint8") + (c.perChannel ? " per-channel" : "");
}

const Case kCases[] = {
    {1, 1, 1, false, false},     {16, 32, 64, false, false},  {33, 45, 67, false, false},
    {31, 70, 5, true, false},    {100, 33, 130, true, true},  {47, 96, 256, false, true},
    {64, 1001, 200, false, false}, {49, 130, 1024, true, true}, {200, 24, 16, false, false},
    {17, 31, 3, true, true},     {96, 64, 33, true, false},   {50, 17, 300, false, true},
};

TEST(ConvAmx, GemmMatchesTableGemmAndReference) {
  ThreadPool pool(2);
  uint32_t seed = 1;
  for (const Case& c : kCases) {
    for (ThreadPool* tp : {static_cast<ThreadPool*>(nullptr), &pool}) {
      SCOPED_TRACE(describe(c) + (tp ? " 2 threads" : " 1 thread"));
      const Problem p = makeProblem(c, seed++);
      const std::vector<uint8_t> expected = reference(p);

      PackedQuantWeights w;
      packQuantWeights(p.weights.data(), p.unsignedFilter, p.filterZero, c.n, c.k, &w);
      PackedQuantWeights table = w;  // without the AMX copy: the ISA table's GEMM
      table.amxData.clear();
      KernelScratch ks;
      std::vector<uint8_t> out(expected.size(), 0xAA);
      fastFullyConnectedQuant(c.m, p.q, c.signedData, p.input.data(), table, p.bias.data(),
                              out.data(), tp, ks);
      EXPECT_EQ(out, expected) << "table GEMM";

      PackedQuantWeights amx = w;
      packAmxWeightsAlways(&amx);
      ASSERT_EQ(amx.k64 % 64, 0u);
      ASSERT_GE(amx.k64, c.k);
      std::fill(out.begin(), out.end(), 0xAA);
      amxQuantGemmWith(amxEmulatedKernels(), c.m, p.input.data(), c.k, c.signedData, amx, p.q,
                       p.bias.data(), out.data(), tp, ks);
      EXPECT_EQ(out, expected) << "AMX GEMM, emulated tiles";

      if (amxInt8Usable()) {
        std::fill(out.begin(), out.end(), 0xAA);
        amxQuantGemmWith(amxHardwareKernels(), c.m, p.input.data(), c.k, c.signedData, amx,
                         p.q, p.bias.data(), out.data(), tp, ks);
        EXPECT_EQ(out, expected) << "AMX GEMM, tile unit";
        // And through the entry point, which takes the AMX path for enough rows.
        std::fill(out.begin(), out.end(), 0xAA);
        fastFullyConnectedQuant(c.m, p.q, c.signedData, p.input.data(), w, p.bias.data(),
                                out.data(), tp, ks);
        EXPECT_EQ(out, expected) << "fastFullyConnectedQuant with AMX";
      }
    }
  }
}

// A 1x1 stride-1 CONV_2D is the same GEMM over pixels: the entry point (AMX where usable)
// against the table GEMM's result.
TEST(ConvAmx, PointwiseConvMatchesTableGemm) {
  const Case c{3 * 7 * 5, 40, 72, true, true};
  const Problem p = makeProblem(c, 99);
  const std::vector<uint8_t> expected = reference(p);
  Geometry g;
  g.batches = 3;
  g.inH = g.outH = 7;
  g.inW = g.outW = 5;
  g.inC = c.k;
  g.outC = c.n;
  g.filterH = g.filterW = 1;
  PackedQuantWeights w;
  packQuantWeights(p.weights.data(), p.unsignedFilter, p.filterZero, c.n, c.k, &w);
  EXPECT_EQ(w.amxData.empty(), !amxInt8Usable());
  KernelScratch ks;
  std::vector<uint8_t> out(expected.size(), 0xAA);
  fastConvQuant(g, p.q, c.signedData, p.input.data(), w, p.bias.data(), out.data(), nullptr, ks);
  EXPECT_EQ(out, expected);
}

// The AVX-512 row sums of the tile unit's file against the emulation (AVX-512BW only, no tile
// instruction: runs wherever the AVX-512 level does).
TEST(ConvAmx, RowSums) {
  if (isaLevel() < IsaLevel::kAvx512) {
    // Below AVX-512 only the emulation can run; compare it with a plain sum instead.
    std::vector<uint8_t> a(300, 0xFF);
    int32_t s = 0;
    amxEmulatedKernels().rowSums(true, a.data(), a.size(), 1, 300, &s);
    EXPECT_EQ(s, -300);
    return;
  }
  std::mt19937 rng(5);
  for (uint32_t k : {1u, 3u, 63u, 64u, 65u, 200u, 1024u}) {
    std::vector<uint8_t> a(static_cast<size_t>(k) * 5 + 64);
    for (auto& b : a) b = static_cast<uint8_t>(rng());
    for (bool isSigned : {false, true}) {
      int32_t got[5], want[5];
      amxHardwareKernels().rowSums(isSigned, a.data(), k + 7, 5, k, got);
      amxEmulatedKernels().rowSums(isSigned, a.data(), k + 7, 5, k, want);
      for (int r = 0; r < 5; ++r) EXPECT_EQ(got[r], want[r]) << "k=" << k << " row " << r;
    }
  }
}

// AMX is used only where Linux reports it (amx_int8 in /proc/cpuinfo), NNAPI_CPU_AMX=1 opts in
// and NNAPI_CPU_ISA does not cap it away; elsewhere nothing is packed for it (the fallback is the VNNI/portable GEMM).
TEST(ConvAmx, UsedOnlyWhereAvailable) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::stringstream text;
  text << cpuinfo.rdbuf();
  const bool reported = text.str().find(" amx_int8") != std::string::npos;
  if (!reported) EXPECT_FALSE(amxInt8Usable());
  const char* cap = getenv("NNAPI_CPU_ISA");
  if (cap != nullptr && *cap != '\0' && strcmp(cap, "avx512") != 0) EXPECT_FALSE(amxInt8Usable());
  // Opt-in (NNAPI_CPU_AMX=1) until the tile code has run on real AMX hardware.
  const char* optIn = getenv("NNAPI_CPU_AMX");
  if (optIn == nullptr || strcmp(optIn, "1") != 0) EXPECT_FALSE(amxInt8Usable());
  const std::vector<uint8_t> weights(64 * 40, 3);
  PackedQuantWeights w;
  packQuantWeights(weights.data(), true, 128, 40, 64, &w);
  EXPECT_EQ(w.amxData.empty(), !amxInt8Usable());
}

}  // namespace
}  // namespace conv
}  // namespace nn
