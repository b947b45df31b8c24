#pragma once
// A field as an expression leaf and as a statement's destination: the
// kernel's FieldAccess (lattice/fields/field_access.hpp: the data pointer, loads
// and stores) plus what only the host needs: the layout, the storage it
// binds to a memory side, and the element offset of a view of one element
// of a larger record (element<i>(f)). A statement prepares the leaf into
// its FieldAccess (dsl/exec/leaf_evaluators.hpp): kernels never carry the host part.

#include <cstdint>
#include <type_traits>

#include "lattice/fields/field_access.hpp"
#include "lattice/layout/simd_layout.hpp"
#include "platform/memory/field_memory.hpp"
#include "platform/memory/memory_side.hpp"

namespace latte {

template <class T, int Nsimd, int RecordWords = words_v<T>>
struct FieldView : FieldAccess<T, Nsimd, RecordWords> {
  using access_type = FieldAccess<T, Nsimd, RecordWords>;
  static constexpr bool is_latte_expression = true;
  using typename access_type::real_type;
  using access_type::site_words;
  using access_type::data;

  const SiteLayout* site_layout;
  FieldMemory* memory;  // the whole field's storage: what binding and aliasing checks use
  int offset;           // reals from the start of a record to this view's first one

  FieldView() : access_type{nullptr}, site_layout(nullptr), memory(nullptr), offset(0) {}
  FieldView(real_type* data_, const SiteLayout* layout, FieldMemory* memory_, int offset_)
      : access_type{data_}, site_layout(layout), memory(memory_), offset(offset_) {}

  const SiteLayout* layout() const { return site_layout; }
  bool reads(const void* p) const { return memory == p; }

  // The statement model (dsl/expr/statement_model.hpp): this view's words of the record.
  static constexpr double flops_per_site() { return 0; }
  template <class Tally> void add_reads(Tally& tally, double weight) const {
    tally.read(memory, offset / Nsimd, site_words, RecordWords, sizeof(real_type), weight);
  }
  template <class Namer> void describe(Namer& namer, int) const {
    namer.field(memory, offset / Nsimd, site_words, RecordWords);
  }
  bool reads_shifted(const void*) const { return false; }

  // Point data at the field's copy on `side`, bringing it up to date there.
  void bind(MemorySide side, Access access) {
    if (memory) data = static_cast<real_type*>(memory->data(side, access)) + offset;
  }
};

}  // namespace latte
