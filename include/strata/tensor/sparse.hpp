/// @file
/// Sparse tensors: assembly from coordinate lists, the stored entries of any view in its own
/// coordinates, sparse-aware reductions, map and element-wise operations, compressed (CSR /
/// CSC) arrays for hand-off, and iteration by fibres.
#pragma once

#include "strata/buffer/sparse_buffer.hpp"
#include "strata/core/checked.hpp"
#include "strata/core/divisor.hpp"
#include "strata/parallel/policy.hpp"
#include "strata/tensor/tensor.hpp"

#include <algorithm>
#include <bit>
#include <compare>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata {

/// A writable row-major tensor over a SparseBuffer: every element is @p fill until written.
///
/// @code
/// auto K = strata::sparse<double>({1'000'000, 1'000'000});   // nothing stored
/// K(3, 4) += 2.5;                                            // one entry
/// @endcode
/// @param shape the extents
/// @param fill the value of elements not stored
/// @return the tensor (views of it stay sparse)
/// @throws ShapeError for a negative extent or a size that overflows
template <class T>
Tensor<T> sparse(IndexSpan shape, T fill = T{}) {
  const index_t size = checked_size(shape, "sparse");
  return Tensor<T>(AnyBuffer<T>::shared(std::make_shared<SparseBuffer<T>>(size, fill)),
                   Dimensions(shape));
}

/// The SparseBuffer under a tensor, or null when its storage is something else.
/// @param t a tensor (any view)
/// @return the buffer, or null
template <class T>
const SparseBuffer<std::remove_const_t<T>>* sparse_buffer(const Tensor<T>& t) noexcept {
  return t.buffer().template get<SparseBuffer<std::remove_const_t<T>>>();
}

/// Whether a tensor's storage is a SparseBuffer (views of a sparse tensor are sparse).
/// @param t a tensor (any view)
/// @return true when sparse
template <class T>
bool is_sparse(const Tensor<T>& t) noexcept {
  return sparse_buffer(t) != nullptr;
}

