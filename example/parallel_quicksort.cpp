// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Parallel quicksort: partition, fork the left part, sort the right part on this thread, join.
//
// The recursion stops forking at a grain size: below it a task would cost more to schedule
// than to run, so std::sort finishes the range serially. The split is uneven and depends on the
// data, which is where work stealing pays: an idle worker takes the oldest (largest) part
// waiting in another worker's deque.

#include <boost/thread/executors/fork_join.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <random>
#include <vector>

using boost::executors::fork_join_thread_pool;

const std::ptrdiff_t grain = 2048;

template <class Iterator>
void parallel_quicksort(fork_join_thread_pool& pool, Iterator first, Iterator last)
{
  if (last - first <= grain)
  {
    std::sort(first, last);
    return;
  }
  // Three-way partition around a middle element: [first, equal) < pivot, [equal, greater)
  // == pivot, [greater, last) > pivot. The middle part is not empty, so both recursions shrink.
  const auto pivot = *(first + (last - first) / 2);
  const Iterator equal = std::partition(first, last, [&](const auto& x) { return x < pivot; });
  const Iterator greater = std::partition(equal, last, [&](const auto& x) { return !(pivot < x); });

  auto left = fork(pool, [&pool, first, equal] { parallel_quicksort(pool, first, equal); });
  parallel_quicksort(pool, greater, last);
  left.join(); // runs queued tasks (often `left` itself) until the left part is sorted
  left.get();  // rethrows an exception from the left part, if any
}

int main()
{
  std::mt19937 random(2026);
  // Values drawn from a small range, so that many keys repeat and the three-way partition matters.
  std::uniform_int_distribution<int> value(0, 50000);
  std::vector<int> data(300000);
  for (int& x : data)
    x = value(random);

  std::vector<int> expected = data;
  std::sort(expected.begin(), expected.end());

  fork_join_thread_pool pool(2);
  parallel_quicksort(pool, data.begin(), data.end());

  const bool ok = data == expected;
  std::printf("parallel_quicksort of %zu ints: %s\n", data.size(), ok ? "equal to std::sort" : "WRONG");
  return ok ? 0 : 1;
}
