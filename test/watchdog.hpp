// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A watchdog for concurrent tests: a deadlock fails the test run fast, with a message, instead
// of hanging CI. It measures nothing and asserts nothing about speed: its limit
// (BOOST_THREAD_FJ_TEST_WATCHDOG_SECONDS, default 300) is orders of magnitude above any
// test's normal run time, also under ThreadSanitizer.
//
// Use: include it in a Boost.Test module once; it installs itself as a global fixture.

#ifndef BOOST_THREAD_FJ_TEST_WATCHDOG_HPP
#define BOOST_THREAD_FJ_TEST_WATCHDOG_HPP

#include <boost/test/unit_test.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

#ifndef BOOST_THREAD_FJ_TEST_WATCHDOG_SECONDS
#define BOOST_THREAD_FJ_TEST_WATCHDOG_SECONDS 300
#endif

struct fj_test_watchdog
{
  fj_test_watchdog()
      : thread_([this] {
          std::unique_lock<std::mutex> lk(mtx_);
          if (!cv_.wait_for(lk, std::chrono::seconds(BOOST_THREAD_FJ_TEST_WATCHDOG_SECONDS), [this] { return done_; }))
          {
            std::fprintf(stderr, "watchdog: the test did not finish within %d s; treating it as a deadlock\n",
                         BOOST_THREAD_FJ_TEST_WATCHDOG_SECONDS);
            std::fflush(stderr);
            std::_Exit(124);
          }
        })
  {
  }
  ~fj_test_watchdog()
  {
    {
      std::lock_guard<std::mutex> lk(mtx_);
      done_ = true;
    }
    cv_.notify_one();
    thread_.join();
  }

  std::mutex mtx_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

BOOST_TEST_GLOBAL_FIXTURE(fj_test_watchdog);

#endif // header