namespace detail {

/// Sorts (key, value) pairs by key, keeping the input order of equal keys (an LSD radix sort,
/// 11 bits a pass, passes only over the bits that vary; histograms and scatters by chunks of
/// fixed size, so the result does not depend on the thread count).
/// @param keys keys in [0, max_key]
/// @param values one value per key, moved with it
/// @param max_key the largest possible key
/// @param policy seq or par
template <class T, ExecutionPolicy P>
void sort_by_key(std::vector<index_t>& keys, ValueArray<T>& values, index_t max_key,
                 const P& policy) {
  const auto n = static_cast<index_t>(keys.size());
  if (n < 2 || std::is_sorted(keys.begin(), keys.end())) {
    return;
  }
  if (n < 512) {
    std::vector<std::size_t> order(keys.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&keys](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
    std::vector<index_t> k(keys.size());
    ValueArray<T> v;
    v.reserve(values.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
      k[i] = keys[order[i]];
      v.push_back(std::move(values[order[i]]));
    }
    keys = std::move(k);
    values = std::move(v);
    return;
  }
  // 8-bit digits: 256 buckets keep the scatter's write streams in L1 and the TLB; 11-bit digits
  // (fewer passes) were 1.5x slower at 10^6 keys and jumped 2-3x per key past 125k keys.
  constexpr int bits = 8;
  constexpr index_t buckets = index_t{1} << bits;
  constexpr index_t chunk = index_t{1} << 16;
  const index_t chunks = (n + chunk - 1) / chunk;
  const auto width =
      static_cast<int>(std::bit_width(static_cast<std::uint64_t>(std::max<index_t>(max_key, 1))));
  std::vector<index_t> counts(static_cast<std::size_t>(chunks * buckets));
  std::vector<index_t> key_tmp(keys.size());
  ValueArray<T> value_tmp(values.size());
  for (int shift = 0; shift < width; shift += bits) {
    const auto digit = [shift](index_t key) {
      return static_cast<index_t>((static_cast<std::uint64_t>(key) >> shift) & (buckets - 1));
    };
    parallel::for_each_chunk(policy, n, chunk, [&](index_t begin, index_t end) {
      index_t* h = counts.data() + begin / chunk * buckets;
      std::fill_n(h, buckets, 0);
      for (index_t i = begin; i < end; ++i) {
        ++h[digit(keys[static_cast<std::size_t>(i)])];
      }
    });
    // Exclusive prefix over (digit, chunk): chunk c's keys of digit d go after every smaller
    // digit and after the earlier chunks' keys of digit d (stability).
    index_t running = 0;
    bool one_digit = false;
    for (index_t d = 0; d < buckets; ++d) {
      const index_t before = running;
      for (index_t c = 0; c < chunks; ++c) {
        index_t& slot = counts[static_cast<std::size_t>(c * buckets + d)];
        const index_t x = slot;
        slot = running;
        running += x;
      }
      one_digit = one_digit || running - before == n;
    }
    if (one_digit) {
      continue;  // every key has the same digit here: the pass would not move anything
    }
    parallel::for_each_chunk(policy, n, chunk, [&](index_t begin, index_t end) {
      index_t* h = counts.data() + begin / chunk * buckets;
      for (index_t i = begin; i < end; ++i) {
        const auto at = static_cast<std::size_t>(h[digit(keys[static_cast<std::size_t>(i)])]++);
        key_tmp[at] = keys[static_cast<std::size_t>(i)];
        value_tmp[at] = std::move(values[static_cast<std::size_t>(i)]);
      }
    });
    keys.swap(key_tmp);
    values.swap(value_tmp);
  }
}

/// Combines the values of equal keys in place, in their order (results equal to the fill are
/// dropped later, when the buffer takes the entries); keys must be sorted.
template <class T, class Combine>
void combine_equal_keys(std::vector<index_t>& keys, ValueArray<T>& values, Combine& combine) {
  std::size_t out = 0;
  for (std::size_t i = 0; i < keys.size();) {
    const index_t key = keys[i];
    T acc = std::move(values[i]);
    std::size_t j = i + 1;
    for (; j < keys.size() && keys[j] == key; ++j) {
      acc = combine(std::move(acc), values[j]);
    }
    keys[out] = key;
    values[out] = std::move(acc);
    ++out;
    i = j;
  }
  keys.resize(out);
  values.resize(out);
}

/// A row-major tensor of @p shape over sorted, unique entries (those equal to @p fill are
/// dropped: the one place where that happens).
template <class T>
Tensor<T> sparse_from_sorted(IndexSpan shape, T fill, std::vector<index_t> addresses,
                             ValueArray<T> values) {
  const index_t size = checked_size(shape, "sparse");
  auto buffer = std::make_shared<SparseBuffer<T>>(SparseBuffer<T>::from_entries(
      size, std::move(fill), std::move(addresses), std::move(values)));
  return Tensor<T>(AnyBuffer<T>::shared(std::move(buffer)), Dimensions(shape));
}

/// Sorts, combines duplicates and builds the tensor (the second half of every assembly).
template <class T, class Combine, ExecutionPolicy P>
Tensor<T> assemble(IndexSpan shape, std::vector<index_t> addresses, ValueArray<T> values,
                   Combine& combine, T fill, const P& policy) {
  const index_t size = checked_size(shape, "sparse_from_coo");
  sort_by_key(addresses, values, size - 1, policy);
  combine_equal_keys(addresses, values, combine);
  return sparse_from_sorted(shape, std::move(fill), std::move(addresses), std::move(values));
}

/// The row-major strides of a shape.
inline Index row_major_strides(IndexSpan shape) {
  Index strides(shape.size(), 1);
  for (std::size_t k = shape.size(); k-- > 1;) {
    strides[k - 1] = strides[k] * shape[k];
  }
  return strides;
}

/// Splits row-major linear indices of a shape into per-axis indices without a divide.
class Unraveller {
 public:
  explicit Unraveller(IndexSpan shape) : shape_(shape.begin(), shape.end()) {
    for (const index_t e : shape) {
      by_.emplace_back(std::max<index_t>(e, 1));
    }
  }
  /// Writes the index of @p linear into @p out (rank entries).
  void operator()(index_t linear, index_t* out) const {
    if (shape_.size() == 2) {  // matrices: one division, no loop
      const index_t q = by_[1].divide(linear);
      out[1] = linear - q * shape_[1];
      out[0] = q;
      return;
    }
    for (std::size_t k = shape_.size(); k-- > 1;) {
      const index_t q = by_[k].divide(linear);
      out[k] = linear - q * shape_[k];
      linear = q;
    }
    if (!shape_.empty()) {
      out[0] = linear;
    }
  }

 private:
  Index shape_;
  std::vector<Divisor> by_;
};

/// The stored entries of a sparse view, in the view's own row-major order: `linear[e]` is the
/// view's linear index of entry e and `values[e]` its value. A broadcast view lists an entry
/// once per index that reads it; a view that skips an address does not list it.
template <class T>
struct SparseEntries {
  std::span<const index_t> linear;  // increasing
  std::span<const T> values;
  bool shares_values = false;  // values point into the buffer's arrays
  std::vector<index_t> own_linear;
  ValueArray<T> own_values;

  SparseEntries() = default;
  SparseEntries(const SparseEntries&) = delete;
  SparseEntries& operator=(const SparseEntries&) = delete;
  SparseEntries(SparseEntries&&) = delete;
  SparseEntries& operator=(SparseEntries&&) = delete;
  ~SparseEntries() = default;

  [[nodiscard]] index_t size() const noexcept { return static_cast<index_t>(linear.size()); }
  void take_own() {
    linear = own_linear;
    values = std::span<const T>(own_values.data(), own_values.size());
    shares_values = false;
  }
};

/// Decodes buffer addresses into a view's linear indices when the view's axes nest (slices
/// with any steps, transposes, squeezes, reshapes: every index has its own address and at most
/// one index reads an address), with a multiply-shift division per axis; `nullopt`-like
/// (valid() false) for broadcast, rolled and index-array views.
class NestedDecoder {
 public:
  explicit NestedDecoder(const Dimensions& d) : offset_(d.offset()) {
    const Index view_strides = row_major_strides(d.shape());
    for (std::size_t k = 0; k < d.axes().size(); ++k) {
      const Axis& a = d.axes()[k];
      if (a.extent == 1) {
        continue;
      }
      if (!a.is_plain() || a.stride == 0) {
        valid_ = false;
        return;
      }
      axes_.push_back({a.stride, a.extent, view_strides[k], 0, 0, Divisor(std::abs(a.stride))});
    }
    std::sort(axes_.begin(), axes_.end(),
              [](const Step& x, const Step& y) { return std::abs(x.stride) > std::abs(y.stride); });
    index_t lo = 0;
    index_t hi = 0;
    for (std::size_t k = axes_.size(); k-- > 0;) {
      Step& s = axes_[k];
      s.lo_inner = lo;
      s.hi_inner = hi;
      if (hi - lo >= std::abs(s.stride)) {
        valid_ = false;  // interleaved axes: an address may have several indices
        return;
      }
      const index_t reach = (s.extent - 1) * s.stride;
      lo += std::min<index_t>(reach, 0);
      hi += std::max<index_t>(reach, 0);
    }
    monotone_ = std::is_sorted(axes_.begin(), axes_.end(), [&](const Step& x, const Step& y) {
      return x.view_stride > y.view_stride;
    });
    for (const Step& s : axes_) {
      monotone_ = monotone_ && s.stride > 0;
    }
  }
  /// Whether the view's axes nest.
  [[nodiscard]] bool valid() const noexcept { return valid_; }
  /// Whether increasing addresses give increasing linear indices (no sort needed).
  [[nodiscard]] bool monotone() const noexcept { return monotone_; }
  /// The view's linear index that reads @p address, or -1 when none does.
  [[nodiscard]] index_t operator()(index_t address) const noexcept {
    index_t rest = address - offset_;
    index_t linear = 0;
    for (const Step& s : axes_) {
      index_t v = 0;
      if (s.stride > 0) {
        const index_t num = rest - s.lo_inner;
        if (num < 0) {
          return -1;
        }
        v = s.by.divide(num);
        if (v >= s.extent || v * s.stride < rest - s.hi_inner) {
          return -1;
        }
      } else {
        const index_t num = s.hi_inner - rest;
        if (num < 0) {
          return -1;
        }
        v = s.by.divide(num);
        if (v >= s.extent || v * -s.stride < s.lo_inner - rest) {
          return -1;
        }
      }
      rest -= v * s.stride;
      linear += v * s.view_stride;
    }
    return rest == 0 ? linear : -1;
  }

 private:
  struct Step {
    index_t stride;
    index_t extent;
    index_t view_stride;
    index_t lo_inner;  // the least the finer axes add
    index_t hi_inner;  // the most the finer axes add
    Divisor by;
  };
  index_t offset_;
  std::vector<Step> axes_;
  bool valid_ = true;
  bool monotone_ = true;
};

/// Fills @p out with the stored entries of the view @p dims of @p s, in the view's row-major
/// order (see SparseEntries). Cost: O(k) for the k stored addresses the view's address range
/// covers when the view is a contiguous run (no copy when it is the whole buffer), O(k) plus a
/// radix sort for other nested views, O(k * local_to_global) otherwise.
template <class T, ExecutionPolicy P>
void sparse_entries(const Dimensions& dims, const SparseBuffer<T>& s, SparseEntries<T>& out,
                    const P& policy) {
  const std::span<const index_t> addresses = s.addresses();
  const std::span<const T> values = s.values();
  if (dims.size() == 0 || addresses.empty()) {
    out.take_own();
    return;
  }
  // Named values, not a structured binding: clang 14 cannot capture bindings in lambdas.
  const auto range = dims.address_range();
  const index_t lowest = range.first;
  const index_t highest = range.second;
  const auto first = static_cast<std::size_t>(
      std::lower_bound(addresses.begin(), addresses.end(), lowest) - addresses.begin());
  const auto last = static_cast<std::size_t>(
      std::upper_bound(addresses.begin(), addresses.end(), highest) - addresses.begin());
  const auto count = static_cast<index_t>(last - first);
  if (dims.is_native() && dims.size() == highest - lowest + 1) {
    // One increasing contiguous run: linear = address - lowest.
    out.values = values.subspan(first, last - first);
    out.shares_values = true;
    if (lowest == 0) {
      out.linear = addresses.subspan(first, last - first);
      return;
    }
    out.own_linear.resize(static_cast<std::size_t>(count));
    parallel::for_each_part(policy, count, [&](index_t b, index_t e) {
      for (index_t i = b; i < e; ++i) {
        out.own_linear[static_cast<std::size_t>(i)] =
            addresses[first + static_cast<std::size_t>(i)] - lowest;
      }
    });
    out.linear = out.own_linear;
    return;
  }
  const NestedDecoder decode(dims);
  if (decode.valid()) {
    // Decode by chunks (fixed, so the result does not depend on the thread count), then pack.
    std::vector<index_t> linear(static_cast<std::size_t>(count));
    parallel::for_each_part(policy, count, [&](index_t b, index_t e) {
      for (index_t i = b; i < e; ++i) {
        linear[static_cast<std::size_t>(i)] =
            decode(addresses[first + static_cast<std::size_t>(i)]);
      }
    });
    std::size_t kept = 0;
    out.own_values.reserve(static_cast<std::size_t>(count));
    for (std::size_t i = 0; i < linear.size(); ++i) {
      if (linear[i] >= 0) {
        linear[kept++] = linear[i];
        out.own_values.push_back(values[first + i]);
      }
    }
    linear.resize(kept);
    out.own_linear = std::move(linear);
    if (!decode.monotone()) {
      sort_by_key(out.own_linear, out.own_values, dims.size() - 1, policy);
    }
    out.take_own();
    return;
  }
  // Broadcast, rolled or index-array views: every index that reads each stored address.
  const Index view_strides = row_major_strides(dims.shape());
  for (std::size_t i = first; i < last; ++i) {
    for (const Index& g : dims.local_to_global(addresses[i])) {
      index_t linear = 0;
      for (std::size_t k = 0; k < g.size(); ++k) {
        linear += g[k] * view_strides[k];
      }
      out.own_linear.push_back(linear);
      out.own_values.push_back(values[i]);
    }
  }
  sort_by_key(out.own_linear, out.own_values, dims.size() - 1, policy);
  out.take_own();
}

/// The stored entries of a sparse tensor (see sparse_entries), or a LayoutError naming
/// @p operation when its storage is not sparse.
template <class T>
void stored_entries(const Tensor<T>& t, const char* operation,
                    SparseEntries<std::remove_const_t<T>>& out) {
  const SparseBuffer<std::remove_const_t<T>>* s = sparse_buffer(t);
  if (s == nullptr) {
    fail<LayoutError>(operation, "the tensor's buffer is not a SparseBuffer");
  }
  sparse_entries(t.dims(), *s, out, par);
}

/// `x op x op ... op x` (@p k >= 1 times) by repeated squaring (@p op associative).
template <class V, class Op>
V repeated(Op& op, V x, index_t k) {
  std::optional<V> result;
  while (k > 0) {
    if ((k & 1) != 0) {
      result = result ? op(*result, x) : x;
    }
    k >>= 1;
    if (k > 0) {
      x = op(x, x);
    }
  }
  return *result;
}

/// Reduces values given at row-major linear positions of a shape along the marked axes into
/// @p dst (the kept shape, row-major, every element @p init, the identity of @p op): add()
/// combines each value into its output in the order given, finish() then combines the fill
/// value as many times as each output has unstored inputs, in closed form (repeated squaring
/// of @p op, cached per count; skipped when the fill is the identity).
template <class V, class Op>
class SparseReducer {
 public:
  SparseReducer(const Index& shape, const std::vector<bool>& reduced, V* dst, index_t dst_size,
                const V& init, V fill, Op& op)
      : dst_(dst),
        dst_size_(dst_size),
        fill_(std::move(fill)),
        op_(op),
        counts_(!(fill_ == init)),
        hits_(counts_ ? static_cast<std::size_t>(dst_size) : 0, 0),
        reduced_(reduced),
        unravel_(shape),
        index_(shape.size(), 0) {
    const std::size_t rank = shape.size();
    for (std::size_t k = 0; k < rank; ++k) {
      per_output_ *= reduced[k] ? shape[k] : 1;
    }
    // Kept axes in one block [first, last): the output is (linear / inner) % kept.
    std::size_t first = 0;
    while (first < rank && reduced[first]) {
      ++first;
    }
    std::size_t last = first;
    while (last < rank && !reduced[last]) {
      ++last;
    }
    bool block = true;
    index_t inner = 1;
    index_t kept = 1;
    for (std::size_t k = 0; k < rank; ++k) {
      block = block && (k < last || reduced[k]);
      inner *= k >= last ? shape[k] : 1;
      kept *= k >= first && k < last ? shape[k] : 1;
    }
    by_inner_ = Divisor(std::max<index_t>(inner, 1));
    by_kept_ = Divisor(std::max<index_t>(kept, 1));
    mode_ = !block       ? Mode::any
            : first == 0 ? Mode::leading
            : inner == 1 ? Mode::trailing
                         : Mode::middle;
    Index out_shape = shape;
    for (std::size_t k = 0; k < rank; ++k) {
      out_shape[k] = reduced[k] ? 1 : shape[k];
    }
    out_strides_ = row_major_strides(out_shape);
  }

  /// Combines @p value, at row-major position @p linear, into its output.
  void add(index_t linear, const V& value) {
    const auto cell = static_cast<std::size_t>(cell_of(linear));
    dst_[cell] = op_(dst_[cell], value);
    if (counts_) {
      ++hits_[cell];
    }
  }

  /// Combines every value of @p values, at the positions @p linear, in order (add() in a loop
  /// that picks the output rule once).
  void add_all(std::span<const index_t> linear, std::span<const V> values) {
    const auto run = [&](auto cell_of) {
      V* const dst = dst_;
      index_t* const hits = hits_.data();
      const bool counts = counts_;
      for (std::size_t e = 0; e < linear.size(); ++e) {
        const auto cell = static_cast<std::size_t>(cell_of(linear[e]));
        dst[cell] = op_(dst[cell], values[e]);
        if (counts) {
          ++hits[cell];
        }
      }
    };
    const Divisor by_inner = by_inner_;
    const Divisor by_kept = by_kept_;
    switch (mode_) {
      case Mode::leading:
        run([by_inner](index_t l) { return by_inner.divide(l); });
        return;
      case Mode::trailing:
        run([by_kept](index_t l) { return by_kept.remainder(l); });
        return;
      case Mode::middle:
        run([by_inner, by_kept](index_t l) { return by_kept.remainder(by_inner.divide(l)); });
        return;
      case Mode::any:
        run([this](index_t l) { return cell_of(l); });
        return;
    }
  }

  /// Combines the fill value into every output, once per input that add() did not give.
  void finish() {
    if (!counts_ || per_output_ == 0) {
      return;
    }
    std::vector<std::optional<V>> by_hits(64);
    for (index_t c = 0; c < dst_size_; ++c) {
      const index_t h = hits_[static_cast<std::size_t>(c)];
      const index_t missing = per_output_ - h;
      if (missing <= 0) {
        continue;
      }
      if (h < static_cast<index_t>(by_hits.size())) {
        auto& slot = by_hits[static_cast<std::size_t>(h)];
        if (!slot) {
          slot = repeated(op_, fill_, missing);
        }
        dst_[c] = op_(dst_[c], *slot);
      } else {
        dst_[c] = op_(dst_[c], repeated(op_, fill_, missing));
      }
    }
  }

 private:
  enum class Mode { leading, trailing, middle, any };

  index_t cell_of(index_t linear) {
    switch (mode_) {
      case Mode::leading:
        return by_inner_.divide(linear);  // row sums
      case Mode::trailing:
        return by_kept_.remainder(linear);  // column sums
      case Mode::middle:
        return by_kept_.remainder(by_inner_.divide(linear));
      case Mode::any:
        break;
    }
    unravel_(linear, index_.data());
    index_t cell = 0;
    for (std::size_t k = 0; k < index_.size(); ++k) {
      cell += reduced_[k] ? 0 : index_[k] * out_strides_[k];
    }
    return cell;
  }

  V* dst_;
  index_t dst_size_;
  V fill_;
  Op& op_;
  bool counts_;
  std::vector<index_t> hits_;
  const std::vector<bool>& reduced_;
  index_t per_output_ = 1;
  Mode mode_ = Mode::any;
  Divisor by_inner_;
  Divisor by_kept_;
  Index out_strides_;
  Unraveller unravel_;
  Index index_;
};

/// Reduces a sparse view along the marked axes into @p dst (see SparseReducer): its stored
/// entries in the view's row-major order, then the fill value in closed form.
template <class V, class Op, ExecutionPolicy P>
void sparse_reduce_into(const Dimensions& dims, const SparseBuffer<V>& s,
                        const std::vector<bool>& reduced, V* dst, index_t dst_size, const V& init,
                        Op& op, const P& policy) {
  SparseEntries<V> entries;
  sparse_entries(dims, s, entries, policy);
  SparseReducer<V, Op> reducer(dims.shape(), reduced, dst, dst_size, init, s.fill(), op);
  reducer.add_all(entries.linear, entries.values);
  reducer.finish();
}

/// `f` applied to a sparse view: a row-major sparse tensor of the view's shape whose fill is
/// f(fill) and whose entries are f of the view's entries (those equal to the new fill dropped).
template <class U, class T, class F, ExecutionPolicy P>
Tensor<U> sparse_map(const Dimensions& dims, const SparseBuffer<T>& s, F& f, const P& policy) {
  SparseEntries<T> entries;
  sparse_entries(dims, s, entries, policy);
  const U fill = f(s.fill());
  std::vector<index_t> addresses(entries.linear.begin(), entries.linear.end());
  ValueArray<U> values(static_cast<std::size_t>(entries.size()));
  parallel::for_each_part(policy, entries.size(), [&](index_t b, index_t e) {
    for (index_t i = b; i < e; ++i) {
      values[static_cast<std::size_t>(i)] = f(entries.values[static_cast<std::size_t>(i)]);
    }
  });
  // Values equal to the new fill are dropped as the buffer adopts the entries.
  return sparse_from_sorted<U>(dims.shape(), fill, std::move(addresses), std::move(values));
}

/// `f(a, b)` for two sparse views of one shape: fill f(fill_a, fill_b), entries on the union
/// of the stored positions.
template <class V, class A, class B, class F, ExecutionPolicy P>
Tensor<V> sparse_zip(const Dimensions& da, const SparseBuffer<A>& sa, const Dimensions& db,
                     const SparseBuffer<B>& sb, F& f, const P& policy) {
  SparseEntries<A> ea;
  SparseEntries<B> eb;
  sparse_entries(da, sa, ea, policy);
  sparse_entries(db, sb, eb, policy);
  const V fill = f(sa.fill(), sb.fill());
  std::vector<index_t> addresses;
  ValueArray<V> values;
  addresses.reserve(static_cast<std::size_t>(ea.size() + eb.size()));
  values.reserve(static_cast<std::size_t>(ea.size() + eb.size()));
  std::size_t i = 0;
  std::size_t j = 0;
  const auto push = [&](index_t at, V v) {
    addresses.push_back(at);
    values.push_back(std::move(v));
  };
  while (i < ea.linear.size() || j < eb.linear.size()) {
    if (j == eb.linear.size() || (i < ea.linear.size() && ea.linear[i] < eb.linear[j])) {
      push(ea.linear[i], f(ea.values[i], sb.fill()));
      ++i;
    } else if (i == ea.linear.size() || eb.linear[j] < ea.linear[i]) {
      push(eb.linear[j], f(sa.fill(), eb.values[j]));
      ++j;
    } else {
      push(ea.linear[i], f(ea.values[i], eb.values[j]));
      ++i;
      ++j;
    }
  }
  return sparse_from_sorted<V>(da.shape(), fill, std::move(addresses), std::move(values));
}

/// Reads @p count coordinates of rank @p rank (entry-major) through @p coord(e, k) and turns
/// them into row-major addresses, checking each.
template <ExecutionPolicy P, class Coord>
std::vector<index_t> coo_addresses(IndexSpan shape, index_t count, Coord&& coord, const P& policy) {
  const Index strides = row_major_strides(shape);
  std::vector<index_t> addresses(static_cast<std::size_t>(count));
  parallel::for_each_part(policy, count, [&](index_t b, index_t e) {
    for (index_t i = b; i < e; ++i) {
      index_t address = 0;
      for (std::size_t k = 0; k < shape.size(); ++k) {
        const index_t c = coord(i, k);
        if (c < 0 || c >= shape[k]) {
          Index where(shape.size());
          for (std::size_t m = 0; m < shape.size(); ++m) {
            where[m] = coord(i, m);
          }
          fail<IndexError>("sparse_from_coo", "entry ", i, " has index ", to_string(where),
                           ", out of bounds on axis ", k, " for shape ", to_string(shape));
        }
        address += c * strides[k];
      }
      addresses[static_cast<std::size_t>(i)] = address;
    }
  });
  return addresses;
}

/// Assembles from one index list per axis (the list forms of sparse_from_coo).
template <class T, class Combine, ExecutionPolicy P>
Tensor<T> coo_from_lists(IndexSpan shape, std::span<const std::span<const index_t>> lists,
                         std::span<const T> values, Combine& combine, T fill, const P& policy) {
  checked_size(shape, "sparse_from_coo");
  if (lists.size() != shape.size()) {
    fail<IndexError>("sparse_from_coo", lists.size(), " index lists for a shape of rank ",
                     shape.size(), " (", to_string(shape), ")");
  }
  const auto count = static_cast<index_t>(values.size());
  for (std::size_t k = 0; k < lists.size(); ++k) {
    if (static_cast<index_t>(lists[k].size()) != count) {
      fail<ShapeError>("sparse_from_coo", "index list ", k, " has ", lists[k].size(),
                       " entries for ", count, " values");
    }
  }
  auto addresses = coo_addresses(
      shape, count,
      [lists](index_t e, std::size_t a) { return lists[a][static_cast<std::size_t>(e)]; }, policy);
  return assemble(shape, std::move(addresses), ValueArray<T>(values.begin(), values.end()), combine,
                  std::move(fill), policy);
}

}  // namespace detail

/// One axis's coordinates for sparse_from_coo: any contiguous range of integers (`int`,
/// `long long`, `index_t`, unsigned types, spans and vectors of them). A range of `index_t`
/// is read in place; any other is converted once, each value checked to fit in `index_t`.
class CooIndices {
 public:
  /// The coordinates of one axis.
  /// @param r a contiguous range of integers
  /// @throws IndexError when a value does not fit in index_t (an unsigned value above 2^63 - 1)
  template <std::ranges::contiguous_range R>
  requires std::integral<std::ranges::range_value_t<R>>
  // NOLINTNEXTLINE(google-explicit-constructor): `{rows, cols}` lists the axes.
  CooIndices(const R& r) {
    using I = std::ranges::range_value_t<R>;
    const I* first = std::ranges::data(r);
    const auto n = std::ranges::size(r);
    if constexpr (std::is_same_v<I, index_t>) {
      view_ = std::span<const index_t>(first, n);
    } else {
      owned_.resize(n);
      for (std::size_t e = 0; e < n; ++e) {
        if (std::cmp_greater(first[e], std::numeric_limits<index_t>::max())) {
          detail::fail<IndexError>("sparse_from_coo", "entry ", e, " has index ", first[e],
                                   ", which does not fit in int64");
        }
        owned_[e] = static_cast<index_t>(first[e]);
      }
      view_ = owned_;
    }
  }
  /// Not copied: a view may point into the converted values it owns.
  CooIndices(const CooIndices&) = delete;
  /// Not assigned (see the copy constructor).
  CooIndices& operator=(const CooIndices&) = delete;
  /// Not moved (see the copy constructor).
  CooIndices(CooIndices&&) = delete;
  /// Not assigned (see the copy constructor).
  CooIndices& operator=(CooIndices&&) = delete;
  /// Releases the converted values.
  ~CooIndices() = default;
  /// The coordinates as index_t.
  /// @return a view of them
  [[nodiscard]] std::span<const index_t> span() const noexcept { return view_; }

