// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// parallel_sort: results against std::sort on random inputs of many sizes and on patterns
// (sorted, reversed, equal keys, few distinct keys, organ pipe, sawtooth), a custom comparator
// with a check that does not depend on stability (sorted, and a permutation of the input),
// non-trivial element types, comparison counts that rule out quadratic behaviour (many equal
// keys, McIlroy's adversary), every exception collected, nesting, and other Boost executors.

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE parallel_sort
#endif
#include "support.hpp"
#include "watchdog.hpp"

#include <boost/thread/executors/basic_thread_pool.hpp>
#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/loop_executor.hpp>
#include <boost/thread/executors/parallel_for.hpp>
#include <boost/thread/executors/parallel_sort.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

BOOST_AUTO_TEST_SUITE(parallel_sort_pass) // this file's tests, which CTest runs by this name

using boost::executors::basic_thread_pool;
using boost::executors::fork_join_thread_pool;
using boost::experimental::parallel::exception_list;
namespace fj = boost::executors;
using namespace fj_test;

namespace {

enum class pattern
{
  random,
  sorted,
  reversed,
  all_equal,
  two_keys,
  ten_keys,
  organ_pipe,
  sawtooth,
  nearly_sorted
};
const pattern all_patterns[] = {pattern::random,     pattern::sorted,     pattern::reversed,
                                pattern::all_equal,  pattern::two_keys,   pattern::ten_keys,
                                pattern::organ_pipe, pattern::sawtooth,   pattern::nearly_sorted};

std::vector<int> make_input(pattern p, std::size_t n, std::mt19937_64& random)
{
  std::vector<int> v(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    switch (p)
    {
    case pattern::random: v[i] = int(std::uint32_t(random())); break;
    case pattern::sorted: v[i] = int(i); break;
    case pattern::reversed: v[i] = int(n - i); break;
    case pattern::all_equal: v[i] = 42; break;
    case pattern::two_keys: v[i] = int(random() % 2); break;
    case pattern::ten_keys: v[i] = int(random() % 10); break;
    case pattern::organ_pipe: v[i] = int(i < n / 2 ? i : n - i); break;
    case pattern::sawtooth: v[i] = int(i % 1000); break;
    case pattern::nearly_sorted: v[i] = int(i); break;
    }
  }
  if (p == pattern::nearly_sorted)
    for (std::size_t k = 0; n > 1 && k < n / 100 + 1; ++k)
      std::swap(v[random() % n], v[random() % n]);
  return v;
}

} // namespace

BOOST_AUTO_TEST_CASE(random_inputs_of_many_sizes_match_std_sort)
{
  std::mt19937_64 random(21);
  on_every_executor([&](auto& ex) {
    // the grain is at least 2048: sizes on both sides of it and of its multiples
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(3), std::size_t(8),
                          std::size_t(100), std::size_t(2047), std::size_t(2048), std::size_t(2049),
                          std::size_t(4095), std::size_t(4097), std::size_t(20000), std::size_t(100000), large})
    {
      std::vector<int> v = make_input(pattern::random, n, random);
      std::vector<int> expected = v;
      std::sort(expected.begin(), expected.end());
      fj::parallel_sort(ex, v.begin(), v.end());
      BOOST_TEST((v == expected), "n = " << n);
    }
  });
}

BOOST_AUTO_TEST_CASE(every_small_size)
{
  // Below the grain a range is sorted on one thread: insertion sort up to 24 elements, above
  // that the block partition, whose end game handles up to two blocks of 64 with offsets
  // pending in one of them. Every size up to 600, with distinct and with repeated keys.
  std::mt19937_64 random(29);
  fork_join_thread_pool pool(1);
  auto by_value = [](int a, int b) { return a < b; };
  bool ok = true;
  for (std::size_t n = 0; n <= 600; ++n)
  {
    for (std::uint64_t keys : {std::uint64_t(4), std::uint64_t(1) << 32})
    {
      std::vector<int> v(n);
      for (int& x : v)
        x = int(random() % keys);
      std::vector<int> expected = v;
      std::sort(expected.begin(), expected.end());
      std::vector<int> a = v, b = v, c = v;
      fj::parallel_sort(pool, a.begin(), a.end());
      fj::parallel_sort(pool, b.begin(), b.end(), by_value);
      fj::parallel_sort(pool, c.begin(), c.end(), std::greater<int>());
      std::reverse(c.begin(), c.end());
      ok = ok && a == expected && b == expected && c == expected;
    }
  }
  BOOST_TEST(ok);
}

BOOST_AUTO_TEST_CASE(patterns_match_std_sort)
{
  std::mt19937_64 random(22);
  on_every_executor([&](auto& ex) {
    for (pattern p : all_patterns)
    {
      for (std::size_t n : {std::size_t(3000), std::size_t(100000), large})
      {
        std::vector<int> v = make_input(p, n, random);
        std::vector<int> expected = v;
        std::sort(expected.begin(), expected.end());
        fj::parallel_sort(ex, v.begin(), v.end());
        BOOST_TEST((v == expected), "pattern " << int(p) << ", n = " << n);
        // descending, with a comparator
        std::sort(expected.begin(), expected.end(), std::greater<>());
        fj::parallel_sort(ex, v.begin(), v.end(), std::greater<>());
        BOOST_TEST((v == expected), "pattern " << int(p) << ", n = " << n << ", descending");
      }
    }
  });
}

