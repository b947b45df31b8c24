#pragma once
// What one statement costs, derived from its expression tree: flops and
// bytes of memory traffic per site of the destination (or, for a
// reduction, of the lattice reduced over), and a short readable name.
//
// Flops: each functor's count (dsl/expr/flop_count.hpp), summed over the tree. A
// shifted sub-expression is evaluated once per destination site, so it
// counts once; an assignment op that combines with the destination (+=, -=,
// *=) and the accumulation of a reduction count as the arithmetic they are.
//
// Bytes, the minimal-traffic model: every distinct field the expression
// reads is read once per site, however many times and at however many
// neighbours the expression reads it (perfect reuse of neighbours through
// the caches), and the destination is written once, or read and written
// for an op that reads it. "Distinct" is by storage, and by the part of a
// site record a view shows: the Q one-population views of an LB population
// field make one read of the whole record. Write-allocate traffic is not
// counted. Examples: z = a * x + y on complex doubles 3 x 16 = 48 bytes;
// the even-odd hopping term, with the links of each checkerboard as fields of
// their own, 4 + 4 links, 1 spinor in, 1 out = 192 reals; the whole-lattice
// Dslash reads each link field once, though at the site and at x - mu, so
// 4 links + 2 spinors = 120 reals (the even-odd convention of 192 counts the
// links at x - mu again: a cache that cannot hold a slice of links would).
//
// Per site means per lattice site, every lane of a SIMD vector its own site.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include "dsl/expr/flop_count.hpp"
#include "dsl/expr/functors.hpp"
#include "lattice/fields/lattice_type.hpp"

namespace latte {

// The reads an expression makes at one destination site. weight: how many
// sites of the field are read per destination site (a merge of two
// checkerboards reads each half at half the sites).
class TrafficTally {
 public:
  void read(const void* storage, int first_word, int words, int record_words, std::size_t bytes_per_word,
            double weight) {
    reads_.push_back(Read{storage, first_word, words, record_words, bytes_per_word, weight});
  }
  // Forget the reads of one storage (a fused reduction's reads of the
  // freshly written destination come from registers, not memory).
  void forget(const void* storage) {
    std::erase_if(reads_, [&](const Read& r) { return r.storage == storage; });
  }
  bool reads(const void* storage) const {
    return std::any_of(reads_.begin(), reads_.end(), [&](const Read& r) { return r.storage == storage; });
  }

  // Bytes per site, each word of each storage counted once (at the largest
  // weight it is read with).
  double bytes_per_site() const {
    double bytes = 0;
    std::vector<const void*> done;
    std::vector<double> word_weight;
    for (const Read& r : reads_) {
      if (std::find(done.begin(), done.end(), r.storage) != done.end()) continue;
      done.push_back(r.storage);
      word_weight.assign(static_cast<std::size_t>(r.record_words), 0.0);
      for (const Read& s : reads_) {
        if (s.storage != r.storage) continue;
        for (int w = s.first_word; w < s.first_word + s.words && w < s.record_words; ++w)
          word_weight[static_cast<std::size_t>(w)] = std::max(word_weight[static_cast<std::size_t>(w)], s.weight);
      }
      for (double w : word_weight) bytes += w * static_cast<double>(r.bytes_per_word);
    }
    return bytes;
  }

 private:
  struct Read {
    const void* storage;
    int first_word, words, record_words;
    std::size_t bytes_per_word;
    double weight;
  };
  std::vector<Read> reads_;
};

// Writes an expression as a short formula: fields become letters in order of
// appearance (the destination first), element views f[i], shifts name their
// displacement. Long formulas are cut, and the counts of fields and shifts
// are given instead of the rest.
class StatementNamer {
 public:
  static constexpr std::size_t longest = 96;

  void text(const std::string& s) { text_ += s; }
  void reserve(const void* storage) { fields_.push_back(storage); }
  void field(const void* storage, int first_word, int words, int record_words) {
    auto it = std::find(fields_.begin(), fields_.end(), storage);
    if (it == fields_.end()) it = fields_.insert(fields_.end(), storage);
    const auto index = static_cast<std::size_t>(it - fields_.begin());
    if (index < 26) {
      text_ += static_cast<char>('a' + index);
    } else {
      text_ += 'f';
      text_ += std::to_string(index);
    }
    if (words < record_words) {
      text_ += '[';
      text_ += std::to_string(first_word / words);
      text_ += ']';
    }
  }
  // Returns what shift_end closes the shift with.
  std::string shift_begin(const std::int8_t* displacement, int dimensions) {
    ++shifts_;
    text_ += "shift(";
    std::string displacement_ = ",";
    static constexpr char axis[] = {'x', 'y', 'z', 't'};
    const bool unit_steps = dimensions <= 4;
    for (int d = 0; d < dimensions; ++d) {
      const int step = displacement[d];
      if (step == 0) continue;
      displacement_ += step > 0 ? "+" : "-";
      if (std::abs(step) != 1) displacement_ += std::to_string(std::abs(step));
      // (appended piece by piece: GCC 12 warns, wrongly, of "e" + std::string)
      if (unit_steps) {
        displacement_ += axis[d];
      } else {
        displacement_ += 'e';
        displacement_ += std::to_string(d);
      }
    }
    return displacement_ + ")";
  }
  void shift_end(const std::string& closing) { text_ += closing; }
  void gather_begin() {
    ++shifts_;
    text_ += "pick(";
  }