 private:
  std::vector<index_t> owned_;
  std::span<const index_t> view_;
};

/// A sparse tensor from a coordinate list (COO, triplets for a matrix), with the values of
/// repeated coordinates combined: summed by default (a finite-element scatter), or with any
/// binary operation, in the order they come in the list.
///
/// An element's value is the combination of its contributions (the fill value is not one of
/// them); elements whose combination equals @p fill are not stored. O(n log n) for n entries
/// (a parallel radix sort of row-major addresses, then one pass that combines); nothing is
/// built when an argument is bad.
///
/// @code
/// // entry e is (rows[e], cols[e]) -> values[e]; one index list per axis
/// std::vector<int> rows{0, 2, 0}, cols{1, 2, 1};   // any integer type
/// std::vector<double> values{1.0, 5.0, 2.0};
/// auto K = strata::sparse_from_coo({3, 3}, {rows, cols}, values);   // K(0, 1) == 3
/// @endcode
/// @param shape the extents
/// @param axes one list of indices per axis (any contiguous range of integers), each as long as
///        @p values
/// @param values the values, any contiguous range
/// @param combine how repeated coordinates combine, `T combine(T, T)` (std::plus by default)
/// @param fill the value of elements not stored
/// @param policy seq or par
/// @return the tensor, row-major over a SparseBuffer
/// @throws IndexError when the number of lists is not the rank, or for an index out of
///         bounds (the message names the entry's position in the list); ShapeError when the
///         lists have different lengths
template <std::ranges::contiguous_range Values, class Combine = std::plus<>,
          ExecutionPolicy P = Parallel, class T = std::ranges::range_value_t<Values>>
Tensor<T> sparse_from_coo(IndexSpan shape, std::initializer_list<CooIndices> axes,
                          const Values& values, Combine combine = {},
                          std::type_identity_t<T> fill = T{}, const P& policy = P{}) {
  std::vector<std::span<const index_t>> lists;
  for (const CooIndices& a : axes) {
    lists.push_back(a.span());
  }
  return detail::coo_from_lists<T>(
      shape, std::span<const std::span<const index_t>>(lists),
      std::span<const T>(std::ranges::data(values), std::ranges::size(values)), combine,
      std::move(fill), policy);
}

/// A sparse tensor from one vector of indices per axis (a rank known only at run time), with
/// repeated coordinates combined as the list form does.
/// @param shape the extents
/// @param axis_lists one vector of indices per axis (any integer type), each as long as
///        @p values
/// @param values the values, any contiguous range
/// @param combine how repeated coordinates combine (std::plus by default)
/// @param fill the value of elements not stored
/// @param policy seq or par
/// @return the tensor, row-major over a SparseBuffer
/// @throws IndexError, ShapeError as the list form
template <std::integral I, std::ranges::contiguous_range Values, class Combine = std::plus<>,
          ExecutionPolicy P = Parallel, class T = std::ranges::range_value_t<Values>>
Tensor<T> sparse_from_coo(IndexSpan shape, const std::vector<std::vector<I>>& axis_lists,
                          const Values& values, Combine combine = {},
                          std::type_identity_t<T> fill = T{}, const P& policy = P{}) {
  std::vector<std::unique_ptr<CooIndices>> converted;
  std::vector<std::span<const index_t>> lists;
  for (const std::vector<I>& axis : axis_lists) {
    converted.push_back(std::make_unique<CooIndices>(axis));
    lists.push_back(converted.back()->span());
  }
  return detail::coo_from_lists<T>(
      shape, std::span<const std::span<const index_t>>(lists),
      std::span<const T>(std::ranges::data(values), std::ranges::size(values)), combine,
      std::move(fill), policy);
}

/// A sparse tensor from coordinates given as a tensor `[n, rank]` (row e holds entry e's
/// index, as `np.argwhere` gives; any view and any integer type, so per-axis arrays are its
/// transpose), with repeated coordinates combined as the list form does.
/// @param shape the extents
/// @param coords the coordinates, shape `[n, rank]`
/// @param values the values, shape `[n]`
/// @param combine how repeated coordinates combine (std::plus by default)
/// @param fill the value of elements not stored
/// @param policy seq or par
/// @return the tensor
/// @throws ShapeError when @p coords is not a matrix or @p values does not have n elements;
///         IndexError when a row of @p coords does not have rank entries, or for an index out of
///         bounds (the message names the entry)
template <std::integral I, class T, class Combine = std::plus<>, ExecutionPolicy P = Parallel>
Tensor<std::remove_const_t<T>> sparse_from_coo(
    IndexSpan shape, const Tensor<I>& coords, const Tensor<T>& values, Combine combine = {},
    std::type_identity_t<std::remove_const_t<T>> fill = {}, const P& policy = P{}) {
  checked_size(shape, "sparse_from_coo");
  if (coords.rank() != 2) {
    detail::fail<ShapeError>("sparse_from_coo", "coordinates of shape ", to_string(coords.shape()),
                             ": expected [n, rank]");
  }
  const index_t count = coords.shape()[0];
  if (coords.shape()[1] != static_cast<index_t>(shape.size())) {
    detail::fail<IndexError>("sparse_from_coo", "coordinates have ", coords.shape()[1],
                             " entries per row for a shape of rank ", shape.size(), " (",
                             to_string(shape), ")");
  }
  if (values.rank() != 1 || values.size() != count) {
    detail::fail<ShapeError>("sparse_from_coo", "values of shape ", to_string(values.shape()),
                             " for ", count, " coordinates (expected [", count, "])");
  }
  const Tensor<std::remove_const_t<I>> c = coords.copy();
  const auto* data = c.buffer().data();
  const auto rank = static_cast<index_t>(shape.size());
  auto addresses = detail::coo_addresses(
      shape, count,
      [data, rank](index_t e, std::size_t a) {
        return static_cast<index_t>(data[e * rank + static_cast<index_t>(a)]);
      },
      policy);
  const auto list = values.to_vector();
  return detail::assemble(shape, std::move(addresses),
                          ValueArray<std::remove_const_t<T>>(list.begin(), list.end()), combine,
                          std::move(fill), policy);
}

/// The stored entries of a sparse tensor or view as a random-access range of (index, value)
/// pairs in row-major order of the index, each pair made when it is read (no allocation per
/// entry). Returned by nonzeros(); valid until the tensor is next written (it keeps the
/// storage alive).
/// @tparam T the element type
template <class T>
class Nonzeros {
 public:
  /// What reading an entry gives: its index in the view and its value.
  using value_type = std::pair<Index, T>;

