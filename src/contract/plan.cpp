// Planning contractions: parsing NumPy's einsum language, checking extents, choosing the order
// of pairwise steps.
#include "strata/contract/plan.hpp"

#include "strata/core/checked.hpp"
#include "strata/core/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <limits>
#include <map>
#include <sstream>

namespace strata {

namespace {

constexpr std::string_view op = "einsum";

/// One term of the spec: its letters in order, where its ellipsis is (or -1), and where each
/// character was in the original text (for messages).
struct Term {
  std::string letters;
  int ellipsis = -1;  // the number of letters before the ellipsis
};

/// Parses one comma-free term starting at @p at in @p text (spaces already skipped by the
/// caller's positions).
Term parse_term(std::string_view text, std::size_t begin, std::size_t end) {
  Term t;
  for (std::size_t i = begin; i < end;) {
    const char c = text[i];
    if (c == ' ') {
      ++i;
      continue;
    }
    if (c == '.') {
      if (i + 3 <= end && text.substr(i, 3) == "...") {
        if (t.ellipsis >= 0) {
          detail::fail<ShapeError>(op, "spec '", text, "': a second '...' at position ", i,
                                   " (one per operand)");
        }
        t.ellipsis = static_cast<int>(t.letters.size());
        i += 3;
        continue;
      }
      detail::fail<ShapeError>(op, "spec '", text, "': '.' at position ", i,
                               " is not part of an ellipsis '...'");
    }
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
      detail::fail<ShapeError>(op, "spec '", text, "': character '", c, "' at position ", i,
                               " is not a subscript (subscripts are letters, ',', '...', '->')");
    }
    t.letters.push_back(c);
    ++i;
  }
  return t;
}

/// The name of a label id as explain() and messages print it.
std::string shown(const std::vector<std::string>& names, int id) {
  const std::string& n = names[static_cast<std::size_t>(id)];
  return n.size() == 1 ? n : "(" + n + ")";
}

std::string joined(const std::vector<std::string>& names, const std::vector<int>& ids) {
  std::string out;
  for (const int id : ids) {
    out += shown(names, id);
  }
  return out;
}

bool contains(const std::vector<int>& v, int x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

/// The flops of a multiply-add over every label of @p labels: 2 * the product of their extents,
/// checked for int64 overflow.
index_t step_flops(const std::vector<int>& labels, const Index& extents) {
  index_t f = 2;
  for (const int l : labels) {
    f = checked_mul(f, std::max<index_t>(extents[static_cast<std::size_t>(l)], 1), op);
  }
  return f;
}

index_t size_of(const std::vector<int>& labels, const Index& extents) {
  index_t s = 1;
  for (const int l : labels) {
    s = checked_mul(s, extents[static_cast<std::size_t>(l)], op);
  }
  return s;
}

std::vector<int> union_of(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> u = a;
  for (const int x : b) {
    if (!contains(u, x)) {
      u.push_back(x);
    }
  }
  return u;
}

/// Checks a finished spec: output labels appear in an input and once.
void check_output(const EinsumSpec& s) {
  for (std::size_t k = 0; k < s.output.size(); ++k) {
    const int id = s.output[k];
    if (std::count(s.output.begin(), s.output.end(), id) > 1) {
      detail::fail<ShapeError>(op, "output label '", s.names[static_cast<std::size_t>(id)],
                               "' is named twice in the output");
    }
    bool found = false;
    for (const auto& in : s.inputs) {
      found = found || contains(in, id);
    }
    if (!found) {
      detail::fail<ShapeError>(op, "output label '", s.names[static_cast<std::size_t>(id)],
                               "' appears in no input");
    }
  }
}

}  // namespace

// ---- parsing -----------------------------------------------------------------------------------

EinsumSpec EinsumSpec::parse(std::string_view spec, std::span<const int> ranks) {
  const std::size_t arrow = spec.find("->");
  if (arrow != std::string_view::npos && spec.find("->", arrow + 2) != std::string_view::npos) {
    detail::fail<ShapeError>(op, "spec '", spec, "': a second '->' at position ",
                             spec.find("->", arrow + 2));
  }
  const std::size_t inputs_end = arrow == std::string_view::npos ? spec.size() : arrow;
  std::vector<Term> terms;
  std::size_t begin = 0;
  for (std::size_t i = 0; i <= inputs_end; ++i) {
    if (i == inputs_end || spec[i] == ',') {
      terms.push_back(parse_term(spec, begin, i));
      begin = i + 1;
    } else if (spec[i] == '-' || spec[i] == '>') {
      detail::fail<ShapeError>(op, "spec '", spec, "': '", spec[i], "' at position ", i,
                               " is not part of an arrow '->'");
    }
  }
  if (terms.size() != ranks.size()) {
    detail::fail<ShapeError>(op, "spec '", spec, "' names ", terms.size(), " operand",
                             terms.size() == 1 ? "" : "s", " but ", ranks.size(),
                             ranks.size() == 1 ? " was" : " were", " given");
  }
  EinsumSpec s;
  std::map<char, int> letter_id;
  const auto id_of = [&](char c) {
    const auto [it, fresh] = letter_id.emplace(c, static_cast<int>(s.names.size()));
    if (fresh) {
      s.names.emplace_back(1, c);
    }
    return it->second;
  };
  // The broadcast rank of the ellipses: the most axes any operand's '...' stands for.
  int ellipsis_rank = 0;
  for (std::size_t k = 0; k < terms.size(); ++k) {
    const int named = static_cast<int>(terms[k].letters.size());
    const int rank = ranks[k];
    if (terms[k].ellipsis < 0 ? rank != named : rank < named) {
      detail::fail<ShapeError>(op, "operand ", k, " has rank ", rank, " but its subscripts '",
                               terms[k].letters, terms[k].ellipsis >= 0 ? "' (with '...')" : "'",
                               " name ", named, " axes");
    }
    if (terms[k].ellipsis >= 0) {
      ellipsis_rank = std::max(ellipsis_rank, rank - named);
    }
  }
  // Ellipsis axes get the first ids after no letter: ids are assigned as labels are met, so
  // give them their own names.
  std::vector<int> ellipsis_ids;
  for (int e = 0; e < ellipsis_rank; ++e) {
    ellipsis_ids.push_back(static_cast<int>(s.names.size()));
    std::string name = "...";
    name += std::to_string(e);
    s.names.push_back(name);
  }
  std::map<int, int> counts;
  for (std::size_t k = 0; k < terms.size(); ++k) {
    std::vector<int> labels;
    const Term& t = terms[k];
    const int covered = ranks[k] - static_cast<int>(t.letters.size());
    for (int i = 0; i < static_cast<int>(t.letters.size()); ++i) {
      if (i == t.ellipsis) {
        for (int e = ellipsis_rank - covered; e < ellipsis_rank; ++e) {
          labels.push_back(ellipsis_ids[static_cast<std::size_t>(e)]);
        }
      }
      labels.push_back(id_of(t.letters[static_cast<std::size_t>(i)]));
      ++counts[labels.back()];
    }
    if (t.ellipsis == static_cast<int>(t.letters.size())) {
      for (int e = ellipsis_rank - covered; e < ellipsis_rank; ++e) {
        labels.push_back(ellipsis_ids[static_cast<std::size_t>(e)]);
      }
    }
    s.inputs.push_back(std::move(labels));
  }
  if (arrow == std::string_view::npos) {
    // Implicit output: the ellipsis axes, then the letters met once, sorted by character code.
    s.output = ellipsis_ids;
    std::vector<char> once;
    for (const auto& [c, id] : letter_id) {
      if (counts[id] == 1) {
        once.push_back(c);
      }
    }
    std::sort(once.begin(), once.end());
    for (const char c : once) {
      s.output.push_back(letter_id[c]);
    }
    return s;
  }
  if (const std::size_t comma = spec.find(',', arrow); comma != std::string_view::npos) {
    detail::fail<ShapeError>(op, "spec '", spec, "': ',' at position ", comma,
                             " in the output (the output is one term)");
  }
  const Term out = parse_term(spec, arrow + 2, spec.size());
  for (int i = 0; i <= static_cast<int>(out.letters.size()); ++i) {
    if (i == out.ellipsis) {
      s.output.insert(s.output.end(), ellipsis_ids.begin(), ellipsis_ids.end());
    }
    if (i < static_cast<int>(out.letters.size())) {
      const char c = out.letters[static_cast<std::size_t>(i)];
      const auto it = letter_id.find(c);
      if (it == letter_id.end()) {
        detail::fail<ShapeError>(op, "spec '", spec, "': output label '", c,
                                 "' appears in no input");
      }
      s.output.push_back(it->second);
    }
  }
  if (out.ellipsis < 0 && ellipsis_rank > 0) {
    detail::fail<ShapeError>(op, "spec '", spec, "': the inputs' '...' stand for ", ellipsis_rank,
                             " axes, but the output has no '...' to keep them");
  }
  check_output(s);
  return s;
}

EinsumSpec EinsumSpec::from_names(const std::vector<std::vector<std::string>>& inputs,
                                  const std::vector<std::string>& output) {
  EinsumSpec s;
  std::map<std::string, int> ids;
  const auto id_of = [&](const std::string& name) {
    const auto [it, fresh] = ids.emplace(name, static_cast<int>(s.names.size()));
    if (fresh) {
      s.names.push_back(name);
    }
    return it->second;
  };
  for (const auto& in : inputs) {
    std::vector<int> labels;
    for (const std::string& n : in) {
      labels.push_back(id_of(n));
    }
    s.inputs.push_back(std::move(labels));
  }
  for (const std::string& n : output) {
    const auto it = ids.find(n);
    if (it == ids.end()) {
      detail::fail<ShapeError>(op, "output label '", n, "' appears in no input");
    }
    s.output.push_back(it->second);
  }
  check_output(s);
  return s;
}

std::string EinsumSpec::to_string() const {
  std::string out;
  const auto term = [this](const std::vector<int>& labels) {
    std::string t;
    bool in_ellipsis = false;
    for (const int id : labels) {
      const bool e = names[static_cast<std::size_t>(id)].rfind("...", 0) == 0;
      if (e && !in_ellipsis) {
        t += "...";
      }
      if (!e) {
        t += shown(names, id);
      }
      in_ellipsis = e;
    }
    return t;
  };
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    if (k > 0) {
      out += ',';
    }
    out += term(inputs[k]);
  }
  return out + "->" + term(output);
}

