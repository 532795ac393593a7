// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The OpenMP version the peers were compiled for (_OPENMP is the spec's yyyymm date).

#include "bench.hpp"

#include <string>

namespace {

std::string version()
{
  std::string v = std::to_string(_OPENMP);
#if defined(__GNUC__) && !defined(__clang__)
  v += " (libgomp, GCC " + std::to_string(__GNUC__) + "." + std::to_string(__GNUC_MINOR__) + ")";
#endif
  return v;
}

const bench::library_registration registered{"OpenMP", &version};

} // namespace
