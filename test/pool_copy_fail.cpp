// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork_join_thread_pool is not copyable, like basic_thread_pool.
// expected-error: use of deleted function|call to deleted constructor

#include <boost/thread/executors/fork_join_thread_pool.hpp>

int main()
{
  boost::executors::fork_join_thread_pool a(1);
  boost::executors::fork_join_thread_pool b(a);
  return 0;
}
