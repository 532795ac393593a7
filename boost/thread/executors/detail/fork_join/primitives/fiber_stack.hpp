// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The stacks a pool thread runs on while frames of its are parked (parking.hpp), and the
// per-thread cache that recycles them.
//
// Stacks are carved from slabs: one anonymous mapping holds a header page and
// BOOST_THREAD_FJ_FIBER_STACKS_PER_MAPPING stacks, each with a guard page below it (an overflow
// faults instead of writing over a neighbour), reserved without committing memory
// (MAP_NORESERVE): only the pages a fiber touches are ever resident.
//
//     low                                                                      high
//     | header page | guard | stack 0 ... top | guard | stack 1 ... top | ... |
//
// The guard pages are installed with madvise(MADV_GUARD_INSTALL) where the kernel has it
// (Linux 6.13 and later): guard markers in the page tables, which do not split the mapping,
// so a slab is one kernel mapping whatever its number of stacks, and vm.max_map_count (65530
// by default) allows about 10^6 parked frames. Older kernels refuse that advice (EINVAL): the
// guard pages are then made with mprotect(PROT_NONE), each of which splits the mapping, so a
// stack costs two mappings (about 32,000 parked frames under the default vm.max_map_count).
// Which of the two the process uses is found at its first slab and kept;
// BOOST_THREAD_FJ_FIBER_GUARD_MPROTECT makes it mprotect from the start (what older kernels get,
// tested on newer ones: external_waits_mprotect_pass).
//
// Each stack keeps its top 64 bytes for this file: a pointer to its slab, written when the
// stack is first taken, so that giving it back finds the slab in O(1), and, while the stack is
// free with its pages (warm), its links in the thread's list of warm stacks. A thread keeps up
// to BOOST_THREAD_FJ_FIBER_STACK_CACHE warm stacks for its next parkings, and takes them first,
// last freed first: a parking in a steady state makes no system call, faults in no page and
// allocates nothing with operator new (a wait never needs the heap, fault_injection_pass.cpp).
// A stack freed beyond that gives its pages back (madvise(MADV_DONTNEED); the guard stays) and
// becomes cold, as a fresh slab's stacks are: the cold free stacks of a slab are a stack of
// indices in its header page. Cold stacks are taken only when no warm one is left: a deep
// chain's fiber touches megabytes of its stack, and taking an untouched one while a warm one
// waited made a chain of 10^4 forks at two threads three times as slow. A slab whose stacks are
// all free is unmapped once the thread has that many free stacks elsewhere.
// Every operation is O(1) but mapping a slab (one mmap and one madvise or mprotect per stack)
// and unmapping one (a look at each of its stacks' top bytes).

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_PRIMITIVES_FIBER_STACK_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_PRIMITIVES_FIBER_STACK_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/context/stack_context.hpp>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>

#include <sys/mman.h>
#include <unistd.h>

#ifdef BOOST_THREAD_FJ_ASAN
#include <sanitizer/asan_interface.h>
#endif

// The advice of Linux 6.13 that installs guard markers (uapi asm-generic/mman-common.h), for
// C library headers older than the kernel.
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif

namespace boost {
namespace detail {
namespace fork_join {

  // What a pool's fiber stacks take of the system, summed over its threads (statistics()).
  // relaxed everywhere: gauges that order nothing; they move only when a slab is mapped or
  // unmapped.
  struct stack_gauges
  {
    std::atomic<std::uint64_t> stacks{0};   // fiber stacks in mapped slabs, free or in use
    std::atomic<std::uint64_t> bytes{0};    // address space of those slabs
    std::atomic<std::uint64_t> mappings{0}; // kernel mappings they take (an upper bound: the
                                            // kernel may merge neighbours)

    void add(std::uint64_t s, std::uint64_t b, std::uint64_t m) noexcept
    {
      stacks.fetch_add(s, std::memory_order_relaxed);
      bytes.fetch_add(b, std::memory_order_relaxed);
      mappings.fetch_add(m, std::memory_order_relaxed);
    }
    void sub(std::uint64_t s, std::uint64_t b, std::uint64_t m) noexcept
    {
      stacks.fetch_sub(s, std::memory_order_relaxed);
      bytes.fetch_sub(b, std::memory_order_relaxed);
      mappings.fetch_sub(m, std::memory_order_relaxed);
    }
  };

