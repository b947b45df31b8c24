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

template <class T, class E, class Op>
std::string describe_assign() {
  return "the statement kernel (field of " + type_name<T>(120) + ") " + type_name<Op>(60) + " " + type_name<E>();
}

template <class E>
std::string describe_reduce() {
  return "the reduction kernel over " + type_name<E>();
}

template <class T, class E, class R>
std::string describe_assign_reduce() {
  return "the fused statement-and-reduction kernel (field of " + type_name<T>(120) + ") = " + type_name<E>() +
         ", reducing " + type_name<R>(160);
}

template <class E>
std::string describe_pack() {
  return "the halo gather kernel of the shifted expression " + type_name<E>();
}

template <class Real>
std::string describe_unpack() {
  return "the halo scatter kernel (" + type_name<Real>() + ")";
}

template <class T, class E>
std::string describe_push() {
  return "the push kernel (field of " + type_name<T>(120) + ") from " + type_name<E>();
}

template <class Real>
std::string describe_return() {
  return "the push's halo gather kernel (" + type_name<Real>() + ")";
}

template <class Real>
std::string describe_deliver() {
  return "the push's halo delivery kernel (" + type_name<Real>() + ")";
}

}  // namespace latte::cuda
