// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The stacks a pool thread runs on while frames of its are parked (parking.hpp), and the
// per-thread cache that recycles them.
//
// A stack is an anonymous mapping of the requested size plus one guard page below it (an
// overflow faults instead of writing over a neighbour), reserved without committing memory
// (MAP_NORESERVE): only the pages a fiber touches are ever resident. A thread keeps up to
// BOOST_THREAD_FJ_FIBER_STACK_CACHE stacks it has finished with for its next parkings, linked
// through their top bytes, so a parking in a steady state makes no system call and allocates
// nothing with operator new (a wait never needs the heap, fault_injection_pass.cpp).

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FIBER_STACK_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FIBER_STACK_HPP

#include <boost/thread/executors/detail/fork_join/config.hpp>
#include <boost/context/stack_context.hpp>

#include <cstddef>
#include <cstdint>

#include <sys/mman.h>
#include <unistd.h>

#ifndef BOOST_THREAD_FJ_FIBER_STACK_SIZE
// Size in bytes of each stack a pool thread switches to when one of its frames parks (the
// default of fork_join_thread_pool::options::fiber_stack_size); 0: the size of the pool's
// worker stacks (stack_bounds.hpp), so that what a task may nest on a worker's own stack it may
// nest on a fiber too. Address space only: a fiber commits the pages it touches, a few KiB for
// most.
#define BOOST_THREAD_FJ_FIBER_STACK_SIZE 0
#endif

#ifndef BOOST_THREAD_FJ_FIBER_STACK_CACHE
// How many finished fiber stacks a pool thread keeps for its next parkings.
#define BOOST_THREAD_FJ_FIBER_STACK_CACHE 16
#endif

namespace boost {
namespace detail {
namespace fork_join {

  class fiber_stack_cache
  {
  public:
    // size: usable bytes of each stack (rounded up to whole pages), at least 64 KiB.
    explicit fiber_stack_cache(std::size_t size) noexcept : size_(round_up(size < (std::size_t(64) << 10) ? (std::size_t(64) << 10) : size)) {}
    fiber_stack_cache(const fiber_stack_cache&) = delete;
    fiber_stack_cache& operator=(const fiber_stack_cache&) = delete;
    ~fiber_stack_cache() { trim(0); }

    // Returns: a stack (sp: its highest address; size: its extent, guard page included), from
    // the cache or a new mapping; one with sp == nullptr if the system refused the mapping.
    boost::context::stack_context take() noexcept
    {
      boost::context::stack_context s;
      if (free_)
      {
        cached_* const c = free_;
        free_ = c->next;
        --count_;
        s.sp = c->sp;
        s.size = c->size;
        return s;
      }
      const std::size_t total = size_ + page();
      void* const base = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
      if (base == MAP_FAILED)
        return s;
      if (::mprotect(base, page(), PROT_NONE) != 0)
      {
        ::munmap(base, total);
        return s;
      }
      s.sp = static_cast<char*>(base) + total;
      s.size = total;
      return s;
    }

    // Effects: keeps s for a later take(), or unmaps it if the cache is full.
    void give_back(boost::context::stack_context& s) noexcept
    {
      if (count_ >= BOOST_THREAD_FJ_FIBER_STACK_CACHE)
      {
        unmap(s.sp, s.size);
        return;
      }
      cached_* const c = static_cast<cached_*>(s.sp) - 1; // in the stack's top bytes, now unused
      c->sp = s.sp;
      c->size = s.size;
      c->next = free_;
      free_ = c;
      ++count_;
    }

    // Effects: unmaps cached stacks until at most `keep` remain.
    void trim(std::size_t keep) noexcept
    {
      while (count_ > keep)
      {
        cached_* const c = free_;
        free_ = c->next;
        --count_;
        unmap(c->sp, c->size);
      }
    }

    // Returns: the lowest usable address of s (above its guard page) and its usable size.
    static void* bottom(const boost::context::stack_context& s) noexcept { return static_cast<char*>(s.sp) - s.size + page(); }
    static std::size_t usable(const boost::context::stack_context& s) noexcept { return s.size - page(); }

  private:
    struct cached_
    {
      void* sp;
      std::size_t size;
      cached_* next;
    };

    static std::size_t page() noexcept
    {
      static const std::size_t p = [] {
        const long v = ::sysconf(_SC_PAGESIZE);
        return v > 0 ? std::size_t(v) : std::size_t(4096);
      }();
      return p;
    }
    static std::size_t round_up(std::size_t n) noexcept { return (n + page() - 1) / page() * page(); }
    static void unmap(void* sp, std::size_t size) noexcept { ::munmap(static_cast<char*>(sp) - size, size); }

    const std::size_t size_;
    cached_* free_ = nullptr;
    std::size_t count_ = 0;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
