// HDF5 files (strata/io/hdf5.hpp): the only file of strata that includes <hdf5.h>.
#include "strata/io/hdf5.hpp"

#include "internal.hpp"

#include <hdf5.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

static_assert(std::is_same_v<hid_t, std::int64_t>, "strata::io keeps hid_t as std::int64_t");

namespace strata::io {

using strata::detail::fail;

std::string_view to_string(DType type) noexcept {
  switch (type) {
    case DType::boolean:
      return "bool";
    case DType::int8:
      return "int8";
    case DType::int16:
      return "int16";
    case DType::int32:
      return "int32";
    case DType::int64:
      return "int64";
    case DType::uint8:
      return "uint8";
    case DType::uint16:
      return "uint16";
    case DType::uint32:
      return "uint32";
    case DType::uint64:
      return "uint64";
    case DType::float32:
      return "float32";
    case DType::float64:
      return "float64";
    case DType::complex64:
      return "complex64";
    case DType::complex128:
      return "complex128";
    case DType::string:
      return "string";
    case DType::other:
      return "other";
  }
  return "other";
}

namespace internal {

// ---- HDF5's errors ---------------------------------------------------------------------------

/// Turns off HDF5's printing of its error stack (once): strata reports through exceptions.
void quiet() {
  static const bool silenced = [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    return true;
  }();
  static_cast<void>(silenced);
}

/// What HDF5 said about its last failure (the outermost and the innermost description), and
/// clears its error stack.
std::string hdf5_says() {
  std::vector<std::string> lines;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_DOWNWARD,
      [](unsigned /*n*/, const H5E_error2_t* e, void* data) -> herr_t {
        if (e->desc != nullptr && *e->desc != '\0') {
          static_cast<std::vector<std::string>*>(data)->emplace_back(e->desc);
        }
        return 0;
      },
      &lines);
  H5Eclear2(H5E_DEFAULT);
  if (lines.empty()) {
    return "HDF5 gave no detail";
  }
  std::string text = "HDF5 says: " + lines.front();
  if (lines.size() > 1) {
    text += " (" + lines.back() + ")";
  }
  return text;
}

[[noreturn]] void fail_io(std::string_view operation, const std::string& what) {
  const std::string says = hdf5_says();
  fail<IOError>(operation, what, ": ", says);
}

std::string quoted(const std::string& s) {
  return "'" + s + "'";
}

// ---- types -----------------------------------------------------------------------------------

/// The HDF5 type of a DType in memory (and in new files: native, as h5py writes).
detail::Handle memory_type(DType type) {
  const auto copy = [](hid_t t) { return detail::Handle(H5Tcopy(t)); };
  switch (type) {
    case DType::boolean: {
      const hid_t t = H5Tenum_create(H5T_NATIVE_INT8);
      signed char v = 0;
      H5Tenum_insert(t, "FALSE", &v);
      v = 1;
      H5Tenum_insert(t, "TRUE", &v);
      return detail::Handle(t);
    }
    case DType::int8:
      return copy(H5T_NATIVE_INT8);
    case DType::int16:
      return copy(H5T_NATIVE_INT16);
    case DType::int32:
      return copy(H5T_NATIVE_INT32);
    case DType::int64:
      return copy(H5T_NATIVE_INT64);
    case DType::uint8:
      return copy(H5T_NATIVE_UINT8);
    case DType::uint16:
      return copy(H5T_NATIVE_UINT16);
    case DType::uint32:
      return copy(H5T_NATIVE_UINT32);
    case DType::uint64:
      return copy(H5T_NATIVE_UINT64);
    case DType::float32:
      return copy(H5T_NATIVE_FLOAT);
    case DType::float64:
      return copy(H5T_NATIVE_DOUBLE);
    case DType::complex64:
    case DType::complex128: {
      const bool single = type == DType::complex64;
      const std::size_t half = single ? sizeof(float) : sizeof(double);
      const hid_t t = H5Tcreate(H5T_COMPOUND, 2 * half);
      H5Tinsert(t, "r", 0, single ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE);
      H5Tinsert(t, "i", half, single ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE);
      return detail::Handle(t);
    }
    case DType::string:
    case DType::other:
      break;
  }
  return {};
}

std::string member_name(hid_t type, unsigned k) {
  char* name = H5Tget_member_name(type, k);
  std::string s = name != nullptr ? name : "";
  H5free_memory(name);
  return s;
}

/// The DType of a type stored in a file.
DType dtype_of_type(hid_t type) {
  const std::size_t size = H5Tget_size(type);
  switch (H5Tget_class(type)) {
    case H5T_INTEGER: {
      const bool sign = H5Tget_sign(type) == H5T_SGN_2;
      const int log = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : size == 8 ? 3 : -1;
      if (log < 0) {
        return DType::other;
      }
      return static_cast<DType>(static_cast<int>(sign ? DType::int8 : DType::uint8) + log);
    }
    case H5T_FLOAT:
      return size == 4 ? DType::float32 : size == 8 ? DType::float64 : DType::other;
    case H5T_ENUM: {
      const bool two = H5Tget_nmembers(type) == 2 && size == 1;
      if (two && member_name(type, 0) == "FALSE" && member_name(type, 1) == "TRUE") {
        return DType::boolean;
      }
      return DType::other;
    }
    case H5T_COMPOUND: {
      if (H5Tget_nmembers(type) != 2 || member_name(type, 0) != "r" ||
          member_name(type, 1) != "i") {
        return DType::other;
      }
      const hid_t part = H5Tget_member_type(type, 0);
      const bool is_float = H5Tget_class(part) == H5T_FLOAT;
      const std::size_t part_size = H5Tget_size(part);
      H5Tclose(part);
      if (!is_float || (part_size != 4 && part_size != 8)) {
        return DType::other;
      }
      return part_size == 4 ? DType::complex64 : DType::complex128;
    }
    case H5T_STRING:
      return DType::string;
    default:
      return DType::other;
  }
}

bool is_numeric(DType t) {
  return t >= DType::int8 && t <= DType::float64;
}

/// Whether HDF5 converts @p from to @p to as strata documents (numbers among themselves, bool
/// to bool, complex to complex).
bool convertible(DType from, DType to) {
  if (is_numeric(from) && is_numeric(to)) {
    return true;
  }
  const auto complex = [](DType t) { return t == DType::complex64 || t == DType::complex128; };
  return (from == DType::boolean && to == DType::boolean) || (complex(from) && complex(to));
}

void check_convertible(std::string_view operation, DType stored, DType asked,
                       const std::string& where, bool reading) {
  if (!convertible(stored, asked)) {
    if (reading) {
      fail<TypeError>(
          operation, "cannot convert the stored ", to_string(stored), " of ", where, " to ",
          to_string(asked),
          " (HDF5 converts numbers among themselves, bool to bool, complex to complex)");
    }
    fail<TypeError>(operation, "cannot store ", to_string(asked), " elements in ", where,
                    ", which holds ", to_string(stored));
  }
}

bool file_writable(hid_t object) {
  const hid_t file = H5Iget_file_id(object);
  unsigned intent = 0;
  H5Fget_intent(file, &intent);
  H5Fclose(file);
  return (intent & H5F_ACC_RDWR) != 0;
}

/// Splits "a/b/c" into ("a/b", "c").
std::pair<std::string, std::string> split_parent(const std::string& name) {
  const auto slash = name.find_last_of('/');
  if (slash == std::string::npos) {
    return {"", name};
  }
  return {name.substr(0, slash), name.substr(slash + 1)};
}

/// Whether every part of @p path exists below @p loc (H5Lexists checks one link).
bool exists(hid_t loc, const std::string& path) {
  if (path.empty()) {
    return false;
  }
  std::size_t from = path[0] == '/' ? 1 : 0;
  while (true) {
    const auto slash = path.find('/', from);
    const std::string prefix = path.substr(0, slash);
    if (!prefix.empty() && prefix != "/") {
      const htri_t e = H5Lexists(loc, prefix.c_str(), H5P_DEFAULT);
      if (e <= 0) {
        H5Eclear2(H5E_DEFAULT);
        return false;
      }
    }
    if (slash == std::string::npos) {
      return true;
    }
    from = slash + 1;
  }
}

std::string join(const std::string& path, const std::string& name) {
  if (!name.empty() && name[0] == '/') {
    return name;
  }
  return path == "/" ? "/" + name : path + "/" + name;
}

detail::Handle creation_list() {
  const hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(lcpl, 1);
  return detail::Handle(lcpl);
}

std::vector<hsize_t> sizes(IndexSpan v) {
  return {v.begin(), v.end()};
}

}  // namespace internal

