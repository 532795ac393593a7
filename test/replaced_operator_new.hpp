// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// For a test that replaces the global operator new (to count or to fail allocations): defines
// every form of operator new and new[] (throwing, nothrow, aligned) in terms of two functions
// the test defines, and every form of operator delete as std::free. Every form is replaced so
// that no block is freed by another allocator's delete (AddressSanitizer reports a block from
// its own nothrow new freed by our delete as a mismatch). Include it in one translation unit
// of the test's executable, after declaring nothing of its own:
//
//   void* test_operator_new(std::size_t n, std::size_t alignment);        // throws bad_alloc
//   void* test_operator_new_nothrow(std::size_t n, std::size_t alignment) noexcept; // or null
//
// alignment is 0 for the forms without std::align_val_t. Both must return blocks that
// std::free releases: fj_test::malloc_block's, or null.

#ifndef BOOST_FORK_JOIN_TEST_REPLACED_OPERATOR_NEW_HPP
#define BOOST_FORK_JOIN_TEST_REPLACED_OPERATOR_NEW_HPP

#include <cstddef>
#include <cstdlib>
#include <new>

namespace fj_test {

  // Returns: a block of n bytes (at least 1) from malloc, or posix_memalign for an alignment
  // above malloc's; null if there is none.
  inline void* malloc_block(std::size_t n, std::size_t alignment) noexcept
  {
    n = n ? n : 1;
    if (alignment <= alignof(std::max_align_t))
      return std::malloc(n);
    void* p = nullptr;
    return posix_memalign(&p, alignment, n) == 0 ? p : nullptr;
  }

} // namespace fj_test

void* test_operator_new(std::size_t n, std::size_t alignment);
void* test_operator_new_nothrow(std::size_t n, std::size_t alignment) noexcept;

void* operator new(std::size_t n) { return test_operator_new(n, 0); }
void* operator new[](std::size_t n) { return test_operator_new(n, 0); }
void* operator new(std::size_t n, std::align_val_t a) { return test_operator_new(n, std::size_t(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return test_operator_new(n, std::size_t(a)); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return test_operator_new_nothrow(n, 0); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return test_operator_new_nothrow(n, 0); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept
{
  return test_operator_new_nothrow(n, std::size_t(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept
{
  return test_operator_new_nothrow(n, std::size_t(a));
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }

#endif // header
