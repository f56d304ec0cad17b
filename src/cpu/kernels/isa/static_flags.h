// Run-time flags to compile-time ones for the ISA kernels: withFlags(f, x, y, z) calls f with
// one Flag<...> per flag, so a kernel templated on its data forms (float16 or float32 operands,
// a clamp or none) is instantiated once per combination and picked without a switch written
// out per kernel. Everything here has internal linkage and no library templates (the ISA
// translation units' ODR rule, conv_isa.h).
#pragma once

namespace nn {
namespace {

template <bool B>
struct Flag {
  static constexpr bool value = B;
};

template <typename F>
inline void withFlags(F&& f) {
  f();
}

template <typename F, typename... Rest>
inline void withFlags(F&& f, bool first, Rest... rest) {
  if (first) {
    withFlags([&](auto... later) { f(Flag<true>{}, later...); }, rest...);
  } else {
    withFlags([&](auto... later) { f(Flag<false>{}, later...); }, rest...);
  }
}

}  // namespace
}  // namespace nn
