// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Without the Boost.Thread executor macros our headers must stop with a message naming them
// (Boost's own executor headers silently expand to nothing instead).
// expected-error: define BOOST_THREAD_VERSION=5

#undef BOOST_THREAD_VERSION
#include <boost/thread/executors/fork_join.hpp>

int main() { return 0; }
