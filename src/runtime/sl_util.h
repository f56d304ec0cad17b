// Small helpers shared by the SL (Support Library) plugin device, its model replay and its
// prepared model.
#pragma once

#include <android/NeuralNetworksDiagnostics.h>

#include <chrono>
#include <cstdint>

namespace nn {
namespace sl {

inline uint64_t nowNs() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

inline const char* codeName(int code) { return ANNLinux_resultCodeName(code); }

}  // namespace sl
}  // namespace nn
