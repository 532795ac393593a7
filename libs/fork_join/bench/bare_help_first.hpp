// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The bare_invoke and bare_block peers' scheduler: a measuring instrument, not a scheduler to
// use. It is the least that a help-first fork/join which queues every child can do: one
// Chase-Lev deque per thread (D. Chase, Y. Lev, SPAA 2005, with the memory orders of N. M. Le,
// A. Pop, A. Cohen, F. Zappa Nardelli, PPoPP 2013, and the owner's stores of bottom made
// release, as the library's deque makes them), children that are a function pointer and a done
// flag in the parent's frame, pushed one after the other before the first callable runs, joined
// newest first, each popped back and called inline unless a thief took it; a parent whose child
// was stolen steals anything until the child is done. Not the library's chase_lev_deque: its
// holes, tags and growth are part of what this instrument leaves out.
// Nothing else: no tags or admission rule (a wait may nest any task on its stack), no parking,
// no sleeping (idle threads spin, yielding), no statistics, traces, exceptions, cancellation,
// deque growth (a fixed ring; a deeper deque throws) or deep-chain guard. Its time under a
// parallel_invoke kernel is the floor under any fork/join of that shape that queues each child
// (doc/benchmark/README.md, "The floor under parallel_invoke"); its blocks' (pool::block,
// below) under a task block kernel, the floor under any task block that queues each child
// (doc/benchmark/README.md, "A task block on the bare scheduler").