  class fiber_stack_cache
  {
  public:
    // size: usable bytes of each stack (rounded up to whole pages), at least 64 KiB.
    // gauges: where the slabs are counted (may be null).
    fiber_stack_cache(std::size_t size, stack_gauges* gauges) noexcept
        : size_(round_up(size < (std::size_t(64) << 10) ? (std::size_t(64) << 10) : size)), gauges_(gauges)
    {
    }
    fiber_stack_cache(const fiber_stack_cache&) = delete;
    fiber_stack_cache& operator=(const fiber_stack_cache&) = delete;
    ~fiber_stack_cache() { trim(); }

    // Returns: a free stack (sp: 64 bytes below its top; size: the bytes below sp, down to
    // its guard page): a warm one if any, else a cold one from a slab or a new slab; one with
    // sp == nullptr if the system refused the mapping (error() then says why).
    boost::context::stack_context take() noexcept
    {
      stack_top* t = warm_head_;
      if (t)
      {
        unlink_warm(t);
        t->warm = false;
        --t->home->free_count;
      }
      else
      {
        if (!cold_head_ && !map_slab())
          return boost::context::stack_context();
        slab* const sl = cold_head_;
        t = top_struct(sl, cold_index(sl)[--sl->cold_count]);
        --sl->free_count;
        if (sl->cold_count == 0)
          unlink_cold(sl);
        t->home = sl; // the top page: the fiber's first use of the stack
        t->warm = false;
      }
      --free_total_;
      boost::context::stack_context s;
      s.sp = t;
      s.size = size_ - own_bytes;
      return s;
    }

    // Requires: s came from take() of this cache and is no longer run on.
    // Effects: makes s free again (see the file comment for what it keeps).
    void give_back(boost::context::stack_context& s) noexcept
    {
      stack_top* const t = static_cast<stack_top*>(s.sp);
      slab* const sl = t->home;
#ifdef BOOST_THREAD_FJ_ASAN
      // The frames a fiber left when it ended (its entry, switched away from, never returns)
      // keep their redzones poisoned; munmap would clear them, a reuse must.
      __asan_unpoison_memory_region(bottom(s), usable(s));
#endif
      if (sl->free_count + 1 == sl->count && free_total_ - sl->free_count >= BOOST_THREAD_FJ_FIBER_STACK_CACHE)
      {
        // The slab's last stack in use, and enough free stacks elsewhere: the slab goes.
        release(sl);
        return;
      }
      ++sl->free_count;
      ++free_total_;
      if (warm_ < BOOST_THREAD_FJ_FIBER_STACK_CACHE)
      {
        t->warm = true; // keeps its pages; taken first, last freed first
        push_warm(t);
        return;
      }
      char* const top = reinterpret_cast<char*>(t) + own_bytes;
      ::madvise(top - size_, size_ - page(), MADV_DONTNEED); // keeps the top page and the guard
      if (sl->cold_count == 0)
        push_cold(sl);
      cold_index(sl)[sl->cold_count++] = index_of(sl, top);
    }

    // Requires: no stack of this cache is in use. Effects: unmaps every slab.
    void trim() noexcept
    {
      while (all_)
        release(all_);
    }

    // Returns: the errno of the last mapping the system refused (0: none yet).
    int error() const noexcept { return error_; }
    // Returns: the usable size of each stack, and the bytes of one mapping that holds k stacks.
    std::size_t stack_size() const noexcept { return size_; }
    std::size_t slab_bytes(std::size_t k) const noexcept { return page() + k * (page() + size_); }

    // Returns: the lowest usable address of s (above its guard page) and its usable size.
    static void* bottom(const boost::context::stack_context& s) noexcept { return static_cast<char*>(s.sp) - s.size; }
    static std::size_t usable(const boost::context::stack_context& s) noexcept { return s.size; }

