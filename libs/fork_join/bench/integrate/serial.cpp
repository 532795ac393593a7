// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "integrate.hpp"

namespace {

double integrate(const bench::integrate::interval& i)
{
  const bench::integrate::halves h = bench::integrate::split(i);
  if (h.converged)
    return h.area;
  return integrate(h.left) + integrate(h.right);
}

std::string describe(bench::scale s)
{
  return "adaptive quadrature of x (x^2 + 1) over [0, " + std::to_string(static_cast<int>(bench::integrate::size(s))) +
         "], halving down to a difference under 1e-7, a fork per split";
}

std::uint64_t reference(bench::scale s)
{
  return bench::integrate::bits(bench::integrate::iterative_area(bench::integrate::whole(s)));
}

void run(const bench::config& cfg)
{
  const bench::integrate::interval whole = bench::integrate::whole(cfg.scale);
  bench::measure(cfg, [&whole] { return bench::integrate::bits(integrate(whole)); });
}

const bench::workload_registration workload{"integrate", &describe, &reference};
const bench::peer_registration registered{"integrate", bench::serial_peer, &run};

} // namespace