#ifndef BOOST_FORK_JOIN_BENCH_BARE_HELP_FIRST_HPP
#define BOOST_FORK_JOIN_BENCH_BARE_HELP_FIRST_HPP

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace bench {
namespace bare {

  struct task
  {
    void (*run)(task*);
    std::atomic<bool> done{false}; // set by a thief after the run (release; the parent acquires)
  };

  class deque
  {
  public:
    // Requires: the owner. Throws: std::length_error if the ring is full.
    void push(task* t)
    {
      const std::int64_t b = bottom_.load(std::memory_order_relaxed);
      // acquire: pairs with the thief's seq_cst compare-exchange of top_, after its read of the
      // slot that this push may now overwrite.
      if (b - top_.load(std::memory_order_acquire) >= capacity)
        throw std::length_error("bare::deque: ring full");
      slots_[b & mask].store(t, std::memory_order_relaxed);
      bottom_.store(b + 1, std::memory_order_release); // publishes the slot to steal()'s acquire
    }

    // Requires: the owner. Returns: the newest task, or nullptr.
    task* pop()
    {
      const std::int64_t b = bottom_.load(std::memory_order_relaxed) - 1;
      bottom_.store(b, std::memory_order_release);
      // seq_cst: orders the store of bottom_ before the load of top_ (the paper's fence)
      std::atomic_thread_fence(std::memory_order_seq_cst);
      std::int64_t t = top_.load(std::memory_order_relaxed);
      if (t > b)
      {
        bottom_.store(b + 1, std::memory_order_release);
        return nullptr;
      }
      task* x = slots_[b & mask].load(std::memory_order_relaxed);
      if (t == b)
      {
        // The last task: a thief may race for it.
        if (!top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst, std::memory_order_relaxed))
          x = nullptr;
        bottom_.store(b + 1, std::memory_order_release);
      }
      return x;
    }

    // Any thread. Returns: the oldest task, or nullptr (empty, or another taker won it).
    task* steal()
    {
      std::int64_t t = top_.load(std::memory_order_acquire);
      // seq_cst: orders the load of top_ before the load of bottom_ (the paper's fence)
      std::atomic_thread_fence(std::memory_order_seq_cst);
      const std::int64_t b = bottom_.load(std::memory_order_acquire); // pairs with push()'s release
      if (t >= b)
        return nullptr;
      task* x = slots_[t & mask].load(std::memory_order_relaxed);
      if (!top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst, std::memory_order_relaxed))
        return nullptr;
      return x;
    }

  private:
    static constexpr std::int64_t capacity = std::int64_t(1) << 16;
    static constexpr std::int64_t mask = capacity - 1;
    alignas(64) std::atomic<std::int64_t> top_{0};
    alignas(64) std::atomic<std::int64_t> bottom_{0};
    alignas(64) std::unique_ptr<std::atomic<task*>[]> slots_{new std::atomic<task*>[capacity]};
  };

  // threads - 1 workers that steal while the pool lives; the thread that made the pool runs the
  // root and is the other thread. One pool at a time per process (the threads' deques are
  // thread_local).
  class pool
  {
  public:
    explicit pool(unsigned threads) : deques_(threads < 1 ? 1 : threads)
    {
      current() = &deques_[0];
      for (unsigned i = 1; i < deques_.size(); ++i)
        workers_.emplace_back([this, i] {
          current() = &deques_[i];
          while (!stop_.load(std::memory_order_relaxed)) // relaxed: only ends the loop
            if (!steal_one())
              std::this_thread::yield();
        });
    }
    ~pool()
    {
      stop_.store(true, std::memory_order_relaxed);
      for (std::thread& w : workers_)
        w.join();
    }
    pool(const pool&) = delete;
    pool& operator=(const pool&) = delete;

    // Effects: as parallel_invoke(first, fs...): first() inline, each of fs... here or on a
    // thief, all done on return.
    template <class First, class... Fs>
    void invoke(First&& first, Fs&&... fs)
    {
      if constexpr (sizeof...(Fs) == 0)
        first();
      else
        fork_all(std::index_sequence_for<Fs...>(), first, fs...);
    }

    class block;

  private:
    template <class F>
    struct child : task
    {
      explicit child(F& g) : f(g) { run = &act; }
      static void act(task* t)
      {
        child* const self = static_cast<child*>(t);
        self->f();
        self->done.store(true, std::memory_order_release); // the parent may leave its frame now
      }
      F& f;
    };

    static deque*& current()
    {
      thread_local deque* d = nullptr;
      return d;
    }

    // Returns: whether a task was stolen from another thread's deque and run.
    bool steal_one()
    {
      deque* const own = current();
      const std::size_t me = static_cast<std::size_t>(own - deques_.data());
      for (std::size_t i = 1; i < deques_.size(); ++i)
        if (task* t = deques_[(me + i) % deques_.size()].steal())
        {
          t->run(t);
          return true;
        }
      return false;
    }

    // Thieves take the oldest task and the owner the newest, and a frame (or block) joins its
    // children newest first after every frame above it returned: if a thief took c, it took
    // everything older first, so pop() returns c or nothing, never a task of another frame.
    template <class F>
    void join(deque& own, child<F>& c)
    {
      if (own.pop() == &c)
        return c.f();
      wait_done(c);
    }

    // Effects: returns once a thief has run c, stealing anything meanwhile. Out of line: the
    // rare path of a join (its child was stolen), kept out of the kernels' code.
    __attribute__((noinline)) void wait_done(const task& c)
    {
      // acquire: pairs with the thief's release store of done (child::act, block_child::act)
      while (!c.done.load(std::memory_order_acquire))
        if (!steal_one())
          std::this_thread::yield();
    }

    template <class First, class... Fs, std::size_t... I>
    void fork_all(std::index_sequence<I...>, First& first, Fs&... fs)
    {
      constexpr std::size_t n = sizeof...(Fs);
      deque& own = *current();
      std::tuple<child<Fs>...> children(fs...);
      (own.push(&std::get<I>(children)), ...);
      first();
      (join(own, std::get<n - 1 - I>(children)), ...);
    }

    std::vector<deque> deques_;
    std::vector<std::thread> workers_;
    std::atomic<bool> stop_{false};
  };

  // The calling thread's storage for the children of its blocks: a stack of bytes that a block
  // rewinds at its end. The blocks of a thread end in the reverse order of their start (a
  // thread's blocks nest on its one stack: a join that waits runs what it steals above its own
  // frame), so the bytes above a block's start are its own children's and those of blocks
  // nested in it, which ended before it. Fixed size; a deeper use throws.
  class bump_stack
  {
  public:
    static bump_stack& of_this_thread()
    {
      thread_local bump_stack s;
      return s;
    }
    unsigned char* top() const noexcept { return top_; }
    void rewind(unsigned char* to) noexcept { top_ = to; }
    // Returns: size bytes aligned to align (a power of two). Throws: std::length_error if full.
    void* allocate(std::size_t size, std::size_t align)
    {
      unsigned char* const at = reinterpret_cast<unsigned char*>(
          (reinterpret_cast<std::uintptr_t>(top_) + align - 1) & ~(std::uintptr_t(align) - 1));
      if (at + size > end_)
        throw std::length_error("bare::bump_stack: full");
      top_ = at + size;
      return at;
    }

  private:
    static constexpr std::size_t bytes = std::size_t(64) << 20;
    std::unique_ptr<unsigned char[]> buffer_{new unsigned char[bytes]};
    unsigned char* top_ = buffer_.get();
    unsigned char* const end_ = buffer_.get() + bytes;
  };

  // A task block on this scheduler, as the library's task blocks queue their children but with
  // nothing else: run(g) puts a copy of g (type-erased) in the thread's bump_stack, pushes it
  // and links it into the block's list; the block's end (its destructor) joins the children
  // newest first, each popped back and called inline unless a thief took it, and rewinds the
  // storage. Only the thread that made the block calls run(); no exceptions, no cancellation,
  // no wait() before the end.
  class pool::block
  {
  public:
    explicit block(pool& p) : pool_(p), own_(*current()), start_(bump_stack::of_this_thread().top()) {}
    ~block()
    {
      while (erased* const c = head_)
      {
        head_ = c->next;
        c->finish(pool_, own_, c);
      }
      bump_stack::of_this_thread().rewind(start_);
    }
    block(const block&) = delete;
    block& operator=(const block&) = delete;

    template <class G>
    void run(G&& g)
    {
      typedef block_child<typename std::decay<G>::type> child_type;
      void* const mem = bump_stack::of_this_thread().allocate(sizeof(child_type), alignof(child_type));
      child_type* const c = ::new (mem) child_type(std::forward<G>(g));
      own_.push(c); // first: a child that a full ring refused is not in the list to join
      c->next = head_;
      head_ = c;
    }

  private:
    struct erased : task
    {
      erased* next = nullptr;
      void (*finish)(pool&, deque&, erased*) = nullptr;
    };
    template <class G>
    struct block_child : erased
    {
      template <class H>
      explicit block_child(H&& h) : g(std::forward<H>(h))
      {
        run = &act;
        finish = &finish_impl;
      }
      static void act(task* t)
      {
        block_child* const self = static_cast<block_child*>(t);
        self->g();
        self->done.store(true, std::memory_order_release); // the owner may destroy it now
      }
      static void finish_impl(pool& p, deque& own, erased* e)
      {
        block_child* const self = static_cast<block_child*>(e);
        if (own.pop() == self) // as pool::join
          self->g();
        else
          p.wait_done(*self);
        self->~block_child();
      }
      G g;
    };

    pool& pool_;
    deque& own_;
    unsigned char* const start_;
    erased* head_ = nullptr;
  };

} // namespace bare
} // namespace bench

#endif // header
