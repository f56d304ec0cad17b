#include "cpu/kernel.h"

namespace nn {

// Each operation's kernel file defines kCpuKernel_<NAME>; referencing every entry of the list
// here makes a missing kernel a link error.
#define NN_DECLARE_KERNEL(name, code) extern const CpuKernel kCpuKernel_##name;
NN_FOR_EACH_OPERATION(NN_DECLARE_KERNEL)
#undef NN_DECLARE_KERNEL

const CpuKernel* findCpuKernel(OperationType type) {
  switch (type) {
#define NN_KERNEL_CASE(name, code) \
  case OperationType::name:        \
    return &kCpuKernel_##name;
    NN_FOR_EACH_OPERATION(NN_KERNEL_CASE)
#undef NN_KERNEL_CASE
    default:
      return nullptr;
  }
}

}  // namespace nn
