// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "overhead.hpp"

#include <boost/thread/executors/parallel_invoke.hpp>

namespace {

std::uint64_t fib(unsigned n)
{
  if (n < 2)
    return n;
  std::uint64_t a = 0, b = 0;
  boost::executors::parallel_invoke(*overhead::pool, [&] { a = fib(n - 1); }, [&] { b = fib(n - 2); });
  return a + b;
}

} // namespace

extern "C" BOOST_NOINLINE std::uint64_t measured_invoke(unsigned n) { return fib(n); }
