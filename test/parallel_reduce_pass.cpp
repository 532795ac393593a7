// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// parallel_reduce and parallel_transform_reduce: results against std::accumulate and
// std::transform_reduce on many sizes and grains, init used exactly once, the order of the
// operands kept (a non-commutative operation), integral index ranges, move-only-ish result
// types, every exception collected, nesting, and the fallback on other Boost executors.

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE parallel_reduce
#endif
#include "support.hpp"
#include "watchdog.hpp"

#include <boost/thread/executors/basic_thread_pool.hpp>
#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/loop_executor.hpp>
#include <boost/thread/executors/parallel_for.hpp>
#include <boost/thread/executors/parallel_reduce.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

BOOST_AUTO_TEST_SUITE(parallel_reduce_pass) // this file's tests, which CTest runs by this name

using boost::executors::basic_thread_pool;
using boost::executors::fork_join_thread_pool;
using boost::experimental::parallel::exception_list;
namespace fj = boost::executors;
using namespace fj_test;

namespace {

// 2x2 matrices of integers modulo 2^64 under multiplication: associative, not commutative.
typedef std::array<std::uint64_t, 4> matrix;
matrix multiply(const matrix& a, const matrix& b)
{
  return {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
}

} // namespace

BOOST_AUTO_TEST_CASE(reduce_matches_std_accumulate)
{
  std::mt19937_64 random(11);
  on_every_executor([&](auto& ex) {
    for (std::size_t grain : {std::size_t(1), std::size_t(2), std::size_t(3), std::size_t(50), std::size_t(0)})
    {
      for (std::size_t n : sizes_around(grain ? grain : 4))
      {
        std::vector<std::uint64_t> v(n);
        for (std::uint64_t& x : v)
          x = random();
        const std::uint64_t init = random();
        const std::uint64_t expected = std::accumulate(v.begin(), v.end(), init);
        const std::uint64_t got = grain ? fj::parallel_reduce(ex, v.begin(), v.end(), init, std::plus<>(), grain)
                                        : fj::parallel_reduce(ex, v.begin(), v.end(), init, std::plus<>());
        BOOST_TEST(got == expected, "n = " << n << ", grain = " << grain);
      }
    }
    std::vector<std::uint64_t> v(large);
    std::iota(v.begin(), v.end(), std::uint64_t(1));
    BOOST_TEST(fj::parallel_reduce(ex, v.begin(), v.end(), std::uint64_t(7), std::plus<>()) ==
               std::accumulate(v.begin(), v.end(), std::uint64_t(7)));
    // min over doubles: the reduction need not be a sum
    std::vector<double> d(large);
    for (double& x : d)
      x = double(random() % 1000000) - 500000.0;
    BOOST_TEST(fj::parallel_reduce(ex, d.data(), d.data() + d.size(), 1e9,
                                   [](double a, double b) { return std::min(a, b); }) ==
               *std::min_element(d.begin(), d.end()));
  });
}

BOOST_AUTO_TEST_CASE(init_is_used_once_and_the_order_of_operands_is_kept)
{
  std::mt19937_64 random(12);
  on_every_executor([&](auto& ex) {
    for (std::size_t grain : {std::size_t(1), std::size_t(3), std::size_t(16), std::size_t(0)})
    {
      for (std::size_t n : {0u, 1u, 2u, 3u, 5u, 17u, 64u, 1000u})
      {
        std::vector<matrix> v(n);
        for (matrix& m : v)
          m = {random(), random(), random(), random()};
        const matrix init = {random() | 1, random(), random(), random()};
        const matrix expected = std::accumulate(v.begin(), v.end(), init, multiply);
        const matrix got = grain ? fj::parallel_reduce(ex, v.begin(), v.end(), init, multiply, grain)
                                 : fj::parallel_reduce(ex, v.begin(), v.end(), init, multiply);
        BOOST_TEST((got == expected), "n = " << n << ", grain = " << grain);
      }
    }
    // Strings: a result type with non-trivial moves, concatenation in order.
    std::vector<std::string> words;
    for (int i = 0; i < 3000; ++i)
      words.push_back(std::to_string(i) + ",");
    const std::string joined = fj::parallel_transform_reduce(
        ex, words.begin(), words.end(), std::string("<"), [](std::string a, const std::string& b) { return a += b; },
        [](const std::string& w) { return w; }, 7);
    BOOST_TEST(joined == std::accumulate(words.begin(), words.end(), std::string("<")));
  });
}

BOOST_AUTO_TEST_CASE(transform_reduce_matches_std_transform_reduce)
{
  std::mt19937_64 random(13);
  on_every_executor([&](auto& ex) {
    for (std::size_t grain : {std::size_t(1), std::size_t(4), std::size_t(100), std::size_t(0)})
    {
      for (std::size_t n : sizes_around(grain ? grain : 4))
      {
        std::vector<std::int64_t> v(n);
        for (std::int64_t& x : v)
          x = std::int64_t(random() % 2001) - 1000;
        auto square = [](std::int64_t x) { return x * x; };
        const std::int64_t expected = std::transform_reduce(v.begin(), v.end(), std::int64_t(-3), std::plus<>(), square);
        const std::int64_t got =
            grain ? fj::parallel_transform_reduce(ex, v.begin(), v.end(), std::int64_t(-3), std::plus<>(), square,
                                                  grain)
                  : fj::parallel_transform_reduce(ex, v.begin(), v.end(), std::int64_t(-3), std::plus<>(), square);
        BOOST_TEST(got == expected, "n = " << n << ", grain = " << grain);
      }
    }
    // A transform to another type, and a large range.
    std::vector<int> v(large);
    for (int& x : v)
      x = int(random() % 1000);
    auto half = [](int x) { return double(x) / 2; };
    BOOST_TEST(fj::parallel_transform_reduce(ex, v.begin(), v.end(), 0.5, std::plus<>(), half) ==
               std::transform_reduce(v.begin(), v.end(), 0.5, std::plus<>(), half));
  });
}

BOOST_AUTO_TEST_CASE(integral_index_ranges)
{
  on_every_executor([&](auto& ex) {
    // the values themselves
    BOOST_TEST(fj::parallel_reduce(ex, 1, 101, 0, std::plus<>()) == 5050);
    BOOST_TEST(fj::parallel_reduce(ex, 5, 5, 42, std::plus<>()) == 42);
    BOOST_TEST(fj::parallel_reduce(ex, 5, -5, 42, std::plus<>()) == 42);
    BOOST_TEST(fj::parallel_reduce(ex, -1000, 1000, std::int64_t(0), std::plus<>(), 1) == -1000);
    // (reduce_op also adds two elements, as std::reduce may: widen them first)
    BOOST_TEST(fj::parallel_transform_reduce(ex, INT_MAX - 10, INT_MAX, std::int64_t(0), std::plus<>(),
                                             [](int i) { return std::int64_t(i); }, 3) == std::int64_t(INT_MAX) * 10 - 55);
    // transform_op(i): a dot product over indices
    const std::size_t n = large;
    std::vector<std::uint64_t> x(n), y(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      x[i] = i % 7;
      y[i] = i % 13;
    }
    std::uint64_t expected = 0;
    for (std::size_t i = 0; i < n; ++i)
      expected += x[i] * y[i];
    BOOST_TEST(fj::parallel_transform_reduce(ex, std::size_t(0), n, std::uint64_t(0), std::plus<>(),
                                             [&](std::size_t i) { return x[i] * y[i]; }) == expected);
    BOOST_TEST(boost::parallel_transform_reduce(ex, std::size_t(0), n, std::uint64_t(0), std::plus<>(),
                                                [&](std::size_t i) { return x[i] * y[i]; }, 1000 + n / 256) == expected);
  });
}

BOOST_AUTO_TEST_CASE(exceptions_from_several_chunks_are_all_collected)
{
  // Four chunks of two elements, [0, 2), [2, 4), [4, 6), [6, 8); the first element of each
  // throws once all four chunks have started (four threads: the caller and three workers).
  auto rendezvous_and_throw = [](auto& ex) {
    std::atomic<int> arrived{0};
    try
    {
      fj::parallel_transform_reduce(ex, 0, 8, 0, std::plus<>(),
                                    [&](int i) {
                                      if (i % 2 != 0)
                                        return i;
                                      arrived.fetch_add(1);
                                      while (arrived.load() < 4)
                                        std::this_thread::yield();
                                      throw tagged_error(i);
                                    },
                                    2);
      BOOST_FAIL("parallel_transform_reduce must throw");
    }
    catch (const exception_list& list)
    {
      BOOST_TEST(list.size() == 4u);
      BOOST_TEST((tags_of(list) == std::multiset<int>{0, 2, 4, 6}));
    }
  };
  {
    fork_join_thread_pool pool(4);
    rendezvous_and_throw(pool);
    fj::fork(pool, [&] { rendezvous_and_throw(pool); }).get();
  }
  {
    basic_thread_pool pool(4);
    rendezvous_and_throw(pool);
  }

  // reduce_op throws, from the chunks and from the combining steps: each exception thrown is
  // in the list, whatever was cancelled.
  on_every_executor([&](auto& ex) {
    std::atomic<int> thrown{0};
    std::vector<int> v(1000, 1);
    try
    {
      fj::parallel_reduce(ex, v.begin(), v.end(), 0,
                          [&](int a, int b) {
                            if (a + b >= 3)
                            {
                              thrown.fetch_add(1);
                              throw tagged_error(a + b);
                            }
                            return a + b;
                          },
                          3);
      BOOST_FAIL("parallel_reduce must throw");
    }
    catch (const exception_list& list)
    {
      BOOST_TEST(list.size() == std::size_t(thrown.load()));
      BOOST_TEST(thrown.load() >= 1);
    }
  });

  // Even one element goes through the list.
  fork_join_thread_pool pool(2);
  try
  {
    int one = 1;
    fj::parallel_reduce(pool, &one, &one + 1, 0, [](int, int) -> int { throw tagged_error(5); });
    BOOST_FAIL("must throw");
  }
  catch (const exception_list& list)
  {
    BOOST_TEST((tags_of(list) == std::multiset<int>{5}));
  }
}

namespace {

// A sum whose move constructor throws when it constructs the object at `bomb_site`: there the
// test places the very result of a parallel_reduce call (guaranteed copy elision makes the
// call's result object that storage), so only the final move of the result throws.
const void* bomb_site = nullptr;

struct move_bomb
{
  explicit move_bomb(long v) : value(v) {}
  move_bomb(const move_bomb&) = default;
  move_bomb(move_bomb&& other) : value(other.value)
  {
    if (this == bomb_site)
      throw tagged_error(9);
  }
  move_bomb& operator=(const move_bomb&) = default;
  move_bomb& operator=(move_bomb&&) = default;
  long value;
};

move_bomb operator+(const move_bomb& a, const move_bomb& b) { return move_bomb(a.value + b.value); }

} // namespace

// Regression: the final move of the result (and of init, for an empty range) is a move
// of T like the others: its exception is reported in the exception_list too.
BOOST_AUTO_TEST_CASE(an_exception_from_the_final_move_is_in_the_exception_list)
{
  std::vector<move_bomb> v;
  for (long i = 1; i <= 100; ++i)
    v.emplace_back(i);
  on_every_executor([&](auto& ex) {
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), v.size()})
    {
      BOOST_TEST_CONTEXT("n = " << n)
      {
        alignas(move_bomb) unsigned char storage[sizeof(move_bomb)];
        bomb_site = storage;
        bool listed = false;
        try
        {
          ::new (static_cast<void*>(storage))
              move_bomb(fj::parallel_reduce(ex, v.begin(), v.begin() + n, move_bomb(0), std::plus<>()));
          reinterpret_cast<move_bomb*>(storage)->~move_bomb();
          BOOST_FAIL("parallel_reduce must throw");
        }
        catch (const exception_list& list)
        {
          listed = tags_of(list) == std::multiset<int>{9};
        }
        catch (const tagged_error&)
        {
          // outside the list: the defect
        }
        bomb_site = nullptr;
        BOOST_TEST(listed);
      }
    }
    // Without the bomb, the same calls return the sum.
    BOOST_TEST(fj::parallel_reduce(ex, v.begin(), v.end(), move_bomb(0), std::plus<>()).value == 5050);
  });
}

