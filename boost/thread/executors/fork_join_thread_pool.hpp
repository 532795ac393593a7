// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork_join_thread_pool: a drop-in replacement for basic_thread_pool whose waits help.
//
// Outline
//   class fork_join_thread_pool {
//     fork_join_thread_pool(unsigned thread_count = thread::hardware_concurrency() + 1);
//     fork_join_thread_pool(unsigned thread_count, void (*at_thread_entry)(fork_join_thread_pool&));
//     template <class AtThreadEntry> fork_join_thread_pool(unsigned thread_count, AtThreadEntry&&);
//     struct options { std::size_t stack_size; std::size_t fiber_stack_size;
//                      std::function<void(fork_join_thread_pool&)> at_thread_entry;
//                      std::function<void(fork_join_thread_pool&)> at_thread_exit; };
//     fork_join_thread_pool(unsigned thread_count, const options&);
//     ~fork_join_thread_pool();                      // interrupt_and_join(): runs what is queued
//     void submit(Closure&&);                         // == submit_back
//     void submit_front(Closure&&); void submit_back(Closure&&);
//     bool try_executing_one(); void schedule_one_or_yield();
//     bool reschedule_until(Pred const&);
//     void close(); bool closed();
//     void join(); void interrupt(); void interrupt_and_join();
//     fork_join_statistics statistics() const noexcept;
//     unsigned thread_count() const noexcept;
//     static fork_join_thread_pool* current() noexcept; // the pool the calling thread works for
//     static int current_thread_index() noexcept;       // its index there, else -1
//     template <class F> auto isolate(F&& f);         // executors::isolate(f)
//   };
//   template <class F> auto isolate(F&& f);           // f(); its waits run only what they await
//   fork_join_thread_pool& default_fork_join_pool();
//   void set_default_fork_join_pool_size(unsigned thread_count);   // before its first use
//   fork_join_thread_pool& current_fork_join_pool();  // current(), else the default pool
//
// Differences from basic_thread_pool, on purpose:
//  - Nothing accepted is ever dropped. Both destructors interrupt the closures that run (a
//    closure looping on an interruption point returns, as with basic_thread_pool), but where
//    basic_thread_pool then silently drops what is still queued, ours runs it: join() starts
//    fresh threads for what interrupted workers left.
//  - After close(), a closure running on this pool may still submit (its children are part of
//    accepted work and must be able to finish); only submissions from elsewhere throw.
// The default thread count is basic_thread_pool's, hardware_concurrency() + 1: code whose
// closures block in future::get() (which does not help) may rely on that extra thread.

#ifndef BOOST_THREAD_EXECUTORS_FORK_JOIN_THREAD_POOL_HPP
#define BOOST_THREAD_EXECUTORS_FORK_JOIN_THREAD_POOL_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#ifndef BOOST_THREAD_FJ_PUBLIC_API_ONLY
#include <boost/thread/executors/detail/fork_join/futures/fork_state.hpp>
#endif
#include <boost/thread/executors/detail/fork_join/waits/help.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_core.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_fwd.hpp>
#include <boost/thread/executors/detail/fork_join/primitives/stack_bounds.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task.hpp>
#include <boost/thread/executors/executor.hpp>
#include <boost/thread/executors/generic_executor_ref.hpp>
#include <boost/thread/executors/work.hpp>
#include <boost/thread/future.hpp>
#include <boost/thread/mutex.hpp>
#include <boost/thread/thread.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <deque>
#include <functional>
#include <utility>

#include <boost/config/abi_prefix.hpp>

namespace boost {
namespace executors {

  // Counters of a fork_join_thread_pool since its construction (statistics()).
  struct fork_join_statistics
  {
    std::uint64_t tasks_run = 0;     // closures and tasks run, queued or inline children alike
    std::uint64_t steals = 0;        // tasks taken from another worker's deque
    std::uint64_t failed_steals = 0; // looks at another worker's deque that found nothing
    std::uint64_t sleeps = 0;         // times a worker went to sleep for lack of work (or, while it
                                     // polls a parked frame, for a bounded time)
    std::uint64_t frames_parked = 0; // joins on pool threads that parked their frame to wait
    std::uint64_t polls = 0;         // checks of a parked frame's future that nothing could hook
                                     // (public-API-only mode, or no memory for a hook)
    std::uint64_t peak_pending = 0;  // sum over queues of each queue's peak length: an upper
                                     // bound on the number of tasks queued at any one time
    // Threads started besides the workers: always 0, as a join parks instead of blocking its
    // thread (the spare threads that stood in for blocked joiners before are gone).
    std::uint64_t spare_threads = 0;
    // Gauges, not counters: their values at the call.
    std::uint64_t frames_parked_now = 0;  // frames parked at this moment
    std::uint64_t frames_parked_peak = 0; // frames parked at once, at most, since construction
    std::uint64_t fiber_stacks = 0;       // fiber stacks mapped (in use or kept free)
    std::uint64_t fiber_stack_bytes = 0;  // address space reserved for them
    std::uint64_t fiber_stack_mappings = 0; // kernel mappings they take (vm.max_map_count
                                            // counts these; an upper bound)
  };


