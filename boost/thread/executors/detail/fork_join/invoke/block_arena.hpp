// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The storage of a task_block's children: a bump allocator that starts in the block's own
// frame and grows by chunks of doubling size, so that a block with a few children allocates
// nothing and one with many allocates O(log n) times. Everything is released at once, after
// every child has been joined: by release() (a wait() in the block, for the children after it),
// or by the destructor at the block's end.
//
// Chunks come from and go back to a cache of the calling thread's (chunk_cache): a thread's blocks
// end in the reverse order of their start, so the chunks one block gives back are the ones the
// next block takes. The first chunk, 4 KiB, holds about twenty children of a few captures each (so
// such a block takes one chunk, not two or three). The cache keeps as many bytes idle as the
// thread's blocks recently held at once (at least 64 KiB), so that a chain of nested blocks
// reuses its chunks as it shrinks and grows again however deep it is: uts_t3's blocks (8 children
// each, nested up to 699 deep) allocate 0.0014 times per task (when a period that did not go as
// deep halved the bound), where a fixed cache of 64 KiB (16 chunks) allocated 0.017 times and
// made the blocks 4% slower (doc/benchmark/README.md, "A child's instructions: the join's call, the exception slot,
// a deep chain's chunks").
//
// Threading contract: only the thread that owns the block allocates from its arena and
// releases it; children run by other threads get their storage from operator new
// (block_state.hpp).

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_BLOCK_ARENA_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_BLOCK_ARENA_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>

#include <cstddef>
#include <cstdint>
#include <new>

namespace boost {
namespace detail {
namespace fork_join {

  // A block of storage for an arena, and the calling thread's cache of them.
  struct alignas(alignof(std::max_align_t)) arena_chunk
  {
    arena_chunk* next;
    std::size_t bytes; // of the whole chunk, this header included
  };

  // The calling thread's cache of chunks. Its state is a trivially destructible thread_local,
  // so that it stays usable to the thread's last instruction: a block that runs in a
  // destructor after the thread's thread_local objects ended (a static's destructor on the
  // main thread) finds the cache closed and uses operator new and delete directly.
  //
  // How much it keeps: the bound on its idle bytes follows what the thread's blocks hold at
  // once, as fork_recycler.hpp's bound follows the forks in flight. Time is counted in bytes
  // taken: a period ends once the thread has taken period_factor times the bound since the last
  // end, and then the bound becomes the larger of min_bound, the most bytes in use during the
  // period, and half the bound before; the idle chunks beyond it are freed. So a chain of
  // nested blocks that recurs within a period keeps all its chunks however deep it goes, and
  // what a burst left idle goes back within a few periods of further blocks (or at the
  // thread's exit).
  //
  // Every chunk is min_chunk times a power of two (block_arena doubles from min_chunk), so
  // the kept ones are of three sizes, each with a list of its own: a take looks at three heads,
  // however many chunks wait (one list, scanned for a chunk large enough, walked every idle
  // chunk of 4 KiB before it made one of 8 KiB, and a deep chain leaves hundreds). Cost: O(1)
  // per take and give, and a chunk a period's end frees was given once.
  class chunk_cache
  {
  public:
    // The size of a block's first chunk; every chunk is min_chunk << k.
    static constexpr std::size_t min_chunk = 4096;
    // Chunks of at most max_bytes each are kept; larger ones go back to operator delete.
    static constexpr std::size_t max_bytes = 16 * 1024;
    // The least bound on the idle bytes, and the period in bytes taken, as a multiple of it.
    static constexpr std::size_t min_bound = 64 * 1024;
    static constexpr std::size_t period_factor = 4;

    // Requires: bytes is min_chunk << k for some k.
    // Returns: a chunk of at least `bytes` bytes (its header included), from the calling
    // thread's cache if one there is large enough (of that size, else the next larger), else
    // from operator new.
    // Throws: std::bad_alloc.
    static arena_chunk* take(std::size_t bytes)
    {
      state& st = state_;
      arena_chunk* c = nullptr;
      if (bytes <= max_bytes)
        for (std::size_t k = size_class(bytes); k != classes && !c; ++k)
          if ((c = st.free[k]) != nullptr)
          {
            st.free[k] = c->next;
            st.bytes -= c->bytes;
          }
      if (!c)
      {
        c = static_cast<arena_chunk*>(::operator new(bytes));
        c->bytes = bytes;
      }
      st.in_use += c->bytes;
      if (st.in_use > st.period_peak)
        st.period_peak = st.in_use;
      st.taken += c->bytes;
      if (BOOST_UNLIKELY(st.taken >= period_factor * bound(st)))
        end_period(st);
      return c;
    }

