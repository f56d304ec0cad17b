// The prepared model of an SL plugin device (see sl_device.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "hal/log.h"
#include "runtime/sl_device.h"
#include "runtime/sl_model_replay.h"

namespace nn {
namespace sl {

// The product of a successful prepareModel: the SL compilation plus everything it borrows
// (its SL models, and the canonical model whose pools back the large constants).
class SlPreparedModel : public PreparedModel {
 public:
  SlPreparedModel(const SlDevice& device, std::shared_ptr<const Model> model,
                  std::unique_ptr<SlModelReplay> replay, ANeuralNetworksCompilation* compilation)
      : device_(device),
        model_(std::move(model)),
        replay_(std::move(replay)),
        compilation_(compilation) {}
  ~SlPreparedModel() override {
    device_.driver().table.base.ANeuralNetworksCompilation_free(compilation_);
  }

  Status execute(const Request& request, const ExecuteOptions& options, ExecutionState* state,
                 std::vector<OutputShape>* outputShapes, Timing* timing) const override;

 private:
  Status fail(const char* call, int code, const std::string& what = "") const {
    return Status(errorStatusFromResultCode(code),
                  formatString("%s%s%s%s returned %s", device_.context().c_str(), call,
                               what.empty() ? "" : " ", what.c_str(), codeName(code)));
  }
  Status garbage(const std::string& what) const {
    std::string message = device_.context() + "returned garbage: " + what;
    logInfo("%s", message.c_str());
    return Status(ErrorStatus::GENERAL_FAILURE, std::move(message));
  }
  Status readOutputShapes(ANeuralNetworksExecution* e, const Request& request, int computed,
                          std::vector<OutputShape>* outputShapes) const;

  const SlDevice& device_;
  std::shared_ptr<const Model> model_;
  std::unique_ptr<SlModelReplay> replay_;
  ANeuralNetworksCompilation* compilation_;
};

}  // namespace sl
}  // namespace nn
