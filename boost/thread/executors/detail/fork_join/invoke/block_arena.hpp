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
// Threading contract: only the thread that owns the block allocates from its arena; children
// run by other threads get their storage from operator new (block_state.hpp).

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_BLOCK_ARENA_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_BLOCK_ARENA_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>

#include <cstddef>
#include <cstdint>
#include <new>

namespace boost {
namespace detail {
namespace fork_join {

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
      while (bytes < size + sizeof(chunk) + align)
        bytes *= 2;
      chunk* c = static_cast<chunk*>(::operator new(bytes));
      c->next = chunks_;
      chunks_ = c;
      next_chunk_ = bytes * 2;
      begin_ = reinterpret_cast<unsigned char*>(c + 1);
      end_ = reinterpret_cast<unsigned char*>(c) + bytes;
      return bump(size, align);
    }

    // Effects: frees every chunk and rewinds to the inline buffer. Requires: nothing allocated
    // is in use any more.
    void release() noexcept
    {
      while (chunks_)
      {
        chunk* next = chunks_->next;
        ::operator delete(chunks_);
        chunks_ = next;
      }
      begin_ = inline_;
      end_ = inline_ + sizeof(inline_);
      next_chunk_ = first_chunk;
    }

  private:
    static constexpr std::size_t first_chunk = 1024;

    struct alignas(alignof(std::max_align_t)) chunk
    {
      chunk* next;
    };

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
    chunk* chunks_ = nullptr;
    std::size_t next_chunk_ = first_chunk;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