  /// A random-access iterator over the entries; dereferencing makes the pair.
  class iterator {
   public:
    /// Random access.
    using iterator_concept = std::random_access_iterator_tag;
    /// Random access (C++17 algorithms read values through it).
    using iterator_category = std::input_iterator_tag;
    /// The pair.
    using value_type = std::pair<Index, T>;
    /// The distance between iterators.
    using difference_type = std::ptrdiff_t;
    /// A pair, by value.
    using reference = value_type;
    /// An iterator at nothing.
    iterator() = default;
    /// The pair at the iterator. @return it
    [[nodiscard]] value_type operator*() const { return (*range_)[at_]; }
    /// The pair @p k entries on. @param k the distance @return the pair
    [[nodiscard]] value_type operator[](difference_type k) const { return (*range_)[at_ + k]; }
    /// Steps on. @return this
    iterator& operator++() {
      ++at_;
      return *this;
    }
    /// Steps on. @return the previous position
    iterator operator++(int) {
      iterator old = *this;
      ++at_;
      return old;
    }
    /// Steps back. @return this
    iterator& operator--() {
      --at_;
      return *this;
    }
    /// Steps back. @return the previous position
    iterator operator--(int) {
      iterator old = *this;
      --at_;
      return old;
    }
    /// Moves by @p k. @param k the distance @return this
    iterator& operator+=(difference_type k) {
      at_ += k;
      return *this;
    }
    /// Moves back by @p k. @param k the distance @return this
    iterator& operator-=(difference_type k) {
      at_ -= k;
      return *this;
    }
    /// @p it moved by @p k. @param it an iterator @param k the distance @return the iterator
    friend iterator operator+(iterator it, difference_type k) { return it += k; }
    /// @p it moved by @p k. @param k the distance @param it an iterator @return the iterator
    friend iterator operator+(difference_type k, iterator it) { return it += k; }
    /// @p it moved back by @p k. @param it an iterator @param k the distance @return it
    friend iterator operator-(iterator it, difference_type k) { return it -= k; }
    /// The distance from @p b to @p a. @param a, b iterators of one range @return a - b
    friend difference_type operator-(const iterator& a, const iterator& b) { return a.at_ - b.at_; }
    /// Equality. @param a, b iterators of one range @return true at one position
    friend bool operator==(const iterator& a, const iterator& b) { return a.at_ == b.at_; }
    /// Order. @param a, b iterators of one range @return the order of their positions
    friend auto operator<=>(const iterator& a, const iterator& b) { return a.at_ <=> b.at_; }