    // Returns: whether guard pages are guard markers (one mapping a slab) rather than
    // mprotect'ed pages (two mappings a stack); known once a slab was mapped.
    static bool guard_markers() noexcept { return guard_mode().load(std::memory_order_relaxed) == markers; }

  private:
    struct slab;

    // At each stack's top (own_bytes): its slab, written when the stack is first taken, and,
    // while the stack is warm (free with its pages), its links in the list of warm stacks.
    struct stack_top
    {
      slab* home;
      stack_top* prev;
      stack_top* next;
      bool warm;
    };
    static constexpr std::size_t own_bytes = 64;
    static_assert(sizeof(stack_top) <= own_bytes, "a stack's own bytes hold its stack_top");

    // In the slab's header page, followed by cold_index(): the free stacks without pages.
    struct slab
    {
      slab* prev; // in the list of slabs with cold stacks
      slab* next;
      slab* all_prev; // in the list of all slabs
      slab* all_next;
      std::uint32_t count;      // stacks in the slab
      std::uint32_t free_count; // free stacks, warm or cold
      std::uint32_t cold_count; // entries of cold_index() in use
      std::size_t bytes;        // of the mapping
    };
    static std::uint32_t* cold_index(slab* sl) noexcept { return reinterpret_cast<std::uint32_t*>(sl + 1); }

    // An intrusive doubly linked list of Node through its members Prev and Next, from `head`.
    template <class Node, Node* Node::*Prev, Node* Node::*Next>
    struct node_list
    {
      static void push_front(Node*& head, Node* n) noexcept
      {
        n->*Prev = nullptr;
        n->*Next = head;
        if (head)
          head->*Prev = n;
        head = n;
      }
      static void unlink(Node*& head, Node* n) noexcept
      {
        (n->*Prev ? (n->*Prev)->*Next : head) = n->*Next;
        if (n->*Next)
          (n->*Next)->*Prev = n->*Prev;
      }
    };
    typedef node_list<stack_top, &stack_top::prev, &stack_top::next> warm_list;
    typedef node_list<slab, &slab::prev, &slab::next> cold_list;
    typedef node_list<slab, &slab::all_prev, &slab::all_next> all_list;

    enum guard_kind
    {
      unknown,
      markers,  // madvise(MADV_GUARD_INSTALL)
      protected_ // mprotect(PROT_NONE)
    };

    // relaxed: every thread that finds it unknown finds the same answer from the kernel.
    static std::atomic<int>& guard_mode() noexcept
    {
#ifdef BOOST_THREAD_FJ_FIBER_GUARD_MPROTECT
      static std::atomic<int> mode{protected_};
#else
      static std::atomic<int> mode{unknown};
#endif
      return mode;
    }

    static std::size_t page() noexcept
    {
      static const std::size_t p = [] {
        const long v = ::sysconf(_SC_PAGESIZE);
        return v > 0 ? std::size_t(v) : std::size_t(4096);
      }();
      return p;
    }
    static std::size_t round_up(std::size_t n) noexcept { return (n + page() - 1) / page() * page(); }

    char* stack_end(slab* sl, std::uint32_t i) const noexcept
    {
      return reinterpret_cast<char*>(sl) + page() + std::size_t(i) * (page() + size_) + page() + size_;
    }
    stack_top* top_struct(slab* sl, std::uint32_t i) const noexcept
    {
      return reinterpret_cast<stack_top*>(stack_end(sl, i) - own_bytes);
    }
    std::uint32_t index_of(slab* sl, char* top) const noexcept
    {
      const std::size_t offset = static_cast<std::size_t>(top - reinterpret_cast<char*>(sl)); // top is above sl
      return static_cast<std::uint32_t>((offset - page()) / (page() + size_) - 1);
    }

    // Effects: installs the guard page at g (p bytes) and adds to `mappings` the mappings that
    // splits off. Returns: whether the system allowed it.
    static bool install_guard(void* g, std::size_t p, std::uint64_t& mappings) noexcept
    {
      int mode = guard_mode().load(std::memory_order_relaxed);
      if (mode != protected_)
      {
        if (::madvise(g, p, MADV_GUARD_INSTALL) == 0)
        {
          guard_mode().store(markers, std::memory_order_relaxed);
          return true;
        }
        if (errno != EINVAL || mode == markers)
          return false;
        guard_mode().store(protected_, std::memory_order_relaxed);
      }
      if (::mprotect(g, p, PROT_NONE) != 0)
        return false;
      mappings += 2; // the guard, and the stack above it split off
      return true;
    }