std::string_view to_string(ContractionEngine engine) {
  switch (engine) {
    case ContractionEngine::gemm:
      return "gemm";
    case ContractionEngine::reduction:
      return "reduction";
    default:
      return "product";
  }
}

// ---- planning ----------------------------------------------------------------------------------

ContractionPlan ContractionPlan::make(EinsumSpec spec, std::span<const Index> shapes) {
  ContractionPlan plan;
  const std::size_t n = spec.inputs.size();
  if (shapes.size() != n) {
    detail::fail<ShapeError>(op, "the spec names ", n, " operands but ", shapes.size(),
                             " were given");
  }
  if (n == 0) {
    detail::fail<ShapeError>(op, "a contraction needs at least one operand");
  }
  // Extents: equal, or 1 (broadcast), across operands; equal within one operand (a diagonal).
  Index extents(spec.names.size(), -1);
  std::vector<int> first_operand(spec.names.size(), -1);
  for (std::size_t k = 0; k < n; ++k) {
    const auto& labels = spec.inputs[k];
    if (labels.size() != shapes[k].size()) {
      detail::fail<ShapeError>(op, "operand ", k, " has shape ", strata::to_string(shapes[k]),
                               " but its subscripts name ", labels.size(), " axes");
    }
    std::map<int, index_t> own;
    for (std::size_t a = 0; a < labels.size(); ++a) {
      const int l = labels[a];
      const index_t e = shapes[k][a];
      if (const auto it = own.find(l); it != own.end() && it->second != e) {
        detail::fail<ShapeError>(op, "label '", spec.names[static_cast<std::size_t>(l)],
                                 "' is repeated in operand ", k, " (a diagonal) with extents ",
                                 it->second, " and ", e, ": a diagonal needs equal extents");
      }
      own[l] = e;
      index_t& known = extents[static_cast<std::size_t>(l)];
      if (known < 0 || (known == 1 && e != 1)) {
        known = e;  // the first extent seen, or one that a 1 broadcasts to
        first_operand[static_cast<std::size_t>(l)] = static_cast<int>(k);
      } else if (e != 1 && e != known) {
        detail::fail<ShapeError>(op, "label '", spec.names[static_cast<std::size_t>(l)],
                                 "' has extent ", known, " in operand ",
                                 first_operand[static_cast<std::size_t>(l)], " and ", e,
                                 " in operand ", k, " (extents must agree, or be 1)");
      }
    }
  }
  for (auto& e : extents) {
    e = std::max<index_t>(e, 0);
  }
  plan.extents_ = extents;
  checked_size(plan.shape_of_output(spec, extents), op);

  // Each input alone: its diagonals merge repeated labels; labels in no other operand and
  // not in the output are summed there.
  const auto elsewhere = [&](int label, std::size_t self) {
    if (contains(spec.output, label)) {
      return true;
    }
    for (std::size_t j = 0; j < n; ++j) {
      if (j != self && contains(spec.inputs[j], label)) {
        return true;
      }
    }
    return false;
  };
  for (std::size_t k = 0; k < n; ++k) {
    std::vector<int> kept;
    for (const int l : spec.inputs[k]) {
      if (!contains(kept, l) && (n == 1 || elsewhere(l, k))) {
        kept.push_back(l);
      }
    }
    if (n == 1) {
      // A single operand keeps only what the output names.
      std::vector<int> only;
      for (const int l : kept) {
        if (contains(spec.output, l)) {
          only.push_back(l);
        }
      }
      kept = only;
    }
    plan.reduced_.push_back(kept);
  }

  // Pairwise steps.
  std::vector<std::vector<int>> live = plan.reduced_;
  std::vector<bool> used(n, false);
  const auto needed_elsewhere = [&](int label, const std::vector<bool>& gone, int a, int b) {
    if (contains(spec.output, label)) {
      return true;
    }
    for (std::size_t j = 0; j < live.size(); ++j) {
      if (static_cast<int>(j) != a && static_cast<int>(j) != b && !gone[j] &&
          contains(live[j], label)) {
        return true;
      }
    }
    return false;
  };
  const auto make_step = [&](int a, int b, const std::vector<bool>& gone) {
    ContractionStep s;
    s.left = a;
    s.right = b;
    const auto& la = live[static_cast<std::size_t>(a)];
    const auto& lb = live[static_cast<std::size_t>(b)];
    for (const int l : la) {
      const bool keep = needed_elsewhere(l, gone, a, b);
      if (contains(lb, l)) {
        (keep ? s.batch : s.contracted).push_back(l);
      } else if (keep) {
        s.rows.push_back(l);
      }
    }
    for (const int l : lb) {
      if (!contains(la, l) && needed_elsewhere(l, gone, a, b)) {
        s.columns.push_back(l);
      }
    }
    s.labels = s.batch;
    s.labels.insert(s.labels.end(), s.rows.begin(), s.rows.end());
    s.labels.insert(s.labels.end(), s.columns.begin(), s.columns.end());
    s.flops = static_cast<double>(step_flops(union_of(la, lb), extents));
    s.size = size_of(s.labels, extents);
    s.engine = s.contracted.empty()                    ? ContractionEngine::product
               : (s.rows.empty() || s.columns.empty()) ? ContractionEngine::reduction
                                                       : ContractionEngine::gemm;
    return s;
  };
  const auto commit = [&](ContractionStep s, std::vector<bool>& gone) {
    gone[static_cast<std::size_t>(s.left)] = true;
    gone[static_cast<std::size_t>(s.right)] = true;
    live.push_back(s.labels);
    gone.push_back(false);
    const int index = static_cast<int>(live.size()) - 1;
    plan.steps_.push_back(std::move(s));
    return index;
  };

  if (n > 1 && static_cast<int>(n) <= optimal_limit) {
    // Every order: the cheapest way to contract each subset of the inputs (dynamic programming
    // over subsets), its result keeping the labels needed outside the subset.
    const std::size_t subsets = std::size_t{1} << n;
    std::vector<std::vector<int>> labels_of(subsets);
    std::vector<double> cost(subsets, std::numeric_limits<double>::infinity());
    std::vector<std::size_t> split(subsets, 0);
    for (std::size_t set = 1; set < subsets; ++set) {
      std::vector<int> all;
      for (std::size_t k = 0; k < n; ++k) {
        if ((set >> k & 1U) != 0) {
          all = union_of(all, live[k]);
        }
      }
      for (const int l : all) {
        bool outside = contains(spec.output, l);
        for (std::size_t k = 0; k < n && !outside; ++k) {
          outside = (set >> k & 1U) == 0 && contains(live[k], l);
        }
        if (outside) {
          labels_of[set].push_back(l);
        }
      }
      if ((set & (set - 1)) == 0) {
        cost[set] = 0;
        continue;
      }
      const std::size_t low = set & (~set + 1);
      for (std::size_t part = (set - 1) & set; part != 0; part = (part - 1) & set) {
        if ((part & low) == 0) {
          continue;  // each split once: the part holding the lowest input is the left one
        }
        const std::size_t rest = set ^ part;
        const double f =
            static_cast<double>(step_flops(union_of(labels_of[part], labels_of[rest]), extents));
        const double c = cost[part] + cost[rest] + f;
        if (c < cost[set]) {
          cost[set] = c;
          split[set] = part;
        }
      }
    }
    std::vector<bool> gone(n, false);
    const auto build = [&](auto&& self, std::size_t set) -> int {
      if ((set & (set - 1)) == 0) {
        int k = 0;
        while ((set >> static_cast<std::size_t>(k) & 1U) == 0) {
          ++k;
        }
        return k;
      }
      const int a = self(self, split[set]);
      const int b = self(self, set ^ split[set]);
      return commit(make_step(a, b, gone), gone);
    };
    build(build, subsets - 1);
  } else if (n > 1) {
    // Greedy: the cheapest pair first (fewest flops, then the smaller result).
    std::vector<bool> gone(n, false);
    for (std::size_t remaining = n; remaining > 1; --remaining) {
      ContractionStep best;
      bool have = false;
      for (std::size_t a = 0; a < live.size(); ++a) {
        for (std::size_t b = a + 1; b < live.size(); ++b) {
          if (gone[a] || gone[b]) {
            continue;
          }
          ContractionStep s = make_step(static_cast<int>(a), static_cast<int>(b), gone);
          if (!have || s.flops < best.flops || (s.flops == best.flops && s.size < best.size)) {
            best = std::move(s);
            have = true;
          }
        }
      }
      commit(std::move(best), gone);
    }
  }
  plan.spec_ = std::move(spec);
  return plan;
}

