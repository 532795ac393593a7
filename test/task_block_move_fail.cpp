// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// a task_block cannot be moved out of its define_task_block (N4411).
// expected-error: use of deleted function|call to deleted constructor

#include <boost/thread/executors/task_block.hpp>

#include <utility>

int main()
{
  boost::executors::define_task_block([](boost::executors::task_block& tb) {
    boost::executors::task_block moved(std::move(tb));
    (void)moved;
  });
  return 0;
}
