// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Which pool, if any, the current thread works for, and whose task it is running now.
//
// Both are plain thread_locals: only the thread itself reads or writes them.
//  - current_worker: set for the whole life of a pool's worker thread. Submissions from a worker
//    go to its own deque; joins on a worker help that pool.
//  - running_core: the pool whose task this thread is executing (a worker, or any thread that
//    helps in a join). Its submissions are children of accepted work and are accepted even after
//    close(), so that accepted work can always finish.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_TASKS_WORKER_CONTEXT_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_TASKS_WORKER_CONTEXT_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>

namespace boost {
namespace detail {
namespace fork_join {

  class pool_core;

  struct worker_context
  {
    pool_core* core;
    unsigned index;
    void* slot; // the thread's slot (deque, counters) in core, opaque here (worker_slot.hpp)
  };

  inline thread_local const worker_context* current_worker = nullptr;
  inline thread_local pool_core* running_core = nullptr;

  // The worker index of the current thread in `core`, or -1 if it is not one of its workers.
  inline int worker_index_in(const pool_core* core) noexcept
  {
    const worker_context* w = current_worker;
    return (w && w->core == core) ? static_cast<int>(w->index) : -1;
  }

  // Returns: whether the calling thread is a pool thread of `core`, which
  // proves that core alive for as long as the thread runs (a pool joins its threads before it
  // lets go of its core). Never dereferences core.
  inline bool is_pool_thread_of(const pool_core* core) noexcept
  {
    const worker_context* w = current_worker;
    return w && w->core == core;
  }

  // Marks the current thread as worker `index` of `core` for the scope's lifetime.
  class worker_scope
  {
  public:
    worker_scope(pool_core* core, unsigned index, void* slot) noexcept : ctx_{core, index, slot}, prev_(current_worker)
    {
      current_worker = &ctx_;
    }
    ~worker_scope() { current_worker = prev_; }
    worker_scope(const worker_scope&) = delete;
    worker_scope& operator=(const worker_scope&) = delete;

  private:
    worker_context ctx_;
    const worker_context* prev_;
  };

  // Marks the current thread as running a task of `core` for the scope's lifetime (nests).
  class running_scope
  {
  public:
    explicit running_scope(pool_core* core) noexcept : prev_(running_core) { running_core = core; }
    ~running_scope() { running_core = prev_; }
    running_scope(const running_scope&) = delete;
    running_scope& operator=(const running_scope&) = delete;

  private:
    pool_core* prev_;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
