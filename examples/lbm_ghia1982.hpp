#pragma once
// Reference data for the lid-driven cavity at Re = 100, typed from
// U. Ghia, K. N. Ghia and C. T. Shin, "High-Re solutions for incompressible
// flow using the Navier-Stokes equations and a multigrid method",
// J. Comput. Phys. 48 (1982) 387-411, Table I (u along the vertical centre
// line x = 0.5) and Table II (v along the horizontal centre line y = 0.5).
// Coordinates are in units of the cavity side, velocities in units of the
// lid speed; y = 1 is the moving lid.

namespace ghia1982 {

struct Point {
  double position;
  double velocity;
};

inline constexpr Point re100_u[] = {
    {1.0000, 1.00000},  {0.9766, 0.84123},  {0.9688, 0.78871},  {0.9609, 0.73722},  {0.9531, 0.68717},
    {0.8516, 0.23151},  {0.7344, 0.00332},  {0.6172, -0.13641}, {0.5000, -0.20581}, {0.4531, -0.21090},
    {0.2813, -0.15662}, {0.1719, -0.10150}, {0.1016, -0.06434}, {0.0703, -0.04775}, {0.0625, -0.04192},
    {0.0547, -0.03717}, {0.0000, 0.00000}};

inline constexpr Point re100_v[] = {
    {1.0000, 0.00000},  {0.9688, -0.05906}, {0.9609, -0.07391}, {0.9531, -0.08864}, {0.9453, -0.10313},
    {0.9063, -0.16914}, {0.8594, -0.22445}, {0.8047, -0.24533}, {0.5000, 0.05454},  {0.2344, 0.17527},
    {0.2266, 0.17507},  {0.1563, 0.16077},  {0.0938, 0.12317},  {0.0781, 0.10890},  {0.0703, 0.10091},
    {0.0625, 0.09233},  {0.0000, 0.00000}};

}  // namespace ghia1982
