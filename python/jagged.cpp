// strata.JaggedTensor: ragged rows (awkward-array's `n * var * dtype`) seen from Python, with
// the values and offsets as NumPy arrays over strata's memory (no copy) and per-row reductions.
#include "jagged.hpp"

#include "lazy.hpp"

#include "strata/tensor/list_array.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

namespace strata_python {

namespace {

using strata::JaggedTensor;

/// A JaggedTensor of one of the module's element types (the order of AnyTensor).
using AnyJagged =
    std::variant<JaggedTensor<double>, JaggedTensor<float>, JaggedTensor<std::int64_t>,
                 JaggedTensor<std::int32_t>, JaggedTensor<bool>>;

struct PyJagged {
  AnyJagged tensor;
};

template <class F>
decltype(auto) visit_jagged(const PyJagged& t, F&& f) {
  return std::visit(std::forward<F>(f), t.tensor);
}

/// A JaggedTensor of @p lengths rows holding a copy of the 1-D @p values.
PyJagged from_lengths(const PyTensor& values, const std::vector<index_t>& lengths) {
  const strata::Jagged shape = strata::Jagged::from_lengths(lengths);
  return visit(values, [&](const auto& v) -> PyJagged {
    using T = typename std::decay_t<decltype(v)>::value_type;
    if constexpr (is_complex_v<T>) {
      throw py::type_error(std::string("strata.JaggedTensor: ") + dtype_name<T>() +
                           " values are not offered (float64, float32, int64, int32, bool)");
    } else {
      auto out = JaggedTensor<T>::for_overwrite(shape);
      out.values().assign(v);
      return {AnyJagged(std::move(out))};
    }
  });
}

/// strata.JaggedTensor.from_offsets(values, offsets): awkward's / Arrow's ListOffsetArray.
PyJagged from_offsets(const py::object& values_object, const py::object& offsets_object) {
  const py::module_ np = py::module_::import("numpy");
  const PyTensor values = asarray(np.attr("ascontiguousarray")(values_object));
  const auto rank = visit(values, [](const auto& v) { return v.rank(); });
  if (rank != 1) {
    throw py::value_error("strata.JaggedTensor.from_offsets: values must be 1-D, not of " +
                          std::to_string(rank) + " dimensions");
  }
  const py::array offsets_array = np.attr("asarray")(offsets_object);
  if (offsets_array.ndim() != 1 || offsets_array.size() < 1 ||
      py::str(offsets_array.dtype().attr("kind")).cast<std::string>().find_first_of("iu") != 0) {
    throw py::value_error(
        "strata.JaggedTensor.from_offsets: offsets must be a 1-D integer array "
        "of at least one element (rows + 1), not " +
        py::repr(offsets_array).cast<std::string>());
  }
  const auto offsets = offsets_array.attr("astype")("int64").cast<std::vector<index_t>>();
  const index_t size = visit(values, [](const auto& v) { return v.size(); });
  std::vector<index_t> lengths;
  for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
    if (offsets[r + 1] < offsets[r]) {
      throw py::value_error("strata.JaggedTensor.from_offsets: offsets decrease at row " +
                            std::to_string(r) + " (" + std::to_string(offsets[r]) + " then " +
                            std::to_string(offsets[r + 1]) + ")");
    }
    lengths.push_back(offsets[r + 1] - offsets[r]);
  }
  if (offsets.front() < 0 || offsets.back() > size) {
    throw py::value_error("strata.JaggedTensor.from_offsets: offsets [" +
                          std::to_string(offsets.front()) + ", " + std::to_string(offsets.back()) +
                          "] reach outside the " + std::to_string(size) + " values");
  }
  // values[offsets[0] : offsets[-1]], as awkward reads a ListOffsetArray
  const PyTensor used = visit(values, [&](const auto& v) {
    return wrap(Tensor(v).select({strata::Range{offsets.front(), offsets.back()}}));
  });
  return from_lengths(used, lengths);
}

/// strata.JaggedTensor.from_starts_stops(values, starts, stops): awkward's / Arrow's ListArray,
/// packed (strata::ListArray::to_jagged).
PyJagged from_starts_stops(const py::object& values_object, const py::object& starts_object,
                           const py::object& stops_object) {
  const py::module_ np = py::module_::import("numpy");
  const PyTensor values = asarray(np.attr("ascontiguousarray")(values_object));
  const auto positions = [&](const py::object& object, const char* name) {
    const py::array a = np.attr("asarray")(object);
    if (a.ndim() != 1 ||
        (a.size() > 0 &&
         py::str(a.dtype().attr("kind")).cast<std::string>().find_first_of("iu") != 0)) {
      throw py::value_error(std::string("strata.JaggedTensor.from_starts_stops: ") + name +
                            " must be a 1-D integer array, not " + py::repr(a).cast<std::string>());
    }
    return a.attr("astype")("int64").cast<std::vector<index_t>>();
  };
  std::vector<index_t> starts = positions(starts_object, "starts");
  std::vector<index_t> stops = positions(stops_object, "stops");
  return visit(values, [&](const auto& v) -> PyJagged {
    using T = typename std::decay_t<decltype(v)>::value_type;
    if constexpr (is_complex_v<T> || std::is_const_v<T>) {
      throw py::type_error(std::string("strata.JaggedTensor: ") + dtype_name<T>() +
                           " values are not offered (float64, float32, int64, int32, bool)");
    } else {
      return {AnyJagged(
          strata::ListArray<T>::from_arrays(Tensor<T>(v), std::move(starts), std::move(stops))
              .to_jagged())};
    }
  });
}

/// strata.JaggedTensor(rows, dtype=None): a copy of a list of 1-D sequences.
PyJagged from_rows(const py::iterable& rows, const py::object& dtype) {
  const py::module_ np = py::module_::import("numpy");
  py::list arrays;
  py::list voters;  // the rows with values: an empty row does not decide the type
  std::vector<index_t> lengths;
  for (const py::handle row : rows) {
    py::array a = np.attr("asarray")(row);
    if (a.ndim() != 1) {
      throw py::value_error("strata.JaggedTensor: row " + std::to_string(lengths.size()) + " has " +
                            std::to_string(a.ndim()) + " dimensions: rows must be 1-D sequences");
    }
    lengths.push_back(a.size());
    arrays.append(a);
    if (a.size() > 0)
      voters.append(a);
  }
  py::object type = dtype;
  if (!type.is_none()) {
    type = np.attr("dtype")(dtype_name(parse_dtype(
        py::str(np.attr("dtype")(type).attr("name")).cast<std::string>(), "strata.JaggedTensor")));
  } else {
    type = voters.empty() ? np.attr("dtype")("float64") : np.attr("result_type")(*voters);
    if (py::str(type.attr("kind")).cast<std::string>() == "u")
      type = np.attr("dtype")("int64");
  }
  const py::object values = lengths.empty() ? np.attr("zeros")(0, type)
                                            : np.attr("concatenate")(arrays).attr("astype")(type);
  return from_lengths(asarray(values), lengths);
}

index_t row_number(const PyJagged& t, index_t r) {
  const index_t n = visit_jagged(t, [](const auto& x) { return x.shape().n_rows(); });
  if (r < -n || r >= n) {
    throw py::index_error("strata.JaggedTensor: row " + std::to_string(r) +
                          " is out of range for " + std::to_string(n) + " rows (valid: [" +
                          std::to_string(-n) + ", " + std::to_string(n) + "))");
  }
  return r < 0 ? r + n : r;
}

/// The axis argument of a reduction: None, 0 (across rows, awkward's axis=0), 1 or -1 (per row).
std::optional<index_t> reduction_axis(const py::object& axis, const char* name) {
  if (axis.is_none())
    return std::nullopt;
  const auto a = axis.cast<index_t>();
  if (a < -2 || a > 1) {
    throw py::index_error(std::string("strata.JaggedTensor.") + name + ": axis " +
                          std::to_string(a) +
                          " is out of range for 2 dimensions (valid: None, -2, -1, 0, 1)");
  }
  return a < 0 ? a + 2 : a;
}

/// sum, prod, mean, min, max, var, std, argmin, argmax, count: None gives a number (all values),
/// an axis a strata.Tensor.
py::object reduce(const PyJagged& t, const std::string& name, const py::object& axis_object,
                  index_t ddof) {
  const auto axis = reduction_axis(axis_object, name.c_str());
  return visit_jagged(t, [&](const auto& x) -> py::object {
    using T = typename std::decay_t<decltype(x)>::value_type;
    if (name == "count") {
      if (!axis)
        return py::cast(x.size());
      return py::cast(wrap(strata::count(x, strata::Index{*axis})));
    }
    if constexpr (std::is_same_v<T, bool>) {
      throw py::type_error(
          "strata.JaggedTensor." + name + ": a bool tensor has no " + name +
          " (convert it first: JaggedTensor.from_offsets(values.astype(int), offsets))");
    } else {
      if (!axis) {
        const Tensor<const T> v = x.values();
        if (name == "sum")
          return py::cast(strata::sum(v));
        if (name == "prod")
          return py::cast(strata::prod(v));
        if (name == "mean")
          return py::cast(strata::mean(v));
        if (name == "min")
          return py::cast(strata::min(v));
        if (name == "max")
          return py::cast(strata::max(v));
        if (name == "var")
          return py::cast(strata::var(v, strata::Ddof{ddof}));
        if (name == "std")
          return py::cast(strata::std(v, strata::Ddof{ddof}));
        if (name == "argmin")
          return py::cast(strata::argmin(v));
        return py::cast(strata::argmax(v));
      }
      const strata::Index axes{*axis};
      if (name == "sum")
        return py::cast(wrap(strata::sum(x, axes)));
      if (name == "prod")
        return py::cast(wrap(strata::prod(x, axes)));
      if (name == "mean")
        return py::cast(wrap(strata::mean(x, axes)));
      if (name == "min")
        return py::cast(wrap(strata::min(x, axes)));
      if (name == "max")
        return py::cast(wrap(strata::max(x, axes)));
      if (name == "var")
        return py::cast(wrap(strata::var(x, axes, strata::Ddof{ddof})));
      if (name == "std")
        return py::cast(wrap(strata::std(x, axes, strata::Ddof{ddof})));
      if (name == "argmin")
        return py::cast(wrap(strata::argmin(x, axes)));
      return py::cast(wrap(strata::argmax(x, axes)));
    }
  });
}

/// The values of @p x as one row (what a reduction with axis None combines).
template <class T>
JaggedTensor<T> one_row(const JaggedTensor<T>& x) {
  auto out = JaggedTensor<T>::for_overwrite(strata::Jagged::from_lengths(std::vector<index_t>{x.size()}));
  out.values().assign(x.values());
  return out;
}

/// nansum, nanprod, nanmean, nanmin, nanmax, nanvar, nanstd, nanargmin, nanargmax: NaN left
/// out; None gives a number (all values), an axis a strata.Tensor.
py::object nan_reduce(const PyJagged& t, const std::string& name, const py::object& axis_object,
                      index_t ddof) {
  const auto axis = reduction_axis(axis_object, name.c_str());
  return visit_jagged(t, [&](const auto& x) -> py::object {
    using T = typename std::decay_t<decltype(x)>::value_type;
    if constexpr (std::is_same_v<T, bool>) {
      throw py::type_error("strata.JaggedTensor." + name + ": a bool tensor has no " + name +
                           " (convert it first: JaggedTensor.from_offsets(values.astype(int), offsets))");
    } else {
      const auto run = [&](const JaggedTensor<T>& y, const strata::Index& axes) -> py::object {
        if (name == "nansum")
          return py::cast(wrap(strata::nansum(y, axes)));
        if (name == "nanprod")
          return py::cast(wrap(strata::nanprod(y, axes)));
        if (name == "nanmean")
          return py::cast(wrap(strata::nanmean(y, axes)));
        if (name == "nanmin")
          return py::cast(wrap(strata::nanmin(y, axes)));
        if (name == "nanmax")
          return py::cast(wrap(strata::nanmax(y, axes)));
        if (name == "nanvar")
          return py::cast(wrap(strata::nanvar(y, axes, strata::Ddof{ddof})));
        if (name == "nanstd")
          return py::cast(wrap(strata::nanstd(y, axes, strata::Ddof{ddof})));
        if (name == "nanargmin")
          return py::cast(wrap(strata::nanargmin(y, axes)));
        return py::cast(wrap(strata::nanargmax(y, axes)));
      };
      if (axis)
        return run(x, strata::Index{*axis});
      const py::object all = run(one_row(x), strata::Index{1});
      return all.attr("__getitem__")(0);  // the one row's value, a Python number
    }
  });
}

/// The weighted moments: average(weights, axis), the weighted mean (NumPy's np.average), and
/// var / std with weight= (awkward's): `name` is "average", "var" or "std".
py::object weighted(const PyJagged& t, const PyJagged& weights, const py::object& axis_object,
                    const std::string& name, index_t ddof) {
  const auto axis = reduction_axis(axis_object, name.c_str());
  return visit_jagged(t, [&](const auto& x) -> py::object {
    using T = typename std::decay_t<decltype(x)>::value_type;
    return visit_jagged(weights, [&](const auto& w) -> py::object {
      using W = typename std::decay_t<decltype(w)>::value_type;
      if constexpr (std::is_same_v<T, bool> || std::is_same_v<W, bool>) {
        throw py::type_error("strata.JaggedTensor." + name +
                             ": bool values or weights are not offered");
      } else if constexpr (!std::is_same_v<T, W>) {
        throw py::type_error("strata.JaggedTensor." + name + ": weights of " +
                             std::string(dtype_name<W>()) + " for values of " +
                             std::string(dtype_name<T>()) + " (give both one type)");
      } else {
        const auto run = [&](const JaggedTensor<T>& y, const JaggedTensor<W>& v,
                             const strata::Index& axes) -> py::object {
          if (name == "var")
            return py::cast(wrap(strata::var(y, axes, v, strata::Ddof{ddof})));
          if (name == "std")
            return py::cast(wrap(strata::std(y, axes, v, strata::Ddof{ddof})));
          return py::cast(wrap(strata::average(y, axes, v)));
        };
        if (axis)
          return run(x, w, strata::Index{*axis});
        return run(one_row(x), one_row(w), strata::Index{1}).attr("__getitem__")(0);
      }
    });
  });
}

/// average(weights, axis): the weighted mean, NumPy's np.average.
py::object average(const PyJagged& t, const PyJagged& weights, const py::object& axis_object) {
  return weighted(t, weights, axis_object, "average", 0);
}

/// min / max with NumPy's and awkward's initial=: the value an empty row gives, and a bound on
/// every other (NaN from either side propagates); along None, 0 or 1.
py::object reduce_from(const PyJagged& t, const std::string& name, const py::object& axis_object,
                       const py::object& initial) {
  const auto axis = reduction_axis(axis_object, name.c_str());
  return visit_jagged(t, [&](const auto& x) -> py::object {
    using T = typename std::decay_t<decltype(x)>::value_type;
    if constexpr (std::is_same_v<T, bool>) {
      throw py::type_error("strata.JaggedTensor." + name + ": a bool tensor has no " + name +
                           " (convert it first: JaggedTensor.from_offsets(values.astype(int), "
                           "offsets))");
    } else {
      const bool is_number = py::isinstance<py::int_>(initial) ||
                             (std::is_floating_point_v<T> && py::isinstance<py::float_>(initial));
      if (!is_number) {
        throw py::type_error("strata.JaggedTensor." + name +
                             ": initial=" + py::str(py::repr(initial)).cast<std::string>() +
                             " is not a number of the tensor's dtype " + dtype_name<T>());
      }
      const auto v = initial.cast<T>();
      const bool high = name == "max";
      if (axis) {
        const strata::Initial<T> from{v};
        return py::cast(wrap(high ? strata::max(x, *axis, from) : strata::min(x, *axis, from)));
      }
      const Tensor<const T> values = x.values();
      if (values.size() == 0) {
        return py::cast(v);
      }
      const T m = high ? strata::max(values) : strata::min(values);
      if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(m) || std::isnan(v)) {
          return py::cast(std::isnan(m) ? m : v);
        }
      }
      return py::cast(high ? std::max(m, v) : std::min(m, v));
    }
  });
}

