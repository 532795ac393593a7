// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Parking (detail/fork_join/fibers/parking.hpp): a join on a pool thread that may run nothing
// parks its frame, and the thread goes on running tasks on a fresh stack. Each case attacks one
// promise of parking.hpp:
//  - every acyclic graph completes on exactly the pool's threads, at any depth: the chain with
//    observers at depth 10^4 (which needed two spare threads per level before, and hung past
//    the cap of 256 spares), with statistics().spare_threads == 0;
//  - a parked frame resumes on the thread that parked it: this_thread::get_id(), a
//    thread_local the frame owns, and a std::mutex held across the join;
//  - per-stack state: a frame parked inside a catch block while another parks inside its own
//    keeps its own exception (the C++ runtime keeps one chain per thread); the interruption
//    state of a stack-task join (disabled) is not inherited by the tasks the fresh stack runs;
//  - interruption: a frame parked on a future nothing posts (polled) resumes with
//    boost::thread_interrupted when its thread is interrupted; one parked on a fork resumes
//    when the fork is done, and the thread leaves only after that;
//  - a frame parked when the pool is destroyed: the destructor returns once it resumed;
//  - a join from a thread that is not a pool thread never parks.
// Rendezvous make each schedule the only one possible, without timing (two cases sleep so that
// a release likely comes late; every interleaving passes); a deadlock ends the run through the
// watchdog.

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE parking
#endif
#include "support.hpp"
#include "watchdog.hpp"

#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/parallel_invoke.hpp>
#include <boost/thread/future.hpp>
#include <boost/thread/thread_only.hpp>

#include <atomic>
#include <exception>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <thread>

BOOST_AUTO_TEST_SUITE(detail_parking_pass) // this file's tests, which CTest runs by this name

using boost::executors::fork_join_thread_pool;
using boost::executors::joinable_future;
namespace fj = boost::executors;
using fj_test::wait_for;

namespace {

// Waits until the pool has parked at least n frames in all.
void wait_for_parked(const fork_join_thread_pool& pool, std::uint64_t n)
{
  while (pool.statistics().frames_parked < n)
    std::this_thread::yield();
}

// The chain with observers: level i forks level i + 1, then an observer that joins
// level i + 1 and is joined by nobody, then joins level i + 1. An observer run on top of a frame
// that level i + 1 waits for would never end; with spare threads each stolen level cost two
// blocked threads.
struct chain
{
  fork_join_thread_pool& pool;
  int depth;
  std::atomic<int> observed{0};
  std::atomic<unsigned> threads_seen{0}; // threads that ran a level or an observer
};

// Counts the calling thread in c.threads_seen once (each pool starts threads of its own).
void seen_by(chain& c)
{
  thread_local const chain* counted_for = nullptr;
  if (counted_for != &c)
  {
    counted_for = &c;
    c.threads_seen.fetch_add(1, std::memory_order_relaxed);
  }
}

int level(chain& c, int i)
{
  seen_by(c);
  if (i == c.depth)
    return 0;
  boost::shared_future<int> next = fork(c.pool, level, std::ref(c), i + 1).share();
  fork(c.pool, [&c, next, i]() mutable {
    seen_by(c);
    fj::join(c.pool, next);
    if (next.get() == c.depth - (i + 1)) // what level i + 1 returns
      c.observed.fetch_add(1, std::memory_order_relaxed);
  });
  fj::join(c.pool, next);
  return next.get() + 1;
}

} // namespace

BOOST_AUTO_TEST_CASE(chain_with_observers_at_depth_ten_thousand)
{
  // 10^4 levels; a tenth in sanitizer builds, where every lock a level creates records the
  // whole stack (ThreadSanitizer keeps each such stack: gigabytes at 10^4 nested levels).
  const int depth = 10000 / BOOST_THREAD_FJ_TEST_SCALE;
  for (unsigned threads : {1u, 2u, 4u})
    BOOST_TEST_CONTEXT("threads " << threads)
    {
      fork_join_thread_pool pool(threads);
      chain c{pool, depth};
      joinable_future<int> root = fork(pool, level, std::ref(c), 0);
      root.wait(); // Boost's wait: this thread runs none of the tasks
      BOOST_TEST(root.get() == depth);
      pool.close();
      pool.join(); // the observers nobody joined
      BOOST_TEST(c.observed.load() == depth);
      // Exactly the pool's threads ran it: no thread was added to stand in for a waiter.
      BOOST_TEST(c.threads_seen.load() <= threads);
      BOOST_TEST(pool.statistics().spare_threads == 0u);
      BOOST_TEST_MESSAGE(threads << " threads: " << pool.statistics().frames_parked << " frames parked, "
                                 << c.threads_seen.load() << " threads ran tasks");
    }
}

namespace {

thread_local int frame_owned = 0; // only the frame under test writes it

} // namespace

