// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Cancellation regions: what a task block, a cancellation_source's fork or a call of a parallel
// algorithm hands down to the blocks and algorithms that run inside it, so that canceling it
// stops them too (doc/index.md, "Cancellation").
//
// A region is a cancel flag and the region it was made in (its parent): it is canceled if its
// flag or an ancestor's is set. The regions are
//  - a task_block's: current on the thread that calls define_task_block for the whole call (its
//    function and its final join, where the children nobody took run inline);
//  - a cancellation_source's: made current, through a proxy (below), while a task forked with
//    the source runs;
//  - a parallel algorithm's call (algorithm_scope.hpp): current on the calling thread for the
//    whole call, where the chunks and splits nobody took run inline.
// A block or algorithm call started while a region is current takes it as its parent. Every
// parent outlives its children: a block or an algorithm call ends within the code of the region
// it was made in, which runs while they run.
//
// Current, per stack. The current region is one word per thread (current_context.region, next
// to the innermost task frame in task_frame.hpp), saved and restored with the stack's other
// state when a frame parks (parking.hpp: stack_state). It is valid only in the
// task frame (task_frame.hpp) it was made current in: a join that helps runs queued tasks above
// the region's code, each in a frame of its own (pool_core::run_task_inline), and such a task,
// a plain fork or submitted closure for instance, is not part of the region. Nothing on the
// pool's paths writes the slot: a pool that uses no block, no source and no algorithm never
// touches it. A stack task its parent runs inline (a child nobody took) runs in its parent's
// frame, and so in the region current there. A stack task that is taken from a queue (a thief,
// or a join helping in a frame of its own) runs apart from that code; the stack tasks of blocks
// and algorithms then make their region current through a proxy (region_proxy below): a region
// made on the running stack, in the running frame, whose flag is never set and whose parent is
// the region the task belongs to (invoke_in_own_region: stack_task.hpp, block_child.hpp). A
// parallel_invoke child of the user's has no region of its own: one that a thief runs is in
// none (doc/index.md says so).
//
// Made cheaply, checked lazily. A block or an algorithm call records, when it is made, the
// running frame and the current region (current_context: one 16-byte load and store), and
// makes itself current (one store, and one to restore the recorded region); nothing is
// decided. Whether the recorded region is its parent (made current in the same frame) is
// decided only by a check that needs the parent, which compares the two frames: both are alive
// then, since the recorded region's scope encloses the new one on the same stack. So a region
// costs a block or an algorithm call a handful of instructions, and none per child or chunk.
//
// A check in O(1). Regions nest as deep as blocks and algorithms nest (a recursive fib with a
// task block per level: one region per level), so walking the ancestors at every check would
// cost O(depth). Instead every flag is set through cancel() below, which also counts a
// process-wide epoch, and each region remembers the epoch at which it last found its ancestors
// clear (the high bits of its state word). A check first loads the epoch: 0, nothing was ever
// canceled in this process, and the check is over (one load and a branch, which is what
// reading the block's own flag cost before regions existed). Otherwise it reads its flag, and
// walks up only when some region somewhere was canceled since its last walk; each ancestor
// then answers from its own memory: amortized O(1). (Once anything was canceled, or an
// algorithm's chunk or a block's task threw, every check of the process takes that slower path:
// a call that reads the epoch and the region's state word.)
// Why this is exact, not a hint: cancel() sets the flag before it counts the epoch (release);
// a check that loads epoch e (acquire) and then finds every ancestor's flag clear has seen
// every flag that a cancel counted in e set, so the ancestors were clear at e, and any later
// cancel changes the epoch it compares with. The first load, relaxed, answers 0 only to a
// check that no counted cancel happens before: a check after a join sees the cancels of the
// tasks it joined (they happen before it, and a load sees the last value that does).
//
// Memory order: cancel() sets a flag with an acq_rel RMW (an explicit cancel publishes what the
// canceling code wrote before it) and checks load it with acquire, so an explicit cancel
// synchronizes with the check that sees it. For the block's failures and the algorithms'
// exceptions that is more than needed (their exceptions travel through the joins); it costs
// them nothing measurable, being once per failure. The skip decisions themselves are hints: a
// check racing with a cancel may miss it and run work that could have been skipped.
//
// Measured (doc/benchmark/README.md, "Cancellation's cost"): a task block of a recursive fib
// costs 14 instructions more than before regions existed, of which 8 are the region's own
// (the record, making it current and restoring, the check at the end of the block) and the
// rest the compiler's register allocation of the larger function; parallel_invoke and fork
// and join cost the same, and parallel_for's splits fewer (algorithm_child).

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_TASKS_CANCEL_REGION_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_TASKS_CANCEL_REGION_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task_frame.hpp>
#include <boost/config.hpp>
#include <boost/exception_ptr.hpp>
#include <boost/throw_exception.hpp>

