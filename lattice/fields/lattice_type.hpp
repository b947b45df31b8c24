#pragma once
// Lattice<T>: a field of site tensors T over a Geometry, with aligned storage
// in the virtual-node layout of its SIMD width.
//
// Making, copying and moving fields needs only this header (the bytes are
// zeroed or copied by the field's memory). Assigning an expression to a
// field (=, +=, -=, *= with an expression or a constant) is one statement of
// the DSL: the operators below call latte::assign, which dsl/statements/assign.hpp
// defines and argument-dependent lookup finds where the operator is used.
// The lattice layer itself never assigns an expression, so it does not
// include the DSL, which is built on it; a program includes dsl/latte.hpp
// (or dsl/statements/assign.hpp), and an operator used without it does not compile.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

#include "lattice/fields/field_view.hpp"
#include "lattice/layout/geometry.hpp"
#include "lattice/layout/simd_width.hpp"
#include "lattice/tensors/tensor.hpp"
#include "platform/memory/field_memory.hpp"

namespace latte {

// The assignment functors: one entry point, the operator is the only thing
// that differs between =, += and -=.
struct AssignSet {
  static constexpr bool reads_destination = false;
  template <class D, class V> LATTE_INLINE static D apply(const D&, const V& v) { return D(v); }
};
struct AssignAdd {
  static constexpr bool reads_destination = true;
  template <class D, class V> LATTE_INLINE static D apply(const D& d, const V& v) { return d + v; }
};
struct AssignSubtract {
  static constexpr bool reads_destination = true;
  template <class D, class V> LATTE_INLINE static D apply(const D& d, const V& v) { return d - v; }
};
struct AssignMultiply {
  static constexpr bool reads_destination = true;
  template <class D, class V> LATTE_INLINE static D apply(const D& d, const V& v) { return d * v; }
};

// `field = zero;` clears a field of any site type.
struct ZeroTag {};
inline constexpr ZeroTag zero{};

template <class T> T zero_value() {
  T value;
  for_each_leaf([](auto& x) { x = 0; }, value);
  return value;
}

// Tag for a field whose storage is allocated but not yet written: only for a
// statement about to overwrite every site (copies, fresh results).
struct Uninitialized {};

template <class E> concept HasExpressionTag = std::remove_cvref_t<E>::is_latte_expression;

template <class T, class Width = DefaultWidth>
class Lattice {
 public:
  using value_type = T;
  using real_type = real_of_t<T>;
  using width_type = Width;
  static constexpr int nsimd = Width::template lanes<real_type>;
  static constexpr int site_words = words_v<T>;
  using view_type = FieldView<T, nsimd>;

  // Zero at every site; the pages are first touched in the statements' thread order.
  explicit Lattice(const Geometry& geometry) : Lattice(geometry, Uninitialized{}) {
    storage_.fill_zero(outer_volume());
  }
  Lattice(const Geometry& geometry, Uninitialized)
      : geometry_(geometry),
        layout_(&geometry.layout(nsimd)),
        storage_(static_cast<std::size_t>(layout_->outer_volume()) * site_words * nsimd * sizeof(real_type), [this] {
          return "a field of " + std::to_string(site_words) + (sizeof(real_type) == 8 ? " doubles" : " floats") +
                 " per site on " + layout_->describe();
        }) {}
  // One pass: the copy is the first touch.
  Lattice(const Lattice& other) : Lattice(other.geometry_, Uninitialized{}) {
    storage_.copy_from(other.storage_, outer_volume());
  }
  Lattice(Lattice&& other) noexcept = default;
  ~Lattice() = default;

  // Fields of one lattice (the same sites on this rank, the same lanes)
  // copy their bytes; anything else is refused, as a statement refuses it.
  Lattice& operator=(const Lattice& other) {
    if (this == &other) return *this;
    check_same_lattice(other, "assign", " to");
    storage_.copy_from(other.storage_, outer_volume());
    return *this;
  }
  Lattice& operator=(Lattice&& other) {
    check_same_lattice(other, "assign", " to");
    storage_.swap(other.storage_);
    return *this;
  }

  // An expression, a field or a constant (broadcast to every site).
  template <class E> Lattice& operator=(const E& e) { assign(*this, e, AssignSet{}); return *this; }
  template <class E> Lattice& operator+=(const E& e) { assign(*this, e, AssignAdd{}); return *this; }
  template <class E> Lattice& operator-=(const E& e) { assign(*this, e, AssignSubtract{}); return *this; }
  template <class E> Lattice& operator*=(const E& e) { assign(*this, e, AssignMultiply{}); return *this; }

  const Geometry& geometry() const { return geometry_; }
  const SiteLayout& layout() const { return *layout_; }
  std::int64_t outer_volume() const { return layout_->outer_volume(); }  // on this rank
  std::int64_t volume() const { return geometry_.volume(); }            // sites of the whole lattice
  std::int64_t local_volume() const { return layout_->volume(); }       // sites on this rank
  std::size_t bytes() const { return storage_.bytes(); }

  // The field as an expression leaf, not yet bound to a memory side: the
  // statement that evaluates it binds it (FieldView::bind).
  view_type node() const { return {nullptr, layout_, &storage_, 0}; }

  // The field's data on the host, for host-side loops over sites (I/O,
  // initialisation, peek/poke). Ask for the access you need: read brings the
  // newest values to the host; write promises to overwrite every site;
  // read_write for anything else. On a device backend, a writing view makes
  // the device copy stale until the next statement moves it back.
  view_type host_view(Access access = Access::read) const {
    view_type view = node();
    view.bind(MemorySide::host, access);
    return view;
  }

  // The identity that statements' aliasing checks compare with.
  const void* storage_identity() const { return &storage_; }

  // Exchange contents with another field of the same geometry (O(1)); used
  // by two-lattice schemes and by statements that must not write a field they
  // still read at neighbouring sites.
  void swap(Lattice& other) {
    check_same_lattice(other, "swap", " with");
    storage_.swap(other.storage_);
  }

 private:
  // "Latte: cannot <verb> a field on <other's lattice> <joint> a field on <this one's>".
  void check_same_lattice(const Lattice& other, const char* verb, const char* joint) const {
    if (!layout_->same_as(*other.layout_))
      throw GeometryMismatch(std::string("Latte: cannot ") + verb + " a field on " + other.layout_->describe() + joint +
                             " a field on " + layout_->describe());
  }

  Geometry geometry_;
  const SiteLayout* layout_;
  mutable FieldMemory storage_;  // const fields still move between memory sides
};

template <class T> struct is_lattice : std::false_type {};
template <class T, class W> struct is_lattice<Lattice<T, W>> : std::true_type {};
template <class T> inline constexpr bool is_lattice_v = is_lattice<std::remove_cvref_t<T>>::value;

}  // namespace latte
