// Quantized MobileNet-v1 and -v2 (224x224, alpha 1.0, random weights) for nnapi_bench_e2e,
// built through the public NNAPI C API: a uint8 variant (TENSOR_QUANT8_ASYMM, per-tensor
// filters, the classic TFLite quantization) and an int8 variant (TENSOR_QUANT8_ASYMM_SIGNED
// activations, TENSOR_QUANT8_SYMM_PER_CHANNEL filters for CONV_2D / DEPTHWISE_CONV_2D, where
// the spec allows per-channel; FULLY_CONNECTED keeps a per-tensor int8 filter).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace bench {

struct QuantRunOptions {
  int warmup = 3;
  int runs = 30;
  double maxSeconds = 10.0;  // per network
};

// Builds, compiles and times the four networks; appends (key, value) results such as
// qmobilenet_v1_u8_median_ms and qmobilenet_v1_u8_gops_at_median. Returns false (with a message
// on stderr) when a network fails to build, compile or run.
bool runQuantMobileNets(const QuantRunOptions& opt,
                        std::vector<std::pair<std::string, double>>* results);

}  // namespace bench