  class fork_join_thread_pool
  {
  public:
    typedef executors::work work;

    // What the constructor with options takes besides the thread count.
    struct options
    {
      // Each pool thread's stack size in bytes. 0 (the default): BOOST_THREAD_FJ_WORKER_STACK_SIZE
      // (640 MiB of address space, committed only as used), less under an address-space limit
      // (getrlimit(RLIMIT_AS)). A nested fork/join level takes about 750 bytes (g++ 12, -O2),
      // so 8 MiB holds about 10^4 levels and 640 MiB about 8 * 10^5 (doc/reference.md).
      std::size_t stack_size = 0;
      // The size in bytes of each stack a pool thread switches to when a join parks its frame
      // (detail/fork_join/fibers/parking.hpp). 0 (the default): BOOST_THREAD_FJ_FIBER_STACK_SIZE
      // (8 MiB, a thread's default stack on Linux) if not 0, else the size of the worker stacks.
      // Address space, committed only as used; each thread keeps up to
      // BOOST_THREAD_FJ_FIBER_STACK_CACHE free ones with their pages for reuse.
      std::size_t fiber_stack_size = 0;
      // Called by each pool thread with the pool before it runs any closure (but those it runs
      // while a join of at_thread_entry's own is parked, doc/index.md "Parking"); empty: nothing.
      std::function<void(fork_join_thread_pool&)> at_thread_entry;
      // Called by each pool thread that called at_thread_entry (also when that threw), with the
      // pool, once, after its last closure, however it leaves (interrupted included); empty:
      // nothing. It must not submit to this pool nor join its tasks (the thread is leaving).
      // Each call happens before join() returns; on a thread that leaves a closed, drained pool,
      // every accepted closure's completion happens before it. If it throws
      // boost::thread_interrupted, the thread leaves as it was about to; any other exception
      // calls std::terminate, as one from at_thread_entry does (it leaves the thread's function).
      std::function<void(fork_join_thread_pool&)> at_thread_exit;
    };

    fork_join_thread_pool(const fork_join_thread_pool&) = delete;
    fork_join_thread_pool& operator=(const fork_join_thread_pool&) = delete;

    // Requires: thread_count > 0.
    // Effects: creates a pool that runs closures on thread_count worker threads, each with its
    // own deque. The default is basic_thread_pool's: hardware_concurrency() + 1.
    // Throws: std::invalid_argument if thread_count == 0 (a pool without workers would accept
    // work and never run it); whatever creating a thread throws (then no thread is left running).
    // Not explicit, as basic_thread_pool's is not: `fork_join_thread_pool pool = 4;` compiles.
    fork_join_thread_pool(unsigned thread_count = thread::hardware_concurrency() + 1)
        : fork_join_thread_pool(thread_count, &do_nothing_at_thread_entry)
    {
    }

    // Effects: as above, and each worker calls at_thread_entry(*this) before it runs any closure
    // (but those it runs while a join of at_thread_entry's own is parked).
    fork_join_thread_pool(unsigned thread_count, void (*at_thread_entry)(fork_join_thread_pool&))
        : core_(make_core(thread_count, 0, 0)), at_thread_entry_(at_thread_entry)
    {
      start(thread_count);
    }

    // Requires: AtThreadEntry is CopyConstructible and callable as at_thread_entry(pool).
    // Effects: as above; each worker calls its own copy of at_thread_entry (basic_thread_pool
    // hands a moved-from functor to all but its first thread).
    template <class AtThreadEntry,
              class = typename std::enable_if<!std::is_convertible<AtThreadEntry, void (*)(fork_join_thread_pool&)>::value &&
                                              !std::is_same<typename std::decay<AtThreadEntry>::type, options>::value>::type>
    fork_join_thread_pool(unsigned thread_count, AtThreadEntry&& at_thread_entry)
        : core_(make_core(thread_count, 0, 0)), at_thread_entry_(checked_entry(std::forward<AtThreadEntry>(at_thread_entry)))
    {
      start(thread_count);
    }

