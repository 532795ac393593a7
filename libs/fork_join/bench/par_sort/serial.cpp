// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "par_sort.hpp"

#include <string>

namespace {

std::string describe(bench::scale s)
{
  return "parallel sort of " + std::to_string(bench::par_sort::size(s)) +
         " ints in place (sort's input), each library's own grain";
}

// The digest of std::stable_sort's output.
std::uint64_t reference(bench::scale s)
{
  bench::par_sort::buffers buf(bench::par_sort::size(s));
  buf.reset();
  std::stable_sort(buf.data.begin(), buf.data.end());
  return buf.digest();
}

void run(const bench::config& cfg)
{
  bench::par_sort::buffers buf(bench::par_sort::size(cfg.scale));
  bench::measure(
      cfg, [&] { buf.reset(); }, [&] { std::sort(buf.data.begin(), buf.data.end()); }, [&] { return buf.digest(); });
}

const bench::workload_registration workload{"par_sort", &describe, &reference};
const bench::peer_registration registered{"par_sort", bench::serial_peer, &run};

} // namespace
