// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Waits for what happens outside the pool, at scale (detail/fork_join/waits/future_hook.hpp,
// parking.hpp, fiber_stack.hpp). Each case attacks one promise:
//  - 10^4 frames (10^3 under the sanitizers) wait at once for futures of boost::promises that
//    main() fulfils later, on a pool of 2, taking one kernel mapping per 16 fiber stacks (two per
//    stack where the guard pages are mprotect'ed: external_waits_mprotect_pass, built with
//    BOOST_THREAD_FJ_FIBER_GUARD_MPROTECT): each frame is hooked to its future, every one resumes
//    exactly once with its own value, and no thread ever polls a frame (polls == 0 in the default
//    build): a thread's look between two tasks costs nothing per waiting frame, so starting N
//    waits is linear in N (a count bound, where polling made it quadratic);
//  - the same with forks in between (a task joins a fork, which waits for an outside future):
//    the outer frames are registered with the forks, the inner ones hooked;
//  - interruption cancels a hook: the frame resumes with boost::thread_interrupted, and the
//    promise fulfilled after the pool is gone runs the cancelled hook, which touches nothing;
//  - the system refusing fiber stacks mid-graph (injected through stack_mappings.hpp; no system
//    setting is changed): a join that must park throws
//    fiber_stack_error, naming the limits; every accepted task runs exactly once; waits whose
//    children live in their frame (parallel_invoke) still complete; the pool works afterwards;
//  - deep chains on small fiber stacks: a join near the end of a stack goes on on a fresh one,
//    so 10^5 nested parallel_invoke or fork levels complete with 64 KiB fiber stacks, started
//    on a fiber.
// Every case runs under the watchdog: a lost wake-up or a hang fails the run.

#include "stack_mappings.hpp" // before the library: how a test refuses fiber stacks

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE external waits
#endif
#include "support.hpp"
#include "watchdog.hpp"

#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/parallel_invoke.hpp>
#include <boost/thread/future.hpp>
#include <boost/thread/thread_only.hpp>

#include <memory>
#include <string>
#include <thread>
#include <vector>

BOOST_AUTO_TEST_SUITE(external_waits_pass) // this file's tests, which CTest runs by this name

using boost::executors::fork_join_thread_pool;
using boost::executors::joinable_future;
namespace fj = boost::executors;

namespace {

const int many = 10000 / BOOST_THREAD_FJ_TEST_SCALE;

// Waits until the pool has n frames parked at once.
void wait_for_parked_now(const fork_join_thread_pool& pool, std::uint64_t n)
{
  while (pool.statistics().frames_parked_now < n)
    std::this_thread::yield();
}

struct outside_events
{
  explicit outside_events(int n) : promises(n), resumed(new std::atomic<int>[n])
  {
    for (int i = 0; i < n; ++i)
    {
      futures.push_back(promises[i].get_future().share());
      resumed[i].store(0);
    }
  }
  std::vector<boost::promise<int> > promises;
  std::vector<boost::shared_future<int> > futures;
  std::unique_ptr<std::atomic<int>[]> resumed;
};

long fib(fork_join_thread_pool& pool, int n)
{
  if (n < 2)
    return n;
  long a = 0, b = 0;
  fj::parallel_invoke(pool, [&] { a = fib(pool, n - 1); }, [&] { b = fib(pool, n - 2); });
  return a + b;
}

long fib_fork(fork_join_thread_pool& pool, int n)
{
  if (n < 2)
    return n;
  joinable_future<long> a = fork(pool, fib_fork, std::ref(pool), n - 1);
  const long b = fib_fork(pool, n - 2);
  a.join();
  return a.get() + b;
}

} // namespace

