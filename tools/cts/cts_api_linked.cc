// nnapi-cts: the table filled from the directly linked libneuralnetworks symbols.
#include <android/NeuralNetworksDiagnostics.h>

#include "cts_api.h"

namespace cts {

const char* toolName() { return "nnapi-cts"; }

bool installApi(const std::string& slPath, std::string* error) {
    if (!slPath.empty()) {
        *error = "--sl is for nnapi-cts-sl; nnapi-cts calls the linked libneuralnetworks";
        return false;
    }
    Api a;
#define CTS_API_LINK(name) a.name = &::name;
    CTS_SL_FUNCTIONS(CTS_API_LINK)
#undef CTS_API_LINK
    a.ANeuralNetworksCompilation_create = &::ANeuralNetworksCompilation_create;
    a.ANeuralNetworksExecution_startCompute = &::ANeuralNetworksExecution_startCompute;
    a.resultCodeName = &::ANNLinux_resultCodeName;
    a.getStepCount = &::ANNLinux_Compilation_getStepCount;
    a.getStepDevice = &::ANNLinux_Compilation_getStepDevice;
    a.operationCodeFromName = &::ANNLinux_operationCodeFromName;
    a.origin = "linked libneuralnetworks";
    setApi(a);
    return true;
}

bool apiNeedsSupportLibrary() { return false; }

}  // namespace cts