Index ContractionPlan::shape_of_output(const EinsumSpec& spec, const Index& extents) {
  Index out;
  for (const int l : spec.output) {
    out.push_back(extents[static_cast<std::size_t>(l)]);
  }
  return out;
}

Index ContractionPlan::shape() const {
  return shape_of_output(spec_, extents_);
}

double ContractionPlan::flops() const noexcept {
  double total = 0;
  for (const auto& s : steps_) {
    total += s.flops;
  }
  return total;
}

index_t ContractionPlan::largest_intermediate() const noexcept {
  index_t largest = 0;
  for (std::size_t k = 0; k + 1 < steps_.size(); ++k) {
    largest = std::max(largest, steps_[k].size);
  }
  return largest;
}

std::string ContractionPlan::explain() const {
  std::ostringstream out;
  const auto number = [](double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", x);
    return std::string(text);
  };
  out << "einsum " << spec_.to_string() << " -> shape " << strata::to_string(shape()) << ": "
      << spec_.inputs.size() << " operand" << (spec_.inputs.size() == 1 ? "" : "s") << ", "
      << steps_.size() << " pairwise step" << (steps_.size() == 1 ? "" : "s") << ", "
      << number(flops()) << " flops, largest intermediate " << largest_intermediate()
      << " elements\n";
  for (std::size_t k = 0; k < reduced_.size(); ++k) {
    if (reduced_[k] != spec_.inputs[k]) {
      out << "  operand " << k << ": " << joined(spec_.names, spec_.inputs[k]) << " -> "
          << joined(spec_.names, reduced_[k]) << " (diagonals and own sums, one pass)\n";
    }
  }
  std::vector<std::string> live_names;
  for (std::size_t k = 0; k < spec_.inputs.size(); ++k) {
    live_names.push_back(std::to_string(k));
  }
  for (std::size_t k = 0; k < steps_.size(); ++k) {
    const ContractionStep& s = steps_[k];
    Index shape;
    for (const int l : s.labels) {
      shape.push_back(extents_[static_cast<std::size_t>(l)]);
    }
    out << "  step " << k + 1 << ": " << live_names[static_cast<std::size_t>(s.left)] << " x "
        << live_names[static_cast<std::size_t>(s.right)] << " -> "
        << (s.labels.empty() ? std::string("(scalar)") : joined(spec_.names, s.labels)) << " "
        << strata::to_string(shape) << ", " << number(s.flops) << " flops, " << to_string(s.engine);
    if (s.engine == ContractionEngine::gemm) {
      out << " (batch " << (s.batch.empty() ? "-" : joined(spec_.names, s.batch)) << ", rows "
          << joined(spec_.names, s.rows) << ", columns " << joined(spec_.names, s.columns)
          << ", summed " << joined(spec_.names, s.contracted) << ")";
    } else if (!s.contracted.empty()) {
      out << " (summed " << joined(spec_.names, s.contracted) << ")";
    }
    out << "\n";
    std::string name = "t";
    name += std::to_string(k + 1);  // (not "t" + ...: GCC 12 warns falsely on that form)
    live_names.push_back(name);
  }
  return out.str();
}

}  // namespace strata
