// The quant8 GEMM of 1x1 CONV_2D / FULLY_CONNECTED on MobileNet-v1/-v2 shapes, AMX-INT8 against
// the ISA table's GEMM (AVX-512 VNNI where the processor has it) in one process, one thread,
// interleaved rounds (the fastest single call of each). Internal API (src/cpu/kernels/conv_amx.h), so both
// paths run on the same packed weights:
//   table    fastFullyConnectedQuant on weights without the AMX copy (VNNI / AVX-512 / portable)
//   amx      the AMX GEMM with the tile unit (only where nn::amxInt8Usable())
//   overhead the AMX GEMM with a no-op tile block: requantization, row handling, memory
//   tiles    the AMX GEMM with a no-op requantization: the tile unit's loads, products, stores
//   bound     overhead + the tile work at PEAK GOP/s (--peak, default 7400: the AMX-INT8 peak
//             of one core measured by shared/anchors/roofline/peak.c on a Sapphire Rapids), a lower bound on time
//
// The output quantization follows the models (RELU6 layers: zero point 0 = activation minimum;
// linear ones: zero point 128); --linear gives every shape the linear one.
//
//   nnapi_bench_amx_gemm [--rounds N] [--peak GOPS] [--filter SUBSTRING] [--linear]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cpu/isa.h"
#include "cpu/kernels/conv_amx.h"
#include "cpu/kernels/conv_fast.h"