    // Requires: thread_count > 0.
    // Effects: as above, with each pool thread's stack of opts.stack_size bytes (or the
    // default) and opts.at_thread_entry (if not empty) called as above; each pool thread that
    // called at_thread_entry then calls its own copy of opts.at_thread_exit (if not empty) on
    // its way out, after its last closure. If the system refuses a thread of that size, the
    // size is halved down to 8 MiB, then the system's default is used, as for the default size.
    // Throws: as above.
    fork_join_thread_pool(unsigned thread_count, const options& opts)
        : core_(make_core(thread_count, opts.fiber_stack_size, opts.stack_size))
        , at_thread_entry_(opts.at_thread_entry ? opts.at_thread_entry : entry_function(&do_nothing_at_thread_entry))
        , at_thread_exit_(opts.at_thread_exit)
    {
      start(thread_count, opts.stack_size);
    }

    // Returns: the pool whose task the calling thread is running (the innermost, when a task of
    // one pool waits for another's), else the pool the calling thread is a thread of (a
    // worker, or in at_thread_entry), else nullptr. The pool stays alive while such a
    // task or thread runs.
    // Throws: nothing.
    static fork_join_thread_pool* current() noexcept
    {
      detail::fork_join::pool_core* core = detail::fork_join::running_core;
      if (!core)
        if (const detail::fork_join::worker_context* w = detail::fork_join::current_worker)
          core = w->core;
      return core ? static_cast<fork_join_thread_pool*>(core->owner()) : nullptr;
    }

    // Returns: the index, 0 to thread_count() - 1, of the calling thread in the pool it is a
    // thread of (a worker, a fresh thread join() started on a worker's slot, also in
    // at_thread_entry and at_thread_exit), whatever pool's task it runs; else -1. A frame that
    // parked in a join resumes on its own thread, so the index is the same after the join.
    // Synchronization: none; it reads the calling thread's own thread_local.
    // Throws: nothing. Progress: one thread_local load.
    static int current_thread_index() noexcept
    {
      const detail::fork_join::worker_context* w = detail::fork_join::current_worker;
      return w ? static_cast<int>(w->index) : -1;
    }

    // Returns: the number of the pool's worker threads, the thread_count it was constructed
    // with. At most that many threads run its tasks as pool threads at once (a fresh thread
    // join() starts takes an interrupted one's slot and index).
    // Synchronization: none; the count never changes. Throws: nothing.
    unsigned thread_count() const noexcept { return core_->thread_count(); }

    // Effects, Returns, Throws: executors::isolate(std::forward<F>(f)) (below). A member for
    // the spelling of code that names its pool, as oneTBB's task_arena does; the isolation
    // itself belongs to the calling frame, on whatever pool its waits help.
    template <class F>
    auto isolate(F&& f) -> decltype(std::forward<F>(f)());

    // Effects: interrupt_and_join(), as basic_thread_pool's destructor: closes the pool,
    // interrupts its threads (a closure running on one ends at its next interruption point,
    // with boost::thread_interrupted), then runs every closure still queued on fresh threads
    // and joins them all.
    // Synchronization: the completion of every accepted closure happens before the destructor
    // returns.
    // Throws: nothing (a closure that throws calls std::terminate, see submit; if no thread can
    // be started to run what is queued, std::terminate too, rather than drop it).
    ~fork_join_thread_pool()
    {
      interrupt_and_join();
      core_->quiesce(); // an outside submitter may still be in submit() after its task ran
      core_->set_owner(nullptr);
    }

    // Effects: further submissions from outside the pool throw sync_queue_is_closed; workers
    // leave once every accepted closure has run.
    void close() { core_->close(); }

    // Returns: whether the pool is closed for submissions.
    bool closed() { return core_->closed(); }

    // Requires: Closure is callable as closure() and MoveConstructible (move-only is fine).
    // Effects: as submit_back(closure).
    // Throws: sync_queue_is_closed if closed and not called from a closure running on this
    // pool; whatever storing the closure throws.
    // If the invoked closure throws, std::terminate is called, as with basic_thread_pool (use
    // fork() or boost::async to get the exception delivered to a future instead).
    template <class Closure>
    void submit(Closure&& closure)
    {
      submit_back(std::forward<Closure>(closure));
    }