using namespace internal;  // NOLINT(google-build-using-namespace): this file's own helpers

// ---- Handle ----------------------------------------------------------------------------------

namespace detail {

Handle::Handle(const Handle& other) noexcept : id_(other.id_) {
  if (id_ >= 0) {
    H5Iinc_ref(id_);
  }
}

Handle& Handle::operator=(const Handle& other) noexcept {
  if (this != &other) {
    Handle copy(other);
    std::swap(id_, copy.id_);
  }
  return *this;
}

Handle& Handle::operator=(Handle&& other) noexcept {
  if (this != &other) {
    Handle taken(std::move(other));
    std::swap(id_, taken.id_);
  }
  return *this;
}

Handle::~Handle() {
  if (id_ >= 0) {
    H5Idec_ref(id_);
  }
}

// ---- transfers -------------------------------------------------------------------------------

namespace {

Index row_major_strides(IndexSpan shape) {
  Index strides(shape.size(), 1);
  for (std::size_t k = shape.size(); k-- > 1;) {
    strides[k - 1] = strides[k] * shape[k];
  }
  return strides;
}

Index unravel(index_t address, IndexSpan strides) {
  Index c(strides.size(), 0);
  for (std::size_t k = 0; k < strides.size(); ++k) {
    c[k] = address / strides[k];
    address -= c[k] * strides[k];
  }
  return c;
}

/// The hyperslab of a strided view whose every axis steps along one file axis, each file axis
/// stepped by at most one view axis; false for any other view.
bool plan_hyperslab(IndexSpan shape, const Dimensions& view, Transfer& t) {
  const std::size_t rank = shape.size();
  const Index fstride = row_major_strides(shape);
  const Index c0 = unravel(view.offset(), fstride);
  const Index vshape = view.shape();
  const Index vstride = view.strides();
  std::vector<int> owner(rank, -1);
  std::vector<int> axis_of(vshape.size(), -1);
  std::vector<index_t> sign(vshape.size(), 1);
  t.start = c0;
  t.step = Index(rank, 1);
  t.count = Index(rank, 1);
  for (std::size_t k = 0; k < vshape.size(); ++k) {
    const index_t n = vshape[k];
    const index_t s = vstride[k];
    if (n <= 1 || s == 0) {
      continue;
    }
    const Index c1 = unravel(view.offset() + s * (n - 1), fstride);
    int a = -1;
    for (std::size_t j = 0; j < rank; ++j) {
      if (c1[j] != c0[j]) {
        if (a >= 0) {
          return false;
        }
        a = static_cast<int>(j);
      }
    }
    if (a < 0 || owner[static_cast<std::size_t>(a)] >= 0) {
      return false;
    }
    const auto ua = static_cast<std::size_t>(a);
    const index_t diff = c1[ua] - c0[ua];
    if (diff % (n - 1) != 0 || (diff / (n - 1)) * fstride[ua] != s) {
      return false;
    }
    const index_t d = diff / (n - 1);
    owner[ua] = static_cast<int>(k);
    axis_of[k] = a;
    sign[k] = d < 0 ? -1 : 1;
    t.start[ua] = std::min(c0[ua], c1[ua]);
    t.step[ua] = d < 0 ? -d : d;
    t.count[ua] = n;
  }
  t.hyperslab = true;
  t.block = t.count;
  const Index bstride = row_major_strides(t.block);
  Index mstride(vshape.size(), 0);
  index_t moffset = 0;
  bool direct = true;
  int last = -1;
  for (std::size_t k = 0; k < vshape.size(); ++k) {
    if (axis_of[k] < 0) {
      direct = direct && (vshape[k] <= 1);  // a broadcast axis repeats block elements
      continue;
    }
    const auto a = static_cast<std::size_t>(axis_of[k]);
    mstride[k] = sign[k] * bstride[a];
    if (sign[k] < 0) {
      moffset += (vshape[k] - 1) * bstride[a];
      direct = false;
    }
    direct = direct && axis_of[k] > last;
    last = axis_of[k];
  }
  t.memory = Dimensions(vshape, mstride, moffset);
  t.direct = direct;
  return true;
}

}  // namespace

Transfer plan_transfer(IndexSpan shape, const Dimensions& view) {
  Transfer t;
  if (view.size() == 0) {
    t.block = Index{0};
    t.direct = true;
    return t;
  }
  if (view.is_strided() && plan_hyperslab(shape, view, t)) {
    return t;
  }
  // Any other map: the distinct addresses it reads, ascending, and where each element is.
  t.hyperslab = false;
  std::vector<index_t> addresses(static_cast<std::size_t>(view.size()));
  for (index_t i = 0; i < view.size(); ++i) {
    addresses[static_cast<std::size_t>(i)] = view.global_to_local(i);
  }
  t.points = addresses;
  std::sort(t.points.begin(), t.points.end());
  t.points.erase(std::unique(t.points.begin(), t.points.end()), t.points.end());
  t.gather.resize(addresses.size());
  bool direct = addresses.size() == t.points.size();
  for (std::size_t i = 0; i < addresses.size(); ++i) {
    const auto at = std::lower_bound(t.points.begin(), t.points.end(), addresses[i]);
    t.gather[i] = at - t.points.begin();
    direct = direct && t.gather[i] == static_cast<index_t>(i);
  }
  t.block = Index{static_cast<index_t>(t.points.size())};
  t.direct = direct;
  return t;
}

}  // namespace detail

