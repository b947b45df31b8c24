// dsl/expr/site_algebra_check.hpp alone: which operations the site algebra
// defines on fields, constants and refused expressions, asked with a
// functor of one's own as the DSL operators ask with theirs, and the kinds
// a refusal names.
#include "dsl/expr/site_algebra_check.hpp"
#include "dsl/statements/assign.hpp"

#include <type_traits>

namespace latte {

struct Product {
  template <class A, class B> auto operator()(const A& a, const B& b) const -> decltype(a * b) { return a * b; }
};
struct Sum {
  template <class A, class B> auto operator()(const A& a, const B& b) const -> decltype(a + b) { return a + b; }
};

using Links = Lattice<ColourMatrix<double>>;
using Spinors = Lattice<Spinor<double>>;
using D2Q9 = Lattice<Populations<double, 9>>;

// Defined: a link on a colour vector, on the colour vectors of a spinor and
// of a half spinor, on every spinor of a batch; links together; scaling.
static_assert(site_defined<Product, Links, Lattice<ColourVector<double>>>);
static_assert(site_defined<Product, Links, Spinors> && site_defined<Product, Links, Lattice<HalfSpinor<double>>>);
static_assert(site_defined<Product, Links, Lattice<MultiSpinor<double, 4>>>);
static_assert(site_defined<Product, Links, Links> && site_defined<Product, double, Spinors>);
static_assert(site_defined<Product, ComplexD, D2Q9> && site_defined<Product, Lattice<Batch<double, 4>>,
                                                                    Lattice<MultiSpinor<double, 4>>>);
static_assert(site_defined<Sum, Spinors, Spinors> && site_defined<Sum, Lattice<ComplexD>, Lattice<double>>);

// Refused: a link never acts on real or complex elements (populations, a
// batch of reals), nor on a colour vector of another size; no product of
// spinors; no sum of two kinds.
static_assert(!site_defined<Product, Links, D2Q9> && !site_defined<Product, Links, Lattice<Batch<double, 4>>>);
static_assert(!site_defined<Product, Links, Lattice<Vec<ComplexD, 2, ColourIndex>>>);
static_assert(!site_defined<Product, Spinors, Spinors> && !site_defined<Product, Spinors, Links>);
static_assert(!site_defined<Sum, Spinors, Lattice<ColourVector<double>>> && !site_defined<Sum, Links, double>);

// An expression refused already is not refused again.
static_assert(site_defined<Product, RefusedExpression, Spinors> && site_defined<Sum, D2Q9, RefusedExpression&>);

// A refusal names the kinds, a constant's in the precision of the field beside it.
static_assert(std::is_same_v<site_algebra_of<Product, Links, const D2Q9&>,
                             site_algebra<Product, kind::colour_matrix, kind::populations<9>>>);
static_assert(std::is_same_v<site_algebra_of<Sum, float, Lattice<Spinor<float>>>,
                             site_algebra<Sum, kind::real, kind::spinor>>);

}  // namespace latte
