// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "libfork_peer.hpp"

#include <string>

namespace {

std::string version()
{
  return std::to_string(LF_VERSION_MAJOR) + "." + std::to_string(LF_VERSION_MINOR) + "." +
         std::to_string(LF_VERSION_PATCH);
}

const bench::library_registration registered{"libfork", &version};

} // namespace
