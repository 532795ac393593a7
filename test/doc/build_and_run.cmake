# Copyright (C) 2026 The Boost.ForkJoin authors.
# Distributed under the Boost Software License, Version 1.0. (See LICENSE_1_0.txt)
#
# Body of the doc_* tests that compile (test/doc/CMakeLists.txt), run with cmake -P: builds
# FJ_TARGET in FJ_BUILD_DIR, then runs FJ_RUN (a program) if it is set. Fails at the first step
# that fails.

cmake_minimum_required(VERSION 3.20)
set(config_args "")
if(NOT "${FJ_CONFIG}" STREQUAL "")
  set(config_args --config "${FJ_CONFIG}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${FJ_BUILD_DIR}" --target "${FJ_TARGET}" ${config_args}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${FJ_TARGET}: the build failed (${rc})")
endif()
if(NOT "${FJ_RUN}" STREQUAL "")
  execute_process(COMMAND "${FJ_RUN}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${FJ_TARGET}: the program exited with ${rc}")
  endif()
endif()
