// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The guards of detail/fork_join/base/boost_compat.hpp, against a shared state that gained a field:
// a fork state reused by fork() would keep that field's stale value, so the build must stop, naming
// the macro that avoids the internals.
// expected-error: gained a field that a reused fork state would not reset.*BOOST_THREAD_FJ_PUBLIC_API_ONLY

#include <boost/thread/executors/fork_join.hpp>

struct state_with_one_more_field : boost::detail::shared_state_base
{
  int added_by_a_future_boost = 0;
};

static_assert(boost::detail::fork_join::compat::guards<state_with_one_more_field, boost::future<int>, int>::value);

int main() { return 0; }
