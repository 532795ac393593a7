// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Parallel quicksort with a task block: partition, run the left part as a child, sort the
// right part on this thread; leaving the block joins the child. Compare parallel_quicksort.cpp,
// the same with fork and join, where forgetting the join is a bug the compiler cannot see.

#include <boost/thread/executors/task_block.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <random>
#include <vector>

using boost::executors::define_task_block;
using boost::executors::fork_join_thread_pool;
using boost::executors::task_block;

const std::ptrdiff_t grain = 2048;

template <class Iterator>
void quicksort(fork_join_thread_pool& pool, Iterator first, Iterator last)
{
  if (last - first <= grain)
  {
    std::sort(first, last);
    return;
  }
  // Three-way partition around the middle element, so both parts shrink even with many equal keys.
  const auto pivot = *(first + (last - first) / 2);
  const Iterator equal = std::partition(first, last, [&](const auto& x) { return x < pivot; });
  const Iterator greater = std::partition(equal, last, [&](const auto& x) { return !(pivot < x); });
  define_task_block(pool, [&](task_block& tb) {
    tb.run([&] { quicksort(pool, first, equal); });
    quicksort(pool, greater, last);
  });
}

int main()
{
  std::mt19937 random(2026);
  std::uniform_int_distribution<int> value(0, 50000);
  std::vector<int> data(300000);
  for (int& x : data)
    x = value(random);
  std::vector<int> expected = data;
  std::sort(expected.begin(), expected.end());

  fork_join_thread_pool pool(2);
  quicksort(pool, data.begin(), data.end());

  const bool ok = data == expected;
  std::printf("sorted %zu values: %s\n", data.size(), ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
