// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// parallel_for: results against std::for_each and a serial loop on many sizes and grains,
// every position visited exactly once (integral ranges of several types, including the edges
// of their domain), empty and reversed ranges, every exception collected, cancellation, nesting,
// and the fallback on basic_thread_pool and loop_executor.

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE parallel_for
#endif
#include "support.hpp"
#include "watchdog.hpp"

#include <boost/thread/executors/basic_thread_pool.hpp>
#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/loop_executor.hpp>
#include <boost/thread/executors/parallel_for.hpp>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <random>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

BOOST_AUTO_TEST_SUITE(parallel_for_pass) // this file's tests, which CTest runs by this name

using boost::executors::basic_thread_pool;
using boost::executors::fork_join_thread_pool;
using boost::experimental::parallel::exception_list;
namespace fj = boost::executors;
using namespace fj_test;

BOOST_AUTO_TEST_CASE(iterator_ranges_match_std_for_each)
{
  std::mt19937_64 random(4);
  on_every_executor([&](auto& ex) {
    for (std::size_t grain : {std::size_t(1), std::size_t(7), std::size_t(64), std::size_t(0)})
    {
      for (std::size_t n : sizes_around(grain ? grain : 5))
      {
        std::vector<std::uint64_t> input(n);
        for (std::uint64_t& x : input)
          x = random();
        std::vector<std::uint64_t> expected = input, got = input;
        std::for_each(expected.begin(), expected.end(), [](std::uint64_t& x) { x = mix(x); });
        // grain 0 stands for the automatic grain here (and means 1 for the 5-argument form)
        if (grain)
          fj::parallel_for(ex, got.begin(), got.end(), [](std::uint64_t& x) { x = mix(x); }, grain);
        else
          fj::parallel_for(ex, got.begin(), got.end(), [](std::uint64_t& x) { x = mix(x); });
        BOOST_TEST((got == expected), "n = " << n << ", grain = " << grain);
      }
    }
    // 10^6 elements, automatic grain and a grain that does not divide the size
    std::vector<std::uint64_t> got(large), expected(large);
    for (std::size_t i = 0; i < large; ++i)
      got[i] = expected[i] = i;
    std::for_each(expected.begin(), expected.end(), [](std::uint64_t& x) { x = mix(x); });
    fj::parallel_for(ex, got.begin(), got.end(), [](std::uint64_t& x) { x = mix(x); });
    BOOST_TEST((got == expected));
    fj::parallel_for(ex, got.data(), got.data() + got.size(), [](std::uint64_t& x) { x = mix(x); }, 4999);
    std::for_each(expected.begin(), expected.end(), [](std::uint64_t& x) { x = mix(x); });
    BOOST_TEST((got == expected));
  });
}

BOOST_AUTO_TEST_CASE(integral_ranges_match_a_serial_loop)
{
  on_every_executor([&](auto& ex) {
    for (std::size_t grain : {std::size_t(1), std::size_t(3), std::size_t(1000)})
    {
      for (std::size_t n : sizes_around(grain))
      {
        // Results are plain variables written by the tasks and read after the call, so that
        // ThreadSanitizer would see a missing happens-before edge.
        std::vector<std::uint64_t> out(n, 0);
        fj::parallel_for(ex, std::size_t(0), n, [&](std::size_t i) { out[i] = mix(i + 1); }, grain);
        bool ok = true;
        for (std::size_t i = 0; i < n; ++i)
          ok = ok && out[i] == mix(i + 1);
        BOOST_TEST(ok, "n = " << n << ", grain = " << grain);
      }
    }
    std::vector<std::uint64_t> out(large, 0);
    fj::parallel_for(ex, 0, int(large), [&](int i) { out[std::size_t(i)] = mix(std::uint64_t(i)); });
    bool ok = true;
    for (std::size_t i = 0; i < large; ++i)
      ok = ok && out[i] == mix(i);
    BOOST_TEST(ok);
  });
}

namespace {

// Visits [first, last) with parallel_for and checks that each value was visited exactly once.
template <class Executor, class I>
void check_exactly_once(Executor& ex, I first, I last, std::size_t grain)
{
  typedef std::make_unsigned_t<I> u;
  const std::size_t n = first < last ? std::size_t(u(u(last) - u(first))) : 0;
  std::vector<std::atomic<int> > hits(n);
  std::atomic<int> outside{0};
  auto visit = [&](I i) {
    const std::size_t k = std::size_t(u(u(i) - u(first)));
    if (i < first || !(i < last) || k >= n)
      outside.fetch_add(1, std::memory_order_relaxed);
    else
      hits[k].fetch_add(1, std::memory_order_relaxed);
  };
  if (grain)
    fj::parallel_for(ex, first, last, visit, grain);
  else
    fj::parallel_for(ex, first, last, visit);
  BOOST_TEST(outside.load() == 0);
  std::size_t wrong = 0;
  for (std::atomic<int>& h : hits)
    wrong += h.load() != 1;
  BOOST_TEST(wrong == 0u, "[" << +first << ", " << +last << "), grain " << grain);
}

} // namespace

