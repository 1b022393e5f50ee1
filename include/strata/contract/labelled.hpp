/// @file
/// The TensorWrapper / TiledArray spelling of contractions: tensors with named axes,
/// `c("i,k") = a("i,j") * b("j,k")`, `c("i,k") += 2.0 * a("i,j") * b("j,k")`, sums of such
/// products and permutations (`c("i,j") = a("i,k") * b("k,j") + d("j,i")`). Each product is an
/// einsum (strata/contract/einsum.hpp) written into the destination with BLAS's alpha and beta;
/// dense tensors, tiled LayoutTensors and BlockSparseTensors mix as factors and destinations
/// (a product with a tiled side runs tile by tile, strata/contract/tiled.hpp).
#pragma once

#include "strata/contract/einsum.hpp"
#include "strata/contract/tiled.hpp"

#include <complex>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata {

namespace detail {

/// Splits `"i,j"` (or `"mu, nu"`) into label names; `""` names no axis (a scalar).
inline std::vector<std::string> label_names(std::string_view text) {
  std::vector<std::string> names;
  std::string current;
  bool any = false;
  for (const char c : text) {
    if (c == ',') {
      names.push_back(current);
      current.clear();
      any = true;
    } else if (c != ' ') {
      current.push_back(c);
      any = true;
    }
  }
  if (any) {
    names.push_back(current);
  }
  for (const std::string& n : names) {
    if (n.empty()) {
      fail<ShapeError>("labels", "'", text, "' has an empty label (write \"i,j\")");
    }
  }
  return names;
}

}  // namespace detail

template <class R>
class LabelledProduct;

/// A tensor with named axes, `t("i,j")` (operator() with a string on a Tensor, LayoutTensor or
/// BlockSparseTensor): one factor of a labelled contraction, or the destination it is written
/// into. It shares the tensor (its buffer or tiles), as a view does.
/// @tparam T the element type (const for a read-only tensor)
template <class T>
class LabelledTensor {
 public:
  /// The element type.
  using value_type = std::remove_const_t<T>;

