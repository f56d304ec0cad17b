# Install rules, pkg-config file, CMake package and Debian packages (issue 11).
#
# Layout (GNUInstallDirs, relative to any prefix):
#   lib/libneuralnetworks.so            the runtime (component runtime)
#   bin/nnapi, nnapi-cts, nnapi-cts-sl  tools, RUNPATH $ORIGIN/../lib (component runtime)
#   include/android/*.h                 public headers (component dev)
#   lib/pkgconfig/neuralnetworks.pc     pkg-config (component dev)
#   lib/cmake/NeuralNetworks/           find_package(NeuralNetworks) (component dev)
# Nothing refers to an absolute path: the .pc file derives its prefix from ${pcfiledir}, the
# CMake package from its own location, the tools find the library relative to themselves. An
# installed tree can therefore be moved or unpacked anywhere (tests/install checks that).
#
# Library name: one file, libneuralnetworks.so, whose SONAME is that same unversioned name, as
# on Android. NNAPI clients (TFLite's delegate, test rigs) dlopen("libneuralnetworks.so"), and
# the NDK ABI only ever grows by feature levels (ANeuralNetworks_getRuntimeFeatureLevel), never
# breaks, so there is no SONAME bump to express. A versioned pair (libneuralnetworks.so.1 +
# a .so symlink) would, by Debian policy, move the unversioned name into the -dev package and
# break dlopen() on machines with only the runtime package installed.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(NNAPI_CMAKE_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/NeuralNetworks)

install(TARGETS neuralnetworks EXPORT NeuralNetworksTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/android DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT dev FILES_MATCHING PATTERN "*.h")

# Tools: the build tree's RPATH (build/lib) is replaced at install time by one relative to the
# executable, so an installed tool finds the installed library without LD_LIBRARY_PATH.
file(RELATIVE_PATH _nnapi_bin_to_lib ${CMAKE_BINARY_DIR}/p/${CMAKE_INSTALL_BINDIR}
     ${CMAKE_BINARY_DIR}/p/${CMAKE_INSTALL_LIBDIR})
set(NNAPI_INSTALLED_TOOLS nnapi nnapi-cts nnapi-cts-sl)
set_target_properties(${NNAPI_INSTALLED_TOOLS} PROPERTIES INSTALL_RPATH "$ORIGIN/${_nnapi_bin_to_lib}")
install(TARGETS ${NNAPI_INSTALLED_TOOLS} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)

