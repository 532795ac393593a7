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
// interrupt_while_submitting_tasks_that_fork_and_join: the same flood, of closures
// that fork two children and join them, while the pool is interrupted (once or twice, at a
// random point, with random yields after) and then destroyed. Children count their run, then
// pass an interruption point (an interruption then lands in their future). join() is an
// interruption point too: per closure, one that catches boost::thread_interrupted joins again
// (resumes), one lets it leave the closure (allowed for submit: the worker leaves, and its
// children are dropped unjoined), one returns at once, futures unjoined. Accounting: every
// accepted closure ran exactly once, every child whose fork returned ran exactly once, no
// rejected closure ran, and every child's get() (after a join that returned) gave its value or
// thread_interrupted. A hang (the destructor never returning) ends the run by the watchdog.
//
// BOOST_THREAD_FJ_TEST_SCALE divides the size for slow builds (sanitizers).

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE shutdown_stress
#endif
#include "watchdog.hpp"

#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/fork_join_thread_pool.hpp>
#include <boost/thread/executors/generic_executor_ref.hpp>
#include <boost/thread/latch.hpp>
#include <boost/thread/thread.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#ifndef BOOST_THREAD_FJ_TEST_SCALE
#define BOOST_THREAD_FJ_TEST_SCALE 1
#endif

BOOST_AUTO_TEST_SUITE(shutdown_stress_pass) // this file's tests, which CTest runs by this name

using boost::executors::fork_join_thread_pool;
using boost::executors::joinable_future;

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

constexpr int fork_per_submitter = 2000 / BOOST_THREAD_FJ_TEST_SCALE;

struct fork_outcome
{
  // Written by the pool's tasks, read after the pool's destructor: plain.
  std::vector<int> ran = std::vector<int>(fork_per_submitter, 0);          // per closure
  std::vector<int> child_ran = std::vector<int>(2 * fork_per_submitter, 0); // per child
  std::vector<char> forked = std::vector<char>(2 * fork_per_submitter, 0);  // the child's fork returned
  std::vector<char> bad = std::vector<char>(fork_per_submitter, 0);         // a child's get() was wrong
  std::vector<char> interrupted = std::vector<char>(fork_per_submitter, 0); // the closure caught one
  // Written by the submitter.
  std::vector<char> accepted = std::vector<char>(fork_per_submitter, 0);
};

// What a closure does when its join throws boost::thread_interrupted.
enum class on_interrupt
{
  resume,    // joins again
  propagate, // lets it leave the closure
  stop       // returns at once, its children's futures unjoined
};

// The closure submitted as the i-th of its submitter.
void fork_and_join(fork_outcome& o, int i)
{
  ++o.ran[i]; // plain: a second run races with the first, which ThreadSanitizer reports
  auto child = [&o](int slot) {
    return [&o, slot] {
      ++o.child_ran[slot];
      boost::this_thread::interruption_point(); // an interruption lands in the future
      return slot;
    };
  };
  // fork without an executor: on the pool that runs this closure (also while it is destroyed).
  joinable_future<int> a = boost::executors::fork(child(2 * i));
  o.forked[2 * i] = 1;
  joinable_future<int> b = boost::executors::fork(child(2 * i + 1));
  o.forked[2 * i + 1] = 1;
  const on_interrupt policy = static_cast<on_interrupt>(i % 3);
  for (;;)
  {
    try
    {
      boost::executors::join(a, b);
      break;
    }
    catch (const boost::thread_interrupted&)
    {
      o.interrupted[i] = 1;
      if (policy == on_interrupt::resume)
        continue;
      if (policy == on_interrupt::propagate)
        throw;
      return;
    }
  }
  for (int k = 0; k < 2; ++k)
    try
    {
      if ((k == 0 ? a : b).get() != 2 * i + k)
        o.bad[i] = 1;
    }
    catch (const boost::thread_interrupted&)
    {
      // the child's own interruption point
    }
}

void run_interrupt_round(unsigned threads, std::uint32_t seed)
{
  std::mt19937 rng(seed);
  const long total = long(submitters) * fork_per_submitter;
  // When the main thread acts, and how: 1/16 to 1/2 of the closures accepted; then interrupt
  // (or not: the destructor does) and yield, maybe interrupt again, then destroy.
  const long act_at = total / 16 + static_cast<long>(rng() % static_cast<std::uint32_t>(total / 2 - total / 16));
  const int interrupts = static_cast<int>(rng() % 3);
  const int pause = static_cast<int>(rng() % 2000);

  std::vector<fork_outcome> out(submitters);
  std::unique_ptr<fork_join_thread_pool> pool(new fork_join_thread_pool(threads));
  std::atomic<long> total_accepted{0};
  boost::latch ready(submitters);
  std::vector<std::thread> ts;
  for (int s = 0; s < submitters; ++s)
  {
    ts.emplace_back([&, s, ref = boost::executors::generic_executor_ref(*pool)]() mutable {
      ready.count_down();
      fork_outcome& o = out[s];
      for (int i = 0; i < fork_per_submitter; ++i)
      {
        try
        {
          ref.submit([&o, i] { fork_and_join(o, i); });
          o.accepted[i] = 1;
          total_accepted.fetch_add(1, std::memory_order_relaxed); // relaxed: a trigger
        }
        catch (const boost::sync_queue_is_closed&)
        {
          // Rejected: must never run.
        }
      }
    });
  }
  ready.wait();
  while (total_accepted.load(std::memory_order_relaxed) < act_at)
    std::this_thread::yield();
  for (int k = 0; k < interrupts; ++k)
  {
    pool->interrupt();
    for (int y = 0; y < pause; ++y) // shapes the interleaving only
      std::this_thread::yield();
  }
  pool.reset(); // interrupts, then must run everything accepted and return
  for (std::thread& t : ts)
    t.join();

  long accepted = 0, interrupted = 0;
  for (const fork_outcome& o : out)
    for (int i = 0; i < fork_per_submitter; ++i)
    {
      BOOST_REQUIRE_EQUAL(o.ran[i], o.accepted[i] ? 1 : 0);
      for (int k = 2 * i; k < 2 * i + 2; ++k)
      {
        BOOST_REQUIRE_EQUAL(o.child_ran[k], o.forked[k] ? 1 : 0);
        BOOST_REQUIRE(!o.forked[k] || o.ran[i] == 1);
      }
      BOOST_REQUIRE(!o.bad[i]);
      accepted += o.accepted[i];
      interrupted += o.interrupted[i];
    }
  BOOST_TEST(accepted >= act_at);
  BOOST_TEST_MESSAGE(threads << " threads, seed " << seed << ": " << accepted << " closures accepted, " << interrupted
                             << " caught an interruption in a join");
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

BOOST_AUTO_TEST_CASE(interrupt_while_submitting_tasks_that_fork_and_join)
{
  std::uint32_t seed = 20;
  // Rounds are what matters (each interrupts at its own point): fewer in slow builds.
  const int rounds = BOOST_THREAD_FJ_TEST_SCALE > 1 ? 2 : 4;
  for (int round = 0; round < rounds; ++round)
    for (unsigned threads : {1u, 2u, 4u})
      run_interrupt_round(threads, seed++);
}

BOOST_AUTO_TEST_SUITE_END()
