#include "cli_common.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>

#include "cli_version.h"

namespace nnapi_cli {

void PrintVersion(const char* tool) {
  std::printf("%s %s\n", tool, NNAPI_LINUX_VERSION);
}

std::string FormatElapsed(double seconds) {
  long s = seconds > 0 ? static_cast<long>(seconds) : 0;
  char buf[32];
  if (s >= 3600) std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

TerminalProgress::TerminalProgress(bool enabled)
    : active_(enabled && isatty(STDERR_FILENO) == 1), start_(std::chrono::steady_clock::now()) {}

double TerminalProgress::Elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

// Columns of the terminal on stderr; a line as long as the terminal would wrap, and '\r' would
// then return to the wrong row.
static size_t TerminalColumns() {
  winsize ws{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1) return ws.ws_col;
  return 80;
}

void TerminalProgress::Show(const std::string& text, bool force) {
  if (!active_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_once_ && !force && now - last_ < std::chrono::milliseconds(100)) return;
  drawn_once_ = true;
  last_ = now;
  std::string line = text.substr(0, TerminalColumns() - 1);
  const size_t len = line.size();
  if (shown_len_ > len) line.append(shown_len_ - len, ' ');  // blank the rest of a longer line
  std::fprintf(stderr, "\r%s", line.c_str());
  if (line.size() > len) std::fprintf(stderr, "\r%s", line.substr(0, len).c_str());
  std::fflush(stderr);
  shown_len_ = len;
}

void TerminalProgress::Clear() {
  if (!active_ || shown_len_ == 0) return;
  std::fprintf(stderr, "\r%s\r", std::string(shown_len_, ' ').c_str());
  std::fflush(stderr);
  shown_len_ = 0;
}

}  // namespace nnapi_cli