  /// Names the axes of a tensor.
  /// @param tensor the tensor (shared)
  /// @param labels one name per axis, comma-separated (`"i,j"`, `"mu,nu"`)
  /// @throws ShapeError when the number of names is not the rank
  LabelledTensor(Tensor<T> tensor, std::string_view labels)
      : operand_(std::move(tensor)), names_(detail::label_names(labels)) {
    check_rank(labels);
  }
  /// Names the axes of a tiled tensor: products with it run tile by tile.
  /// @param tensor the tensor (its buffer shared)
  /// @param labels one name per axis, comma-separated
  /// @throws ShapeError when the number of names is not the rank
  LabelledTensor(LayoutTensor<value_type> tensor, std::string_view labels)
      : operand_(std::move(tensor)), names_(detail::label_names(labels)) {
    check_rank(labels);
  }
  /// Names the axes of a block-sparse tensor: products skip its absent tiles (and those under
  /// its threshold, as einsum), and as a destination it stores the tiles a product writes.
  /// @param tensor the tensor (its tiles shared)
  /// @param labels one name per axis, comma-separated
  /// @throws ShapeError when the number of names is not the rank
  LabelledTensor(BlockSparseTensor<value_type> tensor, std::string_view labels)
      : operand_(std::move(tensor)), names_(detail::label_names(labels)) {
    check_rank(labels);
  }
  /// The tensor's shape.
  /// @return its extents
  [[nodiscard]] const Index& shape() const noexcept { return operand_.shape(); }
  /// The axis names.
  /// @return one per axis
  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }
  /// @cond STRATA_PRIVATE
  [[nodiscard]] const detail::Blocked<T>& operand() const noexcept { return operand_; }
  /// @endcond

  /// Writes a labelled product or sum into the tensor: `c("i,k") = a("i,j") * b("j,k")`.
  /// @param x the product (or sum of products)
  /// @return this
  /// @throws ShapeError as einsum (a label with two extents, an output label in no factor)
  template <class U>
  LabelledTensor& operator=(const LabelledProduct<U>& x) {
    write(x, 0.0);
    return *this;
  }
  /// Adds a labelled product or sum: `c("i,k") += 2.0 * a("i,j") * b("j,k")`.
  /// @param x the product (or sum of products)
  /// @return this
  template <class U>
  LabelledTensor& operator+=(const LabelledProduct<U>& x) {
    write(x, 1.0);
    return *this;
  }
  /// Subtracts a labelled product or sum.
  /// @param x the product (or sum of products)
  /// @return this
  template <class U>
  LabelledTensor& operator-=(const LabelledProduct<U>& x) {
    write(-1.0 * x, 1.0);
    return *this;
  }
  /// Writes a permutation of another labelled tensor: `c("j,i") = a("i,j")`.
  /// @param x the labelled tensor
  /// @return this
  template <class U>
  LabelledTensor& operator=(const LabelledTensor<U>& x) {
    write(LabelledProduct<std::remove_const_t<U>>(x), 0.0);
    return *this;
  }
  /// Copy-assignment writes the values too (`c("i,j") = d("i,j")`), never rebinds.
  /// @param x the labelled tensor
  /// @return this
  LabelledTensor& operator=(const LabelledTensor& x) {
    write(LabelledProduct<value_type>(x), 0.0);
    return *this;
  }
  /// Adds a permutation of another labelled tensor.
  /// @param x the labelled tensor
  /// @return this
  template <class U>
  LabelledTensor& operator+=(const LabelledTensor<U>& x) {
    write(LabelledProduct<std::remove_const_t<U>>(x), 1.0);
    return *this;
  }
  /// Copies the handle (the same tensor and names).
  /// @param other a labelled tensor
  LabelledTensor(const LabelledTensor& other) = default;
  /// Releases the handle.
  ~LabelledTensor() = default;

 private:
  template <class U>
  void write(const LabelledProduct<U>& x, double beta) {
    static_assert(!std::is_const_v<T>, "strata: a labelled read-only tensor cannot be written");
    x.write_into(operand_, names_, beta);
  }
  void check_rank(std::string_view labels) const {
    if (names_.size() != operand_.shape().size()) {
      detail::fail<ShapeError>("labels", "'", labels, "' names ", names_.size(),
                               " axes of a tensor of rank ", operand_.shape().size(), " (shape ",
                               to_string(operand_.shape()), ")");
    }
  }

  detail::Blocked<T> operand_;
  std::vector<std::string> names_;
};

/// A scaled product of labelled tensors, or a sum of such products: what `a("i,j") * b("j,k")`,
/// `2.0 * ...` and `... + d("j,i")` build. Nothing is computed until it is assigned to a
/// labelled tensor.
/// @tparam R the element type the factors are contracted in
template <class R>
class LabelledProduct {
 public:
  /// One term: a scale and its factors.
  struct Term {
    std::complex<double> scale = 1;                 ///< the term's scale
    std::vector<detail::Blocked<const R>> factors;  ///< the tensors (dense, tiled or sparse)
    std::vector<std::vector<std::string>> names;    ///< each factor's axis names
  };

  /// One labelled tensor as a product of one factor (a permutation, when assigned).
  /// @param x the labelled tensor
  template <class U>
  requires std::is_same_v<std::remove_const_t<U>, R>
  // NOLINTNEXTLINE(google-explicit-constructor): a labelled tensor is a one-factor product.
  LabelledProduct(const LabelledTensor<U>& x) {
    terms_.push_back(Term{1.0, {detail::blocked_as<R>(x.operand())}, {x.names()}});
  }
  /// The terms.
  /// @return them
  [[nodiscard]] const std::vector<Term>& terms() const noexcept { return terms_; }
  /// The terms (for building products).
  /// @return them
  std::vector<Term>& terms() noexcept { return terms_; }