# Man pages, made from each tool's --help and --version by help2man (Debian package help2man)
# when it is there. Not in sanitizer builds (running an instrumented tool at build time may
# report leaks and fail the build; those builds are not installed) nor when cross-compiling.
find_program(NNAPI_HELP2MAN help2man)
find_program(NNAPI_GZIP gzip)
if(NNAPI_HELP2MAN AND NNAPI_GZIP AND NOT CMAKE_CROSSCOMPILING AND
   NOT NNAPI_SANITIZE_KIND MATCHES "^(on|yes|true|y|1|address|thread)$")
  set(_nnapi_man_nnapi "run, benchmark and inspect TFLite models on the NNAPI runtime")
  set(_nnapi_man_nnapi-cts "run the NNAPI conformance vectors against libneuralnetworks")
  set(_nnapi_man_nnapi-cts-sl "run the NNAPI conformance vectors against an NNAPI Support Library")
  set(NNAPI_MAN_PAGES)
  foreach(tool ${NNAPI_INSTALLED_TOOLS})
    set(man ${CMAKE_BINARY_DIR}/packaging/man/${tool}.1)
    add_custom_command(OUTPUT ${man}.gz
      COMMAND ${NNAPI_HELP2MAN} --no-info --section=1 "--name=${_nnapi_man_${tool}}" --output=${man}
              $<TARGET_FILE:${tool}>
      COMMAND ${NNAPI_GZIP} -n -9 -f ${man}
      DEPENDS ${tool} COMMENT "man page ${tool}.1 (help2man)" VERBATIM)
    list(APPEND NNAPI_MAN_PAGES ${man}.gz)
  endforeach()
  add_custom_target(nnapi_man_pages ALL DEPENDS ${NNAPI_MAN_PAGES})
  install(FILES ${NNAPI_MAN_PAGES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT runtime)
else()
  message(STATUS "help2man not found (or sanitizer/cross build): no man pages")
endif()

# pkg-config: prefix relative to the .pc file's own directory (pkg-config and pkgconf both
# define ${pcfiledir}).
file(RELATIVE_PATH _nnapi_pc_to_prefix ${CMAKE_BINARY_DIR}/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig
     ${CMAKE_BINARY_DIR}/p)
string(REGEX REPLACE "/$" "" _nnapi_pc_to_prefix "${_nnapi_pc_to_prefix}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/neuralnetworks.pc.in
               ${CMAKE_BINARY_DIR}/packaging/neuralnetworks.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/packaging/neuralnetworks.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)

# CMake package: NeuralNetworks::neuralnetworks, an imported shared library. The library links
# the layer OBJECT libraries PRIVATE (their objects are inside the .so), so the export carries
# no link dependencies and needs none of them exported. Version rule AnyNewerVersion: the C ABI
# is append-only, so any newer release satisfies a request for an older one.
install(EXPORT NeuralNetworksTargets NAMESPACE NeuralNetworks::
        DESTINATION ${NNAPI_CMAKE_PACKAGE_DIR} COMPONENT dev)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/NeuralNetworksConfig.cmake.in
  ${CMAKE_BINARY_DIR}/packaging/NeuralNetworksConfig.cmake
  INSTALL_DESTINATION ${NNAPI_CMAKE_PACKAGE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/packaging/NeuralNetworksConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY AnyNewerVersion)
install(FILES ${CMAKE_BINARY_DIR}/packaging/NeuralNetworksConfig.cmake
              ${CMAKE_BINARY_DIR}/packaging/NeuralNetworksConfigVersion.cmake
        DESTINATION ${NNAPI_CMAKE_PACKAGE_DIR} COMPONENT dev)

# --- Debian packages: `cpack -G DEB` in the build directory ----------------------------------
# libneuralnetworks      runtime library + tools; Depends computed by dpkg-shlibdeps
# libneuralnetworks-dev  headers, .pc, CMake package; Depends libneuralnetworks (= version)
set(CPACK_PACKAGE_NAME libneuralnetworks)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "nnapi-linux")
# Packagers set their own: -DNNAPI_PACKAGE_MAINTAINER="Name <address>". The default is a
# placeholder in a reserved domain (RFC 2606): lintian rejects unroutable hosts like localhost.
set(NNAPI_PACKAGE_MAINTAINER "nnapi-linux maintainers <nnapi-linux@example.org>" CACHE STRING
    "Maintainer field of the Debian packages")
if(NNAPI_PACKAGE_MAINTAINER STREQUAL "nnapi-linux maintainers <nnapi-linux@localhost>")
  # The earlier default, still in older build trees' caches.
  set(NNAPI_PACKAGE_MAINTAINER "nnapi-linux maintainers <nnapi-linux@example.org>" CACHE STRING
      "Maintainer field of the Debian packages" FORCE)
endif()
set(CPACK_PACKAGE_CONTACT "${NNAPI_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Android Neural Networks API (NNAPI) for Linux")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_COMPONENT_DEV_DEPENDS runtime)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libneuralnetworks)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libneuralnetworks-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_SHLIBDEPS OFF)
# Each line of a long description stays under 80 columns (Debian policy 5.6.13).
string(CONCAT CPACK_COMPONENT_RUNTIME_DESCRIPTION
  "libneuralnetworks.so exports the NNAPI NDK C API, binary compatible with\n"
  "Android's, with a CPU driver (XNNPACK fast paths) and driver plugins.\n"
  "Tools: nnapi (run, bench, inspect .tflite models), nnapi-cts and\n"
  "nnapi-cts-sl (conformance runners).")