BOOST_AUTO_TEST_CASE(nested_reductions)
{
  // A sum of sums: each outer element reduces an inner range, on the same executor.
  const int outer = 64, inner = 2000 / BOOST_THREAD_FJ_TEST_SCALE;
  std::int64_t expected = 0;
  for (int i = 0; i < outer; ++i)
    for (int j = 0; j < inner; ++j)
      expected += std::int64_t(i) * j;
  on_every_executor([&](auto& ex) {
    const std::int64_t got = fj::parallel_transform_reduce(
        ex, 0, outer, std::int64_t(0), std::plus<>(),
        [&](int i) {
          return fj::parallel_transform_reduce(ex, 0, inner, std::int64_t(0), std::plus<>(),
                                               [i](int j) { return std::int64_t(i) * j; });
        },
        2);
    BOOST_TEST(got == expected);
  });
  // and a reduction inside a parallel_for, from a worker
  fork_join_thread_pool pool(2);
  std::vector<std::int64_t> sums(std::size_t(outer), 0);
  fj::fork(pool, [&] {
    fj::parallel_for(pool, 0, outer, [&](int i) {
      sums[std::size_t(i)] = fj::parallel_transform_reduce(pool, 0, inner, std::int64_t(0), std::plus<>(),
                                                           [i](int j) { return std::int64_t(i) * j; }, 16);
    });
  }).get();
  BOOST_TEST(std::accumulate(sums.begin(), sums.end(), std::int64_t(0)) == expected);
}

BOOST_AUTO_TEST_CASE(a_loop_executor_reduces_on_the_caller)
{
  boost::executors::loop_executor loop;
  std::vector<int> v(10000);
  std::iota(v.begin(), v.end(), 0);
  BOOST_TEST(fj::parallel_reduce(loop, v.begin(), v.end(), 0, std::plus<>(), 10) == 49995000);
}

BOOST_AUTO_TEST_SUITE_END()