    // Effects: maps a slab and files it with all its stacks free and cold. Returns: false
    // (error_ set) if the system refused.
    bool map_slab() noexcept
    {
      std::size_t k = BOOST_THREAD_FJ_FIBER_STACKS_PER_MAPPING;
      if (k < 1)
        k = 1;
      const std::size_t header_max = (page() - sizeof(slab)) / sizeof(std::uint32_t);
      if (k > header_max)
        k = header_max;
      void* base = MAP_FAILED;
      for (;;)
      {
        base = BOOST_THREAD_FJ_FIBER_STACK_MMAP(nullptr, slab_bytes(k), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
        if (base != MAP_FAILED || k == 1)
          break;
        k = 1; // an address-space limit may still allow one stack
      }
      if (base == MAP_FAILED)
      {
        error_ = errno;
        return false;
      }
      std::uint64_t mappings = 1;
      for (std::size_t i = 0; i < k; ++i)
      {
        if (!install_guard(static_cast<char*>(base) + page() + i * (page() + size_), page(), mappings))
        {
          error_ = errno;
          ::munmap(base, slab_bytes(k));
          return false;
        }
      }
      slab* const sl = static_cast<slab*>(base);
      sl->count = static_cast<std::uint32_t>(k);
      sl->free_count = static_cast<std::uint32_t>(k);
      sl->cold_count = static_cast<std::uint32_t>(k);
      sl->bytes = slab_bytes(k);
      // Taken from the highest index down: the stack nearest the header first.
      for (std::size_t i = 0; i < k; ++i)
        cold_index(sl)[i] = static_cast<std::uint32_t>(k - 1 - i);
      free_total_ += k;
      push_cold(sl);
      all_list::push_front(all_, sl);
      if (gauges_)
        gauges_->add(k, sl->bytes, mappings);
      return true;
    }

    // Requires: every stack of sl is free but, at most, the one being given back.
    // Effects: takes sl's free stacks off the lists and counts, and unmaps it.
    void release(slab* sl) noexcept
    {
      if (sl->cold_count != 0)
        unlink_cold(sl);
      for (std::uint32_t i = 0; i < sl->count; ++i)
      {
        stack_top* const t = top_struct(sl, i);
        if (t->warm) // a stack never taken reads as zero here (its untouched top page)
          unlink_warm(t);
      }
      free_total_ -= sl->free_count;
      all_list::unlink(all_, sl);
      const std::uint64_t k = sl->count;
      const std::size_t bytes = sl->bytes;
      const std::uint64_t mappings = guard_markers() ? 1 : 1 + 2 * k;
      ::munmap(sl, bytes);
      if (gauges_)
        gauges_->sub(k, bytes, mappings);
    }

    void push_warm(stack_top* t) noexcept
    {
      warm_list::push_front(warm_head_, t);
      ++warm_;
    }
    void unlink_warm(stack_top* t) noexcept
    {
      warm_list::unlink(warm_head_, t);
      t->warm = false;
      BOOST_THREAD_FJ_ASSERT(warm_ != 0); // Invariant: warm_ counts the stacks in the warm list
      --warm_;
    }
    void push_cold(slab* sl) noexcept { cold_list::push_front(cold_head_, sl); }
    void unlink_cold(slab* sl) noexcept
    {
      cold_list::unlink(cold_head_, sl);
      sl->prev = sl->next = nullptr;
    }

    const std::size_t size_;
    stack_gauges* const gauges_;
    slab* all_ = nullptr;           // every slab
    slab* cold_head_ = nullptr;     // the slabs with a cold free stack
    stack_top* warm_head_ = nullptr; // the warm free stacks, last freed first
    std::size_t free_total_ = 0;    // free stacks in all slabs, warm or cold
    std::size_t warm_ = 0;          // of those, the warm ones
    int error_ = 0;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
