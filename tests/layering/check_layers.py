#!/usr/bin/env python3
"""Fails when a source file includes a header of a layer above (or beside) its own.

Layers, bottom to top (docs/architecture.md):
  hal      canonical types, the driver interface, logging   -> hal only
  spec     the operation catalog                             -> hal/types.h, hal/operation_list.h, spec
  cpu      the CPU driver and its kernels                    -> hal, spec, cpu
  runtime  the C API and the runtime                         -> hal, spec, runtime (never a driver)
  tools    clients of the public C API                       -> public headers and their own files
Public headers (<android/...>) are allowed everywhere.
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')

# layer -> predicate over an included path (as written in the quotes)
def allowed_for(layer):
    if layer == "hal":
        return lambda inc: inc.startswith("hal/")
    if layer == "spec":
        return lambda inc: inc in ("hal/types.h", "hal/operation_list.h") or inc.startswith("spec/")
    if layer == "cpu":
        return lambda inc: inc.startswith(("hal/", "spec/", "cpu/"))
    if layer == "runtime":
        return lambda inc: inc.startswith(("hal/", "spec/", "runtime/"))
    raise ValueError(layer)

def src_layer(rel):
    parts = rel.split(os.sep)
    if parts[0] == "src" and len(parts) > 2:
        return parts[1]
    return None

def main():
    errors = []
    checked = 0
    # A tool header may be generated at configure time from a template under tools/ (x.h.in).
    tool_headers = {n[:-3] if n.endswith(".h.in") else n
                    for _, _, fs in os.walk(os.path.join(ROOT, "tools")) for n in fs}
    for top in ("src", "tools"):
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            for name in files:
                if not name.endswith((".h", ".cc", ".c", ".cpp")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, ROOT)
                if top == "tools":
                    # tools may include their own headers (anywhere under tools/), never src/
                    ok = lambda inc: os.path.basename(inc) in tool_headers and \
                        not inc.startswith(("hal/", "spec/", "cpu/", "runtime/", "ops/"))
                    layer = "tools"
                else:
                    layer = src_layer(rel)
                    if layer is None:
                        errors.append(f"{rel}: source outside any layer folder")
                        continue
                    if layer not in ("hal", "spec", "cpu", "runtime"):
                        errors.append(f"{rel}: unknown layer folder src/{layer} (add it to {__file__})")
                        continue
                    ok = allowed_for(layer)
                checked += 1
                with open(path, encoding="utf-8", errors="replace") as f:
                    for lineno, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if m and not ok(m.group(1)):
                            errors.append(f"{rel}:{lineno}: layer '{layer}' may not include \"{m.group(1)}\"")
    for e in errors:
        print(e)
    print(f"check_layers: {checked} files checked, {len(errors)} violations")
    return 1 if errors else 0

if __name__ == "__main__":
    sys.exit(main())
