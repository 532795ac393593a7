// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Each worker gets its own copy of at_thread_entry, so a move-only one is a clear compile error.
// expected-error: at_thread_entry must be CopyConstructible

#include <boost/thread/executors/fork_join_thread_pool.hpp>

#include <memory>

int main()
{
  std::unique_ptr<int> p(new int(1));
  boost::executors::fork_join_thread_pool pool(1, [q = std::move(p)](boost::executors::fork_join_thread_pool&) {});
  return 0;
}
