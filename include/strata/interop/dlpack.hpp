/// @file
/// DLPack: tensors handed to and taken from other libraries (NumPy, PyTorch, JAX, CuPy...)
/// without a copy.
///
/// to_dlpack() gives a `DLManagedTensor*` over a tensor's memory that keeps strata's buffer
/// alive until the consumer calls its deleter; from_dlpack() makes a Tensor over a producer's
/// memory that calls the producer's deleter when the last strata view of it goes.
///
/// @code
/// DLManagedTensor* out = strata::to_dlpack(t.transpose());     // shape, signed strides, no copy
/// auto back = strata::from_dlpack<double>(out);                 // the same memory; deleter later
/// @endcode
///
/// Needs the DLPack header (Debian's libdlpack-dev, DLPack 0.6); header-only.
#pragma once

#include "strata/buffer/any_buffer.hpp"
#include "strata/core/error.hpp"
#include "strata/layout/dimensions.hpp"
#include "strata/tensor/tensor.hpp"

#include <dlpack/dlpack.h>

#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace strata {

namespace detail {

/// The DLPack type of an element type (bool travels as 8-bit unsigned: DLPack 0.6 has no bool).
template <class T>
constexpr DLDataType dlpack_type() noexcept {
  using V = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<V, bool>) {
    return {kDLUInt, 8, 1};
  } else if constexpr (std::is_same_v<V, std::complex<float>>) {
    return {kDLComplex, 64, 1};
  } else if constexpr (std::is_same_v<V, std::complex<double>>) {
    return {kDLComplex, 128, 1};
  } else if constexpr (std::is_floating_point_v<V>) {
    return {kDLFloat, static_cast<std::uint8_t>(sizeof(V) * 8), 1};
  } else {
    static_assert(std::is_integral_v<V>, "DLPack: element types are bool, integers, float, double "
                                         "and std::complex");
    return {std::is_signed_v<V> ? std::uint8_t{kDLInt} : std::uint8_t{kDLUInt},
            static_cast<std::uint8_t>(sizeof(V) * 8), 1};
  }
}

/// The name of a DLPack type (`float64`, `uint8`, `complex128`, `bfloat16`, `float32x4`...).
inline std::string dlpack_type_name(DLDataType t) {
  std::string name;
  switch (t.code) {
    case kDLInt: name = "int"; break;
    case kDLUInt: name = "uint"; break;
    case kDLFloat: name = "float"; break;
    case kDLBfloat: name = "bfloat"; break;
    case kDLComplex: name = "complex"; break;
    default:  // not "code" + ...: GCC 12 warns falsely (-Wrestrict) on that concatenation
      name = "code";
      name += std::to_string(t.code);
      name += '_';
      break;
  }
  name += std::to_string(t.bits);
  if (t.lanes != 1) {
    name += 'x';
    name += std::to_string(t.lanes);
  }
  return name;
}

/// What to_dlpack() hands out: the DLManagedTensor, its shape and strides, and the tensor that
/// keeps strata's buffer alive; deleted by the consumer through the deleter.
template <class T>
struct DLPackExport {
  Tensor<const T> keep;
  std::vector<std::int64_t> shape, strides;
  DLManagedTensor managed{};
};

/// Calls a producer's deleter once, when the last strata view of the memory goes.
struct DLPackOwner {
  DLManagedTensor* managed = nullptr;
  DLPackOwner() = default;
  DLPackOwner(const DLPackOwner&) = delete;
  DLPackOwner& operator=(const DLPackOwner&) = delete;
  ~DLPackOwner() {
    if (managed != nullptr && managed->deleter != nullptr) {
      managed->deleter(managed);
    }
  }
};

/// Memory another library owns: contiguous from its lowest element, kept alive by an owner
/// handle that strata releases with its last view; writable unless imported as const.
template <class T, bool Writable>
class SharedMemoryBuffer {
 public:
  using value_type = T;
  SharedMemoryBuffer(T* lowest, index_t size, std::shared_ptr<const void> owner)
      : data_(lowest), size_(size), owner_(std::move(owner)) {}
  [[nodiscard]] index_t size() const noexcept { return size_; }
  [[nodiscard]] T read(index_t address) const noexcept { return data_[address]; }
  void write(index_t address, const T& value) noexcept requires Writable { data_[address] = value; }
  [[nodiscard]] T* data() noexcept { return data_; }
  [[nodiscard]] const T* data() const noexcept { return data_; }

 private:
  T* data_;
  index_t size_;
  std::shared_ptr<const void> owner_;
};

}  // namespace detail

/// A Tensor over strided memory that another library owns (a NumPy array, a DLPack producer,
/// a mapped file), without a copy: @p owner is any handle that keeps the memory alive, released
/// when the last strata view of the memory goes. from_dlpack() and the Python module use it.
/// @tparam T the element type (`const T` for a read-only Tensor<const T>)
/// @param first the element at index [0, ..., 0]
/// @param shape the extents
/// @param strides the distance between neighbours along each axis, in elements (any sign)
/// @param owner what keeps the memory alive (may be empty for memory that outlives the views)
/// @return the tensor
/// @throws ShapeError for a negative extent or strides of another rank than the shape
template <class T>
[[nodiscard]] Tensor<T> from_memory(T* first, IndexSpan shape, IndexSpan strides,
                                    std::shared_ptr<const void> owner) {
  using V = std::remove_const_t<T>;
  const index_t size = checked_size(shape, "from_memory");
  if (strides.size() != shape.size()) {
    detail::fail<ShapeError>("from_memory", "strides ", to_string(strides), " for shape ",
                             to_string(shape), ": one stride per axis is needed");
  }
  index_t lo = 0;
  index_t hi = 0;
  for (std::size_t k = 0; size > 0 && k < shape.size(); ++k) {
    const index_t reach = (shape[k] - 1) * strides[k];
    (reach < 0 ? lo : hi) += reach;
  }
  V* base = const_cast<V*>(first);  // written only through a Tensor of non-const T
  AnyBuffer<V> buffer(detail::SharedMemoryBuffer<V, !std::is_const_v<T>>(
      size > 0 ? base + lo : nullptr, size > 0 ? hi - lo + 1 : 0, std::move(owner)));
  return Tensor<T>(std::move(buffer), Dimensions(shape, strides, size > 0 ? -lo : 0));
}

