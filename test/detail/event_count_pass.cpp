// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// White-box: the event count (detail/fork_join/primitives/event_count.hpp). A lost wake-up hangs one of
// these loops, which the watchdog turns into a failure.

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE detail_event_count
#endif
#include "watchdog.hpp"

#include <boost/thread/executors/detail/fork_join/primitives/event_count.hpp>

#include <atomic>
#include <thread>

#ifndef BOOST_THREAD_FJ_TEST_SCALE
#define BOOST_THREAD_FJ_TEST_SCALE 1
#endif

BOOST_AUTO_TEST_SUITE(detail_event_count_pass) // this file's tests, which CTest runs by this name

using boost::detail::fork_join::event_count;

// Ping-pong through two flags published before notify(): each side sleeps with
// prepare / re-check / commit; any lost wake-up deadlocks.
BOOST_AUTO_TEST_CASE(no_lost_wakeup_commit_wait)
{
  const int rounds = 100000 / BOOST_THREAD_FJ_TEST_SCALE;
  event_count ec;
  std::atomic<int> turn{0};
  auto player = [&](int me) {
    for (int i = 0; i < rounds; ++i)
    {
      for (;;)
      {
        if (turn.load(std::memory_order_acquire) % 2 == me)
          break;
        const event_count::key_type key = ec.prepare_wait();
        if (turn.load(std::memory_order_acquire) % 2 == me)
        {
          ec.cancel_wait();
          break;
        }
        ec.commit_wait(key);
      }
      turn.fetch_add(1, std::memory_order_release);
      ec.notify_one();
    }
  };
  std::thread a(player, 0), b(player, 1);
  a.join();
  b.join();
  BOOST_TEST(turn.load() == 2 * rounds);
}

// Several sleepers and notify_all(): every sleeper wakes for every round (as close() and the
// last finished task wake every idle worker).
BOOST_AUTO_TEST_CASE(notify_all_wakes_every_sleeper)
{
  const int rounds = 20000 / BOOST_THREAD_FJ_TEST_SCALE;
  event_count ec;
  std::atomic<int> round{0};
  auto sleeper = [&] {
    for (int seen = 0; seen < rounds;)
    {
      if (round.load(std::memory_order_acquire) > seen)
      {
        ++seen;
        continue;
      }
      const event_count::key_type key = ec.prepare_wait();
      if (round.load(std::memory_order_acquire) > seen)
      {
        ec.cancel_wait();
        continue;
      }
      ec.commit_wait(key);
    }
  };
  std::thread a(sleeper), b(sleeper), c(sleeper);
  for (int i = 0; i < rounds; ++i)
  {
    round.fetch_add(1, std::memory_order_release);
    ec.notify_all();
  }
  a.join();
  b.join();
  c.join();
  BOOST_TEST(round.load() == rounds);
}

BOOST_AUTO_TEST_SUITE_END()
