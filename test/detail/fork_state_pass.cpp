// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// White-box: forked_task_of (detail/fork_join/futures/fork_state.hpp) finds the task behind a plain
// boost::future through its fast path "cast cache" (doc/design.md, "Fast paths and their assumptions"): per thread and result
// type, the dynamic type of the shared state last cast and where its task part sits, so that a
// run of futures of one type costs one dynamic_cast. Its precondition is that one dynamic type
// always has its task part at the same offset, and that a type seen before is recognised by its
// type_info. The cases attack the cache with every mix a user can make: futures of forks of
// different closures, of our boost::async, and of Boost's own states (promise, packaged_task,
// ready, deferred, continuations), in every order, on several threads at once, for results by
// value, by reference and void. Each answer must be exactly dynamic_cast's.
//
// Also the fast path "unwatched completion" (fork_state::finish): every kind of Boost waiter on a
// fork's future, at every point of the task's run, is woken (see its case below).

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE detail_fork_state
#endif
#include "../support.hpp"
#include "../watchdog.hpp"

#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/future.hpp>

#include <algorithm>
#include <atomic>
#include <functional>
#include <random>
#include <thread>
#include <vector>

BOOST_AUTO_TEST_SUITE(detail_fork_state_pass) // this file's tests, which CTest runs by this name

namespace ex = boost::executors;
namespace fjd = boost::detail::fork_join;

namespace {

int seven() { return 7; }
int& global_int()
{
  static int v = 0;
  return v;
}
void nothing() {}

// Returns: whether forked_task_of(f) gives what a dynamic_cast gives.
template <class R>
bool cast_agrees(const boost::future<R>& f)
{
  const fjd::forked_result<R>* const expected =
      dynamic_cast<const fjd::forked_result<R>*>(fjd::state_of(f).get());
  return fjd::forked_task_of(f) == expected;
}

// Futures with result int of as many dynamic types as Boost and we make; `ours` counts those
// whose task fork() or our boost::async made.
std::vector<boost::future<int> > mixed_futures(ex::fork_join_thread_pool& pool, std::size_t& ours)
{
  std::vector<boost::future<int> > v;
  v.push_back(fork(pool, [] { return 1; }));
  v.push_back(fork(pool, [](int x) { return x; }, 2));
  v.push_back(fork(pool, &seven));
  v.push_back(boost::async(pool, [] { return 3; }));
  v.push_back(boost::async(pool, &seven));
  ours = v.size();
  boost::promise<int> p;
  v.push_back(p.get_future());
  p.set_value(4);
  boost::packaged_task<int()> task(&seven);
  v.push_back(task.get_future());
  task();
  v.push_back(boost::make_ready_future(5));
  v.push_back(boost::async(boost::launch::deferred, [] { return 6; }));
  v.push_back(fork(pool, [] { return 8; }).then(pool, [](boost::future<int> f) { return f.get() + 1; }));
  return v;
}

} // namespace

// One thread walks futures of ten dynamic types in random orders, so that the cache meets a
// hit, a miss by a type of ours and a miss by one of Boost's after every other kind of entry.
BOOST_AUTO_TEST_CASE(the_cache_answers_as_dynamic_cast_in_any_order)
{
  ex::fork_join_thread_pool pool(2);
  std::mt19937 random(12345);
  for (int round = 0; round < 200; ++round)
  {
    std::size_t ours = 0;
    std::vector<boost::future<int> > v = mixed_futures(pool, ours);
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < v.size(); ++i)
      for (int repeat = 0; repeat < 3; ++repeat)
        order.push_back(i);
    std::shuffle(order.begin(), order.end(), random);
    std::size_t found = 0;
    for (std::size_t i : order)
    {
      BOOST_TEST_REQUIRE(cast_agrees(v[i]));
      found += fjd::forked_task_of(v[i]) != nullptr;
    }
    BOOST_TEST_REQUIRE(found == 3 * ours);
    ex::join(pool, v.begin(), v.end());
    int sum = 0;
    for (boost::future<int>& f : v)
      sum += f.get();
    BOOST_TEST_REQUIRE(sum == 1 + 2 + 7 + 3 + 7 + 4 + 7 + 5 + 6 + 9);
  }
}

// Results by reference and void have caches of their own; an invalid future has no task.
BOOST_AUTO_TEST_CASE(references_void_and_invalid_futures)
{
  ex::fork_join_thread_pool pool(1);
  for (int round = 0; round < 100; ++round)
  {
    boost::future<int&> r1 = fork(pool, &global_int);
    boost::promise<int&> pr;
    boost::future<int&> r2 = pr.get_future();
    pr.set_value(global_int());
    boost::future<void> v1 = fork(pool, &nothing);
    boost::future<void> v2 = boost::make_ready_future();
    boost::future<void> v3 = boost::async(pool, &nothing);
    boost::future<int> invalid;
    for (int repeat = 0; repeat < 2; ++repeat)
    {
      BOOST_TEST_REQUIRE((cast_agrees(r1) && cast_agrees(r2)));
      BOOST_TEST_REQUIRE((cast_agrees(v1) && cast_agrees(v2) && cast_agrees(v3)));
      BOOST_TEST_REQUIRE(fjd::forked_task_of(r1) != nullptr);
      BOOST_TEST_REQUIRE(fjd::forked_task_of(v2) == nullptr);
      BOOST_TEST_REQUIRE(fjd::forked_task_of(invalid) == nullptr);
    }
    ex::join(pool, r1, r2, v1, v2, v3);
    BOOST_TEST_REQUIRE(&r1.get() == &global_int());
    BOOST_TEST_REQUIRE(&r2.get() == &global_int());
  }
}