string(CONCAT CPACK_COMPONENT_DEV_DESCRIPTION
  "Development files: the NDK NNAPI headers (android/NeuralNetworks.h ...),\n"
  "the pkg-config file neuralnetworks.pc and the CMake package NeuralNetworks\n"
  "(imported target NeuralNetworks::neuralnetworks).")
# No shlibs file: dpkg's shlibs format needs a versioned SONAME (see the top of this file).
# The ldconfig cache is refreshed by the trigger debhelper would declare (lintian asks for it);
# CPack 3.25 also adds postinst/postrm scripts calling ldconfig, which cannot be turned off.
file(WRITE ${CMAKE_BINARY_DIR}/packaging/deb/triggers "activate-noawait ldconfig\n")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA ${CMAKE_BINARY_DIR}/packaging/deb/triggers)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)

# Debian-only files (copyright, changelog.gz, lintian overrides), added to each package's
# staging tree by cmake/debian/add_package_files.cmake; `cmake --install` does not install them.
# tests/install/run_install_test.sh deb runs lintian on the packages and fails on errors.
set(_nnapi_deb ${CMAKE_BINARY_DIR}/packaging/deb)
configure_file(${CMAKE_SOURCE_DIR}/cmake/debian/copyright ${_nnapi_deb}/copyright COPYONLY)
# The changelog's date: SOURCE_DATE_EPOCH when set (reproducible builds), else configure time.
string(TIMESTAMP NNAPI_CHANGELOG_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
configure_file(${CMAKE_SOURCE_DIR}/cmake/debian/changelog.in ${_nnapi_deb}/changelog @ONLY)
execute_process(COMMAND gzip -n -9 -c ${_nnapi_deb}/changelog OUTPUT_FILE ${_nnapi_deb}/changelog.gz
                RESULT_VARIABLE _nnapi_gzip_rc)
if(NOT _nnapi_gzip_rc EQUAL 0)
  message(WARNING "gzip failed (${_nnapi_gzip_rc}): the Debian packages will lack changelog.gz")
endif()
# Lintian overrides: only what is deliberate, each with its reason (lintian shows the comment).
file(WRITE ${_nnapi_deb}/lintian-overrides-runtime
  "# Unversioned SONAME on purpose: NNAPI clients dlopen(\"libneuralnetworks.so\"), as on\n"
  "# Android, and the NDK ABI only grows by feature levels (see cmake/install.cmake).\n"
  "shared-library-lacks-version *\n"
  "# CPack 3.25 always writes postinst/postrm calling ldconfig for a library in /usr/lib;\n"
  "# the package also declares the ldconfig trigger. Harmless, not removable from CPack.\n"
  "maintscript-calls-ldconfig *\n")
if(NOT NNAPI_MAN_PAGES)
  file(APPEND ${_nnapi_deb}/lintian-overrides-runtime
    "# This build found no help2man: the tools' --help is their manual (docs/cli.md).\n"
    "no-manual-page *\n")
endif()
file(WRITE ${_nnapi_deb}/lintian-overrides-dev "")
if(NOT CMAKE_INSTALL_LIBDIR MATCHES "/")
  file(APPEND ${_nnapi_deb}/lintian-overrides-dev
    "# One build tree serves `cmake --install` into any prefix and this package, so the\n"
    "# libdir is GNUInstallDirs' one for the configured prefix (lib/ unless /usr). Configure\n"
    "# with -DCMAKE_INSTALL_PREFIX=/usr for the multiarch lib/<triplet>/pkgconfig.\n"
    "pkg-config-unavailable-for-cross-compilation *\n")
endif()
set(CPACK_NNAPI_DEB_FILES ${_nnapi_deb})
set(CPACK_NNAPI_STRIP ${CMAKE_STRIP})
set(CPACK_PRE_BUILD_SCRIPTS ${CMAKE_SOURCE_DIR}/cmake/debian/add_package_files.cmake)
include(CPack)