namespace internal {

using detail::Handle;
using detail::row_major_strides;
using detail::Transfer;
using detail::unravel;

Spaces spaces(hid_t dataset, const Transfer& t, std::string_view operation,
              const std::string& where) {
  Spaces s;
  Handle space(checked(H5Dget_space(dataset), operation, "cannot read the shape of " + where));
  const int rank = H5Sget_simple_extent_ndims(space.id());
  std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(rank, 0)));
  H5Sget_simple_extent_dims(space.id(), dims.data(), nullptr);
  if (t.hyperslab) {
    bool whole = true;
    for (std::size_t k = 0; k < dims.size(); ++k) {
      whole = whole && t.start[k] == 0 && static_cast<hsize_t>(t.count[k]) == dims[k];
    }
    if (whole) {
      return s;  // H5S_ALL: the dataset as it is, no selection to iterate
    }
    const auto start = sizes(t.start);
    const auto step = sizes(t.step);
    const auto count = sizes(t.count);
    checked(H5Sselect_hyperslab(space.id(), H5S_SELECT_SET, start.data(), step.data(), count.data(),
                                nullptr),
            operation, "cannot select a hyperslab of " + where);
    s.memory = Handle(H5Screate_simple(rank, count.data(), nullptr));
  } else {
    const Index fstride = row_major_strides(Index(dims.begin(), dims.end()));
    std::vector<hsize_t> coords;
    coords.reserve(t.points.size() * dims.size());
    for (const index_t a : t.points) {
      const Index c = unravel(a, fstride);
      coords.insert(coords.end(), c.begin(), c.end());
    }
    checked(H5Sselect_elements(space.id(), H5S_SELECT_SET, t.points.size(), coords.data()),
            operation, "cannot select the elements of " + where);
    const hsize_t n = t.points.size();
    s.memory = Handle(H5Screate_simple(1, &n, nullptr));
  }
  s.file = std::move(space);
  return s;
}

DType stored_dtype(hid_t dataset) {
  const detail::Handle type(H5Dget_type(dataset));
  return dtype_of_type(type.id());
}

}  // namespace internal

namespace detail {

void read_block(const Handle& dataset, const std::string& where, const Transfer& transfer,
                DType type, void* block) {
  constexpr std::string_view op = "Dataset::read";
  check_convertible(op, stored_dtype(dataset.id()), type, where, true);
  const Handle mtype = memory_type(type);
  const Spaces s = spaces(dataset.id(), transfer, op, where);
  checked(H5Dread(dataset.id(), mtype.id(), s.memory_id(), s.file_id(), H5P_DEFAULT, block), op,
          "cannot read " + where);
}

void write_block(const Handle& dataset, const std::string& where, const Transfer& transfer,
                 DType type, const void* block) {
  constexpr std::string_view op = "Dataset::write";
  check_convertible(op, stored_dtype(dataset.id()), type, where, false);
  const Handle mtype = memory_type(type);
  const Spaces s = spaces(dataset.id(), transfer, op, where);
  checked(H5Dwrite(dataset.id(), mtype.id(), s.memory_id(), s.file_id(), H5P_DEFAULT, block), op,
          "cannot write " + where);
}

}  // namespace detail