    // Effects: schedules closure to run next. From a worker: at the front of its own deque,
    // which its owner runs before everything else it has (LIFO) and thieves take last. From any
    // other thread: at the front of the pool's shared queue.
    // Synchronization: the call happens before the closure runs.
    // Throws: as submit. Progress: one allocation; from a worker a lock-free push, from other
    // threads one short lock; wakes a sleeping worker if there is one.
    template <class Closure>
    void submit_front(Closure&& closure)
    {
      core_->submit(detail::fork_join::make_task(std::forward<Closure>(closure)),
                    detail::fork_join::queue_end::front);
    }

    // Effects: schedules closure after everything already queued: at the back of the pool's
    // shared queue, from any thread. A worker therefore runs it after its own deque (its own
    // children) is empty, and any idle worker may take it first.
    // Synchronization and Throws: as submit_front.
    template <class Closure>
    void submit_back(Closure&& closure)
    {
      core_->submit(detail::fork_join::make_task(std::forward<Closure>(closure)),
                    detail::fork_join::queue_end::back);
    }

    // Effects: runs one queued closure on the calling thread, if any: on a worker its own newest
    // closure first, then the shared queue, then one stolen from another worker; on any other
    // thread the shared queue first, then a stolen one.
    // Inside an isolated region (executors::isolate) the closure runs isolated: its waits do
    // not park either.
    // Returns: whether a closure ran.
    // Throws: boost::thread_interrupted if the closure throws it; any other exception from the
    // closure calls std::terminate.
    bool try_executing_one() { return core_->try_run_one(nullptr, detail::fork_join::current_isolated()); }

    // Effects: try_executing_one(), or this_thread::yield() if nothing ran.
    void schedule_one_or_yield()
    {
      if (!try_executing_one())
        this_thread::yield();
    }

    // Effects: runs closures as try_executing_one() does until pred() is true or nothing is
    // left to run. (To wait for futures without ever blocking a worker, use join().)
    // Returns: whether pred() became true.
    template <class Pred>
    bool reschedule_until(const Pred& pred)
    {
      do
      {
        if (!try_executing_one())
          return false;
      } while (!pred());
      return true;
    }

    // Requires: the pool is closed or interrupted, or will be by another thread; not called
    // from one of this pool's threads.
    // Effects: joins every worker thread; then, if threads left early because they
    // were interrupted, starts a fresh thread for each (calling at_thread_entry) to run what
    // they left, and joins those, until every accepted closure has run. If in one such round
    // every fresh thread left from at_thread_entry (it threw boost::thread_interrupted), the
    // threads of later rounds skip at_thread_entry: a pool whose
    // threads all refuse to start still runs what it accepted, rather than restart them
    // forever or drop the work. Several threads may call join() at once; each returns once
    // all of this is done.
    // Synchronization: the completion of every accepted closure happens before join returns.
    // Throws: boost::thread_resource_error if a thread to run what interrupted threads left
    // cannot be started (what is left then stays queued; a later join() may finish it).
    void join()
    {
      lock_guard<mutex> serial(join_mtx_);
      join_threads();
      while (!core_->drained())
      {
        // Interrupted threads left accepted closures: fresh threads on the same slots run
        // them (tasks nest on big worker stacks, not on the caller's).
        // relaxed: join_threads() below joined every thread that counted, which orders it.
        const std::uint64_t entered = entered_.load(std::memory_order_relaxed);
        const unsigned n = core_->thread_count();
        for (unsigned i = 0; i < n; ++i)
          if (!start_thread(i))
            boost::throw_exception(thread_resource_error());
        join_threads();
        if (entered_.load(std::memory_order_relaxed) == entered) // relaxed: as above
          skip_entry_.store(true, std::memory_order_relaxed);    // relaxed: read by threads started after
      }
    }

    // Returns: the pool's counters since construction (a snapshot, see fork_join_statistics).
    // Synchronization: none; the counters are read relaxed while they may be moving.
    // Throws: nothing. Progress: wait-free; the counters cost their writers no shared write.
    fork_join_statistics statistics() const noexcept
    {
      const detail::fork_join::counters::snapshot s = core_->statistics();
      fork_join_statistics r;
      r.tasks_run = s.tasks_run;
      r.steals = s.steals;
      r.failed_steals = s.failed_steals;
      r.sleeps = s.sleeps;
      r.frames_parked = s.frames_parked;
      r.peak_pending = s.peak_pending;
      r.polls = s.polls;
      const detail::fork_join::fiber_gauges g = core_->fiber_statistics();
      r.frames_parked_now = g.parked_now;
      r.frames_parked_peak = g.parked_peak;
      r.fiber_stacks = g.stacks;
      r.fiber_stack_bytes = g.bytes;
      r.fiber_stack_mappings = g.mappings;
      return r;
    }

