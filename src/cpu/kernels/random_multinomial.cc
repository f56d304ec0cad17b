// RANDOM_MULTINOMIAL kernel: draws `samples` class indexes per batch row from the categorical
// distribution softmax(logits[row]). The two seeds select a deterministic stream (the same
// seeds give the same samples); both zero means a fresh random seed per execution. The
// spec fixes only the distribution, not the generator, so results are checked statistically.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/recurrent_util.h"

namespace nn {
namespace {

constexpr uint32_t kLogits = 0, kSamples = 1, kSeeds = 2;

Status execute(OpContext& ctx) {
  const uint32_t batches = ctx.inputShape(kLogits).dim(0);
  const uint32_t classes = ctx.inputShape(kLogits).dim(1);
  const uint32_t samples = static_cast<uint32_t>(ctx.scalar<int32_t>(kSamples));
  const int32_t* seeds = ctx.input<int32_t>(kSeeds);
  uint64_t seed;
  if (seeds[0] == 0 && seeds[1] == 0) {
    std::random_device rd;
    seed = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  } else {
    seed = (static_cast<uint64_t>(static_cast<uint32_t>(seeds[0])) << 32) |
           static_cast<uint32_t>(seeds[1]);
  }
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);

  const recurrent::FloatIn logits(ctx, kLogits);
  int32_t* out = ctx.output<int32_t>(0);
  std::vector<double> cdf(classes);
  // The sample count comes from data (up to INT32_MAX per row): stop soon after a deadline.
  DeadlinePoll poll(ctx, 4096);
  for (uint32_t b = 0; b < batches; ++b) {
    const float* row = logits.get() + static_cast<size_t>(b) * classes;
    // Unnormalized cumulative probabilities, shifted by the max logit for range safety.
    float maxLogit = -INFINITY;
    for (uint32_t c = 0; c < classes; ++c)
      if (std::isfinite(row[c])) maxLogit = std::max(maxLogit, row[c]);
    double total = 0.0;
    for (uint32_t c = 0; c < classes; ++c) {
      if (std::isfinite(row[c])) total += std::exp(static_cast<double>(row[c]) - maxLogit);
      cdf[c] = total;
    }
    int32_t* o = out + static_cast<size_t>(b) * samples;
    if (!(total > 0.0)) {
      // Every logit is -inf or NaN: there is no distribution to draw from.
      std::fill(o, o + samples, 0);
      continue;
    }
    for (uint32_t s = 0; s < samples; ++s) {
      if (poll.expired()) return poll.missed();
      const double u = uniform(rng) * total;
      const auto it = std::upper_bound(cdf.begin(), cdf.end(), u);
      o[s] = static_cast<int32_t>(std::min<size_t>(it - cdf.begin(), classes - 1));
    }
  }
  return kOk;
}

}  // namespace

NN_DEFINE_CPU_KERNEL(RANDOM_MULTINOMIAL, execute);

}  // namespace nn