/// Hands a tensor or view to a DLPack consumer without a copy: shape, signed strides in
/// elements (0 for a broadcast axis), CPU device. The DLManagedTensor keeps the tensor's buffer
/// alive until its deleter is called (once, by the consumer). DLPack 0.6 has no read-only
/// flag: a consumer can write through it, also for a `Tensor<const T>` (docs/interop.md).
/// @param t the tensor (its buffer must be one array and its map strided)
/// @return the managed tensor, owned by the consumer from now on
/// @throws LayoutError for a view DLPack cannot express (a roll, a tile, an index array) or a
///         buffer that is not one array (sparse, generated): `copy()` it first
template <class T>
[[nodiscard]] DLManagedTensor* to_dlpack(const Tensor<T>& t) {
  using V = std::remove_cv_t<T>;
  const V* first = t.data();
  if (first == nullptr && t.size() > 0) {
    detail::fail<LayoutError>(
        "to_dlpack", "a tensor of shape ", to_string(t.shape()),
        " whose map is not strided (a roll, a tile, an index array) or whose buffer is not one "
        "array (sparse, generated) cannot be expressed in DLPack: copy() it first");
  }
  auto e = std::make_unique<detail::DLPackExport<V>>();
  e->keep.rebind(t);
  const Index shape = t.shape();
  const Index strides = t.strides();
  e->shape.assign(shape.begin(), shape.end());
  e->strides.assign(strides.begin(), strides.end());
  DLTensor& d = e->managed.dl_tensor;
  // An empty tensor has no element: any non-null pointer does (consumers read none).
  d.data = first != nullptr ? const_cast<V*>(first) : static_cast<void*>(e.get());
  d.device = {kDLCPU, 0};
  d.ndim = static_cast<std::int32_t>(shape.size());
  d.dtype = detail::dlpack_type<V>();
  d.shape = e->shape.data();
  d.strides = e->strides.data();
  d.byte_offset = 0;
  e->managed.manager_ctx = e.get();
  e->managed.deleter = [](DLManagedTensor* self) {
    delete static_cast<detail::DLPackExport<V>*>(self->manager_ctx);
  };
  return &e.release()->managed;
}

/// Takes a DLPack producer's memory as a Tensor without a copy. The tensor (and every view of
/// it) shares the memory; when the last goes, the producer's deleter is called, once. Ask for
/// `from_dlpack<const T>` to import read-only memory (a read-only NumPy array): DLPack 0.6 cannot
/// say that memory is read-only, so the caller says it.
/// @tparam T the element type (`const T` for a read-only Tensor<const T>)
/// @param managed the producer's managed tensor; strata owns it once this returns (on an
///        exception it is left to the caller, its deleter not called)
/// @return the tensor
/// @throws LayoutError for a null pointer or memory on a device other than the CPU
/// @throws TypeError when the memory's element type is not @p T (both named)
template <class T>
[[nodiscard]] Tensor<T> from_dlpack(DLManagedTensor* managed) {
  using V = std::remove_cv_t<T>;
  if (managed == nullptr) {
    detail::fail<LayoutError>("from_dlpack", "null DLManagedTensor");
  }
  const DLTensor& d = managed->dl_tensor;
  if (d.device.device_type != kDLCPU && d.device.device_type != kDLCUDAHost) {
    detail::fail<LayoutError>("from_dlpack", "the memory is on device type ",
                              static_cast<int>(d.device.device_type),
                              ", not the CPU (kDLCPU = 1): copy it to the host first");
  }
  const DLDataType want = detail::dlpack_type<V>();
  if (d.dtype.code != want.code || d.dtype.bits != want.bits || d.dtype.lanes != want.lanes) {
    detail::fail<TypeError>("from_dlpack", "the memory holds ", detail::dlpack_type_name(d.dtype),
                            " elements but a tensor of ", detail::dlpack_type_name(want),
                            " was asked for");
  }
  if (d.ndim < 0) {
    detail::fail<ShapeError>("from_dlpack", "negative rank ", d.ndim);
  }
  const auto rank = static_cast<std::size_t>(d.ndim);
  Index shape(rank);
  Index strides(rank);
  // Compact row-major when the producer gives no strides (DLPack's convention).
  for (std::size_t k = rank, step = 1; k-- > 0;) {
    shape[k] = d.shape[k];
    if (shape[k] < 0) {  // before strata takes the memory: an error leaves it to the caller
      detail::fail<ShapeError>("from_dlpack", "negative extent ", shape[k], " on axis ", k);
    }
    strides[k] = d.strides != nullptr ? d.strides[k] : static_cast<index_t>(step);
    step *= static_cast<std::size_t>(std::max<index_t>(shape[k], 1));
  }
  auto* first = reinterpret_cast<T*>(static_cast<char*>(d.data) + d.byte_offset);
  auto owner = std::make_shared<detail::DLPackOwner>();
  owner->managed = managed;
  return from_memory<T>(first, shape, strides, std::move(owner));
}

}  // namespace strata
