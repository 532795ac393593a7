// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Timed helping joins: joinable_future::join_for / join_until and the free join_for /
// join_until (joinable_future.hpp, fork_join.hpp; detail/fork_join/futures/join_futures.hpp, the timed
// frames of parking.hpp, the hook of future_hook.hpp). No case asserts on time; each attacks one
// promise:
//  - a deadline already passed only looks: a ready future says ready, a pending one timeout,
//    and no frame parks (frames_parked stays 0), on a pool thread and off the pool;
//  - a pool thread's join on a never-ready future parks its frame timed and resumes it by the
//    deadline, on the thread that parked it, with timeout, on 1, 2 and 4 threads, the task a
//    function pointer or a lambda, while other tasks keep the pool busy (a fib beside it);
//  - a timed join that the future beats says ready, with the task's value: a fork whose child
//    is blocked (the parked frame is hooked to the fork's state, and the hook posts it), and a
//    whole fib whose every join is timed (the own-newest fast path and the help loop);
//  - 10^4 frames (10^3 under the sanitizers) timed-parked at once on a pool of 2, half of
//    their futures fulfilled, in shuffled deadlines: each returns exactly once, ready exactly
//    when fulfilled before its join looked last;
//  - deadlines racing the fulfilment (the cancel of a hook that loses to its post): every
//    ready answer has a ready future, every frame resumes;
//  - two threads (two pool tasks, and the main thread) timed-joining one future (shared_futures
//    of one state) both time out, then both see it ready;
//  - interruption during a timed join, on a pool thread (a hooked timed frame) and on a thread
//    that is not a pool thread (Boost's wait_until): boost::thread_interrupted;
//  - a deferred future says deferred and is not run;
//  - 1000 timed-out joins on one future leave few hooks in its shared state (cancelled hooks
//    are dropped, amortized): its continuations stay bounded.
// Every case runs under the watchdog: a frame that never resumes fails the run.

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE timed join
#endif
#include "watchdog.hpp"

#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/future.hpp>
#include <boost/thread/latch.hpp>
#include <boost/thread/thread_only.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <random>
#include <thread>
#include <vector>

namespace boost {
// So that BOOST_TEST prints a status it compares.
inline std::ostream& boost_test_print_type(std::ostream& os, future_status s)
{
  return os << (s == future_status::ready ? "ready" : s == future_status::timeout ? "timeout" : "deferred");
}
} // namespace boost

BOOST_AUTO_TEST_SUITE(timed_join_pass) // this file's tests, which CTest runs by this name

using boost::future_status;
using boost::executors::fork_join_thread_pool;
using boost::executors::joinable_future;
namespace fj = boost::executors;
namespace chrono = boost::chrono;

namespace {

const int many = 10000 / BOOST_THREAD_FJ_TEST_SCALE;
const unsigned thread_counts[] = {1, 2, 4};

long fib(fork_join_thread_pool& pool, int n)
{
  if (n < 2)
    return n;
  joinable_future<long> a = fj::fork(pool, fib, std::ref(pool), n - 1);
  const long b = fib(pool, n - 2);
  a.join();
  return a.get() + b;
}

// fib with every join timed, with a deadline it never meets.
long timed_fib(fork_join_thread_pool& pool, int n)
{
  if (n < 2)
    return n;
  joinable_future<long> a = fj::fork(pool, timed_fib, std::ref(pool), n - 1);
  const long b = timed_fib(pool, n - 2);
  if (a.join_for(chrono::hours(1)) != future_status::ready)
    return -1000000;
  return a.get() + b;
}

// What a task saw of its timed join.
struct outcome
{
  future_status status = future_status::deferred;
  bool same_thread = false;
};

// A task (run through a function pointer): joins f for `ms` milliseconds, notes what it saw.
outcome timed_join_task(boost::shared_future<int> f, int ms)
{
  const std::thread::id before = std::this_thread::get_id();
  outcome o;
  o.status = fj::join_for(f, chrono::milliseconds(ms));
  o.same_thread = std::this_thread::get_id() == before;
  return o;
}

boost::shared_future<int> never_ready(boost::promise<int>& p) { return p.get_future().share(); }

void wait_for_parked_now(const fork_join_thread_pool& pool, std::uint64_t n)
{
  while (pool.statistics().frames_parked_now < n)
    std::this_thread::yield();
}

// A fork that runs on a pool thread and blocks it until release(): it has started when the
// constructor returns, so no joiner can run it; its future is shared, to be joined by several.
struct blocked_fork
{
  explicit blocked_fork(fork_join_thread_pool& pool, int value)
  {
    boost::shared_future<void> gate = release_.get_future().share();
    std::atomic<bool>* const started = &started_;
    joinable_future<int> job = fj::fork(pool, [gate, started, value] {
      started->store(true);
      gate.wait();
      return value;
    });
    while (!started_.load())
      std::this_thread::yield();
    shared = job.share();
  }
  ~blocked_fork()
  {
    if (!released_)
      release();
  }
  void release()
  {
    released_ = true;
    release_.set_value();
  }

