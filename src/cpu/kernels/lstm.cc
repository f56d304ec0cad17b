// LSTM kernel: one time step of the float LSTM cell (cpu/kernels/lstm_cell.h), computed in
// float32 (float16 operands are staged) in the NNAPI reference's order of operations. The
// scratch-buffer output receives the gate values in the reference's layout: [input,] cell,
// forget, output gate, each [batch, num_units].
#include <algorithm>

#include "cpu/kernel.h"
#include "cpu/kernels/lstm_cell.h"
#include "cpu/kernels/recurrent_util.h"
#include "spec/ops/lstm.h"

namespace nn {
namespace lstm_op {
namespace {

using namespace lstm;  // NOLINT: the slot names are the LSTM op's input numbers

Status execute(OpContext& ctx) {
  Config cfg;
  Sizes d;
  NN_RETURN_IF_ERROR(configure(ctx, &cfg, &d));
  Params p;
  p.activation = ctx.scalar<int32_t>(kActivation);
  p.cellClip = recurrent::floatScalar(ctx, kCellClip);
  p.projClip = recurrent::floatScalar(ctx, kProjClip);
  const uint32_t n = ctx.numInputs();

  using recurrent::FloatIn;
  FloatIn staged[kNumSlots];
  Tensors w;
  for (uint32_t slot = 0; slot < n && slot < kNumSlots; ++slot) {
    if (slot == kActivation || slot == kCellClip || slot == kProjClip) continue;
    staged[slot].reset(ctx, slot);
    w.t[slot] = staged[slot].get();
  }
  recurrent::FloatOut scratch(ctx, kScratch), hOut(ctx, kOutputStateOut),
      cOut(ctx, kCellStateOut), out(ctx, kOutput);
  step(cfg, d, p, w, w[kInput], nullptr, w[kOutputStateIn], w[kCellStateIn], out.get(),
       cOut.get(), scratch.get());
  const size_t BO = static_cast<size_t>(d.batch) * d.output;
  std::copy(out.get(), out.get() + BO, hOut.get());

  scratch.commit();
  hOut.commit();
  cOut.commit();
  out.commit();
  return kOk;
}

}  // namespace
}  // namespace lstm_op

NN_DEFINE_CPU_KERNEL(LSTM, lstm_op::execute);

}  // namespace nn
