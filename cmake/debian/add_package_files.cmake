# CPACK_PRE_BUILD_SCRIPTS entry (cmake/install.cmake): puts the Debian-only files into each
# component's staging tree before `cpack -G DEB` archives it, so that `cmake --install` trees
# stay free of them:
#   usr/share/doc/<package>/copyright      DEP-5 (cmake/debian/copyright)
#   usr/share/doc/<package>/changelog.gz   native package changelog (cmake/debian/changelog.in)
#   usr/share/lintian/overrides/<package>  the tags kept on purpose, each with its reason
# and strips the .comment/.note sections CPACK_STRIP_FILES leaves in (as dh_strip does).
# file(COPY), not file(INSTALL): CPack leaves DESTDIR set to the last component's tree here,
# and file(INSTALL) would put every file under it. (CMake 3.20, the minimum: no COPY_FILE.)
if(NOT CPACK_GENERATOR STREQUAL "DEB")
  return()
endif()
set(file_perms OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
set(dir_perms OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

# Copies `from` to the file `to` (mode 0644), creating its directories (mode 0755).
function(nnapi_deb_file from to)
  get_filename_component(dir ${to} DIRECTORY)
  get_filename_component(name ${from} NAME)
  file(MAKE_DIRECTORY ${dir})
  file(CHMOD ${dir} PERMISSIONS ${dir_perms})
  file(COPY ${from} DESTINATION ${dir} FILE_PERMISSIONS ${file_perms})
  if(NOT "${dir}/${name}" STREQUAL "${to}")
    file(RENAME ${dir}/${name} ${to})
  endif()
endfunction()

foreach(component runtime dev)
  string(TOUPPER ${component} upper)
  set(package ${CPACK_DEBIAN_${upper}_PACKAGE_NAME})
  set(root ${CPACK_TEMPORARY_INSTALL_DIRECTORY}/${component}${CPACK_PACKAGING_INSTALL_PREFIX})
  if(NOT IS_DIRECTORY ${root})
    message(FATAL_ERROR "add_package_files.cmake: no staging tree ${root}")
  endif()
  foreach(f copyright changelog.gz)
    nnapi_deb_file(${CPACK_NNAPI_DEB_FILES}/${f} ${root}/share/doc/${package}/${f})
  endforeach()
  set(overrides ${CPACK_NNAPI_DEB_FILES}/lintian-overrides-${component})
  file(READ ${overrides} content)
  if(NOT content STREQUAL "")
    nnapi_deb_file(${overrides} ${root}/share/lintian/overrides/${package})
  endif()
  file(GLOB_RECURSE elves ${root}/bin/* ${root}/lib/*.so)
  foreach(elf ${elves})
    execute_process(COMMAND ${CPACK_NNAPI_STRIP} --remove-section=.comment --remove-section=.note ${elf}
                    RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "add_package_files.cmake: ${CPACK_NNAPI_STRIP} failed on ${elf}")
    endif()
  endforeach()
  # MAKE_DIRECTORY's parents (share/, share/doc/, share/lintian/) follow the umask.
  foreach(dir share share/doc share/lintian)
    if(IS_DIRECTORY ${root}/${dir})
      file(CHMOD ${root}/${dir} PERMISSIONS ${dir_perms})
    endif()
  endforeach()
endforeach()