BOOST_AUTO_TEST_CASE(many_frames_wait_for_outside_futures)
{
  fork_join_thread_pool pool(2);
  outside_events ev(many);
  std::vector<joinable_future<int> > tasks;
  for (int i = 0; i < many; ++i)
    tasks.push_back(fork(pool, [&pool, &ev, i] {
      boost::shared_future<int> f = ev.futures[i];
      fj::join(pool, f);
      ev.resumed[i].fetch_add(1);
      return f.get() + 1;
    }));
  wait_for_parked_now(pool, many);
  {
    const fj::fork_join_statistics s = pool.statistics();
    if (!boost::detail::fork_join::public_api_only)
      BOOST_TEST(s.polls == 0u); // hooked: no thread looked at a waiting frame
    BOOST_TEST(s.fiber_stacks >= std::uint64_t(many));
    BOOST_TEST(s.fiber_stack_bytes >= s.fiber_stacks * (std::uint64_t(64) << 10));
    // One mapping per 16 stacks with guard markers; two per stack with mprotect'ed guards.
    if (boost::detail::fork_join::fiber_stack_cache::guard_markers())
      BOOST_TEST(s.fiber_stack_mappings * 8 <= s.fiber_stacks);
    else
      BOOST_TEST(s.fiber_stack_mappings >= 2 * s.fiber_stacks);
  }
  for (int i = many; i-- > 0;) // the other order than they parked
    ev.promises[i].set_value(i);
  for (int i = 0; i < many; ++i)
  {
    BOOST_TEST(tasks[i].get() == i + 1);
    BOOST_TEST(ev.resumed[i].load() == 1);
  }
  const fj::fork_join_statistics s = pool.statistics();
  BOOST_TEST(s.frames_parked_now == 0u);
  BOOST_TEST(s.frames_parked_peak >= std::uint64_t(many));
  BOOST_TEST(s.spare_threads == 0u);
}

BOOST_AUTO_TEST_CASE(forks_that_wait_for_outside_futures)
{
  fork_join_thread_pool pool(2);
  outside_events ev(many / 2);
  std::vector<joinable_future<int> > tasks;
  for (int i = 0; i < many / 2; ++i)
    tasks.push_back(fork(pool, [&pool, &ev, i] {
      joinable_future<int> inner = fork(pool, [&pool, &ev, i] {
        boost::shared_future<int> f = ev.futures[i];
        fj::join(pool, f);
        ev.resumed[i].fetch_add(1);
        return f.get();
      });
      inner.join();
      return inner.get() + 1;
    }));
  wait_for_parked_now(pool, std::uint64_t(many / 2));
  for (int i = 0; i < many / 2; ++i)
    ev.promises[i].set_value(i);
  for (int i = 0; i < many / 2; ++i)
  {
    BOOST_TEST(tasks[i].get() == i + 1);
    BOOST_TEST(ev.resumed[i].load() == 1);
  }
  BOOST_TEST(pool.statistics().frames_parked_now == 0u);
}

// A cancelled hook stays in the promise's state until the promise is fulfilled; then it runs
// and must touch nothing: the frame, its thread and the pool are gone (AddressSanitizer).
BOOST_AUTO_TEST_CASE(interruption_cancels_a_hook_that_fires_later)
{
  boost::promise<int> late;
  boost::shared_future<int> f = late.get_future().share();
  std::atomic<bool> interrupted{false};
  {
    fork_join_thread_pool pool(1);
    pool.submit([&pool, f, &interrupted]() mutable {
      try
      {
        fj::join(pool, f);
      }
      catch (const boost::thread_interrupted&)
      {
        interrupted.store(true);
        throw;
      }
    });
    wait_for_parked_now(pool, 1);
    pool.interrupt_and_join();
  }
  BOOST_TEST(interrupted.load());
  late.set_value(1); // runs the cancelled hook
  BOOST_TEST(f.get() == 1);
}

