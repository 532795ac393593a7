// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A child that a task block's owner made (its run() on the stack that runs the block, a pool
// thread of the block's pool): a record in the block's arena (block_arena.hpp) holding the
// child's function object, linked into two lists of the block (block_state.hpp):
//   older  the owner's list, newest first, which the owner's join walks (no atomic);
//   newer  the order of making, oldest first, which the block's queued tasks walk to claim
//          records (written once, by the owner, with release).
// A record is not a task: the block queues one task for all of them, and whoever runs a
// record claims it first: one exchange takes its run function and leaves null (the owner's
// join runs the last one without, when nobody else can have seen it). A record is three
// words and the function object, so that the seven records and the first child (a task) of a
// block of eight fit the arena's inline storage. Running it destroys the function object only:
// the links stay valid until the block's arena is rewound, after every task of the block that
// could walk them was joined.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_BLOCK_RECORD_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_BLOCK_RECORD_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/exception.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/exception_collector.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/cancel_region.hpp>

#include <atomic>
#include <functional>
#include <new>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

  class block_record
  {
  public:
    // What runs the child: unless `region` is canceled (a hint: cancellation skips what has
    // not started), calls it, then destroys its function object. A throw cancels `region` and
    // goes to `errors`, an interruption as such; a task_canceled_exception while `region` is
    // canceled is a consequence of the cancellation (exception_collector.hpp) and is dropped.
    typedef void (*run_fn)(block_record&, nested_region&, exception_collector&) noexcept;

    // Returns: the record's run function, now taken (null: someone claimed it before).
    // acq_rel: one winner per record; acquire orders the run after the record's making (also
    // published through `newer`), release keeps the claim ordered before the winner's run for
    // a relaxed look() that a join orders anyway.
    run_fn claim() noexcept { return run_.exchange(nullptr, std::memory_order_acq_rel); }

    // Returns: the run function if nobody claimed the record. relaxed: a hint before claim().
    run_fn look() const noexcept { return run_.load(std::memory_order_relaxed); }

    // As claim(), where no other runner can exist now (block_state::join_records): a load and a
    // store, no read-modify-write. The store still marks the record claimed for a claimer
    // that starts later and walks past it. relaxed: such a claimer is queued after this, and
    // its queuing publishes the store.
    run_fn claim_alone() noexcept
    {
      const run_fn go = run_.load(std::memory_order_relaxed);
      run_.store(nullptr, std::memory_order_relaxed);
      return go;
    }

    // Owner-only: the next older record that the owner's join has not taken.
    block_record* older = nullptr;
    // The next newer record the owner made, or null: stored once by the owner with release
    // (the record's construction published with it), loaded with acquire by the claimers.
    std::atomic<block_record*> newer{nullptr};

  protected:
    explicit block_record(run_fn r) noexcept : run_(r) {}

  private:
    std::atomic<run_fn> run_;
  };

  template <class G>
  class block_record_impl final : public block_record
  {
  public:
    template <class H>
    explicit block_record_impl(H&& h) : block_record(&run_impl)
    {
      ::new (static_cast<void*>(&g_)) G(std::forward<H>(h));
    }
    // Never called: a record ends with its arena's storage; its function object ends in
    // run_impl().
    ~block_record_impl() {}

  private:
    static void run_impl(block_record& r, nested_region& region, exception_collector& errors) noexcept
    {
      block_record_impl& self = static_cast<block_record_impl&>(r);
      if (!region.canceled())
        run_capturing_causes(
            region, [&self] { std::invoke(self.g_); },
            [&region, &errors]() noexcept {
              region.cancel();
              errors.interrupted();
            },
            [&region, &errors](boost::exception_ptr e) noexcept {
              region.cancel();
              errors.add(e);
            });
      self.g_.~G();
    }

    union
    {
      G g_; // built by the constructor, destroyed by run_impl()
    };
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