// ---- Attributes ------------------------------------------------------------------------------

bool Attributes::contains(const std::string& name) const {
  const htri_t e = H5Aexists(object_.id(), name.c_str());
  H5Eclear2(H5E_DEFAULT);
  return e > 0;
}

std::vector<std::string> Attributes::names() const {
  std::vector<std::string> names;
  hsize_t at = 0;
  checked(H5Aiterate2(
              object_.id(), H5_INDEX_NAME, H5_ITER_INC, &at,
              [](hid_t, const char* name, const H5A_info_t*, void* data) -> herr_t {
                static_cast<std::vector<std::string>*>(data)->emplace_back(name);
                return 0;
              },
              &names),
          "Attributes::names", "cannot list the attributes of " + where_);
  return names;
}

namespace {

detail::Handle open_attribute(hid_t object, const std::string& name, std::string_view op,
                              const std::string& where) {
  const htri_t present = H5Aexists(object, name.c_str());
  if (present < 0) {
    fail_io(op, "cannot look up attribute " + quoted(name) + " on " + where);
  }
  if (present == 0) {
    fail<IOError>(op, "no attribute ", quoted(name), " on ", where);
  }
  return detail::Handle(
      checked(H5Aopen(object, name.c_str(), H5P_DEFAULT), op, "cannot open attribute " + name));
}

void replace_attribute(hid_t object, const std::string& name, std::string_view op,
                       const std::string& where) {
  if (!file_writable(object)) {
    fail<IOError>(op, "cannot set attribute ", quoted(name), " of ", where,
                  ": the file is opened read-only");
  }
  if (H5Aexists(object, name.c_str()) > 0) {
    checked(H5Adelete(object, name.c_str()), op, "cannot replace attribute " + name);
  }
  H5Eclear2(H5E_DEFAULT);
}

}  // namespace

DType Attributes::dtype(const std::string& name) const {
  const detail::Handle a = open_attribute(object_.id(), name, "Attributes::dtype", where_);
  const detail::Handle type(H5Aget_type(a.id()));
  return dtype_of_type(type.id());
}

void Attributes::set_array(const std::string& name, DType type, const void* values, index_t count) {
  constexpr std::string_view op = "Attributes::set";
  replace_attribute(object_.id(), name, op, where_);
  const hsize_t n = static_cast<hsize_t>(count);
  const detail::Handle space(count == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, nullptr));
  const detail::Handle mtype = memory_type(type);
  const detail::Handle a(checked(
      H5Acreate2(object_.id(), name.c_str(), mtype.id(), space.id(), H5P_DEFAULT, H5P_DEFAULT), op,
      "cannot create attribute " + quoted(name) + " of " + where_));
  checked(H5Awrite(a.id(), mtype.id(), values), op, "cannot write attribute " + quoted(name));
}

void Attributes::set(const std::string& name, std::string_view text) {
  constexpr std::string_view op = "Attributes::set";
  replace_attribute(object_.id(), name, op, where_);
  const detail::Handle type(H5Tcopy(H5T_C_S1));
  H5Tset_size(type.id(), H5T_VARIABLE);
  H5Tset_cset(type.id(), H5T_CSET_UTF8);
  const detail::Handle space(H5Screate(H5S_SCALAR));
  const detail::Handle a(checked(
      H5Acreate2(object_.id(), name.c_str(), type.id(), space.id(), H5P_DEFAULT, H5P_DEFAULT), op,
      "cannot create attribute " + quoted(name) + " of " + where_));
  const std::string copy(text);
  const char* pointer = copy.c_str();
  checked(H5Awrite(a.id(), type.id(), static_cast<const void*>(&pointer)), op,
          "cannot write attribute " + quoted(name));
}

index_t Attributes::element_count(const std::string& name) const {
  const detail::Handle a = open_attribute(object_.id(), name, "Attributes::get", where_);
  const detail::Handle space(H5Aget_space(a.id()));
  return static_cast<index_t>(H5Sget_simple_extent_npoints(space.id()));
}

void Attributes::get_array(const std::string& name, DType type, void* values,
                           index_t expected) const {
  constexpr std::string_view op = "Attributes::get";
  const detail::Handle a = open_attribute(object_.id(), name, op, where_);
  const detail::Handle stored(H5Aget_type(a.id()));
  check_convertible(op, dtype_of_type(stored.id()), type,
                    "attribute " + quoted(name) + " of " + where_, true);
  const detail::Handle space(H5Aget_space(a.id()));
  const auto n = static_cast<index_t>(H5Sget_simple_extent_npoints(space.id()));
  if (expected >= 0 && n != expected) {
    fail<TypeError>(op, "attribute ", quoted(name), " of ", where_, " holds ", n,
                    " values: read it as a std::vector");
  }
  const detail::Handle mtype = memory_type(type);
  checked(H5Aread(a.id(), mtype.id(), values), op, "cannot read attribute " + quoted(name));
}

