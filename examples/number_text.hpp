#pragma once
// A number for a CSV table: written as 1.234567890e-03, or nan, so that the
// file reads back exactly enough and in any CSV reader.

#include <cmath>
#include <cstdio>
#include <string>

namespace latte::programs {

inline std::string number_text(double value, int digits) {
  if (!std::isfinite(value)) return "nan";
  char text[40];
  std::snprintf(text, sizeof text, "%.*e", digits, value);
  return text;
}

}  // namespace latte::programs