    // Effects: closes the pool and requests interruption of every worker. A worker leaves at
    // its next interruption point (inside a closure, or while idle); accepted closures it leaves
    // behind are run by join().
    void interrupt()
    {
      close();
      lock_guard<mutex> lk(threads_mtx_);
      for (thread& t : threads_)
        t.interrupt();
    }

    // Effects: interrupt(), then join().
    void interrupt_and_join()
    {
      interrupt();
      join();
    }

  private:
    friend const std::shared_ptr<detail::fork_join::pool_core>&
    detail::fork_join::core_of(const fork_join_thread_pool& pool) noexcept;

    typedef std::function<void(fork_join_thread_pool&)> entry_function;

    static void do_nothing_at_thread_entry(fork_join_thread_pool&) {}

    template <class AtThreadEntry>
    static entry_function checked_entry(AtThreadEntry&& at_thread_entry)
    {
      typedef typename std::decay<AtThreadEntry>::type entry_type;
      static_assert(std::is_copy_constructible<entry_type>::value,
                    "fork_join_thread_pool: at_thread_entry must be CopyConstructible (each worker gets its own copy)");
      return entry_function(std::forward<AtThreadEntry>(at_thread_entry));
    }

    // fiber_stack_size, stack_size: as in options (0: the default).
    static std::shared_ptr<detail::fork_join::pool_core> make_core(unsigned thread_count, std::size_t fiber_stack_size,
                                                                   std::size_t stack_size)
    {
      if (thread_count == 0)
        boost::throw_exception(std::invalid_argument("fork_join_thread_pool: thread_count must be > 0"));
      std::size_t fiber = fiber_stack_size ? fiber_stack_size : std::size_t(BOOST_THREAD_FJ_FIBER_STACK_SIZE);
      if (fiber == 0)
        fiber = stack_size ? stack_size : detail::fork_join::worker_stack_size(thread_count);
      if (fiber == 0)
        fiber = std::size_t(8) << 20;
      return std::make_shared<detail::fork_join::pool_core>(thread_count, fiber);
    }

    // Effects: starts thread_count workers with stacks of stack_size bytes (0: the default).
    void start(unsigned thread_count, std::size_t stack_size = 0)
    {
      stack_size_ = stack_size ? stack_size : detail::fork_join::worker_stack_size(thread_count);
      core_->set_owner(this);
      for (unsigned i = 0; i < thread_count; ++i)
        if (!start_thread(i))
        {
          close();
          join();
          boost::throw_exception(thread_resource_error());
        }
    }

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
        core_->worker_loop(
            index,
            [&] {
              // relaxed: set by join() before it starts the threads that read it (thread start
              // synchronizes).
              if (!skip_entry_.load(std::memory_order_relaxed))
              {
                called_entry = true;
                entry_function entry = at_thread_entry_; // each thread its own copy
                entry(*this);
              }
              // relaxed: read by join() after joining this thread.
              entered_.fetch_add(1, std::memory_order_relaxed);
            },
            [&] {
              if (called_entry && at_thread_exit_)
              {
                entry_function exit = at_thread_exit_; // each thread its own copy
                exit(*this);
              }
            });
      }
      catch (thread_interrupted&)
      {
        // As basic_thread_pool: an interrupted worker leaves; join() runs what it left. From
        // at_thread_exit, the thread was leaving anyway.
      }
    }

    std::shared_ptr<detail::fork_join::pool_core> core_;
    const entry_function at_thread_entry_;
    const entry_function at_thread_exit_; // empty: none
    mutex threads_mtx_;             // guards threads_
    mutex join_mtx_;                // one join() at a time
    std::deque<thread> threads_;    // workers, and threads join() started
    std::size_t stack_size_ = 0;    // of the next thread (0: the system's default), under threads_mtx_
    std::atomic<std::uint64_t> entered_{0}; // threads that got past at_thread_entry
    std::atomic<bool> skip_entry_{false};   // join(): at_thread_entry refused a whole round
  };

} // namespace executors