std::string Attributes::get_string(const std::string& name) const {
  constexpr std::string_view op = "Attributes::get";
  const detail::Handle a = open_attribute(object_.id(), name, op, where_);
  const detail::Handle stored(H5Aget_type(a.id()));
  if (H5Tget_class(stored.id()) != H5T_STRING) {
    fail<TypeError>(op, "attribute ", quoted(name), " of ", where_, " holds ",
                    to_string(dtype_of_type(stored.id())), ", not text");
  }
  const detail::Handle space(H5Aget_space(a.id()));
  if (H5Sget_simple_extent_npoints(space.id()) != 1) {
    fail<TypeError>(op, "attribute ", quoted(name), " of ", where_,
                    " holds several strings; strata reads one");
  }
  if (H5Tis_variable_str(stored.id()) > 0) {
    const detail::Handle mtype(H5Tcopy(H5T_C_S1));
    H5Tset_size(mtype.id(), H5T_VARIABLE);
    H5Tset_cset(mtype.id(), H5Tget_cset(stored.id()));
    char* text = nullptr;
    checked(H5Aread(a.id(), mtype.id(), static_cast<void*>(&text)), op,
            "cannot read attribute " + quoted(name));
    std::string s = text != nullptr ? text : "";
    H5Dvlen_reclaim(mtype.id(), space.id(), H5P_DEFAULT, static_cast<void*>(&text));
    return s;
  }
  const std::size_t size = H5Tget_size(stored.id());
  std::string s(size, '\0');
  const detail::Handle mtype(H5Tcopy(stored.id()));
  checked(H5Aread(a.id(), mtype.id(), s.data()), op, "cannot read attribute " + quoted(name));
  s.resize(std::min(s.find('\0'), s.size()));
  if (H5Tget_strpad(stored.id()) == H5T_STR_SPACEPAD) {
    s.erase(s.find_last_not_of(' ') + 1);
  }
  return s;
}

void Attributes::remove(const std::string& name) {
  constexpr std::string_view op = "Attributes::remove";
  static_cast<void>(open_attribute(object_.id(), name, op, where_));
  if (!file_writable(object_.id())) {
    fail<IOError>(op, "cannot remove attribute ", quoted(name), " of ", where_,
                  ": the file is opened read-only");
  }
  checked(H5Adelete(object_.id(), name.c_str()), op, "cannot remove attribute " + quoted(name));
}

// ---- Dataset ---------------------------------------------------------------------------------

namespace {
Index automatic_chunks(IndexSpan shape, std::size_t element);
std::size_t element_size(DType t);
}  // namespace

Dataset::Dataset(detail::Handle handle, std::string file, std::string path, Index shape,
                 DType dtype, bool writable)
    : handle_(std::move(handle)),
      file_(std::move(file)),
      path_(std::move(path)),
      file_shape_(std::move(shape)),
      view_(file_shape_),
      dtype_(dtype),
      writable_(writable) {}

Index Dataset::chunks() const {
  const detail::Handle plist(H5Dget_create_plist(handle_.id()));
  if (H5Pget_layout(plist.id()) != H5D_CHUNKED) {
    return {};
  }
  std::vector<hsize_t> c(file_shape_.size());
  H5Pget_chunk(plist.id(), static_cast<int>(c.size()), c.data());
  return Index(c.begin(), c.end());
}

Dataset Dataset::view(Dimensions dims) const {
  index_t size = 1;
  for (const index_t e : file_shape_) {
    size *= e;
  }
  const auto [lo, hi] = dims.address_range();
  if (dims.size() > 0 && (lo < 0 || hi >= size)) {
    fail<IndexError>("Dataset::view", "the map reads addresses ", lo, " to ", hi, " but ", where(),
                     " of shape ", strata::to_string(file_shape_), " has ", size, " elements");
  }
  return with(std::move(dims));
}

Dataset Dataset::select_region(const SmoothView& region) const {
  std::vector<Selector> ranges;
  const Index origin = region.origin();
  const IndexSpan extents = region.extents();
  for (std::size_t k = 0; k < extents.size(); ++k) {
    ranges.emplace_back(Range{origin[k], origin[k] + extents[k]});
  }
  return select(std::span<const Selector>(ranges));
}

Index Dataset::tile_for_read(IndexSpan tile) const {
  if (!tile.empty()) {
    if (std::ssize(tile) != rank()) {
      fail<ShapeError>("Dataset::read_tiled", "tile ", strata::to_string(tile), " has rank ",
                       tile.size(), " but the view of ", where(), " has rank ", rank());
    }
    return Index(tile.begin(), tile.end());
  }
  Index c = chunks();
  if (c.empty() || std::ssize(c) != rank()) {
    fail<ShapeError>("Dataset::read_tiled", where(),
                     " is not chunked (or the view changed its rank): give the tile extents");
  }
  return c;
}

Index Dataset::cache_block(index_t cache_blocks) const {
  if (cache_blocks < 1) {
    fail<ShapeError>("Dataset::lazy", "cache of ", cache_blocks, " blocks: at least 1 is needed");
  }
  Index c = chunks();
  if (!c.empty()) {
    return c;
  }
  return automatic_chunks(file_shape_, element_size(dtype_));
}

void Dataset::check_readable(DType asked) const {
  check_convertible("Dataset::lazy", dtype_, asked, where(), true);
}

void Dataset::check_destination(IndexSpan shape, bool writable) const {
  if (!std::ranges::equal(shape, view_.shape())) {
    fail<ShapeError>("Dataset::read_into", "the destination has shape ", strata::to_string(shape),
                     " but the view of ", where(), " has shape ", strata::to_string(view_.shape()));
  }
  if (!writable) {
    fail<LayoutError>("Dataset::read_into",
                      "the destination is not writable (read-only buffer, or a broadcast or "
                      "repeated index that aliases)");
  }
}

void Dataset::check_writable() const {
  if (!writable_) {
    fail<IOError>("Dataset::write", "cannot write ", where(), ": the file is opened read-only");
  }
  if (view_.aliases()) {
    fail<LayoutError>("Dataset::write", "the view of ", where(),
                      " repeats stored elements (a broadcast or a repeated index): its writes "
                      "would collide");
  }
}

