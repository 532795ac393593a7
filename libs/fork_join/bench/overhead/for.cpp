// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "overhead.hpp"

#include <boost/thread/executors/parallel_for.hpp>

#include <cstddef>

extern "C" BOOST_NOINLINE std::uint64_t measured_for(unsigned n)
{
  boost::executors::parallel_for(
      *overhead::pool, std::size_t(0), std::size_t(n), [](std::size_t i) { overhead::elements[i] += 1; }, 16);
  return 0;
}