  boost::shared_future<int> shared;

private:
  boost::promise<void> release_;
  std::atomic<bool> started_{false};
  bool released_ = false;
};

} // namespace

BOOST_AUTO_TEST_CASE(a_passed_deadline_only_looks)
{
  fork_join_thread_pool pool(2);
  boost::promise<int> p;
  boost::shared_future<int> pending = never_ready(p);
  boost::promise<int> q;
  q.set_value(7);
  boost::shared_future<int> done = q.get_future().share();
  // Off the pool.
  BOOST_TEST(fj::join_for(pending, chrono::seconds(0)) == future_status::timeout);
  BOOST_TEST(fj::join_until(pending, chrono::steady_clock::now() - chrono::seconds(1)) == future_status::timeout);
  BOOST_TEST(fj::join_until(pending, chrono::system_clock::now() - chrono::seconds(1)) == future_status::timeout);
  BOOST_TEST(fj::join_for(done, chrono::seconds(0)) == future_status::ready);
  // On a pool thread: a fork's future and an outside one, never parked.
  joinable_future<int> r = fj::fork(pool, [&pool, pending, done]() mutable {
    int bad = 0;
    joinable_future<int> child = fj::fork(pool, [] { return 1; });
    bad += child.join_for(chrono::seconds(-1)) == future_status::deferred; // ready or timeout
    child.join();
    bad += child.join_for(chrono::seconds(0)) != future_status::ready;
    bad += child.join_until(chrono::steady_clock::now()) != future_status::ready;
    bad += fj::join_for(pending, chrono::seconds(0)) != future_status::timeout;
    bad += fj::join_for(pool, pending, chrono::nanoseconds(0)) != future_status::timeout;
    bad += fj::join_for(done, chrono::seconds(0)) != future_status::ready;
    return bad;
  });
  BOOST_TEST(r.join_for(chrono::hours(1)) == future_status::ready);
  BOOST_TEST(r.get() == 0);
  BOOST_TEST(pool.statistics().frames_parked == 0u);
  p.set_value(1);
}

BOOST_AUTO_TEST_CASE(a_parked_frame_times_out_on_its_own_thread)
{
  for (unsigned threads : thread_counts)
  {
    fork_join_thread_pool pool(threads);
    boost::promise<int> p;
    boost::shared_future<int> f = never_ready(p);
    // A function pointer, forked.
    joinable_future<outcome> a = fj::fork(pool, &timed_join_task, f, 2);
    // A lambda, the free form with the pool and a system_clock deadline.
    joinable_future<outcome> b = fj::fork(pool, [&pool, f]() mutable {
      const std::thread::id before = std::this_thread::get_id();
      outcome o;
      o.status = fj::join_until(pool, f, chrono::system_clock::now() + chrono::milliseconds(2));
      o.same_thread = std::this_thread::get_id() == before;
      return o;
    });
    // A lambda, the member form on a joinable_future of an outside future.
    boost::promise<int> p3;
    joinable_future<outcome> c = fj::fork(pool, [&p3] {
      joinable_future<int> g = p3.get_future();
      const std::thread::id before = std::this_thread::get_id();
      outcome o;
      o.status = g.join_until(chrono::steady_clock::now() + chrono::milliseconds(3));
      o.same_thread = std::this_thread::get_id() == before;
      return o;
    });
    // Beside a busy pool: a fib keeps every thread running tasks while the frames wait.
    joinable_future<long> busy = fj::fork(pool, fib, std::ref(pool), 22);
    a.join();
    b.join();
    c.join();
    busy.join();
    const outcome oa = a.get(), ob = b.get();
    BOOST_TEST(oa.status == future_status::timeout);
    BOOST_TEST(oa.same_thread);
    BOOST_TEST(ob.status == future_status::timeout);
    BOOST_TEST(ob.same_thread);
    const outcome oc = c.get();
    BOOST_TEST(oc.status == future_status::timeout);
    BOOST_TEST(oc.same_thread);
    BOOST_TEST(busy.get() == 17711);
    BOOST_TEST(pool.statistics().frames_parked_now == 0u);
    p.set_value(1);
    p3.set_value(1);
  }
}

