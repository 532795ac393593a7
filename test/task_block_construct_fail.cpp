// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// users cannot make a task_block: only define_task_block does (N4411).
// expected-error: is private within this context|calling a private constructor

#include <boost/thread/executors/task_block.hpp>

#include <utility>

int main()
{
  boost::executors::fork_join_thread_pool pool(1);
  boost::executors::task_block tb(pool);
  (void)tb;
  return 0;
}
