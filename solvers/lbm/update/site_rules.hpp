#pragma once
// Site rules: what one lattice site does in an update
// (solvers/lbm/update/lattice_update.hpp) with the populations that reach
// it (walls already applied) and one operand read at the site itself.
// A rule is a small trivially copyable object (copied into the statement's
// evaluator, so one compiled kernel serves every value of its members) with
//
//   template <class VS, class V, class Operand>
//   Populations<V, VS::q> apply(const Populations<V, VS::q>& in, const Operand& operand) const;
//   static constexpr const char* statement_names[2][3];  // [in place][wall operands: 0, 1, 2]
//
// the names under which the statement appears in profiles.
//
//   FlowCollision<Model, Forced>: a flow's collision with a collision model
//     (solvers/lbm/collision/collision.hpp); the operand is the body force
//     density F (RealVector of d reals: a constant or a field), read when
//     Forced.
//   ScalarTransport<Model>: the relaxation of a transported scalar's
//     populations (solvers/lbm/thermal/advection_diffusion.hpp); the
//     operand is the fluid velocity at the site.

#include <type_traits>

#include "solvers/lbm/collision/collision.hpp"

namespace latte::lbm {

template <class R>
concept SiteRule = std::is_trivially_copyable_v<R> && requires { R::statement_names[0][0]; };

template <CollisionModel Model, bool Forced>
struct FlowCollision {
  static constexpr const char* statement_names[2][3] = {
      {"collide", "collide_with_walls", "collide_with_curved_walls"},
      {"collide_in_place", "collide_in_place_with_walls", "collide_in_place_with_curved_walls"}};
  Model model;

  template <class VS, class V>
  LATTE_INLINE Populations<V, VS::q> apply(const Populations<V, VS::q>& in, const RealVector<V, VS::d>& force) const {
    return collide<VS, Forced>(model, in, force.v);
  }
};

// The model of a transported scalar: AdvectionDiffusionBgk, or any type
// with its relax<VS>(populations, velocity) member.
template <class Model>
struct ScalarTransport {
  static constexpr const char* statement_names[2][3] = {
      {"scalar_collide", "scalar_collide_with_walls", "scalar_collide_with_curved_walls"},
      {"scalar_collide_in_place", "scalar_collide_in_place_with_walls", "scalar_collide_in_place_with_curved_walls"}};
  Model model;

  template <class VS, class V>
  LATTE_INLINE Populations<V, VS::q> apply(const Populations<V, VS::q>& in, const RealVector<V, VS::d>& u) const {
    return model.template relax<VS>(in, u.v);
  }
};

}  // namespace latte::lbm