// ---- Group -----------------------------------------------------------------------------------

bool Group::contains(const std::string& name) const {
  return exists(handle_.id(), name);
}

std::vector<std::string> Group::names() const {
  std::vector<std::string> names;
  hsize_t at = 0;
  checked(H5Literate(
              handle_.id(), H5_INDEX_NAME, H5_ITER_INC, &at,
              [](hid_t, const char* name, const H5L_info_t*, void* data) -> herr_t {
                static_cast<std::vector<std::string>*>(data)->emplace_back(name);
                return 0;
              },
              &names),
          "Group::names", "cannot list " + file_ + ":" + path_);
  return names;
}

namespace {

H5I_type_t kind_of(hid_t loc, const std::string& name, std::string_view op,
                   const std::string& where) {
  if (!exists(loc, name)) {
    fail<IOError>(op, "no object ", quoted(name), " in ", where);
  }
  const detail::Handle o(checked(H5Oopen(loc, name.c_str(), H5P_DEFAULT), op,
                                 "cannot open " + quoted(name) + " in " + where));
  return H5Iget_type(o.id());
}

void require_writable(bool writable, std::string_view op, const std::string& name,
                      const std::string& file) {
  if (!writable) {
    fail<IOError>(op, "cannot create or change ", quoted(name), " in ", quoted(file),
                  ": the file is opened read-only");
  }
}

}  // namespace

bool Group::is_group(const std::string& name) const {
  return kind_of(handle_.id(), name, "Group::is_group", file_ + ":" + path_) == H5I_GROUP;
}

Group Group::group(const std::string& name) const {
  constexpr std::string_view op = "Group::group";
  const std::string where = file_ + ":" + path_;
  if (kind_of(handle_.id(), name, op, where) != H5I_GROUP) {
    fail<IOError>(op, quoted(name), " in ", where, " is a dataset, not a group");
  }
  const hid_t g = checked(H5Gopen2(handle_.id(), name.c_str(), H5P_DEFAULT), op,
                          "cannot open group " + quoted(name) + " in " + where);
  return {detail::Handle(g), file_, join(path_, name), writable_};
}

Group Group::create_group(const std::string& name) const {
  constexpr std::string_view op = "Group::create_group";
  require_writable(writable_, op, name, file_);
  if (contains(name)) {
    fail<IOError>(op, quoted(name), " exists already in ", file_, ":", path_);
  }
  const detail::Handle lcpl = creation_list();
  const hid_t g =
      checked(H5Gcreate2(handle_.id(), name.c_str(), lcpl.id(), H5P_DEFAULT, H5P_DEFAULT), op,
              "cannot create group " + quoted(name) + " in " + file_ + ":" + path_);
  return {detail::Handle(g), file_, join(path_, name), writable_};
}

Group Group::require_group(const std::string& name) const {
  return contains(name) ? group(name) : create_group(name);
}

Dataset Group::dataset(const std::string& name) const {
  constexpr std::string_view op = "Group::dataset";
  const std::string where = file_ + ":" + path_;
  if (kind_of(handle_.id(), name, op, where) != H5I_DATASET) {
    fail<IOError>(op, quoted(name), " in ", where, " is a group, not a dataset");
  }
  detail::Handle d(checked(H5Dopen2(handle_.id(), name.c_str(), H5P_DEFAULT), op,
                           "cannot open dataset " + quoted(name) + " in " + where));
  const detail::Handle space(H5Dget_space(d.id()));
  const int rank = H5Sget_simple_extent_ndims(space.id());
  std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(rank, 0)));
  H5Sget_simple_extent_dims(space.id(), dims.data(), nullptr);
  const detail::Handle type(H5Dget_type(d.id()));
  return {std::move(d),
          file_,
          join(path_, name),
          Index(dims.begin(), dims.end()),
          dtype_of_type(type.id()),
          writable_};
}

void Group::remove(const std::string& name) const {
  constexpr std::string_view op = "Group::remove";
  require_writable(writable_, op, name, file_);
  if (!contains(name)) {
    fail<IOError>(op, "no object ", quoted(name), " in ", file_, ":", path_);
  }
  checked(H5Ldelete(handle_.id(), name.c_str(), H5P_DEFAULT), op,
          "cannot remove " + quoted(name) + " from " + file_ + ":" + path_);
}

namespace {

/// Chunks for a compressed dataset the caller gave none for: the trailing axes whole, leading
/// axes cut so that one chunk holds about 1 MiB.
Index automatic_chunks(IndexSpan shape, std::size_t element) {
  Index c(shape.begin(), shape.end());
  const index_t budget = std::max<index_t>(1, index_t{1 << 20} / static_cast<index_t>(element));
  index_t inner = 1;
  for (std::size_t k = c.size(); k-- > 0;) {
    c[k] = std::max<index_t>(1, std::min(c[k], budget / std::max<index_t>(inner, 1)));
    inner *= c[k];
  }
  return c;
}

std::size_t element_size(DType t) {
  switch (t) {
    case DType::boolean:
    case DType::int8:
    case DType::uint8:
      return 1;
    case DType::int16:
    case DType::uint16:
      return 2;
    case DType::int32:
    case DType::uint32:
    case DType::float32:
      return 4;
    case DType::complex128:
      return 16;
    default:
      return 8;
  }
}

}  // namespace

