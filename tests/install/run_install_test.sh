#!/usr/bin/env bash
# Consumers of an installed libneuralnetworks (ctest label "install", tests/CMakeLists.txt).
#
#   run_install_test.sh BUILD_DIR PART
#
# Installs BUILD_DIR (`cmake --install`, nothing is rebuilt) into a temporary prefix, then moves
# the prefix elsewhere before using it, so every PART also checks the tree is relocatable:
#   tools      installed tools run without LD_LIBRARY_PATH; no build or source path in any file
#   pkgconfig  examples/*.c* compiled with cc/c++ and `pkg-config neuralnetworks`, then run
#   cmake      examples/ configured as its own project with find_package(NeuralNetworks), run
#   dlopen     a program that only dlopen()s libneuralnetworks.so (as TFLite does) runs a model
#   deb        `cpack -G DEB`: package contents, Depends, no build paths, example built from it,
#              lintian: no errors (E:) allowed; warnings are printed (overrides: cmake/install.cmake)
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BUILD_DIR tools|pkgconfig|cmake|dlopen|deb" >&2; exit 2; }
build=$(cd "$1" && pwd)
part=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
# Only the prefix under test may count; CMAKE/CPACK: the tools of the build under test.
unset LD_LIBRARY_PATH PKG_CONFIG_PATH CMAKE_PREFIX_PATH
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nnapi-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

"${CMAKE:-cmake}" --install "$build" --prefix "$tmp/staged" >/dev/null
mv "$tmp/staged" "$tmp/prefix"
prefix=$tmp/prefix
pc=$(find "$prefix" -name neuralnetworks.pc)
[ -n "$pc" ] || fail "no neuralnetworks.pc installed"
libdir=$(dirname "$(dirname "$pc")")
[ -f "$libdir/libneuralnetworks.so" ] || fail "no $libdir/libneuralnetworks.so"

# The libneuralnetworks.so a dynamically linked program $1 resolves to must be $2's.
expect_lib_from() {
  local got
  got=$(ldd "$1" | awk '/libneuralnetworks\.so/ {print $3}')
  [ -n "$got" ] && [ "$(readlink -f "$got")" = "$(readlink -f "$2/libneuralnetworks.so")" ] ||
    fail "$1 resolves libneuralnetworks.so to '$got', expected $2/"
}

# No file of the tree under $1 may name the build or source directory.
expect_no_build_paths() {
  local hits
  hits=$(grep -r -l -a -F -e "$build" -e "$src" "$1" || true)
  [ -z "$hits" ] || fail "build/source paths baked into: $hits"
}

