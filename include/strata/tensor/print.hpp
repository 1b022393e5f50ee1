/// @file
/// Printing tensors as NumPy does: nested brackets, aligned columns, elision when large.
#pragma once

#include "strata/core/complex.hpp"
#include "strata/tensor/tensor.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace strata {

/// How tensors print (NumPy's `np.set_printoptions` names).
struct PrintOptions {
  index_t threshold = 1000;  ///< above this many elements, print only the edges
  index_t edgeitems = 3;     ///< elements kept at each edge of an elided axis
  int precision = 8;         ///< at most this many fractional digits for floating point
};

namespace detail {

/// The fewest digits after the point (fixed, or of the mantissa in scientific notation) that
/// print @p value so it reads back as the same T (NumPy's shortest round-trip repr), at most
/// @p precision.
template <class T>
int round_trip_digits(T value, int precision, bool scientific);

/// `value` printed by printf's `%.*e` (@p scientific) or `%.*f` with @p digits digits, however
/// long the text is.
inline std::string printed(double value, int digits, bool scientific) {
  const char* format = scientific ? "%.*e" : "%.*f";
  const int length = std::snprintf(nullptr, 0, format, digits, value);
  std::string text(static_cast<std::size_t>(std::max(length, 0)) + 1, '\0');
  std::snprintf(text.data(), text.size(), format, digits, value);
  text.pop_back();
  return text;
}

template <class T>
int round_trip_digits(T value, int precision, bool scientific) {
  for (int digits = 0; digits < precision; ++digits) {
    if (static_cast<T>(std::strtod(printed(static_cast<double>(value), digits, scientific).c_str(),
                                   nullptr)) == value) {
      return digits;
    }
  }
  return precision;
}

/// Formats floating-point values as NumPy's default: shortest digits up to the precision,
/// a trailing '.' for integral values, fractions padded so the points line up. Like NumPy, it
/// switches to scientific notation when the largest finite non-zero magnitude is >= 1e8, the
/// smallest is < 1e-4, or their ratio exceeds 1000; then every mantissa gets the same number of
/// digits (zero-padded) and every exponent the same width.
template <class T>
std::vector<std::string> format_floats(const std::vector<T>& values, int precision) {
  double largest = 0;
  double smallest = 0;
  bool any = false;
  for (const T v : values) {
    const double a = std::abs(static_cast<double>(v));
    if (std::isfinite(a) && a != 0) {
      largest = any ? std::max(largest, a) : a;
      smallest = any ? std::min(smallest, a) : a;
      any = true;
    }
  }
  const bool scientific = any && (largest >= 1e8 || smallest < 1e-4 || largest / smallest > 1000.0);
  std::vector<std::string> whole(values.size());
  std::vector<std::string> fraction(values.size());
  std::size_t fraction_width = 0;
  std::size_t whole_width = 0;
  if (scientific) {
    // The digits each value needs, then all printed with the most any needs, and every
    // exponent padded to the widest of those printed texts.
    int digits = 0;
    for (const T value : values) {
      if (std::isfinite(static_cast<double>(value))) {
        digits = std::max(digits, round_trip_digits(value, precision, true));
      }
    }
    std::size_t exponent_width = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const auto v = static_cast<double>(values[i]);
      if (std::isnan(v)) {
        whole[i] = "nan";
      } else if (std::isinf(v)) {
        whole[i] = v < 0 ? "-inf" : "inf";
      } else {
        whole[i] = printed(v, digits, true);
        if (digits == 0) {
          whole[i].insert(whole[i].find('e'), ".");  // NumPy keeps the point: 1.e+00
        }
        exponent_width = std::max(exponent_width, whole[i].size() - whole[i].find('e') - 2);
      }
    }
    for (std::size_t i = 0; i < values.size(); ++i) {
      std::string& s = whole[i];
      if (const auto e = s.find('e'); e != std::string::npos) {
        s.insert(e + 2, std::string(exponent_width - (s.size() - e - 2), '0'));
      }
      whole_width = std::max(whole_width, s.size());
    }
    std::vector<std::string> out(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      out[i] = std::string(whole_width - whole[i].size(), ' ') + whole[i];
    }
    return out;
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double v = static_cast<double>(values[i]);
    if (std::isnan(v)) {
      whole[i] = "nan";
    } else if (std::isinf(v)) {
      whole[i] = v < 0 ? "-inf" : "inf";
    } else {
      std::string s = printed(v, round_trip_digits(values[i], precision, false), false);
      if (s.find('.') == std::string::npos) {
        s += '.';
      }
      while (s.back() == '0') {
        s.pop_back();
      }
      const auto dot = s.find('.');
      whole[i] = s.substr(0, dot + 1);
      fraction[i] = s.substr(dot + 1);
      fraction_width = std::max(fraction_width, fraction[i].size());
    }
    whole_width = std::max(whole_width, whole[i].size());
  }
  std::vector<std::string> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::string padded_fraction = fraction[i];
    if (whole[i].back() == '.') {
      padded_fraction.resize(fraction_width, ' ');
    }
    out[i] = std::string(whole_width - whole[i].size(), ' ') + whole[i] + padded_fraction;
  }
  return out;
}

