# Copyright (C) 2026 The Boost.ForkJoin authors.
# Distributed under the Boost Software License, Version 1.0. (See LICENSE_1_0.txt)
#
# Test cmake_consumer: install this project into a prefix inside the build tree, then
# configure, build and run the separate project in this folder against it with
# find_package(boost_fork_join). Included from test/CMakeLists.txt. The steps run at test time
# (run.cmake), so the test sees the install rules and package config as they are then.

set(_fj_consumer_dir ${CMAKE_CURRENT_BINARY_DIR}/cmake_consumer)

# The consumer must be built like the rest of the suite (same compiler and flags, e.g. the
# ThreadSanitizer build) and find the same Boost. Lists cannot cross add_test's argument
# splitting, so ';' travels as '|' and run.cmake turns it back.
set(_fj_consumer_prefix_path ${CMAKE_PREFIX_PATH})
string(REPLACE ";" "|" _fj_consumer_prefix_path "${_fj_consumer_prefix_path}")
set(_fj_consumer_boost_dir "")
if(Boost_DIR AND EXISTS "${Boost_DIR}")
  set(_fj_consumer_boost_dir ${Boost_DIR})
endif()

add_test(NAME cmake_consumer
         COMMAND ${CMAKE_COMMAND}
                 "-DFJ_PROJECT_BINARY_DIR=${PROJECT_BINARY_DIR}"
                 "-DFJ_PREFIX=${_fj_consumer_dir}/prefix"
                 "-DFJ_SOURCE_DIR=${CMAKE_CURRENT_LIST_DIR}"
                 "-DFJ_ROOT=${PROJECT_SOURCE_DIR}"
                 "-DFJ_BINARY_DIR=${_fj_consumer_dir}/build"
                 "-DFJ_CONFIG=$<CONFIG>"
                 "-DFJ_GENERATOR=${CMAKE_GENERATOR}"
                 "-DFJ_MAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}"
                 "-DFJ_CXX_COMPILER=${CMAKE_CXX_COMPILER}"
                 "-DFJ_CXX_FLAGS=${CMAKE_CXX_FLAGS}"
                 "-DFJ_EXE_LINKER_FLAGS=${CMAKE_EXE_LINKER_FLAGS}"
                 "-DFJ_PREFIX_PATH=${_fj_consumer_prefix_path}"
                 "-DFJ_BOOST_DIR=${_fj_consumer_boost_dir}"
                 -P ${CMAKE_CURRENT_LIST_DIR}/run.cmake)
# Configuring and building a whole project: generous, as for the other tests.
set_tests_properties(cmake_consumer PROPERTIES TIMEOUT 600)

unset(_fj_consumer_dir)
unset(_fj_consumer_prefix_path)
unset(_fj_consumer_boost_dir)
