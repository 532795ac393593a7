// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// White-box: the event count (detail/fork_join/event_count.hpp). A lost wake-up hangs one of
// these loops, which the watchdog turns into a failure.

#define BOOST_TEST_MODULE detail_event_count
#include "watchdog.hpp"

#include <boost/thread/executors/detail/fork_join/event_count.hpp>

#include <atomic>
#include <thread>

#ifndef BOOST_THREAD_FJ_TEST_SCALE
#define BOOST_THREAD_FJ_TEST_SCALE 1
#endif

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

// The joiner side: enlist a wake token and sleep on its future.
BOOST_AUTO_TEST_CASE(no_lost_wakeup_enlist)
{
  const int rounds = 20000 / BOOST_THREAD_FJ_TEST_SCALE;
  event_count ec;
  std::atomic<int> produced{0};
  std::thread consumer([&] {
    for (int seen = 0; seen < rounds;)
    {
      if (produced.load(std::memory_order_acquire) > seen)
      {
        ++seen;
        continue;
      }
      const event_count::key_type key = ec.prepare_wait();
      if (produced.load(std::memory_order_acquire) > seen)
      {
        ec.cancel_wait();
        continue;
      }
      event_count::wake_token w;
      boost::future<void> f = w.get_future();
      if (ec.enlist(key, w))
        f.wait();
      ec.delist(w);
      ec.cancel_wait();
    }
  });
  for (int i = 0; i < rounds; ++i)
  {
    produced.fetch_add(1, std::memory_order_release);
    ec.notify_one();
  }
  consumer.join();
  BOOST_TEST(produced.load() == rounds);
}