    // Requires: c came from take() on the calling thread.
    // Effects: keeps c in the calling thread's cache for a later take(), or frees it if that
    // would keep more idle bytes than the bound, or the cache is closed, or c is larger than
    // max_bytes.
    static void give(arena_chunk* c) noexcept
    {
      state& st = state_;
      BOOST_THREAD_FJ_ASSERT(st.in_use >= c->bytes);
      st.in_use -= c->bytes;
      if (c->bytes <= max_bytes && st.bytes + c->bytes <= bound(st) && !st.closed)
      {
        static thread_local const reaper frees_at_thread_exit; // registered on first use
        (void)frees_at_thread_exit;
        arena_chunk*& head = st.free[size_class(c->bytes)];
        c->next = head;
        head = c;
        st.bytes += c->bytes;
      }
      else
        ::operator delete(c);
    }

    // Returns: the bytes of the chunks in the calling thread's cache (for tests).
    static std::size_t idle_bytes() noexcept { return state_.bytes; }

    // Returns: the calling thread's bound on them (for tests).
    static std::size_t idle_bound() noexcept { return bound(state_); }

  private:
    // The sizes kept: min_chunk << 0, 1, 2 (up to max_bytes).
    static constexpr std::size_t classes = 3;
    static_assert((min_chunk << (classes - 1)) == max_bytes, "one list per size kept");

    // Requires: bytes is min_chunk << k, k < classes. Returns: k.
    static std::size_t size_class(std::size_t bytes) noexcept
    {
      std::size_t k = 0;
      while ((min_chunk << k) < bytes)
        ++k;
      BOOST_THREAD_FJ_ASSERT((min_chunk << k) == bytes && k < classes);
      return k;
    }

    struct state
    {
      arena_chunk* free[classes]; // the idle chunks, by size class
      std::size_t bytes;       // of the chunks in free
      std::size_t in_use;      // of the chunks taken and not given back
      std::size_t period_peak; // the most in use since the period began
      std::size_t taken;       // bytes taken since the period began
      std::size_t bound;       // on bytes; below min_bound (zero-initialized): min_bound
      bool closed;
    };

    static std::size_t bound(const state& st) noexcept { return st.bound < min_bound ? min_bound : st.bound; }

    // Effects: ends the period: sets the bound (see the class) and frees the idle chunks
    // beyond it. Out of line: once per period_factor times the bound in bytes taken.
    BOOST_NOINLINE static void end_period(state& st) noexcept
    {
      std::size_t b = bound(st) / 2;
      if (st.period_peak > b)
        b = st.period_peak;
      st.bound = b < min_bound ? min_bound : b;
      st.period_peak = st.in_use;
      st.taken = 0;
      // The largest first: the fewest chunks freed for the bytes over the bound.
      for (std::size_t k = classes; k != 0 && st.bytes > st.bound; --k)
        while (st.bytes > st.bound && st.free[k - 1])
        {
          arena_chunk* const c = st.free[k - 1];
          st.free[k - 1] = c->next;
          st.bytes -= c->bytes;
          ::operator delete(c);
        }
    }

    // Frees the thread's cached chunks at its exit and closes the cache.
    struct reaper
    {
      ~reaper()
      {
        state& st = state_;
        st.closed = true;
        for (arena_chunk*& head : st.free)
          while (head)
          {
            arena_chunk* const next = head->next;
            ::operator delete(head);
            head = next;
          }
        st.bytes = 0;
      }
    };
    static thread_local state state_; // zero-initialized
  };
  inline thread_local chunk_cache::state chunk_cache::state_{};

