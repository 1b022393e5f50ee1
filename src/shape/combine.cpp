// combine(): result shapes of labelled (einsum) expressions, with one jagged input allowed.
#include "strata/shape/combine.hpp"

#include "strata/core/error.hpp"
#include "strata/shape/nested.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace strata {
namespace {

constexpr std::string_view operation_name = "combine";

struct Spec {
  std::vector<std::string> inputs;
  std::string output;
};

Spec parse(std::string_view spec, std::size_t n_inputs) {
  Spec parsed;
  const auto arrow = spec.find("->");
  const std::string_view lhs = spec.substr(0, arrow);
  std::string current;
  for (const char c : lhs) {
    if (c == ',') {
      parsed.inputs.push_back(current);
      current.clear();
    } else if (c == ' ') {
      continue;
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      current += c;
    } else {
      detail::fail<ShapeError>(operation_name, "spec \"", spec, "\": '", c,
                               "' is not a mode label");
    }
  }
  parsed.inputs.push_back(current);
  if (parsed.inputs.size() != n_inputs) {
    detail::fail<ShapeError>(operation_name, "spec \"", spec, "\" has ", parsed.inputs.size(),
                             " input terms but ", n_inputs, " shapes were given");
  }
  if (arrow != std::string_view::npos) {
    for (const char c : spec.substr(arrow + 2)) {
      if (c == ' ') {
        continue;
      }
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
        detail::fail<ShapeError>(operation_name, "spec \"", spec, "\": output '", c,
                                 "' is not a mode label");
      }
      if (parsed.output.find(c) != std::string::npos) {
        detail::fail<ShapeError>(operation_name, "spec \"", spec, "\": output label '", c,
                                 "' repeats");
      }
      parsed.output += c;
    }
  } else {
    std::array<int, 128> count{};
    for (const auto& term : parsed.inputs) {
      for (const char c : term) {
        ++count[static_cast<unsigned char>(c)];
      }
    }
    for (int c = 0; c < 128; ++c) {
      if (count[static_cast<std::size_t>(c)] == 1) {
        parsed.output += static_cast<char>(c);
      }
    }
  }
  return parsed;
}

/// Records label -> extent, checking agreement.
class Extents {
 public:
  Extents() { extent_.fill(-1); }
  void set(char label, index_t extent, std::size_t input, const std::string& where) {
    index_t& e = extent_[static_cast<unsigned char>(label)];
    if (e >= 0 && e != extent) {
      detail::fail<ShapeError>(operation_name, "label '", label, "' has extent ", e, " in ",
                               source_[static_cast<unsigned char>(label)], " but ", extent,
                               " in input ", input, where);
    }
    if (e < 0) {
      source_[static_cast<unsigned char>(label)] = "input " + std::to_string(input) + where;
    }
    e = extent;
  }
  [[nodiscard]] index_t get(char label) const { return extent_[static_cast<unsigned char>(label)]; }

 private:
  std::array<index_t, 128> extent_{};
  std::array<std::string, 128> source_{};
};

}  // namespace

Shape combine(std::string_view spec, std::span<const Shape> inputs) {
  const Spec parsed = parse(spec, inputs.size());
  std::vector<Shape> shapes;
  int jagged_input = -1;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    shapes.push_back(detail::plain_shape(inputs[i]));  // views combine as their extents
    if (static_cast<int>(parsed.inputs[i].size()) != shapes[i].rank()) {
      detail::fail<ShapeError>(operation_name, "input ", i, " \"", parsed.inputs[i], "\" has ",
                               parsed.inputs[i].size(), " labels but ", inputs[i].to_string(),
                               " has rank ", shapes[i].rank());
    }
    if (shapes[i].is<Jagged>()) {
      if (jagged_input >= 0) {
        detail::fail<ShapeError>(operation_name, "inputs ", jagged_input, " and ", i,
                                 " are both jagged; the result is not well defined");
      }
      jagged_input = static_cast<int>(i);
    }
  }
  // Uniform extents: every smooth mode, and the outer modes of the jagged input.
  Extents uniform;
  std::string ragged;  // inner labels of the jagged input
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const std::string& labels = parsed.inputs[i];
    if (static_cast<int>(i) == jagged_input) {
      const Jagged& j = shapes[i].as<Jagged>();
      for (int m = 0; m < j.outer_rank(); ++m) {
        uniform.set(labels[static_cast<std::size_t>(m)],
                    j.outer_extents()[static_cast<std::size_t>(m)], i, "");
      }
      ragged = labels.substr(static_cast<std::size_t>(j.outer_rank()));
      continue;
    }
    for (std::size_t m = 0; m < labels.size(); ++m) {
      uniform.set(labels[m], shapes[i].extent(static_cast<int>(m)), i, "");
    }
  }
  for (const char c : parsed.output) {
    bool known = false;
    for (const auto& term : parsed.inputs) {
      known = known || term.find(c) != std::string::npos;
    }
    if (!known) {
      detail::fail<ShapeError>(operation_name, "output label '", c, "' of \"", spec,
                               "\" is in no input");
    }
  }
  if (jagged_input < 0) {
    Index extents;
    for (const char c : parsed.output) {
      extents.push_back(uniform.get(c));
    }
    return Smooth(extents);
  }
  const Jagged& j = shapes[static_cast<std::size_t>(jagged_input)].as<Jagged>();
  const std::string& labels = parsed.inputs[static_cast<std::size_t>(jagged_input)];
  const auto o = static_cast<std::size_t>(j.outer_rank());
  if (parsed.output.substr(0, o) != labels.substr(0, o)) {
    detail::fail<ShapeError>(operation_name, "the result of \"", spec,
                             "\" is not well defined: the outer "
                             "labels \"",
                             labels.substr(0, o), "\" of jagged input ", jagged_input, " ",
                             j.to_string(), " must lead the output");
  }
  if (!j.smooth_rows()) {
    detail::fail<ShapeError>(operation_name, "jagged input ", jagged_input, " ", j.to_string(),
                             " has jagged rows; combine takes jagged shapes with smooth rows");
  }
  const std::string row_output = parsed.output.substr(o);
  const auto s = row_output.size();
  std::vector<index_t> table;
  table.reserve(static_cast<std::size_t>(j.n_rows()) * s);
  bool all_equal = true;
  for (index_t r = 0; r < j.n_rows(); ++r) {
    Extents row = uniform;
    const auto e = j.rows().data().row_extents(r);
    for (std::size_t m = 0; m < ragged.size(); ++m) {
      row.set(ragged[m], e[m], static_cast<std::size_t>(jagged_input),
              " (row " + std::to_string(r) + ")");
    }
    for (std::size_t m = 0; m < s; ++m) {
      table.push_back(row.get(row_output[m]));
      all_equal = all_equal && (r == 0 || table.back() == table[m]);
    }
  }
  if (s == 0 || (all_equal && j.n_rows() > 0)) {
    Index extents(j.outer_extents().begin(), j.outer_extents().end());
    extents.insert(extents.end(), table.begin(), table.begin() + static_cast<std::ptrdiff_t>(s));
    return Smooth(extents);
  }
  return Jagged::from_extents(j.outer_extents(), static_cast<int>(s), table);
}

}  // namespace strata