/// Formats complex values as NumPy's default: the real parts formatted together as floats,
/// the imaginary parts likewise with their sign always shown, then `j` (`1. +2.j`, `0.5-1.j`).
template <class F>
std::vector<std::string> format_complex(const std::vector<std::complex<F>>& values, int precision) {
  std::vector<F> re;
  std::vector<F> im;
  for (const std::complex<F>& v : values) {
    re.push_back(v.real());
    im.push_back(v.imag());
  }
  std::vector<std::string> out = format_floats(re, precision);
  std::vector<std::string> imag = format_floats(im, precision);
  // The signs: '+' where there is no '-', the left padding redone around them. (Built by
  // appending: g++ 12 -O3 warns falsely about std::string::insert here.)
  std::size_t width = 0;
  for (std::string& s : imag) {
    const std::size_t first = s.find_first_not_of(' ');
    std::string text(s[first] == '-' ? "" : "+");
    text.append(s, first, std::string::npos);
    s = std::move(text);
    width = std::max(width, s.size());
  }
  for (std::size_t k = 0; k < out.size(); ++k) {
    const std::string& s = imag[k];
    const std::size_t end = s.find_last_not_of(' ') + 1;  // 'j' goes before the fraction's padding
    out[k]
        .append(width - s.size(), ' ')
        .append(s, 0, end)
        .append(1, 'j')
        .append(s, end, std::string::npos);
  }
  return out;
}

template <class T>
std::vector<std::string> format_values(const std::vector<T>& values, int precision) {
  if constexpr (is_complex_v<T>) {
    return format_complex(values, precision);
  } else if constexpr (std::is_same_v<T, bool>) {
    // NumPy: right-aligned True / False.
    std::vector<std::string> out;
    bool any_false = false;
    for (const bool v : values) {
      any_false = any_false || !v;
    }
    for (const bool v : values) {
      out.emplace_back(v ? (any_false ? " True" : "True") : "False");
    }
    return out;
  } else if constexpr (std::is_floating_point_v<T>) {
    return format_floats(values, precision);
  } else {
    std::vector<std::string> out;
    std::size_t width = 0;
    for (const T v : values) {
      std::ostringstream s;
      if constexpr (std::is_integral_v<T>) {
        s << static_cast<long long>(v);
      } else {
        s << v;
      }
      out.push_back(s.str());
      width = std::max(width, out.back().size());
    }
    for (auto& s : out) {
      s.insert(0, width - s.size(), ' ');
    }
    return out;
  }
}

/// The indices shown along an axis: all, or the edges with a gap marker (-1).
inline std::vector<index_t> shown(index_t extent, bool elide, index_t edge) {
  std::vector<index_t> out;
  if (!elide || extent <= 2 * edge) {
    for (index_t i = 0; i < extent; ++i) {
      out.push_back(i);
    }
    return out;
  }
  for (index_t i = 0; i < edge; ++i) {
    out.push_back(i);
  }
  out.push_back(-1);
  for (index_t i = extent - edge; i < extent; ++i) {
    out.push_back(i);
  }
  return out;
}

}  // namespace detail

namespace detail {

/// The NumPy-style text of a tensor whose shown elements are formatted together by
/// `format(values, indices)` (the values in order and the index of each).
template <class T, class Format>
std::string tensor_text(const Tensor<T>& t, const PrintOptions& options, Format format) {
  const Index shape = t.shape();
  const int rank = t.rank();
  const bool elide = t.size() > options.threshold;
  // Collect the shown elements in order, format them together so columns align.
  std::vector<std::vector<index_t>> axes;
  for (int k = 0; k < rank; ++k) {
    axes.push_back(detail::shown(shape[static_cast<std::size_t>(k)], elide, options.edgeitems));
  }
  std::vector<std::remove_const_t<T>> values;
  std::vector<Index> indices;
  Index g(static_cast<std::size_t>(rank));
  const auto collect = [&](auto&& self, int depth) -> void {
    if (depth == rank) {
      values.push_back(t.at(g));
      indices.push_back(g);
      return;
    }
    for (const index_t i : axes[static_cast<std::size_t>(depth)]) {
      if (i >= 0) {
        g[static_cast<std::size_t>(depth)] = i;
        self(self, depth + 1);
      }
    }
  };
  collect(collect, 0);
  const std::vector<std::string> texts = format(values, indices);
  std::size_t next = 0;
  std::string out;
  const auto emit = [&](auto&& self, int depth) -> void {
    if (depth == rank) {
      out += texts[next++];
      return;
    }
    out += '[';
    bool first = true;
    for (const index_t i : axes[static_cast<std::size_t>(depth)]) {
      if (!first) {
        if (depth == rank - 1) {
          out += ' ';
        } else {
          out += std::string(static_cast<std::size_t>(rank - depth - 1), '\n');
          out += std::string(static_cast<std::size_t>(depth + 1), ' ');
        }
      }
      first = false;
      if (i < 0) {
        out += "...";
        continue;
      }
      self(self, depth + 1);
    }
    out += ']';
  };
  emit(emit, 0);
  return out;
}

}  // namespace detail

/// The NumPy-style text of a tensor: `[[0 1]\n [2 3]]`, with `...` past the threshold.
/// @param t the tensor
/// @param options threshold, edge items and precision
/// @return the text
template <class T>
std::string to_string(const Tensor<T>& t, const PrintOptions& options = {}) {
  return detail::tensor_text(
      t, options,
      [&](const std::vector<std::remove_const_t<T>>& values, const std::vector<Index>&) {
        return detail::format_values(values, options.precision);
      });
}

/// Prints a tensor as to_string() does.
/// @param out the stream
/// @param t the tensor
/// @return @p out
template <class T>
std::ostream& operator<<(std::ostream& out, const Tensor<T>& t) {
  return out << to_string(t);
}

}  // namespace strata