// Several threads (pool threads inside tasks, and outside threads) walk their own mixes at
// once: each thread's cache is its own, and no answer depends on another thread's last type.
BOOST_AUTO_TEST_CASE(threads_with_different_mixes_at_once)
{
  ex::fork_join_thread_pool pool(2);
  std::atomic<int> wrong{0};
  auto walk = [&pool, &wrong](unsigned seed) {
    std::mt19937 random(seed);
    for (int round = 0; round < 100 / BOOST_THREAD_FJ_TEST_SCALE + 10; ++round)
    {
      std::size_t ours = 0;
      std::vector<boost::future<int> > v = mixed_futures(pool, ours);
      std::shuffle(v.begin(), v.end(), random);
      for (boost::future<int>& f : v)
        if (!cast_agrees(f))
          wrong.fetch_add(1, std::memory_order_relaxed);
      ex::join(pool, v.begin(), v.end());
    }
  };
  std::vector<std::thread> outside;
  for (unsigned t = 0; t < 2; ++t)
    outside.emplace_back(walk, t + 1);
  ex::joinable_future<void> a = fork(pool, walk, 11u);
  ex::joinable_future<void> b = fork(pool, walk, 12u);
  ex::join(pool, a, b);
  for (std::thread& t : outside)
    t.join();
  a.get();
  b.get();
  BOOST_TEST(wrong.load() == 0);
}

// ---- The fast path "unwatched completion" (fork_state::finish, doc/design.md, "Fast paths and their assumptions"). ----
// A fork's completion notifies Boost's condition variable, walks the external waiters and
// launches continuations only if a Boost wait or a continuation marked the state watched first.
// Each case below is a way Boost lets another thread wait on a fork's future, started while the
// task runs, at a random point of the task's run (before it ends, as it ends, after): a missed
// notify leaves the waiter asleep and the watchdog fails the test. The forks come from one
// thread, whose states are reused from one iteration to the next, so a state that was watched
// serves forks nobody watches, and the other way round (each kind in turn, and "none").

namespace {

enum class boost_waiter
{
  none,         // nobody waits: the state goes back unwatched
  wait,         // future::wait()
  wait_for,     // future::wait_for(an hour)
  wait_until,   // future::wait_until(an hour from now)
  wait_for_any, // boost::wait_for_any(f, a future that never becomes ready): an external waiter
  shared_get,   // shared_future::get() on a copy, on another thread
  then,         // then(pool, c): a continuation attached before, as or after the task ends
  kinds
};

// Spins for n relaxed increments (the task's length, or the waiter's delay).
void spin(unsigned n)
{
  std::atomic<unsigned> sink{0};
  for (unsigned i = 0; i < n; ++i)
    sink.fetch_add(1, std::memory_order_relaxed);
}

} // namespace

BOOST_AUTO_TEST_CASE(every_boost_wait_on_a_fork_is_woken)
{
  ex::fork_join_thread_pool pool(2);
  std::mt19937 random(20261127);
  const int rounds = 3000 / BOOST_THREAD_FJ_TEST_SCALE;
  int woken = 0, expected_wakes = 0;
  for (int i = 0; i < rounds; ++i)
  {
    const boost_waiter kind = static_cast<boost_waiter>(i % static_cast<int>(boost_waiter::kinds));
    const unsigned run_for = random() % 4000, wait_after = random() % 4000;
    ex::joinable_future<int> f = fork(pool, [run_for, i] {
      spin(run_for);
      return i;
    });
    switch (kind)
    {
    case boost_waiter::none:
      BOOST_TEST(f.get() == i);
      break;
    case boost_waiter::shared_get:
    {
      boost::shared_future<int> s = f.share();
      std::thread w([s, wait_after] {
        spin(wait_after);
        BOOST_VERIFY(s.get() >= 0);
      });
      w.join(); // a missed wake-up: the watchdog ends the test here
      BOOST_TEST(s.get() == i);
      ++woken;
      break;
    }
    case boost_waiter::then:
    {
      spin(wait_after);
      boost::future<int> c = f.then(pool, [](boost::future<int> g) { return g.get() + 1; });
      BOOST_TEST(c.get() == i + 1);
      ++woken;
      break;
    }
    default:
    {
      std::atomic<bool> ready{false};
      std::thread w([&f, &ready, kind, wait_after] {
        spin(wait_after);
        boost::promise<int> never;
        boost::future<int> g = never.get_future();
        switch (kind)
        {
        case boost_waiter::wait:
          f.wait();
          ready = f.is_ready();
          break;
        case boost_waiter::wait_for:
          ready = f.wait_for(boost::chrono::hours(1)) == boost::future_status::ready;
          break;
        case boost_waiter::wait_until:
          ready = f.wait_until(boost::chrono::steady_clock::now() + boost::chrono::hours(1)) ==
                  boost::future_status::ready;
          break;
        default:
          ready = boost::wait_for_any(f, g) == 0;
          break;
        }
      });
      w.join();
      BOOST_TEST(ready.load());
      BOOST_TEST(f.get() == i);
      woken += ready ? 1 : 0;
    }
    }
    if (kind != boost_waiter::none)
      ++expected_wakes;
  }
  BOOST_TEST(woken == expected_wakes);
}

BOOST_AUTO_TEST_SUITE_END()
