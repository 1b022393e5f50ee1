/// @file
/// Planning a contraction: NumPy's einsum language parsed into labels (ellipses expanded
/// against the operands' ranks), extents checked (an extent of 1 broadcasts), and a pairwise
/// order chosen to minimise flops (optimal for few operands, greedy beyond), with the engine
/// each step will use. Plans know shapes only; strata/contract/einsum.hpp runs them.
#pragma once

#include "strata/core/index.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

/// The labels of a contraction: one list per operand axis and one for the result, each label an
/// id into `names`. Built from NumPy's einsum language by parse(), or from named labels by
/// from_names() (the labelled form `a("i,j")`).
struct EinsumSpec {
  std::vector<std::vector<int>> inputs;  ///< one label per axis of each operand
  std::vector<int> output;               ///< the result's labels, in its axis order
  std::vector<std::string> names;        ///< label id -> its name (`i`, `...1` for ellipsis axes)

  /// Parses NumPy's einsum language: letters (`a-z`, `A-Z`, distinct) label axes, `,`
  /// separates operands, `...` stands for the axes an operand has beyond its letters (aligned
  /// from the right and broadcast together, as NumPy's), an optional `->` gives the output.
  /// Without `->` the output is every label that appears once, sorted (upper case first),
  /// after the ellipsis axes. Spaces are ignored.
  ///
  /// @code
  /// auto s = strata::EinsumSpec::parse("ij,jk->ik", std::vector<int>{2, 2});
  /// @endcode
  /// @param spec the subscripts
  /// @param ranks the rank of each operand
  /// @return the labels
  /// @throws ShapeError naming the position of a character that does not parse, an output
  ///         label in no input or named twice, a number of operands other than the spec's, or
  ///         an operand whose rank does not match its subscripts
  static EinsumSpec parse(std::string_view spec, std::span<const int> ranks);

  /// Labels by name, one list per operand and one for the result (`{{"i", "j"}, {"j", "k"}}`,
  /// `{"i", "k"}`): the labelled form's spec.
  /// @param inputs the names of each operand's axes
  /// @param output the names of the result's axes
  /// @return the labels
  /// @throws ShapeError for an output label in no input or named twice
  static EinsumSpec from_names(const std::vector<std::vector<std::string>>& inputs,
                               const std::vector<std::string>& output);

  /// The spec in NumPy's language (`ij,jk->ik`; names longer than a letter are bracketed).
  /// @return the text
  [[nodiscard]] std::string to_string() const;
};

/// How a pairwise step is computed.
enum class ContractionEngine {
  gemm,       ///< rows, columns and a contracted sum: matrix products (BLIS for float, double)
  reduction,  ///< no rows or no columns: one fused pass of products summed (a dot, a GEMV)
  product,    ///< nothing contracted: one pass of broadcast products (outer, Hadamard)
};

/// The name of an engine (`"gemm"`, `"reduction"`, `"product"`).
/// @param engine the engine
/// @return its name
std::string_view to_string(ContractionEngine engine);

/// One pairwise step of a contraction: operands `left` and `right` of the live list (inputs
/// first, then each step's result, appended) make a new operand with `labels`.
struct ContractionStep {
  int left = 0;                 ///< the first operand (an index into the live list)
  int right = 0;                ///< the second operand
  std::vector<int> labels;      ///< the result's labels (its axis order)
  std::vector<int> batch;       ///< labels in both operands and the result
  std::vector<int> rows;        ///< labels of the left operand and the result only
  std::vector<int> columns;     ///< labels of the right operand and the result only
  std::vector<int> contracted;  ///< labels of both operands summed in this step
  double flops = 0;             ///< multiply-adds times 2
  index_t size = 0;             ///< the result's number of elements
  ContractionEngine engine = ContractionEngine::product;  ///< how it is computed
};

/// A planned contraction: the labels, their extents, the labels each operand sums alone before
/// any pair, and the pairwise steps in the order that minimises flops.
class ContractionPlan {
 public:
  /// Plans a contraction of operands of these shapes.
  /// @param spec the labels (from EinsumSpec::parse or from_names)
  /// @param shapes the operands' shapes, one per input of @p spec
  /// @return the plan
  /// @throws ShapeError when a label has two extents that differ, neither being 1 (naming the
  ///         label and both extents), or when the flops or a size overflow
  static ContractionPlan make(EinsumSpec spec, std::span<const Index> shapes);

  /// The labels.
  /// @return the spec
  [[nodiscard]] const EinsumSpec& spec() const noexcept { return spec_; }
  /// The extent of each label id.
  /// @return the extents
  [[nodiscard]] const Index& extents() const noexcept { return extents_; }
  /// The result's shape.
  /// @return the extents of the output labels
  [[nodiscard]] Index shape() const;
  /// The labels each input keeps after its diagonals (a label repeated in one operand) and its
  /// own sums (a label in no other operand nor the output): its labels for the pairwise steps.
  /// @return one list per input
  [[nodiscard]] const std::vector<std::vector<int>>& reduced_inputs() const noexcept {
    return reduced_;
  }
  /// The pairwise steps, in order (none for a single operand).
  /// @return the steps
  [[nodiscard]] const std::vector<ContractionStep>& steps() const noexcept { return steps_; }
  /// The total flops of the pairwise steps (multiply-adds counted as 2).
  /// @return the flops
  [[nodiscard]] double flops() const noexcept;
  /// The largest intermediate (elements of a step's result that is not the final one).
  /// @return its size
  [[nodiscard]] index_t largest_intermediate() const noexcept;
  /// The path, one line per step: operands, result labels and shape, flops, the intermediate's
  /// size and the engine (as opt_einsum's contract_path report).
  /// @return the text
  [[nodiscard]] std::string explain() const;

  /// Operands up to this count are ordered optimally (every order considered); more are ordered
  /// greedily (the cheapest pair first).
  static constexpr int optimal_limit = 6;

 private:
  static Index shape_of_output(const EinsumSpec& spec, const Index& extents);

  EinsumSpec spec_;
  Index extents_;
  std::vector<std::vector<int>> reduced_;
  std::vector<ContractionStep> steps_;
};

}  // namespace strata
