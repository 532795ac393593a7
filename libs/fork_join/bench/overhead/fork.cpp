// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "overhead.hpp"

#include <boost/thread/executors/fork_join.hpp>

namespace {

std::uint64_t fib(unsigned n)
{
  if (n < 2)
    return n;
  boost::executors::joinable_future<std::uint64_t> a = boost::executors::fork(*overhead::pool, fib, n - 1);
  boost::executors::joinable_future<std::uint64_t> b = boost::executors::fork(*overhead::pool, fib, n - 2);
  a.join();
  b.join();
  return a.get() + b.get();
}

} // namespace

extern "C" BOOST_NOINLINE std::uint64_t measured_fork(unsigned n) { return fib(n); }
