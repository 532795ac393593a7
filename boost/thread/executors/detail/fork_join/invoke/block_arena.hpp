// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The storage of a task_block's children: a bump allocator that starts in the block's own
// frame and grows by chunks of doubling size, so that a block with a few children allocates
// nothing and one with many allocates O(log n) times. Everything is released at once by
// release(), after every child has been joined.
//
// Chunks come from and go back to a cache of the calling thread's (chunk_cache): a thread's blocks
// end in the reverse order of their start, so the chunks one block gives back are the ones the
// next block takes. The first chunk, 4 KiB, holds about twenty children of a few captures each (so
// such a block takes one chunk, not two or three), and the cache holds 64 KiB, 16 such chunks, so
// that a chain of nested blocks reuses them as it shrinks and grows again: uts_t3's blocks (8
// children each, nested up to 699 deep) allocate 0.02 times per task, where a first chunk of 1 KiB
// and a cache of 4 chunks left 0.14 (doc/benchmark/README.md, "Task blocks: what a child costs").
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
  class chunk_cache
  {
  public:
    // Chunks of at most max_bytes each, max_cached_bytes in all, wait in a thread's cache:
    // what a thread holds and does not use.
    static constexpr std::size_t max_bytes = 16 * 1024;
    static constexpr std::size_t max_cached_bytes = 64 * 1024;

    // Returns: a chunk of at least `bytes` bytes (its header included), from the calling
    // thread's cache if one there is large enough, else from operator new.
    // Throws: std::bad_alloc.
    static arena_chunk* take(std::size_t bytes)
    {
      state& st = state_;
      for (arena_chunk** p = &st.free; *p; p = &(*p)->next)
        if ((*p)->bytes >= bytes)
        {
          arena_chunk* const c = *p;
          *p = c->next;
          st.bytes -= c->bytes;
          return c;
        }
      arena_chunk* const c = static_cast<arena_chunk*>(::operator new(bytes));
      c->bytes = bytes;
      return c;
    }

    // Effects: keeps c in the calling thread's cache for a later take(), or frees it if the
    // cache is full or closed, or c is larger than max_bytes.
    static void give(arena_chunk* c) noexcept
    {
      state& st = state_;
      if (c->bytes <= max_bytes && st.bytes + c->bytes <= max_cached_bytes && !st.closed)
      {
        static thread_local const reaper frees_at_thread_exit; // registered on first use
        (void)frees_at_thread_exit;
        c->next = st.free;
        st.free = c;
        st.bytes += c->bytes;
      }
      else
        ::operator delete(c);
    }

  private:
    struct state
    {
      arena_chunk* free;
      std::size_t bytes; // of the chunks in free
      bool closed;
    };
    // Frees the thread's cached chunks at its exit and closes the cache.
    struct reaper
    {
      ~reaper()
      {
        state& st = state_;
        st.closed = true;
        while (st.free)
        {
          arena_chunk* const next = st.free->next;
          ::operator delete(st.free);
          st.free = next;
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
    block_arena() noexcept = default;
    block_arena(const block_arena&) = delete;
    block_arena& operator=(const block_arena&) = delete;
    ~block_arena()
    {
      if (chunks_) // else nothing to free (a block's join has usually released it already)
        release();
    }

    // Requires: align is a power of two (it may exceed alignof(std::max_align_t): a chunk
    // has room for `align - 1` bytes of padding before the object).
    // Returns: `size` bytes aligned to `align`.
    // Throws: std::bad_alloc.
    void* allocate(std::size_t size, std::size_t align)
    {
      if (void* p = bump(size, align))
        return p;
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
      end_ = inline_ + sizeof(inline_);
      next_chunk_ = first_chunk;
    }

  private:
    static constexpr std::size_t first_chunk = 4096;

    void* bump(std::size_t size, std::size_t align) noexcept
    {
      const std::uintptr_t at = (reinterpret_cast<std::uintptr_t>(begin_) + align - 1) & ~(std::uintptr_t(align) - 1);
      if (at + size > reinterpret_cast<std::uintptr_t>(end_))
        return nullptr;
      begin_ = reinterpret_cast<unsigned char*>(at + size);
      return reinterpret_cast<void*>(at);
    }

    alignas(alignof(std::max_align_t)) unsigned char inline_[256];
    unsigned char* begin_ = inline_;
    unsigned char* end_ = inline_ + sizeof(inline_);
    arena_chunk* chunks_ = nullptr;
    std::size_t next_chunk_ = first_chunk;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
