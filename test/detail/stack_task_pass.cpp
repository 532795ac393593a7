// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// White-box: the completion handshake of a stack task (detail/fork_join/invoke/stack_task.hpp). A
// parent sleeps in wait_done() while a "thief" runs the task on another thread; a lost post
// hangs (the watchdog fails the run), a use of the task after the parent left its frame is
// what AddressSanitizer and ThreadSanitizer look for, and the child's plain write must be
// visible to the parent after the wait.

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE detail_stack_task
#endif
#include "watchdog.hpp"

#include <boost/thread/executors/detail/fork_join/invoke/stack_task.hpp>

#include <atomic>
#include <thread>

#ifndef BOOST_THREAD_FJ_TEST_SCALE
#define BOOST_THREAD_FJ_TEST_SCALE 1
#endif

BOOST_AUTO_TEST_SUITE(detail_stack_task_pass) // this file's tests, which CTest runs by this name

using boost::detail::fork_join::stack_task_impl;
using boost::detail::fork_join::task;

BOOST_AUTO_TEST_CASE(parent_wakes_exactly_when_the_child_is_done)
{
  const int rounds = 20000 / BOOST_THREAD_FJ_TEST_SCALE;
  std::atomic<task*> handed{nullptr};
  std::atomic<bool> stop{false};
  // The thief: takes each task handed to it and runs it (run() ends with the handshake).
  std::thread thief([&] {
    for (;;)
    {
      task* t = handed.exchange(nullptr, std::memory_order_acquire);
      if (t)
        t->run();
      else if (stop.load(std::memory_order_acquire))
        return;
      else
        std::this_thread::yield();
    }
  });
  for (int i = 0; i < rounds; ++i)
  {
    int result = 0; // written by the child, read by the parent after the wait: plain
    auto body = [&result, i] { result = i + 1; };
    stack_task_impl<decltype(body)> t(body);
    handed.store(&t, std::memory_order_release);
    if (i % 3 == 0) // sometimes the child is done before the parent looks
      while (!t.done())
        std::this_thread::yield();
    t.wait_done();
    BOOST_TEST_REQUIRE(t.done());
    BOOST_TEST_REQUIRE(result == i + 1);
  } // t leaves its frame here, right after the wait: the thief must be done with it
  stop.store(true, std::memory_order_release);
  thief.join();
}

// What the manual states a parallel_invoke child takes of its caller's frame (doc/index.md,
// "a child costs"): 112 bytes on the LP64 targets of the Itanium C++ ABI, where a stack task's
// outcome byte takes the tail padding of its task base (stack_task.hpp).
BOOST_AUTO_TEST_CASE(a_child_takes_112_bytes_of_its_callers_frame)
{
#if defined(__LP64__) && defined(__GXX_ABI_VERSION)
  auto f = [] {};
  BOOST_TEST(sizeof(stack_task_impl<decltype(f)>) == 112u);
#endif
}

BOOST_AUTO_TEST_SUITE_END()