  /// Writes `dest = sum of terms + beta * dest`, one einsum per term: on the dense engine when
  /// the destination and every factor are dense, tile by tile otherwise.
  /// @param dest the destination
  /// @param names its axis names
  /// @param beta the scale of what it held
  template <class T>
  void write_into(const detail::Blocked<T>& dest, const std::vector<std::string>& names,
                  double beta) const {
    using V = std::remove_const_t<T>;
    constexpr std::string_view operation = "labelled assignment";
    // A factor that reads the destination is copied before any term writes it
    // (`c("i,j") = a("i,k") * b("k,j") + c("j,i")` reads the old c), as NumPy would.
    std::vector<Term> terms = terms_;
    bool dense = dest.dense() != nullptr;
    for (Term& term : terms) {
      for (detail::Blocked<const R>& f : term.factors) {
        if (f.footprint().overlaps(dest.footprint())) {
          f.read_from_copy();
        }
        dense = dense && f.dense() != nullptr;
      }
    }
    // Every term is planned (and so checked, its scale too) before the first writes.
    std::vector<ContractionPlan> plans;
    for (const Term& term : terms) {
      (void)detail::scale_as<V>(term.scale, operation, "a term's scale");
      plans.push_back(
          ContractionPlan::make(EinsumSpec::from_names(term.names, names), shapes(term)));
      if (dest.shape() != plans.back().shape()) {
        detail::fail<ShapeError>(operation, "the output has shape ", to_string(dest.shape()),
                                 " but ", plans.back().spec().to_string(), " makes ",
                                 to_string(plans.back().shape()));
      }
    }
    if (const Tensor<T>* out = dest.dense();
        !dense && out != nullptr &&
        (!out->is_writable() || (out->size() > 0 && out->buffer().data() == nullptr))) {
      detail::fail<LayoutError>(operation, "the output ", out->dims(),
                                " cannot be written block by block (several indices share an "
                                "address, or it has no array)");
    }
    for (std::size_t t = 0; t < terms.size(); ++t) {
      const Scaling scaling{terms[t].scale, t == 0 ? beta : 1.0};
      if (dense) {
        std::vector<Tensor<const V>> operands;
        for (const detail::Blocked<const R>& f : terms[t].factors) {
          if constexpr (std::is_same_v<V, R>) {
            operands.push_back(*f.dense());
          } else {
            operands.push_back(evaluate<V>(astype<V>(*f.dense())));
          }
        }
        detail::ContractionEngine<V>::run_into(par, plans[t], *dest.dense(), scaling,
                                               std::move(operands), operation);
      } else {
        std::vector<detail::Blocked<const V>> operands;
        for (const detail::Blocked<const R>& f : terms[t].factors) {
          operands.push_back(detail::blocked_as<V>(f));
        }
        detail::TiledEngine<V>::run(par, plans[t], std::move(operands), dest,
                                    detail::scale_as<V>(scaling.alpha, operation, "alpha"),
                                    detail::scale_as<V>(scaling.beta, operation, "beta"));
      }
    }
  }

  /// A product of no terms (the start of a sum built term by term).
  /// @return it
  static LabelledProduct empty() { return LabelledProduct(); }

 private:
  LabelledProduct() = default;
  static std::vector<Index> shapes(const Term& term) {
    std::vector<Index> out;
    for (const auto& f : term.factors) {
      out.push_back(f.shape());
    }
    return out;
  }

  std::vector<Term> terms_;
};

namespace detail {

template <class X>
struct labelled_traits : std::false_type {};
template <class T>
struct labelled_traits<LabelledTensor<T>> : std::true_type {
  using element = std::remove_const_t<T>;
};
template <class R>
struct labelled_traits<LabelledProduct<R>> : std::true_type {
  using element = R;
};

/// Whether X is a labelled tensor or a labelled product.
template <class X>
inline constexpr bool is_labelled_v = labelled_traits<std::remove_cvref_t<X>>::value;

/// A labelled operand as a product with its factors converted to R.
template <class R, class X>
LabelledProduct<R> as_product(const X& x) {
  using E = typename labelled_traits<std::remove_cvref_t<X>>::element;
  const LabelledProduct<E> p(x);
  if constexpr (std::is_same_v<E, R>) {
    return p;
  } else {
    LabelledProduct<R> out = LabelledProduct<R>::empty();
    for (const auto& term : p.terms()) {
      typename LabelledProduct<R>::Term t{term.scale, {}, term.names};
      for (const auto& f : term.factors) {
        t.factors.push_back(blocked_as<R>(f));
      }
      out.terms().push_back(std::move(t));
    }
    return out;
  }
}

template <class X, class Y>
using labelled_common_t =
    typename combined_all<typename labelled_traits<std::remove_cvref_t<X>>::element,
                          typename labelled_traits<std::remove_cvref_t<Y>>::element>::type;

}  // namespace detail