BOOST_AUTO_TEST_CASE(a_future_that_beats_the_deadline_says_ready)
{
  for (unsigned threads : thread_counts)
  {
    fork_join_thread_pool pool(threads);
    BOOST_TEST(fj::fork(pool, timed_fib, std::ref(pool), 20).get() == 6765);
    // A parent's timed join of its own fork, which it runs itself (the own-newest fast path).
    BOOST_TEST(fj::fork(pool, [&pool] {
                 joinable_future<int> child = fj::fork(pool, [] { return 42; });
                 return child.join_until(chrono::steady_clock::now() + chrono::hours(1)) == future_status::ready ? child.get() : -1;
               }).get() == 42);
    if (threads == 1)
      continue;
    // A fork that runs on one pool thread, blocked until main releases it; a task on another
    // pool thread timed-joins it: that frame parks hooked to the fork's state, and the fork's
    // end posts it before its deadline.
    blocked_fork job(pool, 42);
    boost::shared_future<int> shared = job.shared;
    joinable_future<outcome> waiter = fj::fork(pool, [shared]() mutable {
      const std::thread::id before = std::this_thread::get_id();
      outcome o;
      o.status = fj::join_for(shared, chrono::hours(1));
      o.same_thread = std::this_thread::get_id() == before && shared.get() == 42;
      return o;
    });
    wait_for_parked_now(pool, 1); // the waiter parked: nothing else it may run
    job.release();
    BOOST_TEST(waiter.join_for(chrono::hours(1)) == future_status::ready);
    const outcome o = waiter.get();
    BOOST_TEST(o.status == future_status::ready);
    BOOST_TEST(o.same_thread);
  }
}

BOOST_AUTO_TEST_CASE(many_timed_frames_all_return)
{
  fork_join_thread_pool pool(2);
  std::vector<boost::promise<int> > promises(many);
  std::vector<boost::shared_future<int> > futures;
  for (auto& p : promises)
    futures.push_back(p.get_future().share());
  std::vector<int> deadline_ms(many);
  for (int i = 0; i < many; ++i)
    deadline_ms[i] = 20 + i % 97; // shuffled against the order of the forks
  std::unique_ptr<std::atomic<int>[]> resumed(new std::atomic<int>[many]);
  for (int i = 0; i < many; ++i)
    resumed[i].store(0);
  std::vector<joinable_future<int> > tasks;
  for (int i = 0; i < many; ++i)
    tasks.push_back(fj::fork(pool, [&, i] {
      const future_status s = fj::join_for(futures[i], chrono::milliseconds(deadline_ms[i]));
      resumed[i].fetch_add(1);
      if (s == future_status::ready)
        return futures[i].get();
      return s == future_status::timeout ? -1 : -2;
    }));
  for (int i = 0; i < many; i += 2)
    promises[i].set_value(i);
  for (int i = 0; i < many; ++i)
  {
    const int r = tasks[i].get();
    BOOST_TEST(resumed[i].load() == 1);
    if (i % 2 == 1)
      BOOST_TEST(r == -1);
    else
      BOOST_TEST((r == i || r == -1)); // fulfilled: ready, unless its deadline came first
  }
  BOOST_TEST(pool.statistics().frames_parked_now == 0u);
  for (int i = 1; i < many; i += 2)
    promises[i].set_value(i);
}

BOOST_AUTO_TEST_CASE(deadlines_race_the_fulfilment)
{
  const int rounds = 2000 / BOOST_THREAD_FJ_TEST_SCALE;
  fork_join_thread_pool pool(2);
  std::mt19937 rng(12345);
  int ready = 0;
  for (int k = 0; k < rounds; ++k)
  {
    boost::promise<int> p;
    boost::shared_future<int> f = p.get_future().share();
    const int us = static_cast<int>(rng() % 200);
    joinable_future<int> t = fj::fork(pool, [f, us]() mutable {
      const future_status s = fj::join_for(f, chrono::microseconds(us));
      if (s == future_status::ready)
        return f.is_ready() ? 1 : -1;
      return s == future_status::timeout ? 0 : -2;
    });
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(rng() % 200);
    while (std::chrono::steady_clock::now() < until)
    {
    }
    p.set_value(k);
    const int r = t.get();
    BOOST_TEST(r >= 0);
    ready += r;
  }
  BOOST_TEST_MESSAGE("ready answers: " << ready << " of " << rounds);
  BOOST_TEST(pool.statistics().frames_parked_now == 0u);
}

