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
# Packagers set their own: -DNNAPI_PACKAGE_MAINTAINER="Name <address>".
set(NNAPI_PACKAGE_MAINTAINER "nnapi-linux maintainers <nnapi-linux@localhost>" CACHE STRING
    "Maintainer field of the Debian packages")
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
include(CPack)