namespace {

using nn::conv::AmxBlockKernels;

struct Shape {
  const char* name;
  uint32_t m, k, n;
  bool relu6;  // fused RELU6 as in the models (output zero point = activation minimum)
};

const Shape kShapes[] = {
    {"v1 Pointwise_112x32to64", 12544, 32, 64, true},
    {"v1 Pointwise_56x64to128", 3136, 64, 128, true},
    {"v1 Pointwise_28x128to256", 784, 128, 256, true},
    {"v1 Pointwise_14x512to512", 196, 512, 512, true},
    {"v1 Pointwise_7x1024to1024", 49, 1024, 1024, true},
    {"v2 Pointwise_56x24to144", 3136, 24, 144, true},
    {"v2 Pointwise_56x144to24", 3136, 144, 24, false},
    {"v2 Pointwise_28x192to32", 784, 192, 32, false},
    {"v2 Pointwise_14x64to384", 196, 64, 384, true},
    {"v2 Pointwise_14x384to64", 196, 384, 64, false},
    {"v2 Pointwise_7x160to960", 49, 160, 960, true},
    {"v2 Pointwise_7x960to160", 49, 960, 160, false},
    {"v2 Pointwise_7x320to1280", 49, 320, 1280, true},
    {"FullyConnected_b16_1024to1001", 16, 1024, 1001, false},
    {"FullyConnected_b64_1280to1001", 64, 1280, 1001, false},
};

void nop() {}
template <typename T>
void noRequant(const int32_t*, uint32_t, uint32_t, const int32_t*, const int32_t*, const int32_t*,
               const int32_t*, int32_t, int32_t, int32_t, T*, size_t, bool) {}
void noCompute(bool, const uint8_t*, size_t, size_t, const int8_t*, uint32_t, uint32_t,
               uint32_t) {}
void zeroStore(uint32_t, uint32_t, int32_t* acc) { memset(acc, 0, sizeof(int32_t) * 32 * nn::kConvTileN); }
void zeroSums(bool, const uint8_t*, size_t, uint32_t rows, uint32_t, int32_t* sums) {
  std::fill(sums, sums + rows, 0);
}

// The fastest of `reps` single calls: on a shared, loaded machine a call that ran without
// being preempted is the measure of the code (an average over many calls measures the load).
template <typename Fn>
double microseconds(const Fn& fn, int reps) {
  double best = 1e30;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    best = std::min(best, std::chrono::duration<double, std::micro>(
                              std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 15;
  double peak = 7400;
  const char* filter = nullptr;
  bool linear = false;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
      rounds = std::max(1, atoi(argv[++i]));
    } else if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc) {
      filter = argv[++i];
    } else if (strcmp(argv[i], "--linear") == 0) {
      linear = true;
    } else if (strcmp(argv[i], "--peak") == 0 && i + 1 < argc) {
      peak = atof(argv[++i]);
    } else {
      fprintf(stderr, "usage: %s [--rounds N] [--peak GOPS] [--filter SUBSTRING] [--linear]\n", argv[0]);
      return strcmp(argv[i], "--help") == 0 ? 0 : 2;
    }
  }
  const bool amx = nn::amxInt8Usable();
  printf("AMX-INT8 %s; table GEMM at ISA level %s%s; 1 thread, fastest call of %d rounds\n",
         amx ? "usable" : "NOT usable here (amx column empty)",
         nn::isaLevelName(nn::isaLevel()), nn::cpuFeatures().avx512vnni ? " + VNNI" : "", rounds);
  printf("%-32s %9s %9s %9s %9s %9s | %7s %7s %7s %7s | %6s %6s\n", "shape (GOP/s; us)",
         "table us", "amx us", "ovh us", "tiles us", "bound us", "table", "amx", "ovh", "bound",
         "amx/t", "bnd/t");
  const AmxBlockKernels& hw = nn::conv::amxHardwareKernels();
  const AmxBlockKernels overhead{nop,      nop,     noCompute,       zeroStore,
                                 zeroSums, hw.requantizeU8, hw.requantizeS8};
  const AmxBlockKernels tilesOnly{hw.configure, hw.release,          hw.compute,         hw.store,
                                  hw.rowSums,   noRequant<uint8_t>, noRequant<int8_t>};
  for (const Shape& s : kShapes) {
    if (filter != nullptr && strstr(s.name, filter) == nullptr) continue;
    std::mt19937 rng(1);
    std::vector<uint8_t> in(static_cast<size_t>(s.m) * s.k), w(static_cast<size_t>(s.n) * s.k);
    std::vector<uint8_t> out(static_cast<size_t>(s.m) * s.n);
    for (auto& x : in) x = static_cast<uint8_t>(rng());
    for (auto& x : w) x = static_cast<uint8_t>(rng());
    std::vector<int32_t> bias(s.n, 5);
    nn::conv::QuantParams q;
    q.inputZeroPoint = 128;
    // As bench/quant_mobilenet.cc's uint8 model: RELU6 outputs [0, 6] with zero point 0, the
    // linear ones zero point 128 (the requantization may depend on the activation bounds).
    q.outputZeroPoint = s.relu6 && !linear ? 0 : 128;
    q.actMin = 0;
    q.actMax = 255;
    q.multiplier.assign(s.n, 1 << 30);
    q.shift.assign(s.n, -10);
    nn::conv::PackedQuantWeights table;
    nn::conv::packQuantWeights(w.data(), true, 128, s.n, s.k, &table);
    nn::conv::PackedQuantWeights tiles = table;
    nn::conv::packAmxWeightsAlways(&tiles);
    table.amxData.clear();
    nn::conv::KernelScratch ks;
    const int reps = std::max(1, static_cast<int>(2e6 / (2.0 * s.m * s.n * s.k / 1e3)));
    double tTable = 1e30, tAmx = 1e30, tOver = 1e30, tTiles = 1e30;
    for (int r = 0; r < rounds; ++r) {
      tTable = std::min(tTable, microseconds([&] {
        nn::conv::fastFullyConnectedQuant(s.m, q, false, in.data(), table, bias.data(),
                                          out.data(), nullptr, ks);
      }, reps));
      if (amx)
        tAmx = std::min(tAmx, microseconds([&] {
          nn::conv::amxQuantGemmWith(hw, s.m, in.data(), s.k, false, tiles, q, bias.data(),
                                     out.data(), nullptr, ks);
        }, reps));
      if (amx)
        tTiles = std::min(tTiles, microseconds([&] {
          nn::conv::amxQuantGemmWith(tilesOnly, s.m, in.data(), s.k, false, tiles, q, bias.data(),
                                     out.data(), nullptr, ks);
        }, reps));
      if (nn::isaLevel() >= nn::IsaLevel::kAvx512)
        tOver = std::min(tOver, microseconds([&] {
          nn::conv::amxQuantGemmWith(overhead, s.m, in.data(), s.k, false, tiles, q, bias.data(),
                                     out.data(), nullptr, ks);
        }, reps));
    }
    const double ops = 2.0 * s.m * s.n * s.k;
    const double padded = 2.0 * ((s.m + 31) / 32 * 32.0) * ((s.n + 31) / 32 * 32.0) * tiles.k64;
    const double bound = tOver + padded / (peak * 1e3);
    auto gops = [&](double us) { return us < 1e29 ? ops / us / 1e3 : 0.0; };
    printf("%-32s %9.1f %9.1f %9.1f %9.1f %9.1f | %7.0f %7.0f %7.0f %7.0f | %5.2fx %5.2fx\n",
           s.name, tTable, amx ? tAmx : 0.0, tOver < 1e29 ? tOver : 0.0, amx ? tTiles : 0.0, bound, gops(tTable), gops(tAmx),
           gops(tOver), gops(bound), amx ? tTable / tAmx : 0.0, tTable / bound);
  }
  printf("ovh: the AMX GEMM with no-op tiles; tiles: with a no-op requantization; bound: ovh + "
         "padded tile work at %.0f GOP/s\n", peak);
  return 0;
}
