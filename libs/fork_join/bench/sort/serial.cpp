// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "sort.hpp"

#include <string>

namespace {

void merge_sort(int* a, int* b, std::size_t n, bool into_b, std::size_t grain)
{
  if (n <= grain)
    return bench::sort::sort_leaf(a, b, n, into_b);
  const std::size_t half = n / 2;
  merge_sort(a, b, half, !into_b, grain);
  merge_sort(a + half, b + half, n - half, !into_b, grain);
  bench::sort::merge_halves(a, b, n, half, into_b);
}

std::string describe(bench::scale s)
{
  const bench::sort::problem p = bench::sort::size(s);
  return "merge sort of " + std::to_string(p.n) + " ints, std::sort below " + std::to_string(p.grain);
}

// The digest of std::sort's output.
std::uint64_t reference(bench::scale s)
{
  bench::sort::buffers buf(bench::sort::size(s).n);
  buf.reset();
  std::sort(buf.data.begin(), buf.data.end());
  return buf.digest();
}

void run(const bench::config& cfg)
{
  const bench::sort::problem p = bench::sort::size(cfg.scale);
  bench::sort::buffers buf(p.n);
  bench::measure(
      cfg, [&] { buf.reset(); }, [&] { merge_sort(buf.data.data(), buf.scratch.data(), p.n, false, p.grain); },
      [&] { return buf.digest(); });
}

const bench::workload_registration workload{"sort", &describe, &reference};
const bench::peer_registration registered{"sort", bench::serial_peer, &run};

} // namespace