/// A reduction's result with awkward's mask_identity=True: a numpy.ma.MaskedArray masked where
/// the group had no value (no value that is not NaN when @p skip_nan), 0 under the mask; with
/// axis None, None when there is no value at all.
py::object with_mask_identity(const PyJagged& t, const py::object& result,
                              const std::optional<index_t>& axis, bool skip_nan) {
  const py::module_ np = py::module_::import("numpy");
  return visit_jagged(t, [&](const auto& x) -> py::object {
    using T = typename std::decay_t<decltype(x)>::value_type;
    if constexpr (std::is_same_v<T, bool>) {
      return result;  // not reached: a bool tensor has no reduction but count
    } else {
      if (!axis) {
        const bool any = skip_nan ? strata::nansum(one_row(x), 1, strata::mask_identity).count() > 0
                                  : x.size() > 0;
        return any ? result : py::none();
      }
      const Tensor<bool> valid = skip_nan ? strata::nansum(x, *axis, strata::mask_identity).valid()
                                          : strata::sum(x, *axis, strata::mask_identity).valid();
      const py::object v = np.attr("asarray")(py::cast(wrap(valid)));
      const py::object data = np.attr("asarray")(result);
      return np.attr("ma").attr("MaskedArray")(
          np.attr("where")(v, data, 0).attr("astype")(data.attr("dtype")),
          py::arg("mask") = np.attr("logical_not")(v));
    }
  });
}