  class block_arena
  {
  public:
    // The bytes of the buffer in the block's own frame, which the first children take: four
    // children of a callable of two captures (144 bytes each, block_child.hpp), so that a block
    // of nqueens (a row's legal placements) or of a UTS T1 node (4 children on average) mostly
    // takes no chunk. Against 256 bytes (then one child of 160 bytes), in interleaved rounds of
    // the benchmark, four children's 640 bytes took 1-2% less time on nqueens and the UTS
    // trees, the same on integrate and 1-1.5% more on fib (blocks of one child, whose frames
    // the buffer only spreads; 2.5-3.5% more before the buffer came after the pointers, below)
    // (doc/benchmark/README.md, "A task block's first children in its frame"); the child is 144
    // bytes since, and the buffer four of them.
    static constexpr std::size_t inline_bytes = 576;

    block_arena() noexcept = default;
    block_arena(const block_arena&) = delete;
    block_arena& operator=(const block_arena&) = delete;
    ~block_arena()
    {
      if (chunks_) // else nothing to free (the inline buffer only, or a wait() released it)
        release();
    }

    // Requires: align is a power of two (it may exceed alignof(std::max_align_t): a chunk
    // has room for `align - 1` bytes of padding before the object).
    // Returns: `size` bytes aligned to `align`.
    // Throws: std::bad_alloc.
    // Inlined: the bump is a child's whole allocation; a new chunk is taken out of line.
    BOOST_FORCEINLINE void* allocate(std::size_t size, std::size_t align)
    {
      size = (size + unit - 1) & ~(unit - 1);
      if (void* p = bump(size, align))
        return p;
      return allocate_in_new_chunk(size, align);
    }

    // Effects, Returns, Throws: as allocate(), for a size (rounded) that the chunk in use has
    // no room for.
    BOOST_NOINLINE void* allocate_in_new_chunk(std::size_t size, std::size_t align)
    {
      std::size_t bytes = next_chunk_;
      while (bytes < size + sizeof(arena_chunk) + align)
        bytes *= 2;
      arena_chunk* const c = chunk_cache::take(bytes);
      c->next = chunks_;
      chunks_ = c;
      next_chunk_ = bytes * 2;
      begin_ = reinterpret_cast<unsigned char*>(c + 1);
      end_ = reinterpret_cast<unsigned char*>(c) + c->bytes; // a cached chunk may be larger
      return bump(size, align);
    }

    // Effects: gives every chunk back (to the calling thread's cache, or to operator delete)
    // and rewinds to the inline buffer. Requires: nothing allocated is in use any more; called
    // on the thread that allocated.
    void release() noexcept
    {
      while (chunks_)
      {
        arena_chunk* const next = chunks_->next;
        chunk_cache::give(chunks_);
        chunks_ = next;
      }
      begin_ = inline_;
      end_ = inline_ + inline_bytes;
      next_chunk_ = first_chunk;
    }

  private:
    static constexpr std::size_t first_chunk = chunk_cache::min_chunk;
    // Fast path, "An arena that rounds sizes, not addresses" (doc/design.md, "Fast paths and
    // their assumptions"): begin_ stays a multiple of unit (the buffer and a chunk's bytes start
    // at one, and allocate() rounds every size up to one), so that an object aligned to at most
    // unit (every child but one with an over-aligned capture) takes begin_ as it is; the
    // roundings are of constants once inlined.
    static constexpr std::size_t unit = alignof(std::max_align_t);

    // Requires: size is a multiple of unit (allocate() rounds it up).
    void* bump(std::size_t size, std::size_t align) noexcept
    {
      std::uintptr_t at = reinterpret_cast<std::uintptr_t>(begin_);
      BOOST_THREAD_FJ_ASSERT(at % unit == 0 && size % unit == 0);
      if (align > unit)
        at = (at + align - 1) & ~(std::uintptr_t(align) - 1);
      if (at + size > reinterpret_cast<std::uintptr_t>(end_))
        return nullptr;
      begin_ = reinterpret_cast<unsigned char*>(at + size);
      return reinterpret_cast<void*>(at);
    }

    // The bump pointers first, then the buffer: its first children share cache lines with the
    // pointers (and with the fields a block declares before its arena), whatever the buffer's
    // size.
    unsigned char* begin_ = inline_;
    unsigned char* end_ = inline_ + inline_bytes;
    arena_chunk* chunks_ = nullptr;
    std::size_t next_chunk_ = first_chunk;
    alignas(alignof(std::max_align_t)) unsigned char inline_[inline_bytes];
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