BOOST_AUTO_TEST_CASE(every_position_runs_exactly_once)
{
  on_every_executor([&](auto& ex) {
    for (std::size_t grain : {std::size_t(0), std::size_t(1), std::size_t(16)})
    {
      check_exactly_once(ex, -500, 500, grain);
      check_exactly_once(ex, 0u, 777u, grain);
      check_exactly_once(ex, -(std::int64_t(1) << 40), -(std::int64_t(1) << 40) + 1000, grain);
      // the edges of each domain: no overflow in the size or the positions
      check_exactly_once(ex, INT_MIN, INT_MIN + 1000, grain);
      check_exactly_once(ex, INT_MAX - 1000, INT_MAX, grain);
      check_exactly_once(ex, std::numeric_limits<std::uint64_t>::max() - 999, std::numeric_limits<std::uint64_t>::max(),
                         grain);
      check_exactly_once(ex, std::int16_t(SHRT_MIN), std::int16_t(SHRT_MAX), grain);
      check_exactly_once(ex, std::uint8_t(0), std::uint8_t(255), grain);
      check_exactly_once(ex, std::int8_t(-128), std::int8_t(127), grain);
    }
    // Loop-heavy: many small ranges, each position counted.
    const int rounds = 2000 / BOOST_THREAD_FJ_TEST_SCALE;
    std::vector<std::atomic<int> > hits(64);
    for (int r = 0; r < rounds; ++r)
      fj::parallel_for(ex, 0, 64, [&](int i) { hits[std::size_t(i)].fetch_add(1, std::memory_order_relaxed); }, 1);
    std::size_t wrong = 0;
    for (std::atomic<int>& h : hits)
      wrong += h.load() != rounds;
    BOOST_TEST(wrong == 0u);
  });
}

BOOST_AUTO_TEST_CASE(empty_and_reversed_ranges_do_nothing)
{
  on_every_executor([&](auto& ex) {
    std::atomic<int> calls{0};
    auto count = [&](auto) { calls.fetch_add(1); };
    fj::parallel_for(ex, 5, 5, count);
    fj::parallel_for(ex, 5, -5, count, 1);
    fj::parallel_for(ex, 10u, 3u, count);
    fj::parallel_for(ex, INT_MAX, INT_MIN, count);
    std::vector<int> v(10);
    fj::parallel_for(ex, v.begin(), v.begin(), count);
    fj::parallel_for(ex, v.end(), v.begin(), count, 1);
    BOOST_TEST(calls.load() == 0);
  });
}

BOOST_AUTO_TEST_CASE(other_random_access_iterators_and_functors)
{
  fork_join_thread_pool pool(2);
  // a deque: random access, not contiguous
  std::deque<int> d(10000);
  fj::parallel_for(pool, d.begin(), d.end(), [](int& x) { x = 7; }, 100);
  BOOST_TEST(std::count(d.begin(), d.end(), 7) == 10000);

  // f is neither copied nor moved, and may be a mutable lvalue
  struct no_copy
  {
    no_copy() = default;
    no_copy(const no_copy&) = delete;
    void operator()(int i) { out[std::size_t(i)] = i; }
    std::vector<int> out = std::vector<int>(5000);
  } f;
  boost::parallel_for(pool, 0, 5000, f); // lifted into namespace boost
  bool ok = true;
  for (int i = 0; i < 5000; ++i)
    ok = ok && f.out[std::size_t(i)] == i;
  BOOST_TEST(ok);
}

BOOST_AUTO_TEST_CASE(exceptions_from_several_chunks_are_all_collected)
{
  // Four chunks throw at once: each waits until all four have started, which needs four
  // threads (the caller and three workers), so every one of them has thrown before the call
  // returns and none can have been cancelled.
  auto rendezvous_and_throw = [](auto& ex) {
    std::atomic<int> arrived{0}, started{0}, finished{0};
    try
    {
      fj::parallel_for(ex, 0, 4,
                       [&](int i) {
                         started.fetch_add(1);
                         arrived.fetch_add(1);
                         while (arrived.load() < 4)
                           std::this_thread::yield();
                         finished.fetch_add(1);
                         throw tagged_error(i);
                       },
                       1);
      BOOST_FAIL("parallel_for must throw");
    }
    catch (const exception_list& list)
    {
      BOOST_TEST(list.size() == 4u);
      BOOST_TEST((tags_of(list) == std::multiset<int>{0, 1, 2, 3}));
    }
    BOOST_TEST(started.load() == finished.load());
  };
  {
    fork_join_thread_pool pool(4);
    rendezvous_and_throw(pool);
    // and from a worker of the pool
    fj::fork(pool, [&] { rendezvous_and_throw(pool); }).get();
  }
  {
    basic_thread_pool pool(4);
    rendezvous_and_throw(pool);
  }

  // Every index throws: whatever was cancelled, each exception thrown is in the list, and
  // each call that started has finished.
  on_every_executor([&](auto& ex) {
    std::atomic<int> thrown{0}, started{0};
    try
    {
      fj::parallel_for(ex, 0, 1000,
                       [&](int i) {
                         started.fetch_add(1);
                         thrown.fetch_add(1);
                         throw tagged_error(i);
                       },
                       1);
      BOOST_FAIL("parallel_for must throw");
    }
    catch (const exception_list& list)
    {
      BOOST_TEST(list.size() == std::size_t(thrown.load()));
      BOOST_TEST(tags_of(list).size() == list.size());
    }
    BOOST_TEST(started.load() == thrown.load());
    BOOST_TEST(thrown.load() >= 1);
  });
}