BOOST_AUTO_TEST_CASE(two_threads_timed_join_one_future)
{
  fork_join_thread_pool pool(2);
  // Shared by two pool tasks and two threads that are not pool threads.
  blocked_fork job(pool, 5);
  boost::shared_future<int> shared = job.shared;
  std::atomic<int> first_done{0};
  auto joiner = [shared, &first_done]() mutable {
    const std::thread::id before = std::this_thread::get_id();
    int r = fj::join_for(shared, chrono::milliseconds(5)) == future_status::timeout ? 1 : 0;
    first_done.fetch_add(1);
    r += fj::join_for(shared, chrono::hours(1)) == future_status::ready ? 10 : 0;
    r += std::this_thread::get_id() == before ? 100 : 0;
    return r;
  };
  joinable_future<int> a = fj::fork(pool, joiner);
  joinable_future<int> b = fj::fork(pool, joiner);
  boost::shared_future<int> mine = shared;
  std::atomic<bool> outside_timed_out{false};
  boost::thread outside([shared, &outside_timed_out]() mutable {
    outside_timed_out.store(fj::join_for(shared, chrono::milliseconds(5)) == future_status::timeout);
  });
  BOOST_TEST(fj::join_for(mine, chrono::milliseconds(5)) == future_status::timeout);
  outside.join();
  BOOST_TEST(outside_timed_out.load());
  while (first_done.load() < 2) // a's and b's first joins have timed out (the job is blocked)
    std::this_thread::yield();
  job.release();
  BOOST_TEST(a.get() == 111);
  BOOST_TEST(b.get() == 111);
  BOOST_TEST(fj::join_for(mine, chrono::hours(1)) == future_status::ready);
  BOOST_TEST(mine.get() == 5);
}

BOOST_AUTO_TEST_CASE(interruption_during_a_timed_join)
{
  // On a pool thread: the timed frame is hooked, and the interruption cancels the hook.
  {
    boost::promise<int> never;
    boost::shared_future<int> f = never.get_future().share();
    std::atomic<int> interrupted{0};
    {
      fork_join_thread_pool pool(2);
      auto timed_wait = [f, &interrupted]() mutable {
        try
        {
          fj::join_until(f, chrono::steady_clock::now() + chrono::hours(1));
        }
        catch (const boost::thread_interrupted&)
        {
          interrupted.fetch_add(1);
          throw;
        }
      };
      pool.submit(timed_wait);
      pool.submit(timed_wait);
      wait_for_parked_now(pool, 2);
      pool.interrupt_and_join();
    }
    BOOST_TEST(interrupted.load() == 2);
    never.set_value(1); // runs the cancelled hook: it touches nothing
  }
  // On a thread that is not a pool thread: Boost's wait_until is the interruption point.
  {
    fork_join_thread_pool pool(1);
    blocked_fork job(pool, 1); // the pool thread runs it: the joiner below has nothing to run
    std::atomic<int> seen{0};
    boost::thread t([&] {
      try
      {
        fj::join_for(job.shared, chrono::hours(1));
        seen.store(1);
      }
      catch (const boost::thread_interrupted&)
      {
        seen.store(2);
      }
    });
    t.interrupt();
    t.join();
    BOOST_TEST(seen.load() == 2);
    job.release();
    BOOST_TEST(job.shared.get() == 1);
  }
}

BOOST_AUTO_TEST_CASE(a_deferred_future_says_deferred)
{
  std::atomic<bool> ran{false};
  boost::future<int> d = boost::async(boost::launch::deferred, [&ran] {
    ran.store(true);
    return 3;
  });
  BOOST_TEST(fj::join_for(d, chrono::milliseconds(1)) == future_status::deferred);
  BOOST_TEST(!ran.load());
  joinable_future<int> j = std::move(d);
  BOOST_TEST(j.join_for(chrono::seconds(0)) == future_status::deferred);
  BOOST_TEST(!ran.load());
  j.join(); // join() runs it
  BOOST_TEST(j.get() == 3);
}

BOOST_AUTO_TEST_CASE(cancelled_hooks_do_not_pile_up)
{
  fork_join_thread_pool pool(1);
  boost::promise<int> p;
  boost::shared_future<int> f = p.get_future().share();
  const int joins = 1000 / BOOST_THREAD_FJ_TEST_SCALE;
  joinable_future<int> t = fj::fork(pool, [f]() mutable { // joins: a constant, not captured
    int timeouts = 0;
    for (int i = 0; i < joins; ++i)
      timeouts += fj::join_for(f, chrono::microseconds(20)) == future_status::timeout;
    return timeouts;
  });
  BOOST_TEST(t.get() == joins);
#ifndef BOOST_THREAD_FJ_PUBLIC_API_ONLY
  {
    boost::detail::shared_state_base& state = *boost::detail::fork_join::state_of(f);
    boost::unique_lock<boost::mutex> lk(state.mutex);
    BOOST_TEST(state.continuations.size() <= 64u); // a hook per join, dropped in bulk
  }
#endif
  p.set_value(1);
  BOOST_TEST(f.get() == 1);
}

BOOST_AUTO_TEST_SUITE_END()
