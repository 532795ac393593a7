// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// 10^6 submissions from 4 outside threads while the pool is closed and destroyed: every
// accepted task runs exactly once, no rejected task runs. Public API only.
//
// The submitters go through generic_executor_refs made while the pool lived: for our pool such
// a reference shares the scheduler, so submitting through it while (and after) the pool object
// is destroyed is safe and throws sync_queue_is_closed once closed.
//
// BOOST_THREAD_FJ_TEST_SCALE divides the size for slow builds (sanitizers).

#define BOOST_TEST_MODULE shutdown_stress
#include "watchdog.hpp"

#include <boost/thread/executors/fork_join_thread_pool.hpp>
#include <boost/thread/executors/generic_executor_ref.hpp>
#include <boost/thread/latch.hpp>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#ifndef BOOST_THREAD_FJ_TEST_SCALE
#define BOOST_THREAD_FJ_TEST_SCALE 1
#endif

using boost::executors::fork_join_thread_pool;

namespace {

constexpr int submitters = 4;
constexpr int per_submitter = 250000 / BOOST_THREAD_FJ_TEST_SCALE;

struct outcome
{
  std::vector<int> ran = std::vector<int>(per_submitter, 0); // written by tasks: plain ints
  std::vector<char> accepted = std::vector<char>(per_submitter, 0);
};

void run_round(unsigned threads, bool fork_children)
{
  std::vector<outcome> out(submitters);
  std::unique_ptr<fork_join_thread_pool> pool(new fork_join_thread_pool(threads));
  std::atomic<int> total_accepted{0};
  boost::latch ready(submitters);
  std::vector<std::thread> ts;
  for (int s = 0; s < submitters; ++s)
  {
    ts.emplace_back([&, s, ref = boost::executors::generic_executor_ref(*pool)]() mutable {
      ready.count_down();
      outcome& o = out[s];
      for (int i = 0; i < per_submitter; ++i)
      {
        try
        {
          int* slot = &o.ran[i];
          if (fork_children && i % 64 == 0)
          {
            // A task that submits children to the pool it runs on, which stays allowed after
            // close: the children must run too. Each child counts for the same slot once.
            // Copy from a const reference: copying a non-const generic_executor_ref lvalue
            // picks Boost's template constructor, which wraps a reference to the source object
            // (this thread's `ref`, gone when the thread ends) instead of sharing its executor.
            const boost::executors::generic_executor_ref& shared_ref = ref;
            ref.submit([slot, child_ref = shared_ref]() mutable {
              child_ref.submit([slot] { ++*slot; });
            });
          }
          else
            ref.submit([slot] { ++*slot; });
          o.accepted[i] = 1;
          total_accepted.fetch_add(1, std::memory_order_relaxed);
        }
        catch (const boost::sync_queue_is_closed&)
        {
          // Rejected: must never run. Keep trying: every later attempt must be rejected too.
        }
      }
    });
  }
  ready.wait();
  // Destroy the pool while the submitters are in full flow.
  while (total_accepted.load(std::memory_order_relaxed) < submitters * per_submitter / 4)
    std::this_thread::yield();
  pool.reset();
  for (std::thread& t : ts)
    t.join();

  long accepted = 0, ran = 0;
  for (const outcome& o : out)
    for (int i = 0; i < per_submitter; ++i)
    {
      BOOST_REQUIRE_EQUAL(o.ran[i], o.accepted[i] ? 1 : 0);
      accepted += o.accepted[i];
      ran += o.ran[i];
    }
  BOOST_TEST(accepted == ran);
  BOOST_TEST(accepted >= submitters * per_submitter / 4);
}

} // namespace

BOOST_AUTO_TEST_CASE(destroy_while_submitting)
{
  for (unsigned threads : {1u, 2u, 4u})
    run_round(threads, false);
}

BOOST_AUTO_TEST_CASE(destroy_while_submitting_tasks_that_fork)
{
  run_round(2, true);
}
