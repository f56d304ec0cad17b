#!/usr/bin/env python3
"""Fails when docs/environment.md and the sources disagree about environment variables.

Why: a variable the code reads but the documentation does not name is a behaviour users cannot
discover (or, for the secure_getenv ones, a security property they cannot rely on); a
documented variable nothing reads any more misleads. Checked, over the whole repository:

1. every name read in C/C++ (getenv, secure_getenv and the tests' small env helpers, i.e. any
   call of a function whose name contains "env" with a string literal), Python
   (os.environ.get / os.environ[...] / os.getenv) or shell (${NAME:-...}, ${NAME-...},
   ${NAME:?...}, ${NAME:+...}) appears in docs/environment.md as `NAME`;
2. every name read with secure_getenv is documented as such: its table row in
   docs/environment.md mentions secure_getenv (ignored in setuid/setgid programs);
3. every `NAME` starting with NNAPI_ in a table row of docs/environment.md is read somewhere
   (no stale entries; CMake options such as NNAPI_SANITIZE are not environment variables and
   must not be listed in the tables).

usage: check_env_docs.py [REPO_ROOT]
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
DOC = os.path.join(ROOT, "docs", "environment.md")

# Directories holding code of the project (build trees, models and caches are not sources).
SOURCE_DIRS = ["src", "tools", "bench", "tests", "scripts", "examples", "cmake", ".ci"]
C_EXT = (".c", ".cc", ".cpp", ".h", ".hpp")

C_READ = re.compile(r'\b(\w*[eE]nv\w*)\s*\(\s*"([A-Z][A-Z0-9_]*)"')
PY_READ = re.compile(r'os\.(?:environ\.get|getenv)\(\s*["\']([A-Z][A-Z0-9_]*)["\']|os\.environ\[\s*["\']([A-Z][A-Z0-9_]*)["\']\s*\]')
SH_READ = re.compile(r'\$\{([A-Z][A-Z0-9_]*):?[-?+=]')


def is_shell(path):
    if path.endswith(".sh"):
        return True
    try:
        with open(path, "rb") as f:
            first = f.readline()
    except OSError:
        return False
    return first.startswith(b"#!") and (b"sh" in first.split(b"/")[-1])


def source_reads():
    """name -> {"files": set of paths, "secure": bool}"""
    reads = {}

    def add(name, path, secure=False):
        entry = reads.setdefault(name, {"files": set(), "secure": False})
        entry["files"].add(os.path.relpath(path, ROOT))
        entry["secure"] = entry["secure"] or secure

    for top in SOURCE_DIRS:
        base = os.path.join(ROOT, top)
        if os.path.isfile(base):
            candidates = [base]
        else:
            candidates = [os.path.join(d, f) for d, _, files in os.walk(base) for f in files]
        for path in candidates:
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
            except OSError:
                continue
            if path.endswith(C_EXT):
                for fn, name in C_READ.findall(text):
                    if fn in ("setenv", "unsetenv", "putenv"):
                        continue  # writes, not reads
                    add(name, path, secure=(fn == "secure_getenv"))
            elif path.endswith(".py"):
                if os.path.abspath(path) == os.path.abspath(__file__):
                    continue  # this checker's own docstring and patterns
                for a, b in PY_READ.findall(text):
                    add(a or b, path)
            elif is_shell(path):
                for name in SH_READ.findall(text):
                    add(name, path)
    return reads


def main():
    try:
        with open(DOC, encoding="utf-8") as f:
            doc = f.read()
    except OSError as e:
        print(f"check_env_docs: cannot read {DOC}: {e}")
        return 1
    documented = set(re.findall(r"`([A-Z][A-Z0-9_]*)(?:=[^`]*)?`", doc))
    rows = [line for line in doc.splitlines() if line.startswith("|")]
    reads = source_reads()
    if not reads:
        print("check_env_docs: found no environment reads at all: wrong root?", ROOT)
        return 1

    problems = []
    for name in sorted(reads):
        where = ", ".join(sorted(reads[name]["files"]))
        if name not in documented:
            problems.append(f"{name} (read in {where}) is not documented in docs/environment.md")
            continue
        if reads[name]["secure"]:
            row = [r for r in rows if f"`{name}`" in r]
            if not any("secure_getenv" in r for r in row):
                problems.append(f"{name} is read with secure_getenv ({where}) but its table row in "
                                "docs/environment.md does not say so")
    for row in rows:
        for name in re.findall(r"`(NNAPI_[A-Z0-9_]*)(?:=[^`]*)?`", row):
            if name not in reads:
                problems.append(f"docs/environment.md lists {name}, which no source reads")

    for p in sorted(set(problems)):
        print("check_env_docs:", p)
    if problems:
        return 1
    print(f"check_env_docs: {len(reads)} environment variable(s) read, all documented "
          f"({sum(1 for r in reads.values() if r['secure'])} via secure_getenv)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
