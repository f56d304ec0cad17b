// What the installed command-line tools share: --version output and a one-line progress display
// on a terminal (docs/cli.md).
//
// The progress line goes to stderr and only when stderr is a terminal: logs and pipes (CI, the
// ctest drivers, `2>file`) never see it. It is redrawn in place with '\r' and blank padding, not
// terminal escape codes, so it also works on TERM=dumb; it is erased before any other output
// and at the end, so the lasting output is the same as without a terminal.
#ifndef NNAPI_TOOLS_COMMON_CLI_COMMON_H
#define NNAPI_TOOLS_COMMON_CLI_COMMON_H

#include <chrono>
#include <string>

namespace nnapi_cli {

// Prints "<tool> <project version>" on stdout (the --version output).
void PrintVersion(const char* tool);

// 0:07, 1:23, 1:02:03 (elapsed wall time for a progress line).
std::string FormatElapsed(double seconds);

class TerminalProgress {
 public:
  // enabled = false (e.g. --no-progress) or stderr not a terminal: every call does nothing.
  explicit TerminalProgress(bool enabled);
  ~TerminalProgress() { Clear(); }
  TerminalProgress(const TerminalProgress&) = delete;
  TerminalProgress& operator=(const TerminalProgress&) = delete;

  bool active() const { return active_; }
  // Seconds since construction.
  double Elapsed() const;
  // Draws `text` in place of the previous line; redraws at most every 100 ms unless `force`
  // (the first draw is never held back, so even short runs show it once).
  void Show(const std::string& text, bool force = false);
  // Erases the line (before other output, and at the end). Show() draws it again.
  void Clear();

 private:
  bool active_ = false;
  size_t shown_len_ = 0;  // characters of the line now on screen (0: none)
  bool drawn_once_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace nnapi_cli

#endif  // NNAPI_TOOLS_COMMON_CLI_COMMON_H
