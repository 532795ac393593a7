// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The fork_join_typed peer: a measuring instrument, not a form a user writes. It forks a node's
// children as the library's own stack tasks (boost::detail::fork_join, stack_task.hpp), of one
// type each, in the parent's frame, queued at once, joined newest first: what a task block's
// children would cost with nothing of a block around them (no type erasure, no arena, no list,
// no cancellation, no run() from another thread). Its time is the floor under any task block
// built on those stack tasks (doc/benchmark/README.md, "The floor under a task block").

#ifndef BOOST_FORK_JOIN_BENCH_TYPED_CHILDREN_HPP
#define BOOST_FORK_JOIN_BENCH_TYPED_CHILDREN_HPP

#include "fork_join_thread_pool.hpp"

#include <boost/thread/executors/detail/fork_join/invoke/exception_collector.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/invoke_all.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/stack_task.hpp>

#include <cstddef>
#include <memory>
#include <new>

namespace bench {
namespace typed_children {

  namespace ex = boost::executors;
  namespace fj = boost::detail::fork_join;

  // Effects: runs f(0) .. f(n - 1) as stack tasks queued on pool at once, then inline_part(),
  // then joins the n children, newest first (each one run inline if nobody took it), and
  // rethrows what they threw. The children live in this frame (in_frame of them) or, for a
  // larger n (the UTS trees' roots), in one array from operator new.
  template <class F, class Inline>
  void fork_join_each(ex::fork_join_thread_pool& pool, unsigned n, F& f, Inline&& inline_part)
  {
    if (n == 0) // a dead end of nqueens, a UTS node of one child: nothing to queue (spawn_all wants one)
      return inline_part();
    struct child
    {
      F* f;
      unsigned i;
      void operator()() const { (*f)(i); }
    };
    typedef fj::stack_task_impl<child> task_type;
    struct slot
    {
      child c;
      alignas(task_type) unsigned char task[sizeof(task_type)];
    };
    constexpr unsigned in_frame = 12; // nqueens' most, more than UTS's inner nodes' 8
    slot frame_slots[in_frame];
    fj::task* frame_tasks[in_frame];
    std::unique_ptr<slot[]> heap_slots(n > in_frame ? new slot[n] : nullptr);
    std::unique_ptr<fj::task*[]> heap_tasks(n > in_frame ? new fj::task*[n] : nullptr);
    slot* const slots = heap_slots ? heap_slots.get() : frame_slots;
    fj::task** const tasks = heap_tasks ? heap_tasks.get() : frame_tasks;

    fj::pool_core& core = *fj::core_of(pool);
    fj::worker_slot* const own = core.own_slot();
    for (unsigned i = 0; i != n; ++i)
    {
      slots[i].c = child{&f, i};
      tasks[i] = ::new (static_cast<void*>(slots[i].task)) task_type(slots[i].c);
    }
    const std::size_t queued = fj::spawn_all(core, own, tasks, n);
    fj::exception_collector errors;
    try
    {
      inline_part();
    }
    catch (...)
    {
      errors.add(fj::current_exception_lossless());
    }
    for (unsigned j = n; j-- != 0;)
    {
      task_type& t = *static_cast<task_type*>(tasks[j]);
      fj::join_child(core, own, errors, t, j < queued);
      t.~task_type();
    }
    errors.rethrow();
  }

} // namespace typed_children
} // namespace bench

#endif // header