// A frame parks on a fork that runs on the other thread (held there until the frame parked);
// it resumes on its own thread, with its thread_local and its lock as it left them.
BOOST_AUTO_TEST_CASE(a_parked_frame_resumes_on_its_own_thread)
{
  fork_join_thread_pool pool(2);
  std::atomic<bool> held_started{false}, release{false};
  std::mutex m;
  // The held task: forked from outside first, so the frame's join finds it running elsewhere.
  joinable_future<int> held = fork(pool, [&] {
    held_started.store(true, std::memory_order_release);
    wait_for(release);
    return 7;
  });
  wait_for(held_started);
  boost::shared_future<int> held_shared = held.share();
  bool same_thread = false, same_local = false;
  joinable_future<int> frame = fork(pool, [&] {
    const std::thread::id before = std::this_thread::get_id();
    const boost::thread::id before_boost = boost::this_thread::get_id();
    frame_owned = 42;
    std::unique_lock<std::mutex> lk(m); // held across the join; no other task takes m
    fj::join(pool, held_shared);        // parks: the held task runs on the other thread
    same_thread = std::this_thread::get_id() == before && boost::this_thread::get_id() == before_boost;
    same_local = frame_owned == 42;
    lk.unlock(); // by the thread that locked it
    return held_shared.get() * 6;
  });
  wait_for_parked(pool, 1);
  release.store(true, std::memory_order_release);
  BOOST_TEST(frame.get() == 42);
  BOOST_TEST(same_thread);
  BOOST_TEST(same_local);
}

// The article's "evil case" on one worker: a task joins a future whose value a task queued
// after it provides. The worker may not run that task inside the join (it could wait for the
// joiner): the join parks (polled: nothing posts a promise's future), and the same thread runs
// the setter on a fresh stack.
BOOST_AUTO_TEST_CASE(join_before_the_setter_runs_parks_on_one_worker)
{
  fork_join_thread_pool pool(1);
  boost::promise<int> p;
  boost::shared_future<int> pf = p.get_future().share();
  joinable_future<int> joiner = fork(pool, [&pool, pf]() mutable {
    fj::join(pool, pf);
    return pf.get() * 2;
  });
  pool.submit([&p] { p.set_value(21); });
  BOOST_TEST(joiner.get() == 42);
  BOOST_TEST(pool.statistics().frames_parked >= 1u);
  BOOST_TEST(pool.statistics().spare_threads == 0u);
}

namespace {

struct tagged_error : std::runtime_error
{
  explicit tagged_error(int t) : std::runtime_error("tagged"), tag(t) {}
  int tag;
};

// Returns: the tag of the exception being handled, rethrown.
int rethrown_tag()
{
  try
  {
    throw;
  }
  catch (const tagged_error& e)
  {
    return e.tag;
  }
  catch (...)
  {
    return -1;
  }
}

} // namespace

// Two frames on one thread park inside their catch blocks, and resume in the other order than
// a single stack would allow: each still handles its own exception.
BOOST_AUTO_TEST_CASE(exceptions_in_flight_are_per_stack)
{
  fork_join_thread_pool pool(1);
  boost::promise<void> p1, p2;
  boost::shared_future<void> f1 = p1.get_future().share(), f2 = p2.get_future().share();
  int a_tag = 0, c_tag = 0, a_after = 0;
  int a_uncaught = -1;
  joinable_future<void> a = fork(pool, [&] {
    try
    {
      throw tagged_error(1);
    }
    catch (...)
    {
      fj::join(pool, f1); // parks inside the handler
      a_tag = rethrown_tag();
      a_uncaught = std::uncaught_exceptions();
    }
    try
    {
      throw tagged_error(3); // a fresh exception after the handler: the chain is consistent
    }
    catch (const tagged_error& e)
    {
      a_after = e.tag;
    }
  });
  wait_for_parked(pool, 1);
  joinable_future<void> c = fork(pool, [&] {
    try
    {
      throw tagged_error(2);
    }
    catch (...)
    {
      fj::join(pool, f2); // parks inside its own handler, on the fresh stack
      c_tag = rethrown_tag();
    }
  });
  wait_for_parked(pool, 2);
  p1.set_value(); // a resumes while c is parked inside its handler
  a.get();
  p2.set_value();
  c.get();
  BOOST_TEST(a_tag == 1);
  BOOST_TEST(c_tag == 2);
  BOOST_TEST(a_after == 3);
  BOOST_TEST(a_uncaught == 0);
  BOOST_TEST(!std::current_exception());
}