/// A copy of a masked dense tensor as a numpy.ma.MaskedArray (NumPy's mask: true where missing).
template <class T>
py::object masked_array(const strata::Masked<Tensor<T>>& m) {
  const py::module_ np = py::module_::import("numpy");
  const py::object valid = np.attr("asarray")(py::cast(wrap(m.valid())));
  return np.attr("ma").attr("MaskedArray")(np.attr("array")(py::cast(wrap(m.values()))),
                                           py::arg("mask") = np.attr("logical_not")(valid));
}

/// firsts / lasts: the first or last value of each row as a numpy.ma.MaskedArray, masked where
/// the row is empty (awkward's ak.firsts, None there).
py::object row_ends(const PyJagged& t, bool last) {
  return visit_jagged(t, [&](const auto& x) {
    return masked_array(last ? strata::lasts(x) : strata::firsts(x));
  });
}

/// pad_none(target): each row padded with None to at least target elements, as Python lists
/// (awkward's `ak.pad_none(array, target).to_list()`).
py::object pad_none_lists(const PyJagged& t, index_t target) {
  return visit_jagged(t, [&](const auto& x) -> py::object {
    const auto m = strata::pad_none(x, target);
    py::list rows;
    for (index_t r = 0; r < m.values().shape().n_rows(); ++r) {
      py::list row;
      const auto values = m.values().row(r);
      const auto valid = m.valid().row(r);
      for (std::size_t k = 0; k < values.size(); ++k) {
        row.append(valid[k] ? py::cast(values[k]) : py::none());
      }
      rows.append(row);
    }
    return rows;
  });
}