BOOST_AUTO_TEST_CASE(an_interruption_stays_an_interruption)
{
  // As with parallel_invoke: boost::thread_interrupted is not wrapped in an exception_list,
  // so that a pool's interrupt() can still stop a worker inside a loop.
  on_every_executor([&](auto& ex) {
    bool interrupted = false;
    try
    {
      fj::parallel_for(ex, 0, 100, [&](int i) {
        if (i == 37)
          throw boost::thread_interrupted();
      }, 1);
    }
    catch (const boost::thread_interrupted&)
    {
      interrupted = true;
    }
    BOOST_TEST(interrupted);
  });
}

BOOST_AUTO_TEST_CASE(chunks_not_started_after_an_exception_are_skipped)
{
  // On one worker, with nobody to steal (main waits in get(), which does not help), the
  // chunks run depth-first from the left: the first throws, every later one is skipped.
  fork_join_thread_pool pool(1);
  std::atomic<int> calls{0};
  fj::fork(pool, [&] {
    try
    {
      fj::parallel_for(pool, 0, 1000, [&](int) {
        calls.fetch_add(1);
        throw tagged_error(0);
      }, 1);
    }
    catch (const exception_list& list)
    {
      BOOST_TEST(list.size() == 1u);
    }
  }).get();
  BOOST_TEST(calls.load() == 1);
}

BOOST_AUTO_TEST_CASE(nested_loops_complete_and_nest_their_exceptions)
{
  const int outer = 64, inner = 1000 / BOOST_THREAD_FJ_TEST_SCALE;
  on_every_executor([&](auto& ex) {
    std::vector<int> out(std::size_t(outer * inner), 0);
    fj::parallel_for(ex, 0, outer, [&](int i) {
      fj::parallel_for(ex, 0, inner, [&](int j) { out[std::size_t(i * inner + j)] += 1; },
                       16);
    }, 1);
    BOOST_TEST(std::count(out.begin(), out.end(), 1) == outer * inner);
  });
  {
    fork_join_thread_pool pool(2);
    std::vector<int> out(std::size_t(outer * inner), 0);
    fj::fork(pool, [&] {
      fj::parallel_for(pool, 0, outer, [&](int i) {
        fj::parallel_for(pool, 0, inner, [&](int j) { out[std::size_t(i * inner + j)] += 1; });
      });
    }).get();
    BOOST_TEST(std::count(out.begin(), out.end(), 1) == outer * inner);

    // An inner loop's exception_list is one exception of the outer list (as parallel_invoke).
    try
    {
      fj::parallel_for(pool, 0, 1, [&](int) {
        fj::parallel_for(pool, 0, 2, [](int j) { throw tagged_error(10 + j); }, 1);
      });
      BOOST_FAIL("must throw");
    }
    catch (const exception_list& outer_list)
    {
      BOOST_TEST(outer_list.size() == 1u);
      try
      {
        boost::rethrow_exception(*outer_list.begin());
      }
      catch (const exception_list& inner_list)
      {
        BOOST_TEST(!tags_of(inner_list).empty());
        BOOST_TEST(tags_of(inner_list).size() == inner_list.size());
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(a_loop_executor_runs_the_chunks_on_the_caller)
{
  boost::executors::loop_executor loop;
  std::vector<int> out(10000, 0);
  fj::parallel_for(loop, 0, 10000, [&](int i) { out[std::size_t(i)] = i; }, 10);
  bool ok = true;
  for (int i = 0; i < 10000; ++i)
    ok = ok && out[std::size_t(i)] == i;
  BOOST_TEST(ok);
}

BOOST_AUTO_TEST_CASE(a_closed_pool_runs_the_loop_on_the_caller)
{
  fork_join_thread_pool pool(2);
  pool.close();
  std::vector<int> out(1000, 0);
  fj::parallel_for(pool, 0, 1000, [&](int i) { out[std::size_t(i)] = i + 1; }, 1);
  BOOST_TEST(std::count(out.begin(), out.end(), 0) == 0);
}

BOOST_AUTO_TEST_SUITE_END()