// A stack-task join disables interruption while it waits, parked too; the task the fresh stack
// runs meanwhile is interruptible as any worker's, and the frame gets its own setting back.
BOOST_AUTO_TEST_CASE(interruption_state_is_per_stack)
{
  fork_join_thread_pool pool(2);
  std::atomic<bool> child_started{false}, release{false};
  std::atomic<int> fresh_enabled{-1}, resumed_enabled{-1};
  joinable_future<void> parent = fork(pool, [&] {
    fj::parallel_invoke(
        pool,
        [&] {
          // The first child runs inline; wait until the second was stolen and runs.
          wait_for(child_started);
        },
        [&] {
          child_started.store(true, std::memory_order_release);
          wait_for(release);
        });
    resumed_enabled.store(boost::this_thread::interruption_enabled() ? 1 : 0);
  });
  // The second child (queued) can only have been stolen by the other thread, where it waits
  // for `release`: the parent's join of it may run nothing and parks, and the task submitted now
  // runs on the parent's thread, on the fresh stack.
  wait_for_parked(pool, 1);
  pool.submit([&] { fresh_enabled.store(boost::this_thread::interruption_enabled() ? 1 : 0); });
  while (fresh_enabled.load() < 0)
    std::this_thread::yield();
  release.store(true, std::memory_order_release);
  parent.get();
  BOOST_TEST(fresh_enabled.load() == 1);
  BOOST_TEST(resumed_enabled.load() == 1);
}

// A frame parked on a promise's future (polled) when its thread is interrupted resumes with
// boost::thread_interrupted, as a blocked wait would; the thread then leaves.
BOOST_AUTO_TEST_CASE(interrupting_a_polled_parked_frame)
{
  bool interrupted = false; // plain: read after the pool is joined
  {
    fork_join_thread_pool pool(1);
    boost::promise<int> never;
    boost::shared_future<int> f = never.get_future().share();
    pool.submit([&pool, f, &interrupted]() mutable {
      try
      {
        fj::join(pool, f);
      }
      catch (const boost::thread_interrupted&)
      {
        interrupted = true;
        throw;
      }
    });
    wait_for_parked(pool, 1);
    pool.interrupt_and_join();
  }
  BOOST_TEST(interrupted);
}

// A fork that runs on one pool thread until released, and a task that joins it from another
// pool thread: the joiner's frame parks, registered with the fork's run record. (In the
// public-API-only build a fork's shared future names no task: the frame is polled, and an
// interruption of its thread resumes it with boost::thread_interrupted, as documented.)
struct held_fork_joiner
{
  std::atomic<bool> started{false}, release{false}, interrupted{false};
  std::atomic<int> result{0};

  // Returns: whether the joiner ended as documented for this build: with the fork's value, or,
  // polled (public-API-only build), interrupted.
  bool ended_as_documented(int value) const
  {
    return result.load() == value || (boost::detail::fork_join::public_api_only && interrupted.load());
  }

  // Effects: forks the held task (returning value once released), waits until a pool thread
  // runs it, then submits the joiner, which stores the fork's value in result, and waits until
  // the joiner's frame has parked.
  void start(fork_join_thread_pool& pool, int value)
  {
    joinable_future<int> held = fork(pool, [this, value] {
      started.store(true, std::memory_order_release);
      wait_for(release);
      return value;
    });
    wait_for(started);
    boost::shared_future<int> hs = held.share();
    pool.submit([this, &pool, hs]() mutable {
      try
      {
        fj::join(pool, hs);
      }
      catch (const boost::thread_interrupted&)
      {
        interrupted.store(true);
        throw;
      }
      result.store(hs.get());
    });
    wait_for_parked(pool, 1);
  }
};

// A frame parked on a fork when its thread is interrupted stays parked until the fork is done
// (it cannot leave: the fork's join is part of accepted work), then the thread leaves. The
// fork itself consumes nothing of the interruption.
BOOST_AUTO_TEST_CASE(interrupting_a_thread_with_a_registered_parked_frame)
{
  held_fork_joiner h;
  {
    fork_join_thread_pool pool(2);
    h.start(pool, 5);
    pool.interrupt();
    h.release.store(true, std::memory_order_release);
    pool.join();
  }
  BOOST_TEST(h.ended_as_documented(5));
}

// The pool is destroyed while one of its frames is parked on a fork that another thread holds
// back: the destructor returns once the frame resumed and its task ended.
BOOST_AUTO_TEST_CASE(destroying_the_pool_with_a_parked_frame)
{
  held_fork_joiner h;
  std::thread releaser;
  {
    fork_join_thread_pool pool(2);
    h.start(pool, 9);
    // Released only once the destructor has begun: it must wait for the parked frame.
    releaser = std::thread([&h] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      h.release.store(true, std::memory_order_release);
    });
  }
  releaser.join();
  BOOST_TEST(h.ended_as_documented(9));
}

// A join from a thread that is not a pool thread never parks: it sleeps until the task is done
// (the pool's threads run everything queued; this thread is never needed).
BOOST_AUTO_TEST_CASE(outside_joins_block_and_never_park)
{
  fork_join_thread_pool pool(1);
  std::atomic<bool> started{false}, release{false};
  joinable_future<int> held = fork(pool, [&] {
    started.store(true, std::memory_order_release);
    wait_for(release);
    return 4;
  });
  wait_for(started);
  std::thread releaser([&release] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20)); // likely after the join began
    release.store(true, std::memory_order_release);
  });
  fj::join(pool, held); // nothing this thread may run: it sleeps
  releaser.join();
  BOOST_TEST(held.get() == 4);
  BOOST_TEST(pool.statistics().frames_parked == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