  // What follows is kept whole when the formula is cut (a fused reduction).
  void start_tail() { tail_start_ = text_.size(); }

  // "a = <formula>", or "a op= <formula>".
  std::string statement(const std::string& destination_op) const {
    const std::size_t cut = std::min(tail_start_, text_.size());
    const std::string body = text_.substr(0, cut), tail = text_.substr(cut);
    std::string s = destination_op + body;
    if (s.size() + tail.size() <= longest) return s + tail;
    const std::string summary =
        "... [" + std::to_string(fields_.size()) + " fields, " + std::to_string(shifts_) + " shifts]";
    const std::size_t room = longest > summary.size() + tail.size() + 16 ? longest - summary.size() - tail.size() : 16;
    if (s.size() > room) s.resize(room);
    return s + summary + tail;
  }

 private:
  std::string text_;
  std::size_t tail_start_ = std::string::npos;
  std::vector<const void*> fields_;
  int shifts_ = 0;
};

// A statement's model: per site of its lattice, and how many sites this rank
// runs it on.
struct StatementModel {
  double flops_per_site = 0;
  double bytes_per_site = 0;
  double sites = 0;
  double flops() const { return flops_per_site * sites; }
  double bytes() const { return bytes_per_site * sites; }
};

// Op-specific parts: the name of the assignment and the flops it adds.
template <class Op> constexpr const char* assignment_symbol() {
  if constexpr (std::is_same_v<Op, AssignAdd>) return " += ";
  else if constexpr (std::is_same_v<Op, AssignSubtract>) return " -= ";
  else if constexpr (std::is_same_v<Op, AssignMultiply>) return " *= ";
  else return " = ";
}
template <class Op, class T> double assignment_flops() {
  if constexpr (std::is_same_v<Op, AssignAdd> || std::is_same_v<Op, AssignSubtract>) return words_v<T>;
  else if constexpr (std::is_same_v<Op, AssignMultiply>) return counted_flops<functors::Times, T, T>();
  else return 0;
}

// dst op= node.
template <class T, class W, class Node, class Op>
StatementModel statement_model(const Lattice<T, W>& dst, const Node& node, Op) {
  TrafficTally tally;
  node.add_reads(tally, 1.0);
  constexpr int words = words_v<T>;
  const void* storage = dst.storage_identity();
  if (Op::reads_destination) tally.read(storage, 0, words, words, sizeof(real_of_t<T>), 1.0);
  StatementModel model;
  model.bytes_per_site = tally.bytes_per_site() + words * sizeof(real_of_t<T>);
  model.flops_per_site = Node::flops_per_site() + assignment_flops<Op, T>();
  model.sites = static_cast<double>(dst.layout().volume());
  return model;
}

// A reduction over the sites of node (reads only; a sum adds one flop per
// real of the value to accumulate it, a maximum or minimum none).
template <class Node>
StatementModel reduction_model(const Node& node, bool accumulates) {
  TrafficTally tally;
  node.add_reads(tally, 1.0);
  StatementModel model;
  model.bytes_per_site = tally.bytes_per_site();
  model.flops_per_site = Node::flops_per_site() + (accumulates ? words_v<typename Node::value_type> : 0);
  model.sites = static_cast<double>(node.layout()->volume());
  return model;
}

// dst op= node with the sum of `reduction` in the same pass: the reduction's
// reads of dst are of the values just computed, not of memory.
template <class T, class W, class Node, class Reduction, class Op>
StatementModel fused_model(const Lattice<T, W>& dst, const Node& node, const Reduction& reduction, Op) {
  const void* storage = dst.storage_identity();
  TrafficTally tally;
  node.add_reads(tally, 1.0);
  const bool reads_destination = Op::reads_destination || tally.reads(storage);
  reduction.add_reads(tally, 1.0);
  tally.forget(storage);
  if (reads_destination) tally.read(storage, 0, words_v<T>, words_v<T>, sizeof(real_of_t<T>), 1.0);
  StatementModel model;
  model.bytes_per_site = tally.bytes_per_site() + words_v<T> * sizeof(real_of_t<T>);
  model.flops_per_site = Node::flops_per_site() + assignment_flops<Op, T>() + Reduction::flops_per_site() +
                         words_v<typename Reduction::value_type>;
  model.sites = static_cast<double>(dst.layout().volume());
  return model;
}

// "a = formula" (the destination is a), or for a reduction "sum formula".
template <class Node>
std::string statement_name(const void* destination, const char* op, const Node& node) {
  StatementNamer namer;
  if (destination) namer.reserve(destination);
  node.describe(namer, 0);
  return namer.statement(destination ? std::string("a") + op : std::string(op));
}

// The same for a statement with a fused sum: "a = formula; sum formula".
template <class Node, class Reduction>
std::string fused_statement_name(const void* destination, const char* op, const Node& node, const Reduction& reduction) {
  StatementNamer namer;
  namer.reserve(destination);
  node.describe(namer, 0);
  namer.start_tail();
  namer.text("; sum ");
  reduction.describe(namer, 0);
  return namer.statement(std::string("a") + op);
}

}  // namespace latte
