// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "matmul.hpp"

#include <string>

namespace {

void multiply(const double* a, const double* b, double* c, std::size_t n, std::size_t ld)
{
  if (n <= bench::matmul::cutoff)
    return bench::matmul::multiply_leaf(a, b, c, n, ld);
  for (std::size_t p = 0; p < 2; ++p)
    for (const bench::matmul::product& q : bench::matmul::phase(a, b, c, n, ld, p))
      multiply(q.a, q.b, q.c, n / 2, ld);
}

std::string describe(bench::scale s)
{
  const std::string n = std::to_string(bench::matmul::size(s));
  return "C += A B for " + n + " x " + n + " matrices of double, split into quadrants: two phases of 4 parallel " +
         "sub-multiplies, an i-k-j loop from " + std::to_string(bench::matmul::cutoff) + " x " +
         std::to_string(bench::matmul::cutoff) + " down";
}

// The digest of one i-k-j loop over the whole matrices: no recursion, the same order of
// additions (matmul.hpp), so the same bits.
std::uint64_t reference(bench::scale s)
{
  bench::matmul::matrices m(bench::matmul::size(s));
  m.reset();
  const std::size_t n = m.n;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t j = 0; j < n; ++j)
        m.c[i * n + j] += m.a[i * n + k] * m.b[k * n + j];
  return m.digest();
}

void run(const bench::config& cfg)
{
  bench::matmul::measure(cfg,
                         [](bench::matmul::matrices& m) { multiply(m.a.data(), m.b.data(), m.c.data(), m.n, m.n); });
}

const bench::workload_registration workload{"matmul", &describe, &reference};
const bench::peer_registration registered{"matmul", bench::serial_peer, &run};

} // namespace
