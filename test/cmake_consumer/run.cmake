# Copyright (C) 2026 The Boost.ForkJoin authors.
# Distributed under the Boost Software License, Version 1.0. (See LICENSE_1_0.txt)
#
# Body of test cmake_consumer (see register.cmake), run with cmake -P:
#   1. install the project into FJ_PREFIX;
#   2. configure the consumer project (this folder) with CMAKE_PREFIX_PATH=FJ_PREFIX;
#   3. check that find_package found the package in FJ_PREFIX, not some other copy;
#   4. build the consumer and run it;
#   5. configure, build and run it again with this source tree added by add_subdirectory
#      (FJ_SUBDIRECTORY), then install it: nothing of ours may be installed into the consumer's
#      prefix (BOOST_FORK_JOIN_INSTALL is ON only at top level).
# Stops with an error at the first step that fails, which fails the test.

cmake_minimum_required(VERSION 3.20)

foreach(var FJ_PROJECT_BINARY_DIR FJ_PREFIX FJ_SOURCE_DIR FJ_ROOT FJ_BINARY_DIR FJ_GENERATOR
            FJ_CXX_COMPILER)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run.cmake: ${var} is not set (run it through the cmake_consumer test)")
  endif()
endforeach()

function(fj_step what)
  message(STATUS "cmake_consumer: ${what}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc COMMAND_ECHO STDOUT)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake_consumer: ${what} failed (${rc})")
  endif()
endfunction()

# Start from nothing, so that a stale install or consumer build cannot make the test pass.
set(sub_binary_dir "${FJ_BINARY_DIR}-subdirectory")
set(sub_prefix "${FJ_PREFIX}-subdirectory")
file(REMOVE_RECURSE "${FJ_PREFIX}" "${FJ_BINARY_DIR}" "${sub_binary_dir}" "${sub_prefix}")

set(config_args "")
if(NOT "${FJ_CONFIG}" STREQUAL "")
  set(config_args --config "${FJ_CONFIG}")
endif()

fj_step("install" "${CMAKE_COMMAND}" --install "${FJ_PROJECT_BINARY_DIR}" --prefix "${FJ_PREFIX}"
        ${config_args})

# The fresh prefix first; then whatever the main build searched (where its Boost came from).
string(REPLACE "|" ";" prefix_path "${FJ_PREFIX_PATH}")
list(PREPEND prefix_path "${FJ_PREFIX}")
set(configure_args
    -S "${FJ_SOURCE_DIR}" -G "${FJ_GENERATOR}"
    "-DCMAKE_PREFIX_PATH=${prefix_path}"
    "-DCMAKE_CXX_COMPILER=${FJ_CXX_COMPILER}"
    "-DCMAKE_CXX_FLAGS=${FJ_CXX_FLAGS}"
    "-DCMAKE_EXE_LINKER_FLAGS=${FJ_EXE_LINKER_FLAGS}"
    # A package registry entry must not stand in for the installed package.
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
if(NOT "${FJ_CONFIG}" STREQUAL "")
  list(APPEND configure_args "-DCMAKE_BUILD_TYPE=${FJ_CONFIG}")
endif()
if(NOT "${FJ_MAKE_PROGRAM}" STREQUAL "")
  list(APPEND configure_args "-DCMAKE_MAKE_PROGRAM=${FJ_MAKE_PROGRAM}")
endif()
if(NOT "${FJ_BOOST_DIR}" STREQUAL "")
  list(APPEND configure_args "-DBoost_DIR=${FJ_BOOST_DIR}")
endif()
fj_step("configure" "${CMAKE_COMMAND}" -B "${FJ_BINARY_DIR}" ${configure_args})

file(STRINGS "${FJ_BINARY_DIR}/CMakeCache.txt" found_dir REGEX "^boost_fork_join_DIR:")
string(REGEX REPLACE "^[^=]*=" "" found_dir "${found_dir}")
cmake_path(IS_PREFIX FJ_PREFIX "${found_dir}" NORMALIZE in_prefix)
if(NOT in_prefix)
  message(FATAL_ERROR "cmake_consumer: find_package used '${found_dir}', not the install in '${FJ_PREFIX}'")
endif()

# Builds the consumer in binary_dir and runs it; its exit status is the result.
function(fj_build_and_run binary_dir what)
  fj_step("build${what}" "${CMAKE_COMMAND}" --build "${binary_dir}" ${config_args})
  # Multi-config generators put the program in a per-configuration folder; Windows adds .exe.
  set(exe "")
  foreach(candidate "${binary_dir}/${FJ_CONFIG}/consumer" "${binary_dir}/consumer")
    foreach(suffix "" ".exe")
      if(NOT exe AND EXISTS "${candidate}${suffix}" AND NOT IS_DIRECTORY "${candidate}${suffix}")
        set(exe "${candidate}${suffix}")
      endif()
    endforeach()
  endforeach()
  if(NOT exe)
    message(FATAL_ERROR "cmake_consumer: the build produced no consumer program in ${binary_dir}")
  endif()
  fj_step("run${what}" "${exe}")
endfunction()

fj_build_and_run("${FJ_BINARY_DIR}" "")

fj_step("configure (add_subdirectory)" "${CMAKE_COMMAND}" -B "${sub_binary_dir}" ${configure_args}
        "-DFJ_SUBDIRECTORY=${FJ_ROOT}" "-DCMAKE_INSTALL_PREFIX=${sub_prefix}")
fj_build_and_run("${sub_binary_dir}" " (add_subdirectory)")
fj_step("install (add_subdirectory)" "${CMAKE_COMMAND}" --install "${sub_binary_dir}" ${config_args})
file(GLOB_RECURSE installed "${sub_prefix}/*")
if(installed)
  message(FATAL_ERROR "cmake_consumer: add_subdirectory installed files of ours into the consumer's prefix: ${installed}")
endif()
message(STATUS "cmake_consumer: passed")