namespace detail {
namespace fork_join {
  inline const std::shared_ptr<pool_core>& core_of(const executors::fork_join_thread_pool& pool) noexcept
  {
    return pool.core_;
  }
} // namespace fork_join
} // namespace detail

namespace detail {
namespace fork_join {
  // The thread count the default pool gets when it is made, and whether it was made.
  struct default_pool_settings
  {
    mutex mtx;
    unsigned thread_count = 0; // 0: hardware_concurrency() (1 if unknown)
    bool made = false;

    static default_pool_settings& get()
    {
      static default_pool_settings s;
      return s;
    }
  };
} // namespace fork_join
} // namespace detail

namespace executors {

  // Returns: the process-wide pool that the forms without an executor use outside every pool
  // (current_fork_join_pool()): set_default_fork_join_pool_size()'s count, else
  // hardware_concurrency() workers (1 if unknown; not the pool's default of one more, which
  // only helps code that blocks in future::get(), and this pool only runs fork/join work);
  // made on first use, interrupted, drained and joined at exit (static destruction).
  // Throws: what the pool's constructor throws (then a later call tries again).
  inline fork_join_thread_pool& default_fork_join_pool()
  {
    static fork_join_thread_pool pool([] {
      detail::fork_join::default_pool_settings& s = detail::fork_join::default_pool_settings::get();
      lock_guard<mutex> lk(s.mtx);
      s.made = true;
      if (s.thread_count)
        return s.thread_count;
      return thread::hardware_concurrency() ? thread::hardware_concurrency() : 1u;
    }());
    return pool;
  }

  // Requires: thread_count > 0.
  // Effects: the default pool (default_fork_join_pool()) will have thread_count workers.
  // Synchronization: a call that returns happens before the default pool is made.
  // Throws: std::invalid_argument if thread_count == 0; std::logic_error if the default pool
  // was already made, or its first use has begun (a pool cannot change its size).
  inline void set_default_fork_join_pool_size(unsigned thread_count)
  {
    if (thread_count == 0)
      boost::throw_exception(std::invalid_argument("set_default_fork_join_pool_size: thread_count must be > 0"));
    detail::fork_join::default_pool_settings& s = detail::fork_join::default_pool_settings::get();
    lock_guard<mutex> lk(s.mtx);
    if (s.made)
      boost::throw_exception(std::logic_error("set_default_fork_join_pool_size: the default pool was already made"));
    s.thread_count = thread_count;
  }

  // Returns: *fork_join_thread_pool::current() if the calling thread runs a task of a pool or
  // is one of its threads; default_fork_join_pool() otherwise. This is the pool that fork(f,
  // args...), parallel_invoke(f1, f2, ...) and define_task_block(f) use, as oneTBB's
  // task_group and OpenMP's tasks find theirs from the calling thread.
  // Throws: what default_fork_join_pool() throws.
  inline fork_join_thread_pool& current_fork_join_pool()
  {
    if (fork_join_thread_pool* p = fork_join_thread_pool::current())
      return *p;
    return default_fork_join_pool();
  }

  // Requires: f() is a valid call.
  // Effects: calls f() in an isolated region: while a join made inside it, on whatever thread
  //   (f's own, or a task made inside f that another thread runs), waits for its tasks, that
  //   thread runs only tasks the join awaits (the tasks joined, and what their thieves made
  //   for them: the rule every join follows), and when there are none it blocks instead of
  //   parking its frame: it runs no other task and resumes no other parked frame meanwhile.
  //   So a lock, a function-local static's initialisation, a std::call_once or a thread_local
  //   value that the frame holds across the join is never met, on its thread, by a task
  //   that does not belong to the join. Tasks made inside f (fork, submit, boost::async,
  //   parallel_invoke, task blocks, the algorithms) are isolated too, for as long as they run.
  //   Regions nest; isolating an isolated frame changes nothing.
  // Returns: f()'s result.
  // Synchronization: none beyond f's own.
  // Throws: what f() throws.
  // Progress: fully strict fork/join inside the region always finishes: joins of tasks that
  //   the joining frame made there (a fork joined by the frame that forked it,
  //   parallel_invoke, task blocks, the algorithms; doc/index.md, "Isolation" has the proof).
  //   Any other wait inside it (a promise, a future made outside the region or by another
  //   frame, a then() continuation) holds its thread until it is ready, as on a thread that is
  //   not a pool thread: what it waits for must be run by another thread (never on a pool of
  //   one). try_executing_one() and reschedule_until() still run any closure.
  template <class F>
  auto isolate(F&& f) -> decltype(std::forward<F>(f)())
  {
    detail::fork_join::note_isolation_used();
    const detail::fork_join::frame_scope isolated(detail::fork_join::current_root() | detail::fork_join::isolated_bit);
    return std::forward<F>(f)();
  }