#include <atomic>
#include <cstdint>
#include <exception>
#include <type_traits>

namespace boost {
namespace executors {

  // Thrown by task_block::run() and task_block::wait() once the block is canceled, stored in
  // the future of a fork whose cancellation_source was canceled before it started, and thrown
  // by a parallel algorithm that skipped work because its enclosing region was canceled
  // (doc/reference.md). define_task_block() then throws the exception_list of the causes; a
  // task_canceled_exception that is a consequence of the cancellation is not part of that list
  // (one that f or a child throws while the block is not canceled is, like any other).
  class task_canceled_exception : public std::exception
  {
  public:
    const char* what() const noexcept override { return "task_canceled_exception"; }
  };

} // namespace executors

namespace detail {
namespace fork_join {

  // How many regions cancel() has canceled in this process (see above). relaxed, acquire and
  // release: below.
  inline std::atomic<std::uint64_t> cancel_epoch{0};

  // The calling stack's current region, or the one current before a task frame was entered
  // above it (see above), is current_context.region (task_frame.hpp): one word, so that making
  // a region current costs one thread-local store and one to restore.

  class cancel_region
  {
  public:
    // Effects: a region whose parent is `parent` (none if null), made in `frame`.
    explicit cancel_region(const cancel_region* parent, const task_frame* frame = nullptr) noexcept
        : made_{frame, parent}, state_{explicit_parent}
    {
    }

    cancel_region(const cancel_region&) = delete;
    cancel_region& operator=(const cancel_region&) = delete;

    // Returns: whether this region or one that encloses it is canceled.
    BOOST_FORCEINLINE bool canceled() const noexcept
    {
      // relaxed: 0, no region was ever canceled (see above); else the slow path loads it again.
      return BOOST_UNLIKELY(cancel_epoch.load(std::memory_order_relaxed) != 0) && canceled_slow();
    }

    // Returns: whether a region that encloses this one (not this one) is canceled.
    BOOST_FORCEINLINE bool outer_canceled() const noexcept
    {
      // relaxed: as canceled().
      return BOOST_UNLIKELY(cancel_epoch.load(std::memory_order_relaxed) != 0) && outer_canceled_slow();
    }

    // Effects: sets the region's flag; counts the epoch if it was not set before. Out of line:
    // called once per failure or explicit cancel, from the handlers and the public cancel()s,
    // whose inlined copies would make the blocks' and algorithms' hot functions larger.
    BOOST_NOINLINE void cancel() noexcept
    {
      // acq_rel: the release publishes the canceling code's writes to a check that sees the
      // flag (pairs with the acquire loads of state_ below); the flag is set before the epoch
      // is counted (see above).
      if (!(state_.fetch_or(canceled_bit, std::memory_order_acq_rel) & canceled_bit))
        cancel_epoch.fetch_add(1, std::memory_order_release); // pairs with the slow paths' acquire
    }

  protected:
    // Effects: a region nested in the region current on the calling stack, if that was made
    // current in the running frame (decided by the first check that needs it, see above).
    struct nested_t
    {
    };
    explicit cancel_region(nested_t) noexcept : made_(current_context) {}

    // The frame the region is made (and made current) in; the region current then (a candidate
    // parent), or an explicit parent (explicit_parent), or nullptr.
    const task_context made_;

  private:
    // Bits of state_: the flag; whether made_.region is an explicit parent (else the candidate
    // of a nested region); above them, the clean epoch.
    static constexpr std::uint64_t canceled_bit = 1;
    static constexpr std::uint64_t explicit_parent = 2;
    static constexpr int epoch_shift = 2;

    // Returns: the region's parent, or nullptr (see above).
    const cancel_region* parent(std::uint64_t s) const noexcept
    {
      const cancel_region* const r = made_.region;
      return (s & explicit_parent) || (r && r->made_.frame == made_.frame) ? r : nullptr;
    }

