// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork_join_uts_structure_bench: what the UTS peers' own code costs, with no scheduler at all:
// the serial walk (uts/serial.cpp's recursion), and the two shapes fork_join_bench's peers give
// it, each run on one thread with its fork/join primitive replaced by calls in turn:
//  - invoke shape: bench::uts::count_children, as the parallel_invoke peer (and oneTBB's
//    parallel_invoke peer) counts: one invoke of k callables for k <= 8 children, a larger
//    count halved down to such ranges (parallel_invoke takes a fixed number of callables);
//  - block shape: bench::uts::count_subtree, as the task block peer counts: a loop over the
//    children, their counts in a child_counts.
// What a peer's time at one thread exceeds its shape's by is its scheduling; what a shape
// exceeds the serial walk by, no scheduler can win back. Prints the median of the runs of each,
// T1 and T3, and each shape's ratio to the serial walk in the same run.
//
// usage: fork_join_uts_structure_bench [runs] [quick]   (default 9 runs; "quick": the small trees)

#include "uts/uts.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

namespace uts = bench::uts;

template <class Tree>
std::uint64_t serial_walk(const Tree& t, std::uint64_t id)
{
  std::uint64_t total = 1;
  const unsigned k = uts::child_count(t, id);
  for (unsigned i = 0; i < k; ++i)
    total += serial_walk(t, uts::child_id(t, id, i));
  return total;
}

template <class Tree>
std::uint64_t invoke_shape(const Tree& t, std::uint64_t id)
{
  auto invoke = [](auto&&... fs) { (fs(), ...); };
  return uts::count_subtree_by_invoke(t, id, invoke);
}

template <class Tree>
std::uint64_t block_shape(const Tree& t)
{
  auto fork_each = [](unsigned k, auto&& f) {
    for (unsigned i = 0; i < k; ++i)
      f(i);
  };
  return uts::count_subtree(t, t.root, fork_each);
}

template <class F>
double median_ms(unsigned runs, std::uint64_t expected, F f)
{
  std::vector<double> ms;
  for (unsigned r = 0; r < runs; ++r)
  {
    const auto start = std::chrono::steady_clock::now();
    const std::uint64_t nodes = f();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    if (nodes != expected)
    {
      std::fprintf(stderr, "fork_join_uts_structure_bench: %llu nodes, expected %llu\n",
                   static_cast<unsigned long long>(nodes), static_cast<unsigned long long>(expected));
      std::exit(1);
    }
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

template <class W>
void measure(unsigned runs, bench::scale s)
{
  const typename W::tree t = W::size(s);
  const std::uint64_t expected = uts::iterative_count(t);
  const double walk = median_ms(runs, expected, [&t] { return serial_walk(t, t.root); });
  const double invoke = median_ms(runs, expected, [&t] { return invoke_shape(t, t.root); });
  const double block = median_ms(runs, expected, [&t] { return block_shape(t); });
  std::printf("%-7s %9llu nodes   serial walk %7.1f ms   invoke shape %7.1f ms (%.3f)   block shape %7.1f ms (%.3f)\n",
              W::name, static_cast<unsigned long long>(expected), walk, invoke, invoke / walk, block, block / walk);
}

} // namespace

int main(int argc, char** argv)
{
  const unsigned runs = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 9;
  const bench::scale s = argc > 2 && std::strcmp(argv[2], "quick") == 0 ? bench::scale::quick : bench::scale::full;
  if (runs == 0)
  {
    std::fputs("usage: fork_join_uts_structure_bench [runs] [quick]\n", stderr);
    return 2;
  }
  measure<uts::t1>(runs, s);
  measure<uts::t3>(runs, s);
  return 0;
}