/// The product of two labelled tensors or products: `a("i,j") * b("j,k")`; their factors side
/// by side, scales multiplied (sums multiply out term by term). Lazy: computed on assignment.
/// @param x, y the factors
/// @return the product
template <class X, class Y>
requires(detail::is_labelled_v<X>&& detail::is_labelled_v<Y>) auto operator*(const X& x,
                                                                             const Y& y) {
  using R = detail::labelled_common_t<X, Y>;
  const LabelledProduct<R> p = detail::as_product<R>(x);
  const LabelledProduct<R> q = detail::as_product<R>(y);
  LabelledProduct<R> out = LabelledProduct<R>::empty();
  for (const auto& a : p.terms()) {
    for (const auto& b : q.terms()) {
      typename LabelledProduct<R>::Term t{a.scale * b.scale, a.factors, a.names};
      for (const auto& f : b.factors) {  // appended: tensors are not assignable
        t.factors.push_back(f);
      }
      t.names.insert(t.names.end(), b.names.begin(), b.names.end());
      out.terms().push_back(std::move(t));
    }
  }
  return out;
}
/// The sum of two labelled tensors or products: each term is contracted on its own into the
/// destination (`c("i,j") = a("i,k") * b("k,j") + d("j,i")`).
/// @param x, y the terms
/// @return the sum
template <class X, class Y>
requires(detail::is_labelled_v<X>&& detail::is_labelled_v<Y>) auto operator+(const X& x,
                                                                             const Y& y) {
  using R = detail::labelled_common_t<X, Y>;
  LabelledProduct<R> out = detail::as_product<R>(x);
  const LabelledProduct<R> more = detail::as_product<R>(y);
  for (const auto& t : more.terms()) {
    out.terms().push_back(t);
  }
  return out;
}
/// The difference of two labelled tensors or products.
/// @param x, y the terms
/// @return the difference
template <class X, class Y>
requires(detail::is_labelled_v<X>&& detail::is_labelled_v<Y>) auto operator-(const X& x,
                                                                             const Y& y) {
  return x + (-1.0 * y);
}
// The scale is a deduced parameter, not `double`: found by argument-dependent lookup for
// `t(i, j) * 2.0` (an element reference of strata), a `double` first parameter would let X be
// deduced as double, and clang 14 rejects the declaration operator*(double, const double&)
// before it checks the constraint.

/// A scaled labelled tensor or product: `2.0 * a("i,j") * b("j,k")`. A complex scale
/// (`std::complex<double>(0, 1) * a("i,j") * b("j,k")`) needs a complex destination: assigned
/// to a real one it is a TypeError, nothing written.
/// @param s the scale (any arithmetic value or std::complex)
/// @param x the product
/// @return the scaled product
template <class S, class X>
requires(is_number_v<S>&& detail::is_labelled_v<X>) auto operator*(S s, const X& x) {
  using R = typename detail::labelled_traits<std::remove_cvref_t<X>>::element;
  LabelledProduct<R> out = detail::as_product<R>(x);
  for (auto& t : out.terms()) {
    t.scale *= detail::number_cast<std::complex<double>>(s);
  }
  return out;
}
/// A scaled labelled tensor or product: `a("i,j") * 0.5`.
/// @param x the product
/// @param s the scale (any arithmetic value or std::complex)
/// @return the scaled product
template <class X, class S>
requires(is_number_v<S>&& detail::is_labelled_v<X>) auto operator*(const X& x, S s) {
  return s * x;
}
/// The negated labelled tensor or product.
/// @param x the product
/// @return `-1 * x`
template <class X>
requires detail::is_labelled_v<X>
auto operator-(const X& x) {
  return -1.0 * x;
}

}  // namespace strata
