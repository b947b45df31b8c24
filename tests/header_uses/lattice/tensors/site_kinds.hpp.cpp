// lattice/tensors/site_kinds.hpp alone: every named site type has its kind, in
// either precision and with SIMD-free leaves; other tensors are named by
// their elements, size and index kind.
#include "lattice/tensors/site_kinds.hpp"

#include <type_traits>

namespace latte {

template <class R> constexpr bool names_the_site_types() {
  return std::is_same_v<kind_t<R>, kind::real> && std::is_same_v<kind_t<Complex<R>>, kind::complex> &&
         std::is_same_v<kind_t<ColourVector<R>>, kind::colour_vector> &&
         std::is_same_v<kind_t<ColourMatrix<R>>, kind::colour_matrix> &&
         std::is_same_v<kind_t<Spinor<R>>, kind::spinor> && std::is_same_v<kind_t<HalfSpinor<R>>, kind::half_spinor> &&
         std::is_same_v<kind_t<SpinMatrix<R>>, kind::spin_matrix> &&
         std::is_same_v<kind_t<Populations<R, 9>>, kind::populations<9>> &&
         std::is_same_v<kind_t<Populations<R, 19>>, kind::populations<19>> &&
         std::is_same_v<kind_t<RealVector<R, 3>>, kind::real_vector<3>> &&
         std::is_same_v<kind_t<PropagatorSite<R>>, kind::batch<kind::spinor, 12>> &&
         std::is_same_v<kind_t<Batch<R, 4>>, kind::batch<kind::real, 4>>;
}
static_assert(names_the_site_types<double>() && names_the_site_types<float>());

static_assert(std::is_same_v<kind_t<bool>, kind::mask> && std::is_same_v<kind_t<int>, kind::integer>);
static_assert(std::is_same_v<kind_t<Vec<ComplexD, 4, SpinIndex>>, kind::vector<kind::complex, 4, SpinIndex>>);
static_assert(std::is_same_v<kind_t<Vec<ComplexD, 2, ColourIndex>>, kind::vector<kind::complex, 2, ColourIndex>>);
static_assert(std::is_same_v<kind_t<Mat<double, 3, GenericIndex>>, kind::matrix<kind::real, 3, GenericIndex>>);
static_assert(std::is_same_v<kind_t<Vec<ColourMatrix<double>, 4, GenericIndex>>,
                             kind::vector<kind::colour_matrix, 4, GenericIndex>>);

}  // namespace latte