  template <class F>
  auto fork_join_thread_pool::isolate(F&& f) -> decltype(std::forward<F>(f)())
  {
    return executors::isolate(std::forward<F>(f));
  }

  // Boost.Thread records `new executor_ref<Ex>(ex)` in the shared state of boost::async(ex, f)
  // and future::then(ex, f), and generic_executor_ref wraps executors the same way. For our
  // pool the reference shares ownership of the scheduler instead of pointing at the pool object,
  // so a future that outlives its pool can still be joined safely (join() can prove the
  // executor is ours and alive), and a late submission throws sync_queue_is_closed instead of
  // touching a destroyed object.
  template <>
  class executor_ref<fork_join_thread_pool> : public executor
  {
  public:
    typedef executors::work work;

    explicit executor_ref(fork_join_thread_pool& ex) : core_(detail::fork_join::core_of(ex)) {}
    executor_ref(const executor_ref&) = delete;
    executor_ref& operator=(const executor_ref&) = delete;

    void close() override { core_->close(); }
    bool closed() override { return core_->closed(); }
    void submit(BOOST_THREAD_RV_REF(work) closure) override
    {
      core_->submit(detail::fork_join::make_task(boost::move(closure)), detail::fork_join::queue_end::back);
    }
    bool try_executing_one() override { return core_->try_run_one(nullptr, detail::fork_join::current_isolated()); }

    // The scheduler this reference keeps alive (detail: used by join()).
    const std::shared_ptr<detail::fork_join::pool_core>& core() const noexcept { return core_; }

  private:
    std::shared_ptr<detail::fork_join::pool_core> core_;
  };

} // namespace executors

#ifndef BOOST_THREAD_FJ_PUBLIC_API_ONLY
// boost::async(pool, f) as a fork. Not in the public-API-only build (boost_compat.hpp): there
// Boost's own boost::async overloads run f on the pool through submit(), as on any executor,
// and a join of their futures helps the joining thread's own pool without running f itself.

namespace detail {
namespace fork_join {

  // The body of every boost::async overload below: queue f(args...) on ex as fork() does, in
  // a future that records ex as its executor (see the generic overload for the contract).
  template <class F, class... Args>
  boost::future<std::invoke_result_t<typename std::decay<F>::type, typename std::decay<Args>::type...> >
  async_as_fork(executors::fork_join_thread_pool& ex, F&& f, Args&&... args)
  {
    typedef std::invoke_result_t<typename std::decay<F>::type, typename std::decay<Args>::type...> result_type;
    typedef executors::executor_ref<executors::fork_join_thread_pool> recorded_type;
    pool_core& core = *core_of(ex);
    // The executor record first: a block once taken is finished only by submit() (its run or
    // discard), so nothing may throw between the two.
    boost::shared_ptr<executors::executor> recorded;
    if (worker_slot* own = core.own_slot())
    {
      if (!own->recorded_executor) // one per pool thread (pool_core.hpp, worker_slot)
        own->recorded_executor = boost::make_shared<recorded_type>(ex);
      recorded = own->recorded_executor;
    }
    else
      recorded = boost::make_shared<recorded_type>(ex);
    typedef fork_state<result_type, typename std::decay<F>::type, std::tuple<typename std::decay<Args>::type...> >
        state_type;
    // From the thread's recycler (fork_recycler.hpp), as a fork's block; a plain boost::future
    // cannot give its block back when it ends, so the recycler stacks it and takes it back
    // once it has ended (take_back_stacked).
    state_type* const state =
        state_type::take(typename std::decay<F>::type(std::forward<F>(f)),
                         std::tuple<typename std::decay<Args>::type...>(std::forward<Args>(args)...), true);
    state->set_executor_policy(std::move(recorded));
    state->set_scheduler(&core); // a joinable_future made of the result joins as fork()'s does
    boost::future<result_type> result;
    state_of(result) = state->future_reference(); // boost_compat.hpp, 1
    core.submit(state, queue_end::front);
    return result;
  }