namespace {

struct record
{
  int key;
  int id;
};

} // namespace

BOOST_AUTO_TEST_CASE(a_key_comparator_gives_a_sorted_permutation)
{
  // The comparator looks at the key only, so equal keys may come out in any order: the check
  // is that the output is sorted by key and is a permutation of the input.
  std::mt19937_64 random(23);
  on_every_executor([&](auto& ex) {
    for (std::size_t n : {std::size_t(5000), std::size_t(200000) / BOOST_THREAD_FJ_TEST_SCALE})
    {
      for (int keys : {3, 1000, 1 << 30})
      {
        std::vector<record> v(n);
        for (std::size_t i = 0; i < n; ++i)
          v[i] = {int(random() % std::uint64_t(keys)), int(i)};
        std::vector<record> input = v;
        fj::parallel_sort(ex, v.begin(), v.end(), [](const record& a, const record& b) { return a.key < b.key; });
        BOOST_TEST(std::is_sorted(v.begin(), v.end(), [](const record& a, const record& b) { return a.key < b.key; }));
        auto by_id = [](const record& a, const record& b) { return a.id < b.id; };
        std::sort(v.begin(), v.end(), by_id);
        bool same = true;
        for (std::size_t i = 0; i < n; ++i)
          same = same && v[i].id == input[i].id && v[i].key == input[i].key;
        BOOST_TEST(same, "n = " << n << ", keys = " << keys);
      }
    }
  });
}

BOOST_AUTO_TEST_CASE(strings_and_other_iterators)
{
  std::mt19937_64 random(24);
  fork_join_thread_pool pool(2);
  std::vector<std::string> words(50000 / BOOST_THREAD_FJ_TEST_SCALE);
  for (std::string& w : words)
    w = std::to_string(random() % 100000) + "-" + std::string(random() % 20, 'x');
  std::vector<std::string> expected = words;
  std::sort(expected.begin(), expected.end());
  boost::parallel_sort(pool, words.begin(), words.end()); // lifted into namespace boost
  BOOST_TEST((words == expected));

  std::deque<int> d;
  for (int i = 0; i < 30000; ++i)
    d.push_back(int(random() % 5000));
  std::deque<int> sorted_d = d;
  std::sort(sorted_d.begin(), sorted_d.end());
  fj::parallel_sort(pool, d.begin(), d.end());
  BOOST_TEST((d == sorted_d));

  // a comparator returning int rather than bool (any value convertible to bool is allowed)
  std::vector<int> y(50000);
  for (int& e : y)
    e = int(random() % 100000);
  std::vector<int> sorted_y = y;
  std::sort(sorted_y.begin(), sorted_y.end());
  fj::parallel_sort(pool, y.begin(), y.end(), [](int a, int b) -> int { return a < b ? 7 : 0; });
  BOOST_TEST((y == sorted_y));

  // raw pointers
  std::vector<double> x(100000);
  for (double& e : x)
    e = double(random() % 1000) / 7;
  std::vector<double> sorted_x = x;
  std::sort(sorted_x.begin(), sorted_x.end());
  fj::parallel_sort(pool, x.data(), x.data() + x.size());
  BOOST_TEST((x == sorted_x));
}

namespace {

// A comparator that counts its calls (a pointer to a shared counter: std::sort copies it).
struct counting_less
{
  std::atomic<std::uint64_t>* count;
  bool operator()(int a, int b) const
  {
    count->fetch_add(1, std::memory_order_relaxed);
    return a < b;
  }
};

// McIlroy's adversary ("A Killer Adversary for Quicksort", 1999): values are decided lazily,
// so as to make a quicksort's pivots as bad as possible; any quicksort without a fallback
// takes quadratic time on it. It sorts indices into val; one mutex makes it consistent across
// threads.
struct adversary
{
  explicit adversary(int n) : val(std::size_t(n), n), gas(n) {}

  bool less(int x, int y)
  {
    std::lock_guard<std::mutex> lk(mtx);
    ++comparisons;
    if (val[std::size_t(x)] == gas && val[std::size_t(y)] == gas)
      val[std::size_t(x == candidate ? x : y)] = solid++;
    if (val[std::size_t(x)] == gas)
      candidate = x;
    else if (val[std::size_t(y)] == gas)
      candidate = y;
    return val[std::size_t(x)] < val[std::size_t(y)];
  }

  std::mutex mtx;
  std::vector<int> val;
  const int gas;
  int solid = 0;
  int candidate = 0;
  std::uint64_t comparisons = 0;
};

} // namespace

