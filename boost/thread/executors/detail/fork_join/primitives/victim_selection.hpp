// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Victim selection for stealing: a uniformly random starting victim, then every other deque
// once in order, so a steal attempt that fails has looked at every deque (a failed round is
// proof that no deque held work at the moment it was looked at, which the sleep re-check needs).
// Random starts spread thieves over victims (Blumofe and Leiserson, JACM 1999).

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_PRIMITIVES_VICTIM_SELECTION_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_PRIMITIVES_VICTIM_SELECTION_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>

#include <cstdint>

namespace boost {
namespace detail {
namespace fork_join {

  // xorshift64* (Vigna 2016): a few instructions, per thread, no shared state.
  inline std::uint64_t next_random() noexcept
  {
    thread_local std::uint64_t state = 0;
    if (state == 0)
      state = reinterpret_cast<std::uintptr_t>(&state) * 0x9E3779B97F4A7C15ull | 1u;
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545F4914F6CDD1Dull;
  }

  // Calls try_victim(v) for every v in [0, n) except `self`, starting at a random victim, until
  // it returns true. Returns: whether some call returned true.
  template <class TryVictim>
  bool for_each_victim(unsigned n, int self, TryVictim&& try_victim)
  {
    if (n == 0)
      return false;
    const unsigned start = static_cast<unsigned>(next_random() % n);
    for (unsigned i = 0; i < n; ++i)
    {
      const unsigned v = (start + i) % n;
      if (static_cast<int>(v) != self && try_victim(v))
        return true;
    }
    return false;
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
