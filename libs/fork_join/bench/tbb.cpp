// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The oneTBB version the peers were compiled against and the one they run with.

#include "bench.hpp"

#include <oneapi/tbb/version.h>

#include <string>

namespace {

std::string version()
{
  return std::string(TBB_VERSION_STRING) + " (runtime " + TBB_runtime_version() + ")";
}

const bench::library_registration registered{"oneTBB", &version};

} // namespace
