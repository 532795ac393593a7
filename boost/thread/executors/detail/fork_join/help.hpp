// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The help loop: how every wait in this library waits.
//
// A joiner runs queued tasks one at a time until its condition holds, re-checking it after each
// task (hazard 2: it never runs more than it must, and a worker takes its own newest tasks, which
// are its own children, first). It runs only tasks its wait_scope admits (task_frame.hpp): the
// awaited tasks, and what the thief of an awaited stack task spawned for it. That is what
// makes helping safe: a task run on top of a waiting frame never waits, directly or through
// others, for that frame, so an acyclic task graph cannot deadlock by burying a task under one
// that waits for it (the article's join runs "any queued task" and can).
//
// When there is nothing it may run it spins a bounded number of rounds, as an idle worker does,
// then sleeps in block() until what it waits for is done (the future, or the stack task's
// completion handshake). A pool thread first calls begin_block() on its pool, which keeps
// enough threads free of waits to run everything else (pool_core.hpp, spare threads), so the
// sleeping joiner costs the pool no worker; this covers the article's "evil case" too (a join
// that starts before the awaited task is even submitted: a free thread runs the submitter).
// If no spare can be had (BOOST_THREAD_FJ_MAX_SPARE_THREADS, or the system refuses a thread),
// the joiner falls back to running any queued task, as the article's join does: the one case
// where the progress guarantee does not hold, documented in doc/index.md.
//
// Stack: a thread only takes queued tasks while it has stack to spare (stack_bounds.hpp);
// below that it only waits, which is safe: a thread that is not a pool thread is never needed,
// and a pool thread that waits is replaced by a spare as above. Nesting on any thread is
// bounded by the admission rule too: each nested frame runs a task the frame below waits for.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_HELP_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_HELP_HPP

#include <boost/thread/executors/detail/fork_join/config.hpp>
#include <boost/thread/executors/detail/fork_join/pool_core.hpp>
#include <boost/thread/executors/detail/fork_join/stack_bounds.hpp>
#include <boost/thread/executors/detail/fork_join/task_frame.hpp>
#include <boost/thread/executors/detail/fork_join/worker_context.hpp>

namespace boost {
namespace detail {
namespace fork_join {

  // Requires: first != nullptr; second is nullptr or another pool.
  // Effects: until ready() returns true, runs tasks that `scope` admits, of `first`, then of
  // `second`; when there are none, sleeps in block(), which must return once ready() would be
  // true (it may return earlier; the loop re-checks). A pool thread replaces itself by a spare
  // while it sleeps (see above). Progress: may run other tasks while waiting.
  // Throws: what ready(), block() or a task run throw (boost::thread_interrupted).
  template <class Ready, class Block>
  void help_until(pool_core* first, pool_core* second, wait_scope scope, Ready&& ready, Block&& block)
  {
    const worker_context* const w = current_worker;
    pool_core* const own = w ? w->core : nullptr; // the pool this thread belongs to, if any
    auto run_one = [&] {
      if (!stack_has_room())
        return false;
      return first->try_run_one(&scope) || (second && second->try_run_one(&scope));
    };
    for (;;)
    {
      if (ready())
        return;
      if (run_one())
        continue;
      // Before sleeping, look again for a while, as an idle worker does (pool_core.hpp): the
      // awaited task often finishes, or its thief pushes tasks we may run, within microseconds.
      bool ran = false;
      for (int round = 0; round < BOOST_THREAD_FJ_IDLE_SPIN_ROUNDS && !ran; ++round)
      {
        if (ready())
          return;
        this_thread::yield();
        ran = run_one();
      }
      if (ran)
        continue;
      if (!own)
      {
        block();
        continue;
      }
      if (!own->begin_block())
      {
        if (!scope.any)
        {
          scope.any = true; // no spare to be had: help as the article does (doc/index.md)
          continue;
        }
        block();
        continue;
      }
      struct unblock
      {
        pool_core* core;
        ~unblock() { core->end_block(); }
      } blocked{own};
      block();
    }
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