// The system grants each pool thread one slab of fiber stacks (its first spare's, at start)
// and refuses every mapping after that: the parks beyond those stacks cannot be had.
BOOST_AUTO_TEST_CASE(no_stack_for_a_park_throws_and_loses_nothing)
{
  const unsigned threads = 2;
  const int tasks = 3 * threads * BOOST_THREAD_FJ_FIBER_STACKS_PER_MAPPING;
  fj_test::stack_mappings_left.store(int(threads));
  fork_join_thread_pool pool(threads);
  boost::promise<void> gate;
  boost::shared_future<void> opened = gate.get_future().share();
  std::unique_ptr<std::atomic<int>[]> ran(new std::atomic<int>[tasks]);
  std::atomic<int> refused{0};
  std::vector<joinable_future<int> > results;
  for (int i = 0; i < tasks; ++i)
    ran[i].store(0);
  for (int i = 0; i < tasks; ++i)
    results.push_back(fork(pool, [&, i] {
      ran[i].fetch_add(1);
      try
      {
        fj::join(pool, opened);
      }
      catch (const fj::fiber_stack_error&)
      {
        refused.fetch_add(1);
        throw;
      }
      return i;
    }));
  // Every task has run to its join: parked, or refused a stack.
  while (pool.statistics().frames_parked_now + std::uint64_t(refused.load()) < std::uint64_t(tasks))
    std::this_thread::yield();
  BOOST_TEST(refused.load() > 0);
  // Waits whose children live in their frame, while no thread has a stack to spare: their
  // children run inline instead of being queued, and they complete.
  BOOST_TEST(fork(pool, [&pool] { return fib(pool, 18); }).get() == 2584);
  BOOST_TEST(fib(pool, 18) == 2584);
  gate.set_value();
  int values = 0, errors = 0;
  for (int i = 0; i < tasks; ++i)
  {
    try
    {
      BOOST_TEST(results[i].get() == i);
      ++values;
    }
    catch (const fj::fiber_stack_error& e)
    {
      ++errors;
      BOOST_TEST(e.code().value() == ENOMEM);
      const std::string what = e.what();
      BOOST_TEST(what.find("vm.max_map_count") != std::string::npos);
      BOOST_TEST(what.find("RLIMIT_AS") != std::string::npos);
      BOOST_TEST(what.find("fiber_stack_size") != std::string::npos);
    }
    BOOST_TEST(ran[i].load() == 1);
  }
  BOOST_TEST(values > 0);
  BOOST_TEST(errors == refused.load());
  BOOST_TEST(values + errors == tasks);
  // The system grants mappings again: the pool is as usable as before.
  fj_test::stack_mappings_left.store(-1);
  BOOST_TEST(fork(pool, [&pool] { return fib_fork(pool, 20); }).get() == 6765);
  BOOST_TEST(pool.statistics().frames_parked_now == 0u);
}

namespace {

std::size_t invoke_chain(fork_join_thread_pool& pool, std::size_t n)
{
  if (n == 0)
    return 0;
  std::size_t below = 0;
  fj::parallel_invoke(pool, [] {}, [&] { below = invoke_chain(pool, n - 1); });
  return below + 1;
}

std::size_t fork_chain(fork_join_thread_pool& pool, std::size_t n)
{
  if (n == 0)
    return 0;
  joinable_future<std::size_t> below = fork(pool, fork_chain, std::ref(pool), n - 1);
  below.join();
  return below.get() + 1;
}

} // namespace

BOOST_AUTO_TEST_CASE(deep_chains_hop_across_small_fiber_stacks)
{
  // Under the sanitizers 10^4: ThreadSanitizer cannot record a stack of more than 65536 frames.
  const std::size_t depth = 100000 / BOOST_THREAD_FJ_TEST_SCALE;
  for (unsigned threads : {1u, 2u})
  {
    fork_join_thread_pool::options opts;
    opts.fiber_stack_size = std::size_t(64) << 10;
    fork_join_thread_pool pool(threads, opts);
    // A frame parked first: on one thread, the chains then start on a fiber stack.
    boost::promise<void> release;
    boost::shared_future<void> released = release.get_future().share();
    joinable_future<void> parked = fork(pool, [&pool, released] { fj::join(pool, released); });
    wait_for_parked_now(pool, 1);
    BOOST_TEST(fork(pool, [&pool] { return invoke_chain(pool, depth); }).get() == depth);
    BOOST_TEST(fork(pool, [&pool] { return fork_chain(pool, depth); }).get() == depth);
    release.set_value();
    parked.get();
  }
}

BOOST_AUTO_TEST_SUITE_END()
