// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "../fork_join_thread_pool.hpp"
#include "probes.hpp"

namespace {

using pool_type = bench::fork_join::ex::fork_join_thread_pool;

const bench::probe_registration registered{"fork_join_thread_pool", &bench::pool_probe::idle_cost<pool_type>,
                                           &bench::pool_probe::submit_latency<pool_type>};

} // namespace