/// pad_none(target, clip=True): each row padded with masked entries or cut to target elements, a
/// 2-D numpy.ma.MaskedArray (awkward's ak.pad_none with clip=True).
py::object pad_none_clipped(const PyJagged& t, index_t target) {
  return visit_jagged(
      t, [&](const auto& x) { return masked_array(strata::pad_none(x, target, strata::Clip{})); });
}

}  // namespace

void def_jagged(py::module_& m) {
  py::class_<PyJagged> cls(m, "JaggedTensor",
                           "Rows of different lengths (awkward-array's n * var * dtype): one "
                           "values array and row offsets, shared with NumPy without a copy");
  cls.def(py::init(&from_rows), py::arg("rows"), py::arg("dtype") = py::none(),
          "a copy of a list of 1-D sequences (lists, arrays); dtype as NumPy infers it, or given")
      .def_static("from_offsets", &from_offsets, py::arg("values"), py::arg("offsets"),
                  "a copy of awkward's / Arrow's ListOffsetArray: row r is "
                  "values[offsets[r]:offsets[r + 1]]")
      .def_static("from_starts_stops", &from_starts_stops, py::arg("values"), py::arg("starts"),
                  py::arg("stops"),
                  "a packed copy of awkward's / Arrow's ListArray: row r is "
                  "values[starts[r]:stops[r]] (rows in any order, overlapping or leaving values "
                  "unused)")
      .def_property_readonly(
          "values",
          [](py::object self) {
            const auto& t = self.cast<const PyJagged&>();
            return visit_jagged(t, [&](const auto& x) -> py::array {
              using T = typename std::decay_t<decltype(x)>::value_type;
              auto v = JaggedTensor<T>(x).values();
              static T empty{};
              T* data = v.size() > 0 ? v.data() : &empty;
              return py::array(py::dtype::of<T>(), {v.size()}, {static_cast<index_t>(sizeof(T))},
                               data, self);
            });
          },
          "the values, row after row: a NumPy array over strata's memory (writes go through)")
      .def_property_readonly(
          "offsets",
          [](py::object self) {
            const auto& t = self.cast<const PyJagged&>();
            return visit_jagged(t, [&](const auto& x) -> py::array {
              const auto o = x.offsets();
              py::array a(py::dtype::of<std::int64_t>(), {static_cast<index_t>(o.size())},
                          {static_cast<index_t>(sizeof(index_t))}, o.data(), self);
              py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
              return a;
            });
          },
          "where each row starts in values, plus the size (rows + 1 int64, read-only, no copy)")
      .def_property_readonly(
          "dtype",
          [](const PyJagged& t) {
            return visit_jagged(t, [](const auto& x) {
              return std::string(dtype_name<typename std::decay_t<decltype(x)>::value_type>());
            });
          })
      .def_property_readonly(
          "type",
          [](const PyJagged& t) {
            return visit_jagged(t, [](const auto& x) {
              using T = typename std::decay_t<decltype(x)>::value_type;
              return std::to_string(x.shape().n_rows()) + " * var * " + dtype_name<T>();
            });
          },
          "awkward's type string, 'n * var * dtype'")
      .def_property_readonly("ndim", [](const PyJagged&) { return 2; })
      .def_property_readonly(
          "size",
          [](const PyJagged& t) { return visit_jagged(t, [](const auto& x) { return x.size(); }); },
          "the number of values")
      .def("__len__",
           [](const PyJagged& t) {
             return visit_jagged(t, [](const auto& x) { return x.shape().n_rows(); });
           })
      .def(
          "num",
          [](const PyJagged& t) {
            return visit_jagged(t, [](const auto& x) { return wrap(strata::num(x, 1)); });
          },
          "each row's length (awkward's ak.num), a strata.Tensor")
      .def(
          "__getitem__",
          [](const PyJagged& t, index_t r) {
            const index_t row = row_number(t, r);
            return visit_jagged(t, [&](const auto& x) {
              using T = typename std::decay_t<decltype(x)>::value_type;
              return wrap(JaggedTensor<T>(x).values().select(
                  {strata::Range{x.offsets()[static_cast<std::size_t>(row)],
                                 x.offsets()[static_cast<std::size_t>(row) + 1]}}));
            });
          },
          "row r as a 1-D strata.Tensor view (negative from the end)")
      .def(
          "to_list",
          [](const PyJagged& t) {
            return visit_jagged(t, [](const auto& x) {
              py::list rows;
              for (index_t r = 0; r < x.shape().n_rows(); ++r) {
                py::list row;
                for (const auto& v : x.row(r))
                  row.append(py::cast(v));
                rows.append(row);
              }
              return rows;
            });
          },
          "the rows as Python lists (awkward's to_list)")
      .def(
          "draw",
          [](const PyJagged& t, const std::string& title) {
            return visit_jagged(
                t, [&](const auto& x) { return PySvg{strata::draw::jagged(x, title)}; });
          },
          py::arg("title") = "", "a picture of the rows, the values array and the offsets")
      .def("__str__",
           [](const PyJagged& t) {
             std::ostringstream s;
             visit_jagged(t, [&](const auto& x) { s << x; });
             return s.str();
           })
      .def("__repr__", [](const PyJagged& t) {
        std::ostringstream s;
        visit_jagged(t, [&](const auto& x) {
          s << "strata.JaggedTensor(" << x
            << ", dtype=" << dtype_name<typename std::decay_t<decltype(x)>::value_type>() << ")";
        });
        return s.str();
      });
  cls.def(
      "count", [](const PyJagged& t, const py::object& axis) { return reduce(t, "count", axis, 0); },
      py::arg("axis") = py::none(), "the number of values: all (None), per row (1), per position (0)");
  for (const char* name : {"min", "max"}) {
    cls.def(
        name,
        [name = std::string(name)](const PyJagged& t, const py::object& axis, bool mask_identity,
                                   const py::object& initial) {
          const py::object out =
              initial.is_none() ? reduce(t, name, axis, 0) : reduce_from(t, name, axis, initial);
          return mask_identity
                     ? with_mask_identity(t, out, reduction_axis(axis, name.c_str()), false)
                     : out;
        },
        py::arg("axis") = py::none(), py::kw_only(), py::arg("mask_identity") = false,
        py::arg("initial") = py::none(),
        "None: all values (a number); 1 or -1: per row; 0: across rows, element k of every row "
        "that has one (awkward's axis=0); a strata.Tensor. An empty row gives +-inf (the extreme "
        "value of an integer dtype), or initial= when given (NumPy's and awkward's initial: "
        "also a bound on every other result). mask_identity=True: a numpy.ma.MaskedArray masked "
        "where a row is empty");
  }
  for (const char* name : {"sum", "prod", "mean", "argmin", "argmax"}) {
    cls.def(
        name,
        [name = std::string(name)](const PyJagged& t, const py::object& axis, bool mask_identity) {
          const py::object out = reduce(t, name, axis, 0);
          return mask_identity ? with_mask_identity(t, out, reduction_axis(axis, name.c_str()), false)
                               : out;
        },
        py::arg("axis") = py::none(), py::kw_only(), py::arg("mask_identity") = false,
        "None: all values (a number); 1 or -1: per row; 0: across rows, element k of every row "
        "that has one (awkward's axis=0); a strata.Tensor. mask_identity=True: a "
        "numpy.ma.MaskedArray masked where a row is empty (None for no values at all)");
  }
  for (const char* name : {"nansum", "nanprod", "nanmean", "nanmin", "nanmax", "nanargmin", "nanargmax"}) {
    cls.def(
        name,
        [name = std::string(name)](const PyJagged& t, const py::object& axis, bool mask_identity) {
          const py::object out = nan_reduce(t, name, axis, 0);
          return mask_identity ? with_mask_identity(t, out, reduction_axis(axis, name.c_str()), true)
                               : out;
        },
        py::arg("axis") = py::none(), py::kw_only(), py::arg("mask_identity") = false,
        "as the reduction without nan, NaN left out (awkward's nan-reductions: a row of nothing "
        "but NaN is an empty one); mask_identity=True masks such rows");
  }
  for (const char* name : {"nanvar", "nanstd"}) {
    cls.def(
        name,
        [name = std::string(name)](const PyJagged& t, const py::object& axis, index_t ddof,
                                   bool mask_identity) {
          const py::object out = nan_reduce(t, name, axis, ddof);
          return mask_identity ? with_mask_identity(t, out, reduction_axis(axis, name.c_str()), true)
                               : out;
        },
        py::arg("axis") = py::none(), py::arg("ddof") = 0, py::kw_only(),
        py::arg("mask_identity") = false, "as var / std, NaN left out");
  }
  cls.def(
         "firsts", [](const PyJagged& t) { return row_ends(t, false); },
         "each row's first value, a numpy.ma.MaskedArray masked where the row is empty "
         "(awkward's ak.firsts)")
      .def(
          "lasts", [](const PyJagged& t) { return row_ends(t, true); },
          "each row's last value, masked where the row is empty")
      .def(
          "pad_none",
          [](const PyJagged& t, index_t target, bool clip) {
            return clip ? pad_none_clipped(t, target) : pad_none_lists(t, target);
          },
          py::arg("target"), py::kw_only(), py::arg("clip") = false,
          "awkward's ak.pad_none: each row padded with None to at least target elements, as "
          "lists (awkward's to_list of the result; rows of different lengths with missing values "
          "have no NumPy form); clip=True: padded or cut to exactly target, a 2-D "
          "numpy.ma.MaskedArray");
  cls.def("average", &average, py::arg("weights"), py::arg("axis") = py::none(),
          "the weighted mean sum(w * x) / sum(w) (NumPy's np.average, awkward's mean with "
          "weight=), weights a JaggedTensor of the same structure and type");
  for (const char* name : {"var", "std"}) {
    cls.def(
        name,
        [name = std::string(name)](const PyJagged& t, const py::object& axis, index_t ddof,
                                   bool mask_identity, const py::object& weight) {
          if (!weight.is_none() && !py::isinstance<PyJagged>(weight)) {
            throw py::type_error("strata.JaggedTensor." + name + ": weight= " +
                                 py::str(py::repr(weight)).cast<std::string>() +
                                 " is not a strata.JaggedTensor (one weight per value, in rows "
                                 "of the same shapes)");
          }
          const py::object out = weight.is_none()
                                     ? reduce(t, name, axis, ddof)
                                     : weighted(t, weight.cast<const PyJagged&>(), axis, name, ddof);
          return mask_identity ? with_mask_identity(t, out, reduction_axis(axis, name.c_str()), false)
                               : out;
        },
        py::arg("axis") = py::none(), py::arg("ddof") = 0, py::kw_only(),
        py::arg("mask_identity") = false, py::arg("weight") = py::none(),
        "as sum, with NumPy's ddof; weight= a JaggedTensor of the same structure and type: "
        "awkward's weighted form, sum(w * (x - m)**2) / (sum(w) - ddof) with m the weighted mean "
        "(NaN where there is no mean: an empty row, weights summing to 0)");
  }
}

}  // namespace strata_python
