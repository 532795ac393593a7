// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "matmul.hpp"

#include <array>
#include <functional>

namespace {

namespace ex = bench::fork_join::ex;

// Per phase: forks the last three sub-multiplies, last first, runs the first inline, then joins
// the three, newest first: the serial order on one thread (matmul::multiply).
void multiply(ex::fork_join_thread_pool& pool, const double* a, const double* b, double* c, std::size_t n,
              std::size_t ld)
{
  if (n <= bench::matmul::cutoff)
    return bench::matmul::multiply_leaf(a, b, c, n, ld);
  for (std::size_t p = 0; p < 2; ++p)
  {
    const std::array<bench::matmul::product, 4> q = bench::matmul::phase(a, b, c, n, ld, p);
    std::array<ex::joinable_future<void>, 3> forked;
    for (std::size_t i = 0; i < forked.size(); ++i)
      forked[i] = ex::fork(pool, multiply, std::ref(pool), q[3 - i].a, q[3 - i].b, q[3 - i].c, n / 2, ld);
    multiply(pool, q[0].a, q[0].b, q[0].c, n / 2, ld);
    ex::join(pool, forked.begin(), forked.end());
    for (ex::joinable_future<void>& f : forked)
      f.get();
  }
}

void run(const bench::config& cfg)
{
  ex::fork_join_thread_pool pool(cfg.threads);
  bench::matmul::measure(
      cfg,
      [&pool](bench::matmul::matrices& m) {
        bench::fork_join::run_root(pool, [&] { multiply(pool, m.a.data(), m.b.data(), m.c.data(), m.n, m.n); });
      },
      bench::fork_join::on_root_thread(pool));
  bench::fork_join::report_statistics(pool);
}

const bench::peer_registration registered{"matmul", "fork_join", &run};

} // namespace
