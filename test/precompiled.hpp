// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The run tests' precompiled header, for both builds (CMakeLists.txt and Jamfile): Boost.Thread's
// futures and the library's public headers, after the fiber-stack mappings that a test can make
// refuse (stack_mappings.hpp). Boost.Test stays out of it: a test's
// BOOST_TEST_MODULE must come before <boost/test/unit_test.hpp>. Nothing here may depend on a
// macro that one run test defines and another does not: the header is compiled once, with the
// flags all run tests share.

#ifndef BOOST_THREAD_FJ_TEST_PRECOMPILED_HPP
#define BOOST_THREAD_FJ_TEST_PRECOMPILED_HPP

#include "stack_mappings.hpp"

#include <boost/thread/future.hpp>
#include <boost/thread/executors/algorithm.hpp>
#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/task_block.hpp>

#endif
