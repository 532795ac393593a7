// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "overhead.hpp"

#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/future.hpp>

namespace {

std::uint64_t fib(unsigned n)
{
  if (n < 2)
    return n;
  boost::future<std::uint64_t> a = boost::async(*overhead::pool, fib, n - 1);
  const std::uint64_t b = fib(n - 2);
  boost::executors::join(*overhead::pool, a);
  return a.get() + b;
}

} // namespace

extern "C" BOOST_NOINLINE std::uint64_t measured_async(unsigned n) { return fib(n); }
