# perfgate as a CMake package for other projects (docs/fleet.md, "Using perfgate from your project").
#
#   cmake --install build/<preset> --prefix <prefix>
#   # in another project:
#   find_package(perfgate 0.1 CONFIG REQUIRED)      # CMAKE_PREFIX_PATH=<prefix>
#   perfgate_add_perf_suite(SUITE perf/my-suite.json BACKEND cpu BINARIES my-bench=$<TARGET_FILE:my_bench>)
#
# Installed layout:
#   bin/perfgate                                     the executable (imported target perfgate::perfgate)
#   lib/cmake/perfgate/perfgate-config.cmake         sets PERFGATE_EXECUTABLE, defines the functions
#   lib/cmake/perfgate/perfgate-config-version.cmake
#   lib/cmake/perfgate/perfgate-targets*.cmake       the exported executable and libraries
#   lib/libperfgate_core.a, lib/libperfgate_gates.a  perfgate::core, perfgate::gates
#   include/perfgate/{core,gates}/*.hpp              their public headers
#   lib/cmake/perfgate/PerfgatePerfSuite.cmake       perfgate_add_perf_suite()
#   lib/cmake/perfgate/PerfgateAbSuite.cmake         perfgate_add_ab_suite() (included by the above)
#   share/perfgate/thresholds/default.json           the default regression thresholds
#
# As a subproject (FetchContent or add_subdirectory) nothing here is needed to call the function:
# perfgate_add_perf_suite() is a global CMake function, and without PERFGATE_EXECUTABLE it runs
# the `perfgate` target, which add_test resolves in any directory. The include below makes sure
# the function is defined whichever libraries were configured.
include_guard(GLOBAL)
include(CMakePackageConfigHelpers)
include(PerfgatePerfSuite)

# A project that pulls perfgate in with FetchContent usually does not want perfgate's files in its
# own install tree; it can still turn this on.
option(PERFGATE_INSTALL "Generate perfgate's install rules and CMake package" ${PROJECT_IS_TOP_LEVEL})
set(PERFGATE_INSTALL_CMAKEDIR "lib/cmake/perfgate" CACHE STRING "Where the CMake package files are installed (relative to the prefix)")
set(PERFGATE_INSTALL_DATADIR "share/perfgate" CACHE STRING "Where perfgate's data (thresholds) are installed (relative to the prefix)")
mark_as_advanced(PERFGATE_INSTALL_CMAKEDIR PERFGATE_INSTALL_DATADIR)

if(PERFGATE_INSTALL)
  # cli/ installs the binary; this second rule only puts the target into the export set (same file,
  # same destination: the second copy is reported "Up-to-date").
  install(TARGETS perfgate EXPORT perfgate-targets RUNTIME DESTINATION bin)
  # The libraries a consumer links to use perfgate from C++: perfgate::core (the results model,
  # reading and writing result CSVs) and perfgate::gates (the gate on files or rows), with their
  # public headers. The other libraries serve the executable and stay inside it.
  install(TARGETS perfgate_core perfgate_gates EXPORT perfgate-targets ARCHIVE DESTINATION lib)
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/core/include/" "${PROJECT_SOURCE_DIR}/gates/include/"
    DESTINATION include FILES_MATCHING PATTERN "*.hpp")
  install(EXPORT perfgate-targets NAMESPACE perfgate:: DESTINATION "${PERFGATE_INSTALL_CMAKEDIR}")

  # Relative to the prefix, so the installed tree can be moved (configure_package_config_file
  # turns them into PACKAGE_* paths computed from the config file's own location).
  set(PERFGATE_THRESHOLDS_INSTALL_DIR "${PERFGATE_INSTALL_DATADIR}/thresholds")
  configure_package_config_file(
    "${CMAKE_CURRENT_LIST_DIR}/package/perfgate-config.cmake.in"
    "${CMAKE_CURRENT_BINARY_DIR}/package/perfgate-config.cmake"
    INSTALL_DESTINATION "${PERFGATE_INSTALL_CMAKEDIR}"
    PATH_VARS PERFGATE_THRESHOLDS_INSTALL_DIR)
  # 0.x: a new minor version may change the manifest format or the function's arguments.
  write_basic_package_version_file(
    "${CMAKE_CURRENT_BINARY_DIR}/package/perfgate-config-version.cmake"
    VERSION "${PROJECT_VERSION}"
    COMPATIBILITY SameMinorVersion)
  install(FILES
      "${CMAKE_CURRENT_BINARY_DIR}/package/perfgate-config.cmake"
      "${CMAKE_CURRENT_BINARY_DIR}/package/perfgate-config-version.cmake"
      "${CMAKE_CURRENT_LIST_DIR}/PerfgatePerfSuite.cmake"
      "${CMAKE_CURRENT_LIST_DIR}/PerfgateAbSuite.cmake"
    DESTINATION "${PERFGATE_INSTALL_CMAKEDIR}")
  # Only the defaults: thresholds/<host_tag>.json files belong to the project that measures.
  install(FILES "${PROJECT_SOURCE_DIR}/thresholds/default.json"
    DESTINATION "${PERFGATE_THRESHOLDS_INSTALL_DIR}")
endif()

# Integration tests of the package and of the CDash dashboard script (label "integration").
if(PERFGATE_BUILD_TESTS AND PROJECT_IS_TOP_LEVEL AND EXISTS "${PROJECT_SOURCE_DIR}/tests/integration/CMakeLists.txt")
  add_subdirectory("${PROJECT_SOURCE_DIR}/tests/integration" "${PROJECT_BINARY_DIR}/tests/integration")
endif()
