// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Configuration check shared by every public header of the fork/join executor.
//
// Boost.Thread's own executor headers expand to nothing when the executor macros are missing,
// which leaves a user with "basic_thread_pool is not a member of boost::executors" and no hint.
// Ours stop with a message that names the macros instead.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_CONFIG_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_CONFIG_HPP

#include <boost/thread/detail/config.hpp>

#if __cplusplus < 201703L && !(defined(_MSVC_LANG) && _MSVC_LANG >= 201703L)
#error "Boost.Thread fork/join executor: C++17 or later is required (compile with -std=c++17)."
#endif

#if !defined BOOST_THREAD_PROVIDES_EXECUTORS
#error "Boost.Thread fork/join executor: define BOOST_THREAD_VERSION=5 (or BOOST_THREAD_VERSION=4 together with BOOST_THREAD_PROVIDES_EXECUTORS) before including any Boost header; the CMake target Boost::fork_join does this for you."
#endif

#if !defined BOOST_THREAD_PROVIDES_FUTURE_CONTINUATION || !defined BOOST_THREAD_USES_MOVE
#error "Boost.Thread fork/join executor: BOOST_THREAD_PROVIDES_FUTURE_CONTINUATION and BOOST_THREAD_USES_MOVE are required (BOOST_THREAD_VERSION=4 or 5 provides them)."
#endif

// Which sanitizer instruments this translation unit, for the files that must tell it what it
// cannot see (fork_state.hpp's recycled mutexes, parking.hpp's stack switches).
#if defined __SANITIZE_THREAD__
#define BOOST_THREAD_FJ_TSAN
#elif defined __has_feature
#if __has_feature(thread_sanitizer)
#define BOOST_THREAD_FJ_TSAN
#endif
#endif
#if defined __SANITIZE_ADDRESS__
#define BOOST_THREAD_FJ_ASAN
#elif defined __has_feature
#if __has_feature(address_sanitizer)
#define BOOST_THREAD_FJ_ASAN
#endif
#endif

#endif // header
