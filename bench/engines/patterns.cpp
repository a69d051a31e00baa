#include "bench/engines/patterns.hpp"

#include <cstring>

namespace gpunet::bench::patterns {

using report::Collective;

double input(int r, int64_t i) { return (r + 1) + static_cast<double>(i % 13); }

double reduced(const std::string& op, int n, int64_t i) {
  const double base = static_cast<double>(i % 13);
  if (op == "max") return n + base;
  if (op == "min") return 1 + base;
  return n * base + n * (n + 1) / 2.0;
}

double a2a(int src, int dst, int64_t i) { return (src + 1) * 3 + (dst + 1) * 5 + static_cast<double>(i % 11); }

Shape shape(Collective c, int64_t bytes, int64_t elem_size, int nranks, int rank) {
  Shape s;
  const int64_t total = elem_size > 0 ? bytes / elem_size : 0;
  const int64_t per = nranks > 0 ? total / nranks : 0;
  switch (c) {
    case Collective::allgather:
      s = {per, per, per * nranks, per * nranks * elem_size, per * rank};
      break;
    case Collective::reduce_scatter:
      s = {per, per * nranks, per, per * nranks * elem_size, per * rank};
      break;
    case Collective::alltoall:
      s = {per, per * nranks, per * nranks, per * nranks * elem_size, 0};
      break;
    default:  // allreduce, broadcast, reduce, sendrecv
      s = {total, total, total, total * elem_size, 0};
      break;
  }
  return s;
}

bool supports_in_place(Collective c) { return c != Collective::alltoall && c != Collective::sendrecv; }

bool moves_no_data(Collective c, int nranks, bool in_place) { return in_place && nranks == 1 && supports_in_place(c); }

double send_value(Collective c, int n, int r, int64_t count, int64_t i) {
  (void)n;
  switch (c) {
    case Collective::alltoall: return a2a(r, static_cast<int>(i / count), i % count);
    case Collective::broadcast: return r == 0 ? input(0, i) : -1;
    default: return input(r, i);
  }
}

bool checked(Collective c, int r) { return c != Collective::reduce || r == 0; }

double expected(Collective c, const std::string& op, int n, int r, int64_t count, int64_t i) {
  switch (c) {
    case Collective::allreduce:
    case Collective::reduce: return reduced(op, n, i);
    case Collective::allgather: return input(static_cast<int>(i / count), i % count);
    case Collective::reduce_scatter: return reduced(op, n, r * count + i);
    case Collective::broadcast: return input(0, i);
    case Collective::alltoall: return a2a(static_cast<int>(i / count), r, i % count);
    case Collective::sendrecv: return input((r - 1 + n) % n, i);
  }
  return 0;
}

void encode(const std::string& dtype, double v, unsigned char* dst) {
  if (dtype == "float") {
    const auto x = static_cast<float>(v);
    std::memcpy(dst, &x, sizeof x);
  } else if (dtype == "double") {
    std::memcpy(dst, &v, sizeof v);
  } else if (dtype == "int32") {
    const auto x = static_cast<int32_t>(v);
    std::memcpy(dst, &x, sizeof x);
  } else if (dtype == "int64") {
    const auto x = static_cast<int64_t>(v);
    std::memcpy(dst, &x, sizeof x);
  }
}

double decode(const std::string& dtype, const unsigned char* src) {
  if (dtype == "float") {
    float x;
    std::memcpy(&x, src, sizeof x);
    return x;
  }
  if (dtype == "double") {
    double x;
    std::memcpy(&x, src, sizeof x);
    return x;
  }
  if (dtype == "int32") {
    int32_t x;
    std::memcpy(&x, src, sizeof x);
    return x;
  }
  int64_t x;
  std::memcpy(&x, src, sizeof x);
  return static_cast<double>(x);
}

}  // namespace gpunet::bench::patterns