   private:
    friend class Nonzeros;
    iterator(const Nonzeros* range, difference_type at) : range_(range), at_(at) {}
    const Nonzeros* range_ = nullptr;
    difference_type at_ = 0;
  };

  /// The number of entries.
  /// @return it
  [[nodiscard]] index_t size() const noexcept { return entries_->size(); }
  /// Whether there are none.
  /// @return true when no entry is stored in the view
  [[nodiscard]] bool empty() const noexcept { return size() == 0; }
  /// Entry @p e (unchecked).
  /// @param e in [0, size())
  /// @return its index and value
  [[nodiscard]] value_type operator[](index_t e) const {
    value_type out;
    out.first.resize(rank_, boost::container::default_init);  // written by unravel_
    unravel_(entries_->linear[static_cast<std::size_t>(e)], out.first.data());
    out.second = entries_->values[static_cast<std::size_t>(e)];
    return out;
  }
  /// The first entry.
  /// @return an iterator
  [[nodiscard]] iterator begin() const { return iterator(this, 0); }
  /// Past the last entry.
  /// @return an iterator
  [[nodiscard]] iterator end() const { return iterator(this, size()); }
  /// The entries' row-major linear indices in the view, increasing.
  /// @return a span over them
  [[nodiscard]] std::span<const index_t> linear() const noexcept { return entries_->linear; }
  /// The entries' values, aligned with linear().
  /// @return a span over them
  [[nodiscard]] std::span<const T> values() const noexcept { return entries_->values; }