    // The walks, off the path of the checks of a process that never canceled anything.
    BOOST_NOINLINE bool canceled_slow() const noexcept
    {
      // acquire: pairs with cancel()'s fetch_add, so that every flag counted in e is seen.
      return canceled_at(cancel_epoch.load(std::memory_order_acquire));
    }
    BOOST_NOINLINE bool outer_canceled_slow() const noexcept
    {
      // acquire: as canceled_slow(); the state's own flag is not asked for (relaxed).
      return outer_canceled_at(cancel_epoch.load(std::memory_order_acquire), state_.load(std::memory_order_relaxed));
    }
    bool canceled_at(std::uint64_t e) const noexcept
    {
      // acquire: pairs with cancel()'s fetch_or.
      const std::uint64_t s = state_.load(std::memory_order_acquire);
      return (s & canceled_bit) || outer_canceled_at(e, s);
    }
    bool outer_canceled_at(std::uint64_t e, std::uint64_t s) const noexcept
    {
      if ((s >> epoch_shift) == e)
        return false; // the ancestors were clear at e
      const cancel_region* const p = parent(s);
      if (p && p->canceled_at(e))
        return true; // canceled stays canceled: nothing to remember
      // relaxed: a value written by any checking thread is a true statement (see above), and a
      // stale one only costs a walk. The exchange keeps the low bits as they were; it fails if
      // the flag or the clean epoch changed meanwhile, and the next check walks again.
      const std::uint64_t low = canceled_bit | explicit_parent;
      state_.compare_exchange_strong(s, (e << epoch_shift) | (s & low), std::memory_order_relaxed);
      return false;
    }

    // The bits above: canceled_bit, set through cancel() only; the clean epoch, the epoch at
    // which the ancestors were last found clear: 0 at first, which is true (at epoch 0 no flag
    // was ever set).
    mutable std::atomic<std::uint64_t> state_{0};
  };

  // The region of a task block or of an algorithm's call: nested in the calling code's region,
  // and current on the calling stack from its construction to its destruction (one store each:
  // made_.region is what the destructor restores). A member of the block or scope, first, so
  // that the store is done where the address is at hand.
  class nested_region : public cancel_region
  {
  public:
    nested_region() noexcept : cancel_region(nested_t{}) { current_context.region = this; }
    ~nested_region() { current_context.region = made_.region; }

    // Returns: the innermost task frame of the stack that made the region, when it did.
    const task_frame* made_in() const noexcept { return made_.frame; }
  };

  // Makes region r current on the calling stack, in the running frame, for the scope's lifetime,
  // wherever r was made: through a proxy region on this stack whose parent is r (see above).
  class region_proxy
  {
  public:
    explicit region_proxy(const cancel_region& r) noexcept
        : proxy_(&r, current_context.frame), prev_(current_context.region)
    {
      current_context.region = &proxy_;
    }
    ~region_proxy() { current_context.region = prev_; }
    region_proxy(const region_proxy&) = delete;
    region_proxy& operator=(const region_proxy&) = delete;

  private:
    const cancel_region proxy_;
    const cancel_region* const prev_;
  };

  // Throws: task_canceled_exception (through boost::throw_exception). Out of line: the checks
  // of the blocks and algorithms inline only a call.
  [[noreturn]] BOOST_NOINLINE inline void throw_canceled()
  {
    boost::throw_exception(executors::task_canceled_exception());
  }

  // The callable of a fork with a cancellation_source (futures/cancelable_call.hpp): a forked task whose
  // callable is one checks it before the run (forked_task.hpp, run_or_discard), so that a
  // canceled one stores canceled_task_exception() without a throw. Measured with callgrind, one
  // pool thread, 4096 forks of a canceled source joined at once: a throw and catch of
  // task_canceled_exception into each future cost 16,300 instructions per fork more (the
  // unwinder's search for frames, the capture of the exception), where a whole plain fork and
  // join cost 1,300; without the throw a canceled fork costs 113 more than a plain one.
  template <class Fn>
  class cancelable_call;

  template <class Fn>
  struct is_cancelable_call : std::false_type
  {
  };
  template <class Fn>
  struct is_cancelable_call<cancelable_call<Fn> > : std::true_type
  {
  };

  // The exception a canceled fork's future holds. Made once, at the first fork with a source
  // (futures/cancelable_call.hpp), where an allocation may still fail by throwing, as
  // unrun_task_exception() (forked_task.hpp) is.
  inline const boost::exception_ptr& canceled_task_exception()
  {
    static const boost::exception_ptr e = boost::copy_exception(executors::task_canceled_exception());
    return e;
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
