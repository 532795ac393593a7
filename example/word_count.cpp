// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Word count, map-reduce style, with parallel_transform_reduce.
//
// The text is cut into chunks at spaces, so that no word straddles two chunks. The map step
// counts the words of one chunk into a hash map; the reduce step merges two maps (the smaller
// into the larger). Merging is associative, which is all parallel_transform_reduce asks: the
// chunks' maps are merged in a balanced tree, in parallel, and the empty map `init` comes
// first. The answer is checked against a serial count; the program exits non-zero if they
// differ. parallel_sort then orders the words by count for the report.

#include <boost/thread/executors/algorithm.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

using boost::executors::fork_join_thread_pool;

typedef std::unordered_map<std::string_view, std::size_t> counts;

// Adds the words of `text` (separated by single spaces) to c.
void count_words(std::string_view text, counts& c)
{
  std::size_t begin = 0;
  while (begin < text.size())
  {
    std::size_t end = text.find(' ', begin);
    if (end == std::string_view::npos)
      end = text.size();
    if (end > begin)
      ++c[text.substr(begin, end - begin)];
    begin = end + 1;
  }
}

// The reduce step: every count of b added to a (the larger map is kept).
counts merge(counts a, counts b)
{
  if (a.size() < b.size())
    std::swap(a, b);
  for (const auto& [word, n] : b)
    a[word] += n;
  return a;
}

// A text of `words` words drawn from a vocabulary of made-up words, the first ones of the
// vocabulary much more often than the last (as in natural text, a few words are most of it).
std::string make_text(std::size_t words, std::size_t vocabulary)
{
  std::mt19937_64 random(2026);
  std::vector<std::string> dictionary;
  for (std::size_t i = 0; i < vocabulary; ++i)
  {
    std::string w;
    for (std::size_t k = i + 1; k; k /= 26)
      w += char('a' + k % 26);
    dictionary.push_back(w);
  }
  std::string text;
  for (std::size_t i = 0; i < words; ++i)
  {
    // the product of two uniform numbers, whose density -ln(x) favours small indices
    const double u = std::uniform_real_distribution<double>(0, 1)(random);
    const double v = std::uniform_real_distribution<double>(0, 1)(random);
    text += dictionary[std::size_t(u * v * double(vocabulary))];
    text += ' ';
  }
  return text;
}

int main()
{
  const std::string text = make_text(2000000, 5000);

  // Chunk boundaries: about every text.size() / chunks characters, moved to the next space.
  const std::size_t chunks = 256;
  std::vector<std::size_t> bounds = {0};
  for (std::size_t i = 1; i < chunks; ++i)
  {
    const std::size_t at = text.find(' ', std::max(bounds.back(), i * text.size() / chunks));
    bounds.push_back(at == std::string::npos ? text.size() : at);
  }
  bounds.push_back(text.size());

  fork_join_thread_pool pool(2);

  // map: chunk i -> its counts; reduce: merge. The positions are the chunk indices.
  const counts parallel = boost::parallel_transform_reduce(
      pool, std::size_t(0), chunks, counts(), merge,
      [&](std::size_t i) {
        counts c;
        count_words(std::string_view(text).substr(bounds[i], bounds[i + 1] - bounds[i]), c);
        return c;
      },
      1);

  counts serial;
  count_words(text, serial);
  const bool ok = parallel == serial;

  // The most frequent words, sorted in parallel by count (then alphabetically).
  std::vector<std::pair<std::string_view, std::size_t> > ranked(parallel.begin(), parallel.end());
  boost::parallel_sort(pool, ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  std::size_t total = 0;
  for (const auto& entry : ranked)
    total += entry.second;
  std::printf("%zu words, %zu distinct; the most frequent:", total, ranked.size());
  for (std::size_t i = 0; i < 5 && i < ranked.size(); ++i)
    std::printf(" %.*s (%zu)", int(ranked[i].first.size()), ranked[i].first.data(), ranked[i].second);
  std::printf("\nparallel count %s the serial count\n", ok ? "equals" : "DIFFERS FROM");
  return ok && total == 2000000 ? 0 : 1;
}
