// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// How a cost grows with a size n: the exponent b of y = a n^b, fitted over a sweep of n. 1.0 is
// a linear cost whatever the constant, 2.0 a quadratic one. Shared by fork_join_scaling_bench
// (scaling.cpp) and fork_join_waits_bench (waits.cpp).

#ifndef BOOST_FORK_JOIN_BENCH_FIT_HPP
#define BOOST_FORK_JOIN_BENCH_FIT_HPP

#include <cmath>
#include <cstddef>
#include <vector>

namespace bench {

  // Returns: the least-squares slope of log(y) against log(x).
  inline double growth_exponent(const std::vector<double>& x, const std::vector<double>& y)
  {
    const double k = static_cast<double>(x.size());
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < x.size(); ++i)
    {
      const double lx = std::log(x[i]), ly = std::log(y[i]);
      sx += lx;
      sy += ly;
      sxx += lx * lx;
      sxy += lx * ly;
    }
    return (k * sxy - sx * sy) / (k * sxx - sx * sx);
  }

  // Returns: the slope of log(y) against log(x) between the last two points: the exponent over
  // the last step of the sweep, where a term that grows faster than n shows most.
  inline double last_exponent(const std::vector<double>& x, const std::vector<double>& y)
  {
    const std::size_t k = x.size() - 1;
    return std::log(y[k] / y[k - 1]) / std::log(x[k] / x[k - 1]);
  }

} // namespace bench

#endif // header
