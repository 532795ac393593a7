// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// White-box: the closable double-ended queue (detail/fork_join/primitives/locked_deque.hpp).

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE detail_locked_deque
#endif
#include "watchdog.hpp"

#include <boost/thread/executors/detail/fork_join/primitives/locked_deque.hpp>

#include <atomic>
#include <thread>
#include <vector>

#ifndef BOOST_THREAD_FJ_TEST_SCALE
#define BOOST_THREAD_FJ_TEST_SCALE 1
#endif

BOOST_AUTO_TEST_SUITE(detail_locked_deque_pass) // this file's tests, which CTest runs by this name

using boost::detail::fork_join::locked_deque;
using boost::queue_op_status;

BOOST_AUTO_TEST_CASE(four_ends)
{
  locked_deque<int> q;
  int x = 0;
  BOOST_TEST(q.empty());
  BOOST_TEST((q.try_pull_front(x) == queue_op_status::empty));
  q.push_back(1);
  q.push_back(2);
  q.push_front(0);
  BOOST_TEST(q.size() == 3u);
  BOOST_TEST((q.try_pull_back(x) == queue_op_status::success));
  BOOST_TEST(x == 2);
  BOOST_TEST((q.try_pull_front(x) == queue_op_status::success));
  BOOST_TEST(x == 0);
  BOOST_TEST((q.try_pull_front(x) == queue_op_status::success));
  BOOST_TEST(x == 1);
  BOOST_TEST(q.empty());
}

BOOST_AUTO_TEST_CASE(close_rejects_pushes_but_not_pulls)
{
  locked_deque<int> q;
  q.push_back(1);
  BOOST_TEST(!q.closed());
  q.close();
  BOOST_TEST(q.closed());
  BOOST_CHECK_THROW(q.push_back(2), boost::sync_queue_is_closed);
  BOOST_CHECK_THROW(q.push_front(2), boost::sync_queue_is_closed);
  q.force_push_front(3); // accepted work's children
  int x = 0;
  BOOST_TEST((q.try_pull_back(x) == queue_op_status::success));
  BOOST_TEST(x == 1);
  BOOST_TEST((q.try_pull_back(x) == queue_op_status::success));
  BOOST_TEST(x == 3);
  BOOST_TEST((q.try_pull_front(x) == queue_op_status::closed));
}

// Producers at both ends, consumers at both ends: every value pulled exactly once.
BOOST_AUTO_TEST_CASE(concurrent_exactly_once)
{
  const int per_producer = 200000 / BOOST_THREAD_FJ_TEST_SCALE;
  const int producers = 4;
  locked_deque<int> q;
  std::vector<std::atomic<int> > seen(per_producer * producers);
  std::atomic<int> pulled{0};
  std::vector<std::thread> ts;
  for (int p = 0; p < producers; ++p)
    ts.emplace_back([&, p] {
      for (int i = 0; i < per_producer; ++i)
      {
        const int v = p * per_producer + i;
        if (i % 2)
          q.push_front(v);
        else
          q.push_back(v);
      }
    });
  for (int c = 0; c < 4; ++c)
    ts.emplace_back([&, c] {
      int v = 0;
      while (pulled.load(std::memory_order_relaxed) < per_producer * producers)
      {
        const queue_op_status st = (c % 2) ? q.try_pull_front(v) : q.try_pull_back(v);
        if (st == queue_op_status::success)
        {
          seen[v].fetch_add(1, std::memory_order_relaxed);
          pulled.fetch_add(1, std::memory_order_relaxed);
        }
        else
          std::this_thread::yield();
      }
    });
  for (std::thread& t : ts)
    t.join();
  for (auto& s : seen)
    BOOST_REQUIRE_EQUAL(s.load(), 1);
}

BOOST_AUTO_TEST_SUITE_END()
