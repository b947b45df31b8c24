#pragma once
// Readable names of statements for error messages: the demangled type of the
// destination and of the fused expression, shortened (a Wilson operator's
// expression type runs to many kilobytes).

#include <cstdlib>
#include <memory>
#include <string>
#include <typeinfo>

#include <cxxabi.h>

namespace latte::cuda {

template <class T>
std::string type_name(std::size_t limit = 240) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(abi::__cxa_demangle(typeid(T).name(), nullptr, nullptr, &status),
                                                   std::free);
  std::string name = status == 0 && demangled ? demangled.get() : typeid(T).name();
  if (name.size() > limit) name = name.substr(0, limit) + "...(" + std::to_string(name.size()) + " characters)";
  return name;
}

template <class Kernel>
std::string describe_statement() {
  return "the statement kernel " + type_name<Kernel>();
}

template <class Kernel>
std::string describe_reduce() {
  return "the reduction kernel " + type_name<Kernel>();
}

// Halo kernels name what they do (dsl/exec/halo_kernels.hpp: Kernel::what).
template <class Kernel>
std::string describe_halo() {
  return std::string("the ") + Kernel::what + " kernel " + type_name<Kernel>();
}

}  // namespace latte::cuda