BOOST_AUTO_TEST_CASE(comparison_counts_stay_n_log_n)
{
  // Accounting, not timing: a quadratic case would make many times the comparisons allowed.
  const std::size_t n = 200000 / BOOST_THREAD_FJ_TEST_SCALE;
  const double n_log_n = double(n) * std::log2(double(n));
  std::mt19937_64 random(25);
  on_every_executor([&](auto& ex) {
    for (pattern p : all_patterns)
    {
      std::vector<int> v = make_input(p, n, random);
      std::atomic<std::uint64_t> count{0};
      fj::parallel_sort(ex, v.begin(), v.end(), counting_less{&count});
      BOOST_TEST(std::is_sorted(v.begin(), v.end()));
      BOOST_TEST(double(count.load()) <= 3 * n_log_n, "pattern " << int(p) << ": " << count.load());
      // O(n): about 2n for sorted and all-equal input, 4n for reversed, 3n for two keys
      if (p == pattern::all_equal || p == pattern::sorted || p == pattern::reversed || p == pattern::two_keys)
        BOOST_TEST(count.load() <= 8 * n, "pattern " << int(p) << ": " << count.load() << " comparisons, linear expected");
    }
  });
  // The adversary, on a pool of 1 and of 2 threads.
  const int m = int(20000 / BOOST_THREAD_FJ_TEST_SCALE) + 1000;
  for (unsigned threads : {1u, 2u})
  {
    fork_join_thread_pool pool(threads);
    adversary a(m);
    std::vector<int> idx(static_cast<std::size_t>(m));
    for (int i = 0; i < m; ++i)
      idx[std::size_t(i)] = i;
    fj::parallel_sort(pool, idx.begin(), idx.end(), [&a](int x, int y) { return a.less(x, y); });
    bool sorted = true;
    for (std::size_t i = 1; i < idx.size(); ++i)
      sorted = sorted && a.val[std::size_t(idx[i - 1])] <= a.val[std::size_t(idx[i])];
    BOOST_TEST(sorted);
    BOOST_TEST(double(a.comparisons) <= 8 * double(m) * std::log2(double(m)), a.comparisons << " comparisons");
  }
}

namespace {

struct poisoned_value : std::runtime_error
{
  poisoned_value() : std::runtime_error("poisoned value") {}
};

} // namespace

BOOST_AUTO_TEST_CASE(every_exception_of_comp_is_collected)
{
  std::mt19937_64 random(26);
  on_every_executor([&](auto& ex) {
    std::vector<int> v = make_input(pattern::random, 100000, random);
    for (std::size_t k = 0; k < v.size(); k += 9973)
      v[k] = -1; // poisoned: comparing it throws
    std::atomic<int> thrown{0};
    try
    {
      fj::parallel_sort(ex, v.begin(), v.end(), [&](int a, int b) {
        if (a == -1 || b == -1)
        {
          thrown.fetch_add(1);
          throw poisoned_value();
        }
        return a < b;
      });
      BOOST_FAIL("parallel_sort must throw");
    }
    catch (const exception_list& list)
    {
      BOOST_TEST(list.size() == std::size_t(thrown.load()));
      BOOST_TEST(thrown.load() >= 1);
      std::size_t poisoned = 0;
      for (const boost::exception_ptr& e : list)
      {
        try
        {
          boost::rethrow_exception(e);
        }
        catch (const poisoned_value&)
        {
          ++poisoned;
        }
      }
      BOOST_TEST(poisoned == list.size());
    }
  });
}

BOOST_AUTO_TEST_CASE(nested_sorts)
{
  // Many vectors sorted in parallel, each with a parallel_sort: on the pool from main and from
  // a worker, and on a basic_thread_pool.
  std::mt19937_64 random(27);
  const std::size_t count = 32, n = 20000 / BOOST_THREAD_FJ_TEST_SCALE;
  std::vector<std::vector<int> > inputs(count);
  for (std::vector<int>& v : inputs)
    v = make_input(pattern::random, n, random);
  std::vector<std::vector<int> > expected = inputs;
  for (std::vector<int>& v : expected)
    std::sort(v.begin(), v.end());
  on_every_executor([&](auto& ex) {
    std::vector<std::vector<int> > data = inputs;
    fj::parallel_for(ex, data.begin(), data.end(), [&](std::vector<int>& v) { fj::parallel_sort(ex, v.begin(), v.end()); });
    BOOST_TEST((data == expected));
  });
  fork_join_thread_pool pool(2);
  std::vector<std::vector<int> > data = inputs;
  fj::fork(pool, [&] {
    fj::parallel_for(pool, data.begin(), data.end(), [&](std::vector<int>& v) { fj::parallel_sort(pool, v.begin(), v.end()); });
  }).get();
  BOOST_TEST((data == expected));
}

BOOST_AUTO_TEST_CASE(a_loop_executor_sorts_on_the_caller)
{
  std::mt19937_64 random(28);
  boost::executors::loop_executor loop;
  std::vector<int> v = make_input(pattern::random, 100000, random);
  std::vector<int> expected = v;
  std::sort(expected.begin(), expected.end());
  fj::parallel_sort(loop, v.begin(), v.end());
  BOOST_TEST((v == expected));
}

BOOST_AUTO_TEST_SUITE_END()
