// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The design article's last step (doc/index.md, introduction): fib with define_task_block,
// then nested blocks.
//
// A task block is structured fork/join: run() forks, and the block cannot be left before every
// child has finished, so there is nothing to forget to join. Waits help: on a fixed pool of two
// threads, thousands of blocks wait at once without deadlock.

#include <boost/thread/executors/task_block.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

using boost::executors::define_task_block;
using boost::executors::fork_join_thread_pool;
using boost::executors::task_block;

std::uint64_t fib(fork_join_thread_pool& pool, int n)
{
  if (n < 2)
    return static_cast<std::uint64_t>(n);
  std::uint64_t a = 0, b = 0;
  define_task_block(pool, [&](task_block& tb) {
    tb.run([&] { a = fib(pool, n - 1); }); // may be stolen by another worker
    b = fib(pool, n - 2);                  // meanwhile, on this thread
  });                                      // a is ready here
  return a + b;
}

// Nested blocks: each row is summed by a block of its own inside a child of the outer block.
std::uint64_t sum_of_rows(fork_join_thread_pool& pool, const std::vector<std::vector<unsigned> >& rows)
{
  std::vector<std::uint64_t> row_sums(rows.size());
  define_task_block(pool, [&](task_block& outer) {
    for (std::size_t r = 0; r < rows.size(); ++r)
      outer.run([&, r] {
        const std::vector<unsigned>& row = rows[r];
        const std::size_t half = row.size() / 2;
        std::uint64_t left = 0, right = 0;
        define_task_block(pool, [&](task_block& inner) {
          inner.run([&] {
            for (std::size_t i = 0; i < half; ++i)
              left += row[i];
          });
          for (std::size_t i = half; i < row.size(); ++i)
            right += row[i];
        });
        row_sums[r] = left + right;
      });
  });
  std::uint64_t total = 0;
  for (std::uint64_t s : row_sums)
    total += s;
  return total;
}

int main()
{
  fork_join_thread_pool pool(2);

  const std::uint64_t f = fib(pool, 27);
  std::printf("fib(27) = %llu\n", static_cast<unsigned long long>(f));

  std::vector<std::vector<unsigned> > rows(200, std::vector<unsigned>(1000));
  std::uint64_t expected = 0;
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t i = 0; i < rows[r].size(); ++i)
      expected += rows[r][i] = static_cast<unsigned>((r * 31 + i * 7) % 1000);
  const std::uint64_t total = sum_of_rows(pool, rows);
  std::printf("sum of rows = %llu (expected %llu)\n", static_cast<unsigned long long>(total),
              static_cast<unsigned long long>(expected));

  return f == 196418 && total == expected ? 0 : 1;
}
