// The error vocabulary of every layer: ErrorKind (the CMIS exception names of
// docs/API.md §8), Status (OK or a kind + message) and Result<T> (a T or a Status).
// Nothing is thrown across a layer; these values are returned instead.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <variant>

namespace folio {

enum class ErrorKind {
  kOk = 0,
  kInvalidArgument,          // malformed or missing parameter; the message names it
  kObjectNotFound,           // no object, type, domain or repository at that path or id
  kNameConstraintViolation,  // empty, reserved, too long or duplicate name
  kConstraint,               // a valid request that the type or state forbids
  kVersioning,               // the check-out state forbids it; names who holds it
  kUpdateConflict,           // stale change token or concurrent change
  kContentAlreadyExists,     // the thing to create exists (content, domain, repository)
  kPermissionDenied,         // authenticated but not allowed, or a read-only server
  kUnauthorized,             // missing or wrong credentials
  kNotSupported,             // unknown operation or absent capability
  kFilterNotValid,           // bad property filter
  kStreamNotSupported,       // content not allowed for the type
  kStorage,                  // the disk failed or holds something unreadable
  kRuntime,                  // a bug: an invariant did not hold
};

// The CMIS exception name of `kind` ("invalidArgument", ...); "ok" for kOk.
std::string_view ErrorKindName(ErrorKind kind);

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK; costs nothing
  Status(ErrorKind kind, std::string message, std::optional<std::errc> cause = std::nullopt)
      : kind_(kind), message_(std::move(message)), cause_(cause) {}

  bool ok() const { return kind_ == ErrorKind::kOk; }
  ErrorKind kind() const { return kind_; }
  const std::string& message() const { return message_; }
  // The errno behind a kStorage error, when the filesystem gave one (PosixFs sets it).
  std::optional<std::errc> cause() const { return cause_; }
  bool Is(std::errc e) const { return cause_ && *cause_ == e; }

  // "objectNotFound: no object at path '/a'"; "ok" when OK.
  std::string ToString() const;

 private:
  ErrorKind kind_ = ErrorKind::kOk;
  std::string message_;
  std::optional<std::errc> cause_;
};

// A filesystem error saying the path does not exist (ENOENT).
inline bool IsNoEntry(const Status& s) { return s.Is(std::errc::no_such_file_or_directory); }
// The same, or a file where a directory was expected on the way (ENOTDIR): nothing of
// that name there either.
inline bool IsMissing(const Status& s) { return IsNoEntry(s) || s.Is(std::errc::not_a_directory); }

inline Status OkStatus() { return Status(); }
inline Status InvalidArgument(std::string m) { return {ErrorKind::kInvalidArgument, std::move(m)}; }
inline Status ObjectNotFound(std::string m) { return {ErrorKind::kObjectNotFound, std::move(m)}; }
inline Status NameConstraintViolation(std::string m) {
  return {ErrorKind::kNameConstraintViolation, std::move(m)};
}
inline Status Constraint(std::string m) { return {ErrorKind::kConstraint, std::move(m)}; }
inline Status Versioning(std::string m) { return {ErrorKind::kVersioning, std::move(m)}; }
inline Status UpdateConflict(std::string m) { return {ErrorKind::kUpdateConflict, std::move(m)}; }
inline Status ContentAlreadyExists(std::string m) {
  return {ErrorKind::kContentAlreadyExists, std::move(m)};
}
inline Status PermissionDenied(std::string m) { return {ErrorKind::kPermissionDenied, std::move(m)}; }
inline Status NotSupported(std::string m) { return {ErrorKind::kNotSupported, std::move(m)}; }
inline Status StreamNotSupported(std::string m) {
  return {ErrorKind::kStreamNotSupported, std::move(m)};
}
inline Status StorageError(std::string m, std::optional<std::errc> cause = std::nullopt) {
  return {ErrorKind::kStorage, std::move(m), cause};
}
inline Status RuntimeError(std::string m) { return {ErrorKind::kRuntime, std::move(m)}; }

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {  // NOLINT
    if (std::get<Status>(v_).ok()) v_ = Status(ErrorKind::kRuntime, "Result built from an OK Status");
  }

  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> v_;
};

namespace internal {
inline Status AsStatus(const Status& s) { return s; }
template <typename T>
Status AsStatus(const Result<T>& r) { return r.status(); }
}  // namespace internal

}  // namespace folio

#define FOLIO_CONCAT_INNER(a, b) a##b
#define FOLIO_CONCAT(a, b) FOLIO_CONCAT_INNER(a, b)

// Returns the error of `expr` (a Status or a Result) from the enclosing function.
// Holds a Status by value: `expr` may be `SomeCall().status()`, a reference into a
// temporary that dies at the end of the statement.
#define FOLIO_RETURN_IF_ERROR(expr)                                          \
  do {                                                                       \
    ::folio::Status folio_status_ = ::folio::internal::AsStatus((expr));     \
    if (!folio_status_.ok()) return folio_status_;                           \
  } while (0)

// `lhs = value of expr` when OK; otherwise returns its status.
#define FOLIO_ASSIGN_OR_RETURN(lhs, expr) \
  FOLIO_ASSIGN_OR_RETURN_IMPL(FOLIO_CONCAT(folio_result_, __LINE__), lhs, expr)
#define FOLIO_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                \
  if (!tmp.ok()) return tmp.status();               \
  lhs = std::move(tmp).value()
