// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The exceptions of one fork/join scope (a parallel_invoke, a task block, a parallel
// algorithm's call), and how a callable of such a scope is run into them.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_EXCEPTION_COLLECTOR_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_EXCEPTION_COLLECTOR_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/exception.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/cancel_region.hpp>
#include <boost/thread/exceptions.hpp>
#include <boost/thread/experimental/exception_list.hpp>
#include <boost/throw_exception.hpp>

#include <functional>
#include <memory>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

  // The exceptions of one fork/join scope; allocates only when there is one. An interruption
  // (boost::thread_interrupted) is not listed: it is rethrown as itself, so that a pool's
  // interrupt() still stops a worker inside a fork/join scope instead of reaching it as an
  // exception_list (which would end the worker's closure with std::terminate).
  //
  // Recording never fails, so a join never needs memory to make progress: when the list cannot
  // grow, the collector keeps, in a member that needs no memory, a std::bad_alloc in place of
  // what it could not record (a boost::exception_ptr; boost::current_exception() falls back to
  // a preallocated one). rethrow() then reports that std::bad_alloc as one more element of the
  // exception_list, or, when even the list cannot be made, throws it alone: the fact that
  // something failed is never lost.
  //
  // Fast path, "An exception collector built on a throw" (doc/design.md, "Fast paths and their
  // assumptions"): every parallel_invoke, task block and algorithm call makes one, and nearly
  // all of them record nothing. So the members that hold what was recorded (the list and the
  // lost std::bad_alloc) are built by the first record only, and one byte says whether they
  // are built and whether an interruption was recorded: a scope that records nothing writes
  // that byte once and reads it twice (rethrow() and the destructor), where the three members
  // cost four stores and five tests. Assumption: whatever records sets that byte (every writer
  // goes through slots()), so a collector whose byte is clear recorded nothing.
  class exception_collector
  {
  public:
    exception_collector() noexcept {}
    exception_collector(const exception_collector&) = delete;
    exception_collector& operator=(const exception_collector&) = delete;
    ~exception_collector()
    {
      if (BOOST_UNLIKELY(state_ & built))
        slots_.~record_slots();
    }

    void interrupted() noexcept { state_ |= interruption; }

    // Effects: records e, if not null; out of memory, records a std::bad_alloc instead.
    // Inlined: every child of a fork/join scope passes its exception here, nearly always null.
    BOOST_FORCEINLINE void add(const boost::exception_ptr& e) noexcept
    {
      if (BOOST_UNLIKELY(static_cast<bool>(e)))
        record(e);
    }

    // Effects: moves every exception of `other` into this collector, and the interruption;
    // `other` is left as made (nothing recorded).
    void absorb(exception_collector& other) noexcept
    {
      state_ |= other.state_ & interruption;
      if (other.state_ & built)
      {
        record_slots& to = slots();
        record_slots& from = other.slots_;
        if (from.lost && !to.lost)
          to.lost = from.lost;
        if (from.list && !to.list)
          to.list = std::move(from.list);
        else if (from.list)
          for (const boost::exception_ptr& e : *from.list)
            add(e);
        from.~record_slots();
      }
      other.state_ = 0;
    }

    // Throws: as throw_recorded(), if anything was recorded.
    void rethrow()
    {
      if (BOOST_UNLIKELY(state_ != 0))
        throw_recorded();
    }

    // Requires: something was recorded.
    // Throws: boost::thread_interrupted if an interruption was recorded; else the
    // exception_list of every exception recorded, with a std::bad_alloc for those that could
    // not be; std::bad_alloc alone if memory runs out while making that list.
    [[noreturn]] void throw_recorded()
    {
      BOOST_THREAD_FJ_ASSERT(state_ != 0);
      if (state_ & interruption)
        throw thread_interrupted(); // not a std::exception: boost::throw_exception refuses it
      record_slots& s = slots_; // built: an exception was recorded
      if (s.lost)
      {
        try
        {
          if (!s.list)
            s.list.reset(new experimental::parallel::exception_list);
          s.list->add(s.lost);
        }
        catch (...)
        {
          boost::rethrow_exception(s.lost);
        }
        s.lost = boost::exception_ptr();
      }
      boost::throw_exception(*s.list); // copies the list: may throw std::bad_alloc instead
    }

  private:
    // What was recorded but interruptions: built by the first record (slots()).
    struct record_slots
    {
      std::unique_ptr<experimental::parallel::exception_list> list;
      boost::exception_ptr lost; // a std::bad_alloc, if an exception could not be recorded
    };
    static constexpr unsigned char built = 1, interruption = 2;

    // Returns: slots_, built first if they are not. Building them allocates nothing.
    record_slots& slots() noexcept
    {
      if (!(state_ & built))
      {
        ::new (static_cast<void*>(&slots_)) record_slots();
        state_ |= built;
      }
      return slots_;
    }

    // Effects: add(e) for a non-null e.
    BOOST_NOINLINE void record(const boost::exception_ptr& e) noexcept
    {
      record_slots& s = slots();
      try
      {
        if (!s.list)
          s.list.reset(new experimental::parallel::exception_list);
        s.list->add(e);
      }
      catch (...)
      {
        if (!s.lost)
          s.lost = boost::current_exception(); // the std::bad_alloc; never throws
      }
    }

    unsigned char state_ = 0; // built, interruption
    union
    {
      record_slots slots_; // built by slots()
    };
  };

  // Effects: calls f(), recording its exception, if any, in errors.
  template <class F>
  void invoke_collecting(F& f, exception_collector& errors) noexcept
  {
    run_capturing(
        [&f] { std::invoke(f); }, [&errors]() noexcept { errors.interrupted(); },
        [&errors](const boost::exception_ptr& e) noexcept { errors.add(e); });
  }

  // Requires: called inside a catch block.
  // Returns: whether the exception being handled is a task_canceled_exception and `region` is
  // canceled. Rethrows it to tell, only if the region is canceled.
  inline bool is_consequence_of(const cancel_region& region) noexcept
  {
    if (!region.canceled())
      return false;
    try
    {
      throw;
    }
    catch (const executors::task_canceled_exception&)
    {
      return true;
    }
    catch (...)
    {
      return false;
    }
  }

  // Effects: as run_capturing(run, interrupted, failed) (exception.hpp), but for a
  // task_canceled_exception that run() throws while `region` is canceled: that one is a
  // consequence of the cancellation (a block or algorithm in run() that the cancellation
  // stopped), whose cause is reported already or is a cancel(); it is reported to neither
  // callback. One thrown while the region is not canceled is a failure like any other.
  // Returns: whether run() returned normally. Throws: as run_capturing.
  template <class Run, class Interrupted, class Failed>
  BOOST_FORCEINLINE bool run_capturing_causes(const cancel_region& region, Run&& run, Interrupted&& interrupted,
                                              Failed&& failed)
      noexcept(noexcept(interrupted()) && noexcept(failed(boost::exception_ptr())))
  {
    // Told apart in the handler of any other exception, where it costs no code on the path
    // without an exception (a catch clause of its own changed the caller's code).
    return run_capturing(run, interrupted, failed, [&region]() noexcept { return is_consequence_of(region); });
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