Dataset Group::create_dataset(const std::string& name, IndexSpan shape, DType type,
                              const WriteOptions& options) const {
  constexpr std::string_view op = "Group::create_dataset";
  require_writable(writable_, op, name, file_);
  checked_size(shape, "Group::create_dataset");
  if (type == DType::string || type == DType::other) {
    fail<TypeError>(op, "cannot create a dataset of ", to_string(type),
                    " elements (numbers, bool and complex only)");
  }
  if (options.deflate < 0 || options.deflate > 9) {
    fail<IndexError>(op, "deflate level ", options.deflate, " is outside 0 (none) to 9");
  }
  if (contains(name)) {
    if (!options.overwrite) {
      fail<IOError>(op, quoted(name), " exists already in ", file_, ":", path_,
                    " (WriteOptions::overwrite replaces it)");
    }
    remove(name);
  }
  Index chunks = options.chunks;
  if (!chunks.empty()) {
    if (chunks.size() != shape.size()) {
      fail<ShapeError>(op, "chunks ", strata::to_string(chunks), " have rank ", chunks.size(),
                       " but the dataset ", quoted(name), " has shape ", strata::to_string(shape));
    }
    for (const index_t c : chunks) {
      if (c <= 0) {
        fail<ShapeError>(op, "chunks ", strata::to_string(chunks),
                         " have an extent below 1 (dataset ", quoted(name), ")");
      }
    }
  } else if ((options.deflate > 0 || options.shuffle) && !shape.empty()) {
    chunks = automatic_chunks(shape, element_size(type));
  }
  const auto dims = sizes(shape);
  std::vector<hsize_t> maxdims = dims;
  const detail::Handle dcpl(H5Pcreate(H5P_DATASET_CREATE));
  if (!chunks.empty()) {
    std::vector<hsize_t> c(chunks.size());
    for (std::size_t k = 0; k < c.size(); ++k) {
      // HDF5 wants chunks no larger than a fixed extent; an empty axis is made extendible.
      c[k] = static_cast<hsize_t>(std::max<index_t>(1, std::min(chunks[k], shape[k])));
      if (shape[k] == 0) {
        maxdims[k] = H5S_UNLIMITED;
      }
    }
    checked(H5Pset_chunk(dcpl.id(), static_cast<int>(c.size()), c.data()), op,
            "cannot set chunks " + strata::to_string(chunks));
    if (options.shuffle) {
      checked(H5Pset_shuffle(dcpl.id()), op, "cannot set the shuffle filter");
    }
    if (options.deflate > 0) {
      checked(H5Pset_deflate(dcpl.id(), static_cast<unsigned>(options.deflate)), op,
              "cannot set the deflate filter");
    }
  }
  const detail::Handle space(
      shape.empty() ? H5Screate(H5S_SCALAR)
                    : H5Screate_simple(static_cast<int>(dims.size()), dims.data(), maxdims.data()));
  const detail::Handle ftype = memory_type(type);
  const detail::Handle lcpl = creation_list();
  detail::Handle d(checked(H5Dcreate2(handle_.id(), name.c_str(), ftype.id(), space.id(), lcpl.id(),
                                      dcpl.id(), H5P_DEFAULT),
                           op,
                           "cannot create dataset " + quoted(name) + " in " + file_ + ":" + path_));
  return {std::move(d), file_,    join(path_, name), Index(shape.begin(), shape.end()),
          type,         writable_};
}

// ---- staged writes: an object appears under its name only once complete ----------------------

Group::Staging Group::stage(const std::string& name, const WriteOptions& options) const {
  constexpr std::string_view op = "Group::write";
  require_writable(writable_, op, name, file_);
  auto [parent_path, leaf] = split_parent(name);
  if (leaf.empty()) {
    fail<IOError>(op, "the name ", quoted(name), " ends with '/'");
  }
  Group parent = parent_path.empty() ? *this : require_group(parent_path);
  const bool present = parent.contains(leaf);
  if (present && !options.overwrite) {
    fail<IOError>(op, quoted(name), " exists already in ", file_, ":", path_,
                  " (WriteOptions::overwrite replaces it)");
  }
  std::string temporary = ".strata-partial-" + leaf;
  if (parent.contains(temporary)) {
    parent.remove(temporary);  // left by an interrupted write
  }
  return {parent.handle_, parent.path_, std::move(leaf), std::move(temporary), present};
}

void Group::link_complete(const Staging& s) const {
  const hid_t parent = s.parent.id();
  constexpr std::string_view op = "Group::write";
  const std::string where = file_ + ":" + join(s.parent_path, s.leaf);
  // The elements first, then the name: a process killed in between leaves the object under
  // its temporary name (or the old one under its name), never a partial one under its name.
  checked(H5Fflush(parent, H5F_SCOPE_LOCAL), op, "cannot flush " + where);
  if (s.replace) {
    checked(H5Ldelete(parent, s.leaf.c_str(), H5P_DEFAULT), op, "cannot replace " + where);
  }
  checked(H5Lmove(parent, s.temporary.c_str(), parent, s.leaf.c_str(), H5P_DEFAULT, H5P_DEFAULT),
          op, "cannot name " + where);
  checked(H5Fflush(parent, H5F_SCOPE_LOCAL), op, "cannot flush " + where);
}

Dataset Group::commit_dataset(const Staging& s) const {
  link_complete(s);
  return parent_of(s).dataset(s.leaf);
}

Group Group::commit_group(const Staging& s) const {
  link_complete(s);
  return parent_of(s).group(s.leaf);
}

void Group::abandon(const Staging& s) const noexcept {
  if (H5Lexists(s.parent.id(), s.temporary.c_str(), H5P_DEFAULT) > 0) {
    H5Ldelete(s.parent.id(), s.temporary.c_str(), H5P_DEFAULT);
  }
  H5Eclear2(H5E_DEFAULT);
}

