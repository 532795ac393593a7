// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The threads of a fork_join_thread_pool (fork_join_thread_pool.hpp forwards to this): their
// start, with the stack size that works; the worker thread's body, which calls the pool's
// at_thread_entry and at_thread_exit around the scheduler's worker loop; and the join that
// runs what interrupted threads left on fresh threads, so that nothing accepted is dropped.
// Also the pool's scheduler, made from the constructor's arguments (make_core).

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_POOL_POOL_THREADS_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_POOL_POOL_THREADS_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/primitives/stack_bounds.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_core.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_fwd.hpp>
#include <boost/thread/exceptions.hpp>
#include <boost/thread/lock_guard.hpp>
#include <boost/thread/mutex.hpp>
#include <boost/thread/thread.hpp>
#include <boost/throw_exception.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

  // What a pool thread calls with its pool on its way in (at_thread_entry) and out
  // (at_thread_exit); each thread calls its own copy.
  typedef std::function<void(executors::fork_join_thread_pool&)> entry_function;

  // The at_thread_entry of a pool constructed without one.
  inline void do_nothing_at_thread_entry(executors::fork_join_thread_pool&) {}

  // Whether the pool's constructor from an AtThreadEntry takes at_thread_entry: not a function
  // pointer (another constructor takes those), nor the pool's Options.
  template <class AtThreadEntry, class Options>
  struct is_entry_functor
      : std::bool_constant<!std::is_convertible<AtThreadEntry, void (*)(executors::fork_join_thread_pool&)>::value &&
                           !std::is_same<typename std::decay<AtThreadEntry>::type, Options>::value>
  {
  };

  // Returns: the at_thread_entry of options: at_thread_entry, if not empty; else nothing.
  inline entry_function entry_or_nothing(const entry_function& at_thread_entry)
  {
    return at_thread_entry ? at_thread_entry : entry_function(&do_nothing_at_thread_entry);
  }

  // Returns: at_thread_entry as an entry_function; fails to compile unless each thread can get
  // its own copy (basic_thread_pool hands a moved-from functor to all but its first thread).
  template <class AtThreadEntry>
  entry_function checked_entry(AtThreadEntry&& at_thread_entry)
  {
    typedef typename std::decay<AtThreadEntry>::type entry_type;
    static_assert(std::is_copy_constructible<entry_type>::value,
                  "fork_join_thread_pool: at_thread_entry must be CopyConstructible (each worker gets its own copy)");
    return entry_function(std::forward<AtThreadEntry>(at_thread_entry));
  }

  // Returns: the scheduler of a pool of thread_count threads. fiber_stack_size, stack_size: as
  // in fork_join_thread_pool::options (0: the default).
  // Throws: std::invalid_argument if thread_count == 0; std::bad_alloc.
  inline std::shared_ptr<pool_core> make_core(unsigned thread_count, std::size_t fiber_stack_size, std::size_t stack_size)
  {
    if (thread_count == 0)
      boost::throw_exception(std::invalid_argument("fork_join_thread_pool: thread_count must be > 0"));
    std::size_t fiber = fiber_stack_size ? fiber_stack_size : std::size_t(BOOST_THREAD_FJ_FIBER_STACK_SIZE);
    if (fiber == 0)
      fiber = stack_size ? stack_size : worker_stack_size(thread_count);
    if (fiber == 0)
      fiber = std::size_t(8) << 20;
    return std::make_shared<pool_core>(thread_count, fiber);
  }

  class pool_threads
  {
  public:
    // Requires: pool holds core and *this (core first), and joins the threads
    // (interrupt_and_join()) before *this is destroyed.
    // Effects: makes pool core's owner and starts thread_count workers with stacks of
    // stack_size bytes (0: the default), which call at_thread_entry and at_thread_exit (empty:
    // none) with pool.
    // Throws: thread_resource_error if a thread cannot be started; then the pool is closed and
    // every thread started has been joined.
    pool_threads(executors::fork_join_thread_pool& pool, pool_core& core, unsigned thread_count, std::size_t stack_size,
                 entry_function at_thread_entry, entry_function at_thread_exit = entry_function())
        : pool_(pool), core_(core), at_thread_entry_(std::move(at_thread_entry)), at_thread_exit_(std::move(at_thread_exit))
    {
      BOOST_THREAD_FJ_ASSERT(thread_count == core.thread_count()); // a slot per thread
      stack_size_ = stack_size ? stack_size : worker_stack_size(thread_count);
      core_.set_owner(&pool_);
      for (unsigned i = 0; i < thread_count; ++i)
        if (!start_thread(i))
        {
          core_.close();
          join();
          boost::throw_exception(thread_resource_error());
        }
    }
    pool_threads(const pool_threads&) = delete;
    pool_threads& operator=(const pool_threads&) = delete;

    // Requires: the threads have been joined (fork_join_thread_pool's destructor).
    ~pool_threads()
    {
      core_.quiesce(); // an outside submitter may still be in submit() after its task ran
      core_.set_owner(nullptr);
    }

    // Effects, Synchronization, Throws: fork_join_thread_pool::join().
    void join()
    {
      lock_guard<mutex> serial(join_mtx_);
      join_threads();
      while (!core_.drained())
      {
        // Interrupted threads left accepted closures: fresh threads on the same slots run
        // them (tasks nest on big worker stacks, not on the caller's).
        // relaxed: join_threads() below joined every thread that counted, which orders it.
        const std::uint64_t entered = entered_.load(std::memory_order_relaxed);
        const unsigned n = core_.thread_count();
        for (unsigned i = 0; i < n; ++i)
          if (!start_thread(i))
            boost::throw_exception(thread_resource_error());
        join_threads();
        if (entered_.load(std::memory_order_relaxed) == entered) // relaxed: as above
          skip_entry_.store(true, std::memory_order_relaxed);    // relaxed: read by threads started after
      }
    }

    // Effects: closes the scheduler and requests interruption of every thread started so far.
    void interrupt()
    {
      core_.close();
      lock_guard<mutex> lk(threads_mtx_);
      for (thread& t : threads_)
        t.interrupt();
    }

  private:
    // Effects: starts a pool thread on slot `index`. Deep fork/join chains nest on its stack
    // (detail/fork_join/primitives/stack_bounds.hpp), so it asks for stack_size_; if the system refuses
    // (an address-space limit, say), it halves the size down to 8 MiB, then uses the system's
    // default, as basic_thread_pool does, and later threads start from the size that worked.
    // With a smaller stack chains fit less deep; helping still stops short of its end
    // (help.hpp). Returns: whether it started.
    bool start_thread(unsigned index) noexcept
    {
      try
      {
        lock_guard<mutex> lk(threads_mtx_);
        for (;;)
        {
          try
          {
            if (stack_size_ == 0)
              threads_.emplace_back([this, index] { worker_main(index); });
            else
            {
              thread::attributes attrs;
              attrs.set_stack_size(stack_size_);
              const thread::attributes& fixed = attrs; // const: selects thread(attributes const&, F&&)
              threads_.emplace_back(fixed, [this, index] { worker_main(index); });
            }
            return true;
          }
          catch (thread_resource_error&)
          {
            if (stack_size_ == 0)
              return false;
            stack_size_ = stack_size_ / 2 < (std::size_t(8) << 20) ? 0 : stack_size_ / 2;
          }
        }
      }
      catch (...)
      {
        return false;
      }
    }

    // Joins every thread started so far, also those started meanwhile.
    void join_threads()
    {
      for (std::size_t i = 0;; ++i)
      {
        thread* t = nullptr;
        {
          lock_guard<mutex> lk(threads_mtx_);
          if (i == threads_.size())
            return;
          t = &threads_[i]; // std::deque: stays valid while threads are added
        }
        if (t->joinable())
          t->join();
      }
    }

    void worker_main(unsigned index)
    {
      bool called_entry = false; // at_thread_exit pairs with at_thread_entry, returned or thrown
      try
      {
        core_.worker_loop(
            index,
            [&] {
              // relaxed: set by join() before it starts the threads that read it (thread start
              // synchronizes).
              if (!skip_entry_.load(std::memory_order_relaxed))
              {
                called_entry = true;
                entry_function entry = at_thread_entry_; // each thread its own copy
                entry(pool_);
              }
              // relaxed: read by join() after joining this thread.
              entered_.fetch_add(1, std::memory_order_relaxed);
            },
            [&] {
              if (called_entry && at_thread_exit_)
              {
                entry_function exit = at_thread_exit_; // each thread its own copy
                exit(pool_);
              }
            });
      }
      catch (thread_interrupted&)
      {
        // As basic_thread_pool: an interrupted worker leaves; join() runs what it left. From
        // at_thread_exit, the thread was leaving anyway.
      }
    }

    executors::fork_join_thread_pool& pool_;
    pool_core& core_;
    const entry_function at_thread_entry_;
    const entry_function at_thread_exit_; // empty: none
    mutex threads_mtx_;             // guards threads_
    mutex join_mtx_;                // one join() at a time
    std::deque<thread> threads_;    // workers, and threads join() started
    std::size_t stack_size_ = 0;    // of the next thread (0: the system's default), under threads_mtx_
    std::atomic<std::uint64_t> entered_{0}; // threads that got past at_thread_entry
    std::atomic<bool> skip_entry_{false};   // join(): at_thread_entry refused a whole round
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
