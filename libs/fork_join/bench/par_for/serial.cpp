// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "par_for.hpp"

#include <string>

namespace {

std::string describe(bench::scale s)
{
  const bench::par_for::problem p = bench::par_for::size(s);
  return "out[i] = splitmix64(in[i]) over " + std::to_string(p.n) + " uint64s, chunks of at most " +
         std::to_string(p.grain);
}

// The digest computed as the elements are, without the out array.
std::uint64_t reference(bench::scale s)
{
  const std::vector<std::uint64_t> in = bench::par_for::input(bench::par_for::size(s).n);
  std::uint64_t h = 0;
  for (std::uint64_t x : in)
    h = bench::splitmix64(h ^ bench::par_for::work(x));
  return h;
}

void run(const bench::config& cfg)
{
  const bench::par_for::problem p = bench::par_for::size(cfg.scale);
  bench::par_for::buffers buf(p.n);
  const std::uint64_t* const in = buf.in.data();
  std::uint64_t* const out = buf.out.data();
  bench::measure(
      cfg, [&] { buf.reset(); },
      [&] {
        for (std::size_t i = 0; i < p.n; ++i)
          out[i] = bench::par_for::work(in[i]);
      },
      [&] { return buf.digest(); });
}

const bench::workload_registration workload{"par_for", &describe, &reference};
const bench::peer_registration registered{"par_for", bench::serial_peer, &run};

} // namespace