void Group::check_jagged_rank(const std::string& name, int rank, int outer_rank) const {
  if (outer_rank != 1 || (rank != 2 && rank != 3)) {
    fail<ShapeError>("Group::write", "jagged tensor ", quoted(name), " has rank ", rank, " (",
                     outer_rank, " outer); files hold rows of varying length (n * var) as values ",
                     "+ offsets and rows of lists (n * var * var) as values + offsets + ",
                     "list_offsets");
  }
}

std::vector<index_t> Group::checked_lengths(const std::string& name,
                                            const std::vector<index_t>& offsets, index_t n_values,
                                            std::string_view what, std::string_view below) const {
  constexpr std::string_view op = "Group::read_jagged";
  if (offsets.empty() || offsets.front() != 0 || offsets.back() != n_values) {
    fail<ShapeError>(op, "the ", what, " of ", quoted(name), " in ", file_, ":", path_,
                     " must run from 0 to the number of ", below, " (", n_values, "), found ",
                     offsets.empty() ? std::string("none")
                                     : std::to_string(offsets.front()) + " to " +
                                           std::to_string(offsets.back()));
  }
  std::vector<index_t> lengths(offsets.size() - 1);
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    lengths[r] = offsets[r + 1] - offsets[r];
    if (lengths[r] < 0) {
      fail<ShapeError>(op, "the ", what, " of ", quoted(name), " fall at ",
                       what == "list offsets" ? "list " : "row ", r, " (", offsets[r], " then ",
                       offsets[r + 1], ")");
    }
  }
  return lengths;
}

std::vector<index_t> Group::checked_csr(const std::string& name, IndexSpan shape,
                                        const std::vector<index_t>& indptr,
                                        const std::vector<index_t>& indices,
                                        std::size_t n_data) const {
  constexpr std::string_view op = "Group::read_sparse";
  if (shape.size() != 2 || shape[0] < 0 || shape[1] < 0) {
    fail<ShapeError>(op, "the shape attribute of ", quoted(name), " is ", strata::to_string(shape),
                     "; a CSR matrix has two extents");
  }
  const auto rows = static_cast<std::size_t>(shape[0]);
  if (indptr.size() != rows + 1 || indptr.front() != 0 ||
      indptr.back() != static_cast<index_t>(n_data) || indices.size() != n_data) {
    fail<ShapeError>(op, quoted(name), " has ", indptr.size(), " indptr entries, ", indices.size(),
                     " indices and ", n_data, " values: a ", strata::to_string(shape),
                     " CSR matrix needs ", rows + 1,
                     " indptr entries from 0 to the number of values");
  }
  std::vector<index_t> row_of(n_data);
  for (std::size_t r = 0; r < rows; ++r) {
    if (indptr[r + 1] < indptr[r]) {
      fail<ShapeError>(op, "the indptr of ", quoted(name), " falls at row ", r);
    }
    for (index_t e = indptr[r]; e < indptr[r + 1]; ++e) {
      row_of[static_cast<std::size_t>(e)] = static_cast<index_t>(r);
    }
  }
  return row_of;
}

// ---- File ------------------------------------------------------------------------------------

namespace {

std::string_view letters(Mode m) {
  switch (m) {
    case Mode::read:
      return "Mode::read";
    case Mode::read_write:
      return "Mode::read_write";
    case Mode::truncate:
      return "Mode::truncate";
    case Mode::exclusive:
      return "Mode::exclusive";
    case Mode::append:
      return "Mode::append";
  }
  return "?";
}

}  // namespace

detail::Handle internal::open_root(const std::string& filename, Mode mode, std::int64_t access) {
  constexpr std::string_view op = "File";
  quiet();
  std::error_code ec;
  const bool present = std::filesystem::exists(filename, ec);
  if (mode == Mode::append) {
    mode = present ? Mode::read_write : Mode::exclusive;
  }
  hid_t id = -1;
  if (mode == Mode::read || mode == Mode::read_write) {
    if (!present) {
      fail<IOError>(op, "cannot open ", quoted(filename), " (", letters(mode), "): no such file");
    }
    const htri_t is = H5Fis_hdf5(filename.c_str());
    if (is == 0) {
      H5Eclear2(H5E_DEFAULT);
      fail<IOError>(op, quoted(filename), " is not an HDF5 file");
    }
    if (is < 0) {
      fail_io(op, "cannot open " + quoted(filename));
    }
    id = H5Fopen(filename.c_str(), mode == Mode::read ? H5F_ACC_RDONLY : H5F_ACC_RDWR, access);
  } else {
    if (mode == Mode::exclusive && present) {
      fail<IOError>(op, "cannot create ", quoted(filename), " (Mode::exclusive): it exists");
    }
    id = H5Fcreate(filename.c_str(), mode == Mode::truncate ? H5F_ACC_TRUNC : H5F_ACC_EXCL,
                   H5P_DEFAULT, access);
  }
  checked(id, op, "cannot open " + quoted(filename) + " (" + std::string(letters(mode)) + ")");
  const detail::Handle file(id);
  // The root group keeps the file open (HDF5's weak close: the file closes with its last object).
  return detail::Handle(checked(H5Gopen2(file.id(), "/", H5P_DEFAULT), op,
                                "cannot open the root group of " + quoted(filename)));
}

File::File(const std::string& filename, Mode mode)
    : File(filename, mode, open_root(filename, mode, H5P_DEFAULT)) {}

File::File(const std::string& filename, Mode mode, detail::Handle handle)
    : Group(std::move(handle), filename, "/", mode != Mode::read), mode_(mode) {}

File detail::file_from_handle(const std::string& filename, Mode mode, Handle root) {
  return {filename, mode, std::move(root)};
}

void File::flush() const {
  checked(H5Fflush(handle_.id(), H5F_SCOPE_LOCAL), "File::flush", "cannot flush " + quoted(file_));
}

}  // namespace strata::io
