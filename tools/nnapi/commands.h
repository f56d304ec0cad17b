// The `nnapi` commands; each returns the process exit status (0 success, 1 failure).
#pragma once

#include "cli_args.h"

namespace nnapi_cli {

int CmdDevices();                // main.cc
int CmdInspect(const Args& a);   // cmd_inspect.cc
int CmdRun(const Args& a);       // cmd_run.cc
int CmdBench(const Args& a);     // cmd_bench.cc

}  // namespace nnapi_cli