case $part in
tools)
  for t in nnapi nnapi-cts nnapi-cts-sl; do [ -x "$prefix/bin/$t" ] || fail "tool $t not installed"; done
  for t in nnapi nnapi-cts; do expect_lib_from "$prefix/bin/$t" "$libdir"; done
  "$prefix/bin/nnapi" devices | tee "$tmp/devices.txt"
  grep -q "nnapi-cpu" "$tmp/devices.txt" || fail "installed nnapi lists no nnapi-cpu device"
  expect_no_build_paths "$prefix"
  # Nothing but the library, headers, tools and package files: no test plugins or binaries.
  lib=${libdir#"$prefix"/}  # lib, lib64 or lib/<multiarch triplet>
  allowed="bin/(nnapi|nnapi-cts|nnapi-cts-sl)|include/android/[A-Za-z]+\\.h|$lib/libneuralnetworks\\.so"
  allowed+="|$lib/pkgconfig/neuralnetworks\\.pc|$lib/cmake/NeuralNetworks/[A-Za-z-]+\\.cmake"
  allowed+="|share/man/man1/(nnapi|nnapi-cts|nnapi-cts-sl)\\.1\\.gz"  # when help2man was found
  extra=$(cd "$prefix" && find . -type f | grep -v -E "^\./($allowed)\$" || true)
  [ -z "$extra" ] || fail "unexpected installed files: $extra"
  for h in "$src"/include/android/*.h; do
    [ -f "$prefix/include/android/$(basename "$h")" ] || fail "header $(basename "$h") not installed"
  done
  ;;
pkgconfig)
  export PKG_CONFIG_PATH=$(dirname "$pc")
  pkg-config --exists neuralnetworks || fail "pkg-config does not find neuralnetworks"
  cflags=$(pkg-config --cflags neuralnetworks); libs=$(pkg-config --libs neuralnetworks)
  echo "pkg-config neuralnetworks $(pkg-config --modversion neuralnetworks): $cflags $libs"
  # shellcheck disable=SC2086  # word splitting of the flags is intended
  cc -std=c99 -o "$tmp/c_api_example" "$src/examples/c_api_example.c" $cflags $libs -lm
  # shellcheck disable=SC2086
  c++ -std=c++17 -o "$tmp/cpp_example" "$src/examples/cpp_example.cc" $cflags $libs
  for e in c_api_example cpp_example; do
    LD_LIBRARY_PATH=$libdir expect_lib_from "$tmp/$e" "$libdir"
    LD_LIBRARY_PATH=$libdir "$tmp/$e"
  done
  ;;
cmake)
  "${CMAKE:-cmake}" -S "$src/examples" -B "$tmp/examples" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
        -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >"$tmp/configure.log" || { cat "$tmp/configure.log"; exit 1; }
  dir=$(sed -n 's/^NeuralNetworks_DIR:PATH=//p' "$tmp/examples/CMakeCache.txt")
  case $dir in "$prefix"/*) echo "NeuralNetworks_DIR=$dir" ;; *) fail "find_package used '$dir', not $prefix" ;; esac
  "${CMAKE:-cmake}" --build "$tmp/examples" >/dev/null
  # No LD_LIBRARY_PATH: CMake's build RPATH of an imported library points at the prefix.
  for e in c_api_example cpp_example; do
    expect_lib_from "$tmp/examples/$e" "$libdir"
    "$tmp/examples/$e"
  done
  ;;
dlopen)
  # Headers only (types and constants); the library is neither linked nor named by path.
  cc -std=gnu99 -o "$tmp/dlopen_consumer" "$src/tests/install/dlopen_consumer.c" \
     -I"$prefix/include" -ldl
  if readelf -d "$tmp/dlopen_consumer" | grep -q 'libneuralnetworks'; then fail "dlopen_consumer links the library"; fi
  LD_LIBRARY_PATH=$libdir "$tmp/dlopen_consumer" | tee "$tmp/dlopen.txt"
  grep -q -x -F "loaded: $libdir/libneuralnetworks.so" "$tmp/dlopen.txt" || fail "dlopen did not load $libdir's library"
  ;;
deb)
  "${CPACK:-cpack}" -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/deb" >"$tmp/cpack.log" 2>&1 ||
    { cat "$tmp/cpack.log"; exit 1; }
  runtime=$(ls "$tmp"/deb/libneuralnetworks_*.deb); dev=$(ls "$tmp"/deb/libneuralnetworks-dev_*.deb)
  for d in "$runtime" "$dev"; do
    echo "== $(basename "$d")"; dpkg-deb --field "$d" Package Version Depends
    dpkg-deb -x "$d" "$tmp/root"
  done
  root=$tmp/root
  debpc=$(find "$root" -name neuralnetworks.pc); deblib=$(dirname "$(dirname "$debpc")")
  lib=${deblib#"$root"/}  # usr/lib or usr/lib/<multiarch triplet>
  for f in "$lib/libneuralnetworks.so" usr/bin/nnapi usr/bin/nnapi-cts usr/bin/nnapi-cts-sl \
           "$lib/pkgconfig/neuralnetworks.pc" "$lib/cmake/NeuralNetworks/NeuralNetworksConfig.cmake" \
           "$lib/cmake/NeuralNetworks/NeuralNetworksConfigVersion.cmake" \
           "$lib/cmake/NeuralNetworks/NeuralNetworksTargets.cmake"; do
    [ -f "$root/$f" ] || fail "/$f missing from the packages"
  done
  for h in "$src"/include/android/*.h; do
    [ -f "$root/usr/include/android/$(basename "$h")" ] || fail "header $(basename "$h") missing from the -dev package"
  done
  runtime_files=$(dpkg-deb --contents "$runtime"); dev_files=$(dpkg-deb --contents "$dev")
  for f in "$lib/libneuralnetworks.so" usr/bin/nnapi; do
    grep -q " \./$f\$" <<<"$runtime_files" || fail "/$f not in the runtime package"
  done
  grep -q ' \./usr/include/android/NeuralNetworks\.h$' <<<"$dev_files" || fail "headers not in -dev"
  if grep -i -E 'test|\.a$' <<<"$runtime_files$dev_files"; then fail "test files packaged"; fi
  expect_no_build_paths "$root"
  for elf in "$root"/usr/bin/* "$deblib/libneuralnetworks.so"; do
    runpath=$(readelf -d "$elf" | sed -n 's/.*(R[UN]*PATH).*\[\(.*\)\]/\1/p')
    case $runpath in ''|'$ORIGIN'*) ;; *) fail "$elf has RUNPATH $runpath" ;; esac
  done
  # Depends comes from dpkg-shlibdeps: one package per shared library the .so needs.
  depends=$(dpkg-deb --field "$runtime" Depends)
  depends_names=$(tr ',|' '\n\n' <<<"$depends" | awk '{print $1}')
  needed=$(readelf -d "$build/lib/libneuralnetworks.so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  for pair in libc.so:libc6 libstdc++.so:libstdc++6 libXNNPACK.so:libxnnpack0 libpthreadpool.so:libpthreadpool0; do
    lib=${pair%%:*}; pkg=${pair#*:}
    if grep -q "^$lib" <<<"$needed"; then
      grep -q -x -F "$pkg" <<<"$depends_names" || fail "library needs $lib but Depends lacks $pkg: $depends"
    fi
  done
  version=$(dpkg-deb --field "$runtime" Version)
  [ "$(dpkg-deb --field "$dev" Depends)" = "libneuralnetworks (= $version)" ] ||
    fail "-dev Depends is not the exact runtime version"
  # The unpacked packages are a usable prefix too (the .pc file is relative to itself).
  # shellcheck disable=SC2046
  cc -std=c99 -o "$tmp/deb_example" "$src/examples/c_api_example.c" \
     $(PKG_CONFIG_PATH=$deblib/pkgconfig pkg-config --cflags --libs neuralnetworks) -lm
  LD_LIBRARY_PATH=$deblib "$tmp/deb_example" >/dev/null || fail "c_api_example against the unpacked .deb"
  # Debian policy, as lintian checks it (scripts/install_deps.sh installs lintian). Errors fail.
  command -v lintian >/dev/null || fail "lintian not found (Debian package lintian; scripts/install_deps.sh)"
  for d in "$runtime" "$dev"; do
    p=$(dpkg-deb --field "$d" Package)
    for f in copyright changelog.gz; do
      grep -q " \./usr/share/doc/$p/$f\$" <<<"$(dpkg-deb --contents "$d")" || fail "/usr/share/doc/$p/$f missing"
    done
  done
  lintian_rc=0
  lintian --show-overrides "$runtime" "$dev" >"$tmp/lintian.log" 2>&1 || lintian_rc=$?
  grep -v 'running with root privileges' "$tmp/lintian.log" || true
  if grep -q '^E: ' "$tmp/lintian.log" || [ "$lintian_rc" -ne 0 ]; then
    fail "lintian reports errors (exit status $lintian_rc)"
  fi
  echo "lintian: $(grep -c '^W: ' "$tmp/lintian.log" || true) warning(s), no errors"
  echo "deb: OK"
  ;;
*) echo "unknown part '$part'" >&2; exit 2 ;;
esac