  /// Lists the stored entries of a sparse tensor (see nonzeros()).
  /// @param t a tensor over a SparseBuffer
  /// @throws LayoutError when the storage is not sparse
  template <class U>
  explicit Nonzeros(const Tensor<U>& t)
      : entries_(std::make_shared<detail::SparseEntries<T>>()),
        unravel_(t.shape()),
        rank_(static_cast<std::size_t>(t.rank())),
        storage_(t.buffer()) {
    detail::stored_entries(t, "nonzeros", *entries_);
  }

 private:
  std::shared_ptr<detail::SparseEntries<T>> entries_;
  detail::Unraveller unravel_;
  std::size_t rank_;
  AnyBuffer<T> storage_;
};

/// The stored entries of a sparse tensor (or view) as (index, value) pairs, in row-major order
/// of the index: a random-access range that makes each pair when it is read.
///
/// A view lists the indices at which it reads stored entries (several under broadcasting,
/// none when the view skips the address). O(nnz) for the tensor itself and views whose axes
/// nest (slices, transposes: a radix sort when the order changes), O(nnz * local_to_global)
/// for broadcast, rolled and index-array views; then one multiply-shift division per axis for
/// each pair read (about 3 ns per pair for a matrix). The spans `linear()` and `values()` read
/// the same entries with no pair made, at the speed of SparseBuffer::for_each_stored (they are
/// the buffer's own arrays for the tensor itself).
/// @code
/// for (const auto& [index, value] : strata::nonzeros(K.transpose())) { ... }
/// const auto nz = strata::nonzeros(K);  // the fast form: row-major positions and values
/// for (std::size_t e = 0; e < nz.values().size(); ++e) { use(nz.linear()[e], nz.values()[e]); }
/// @endcode
/// @param t a tensor over a SparseBuffer
/// @return the range (valid until the tensor is next written)
/// @throws LayoutError when the tensor's buffer is not a SparseBuffer
template <class T>
Nonzeros<std::remove_const_t<T>> nonzeros(const Tensor<T>& t) {
  return Nonzeros<std::remove_const_t<T>>(t);
}

/// Calls `f(index, value)` for every stored entry of a sparse tensor (or view), in row-major
/// order of the index (an IndexSpan valid during the call); the allocation-free form of
/// nonzeros().
/// @param t a tensor over a SparseBuffer
/// @param f the visitor, `f(IndexSpan, const T&)`
/// @throws LayoutError when the tensor's buffer is not a SparseBuffer
template <class T, class F>
void for_each_nonzero(const Tensor<T>& t, F&& f) {
  using V = std::remove_const_t<T>;
  detail::SparseEntries<V> entries;
  detail::stored_entries(t, "for_each_nonzero", entries);
  const detail::Unraveller unravel(t.shape());
  Index index(static_cast<std::size_t>(t.rank()), 0);
  for (std::size_t i = 0; i < entries.linear.size(); ++i) {
    unravel(entries.linear[i], index.data());
    f(IndexSpan(index), entries.values[i]);
  }
}

/// A dense row-major copy of any tensor; for a sparse one O(size + nnz) (the fill, then the
/// stored entries), where copy() reads element by element.
/// @param t the tensor
/// @param policy seq or par
/// @return the dense tensor
template <class T, ExecutionPolicy P = Parallel>
Tensor<std::remove_const_t<T>> to_dense(const Tensor<T>& t, const P& policy = P{}) {
  using V = std::remove_const_t<T>;
  const SparseBuffer<V>* s = sparse_buffer(t);
  if (s == nullptr) {
    return t.copy(policy);
  }
  detail::SparseEntries<V> entries;
  detail::sparse_entries(t.dims(), *s, entries, policy);
  Tensor<V> out(AnyBuffer<V>(DenseBuffer<V>::for_overwrite(t.size())), Dimensions(t.shape()));
  V* data = out.buffer().data();
  parallel::for_each_part(policy, t.size(),
                          [&](index_t b, index_t e) { std::fill(data + b, data + e, s->fill()); });
  parallel::for_each_part(policy, entries.size(), [&](index_t b, index_t e) {
    for (index_t i = b; i < e; ++i) {
      data[entries.linear[static_cast<std::size_t>(i)]] =
          entries.values[static_cast<std::size_t>(i)];
    }
  });
  return out;
}

/// A sparse row-major copy of the elements of any tensor that satisfy a predicate (a
/// threshold: `[](double x) { return std::abs(x) > 1e-12; }`); the others become @p fill.
///
/// The predicate runs in parallel under `par`; if it throws, the exception reaches the caller
/// and nothing is built.
/// @param t the tensor
/// @param keep `bool keep(const T&)`: whether an element is stored
/// @param fill the value of the elements not kept
/// @param policy seq or par
/// @return the sparse tensor
template <class T, std::predicate<const std::remove_const_t<T>&> Keep, ExecutionPolicy P = Parallel>
Tensor<std::remove_const_t<T>> to_sparse(const Tensor<T>& t, Keep&& keep,
                                         std::type_identity_t<std::remove_const_t<T>> fill = {},
                                         const P& policy = P{}) {
  using V = std::remove_const_t<T>;
  const Tensor<V> dense = to_dense(t, policy);
  const V* data = dense.buffer().data();
  const index_t n = dense.size();
  constexpr index_t chunk = index_t{1} << 16;
  const index_t chunks = (n + chunk - 1) / chunk;
  std::vector<std::vector<index_t>> found(static_cast<std::size_t>(chunks));
  parallel::for_each_chunk(policy, n, chunk, [&](index_t b, index_t e) {
    auto& mine = found[static_cast<std::size_t>(b / chunk)];
    for (index_t i = b; i < e; ++i) {
      if (keep(data[i])) {
        mine.push_back(i);
      }
    }
  });
  std::vector<index_t> addresses;
  for (const auto& f : found) {
    addresses.insert(addresses.end(), f.begin(), f.end());
  }
  ValueArray<V> values(addresses.size());
  for (std::size_t i = 0; i < addresses.size(); ++i) {
    values[i] = data[addresses[i]];
  }
  return detail::sparse_from_sorted<V>(t.shape(), std::move(fill), std::move(addresses),
                                       std::move(values));
}

/// A sparse row-major copy of any tensor: elements equal to @p fill are not stored.
/// @param t the tensor
/// @param fill the value left unstored
/// @param policy seq or par
/// @return the sparse tensor
template <class T, ExecutionPolicy P = Parallel>
Tensor<std::remove_const_t<T>> to_sparse(const Tensor<T>& t,
                                         std::type_identity_t<std::remove_const_t<T>> fill = {},
                                         const P& policy = P{}) {
  using V = std::remove_const_t<T>;
  return to_sparse(
      t, [&fill](const V& x) { return !(x == fill); }, fill, policy);
}

/// The compressed arrays of a sparse matrix, row by row (CSR) or column by column (CSC), ready
/// to hand to a solver: outer slice o holds entries `offsets[o]` to `offsets[o + 1] - 1`, with
/// inner indices `indices[...]` (increasing) and values `values[...]`.
///
/// `values` points into the tensor's own storage when the matrix's entries are already in
/// that order (CSR of a row-major sparse tensor or of a block of its rows: no copy); otherwise
/// it points at `own_values`. Shared values stay valid while the tensor is not written. With
/// Eigen (64-bit indices):
/// @code
/// auto a = strata::csr(K);
/// Eigen::Map<const Eigen::SparseMatrix<double, Eigen::RowMajor, std::int64_t>> A(
///     a.rows, a.cols, a.nnz(), a.offsets.data(), a.indices.data(), a.values.data());
/// @endcode
/// @tparam T the element type
template <class T>
struct Compressed {
  index_t rows = 0;              ///< the matrix's rows
  index_t cols = 0;              ///< the matrix's columns
  std::vector<index_t> offsets;  ///< outer slice starts, outer extent + 1 entries from 0
  std::vector<index_t> indices;  ///< inner index of each entry
  std::span<const T> values;     ///< each entry's value (shared or own_values)
  ValueArray<T> own_values;      ///< the values, when they could not be shared
  AnyBuffer<T> storage;          ///< keeps shared values alive
  /// The number of stored entries.
  /// @return nnz
  [[nodiscard]] index_t nnz() const noexcept { return static_cast<index_t>(values.size()); }
};

namespace detail {

/// The compressed arrays of a sparse tensor of any rank read as a matrix: its first
/// @p row_axes axes are the rows (row-major), the others the columns (einsum's matricised
/// operands). The caller checks the buffer (sparse, zero fill) and 0 < row_axes < rank.
template <class T>
Compressed<std::remove_const_t<T>> matricised(const Tensor<T>& t, bool by_rows,
                                              std::size_t row_axes) {
  using V = std::remove_const_t<T>;
  const SparseBuffer<V>* s = sparse_buffer(t);
  const Index shape = t.shape();
  Compressed<V> out;
  out.rows = 1;
  out.cols = 1;
  Index perm;  // the outer axes (rows, or columns) first
  for (std::size_t k = 0; k < shape.size(); ++k) {
    (k < row_axes ? out.rows : out.cols) *= shape[k];
    perm.push_back(static_cast<index_t>(by_rows ? k : (k + row_axes) % shape.size()));
  }
  const Dimensions walked = t.dims().transpose(perm);
  SparseEntries<V> entries;
  sparse_entries(walked, *s, entries, par);
  const index_t outer = by_rows ? out.rows : out.cols;
  const index_t inner = by_rows ? out.cols : out.rows;
  // The entries are in increasing linear order, so outer slice o starts at the first entry of
  // a slice >= o: the entry that opens a slice writes the starts of the (empty) slices between
  // its predecessor's and its own, and each start is written once, by the part holding it.
  const auto count = static_cast<index_t>(entries.linear.size());
  out.offsets.assign(static_cast<std::size_t>(outer + 1), 0);
  out.indices.resize(entries.linear.size());
  const Divisor by(std::max<index_t>(inner, 1));
  const auto slice = [&](index_t e) {
    return by.divide(entries.linear[static_cast<std::size_t>(e)]);
  };
  parallel::for_each_part(par, count, [&](index_t b, index_t e) {
    index_t before = b == 0 ? -1 : slice(b - 1);
    for (index_t i = b; i < e; ++i) {
      const index_t o = slice(i);
      out.indices[static_cast<std::size_t>(i)] =
          entries.linear[static_cast<std::size_t>(i)] - o * inner;
      for (index_t q = before + 1; q <= o; ++q) {
        out.offsets[static_cast<std::size_t>(q)] = i;
      }
      before = o;
    }
    if (e == count) {
      for (index_t q = before + 1; q <= outer; ++q) {
        out.offsets[static_cast<std::size_t>(q)] = count;
      }
    }
  });
  if (entries.shares_values) {
    out.values = entries.values;
    out.storage = t.buffer();
  } else {
    out.own_values = std::move(entries.own_values);
    out.values = std::span<const V>(out.own_values.data(), out.own_values.size());
  }
  return out;
}

/// matricised(), kept by the sparse buffer while its entries do not change (einsum's
/// repeated products with one sparse operator make its arrays once). The view must be strided
/// to be kept (its shape, strides and offset are the key); another is made each call. What is
/// kept holds no reference to the buffer: the caller keeps @p t alive while it reads it.
template <class T>
std::shared_ptr<const Compressed<std::remove_const_t<T>>> matricised_kept(const Tensor<T>& t,
                                                                          bool by_rows,
                                                                          std::size_t row_axes) {
  using C = Compressed<std::remove_const_t<T>>;
  if (!t.dims().is_strided()) {
    return std::make_shared<const C>(matricised(t, by_rows, row_axes));
  }
  Index key{by_rows ? 1 : 0, static_cast<index_t>(row_axes), t.dims().offset()};
  const Index shape = t.shape();
  const Index strides = t.dims().strides();
  key.insert(key.end(), shape.begin(), shape.end());
  key.insert(key.end(), strides.begin(), strides.end());
  return sparse_buffer(t)->template derived<C>(key, [&] {
    C made = matricised(t, by_rows, row_axes);
    made.storage = {};  // the buffer keeps this: no reference back to it
    return std::make_shared<const C>(std::move(made));
  });
}

template <class T>
Compressed<std::remove_const_t<T>> compressed(const Tensor<T>& t, bool by_rows,
                                              const char* operation) {
  using V = std::remove_const_t<T>;
  const SparseBuffer<V>* s = sparse_buffer(t);
  if (s == nullptr) {
    fail<LayoutError>(operation, "the tensor's buffer is not a SparseBuffer");
  }
  if (t.rank() != 2) {
    fail<ShapeError>(operation, "a matrix is needed; the tensor has shape ", to_string(t.shape()));
  }
  if (!(s->fill() == V{})) {
    fail<LayoutError>(operation,
                      "the fill value is not zero: compressed arrays mean zeros where nothing "
                      "is stored");
  }
  return matricised(t, by_rows, 1);
}

}  // namespace detail

/// The compressed sparse row (CSR) arrays of a sparse matrix (any view of rank 2; no copy of
/// the values for a row-major sparse tensor or a block of its rows). O(rows + nnz), on
/// OpenMP's threads above 2^16 entries.
/// @param t a sparse tensor of rank 2 whose fill value is zero
/// @return the arrays
/// @throws LayoutError when the storage is not sparse or the fill is not zero; ShapeError
///         when the rank is not 2
template <class T>
Compressed<std::remove_const_t<T>> csr(const Tensor<T>& t) {
  return detail::compressed(t, true, "csr");
}

/// The compressed sparse column (CSC) arrays of a sparse matrix: outer slices are columns,
/// inner indices rows (the values are reordered into own_values). O(cols + nnz) plus a sort.
/// @param t a sparse tensor of rank 2 whose fill value is zero
/// @return the arrays
/// @throws LayoutError when the storage is not sparse or the fill is not zero; ShapeError
///         when the rank is not 2
template <class T>
Compressed<std::remove_const_t<T>> csc(const Tensor<T>& t) {
  return detail::compressed(t, false, "csc");
}

/// Visits the stored entries of a sparse tensor (or any view) fibre by fibre, as the
/// compressed sparse fibre (CSF) format stores them: for each index prefix over all axes but
/// the last that has stored entries, in row-major order, calls
/// `f(prefix, last_indices, values)` with the fibre's entries along the last axis (increasing).
/// Transpose the view first to walk the axes in another order.
/// @param t a tensor over a SparseBuffer, rank >= 1
/// @param f the visitor, `f(IndexSpan, std::span<const index_t>, std::span<const T>)`
/// @throws LayoutError when the storage is not sparse; ShapeError for rank 0
template <class T, class F>
void for_each_fiber(const Tensor<T>& t, F&& f) {
  using V = std::remove_const_t<T>;
  if (t.rank() == 0) {
    detail::fail<ShapeError>("for_each_fiber", "a tensor of rank 0 has no fibres");
  }
  detail::SparseEntries<V> entries;
  detail::stored_entries(t, "for_each_fiber", entries);
  const Index shape = t.shape();
  const index_t last = shape.back();
  const Divisor by(std::max<index_t>(last, 1));
  const Index outer_shape(shape.begin(), shape.end() - 1);
  const detail::Unraveller unravel(outer_shape);
  Index prefix(outer_shape.size(), 0);
  std::vector<index_t> inner;
  for (std::size_t e = 0; e < entries.linear.size();) {
    const index_t fibre = by.divide(entries.linear[e]);
    std::size_t end = e;
    inner.clear();
    while (end < entries.linear.size() && by.divide(entries.linear[end]) == fibre) {
      inner.push_back(entries.linear[end] - fibre * last);
      ++end;
    }
    unravel(fibre, prefix.data());
    f(IndexSpan(prefix), std::span<const index_t>(inner), entries.values.subspan(e, end - e));
    e = end;
  }
}

}  // namespace strata