  // Whether Boost.Thread's own overload for functions, async(Executor&, R (*)(A&&...), A&&...),
  // accepts f and args: the same deduction, without partial ordering (the int/long tag picks
  // the first one whenever it is viable).
  template <class R, class... A>
  std::true_type boost_async_takes_function(int, R (*)(A&&...), A&&...);
  template <class... T>
  std::false_type boost_async_takes_function(long, T&&...);
  template <class F, class... Args>
  using boost_async_takes_function_t =
      decltype(boost_async_takes_function(0, std::declval<F>(), std::declval<Args>()...));

} // namespace fork_join
} // namespace detail

// Requires: as boost::async(ex, f, args...): F and each of Args are MoveConstructible and
// invoking a decayed copy of f with decayed copies of args is well-formed.
// Effects: as Boost's boost::async(ex, f, args...), whose overload for executors this one is
// more specialized than: schedules f(args...) on ex and records ex in the future as its
// executor (launch::executor: then() without an executor continues on ex). Unlike Boost's,
// it queues the task as fork(ex, f, args...) does, at the front of the calling pool thread's
// deque (from other threads: of the shared queue), builds the shared state, task node and
// closure in one block, and stores an exception thrown by f losslessly; so a join of the
// future (join(ex, f), joinable_future's join()) may run the task itself, as for a fork.
// Returns: a future for the result.
// Synchronization: the call happens before the task runs; the task's completion happens
// before the future becomes ready.
// Throws: sync_queue_is_closed if ex is closed and the caller runs none of its tasks;
// std::bad_alloc.
// Progress: as fork(ex, f, args...), plus the executor record (one per pool thread; from
// other threads one allocation per call).
// Functions: Boost.Thread has an overload of its own for functions,
// async(Executor&, R (*)(A&&...), A&&...), which takes `int f()` and any function whose
// parameters are all rvalue references, called with rvalues of those types. Against this
// overload neither is more specialized (ours in the executor, Boost's in the callable), so such
// calls were ambiguous. This overload therefore steps aside for them, and the four below,
// Boost's shape with our executor type and so more specialized than Boost's, take them: the
// function runs on this path too. They are written per number of parameters (0 to 3) because
// GCC (12 at least) cannot order a variadic `R (*)(A&&...)` against Boost's and reports the
// call ambiguous where Clang does not. A function of that shape with more than three
// parameters is left to Boost's overload: it runs on the pool, but as on other executors
// (its join does not run it, and an exception reaches get() as Boost stores it).
template <class F, class... Args,
          typename std::enable_if<!detail::fork_join::boost_async_takes_function_t<F, Args...>::value, int>::type = 0>
future<std::invoke_result_t<typename std::decay<F>::type, typename std::decay<Args>::type...> >
async(executors::fork_join_thread_pool& ex, F&& f, Args&&... args)
{
  return detail::fork_join::async_as_fork(ex, std::forward<F>(f), std::forward<Args>(args)...);
}

// Requires, Effects, Returns, Synchronization, Throws, Progress: as the overload above, for
// the functions it leaves to these (see "Functions" there).
template <class R>
future<R> async(executors::fork_join_thread_pool& ex, R (*f)())
{
  return detail::fork_join::async_as_fork(ex, f);
}

template <class R, class A1>
future<R> async(executors::fork_join_thread_pool& ex, R (*f)(A1&&), A1&& a1)
{
  return detail::fork_join::async_as_fork(ex, f, std::forward<A1>(a1));
}

template <class R, class A1, class A2>
future<R> async(executors::fork_join_thread_pool& ex, R (*f)(A1&&, A2&&), A1&& a1, A2&& a2)
{
  return detail::fork_join::async_as_fork(ex, f, std::forward<A1>(a1), std::forward<A2>(a2));
}

template <class R, class A1, class A2, class A3>
future<R> async(executors::fork_join_thread_pool& ex, R (*f)(A1&&, A2&&, A3&&), A1&& a1, A2&& a2, A3&& a3)
{
  return detail::fork_join::async_as_fork(ex, f, std::forward<A1>(a1), std::forward<A2>(a2), std::forward<A3>(a3));
}

#endif // BOOST_THREAD_FJ_PUBLIC_API_ONLY

using executors::current_fork_join_pool;
using executors::default_fork_join_pool;
using executors::fork_join_statistics;
using executors::fork_join_thread_pool;
using executors::set_default_fork_join_pool_size;

} // namespace boost

#include <boost/config/abi_suffix.hpp>

#endif // header
