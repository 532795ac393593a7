// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Adaptive quadrature, the integrate kernel of libfork's benchmark suite
// (https://github.com/ConorWilliams/libfork, bench/): the integral of f(x) = x (x^2 + 1) over
// [0, n] by recursive interval halving. An interval's area is estimated by the trapezoid rule
// on its two halves; when that differs from the estimate on the whole interval by less than
// epsilon it is the answer, else each half is integrated in the same way: a fork per split, and
// a few floating-point operations per task, so the time is mostly the cost of a fork and a join.
// Every peer adds the same two halves at every split, so its answer (the area's bits) equals the
// serial peer's bit for bit.

#ifndef BOOST_FORK_JOIN_BENCH_INTEGRATE_INTEGRATE_HPP
#define BOOST_FORK_JOIN_BENCH_INTEGRATE_INTEGRATE_HPP

#include "../bench.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace bench {
namespace integrate {

  // libfork's epsilon and integrand, on a shorter interval: libfork's [0, 10000] makes 66.8 million
  // tasks here (0.87 s serially, several seconds per run for most peers); [0, 2000] makes 7.7
  // million (3.85 million forks, about fib(32)'s), [0, 20] for --quick 16,755.
  inline constexpr double epsilon = 1e-7;

  inline double f(double x) { return (x * x + 1) * x; }

  // An interval [x1, x2], f at both ends, and its area as estimated so far.
  struct interval
  {
    double x1, y1, x2, y2, area;
  };

  // The whole interval: [0, n].
  inline double size(scale s) { return s == scale::quick ? 20 : 2000; }

  inline interval whole(scale s)
  {
    const double n = size(s);
    return interval{0, f(0), n, f(n), (f(0) + f(n)) / 2 * n};
  }

  // An interval's two halves, with their trapezoid areas; converged: their sum is the answer.
  struct halves
  {
    bool converged;
    double area;
    interval left, right;
  };

  inline halves split(const interval& i)
  {
    const double half = (i.x2 - i.x1) / 2;
    const double xm = i.x1 + half;
    const double ym = f(xm);
    const interval left{i.x1, i.y1, xm, ym, (i.y1 + ym) / 2 * half};
    const interval right{xm, ym, i.x2, i.y2, (ym + i.y2) / 2 * half};
    const double area = left.area + right.area;
    return halves{area - i.area < epsilon && i.area - area < epsilon, area, left, right};
  }

  // Returns: i's area, integrated with join2(left, right): runs both callables, possibly in
  // parallel (left is the half offered to other threads), and returns when both have finished;
  // the one thing a peer on a two-way fork/join primitive supplies.
  template <class Join2>
  double integrate(const interval& i, Join2& join2)
  {
    const halves h = split(i);
    if (h.converged)
      return h.area;
    double left = 0, right = 0;
    join2([&] { left = integrate(h.left, join2); }, [&] { right = integrate(h.right, join2); });
    return left + right;
  }

  // The answer a peer reports: the area's bits.
  inline std::uint64_t bits(double area)
  {
    std::uint64_t b;
    std::memcpy(&b, &area, sizeof b);
    return b;
  }

  // The area by an explicit-stack walk, to check the serial peer's recursion: a split pushes an
  // addition and then both halves, so the halves' sums are added as the recursion adds them.
  inline double iterative_area(const interval& whole)
  {
    struct step
    {
      interval i;
      bool add; // add the last two sums instead
    };
    std::vector<step> steps{step{whole, false}};
    std::vector<double> sums;
    while (!steps.empty())
    {
      const step s = steps.back();
      steps.pop_back();
      if (s.add)
      {
        const double right = sums.back();
        sums.pop_back();
        sums.back() += right;
        continue;
      }
      const halves h = split(s.i);
      if (h.converged)
        sums.push_back(h.area);
      else
      {
        steps.push_back(step{interval{}, true});
        steps.push_back(step{h.right, false});
        steps.push_back(step{h.left, false});
      }
    }
    return sums.back();
  }

} // namespace integrate
} // namespace bench

#endif // header
